"""The map as a mapping will import it, small: what the Import page's mapping step shows while a designer edits the
mapping (docs/importing.md, "The mapping step"). No Django.

A preview converts the source once with the mapping, checks the map as the validation report does (the same
``check_map``, with the same LOS sample the caller gives: the preview's errors are the report's) and draws a
thumbnail, the hexes a flagged code left open shaded; a 100 x 100 source is converted, checked and drawn in about
two seconds (bench/bench_mapping_preview.py).
"""

import io

from engine import checks, render, rulesets
from engine.checks import findings as file_findings
from engine.importers import convert_upload, mappings
from engine.los.engine import compile_map

PREVIEW_PX = 480  # the longer side of the picture
LEFT_OPEN = (230, 120, 0, 150)  # laid over the hexes a flagged code left open


def picture(doc, catalogue, size, left_open):
    """The thumbnail, with the hexes left open and flagged shaded when it is drawn hex by hex (a large map is a
    mosaic of its cells, one pixel a hex; the findings name those hexes)."""
    min_x, min_y, max_x, max_y = doc.grid.extent()
    scale = size / max(max_x - min_x, max_y - min_y)
    if doc.grid.size > render.MOSAIC_ABOVE or scale < 2:
        return render.thumbnail_of(doc, catalogue, size)
    return render.draw_map(compile_map(doc, catalogue=catalogue), scale, margin=0, labels=False,
                           patterns=scale >= 7, shading={label: LEFT_OPEN for label in left_open})


def preview(upload, mapping, ruleset=None, limits=None, size=PREVIEW_PX, los_pairs=0,
            los_seconds=checks.DEFAULT_SECONDS):
    """(PNG bytes or None, findings grouped one line per kind, hexes) of one upload converted with ``mapping``,
    then checked (``los_pairs``: the LOS reciprocity sample, 0 for none)."""
    result = convert_upload(upload, ruleset=ruleset, mapping=mapping, limits=limits, keep_parsed=True)
    findings = list(result.findings)
    png, hexes = None, 0
    doc = result.parsed  # the conversion read it as the map format does: it is not read again
    if doc is not None:
        findings.extend(file_findings.check_map(doc, los_pairs=los_pairs, los_seconds=los_seconds))
        catalogue = rulesets.get(doc.ruleset or ruleset or mappings.DEFAULT_RULESET)
        image = picture(doc, catalogue, size, (result.survey or {}).get("left_open", ()))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=False, compress_level=3)
        png, hexes = out.getvalue(), doc.grid.size
    return png, file_findings.grouped(findings), hexes
