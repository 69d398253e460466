"""A stored map's findings (docs/validation.md): its format warnings and map checks, kept in the cache per content.

They are computed on the request: the rules checks cost about one pass over the listed hexes, and the LOS sample
is bounded by HEXSIDE_FINDINGS_LOS_*.
"""

from django.conf import settings
from django.core.cache import cache

from engine import render as map_render
from engine.checks import findings as file_findings

FINDINGS_CACHE_SECONDS = 3600


# -- findings of a stored map ----------------------------------------------------------------------------

def map_findings(map):
    """The findings of a stored map, in validate_map's shape plus path, hex and side; cached per content."""
    key = f"hexside:findings:{map.ruleset}:{map.content_hash}"
    found = cache.get(key)
    if found is None:
        doc = map.mapdoc()
        # Compiling a map for LOS costs about a second per 25,000 hexes: past the limit, no sample on a request.
        pairs = settings.HEXSIDE_FINDINGS_LOS_PAIRS if doc.grid.size <= settings.HEXSIDE_FINDINGS_LOS_MAX_HEXES else 0
        found = [f.as_dict() for f in file_findings.check_map(doc, los_pairs=pairs,
                                                           los_seconds=settings.HEXSIDE_FINDINGS_LOS_SECONDS)]
        cache.set(key, found, FINDINGS_CACHE_SECONDS)
    return found


def highlights(grid, findings):
    """Shapes to lay over the map image (engine/render.py's pixels): each finding's hex, or its hexside."""
    (width, height), px = map_render.image_space(grid)
    shapes = []
    for n, finding in enumerate(findings):
        if not finding.get("hex"):
            continue
        try:
            col, row = grid.parse_hex(finding["hex"])
        except ValueError:
            continue
        shape = {"n": n, "severity": finding["severity"], "code": finding["code"], "hex": finding["hex"],
                 "side": finding.get("side"), "message": finding["message"]}
        if finding.get("side"):
            a, b = (px(p) for p in grid.side_endpoints(col, row, finding["side"]))
            shape["line"] = [round(v, 1) for v in (*a, *b)]
        else:
            shape["points"] = " ".join(f"{x:.1f},{y:.1f}" for x, y in (px(p) for p in grid.corners(col, row)))
        shapes.append(shape)
    return {"width": width, "height": height, "shapes": shapes}


def map_page_context(map):
    """What the map page needs to show the findings: the list, and shapes over the image."""
    found = map_findings(map)
    return {"findings": found, "overlay": highlights(map.hex_grid(), found)}
