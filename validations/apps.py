from django.apps import AppConfig


class ValidationsConfig(AppConfig):
    name = "validations"
    verbose_name = "Batch validations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models import Sum

        from jobs import kinds
        from maps import quotas
        from validations.models import BatchValidation

        # A batch's upload counts towards its owner's storage quota (maps.quotas) while the batch is kept.
        quotas.register("validations", lambda user_id: BatchValidation.objects.filter(owner_id=user_id)
                        .aggregate(n=Sum("size"))["n"] or 0)

        # About no subject: a batch is its owner's alone, as a job about nothing is its requester's.
        kinds.register(kinds.Kind("batch-validation", "validations.batch_validation_assemble",
                                  part_task="validations.batch_validation_part", label="batch validation"))
