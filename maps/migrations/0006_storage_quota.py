# The storage quota (maps/quotas.py) reads sizes kept on the map row: the bytes of its revisions and of the board
# scan it names. Existing maps are counted once here.

import json
from pathlib import Path

from django.conf import settings
from django.db import migrations, models

IMAGE = "scan-"


def count(apps, schema_editor):
    Map = apps.get_model("maps", "Map")
    MapRevision = apps.get_model("maps", "MapRevision")
    for map in Map.objects.only("pk").iterator():
        stored = 0
        for snapshot, changes in MapRevision.objects.filter(map_id=map.pk).values_list("snapshot", "changes").iterator():
            if snapshot is not None:
                stored += len(snapshot)
            elif changes:
                stored += len(json.dumps(changes, separators=(",", ":")).encode("utf-8"))
        folder = Path(settings.MEDIA_ROOT) / "maps" / str(map.pk) / "scans"
        scans = sum(p.stat().st_size for p in folder.glob(IMAGE + "*") if p.is_file()) if folder.is_dir() else 0
        Map.objects.filter(pk=map.pk).update(stored_bytes=stored, scan_bytes=scans)


class Migration(migrations.Migration):

    dependencies = [
        ('maps', '0005_revisions_as_changes'),
    ]

    operations = [
        migrations.AddField(
            model_name='map',
            name='stored_bytes',
            field=models.PositiveBigIntegerField(default=0, help_text="Bytes its revisions take (snapshots and deltas), for its owner's storage quota."),
        ),
        migrations.AddField(
            model_name='map',
            name='scan_bytes',
            field=models.PositiveBigIntegerField(default=0, help_text='Bytes of the board scan its current revision names, for its owner\'s storage quota.'),
        ),
        migrations.RunPython(count, migrations.RunPython.noop),
    ]
