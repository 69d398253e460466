"""What a game lets the scenario editor offer, read from its catalogue's data so that no page names a game.

The ruleset API answers it beside the catalogue (maps/api.py), and the editor's JavaScript reads it: counters
facing a hexside or a vertex (Assault), a perimeter tool (TOCS), each side's secret brief (TOCS). A custom
profile inherits its base's scenario section, and with it these, unless it gives a section of its own.
"""

from engine.rulesets.catalogue import SCENARIO_FLAGS


def capabilities(catalogue):
    """{facing, perimeter, side_briefs} of a catalogue as data (``Ruleset.as_dict()``): the defaults where the
    game's scenario section is silent (hexside facings, no perimeter, no secret briefs)."""
    scenario = catalogue.get("scenario") or {}
    return {"facing": scenario.get("facing", "hexside"),
            **{key: scenario.get(key, False) for key in SCENARIO_FLAGS}}
