"""**Scenario checks** (docs/validation.md), per ruleset: is the scenario playable by its game's rules? No Django.

The scenario format (engine/scenarios/scenariofile.py) refuses what is malformed; these checks look at a scenario that
parsed and say what a player would trip over at the table: units outside their zone or the play area, stacks
over the limit, units on terrain they may not enter, reinforcements that never come, the miniatures activation
deck, TOCS perimeters... Each finding is a :class:`engine.mapfile.Finding` with a code, a severity (error or
warning), the JSON path, the hex when there is one, and a message a designer understands. The rules come from
each game's rulebook (named with its sections in docs/rulesets/<id>.md), by way of the "validation" section of
its digest; the rulebook's own section (or, where it numbers none, its line) is in each message.

What a unit is comes from its OOB line's ``type`` (engine/scenarios/unittypes.py): the game's catalogue of unit
types, or one the scenario declares, with its kind, stacking points or steps, echelon, barred terrain and whether
it may set up hidden. A unit's name is never read for its type; a line without a type is said to be unchecked.

What a terrain lets a unit do comes from the catalogue's movement data: "X" means the unit's class may not
enter; "road only" and "road or railroad only" allow it only where the hex also has a road (or railroad). Which
terrain is a road or a railroad is the catalogue's too (an entry's ``linear``), never guessed from its name.

The layers, each a module: common (the findings, the board, the checks every game shares and the helpers
that read stacks and unit types), then one module per game with its checks: ost, ats, assault, miniatures,
tocs, registered in GAME_CHECKS below by ruleset id.
"""

from engine import rulesets
from engine.scenarios import scenariofile
from engine.scenarios.checks.assault import check_assault, forces_drawn
from engine.scenarios.checks.ats import ATS_OVERSTACKING, ats_stack, check_ats
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
from engine.scenarios.checks.miniatures import check_miniatures, deck_cards
from engine.scenarios.checks.ost import check_ost
from engine.scenarios.checks.tocs import TOCS_COMBAT, check_tocs, tocs_echelon

__all__ = [
    "ATS_OVERSTACKING", "GAME_CHECKS", "TOCS_COMBAT", "Board", "ats_stack", "check", "check_assault", "check_ats",
    "check_miniatures", "check_ost", "check_tocs", "common", "deck_cards", "error", "kind_of", "markers_at",
    "movement_cost", "scenariofile", "stacks", "summary", "tocs_echelon", "utype", "warning",
]


def check(doc):
    """Every finding about a parsed scenario: common checks, then its game's."""
    board = Board.of(doc)
    game = _game(doc)
    findings = common(doc, board, FORCES_DRAWN.get(game))
    extra = GAME_CHECKS.get(game)
    if extra is not None:
        findings.extend(extra(doc, board))
    return findings


def _game(doc):
    """The built-in game whose checks apply: the ruleset's base (a built-in is its own base)."""
    return rulesets.get(doc.ruleset).base


# which checks each built-in game adds to the common ones (a custom ruleset gets its base's)
GAME_CHECKS = {"ost": check_ost, "ats": check_ats, "assault": check_assault, "miniatures": check_miniatures,
               "tocs": check_tocs}


# games whose sides may take their units from a draw at the table instead of an OOB
FORCES_DRAWN = {"assault": forces_drawn}


# -- what the card and the editor show -------------------------------------------------------------------------

def summary(doc):
    """Per side: units, placed and arriving; OST casualty points; Assault points; the miniatures deck; and for
    miniatures the inches per hex."""
    out = {"sides": {}}
    game = _game(doc)
    for side in doc.data["sides"]:
        units = sum(u["count"] for u in side["oob"])
        entry = {"units": units, "placed": len(side["placements"]),
                 "arriving": sum(g["count"] for r in side["reinforcements"] for g in r["units"]),
                 "setup_hexes": len(side["setup_zone"])}
        if game == "ost":
            entry["casualty_points"] = sum(u["count"] * (u.get("casualty_points") or 0) for u in side["oob"])
        if game == "assault":
            entry["points"] = sum(u["count"] * (u.get("points") or 0) for u in side["oob"])
        if game == "miniatures":
            entry["deck"] = deck_cards(side)
        out["sides"][side["id"]] = entry
    if game == "miniatures":
        out["inches_per_hex"] = scenariofile.inches_per_hex(doc)
        out["deck_size"] = sum(s["deck"]["total"] for s in out["sides"].values())
    return out
