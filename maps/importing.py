"""The importers' limits from the Django settings (HEXSIDE_IMPORT_*), for the commands, the API and the jobs; and
who converts a community map uploaded on the Import page in the background (an app registers, maps imports none).
"""

from django.conf import settings

from engine.importers import ImportLimits


def limits():
    return ImportLimits(
        max_bytes=settings.HEXSIDE_IMPORT_MAX_BYTES,
        max_zip_entries=settings.HEXSIDE_IMPORT_MAX_ZIP_ENTRIES,
        max_zip_total_bytes=settings.HEXSIDE_IMPORT_MAX_ZIP_TOTAL_BYTES,
        max_zip_ratio=settings.HEXSIDE_IMPORT_MAX_ZIP_RATIO,
        max_image_pixels=settings.HEXSIDE_IMPORT_MAX_IMAGE_PIXELS,
        max_picture_pixels=settings.HEXSIDE_IMPORT_PICTURE_PIXELS,
        max_hexes=settings.HEXSIDE_IMPORT_MAX_HEXES,
        max_pixels=settings.HEXSIDE_IMPORT_MAX_PIXELS,
    )


class ImportRefused(Exception):
    """An upload the background import does not take, said in one line for the page."""


_background = None


def set_background_import(handler):
    """``handler(user, uploads, ruleset, address, name)`` converts community map files in the background and returns
    the page that follows it (raising ImportRefused, or the jobs' own TooManyJobs/BrokerUnavailable). Batch
    validation registers it (validations/apps.py)."""
    global _background
    _background = handler


def background_import(user, uploads, ruleset, address="", name=""):
    if _background is None:
        raise ImportRefused("this site converts only Hexside map files (no background import is installed)")
    return _background(user, uploads, ruleset, address, name)
