"""How an importer says what is wrong: a finding on the source file, or Refused when the file cannot be imported
at all. Its own module so that common (the builder) and mappings (the terrain mappings) both import it and
neither imports the other back."""

from engine import mapfile


class Refused(Exception):
    """The file cannot be imported at all; the context's findings say why."""


def finding(path, message, hex=None, code="invalid", severity="error"):
    return mapfile.Finding(path, message, hex, code, severity)
