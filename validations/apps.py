from django.apps import AppConfig


class ValidationsConfig(AppConfig):
    name = "validations"
    verbose_name = "Batch validations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from jobs import kinds
        from validations.batches import KIND, batch_cost

        # About no subject: a batch is its owner's alone, as a job about nothing is its requester's.
        kinds.register(kinds.Kind(KIND, "validations.batch_validation_assemble",
                                  part_task="validations.batch_validation_part", label="batch validation",
                                  cost=batch_cost))
