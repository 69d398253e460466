"""Issue 12: every value the catalogue audit (docs/rulesets/catalogues.md) found wrong or missing, checked
against the rule that gives it. Each of these failed on the catalogue before the corrections."""

import pytest

from engine import rulesets

FRONT = {"across-front-face"}
ROAD = {"along-road"}
RAIL = {"along-railroad"}
UPPER = {"upper-location"}


def cost(ruleset_id, terrain_id, unit_class, conditions=()):
    return rulesets.get(ruleset_id).movement_cost(terrain_id, unit_class, conditions)


# (ruleset, terrain, unit class, conditions, expected cost, the rule that gives it)
MOVEMENT = [
    # Assault: vehicles are barred only across the front face; from rear or flank the marker's cost applies.
    ("assault", "pillbox", "tracked", FRONT, "X", "Assault 9.5.7.5 'Vehicles may not cross this fortification'"),
    ("assault", "pillbox", "tracked", (), "+1", "Assault 9.5.7 example: 'Tracked vehicles need 3 (... +1 for the "
                                                "pillbox) ... to enter that hex from rear or flank'"),
    ("assault", "pillbox", "wheeled", (), "+1", "Assault 9.5.7 example: 'wheeled vehicles 4 (3 [rocky] +1)'"),
    ("assault", "bunker", "tracked", FRONT, "X", "Assault 9.5.7.4 'Vehicles may not cross this fortification'"),
    ("assault", "bunker", "tracked", (), "printed on the marker", "Assault 9.5.7 (costs printed), 9.5.7.4 (vehicles "
                                                                  "end in the underlying terrain)"),
    ("assault", "gun-position", "wheeled", FRONT, "X", "Assault 9.5.7.3"),
    ("assault", "gun-position", "wheeled", (), "printed on the marker", "Assault 9.5.7, 9.5.7.3"),
    ("assault", "trench", "wheeled", FRONT, "X", "Assault 9.5.7.2 'Wheeled vehicles may not cross this fortification'"),
    ("assault", "trench", "wheeled", (), "printed on the marker", "Assault 9.5.7, 9.5.7.2"),
    # ATS steeple: only the steeple location is Personnel-only; the church's ground level takes fully-tracked.
    ("ats", "steeple", "fully-tracked", UPPER, "X", "ATS 8.3.133 'Only Personnel may enter a Steeple location'"),
    ("ats", "steeple", "fully-tracked", (), 2, "ATS 8.3.61 (ground level of a building), 8.3.6 (2 MP)"),
    ("ats", "steeple", "wheeled", UPPER, "X", "ATS 8.3.133"),
    # ATS roadblock: its hexsides are a wall for Personnel.
    ("ats", "roadblock", "personnel", (), "1+CoT", "ATS 9.8.1 'treat these three hexsides as if they contain a "
                                                   "WALL'; 8.30.4 'ONE MP + CoT'"),
    # ATS factory: vehicles by road and rail entrances.
    ("ats", "factory", "half-tracked", ROAD, "road rate", "ATS 8.3.146 'all vehicles may enter Factories using Road "
                                                          "or Railway entrances'"),
    ("ats", "factory", "wheeled", RAIL, "railroad rate", "ATS 8.3.146"),
    # OST structures and ruins: vehicles only along a road.
    ("ost", "light-structure", "wheeled", (), "X", "OST 16.5.4 'Like other structures, vehicles can only enter ... "
                                                   "if it also contains a road'"),
    ("ost", "light-structure", "tracked", ROAD, "road rate", "OST 16.6.2, 16.6.6 'Vehicles may only use the road'"),
    ("ost", "heavy-structure", "tracked", (), "X", "OST 16.5.4, 16.6.6"),
    ("ost", "heavy-structure", "wheeled", ROAD, "road rate", "OST 16.6.2, 16.6.6"),
    ("ost", "ruins", "tracked", (), "X", "OST 16.5.4"),
    ("ost", "ruins", "wheeled", ROAD, "road rate", "OST 16.5.4, 16.6.2"),
    # Miniatures: guns at half off-road speed like every class but infantry.
    ("miniatures", "woods", "guns", (), "1/2 off-road speed", "QRS chart L298 '1/2 off road speed. FULL for infantry'"),
    ("miniatures", "building", "guns", (), "1/2 off-road speed", "QRS chart L283"),
    ("miniatures", "rough-scrub", "guns", (), "1/2 off-road speed", "QRS chart L273"),
]


@pytest.mark.parametrize("ruleset_id, terrain_id, unit_class, conditions, expected, rule", MOVEMENT,
                         ids=[f"{m[0]}-{m[1]}-{m[2]}-{'+'.join(sorted(m[3])) or 'otherwise'}" for m in MOVEMENT])
def test_movement_corrected_against_the_rulebook(ruleset_id, terrain_id, unit_class, conditions, expected, rule):
    assert cost(ruleset_id, terrain_id, unit_class, conditions) == expected, rule


# (ruleset, terrain, field, expected, the rule that gives it)
VALUES = [
    ("tocs", "woods", "los", "blocking", "TOCS L757 level-1 obstruction; L719, L721 no hindered state"),
    ("tocs", "village", "los", "blocking", "TOCS L704; L719, L724"),
    ("tocs", "town", "los", "blocking", "TOCS L700; L719"),
    ("tocs", "bocage", "los", "blocking", "TOCS L738; L721"),
    ("tocs", "orchard", "los", "blocking", "TOCS L752; L719"),
    ("tocs", "fort", "cover", "+6 per company and +2 defender strength",
     "TOCS L862 'prebuilt Fortified Area (10.9) plus a Minefield (10.11)'; L475 '+2 strength modifier'"),
    ("tocs", "minor-river", "cover", "river DRM", "TOCS L664 'Regardless of the river's size ... the river DRM'"),
    ("tocs", "airbase", "rule", "TOCS WWII airfields (L816)", "TOCS L816 'airbases ... all ground conditions'"),
    ("tocs", "airfield", "rule", "TOCS WWII airfields (L816)", "TOCS L816 'cannot operate during soft ground'"),
    ("ats", "at-trench", "cover", "Improved|Full", "ATS 9.2.1 'treated like a Hedgehog'; 9.6.1 'On Top ... "
                                                   "Improved cover'"),
    ("ats", "bridge", "height", 0, "ATS 8.31.5 'same level as any road that crosses them'"),
    ("ost", "olive-grove", "rule", "OST 23.0, 26.4.6", "OST 23.0 diagram 'into olive grove (2MP)'; 26.4.6 'Heavy "
                                                       "terrain (LOS blocking terrain)'"),
]


@pytest.mark.parametrize("ruleset_id, terrain_id, field, expected, rule", VALUES,
                         ids=[f"{v[0]}-{v[1]}-{v[2]}" for v in VALUES])
def test_value_corrected_against_the_rulebook(ruleset_id, terrain_id, field, expected, rule):
    assert rulesets.get(ruleset_id).get(terrain_id)[field] == expected, rule


# (ruleset, terrain, layer, the rule that describes it)
ADDED = [
    ("ats", "precipitous", "hexside", "ATS 8.13.6"),
    ("ats", "bocage-gate", "hexside", "ATS 8.1.4"),
    ("ats", "pontoon-bridge", "marker", "ATS 8.31.53"),
    ("tocs", "ferry-crossing", "marker", "TOCS WWII ferries (L779)"),
]


@pytest.mark.parametrize("ruleset_id, terrain_id, layer, rule", ADDED, ids=[f"{a[0]}-{a[1]}" for a in ADDED])
def test_missing_terrain_added(ruleset_id, terrain_id, layer, rule):
    entry = rulesets.get(ruleset_id).get(terrain_id)
    assert entry["layer"] == layer and entry["rule"].startswith(rule)


def test_precipitous_and_bocage_gate_values():
    ats = rulesets.get("ats")
    assert ats.movement_cost("precipitous", "personnel") == "4 (4+CoT unless Open Ground)"  # 8.13.6
    assert ats.movement_cost("precipitous", "wheeled", ROAD) == "half the normal cost"  # 8.13.62
    assert ats.get("bocage-gate")["movement"] == ats.get("bocage")["movement"]  # 8.1.4: only the check differs
    assert set(ats.get("bocage-gate")["decided"]) == {"los", "height", "cover"}


@pytest.mark.parametrize("ruleset_id, terrain_id, field", [
    ("assault", "wreck", "los"),  # 9.5.8 says obstacles affect LOS but gives the wreck none
    ("ost", "olive-grove", "obstacle"),
    ("ats", "bocage-gate", "los"),
    ("tocs", "ferry-crossing", "los"),
])
def test_values_the_rulebook_does_not_give_are_declared(ruleset_id, terrain_id, field):
    assert field in rulesets.get(ruleset_id).get(terrain_id)["decided"]


def test_olive_grove_blocking_is_the_rulebook_now():
    # 26.4.6 makes heavy terrain LOS blocking and the glider example calls the olive grove heavy terrain:
    # its los is no longer a decision, only its height class is.
    assert rulesets.get("ost").get("olive-grove")["decided"] == ["obstacle"]


def test_the_ats_blind_hex_table_keeps_its_one_proven_cell_and_is_provisional():
    ats = rulesets.get("ats")
    proven = [c for c in ats.blind_hex_table["cells"] if c["proven"]]
    assert [(c["diff"], c["range_min"], c["range_max"], c["blind_hexes"]) for c in proven] == [(10, 13, 18, 3)]
    assert "provisional" in ats.blind_hex_table["provisional_rule"]


# -- the condition vocabulary ----------------------------------------------------------------------------

def test_movement_cost_reads_plain_values_and_cases():
    ost = rulesets.get("ost")
    assert ost.movement_cost("woods", "wheeled") == "X"
    assert ost.movement_cost("woods", "horse") is None
    assert cost("ats", "steeple", "wheeled") is None  # not stated for the ground level
    with pytest.raises(ValueError, match="along-river"):
        ost.movement_cost("ruins", "wheeled", {"along-river"})


def test_bad_cases_are_reported_with_their_paths():
    profile = {"id": "ost-cases", "name": "Cases", "base": "ost", "extends_base": True, "terrain": [
        {"id": "barn", "name": "Barn", "layer": "hex", "los": "blocking", "height": 0, "cover": 1, "rule": None,
         "movement": {"foot": [], "wheeled": [{"cost": 1}, {"when": "along-road", "cost": 0.5}],
                      "tracked": [{"when": "on-foot", "cost": 2, "why": "x"}, {"when": "along-road"},
                                  {"when": "along-road", "cost": [1]}, "X"]}}]}
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict(profile, where="c.json")
    errors = info.value.errors
    for where in ("terrain[0].movement.foot", "terrain[0].movement.wheeled[0]",
                  "terrain[0].movement.tracked[0].when", "terrain[0].movement.tracked[0].why",
                  "terrain[0].movement.tracked[1].cost",
                  "terrain[0].movement.tracked[2].when", "terrain[0].movement.tracked[2].cost",
                  "terrain[0].movement.tracked[3]"):
        assert any(e.startswith(f"c.json: {where}: ") for e in errors), (where, errors)
