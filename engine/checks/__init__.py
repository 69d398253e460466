"""**Map checks**, per ruleset (docs/validation.md): what each game's rules allow a map to hold.

    from engine import checks
    findings = checks.run(doc)      # mapfile.Finding list, warnings and errors, each with its hex (and side)

The checks are data-driven (rules.py, data/<ruleset>.json); a sample of LOS answers is asked both ways
(reciprocity.py), bounded in count and time. The format errors stay in engine.mapfile; a file's findings (format
errors, format warnings and map checks together) are engine.checks.findings. No Django here.
"""

from engine import rulesets
from engine.checks.reciprocity import DEFAULT_PAIRS, DEFAULT_SECONDS, check_reciprocity
from engine.checks.rules import check_rules
from engine.los import engine as los_engine
from engine.los import examples as los_examples
from engine.mapfile import Finding, examples


def run(doc, catalogue=None, los_pairs=DEFAULT_PAIRS, los_seconds=DEFAULT_SECONDS):
    """Every rules-level finding for a parsed map; ``los_pairs=0`` leaves the LOS sample out."""
    if catalogue is None:
        catalogue = rulesets.get(doc.ruleset)
    findings = check_rules(doc, catalogue)
    findings += check_reciprocity(doc, pairs=los_pairs, seconds=los_seconds)
    findings += check_examples(doc, catalogue)
    return findings


def check_examples(doc, catalogue=None):
    """A warning per LOS example the map keeps that no longer gives the answer written down with it
    (engine.los.examples); none when every example holds, or the map keeps none."""
    if not examples.cases(doc):
        return []
    cmap = los_engine.compile_map(doc, catalogue=catalogue)
    return [Finding(f"extensions.los_examples.cases[{row['number'] - 1}]",
                    f"LOS example {row['number']}, {los_examples.describe(row)}", row["case"]["from"],
                    code="los-example", severity="warning")
            for row in los_examples.run(cmap, doc) if not row["holds"]]


__all__ = ["run", "check_rules", "check_reciprocity", "check_examples"]
