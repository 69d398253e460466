# The batch validation models now live in the validations app, over the same tables (validations 0001).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('maps', '0003_merge_harden_checks'),
        ('validations', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='BatchFile'),
                migrations.DeleteModel(name='BatchValidation'),
            ],
            database_operations=[],
        ),
    ]
