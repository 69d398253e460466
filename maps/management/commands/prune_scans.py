"""Delete the board scans no map names any more, and count each map's scan again.

Since scans are deleted when they are replaced or removed (maps.scans.replaced), only files stored before that
are left over: this removes them once (after the upgrade), and sets each map's scan_bytes to the size of the
scan its current revision names. It reads every map, so it is a command, never a request.
"""

from django.core.management.base import BaseCommand

from maps import scans
from maps.models import Map


class Command(BaseCommand):
    help = "Delete the board scans no map's current revision names, and count each map's scan again."

    def handle(self, *args, **options):
        removed = freed = 0
        for map in Map.objects.only("pk", "revision", "content_hash").iterator():
            folder = scans.folder(map.pk)
            if not folder.is_dir():
                continue
            named = scans.image_of(map.mapdoc())
            for path in folder.iterdir():
                if path.is_file() and path.name != named:
                    freed += path.stat().st_size
                    path.unlink(missing_ok=True)
                    removed += 1
            kept = scans.path_of(map.pk, named)
            Map.objects.filter(pk=map.pk).update(scan_bytes=kept.stat().st_size if kept else 0)
        self.stdout.write(f"removed {removed} scan files no map names ({freed:,} bytes)")
