from django.apps import AppConfig
from django.db.models import Sum

from jobs import kinds
from maps import importing, quotas


class ValidationsConfig(AppConfig):
    name = "validations"
    verbose_name = "Batch validations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # These load models: only once the app registry is ready.
        from validations.batches import KIND, batch_cost, batch_cost_of_file, start_import
        from validations.mapsteps import KIND as STEP
        from validations.models import BatchFile, BatchValidation

        # A batch's upload and the maps converted from its files count towards its owner's storage quota
        # (maps.quotas) while the batch is kept.
        def stored(user_id):
            uploads = BatchValidation.objects.filter(owner_id=user_id).aggregate(n=Sum("size"))["n"] or 0
            converted = BatchFile.objects.filter(batch__owner_id=user_id).aggregate(n=Sum("document_bytes"))["n"]
            return uploads + (converted or 0)

        quotas.register("validations", stored)
        # A community map uploaded on the Import page is converted by a batch validation of its files.
        importing.set_background_import(start_import)

        # About no subject: a batch is its owner's alone, as a job about nothing is its requester's.
        kinds.register(kinds.Kind(KIND, "validations.batch_validation_assemble",
                                  part_task="validations.batch_validation_part", label="batch validation",
                                  cost=batch_cost))
        # The mapping step's preview and confirmation (docs/importing.md) convert a file again, as a batch does: a
        # heavy job, on the heavy queue, so that one designer's previews never hold the LOS workers.
        kinds.register(kinds.Kind(STEP, "validations.mapping_step", label="mapping step", cost=batch_cost_of_file))
