"""The **batch file check** (docs/validation.md): one file of a batch validation, converted from whatever format it
is in, then given its findings. No Django.

The verdict a designer reads first: ``invalid`` (it could not be read or converted, or breaks a rule outright),
``warnings`` (usable, with things to look at) or ``ok``.
"""

from engine import mapfile
from engine.checks import findings as findings_of
from engine.importers import checked

VERDICTS = ("ok", "warnings", "invalid")
LISTED_FINDINGS = 100  # findings stored and reported per file; the rest are counted in a last one


def verdict(findings, doc):
    if doc is None or any(f.severity == "error" for f in findings):
        return "invalid"
    return "warnings" if findings else "ok"


def check_upload(upload, limits=None, los_pairs=0, los_seconds=0.0, ruleset=None, mapping=None):
    """One of ``importers.expand()``'s uploads, converted to ``ruleset`` and checked: a dict ready to store and
    report.

    ``document`` is the canonical map document (or None), ready to be opened as a map of one's own; when the
    default mapping did not fit, it is converted with a proposed one, which is ``mapping`` (a designer's
    ``mapping``, when given, is used as it is: the mapping step's confirmed one); ``files`` are what to
    keep beside it (a VASSAL board's image, by the name its background entry gives). ``groups`` are the
    findings one line per kind (engine.checks.findings.grouped), counted over all of them.
    """
    proposal, files = None, {}
    try:
        doc, findings, source_format, proposal, files = checked.validate_proposed(
            upload, ruleset=ruleset, mapping=mapping, limits=limits, los_pairs=los_pairs, los_seconds=los_seconds)
        proposal = mapping if mapping is not None else proposal
    except Exception as exc:  # noqa: BLE001 - one file that breaks an importer must not stop the batch
        doc, source_format = None, "unknown"
        findings = [mapfile.Finding("$", f"this file could not be converted ({exc.__class__.__name__}: {exc})",
                                    code="import-failed")]
    listed = mapfile.Findings(LISTED_FINDINGS, "findings")
    listed.extend(f for f in findings if f.code != "more-findings")
    return {
        "name": upload.name,
        "source_format": source_format,
        "verdict": verdict(findings, doc),
        "errors": sum(f.severity == "error" for f in findings if f.code != "more-findings"),
        "warnings": sum(f.severity != "error" for f in findings if f.code != "more-findings"),
        "findings": [f.as_dict() for f in listed],
        "groups": findings_of.grouped(findings),
        "mapping": proposal,
        "files": files if doc is not None else {},
        "document": mapfile.to_dict(doc) if doc is not None else None,
    }
