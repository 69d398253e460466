"""The toy game's scenario checks (rules.md, rule 3): each side needs a morale number."""

from engine.scenarios.checks.common import warning


def check(doc, board):
    return [warning(f"sides[{s}].fields", f"{side['name']} needs a morale number (toy rules 3)", code="toy-morale")
            for s, side in enumerate(doc.data["sides"]) if "morale" not in side["fields"]]


def summary(doc, out):
    """The toy game's number in the summary: each side's morale."""
    for side in doc.data["sides"]:
        out["sides"][side["id"]]["morale"] = side["fields"].get("morale")
