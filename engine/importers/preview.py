"""The map as a mapping will import it, small: what the Import page's mapping step shows while a designer edits the
mapping (docs/importing.md, "The mapping step"). No Django.

A preview converts the source once with the mapping and draws a thumbnail; it runs no map checks (they come when
the map is opened), so a 100 x 100 source is converted and drawn in well under two seconds
(bench/bench_mapping_preview.py).
"""

import io

from engine import mapfile, rulesets
from engine.checks import findings as file_findings
from engine.importers import convert_upload, mappings

PREVIEW_PX = 480  # the longer side of the picture


def preview(upload, mapping, ruleset=None, limits=None, size=PREVIEW_PX):
    """(PNG bytes or None, findings grouped one line per kind, hexes) of one upload converted with ``mapping``."""
    from engine import render

    result = convert_upload(upload, ruleset=ruleset, mapping=mapping, limits=limits)
    findings = list(result.findings)
    png, hexes = None, 0
    if result.doc is not None:
        try:
            doc = mapfile.parse(result.doc)
        except mapfile.MapFormatError as exc:
            findings.extend(exc.errors)
        else:
            catalogue = rulesets.get(doc.ruleset or ruleset or mappings.DEFAULT_RULESET)
            image = render.thumbnail_of(doc, catalogue, size)
            out = io.BytesIO()
            image.save(out, "PNG", optimize=False, compress_level=3)
            png, hexes = out.getvalue(), doc.grid.size
    return png, file_findings.grouped(findings), hexes
