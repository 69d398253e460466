
# The storage quota (maps/quotas.py) counts the maps converted from a batch's files: existing rows counted once.

import json

from django.db import migrations, models


def count(apps, schema_editor):
    BatchFile = apps.get_model("validations", "BatchFile")
    rows = BatchFile.objects.filter(document__isnull=False).values_list("pk", "document")
    for pk, document in rows.iterator():
        size = len(json.dumps(document, separators=(",", ":")).encode("utf-8"))
        BatchFile.objects.filter(pk=pk).update(document_bytes=size)


class Migration(migrations.Migration):

    dependencies = [
        ('validations', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='batchfile',
            name='document_bytes',
            field=models.PositiveBigIntegerField(default=0, help_text="Bytes of the converted map as JSON, for the owner's storage quota."),
        ),
        migrations.RunPython(count, migrations.RunPython.noop),
    ]
