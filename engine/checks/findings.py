"""A file's **findings** (docs/validation.md): its format errors first, then the format warnings and the map checks,
what a designer wants to hear about before the table does.

Format errors come from engine.mapfile (a map with errors is not loaded at all; it gets no other checks); the
map checks from engine.checks. Warnings never stop a map from loading or LOS from being answered.
"""

from pathlib import Path

from shapely.geometry import Polygon

from engine import checks, mapfile


def validate_bytes(data, name="<map>", los_pairs=checks.DEFAULT_PAIRS):
    """(doc or None, findings) for one file's content: the format's errors, else its warnings and the rules'."""
    try:
        doc = mapfile.parse(data)
    except mapfile.MapFormatError as exc:
        return None, list(exc.errors)
    return doc, check_map(doc, los_pairs=los_pairs)


def validate_file(path):
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))
        return None, [mapfile.Finding("$", f"cannot read the file: {reason}", code="unreadable")]
    return validate_bytes(data, str(path))


def warning(path, message, hex=None, code="warning"):
    return mapfile.Finding(path, message, hex, code, severity="warning")


def check_map(doc, los_pairs=checks.DEFAULT_PAIRS, los_seconds=checks.DEFAULT_SECONDS):
    """Findings about a map that parsed: the format's warnings (legal but probably not meant), then the rules'
    checks of its game (engine.checks)."""
    findings = format_warnings(doc)
    findings += checks.run(doc, los_pairs=los_pairs, los_seconds=los_seconds)
    return findings


def format_warnings(doc):
    """Things the format allows that are probably not meant: redundant hexes, art spilling, overlays overlapping."""
    findings = []
    grid = doc.grid
    default = doc.default_cell()
    for _n, (pos, cell) in enumerate(sorted(doc.hexes.items())):
        label = grid.label(*pos)
        if cell == default:
            findings.append(warning(f"hexes[{label}]", "this hex is listed but holds only the defaults", label,
                                    code="redundant-hex"))
        if cell.art:
            hex_shape = Polygon(grid.corners(*pos)).buffer(1e-6)
            for k, poly in enumerate(cell.art):
                if not hex_shape.contains(Polygon(poly)):
                    findings.append(warning(f"hexes[{label}].art[{k}]", "the art spills over the hex's edge; only "
                                            "the part inside the hex counts for LOS", label, code="art-spills"))
    cells, _ = doc.resolved()
    seen = {}
    for overlay in doc.overlays:
        for pos, _cell in mapfile.overlay_cells(grid, overlay, default):
            if pos in seen:
                findings.append(warning(f"overlays[{overlay.id}]", f"overlay {overlay.id} covers a hex that overlay "
                                        f"{seen[pos]} already covers; the later one wins", grid.label(*pos),
                                        code="overlays-overlap"))
            seen[pos] = overlay.id
    return findings


GROUP_HEXES = 12  # hexes named in one group of findings


def grouped(findings):
    """One line per kind of finding (severity and code), most severe and most frequent first, with its count, its
    first hexes and its first message: what a report shows instead of 104 near-identical lines."""
    groups = {}
    for f in findings:
        if f.code == "more-findings":
            continue
        group = groups.setdefault((f.severity, f.code), {"severity": f.severity, "code": f.code, "count": 0,
                                                         "hexes": [], "message": f.message, "where": f.where})
        group["count"] += 1
        if f.hex and f.hex not in group["hexes"] and len(group["hexes"]) < GROUP_HEXES:
            group["hexes"].append(f.hex)
    return sorted(groups.values(), key=lambda g: (g["severity"] != "error", -g["count"], g["code"]))
