"""The importers' limits from the Django settings (HEXSIDE_IMPORT_*), for the commands, the API and the jobs."""

from django.conf import settings

from engine.importers import ImportLimits


def limits():
    return ImportLimits(
        max_bytes=settings.HEXSIDE_IMPORT_MAX_BYTES,
        max_zip_entries=settings.HEXSIDE_IMPORT_MAX_ZIP_ENTRIES,
        max_zip_total_bytes=settings.HEXSIDE_IMPORT_MAX_ZIP_TOTAL_BYTES,
        max_zip_ratio=settings.HEXSIDE_IMPORT_MAX_ZIP_RATIO,
        max_image_pixels=settings.HEXSIDE_IMPORT_MAX_IMAGE_PIXELS,
    )
