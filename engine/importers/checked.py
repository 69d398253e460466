"""A community map's findings (docs/validation.md): the file converted (engine.importers), then checked as a
Hexside map (engine.checks.findings); the conversion's findings come first. Above both, so that the checks never
import the importers back."""

from engine import checks, importers, mapfile
from engine.checks import findings as findings_of
from engine.importers import suggest


def validate_source(name, data, *, files=None, limits=None, ruleset=None, mapping=None):
    """[(name, doc or None, findings)] for one file of any format engine.importers reads, or a zip of them: each
    map is converted, then checked as a Hexside map; the conversion's findings come first."""
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
            result.findings.insert(0, findings_of.warning(
                "$", "converted with a proposed mapping, since the default one did "
                     f"not fit{': ' if said else ''}{'; '.join(said)}. Download the mapping to check or edit it",
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
            findings.extend(findings_of.check_map(doc, los_pairs=los_pairs, los_seconds=los_seconds))
    return doc, findings, source_format, proposal, files
