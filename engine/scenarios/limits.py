"""How long a scenario's texts and how many its parts may be (docs/scenario-format.md, "Limits").

Every text and every list of the scenario format has a ceiling, so that what a scenario costs to read, store,
check and print as a card is bounded by these numbers, not by what a file holds. A scenario past one is refused
with a finding naming the part in a designer's words (engine/scenarios/naming.py) and the limit: "special rule 3
is 1,048,576 characters; at most 4,000". The numbers are generous for any printed scenario (a long special rule
is a page of the card).
"""

from engine.mapfile import Finding
from engine.scenarios.naming import describe, too_long, too_many  # noqa: F401 (the limits' messages, named here)

# -- texts: characters ---------------------------------------------------------------------------------------
TITLE = 200
SUBTITLE = 200
DATE = 100
PLACE = 200
DESIGNER = 200
INTRODUCTION = 20_000
WEATHER = 200
SIDE_NAME = 100
NATIONALITY = 100
BRIEF = 8_000  # a TOCS side's mission, and its intelligence
UNIT = 100  # an OOB line's unit type, and its name
UNIT_NOTES = 1_000
FORMATION = 100
WEAPON = 100
REINFORCEMENT_NOTE = 500
MARKER_NOTE = 500
OBJECTIVE_NAME = 200
SPECIAL_RULE = 4_000
VICTORY_TEXT = 1_000  # a victory condition written as text
GAME_TEXT = 1_000  # a game's own text field (a side's, an OOB line's, the rules')
GAME_FIELD = 10_000  # any game's own field, as JSON text (a table of VP values, overlays...)
EXTENSIONS = 100_000  # the extensions object, as JSON text

TEXTS = 300_000  # every text of the scenario together: the card is about a hundred pages at most

# -- counts -----------------------------------------------------------------------------------------------
MAPS = 8
SIDES = 8
OOB_LINES = 500  # per side
OOB_LINES_ALL = 2_000  # of every side together
WEAPONS = 20  # per OOB line
PLACEMENTS = 2_000  # per side
REINFORCEMENTS = 200  # per side
REINFORCEMENT_UNITS = 100  # per reinforcement
MARKERS = 2_000
OBJECTIVES = 200
SPECIAL_RULES = 50
VICTORY_CONDITIONS = 20  # per side, counting those an "and" or "or" combines
HEXES = 5_000  # any list of hexes: a setup zone, entry or exit hexes, a side's perimeter
HEXES_ALL = 50_000  # every list of hexes together
GAME_LIST = 200  # a game's own list field (overlays, side ids)

TURNS_END = 1_000  # when a game with no fixed turn count ends ("the game ends when ...")
STRENGTH = 40  # a placement's strength as printed ("6-4-8", "3 steps")
STEPS_LOST = 1_000
STATUSES = 20  # per placement
MODULES = 50

PROSE = {"title", "subtitle", "date", "place", "introduction", "designer", "weather", "name", "nationality",
         "mission", "intelligence", "unit", "notes", "note", "formation", "text", "weapons", "special_rules", "end",
         "strength", "details"}


def prose_length(data):
    """Characters of a (canonical) scenario's texts together: what its card prints. The maps and the extensions,
    which the card does not print as text, are not counted."""
    total, stack = 0, [(key, value) for key, value in data.items() if key not in ("maps", "extensions")]
    while stack:
        key, value = stack.pop()
        if isinstance(value, str):
            total += len(value) if key in PROSE else 0
        elif isinstance(value, dict) and key == "details":  # a marker's details: its texts are printed
            stack.extend(("details", v) for v in value.values())
        elif isinstance(value, dict):  # (a placement's or a reinforcement's "unit" is an OOB line's id)
            stack.extend((k, v) for k, v in value.items() if k != "unit" or "id" in value)
        elif isinstance(value, list):
            stack.extend((key, item) for item in value)
    return total


def victory_conditions(value, limit=VICTORY_CONDITIONS):
    """How many conditions a victory condition holds, itself and every entry of the lists that combine others (an
    entry that is not a condition counts too); stops counting past ``limit``."""
    seen, stack = 0, [value]
    while stack and seen <= limit:
        item = stack.pop()
        seen += 1
        if isinstance(item, dict) and isinstance(item.get("conditions"), list):
            stack.extend(item["conditions"][:limit + 1])
    return seen


def victory_problems(value, path, data=None):
    """Findings of a side's victory condition past its limits (VICTORY_CONDITIONS conditions in all, each text
    and list within its own), looked at before the condition is read."""
    count = victory_conditions(value)
    if count > VICTORY_CONDITIONS:
        return [Finding(path, f"{describe(path, data)} combines more than {VICTORY_CONDITIONS} conditions; at most "
                              f"{VICTORY_CONDITIONS}", code="too-many")]
    found, stack, named = [], [(value, path)], 0
    while stack:
        item, where = stack.pop()
        if not isinstance(item, dict):
            continue
        named += len(item["objectives"]) if isinstance(item.get("objectives"), list) else 0
        text = item.get("text")
        if isinstance(text, str) and len(text) > VICTORY_TEXT:
            found.append(Finding(f"{where}.text", too_long(f"{where}.text", len(text), VICTORY_TEXT, data),
                                 code="too-long"))
        for key, limit, noun in (("objectives", OBJECTIVES, None), ("hexes", HEXES, "hexes")):
            given = item.get(key)
            if isinstance(given, list) and len(given) > limit:
                found.append(Finding(f"{where}.{key}", too_many(f"{where}.{key}", len(given), limit, noun, data),
                                     code="too-many"))
        if isinstance(item.get("conditions"), list):
            stack.extend((c, f"{where}.conditions[{i}]") for i, c in enumerate(item["conditions"]))
    if named > OBJECTIVES and not found:  # (its sentence names each one: the card prints it)
        found.append(Finding(path, f"{describe(path, data)} names {named:,} objectives in all; at most {OBJECTIVES:,}",
                             code="too-many"))
    return found
