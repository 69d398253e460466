"""Revisions keep their map file compressed (MapRevision.packed) instead of as a JSON column."""

import json
import zlib

from django.db import migrations, models


def pack_documents(apps, schema_editor):
    MapRevision = apps.get_model("maps", "MapRevision")
    for revision in MapRevision.objects.only("pk", "document").iterator(chunk_size=50):
        text = json.dumps(revision.document, ensure_ascii=False, separators=(",", ":"))
        MapRevision.objects.filter(pk=revision.pk).update(packed=zlib.compress(text.encode("utf-8"), 6))


def unpack_documents(apps, schema_editor):
    MapRevision = apps.get_model("maps", "MapRevision")
    for revision in MapRevision.objects.only("pk", "packed").iterator(chunk_size=50):
        document = json.loads(zlib.decompress(bytes(revision.packed)).decode("utf-8"))
        MapRevision.objects.filter(pk=revision.pk).update(document=document)


class Migration(migrations.Migration):
    dependencies = [("maps", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="maprevision", name="packed",
            field=models.BinaryField(default=b"",
                                     help_text="The map file of this revision: canonical JSON, zlib-compressed."),
            preserve_default=False),
        migrations.AlterField(model_name="maprevision", name="document", field=models.JSONField(null=True)),
        migrations.RunPython(pack_documents, unpack_documents),
        migrations.RemoveField(model_name="maprevision", name="document"),
    ]
