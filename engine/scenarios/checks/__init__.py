"""**Scenario checks** (docs/validation.md), per game: is the scenario playable by its game's rules? No Django.

The scenario format (engine/scenarios/scenariofile.py) refuses what is malformed; these checks look at a scenario that
parsed and say what a player would trip over at the table: units outside their zone or the play area, stacks
over the limit, units on terrain they may not enter, reinforcements that never come, the miniatures activation
deck, TOCS perimeters... Each finding is a :class:`engine.mapfile.Finding` with a code, a severity (error or
warning), the JSON path, the hex when there is one, and a message a designer understands. The rules come from
each game's rulebook (named with its sections in engine/games/<id>/rules.md), by way of the "validation" section
of its digest; the rulebook's own section (or, where it numbers none, its line) is in each message.

What a unit is comes from its OOB line's ``type`` (engine/scenarios/unittypes.py): the game's catalogue of unit
types, or one the scenario declares, with its kind, stacking points or steps, echelon, barred terrain and whether
it may set up hidden. A unit's name is never read for its type; a line without a type is said to be unchecked.

What a terrain lets a unit do comes from the catalogue's movement data: "X" means the unit's class may not
enter; "road only" and "road or railroad only" allow it only where the hex also has a road (or railroad). Which
terrain is a road or a railroad is the catalogue's too (an entry's ``linear``), never guessed from its name.

The layers: common (the findings, the board, the checks every game shares and the helpers that read stacks and
unit types), placing (the set-up rules every game gives as data: where a marker goes, which way a counter faces,
the crew a weapon sets up with), then each game's own checks in its folder (engine/games/<id>/checks.py:
``check(doc, board)``, and where the game has them ``forces_drawn(side)`` and ``summary(doc, out)``), found through
the game registry.
"""

from engine import rulesets
from engine.scenarios import scenariofile
from engine.scenarios.checks import placing
from engine.scenarios.checks.common import (
    Board,
    common,
    error,
    kind_of,
    markers_at,
    movement_cost,
    stacks,
    utype,
    warning,
)
from engine.scenarios.checks.common import _unit_name as _unit_name  # the card names a unit as the findings do

__all__ = [
    "Board", "check", "common", "error", "game_checks", "kind_of", "markers_at", "movement_cost", "scenariofile",
    "stacks", "summary", "utype", "warning",
]


def check(doc):
    """Every finding about a parsed scenario: common checks, then its game's."""
    board = Board.of(doc)
    extra = game_checks(doc)
    findings = common(doc, board, getattr(extra, "forces_drawn", None))
    for s, side in enumerate(doc.data["sides"]):
        findings += placing.facings(doc, side, f"sides[{s}]") + placing.crews(doc, side, f"sides[{s}]")
    findings += placing.markers_on_units(doc, board)
    if extra is not None:
        findings.extend(extra.check(doc, board))
    return findings


def game_checks(doc):
    """The checks module of the game whose rules apply (a custom ruleset's base), or None when it has none."""
    return rulesets.games.get(rulesets.get(doc.ruleset).base).checks


# -- what the card and the editor show -------------------------------------------------------------------------

def summary(doc):
    """Per side: units, placed and arriving, and its setup hexes; then what the game adds (OST casualty points,
    Assault points, the miniatures deck and inches per hex)."""
    out = {"sides": {}}
    for side in doc.data["sides"]:
        out["sides"][side["id"]] = {
            "units": sum(u["count"] for u in side["oob"]), "placed": len(side["placements"]),
            "arriving": sum(g["count"] for r in side["reinforcements"] for g in r["units"]),
            "setup_hexes": len(side["setup_zone"])}
    extra = game_checks(doc)
    if extra is not None and hasattr(extra, "summary"):
        extra.summary(doc, out)
    return out
