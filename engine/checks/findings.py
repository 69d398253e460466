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
    for n, (pos, cell) in enumerate(sorted(doc.hexes.items())):
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


def validate_source(name, data, *, files=None, limits=None, ruleset=None, mapping=None):
    """[(name, doc or None, findings)] for one file of any format engine.importers reads, or a zip of them: each
    map is converted, then checked as a Hexside map; the conversion's findings come first."""
    from engine import importers

    out = []
    for upload in importers.expand(name, data, limits):
        if files is not None and not upload.files:
            upload.files = files
        doc, findings, _format = validate_upload(upload, ruleset=ruleset, mapping=mapping, limits=limits)
        out.append((upload.name, doc, findings))
    return out


def validate_upload(upload, *, ruleset=None, mapping=None, limits=None, los_pairs=checks.DEFAULT_PAIRS,
                    los_seconds=checks.DEFAULT_SECONDS):
    """(doc or None, findings, source format) for one of importers.expand()'s uploads: converted, then checked."""

    doc, findings, source_format, _proposal, _files = validate_proposed(
        upload, ruleset=ruleset, mapping=mapping, limits=limits, los_pairs=los_pairs, los_seconds=los_seconds,
        propose=False)
    return doc, findings, source_format


# What the default mapping could not do that a proposed mapping does: the file is then converted with the proposal.
PROPOSABLE = ("unmapped-terrain", "level-out-of-range")


def validate_proposed(upload, *, ruleset=None, mapping=None, limits=None, los_pairs=checks.DEFAULT_PAIRS,
                      los_seconds=checks.DEFAULT_SECONDS, propose=True):
    """validate_upload(), with a proposed mapping for a community map's terrain codes (engine/importers/suggest.py),
    and when the default mapping leaves codes unmapped or levels out of range (and the designer gave no
    mapping), the file converted again with that proposal:
    (doc or None, findings, source format, proposal or None, files to keep beside the map: a VASSAL board's
    image, by the name its background entry gives). Nothing becomes open ground without a finding
    saying so: the proposal's flagged codes are ``terrain-left-open`` warnings naming their hexes."""
    from engine import importers
    from engine.importers import suggest

    result = importers.convert_upload(upload, ruleset=ruleset, mapping=mapping, limits=limits)
    proposal = None
    if propose and mapping is None and result.survey is not None and result.survey["codes"]:
        # Every community map with terrain codes gets its proposal, for the mapping step; the file is converted
        # with it only when the default mapping did not fit.
        proposal = suggest.proposal_for(result, upload.name, ruleset, limits)
        if proposal is not None and any(f.code in PROPOSABLE and f.severity == "error" for f in result.findings):
            result = None  # the default conversion is let go before the second is made
            result = importers.convert_upload(upload, ruleset=ruleset, mapping=proposal, limits=limits)
            unsure = [code for code, entry in proposal["terrain"].items()
                      if entry["confidence"] < 0.9 and not entry.get("flag")]
            said = [f"levels: {proposal['levels']['reason']}"] if proposal["levels"]["confidence"] < 1 else []
            if unsure:
                said.insert(0, f"{len(unsure)} source terrain code{'s' * (len(unsure) != 1)} to check "
                               f"({', '.join(unsure[:8])}{' ..' if len(unsure) > 8 else ''})")
            result.findings.insert(0, warning("$", "converted with a proposed mapping, since the default one did "
                                              f"not fit{': ' if said else ''}{'; '.join(said)}. Download the "
                                              "mapping to check or edit it",
                                              code="proposed-mapping"))
    doc, findings, source_format, converted = None, list(result.findings), result.source_format, result.doc
    files = result.files
    result = None  # the converted dict is let go once read: a 500 x 500 map is held once, not twice
    if converted is not None:
        try:
            doc = mapfile.parse(converted)
        except mapfile.MapFormatError as exc:
            findings.extend(exc.errors)
        else:
            converted = None
            findings.extend(check_map(doc, los_pairs=los_pairs, los_seconds=los_seconds))
    return doc, findings, source_format, proposal, files


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
