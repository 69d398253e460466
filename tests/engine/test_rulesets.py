import json
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from engine import rulesets
from engine.rulesets import catalogue, reading

GAMES = Path(catalogue.__file__).parents[1] / "games"  # engine/games/<id>/catalogue.json

# The ids every catalogue must have (docs/map-format.md, "Terrain ids every catalogue has").
REQUIRED = {
    "ost": {
        "hex": ["open", "brush", "farm", "wheatfield", "woods", "orchard", "cemetery", "stream", "marsh",
                "shell-holes", "debris", "rubble", "road", "light-structure", "heavy-structure", "ruins"],
        "hexside": ["hedge", "stone-wall", "bocage", "row-house-wall", "steep-slope"],
    },
    "ats": {
        "hex": ["open-ground", "brush", "crops", "woods", "orchard", "building", "rubble", "graveyard",
                "rock-strewn", "scrub", "swamp", "road"],
        "hexside": ["hedge", "wall", "high-wall", "bocage", "cliff"],
    },
    "assault": {
        "hex": ["clear", "light-forest", "heavy-forest", "brush", "single-storey-building",
                "large-single-storey-building", "large-multi-storey-building", "road", "rocky", "beach"],
        "hexside": ["steep-slope"],
    },
    "miniatures": {
        "hex": ["open", "woods", "building", "rough-scrub", "river", "road"],
        "hexside": ["wall", "hedge"],
    },
    "tocs": {
        "hex": ["open", "farmland", "woods", "village", "town", "suburb", "city", "swamp"],
        "hexside": ["stream", "minor-river", "medium-river", "major-river", "cliff"],
    },
}

RULE_PREFIX = {"ost": "OST ", "ats": "ATS ", "assault": "Assault ", "tocs": "TOCS ", "miniatures": "QRS "}

# Marker kinds the LOS engine places (engine/los/compiled.py) that each game has.
MARKER_KINDS = {
    "ost": ["smoke", "smoke2", "wreck", "rubble"],
    "ats": ["smoke", "wreck", "vehicle", "rubble", "dust", "flame"],
    "assault": ["smoke", "wreck"],
    "miniatures": ["smoke"],
}


def raw(ruleset_id):
    return json.loads((GAMES / ruleset_id / "catalogue.json").read_text(encoding="utf-8"))


def test_builtin_ids_have_one_file_each():
    assert set(rulesets.builtin_ids()) == set(REQUIRED)
    assert sorted(p.parent.name for p in GAMES.glob("*/catalogue.json")) == sorted(REQUIRED)


@pytest.mark.parametrize("ruleset_id", sorted(REQUIRED))
def test_required_ids_exist_in_their_layer(ruleset_id):
    ruleset = rulesets.get(ruleset_id)
    for layer, ids in REQUIRED[ruleset_id].items():
        missing = [tid for tid in ids if tid not in ruleset.terrain_ids(layer)]
        assert not missing, f"{ruleset_id} {layer} lacks {missing}"


@pytest.mark.parametrize("ruleset_id", sorted(REQUIRED))
def test_ids_are_well_formed_and_unique(ruleset_id):
    ids = [entry["id"] for entry in raw(ruleset_id)["terrain"]]
    assert len(ids) == len(set(ids)), [tid for tid in ids if ids.count(tid) > 1]
    for tid in ids:
        assert catalogue.ID_PATTERN.match(tid), tid
        assert tid == tid.lower() and " " not in tid and "_" not in tid


@pytest.mark.parametrize("ruleset_id", sorted(REQUIRED))
def test_top_level_of_builtin_files(ruleset_id):
    data = raw(ruleset_id)
    for key in catalogue.TOP_REQUIRED + catalogue.TOP_INHERITED:
        assert key in data, key
    assert data["id"] == data["base"] == ruleset_id
    assert set(data["terms"]) == {"clear", "hindered", "blocked"}
    assert data["level_min"] <= 0 <= data["level_max"]
    assert data["level_min"] % data["level_step"] == 0 == data["level_max"] % data["level_step"]
    assert data["hex_metres"] is None or data["hex_metres"] > 0
    assert data["unit_classes"] and len(set(data["unit_classes"])) == len(data["unit_classes"])
    ruleset = rulesets.get(ruleset_id)
    assert ruleset.base == ruleset_id and ruleset.builtin
    assert ruleset.as_dict() == data and list(ruleset.as_dict()) == list(data)
    assert (ruleset.level_min, ruleset.level_max, ruleset.level_step) == (
        data["level_min"], data["level_max"], data["level_step"])


@pytest.mark.parametrize("ruleset_id", sorted(REQUIRED))
def test_every_entry_has_the_required_keys_and_allowed_values(ruleset_id):
    data = raw(ruleset_id)
    for entry in data["terrain"]:
        where = f"{ruleset_id}:{entry.get('id')}"
        assert set(catalogue.ENTRY_REQUIRED) <= set(entry), where
        assert set(entry) <= set(catalogue.ENTRY_KEYS), where
        assert entry["layer"] in ("hex", "hexside", "marker"), where
        assert entry["los"] in ("clear", "hindering", "blocking", "special"), where
        assert entry.get("obstacle", "none") in ("none", "low", "storeys", "all"), where
        assert entry["height"] is None or isinstance(entry["height"], (int, float)), where
        assert isinstance(entry["movement"], dict), where
        assert set(entry["movement"]) <= set(data["unit_classes"]), where
        for cost in entry["movement"].values():
            for value in ([case["cost"] for case in cost] if isinstance(cost, list) else [cost]):
                assert value is None or isinstance(value, (int, float, str)) and not isinstance(value, bool), where
            if isinstance(cost, list):
                assert all(case.get("when", "") in ("", *catalogue.CONDITIONS) for case in cost), where
        assert entry["rule"].startswith(RULE_PREFIX[ruleset_id]), where
        assert isinstance(entry["name"], str) and entry["name"], where
        for field in entry.get("decided", []):
            assert field in entry, where


def test_values_read_from_the_rulebooks():
    ost, ats, assault = rulesets.get("ost"), rulesets.get("ats"), rulesets.get("assault")
    assert ost.get("woods")["movement"] == {"foot": 2, "wheeled": "X", "tracked": "3B"}
    assert (ost.get("brush")["los"], ost.get("brush")["los_term"], ost.get("brush")["obstacle"]) == (
        "hindering", "Degrading", "low")
    assert ost.get("stream")["cover"] == -2
    assert ats.get("woods")["height"] == 10 and ats.get("woods")["los"] == "blocking"
    assert ats.get("orchard")["height"] == 10 and ats.get("orchard")["los"] == "hindering"
    assert ats.get("high-wall")["height"] == 10 and ats.get("hedge")["height"] == 5
    assert assault.get("heavy-forest")["height"] == 1
    assert assault.get("rocky")["movement"] == {"infantry": 1, "artillery": 1, "wheeled": 3, "tracked": 2}
    assert rulesets.get("tocs").get("city")["height"] == 2


@pytest.mark.parametrize("ruleset_id", sorted(MARKER_KINDS))
def test_marker_kinds_of_the_engine_resolve(ruleset_id):
    ruleset = rulesets.get(ruleset_id)
    for kind in MARKER_KINDS[ruleset_id]:
        assert kind in ruleset, kind


def test_terrain_ids_by_layer_partition_the_catalogue():
    for ruleset in rulesets.all_rulesets():
        by_layer = [tid for layer in rulesets.LAYERS for tid in ruleset.terrain_ids(layer)]
        assert sorted(by_layer) == sorted(ruleset.terrain_ids())
    with pytest.raises(ValueError, match="layer"):
        rulesets.get("ost").terrain_ids("hexes")


def test_unknown_terrain_names_the_ruleset_and_the_id():
    with pytest.raises(KeyError) as info:
        rulesets.get("ats").get("jungle-gym")
    assert "'ats'" in str(info.value) and "'jungle-gym'" in str(info.value)
    with pytest.raises(KeyError, match="no-such-game"):
        rulesets.get("no-such-game")


def test_builtins_are_cached():
    assert rulesets.get("ost") is rulesets.get("ost")
    assert rulesets.all_rulesets()[0] is rulesets.get("ost")


# -- the ATS Blind Hex Creation Table ---------------------------------------------------------------------

def half_up(value):
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def test_blind_hex_table_proven_cell_and_provisional_formula():
    cells = raw("ats")["blind_hex_table"]["cells"]
    proven = [c for c in cells if c["proven"]]
    assert proven == [{"diff": 10, "range_min": 13, "range_max": 18, "blind_hexes": 3, "proven": True}]
    assert sorted({c["diff"] for c in cells}) == list(range(10, 65, 5))
    for diff in range(10, 65, 5):
        row = sorted((c for c in cells if c["diff"] == diff), key=lambda c: c["range_min"])
        assert [(c["range_min"], c["range_max"]) for c in row] == [(b * 6 - 5, b * 6) for b in range(1, 11)]
        for band, cell in enumerate(row, start=1):
            if not cell["proven"]:
                assert cell["blind_hexes"] == max(1, half_up(Decimal(band * 10) / Decimal(diff))), cell
                assert cell["blind_hexes"] == rulesets.provisional_blind_hexes(diff, cell["range_max"])


def test_blind_hexes_lookup():
    ats = rulesets.get("ats")
    # ATS 8.13.21: firer at +20, a +10 hill of another hill 16 hexes away: three blind hexes
    assert ats.blind_hexes(20 - 10, 16) == (3, True)
    assert ats.blind_hexes(20, 25) == (3, False)  # band 5: 50 / 20 = 2.5 rounds up
    assert ats.blind_hexes(5, 4) is None  # under +10 there is no LOS over the obstacle (6.2.63)
    assert ats.blind_hexes(10, 61) == (rulesets.provisional_blind_hexes(10, 61), False) == (11, False)
    with pytest.raises(LookupError):
        rulesets.get("ost").blind_hexes(10, 5)


# -- custom profiles ----------------------------------------------------------------------------------------

CUSTOM = {
    "id": "ats-arnhem",
    "name": "ATS with the Arnhem play aid",
    "base": "ats",
    "extends_base": True,
    "notes": "House profile for the test.",
    "blind_hex_table": {
        "rule": "ATS 6.2.63 (play aid)",
        "cells": [{"diff": 10, "range_min": 1, "range_max": 6, "blind_hexes": 2, "proven": True}],
    },
    "terrain": [
        {"id": "polder-dyke", "name": "Polder Dyke", "layer": "hexside", "los": "blocking", "height": 10,
         "movement": {"personnel": "2+CoT", "wheeled": "X"}, "cover": "Good", "rule": None,
         "notes": "A house rule."},
        {"id": "woods", "name": "Woods", "layer": "hex", "los": "blocking", "height": 20,
         "movement": {"personnel": 2}, "cover": "Good", "rule": "ATS 8.32"},
    ],
}


@pytest.fixture
def registry():
    yield rulesets
    rulesets.unregister("ats-arnhem")


def test_custom_file_round_trip(tmp_path, registry):
    path = tmp_path / "arnhem.json"
    path.write_text(json.dumps(CUSTOM), encoding="utf-8")
    profile = rulesets.load_file(path)
    assert profile.base == "ats" and not profile.builtin
    assert profile.level_step == 5 and profile.terms == rulesets.get("ats").terms  # inherited
    assert profile.get("woods")["height"] == 20  # replaced
    assert profile.get("crops") == rulesets.get("ats").get("crops")  # inherited
    assert profile.terrain_ids("hexside")[-1] == "polder-dyke"  # added
    assert profile.blind_hexes(10, 4) == (2, True)  # the designer's cell
    assert profile.blind_hexes(10, 16) == (3, False)  # beyond it, provisional

    rulesets.register(profile)
    assert rulesets.get("ats-arnhem") is profile
    assert rulesets.all_rulesets()[-1] is profile
    again = rulesets.from_dict(json.loads(json.dumps(profile.as_dict())), where="served.json")
    assert again.as_dict() == profile.as_dict()
    assert "extends_base" not in profile.as_dict()
    rulesets.unregister("ats-arnhem")
    with pytest.raises(KeyError):
        rulesets.get("ats-arnhem")


def test_load_file_reads_an_unchanged_file_once(tmp_path, monkeypatch):
    path = tmp_path / "arnhem.json"
    path.write_text(json.dumps(CUSTOM), encoding="utf-8")
    reads = []
    real = reading._read_json
    monkeypatch.setattr(reading, "_read_json", lambda p, where: reads.append(p) or real(p, where))
    first = rulesets.load_file(path)
    assert rulesets.load_file(path) is first
    assert len(reads) == 1


def test_broken_profile_reports_every_error_with_its_path(tmp_path):
    broken = {
        "id": "My Rules",
        "base": "asl",
        "level_step": 0,
        "colour": "red",
        "terms": {"clear": "Clear", "hindered": ""},
        "terrain": [
            {"id": "woods", "name": "Woods", "layer": "hexes", "los": "opaque", "height": "tall",
             "movement": {"hover": 1, "foot": [1]}, "cover": [1], "rule": "X 1"},
            {"id": "woods", "name": "Woods again", "layer": "hex", "los": "clear", "height": 0,
             "movement": {}, "cover": None, "rule": None, "colour": "green"},
            {"id": "Big_Rock", "name": "Rock", "layer": "hex", "los": "blocking", "movement": {}, "cover": None,
             "rule": None},
            "road",
        ],
    }
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.load_file(path)
    errors = info.value.errors
    expected = ["id", "name", "base", "level_step", "colour", "terms.hindered", "terms.blocked",
                "terrain[0].layer", "terrain[0].los", "terrain[0].height", "terrain[0].cover",
                "terrain[0].movement.foot[0]", "terrain[1].id", "terrain[1].colour", "terrain[2].id",
                "terrain[2].height", "terrain[3]"]
    for where in expected:
        assert any(e.startswith(f"{path}: {where}: ") for e in errors), (where, errors)
    assert len(errors) >= len(expected)
    assert all(e.startswith(f"{path}: ") for e in errors)
    assert any("first at terrain[0]" in e for e in errors)
    assert str(info.value).count("\n") == len(errors) - 1


def test_capabilities_come_from_the_scenario_section_and_a_profile_inherits_them():
    from engine.rulesets.capabilities import capabilities

    tocs = rulesets.from_dict({"id": "tocs-house", "name": "Mine", "base": "tocs", "extends_base": True,
                               "terrain": []}, where="mine.json")
    assert capabilities(tocs.as_dict()) == {"facing": "hexside", "perimeter": True, "side_briefs": True}
    assert capabilities({"scenario": None}) == {"facing": "hexside", "perimeter": False, "side_briefs": False}
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict({"id": "ost-house", "name": "Mine", "base": "ost", "extends_base": True, "terrain": [],
                            "scenario": {"facing": "corner", "perimeter": "yes"}}, where="mine.json")
    errors = info.value.errors
    assert any(e.startswith("mine.json: scenario.facing: 'corner' is not one of hexside, vertex") for e in errors)
    assert any(e.startswith("mine.json: scenario.perimeter: must be true or false") for e in errors)


def test_profile_checks_against_its_base():
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict({"id": "ost", "name": "Mine", "base": "ost", "terrain": [], "extends_base": True},
                           where="mine.json")
    assert any("built-in" in e and e.startswith("mine.json: id: ") for e in info.value.errors)
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict({"id": "ost-house", "name": "Mine", "base": "ost", "extends_base": True,
                            "terrain": [], "blind_hex_table": {"cells": []},
                            "unit_classes": ["foot", "horse"]}, where="mine.json")
    errors = info.value.errors
    assert any(e.startswith("mine.json: blind_hex_table: ") for e in errors)
    assert any("'wheeled'" in e and "(from ost).movement" in e for e in errors)


def test_bad_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "typo.json"
    path.write_text('{"id": "x",\n "name": }', encoding="utf-8")
    with pytest.raises(rulesets.RulesetError, match=r"typo\.json: not valid JSON: .* line 2"):
        rulesets.load_file(path)
    with pytest.raises(rulesets.RulesetError, match="cannot read"):
        rulesets.load_file(tmp_path / "missing.json")


def test_register_guards_the_builtins():
    with pytest.raises(ValueError):
        rulesets.unregister("ost")
    with pytest.raises(ValueError):
        rulesets.register(rulesets.get("ost"))
    with pytest.raises(TypeError):
        rulesets.register({"id": "x"})


def test_the_example_in_the_docs_is_a_valid_profile():
    text = (Path(catalogue.__file__).parents[2] / "docs" / "rulesets" / "catalogues.md").read_text(encoding="utf-8")
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    profile = rulesets.from_dict(example, where="catalogues.md")
    assert profile.base == "ost" and "olive-grove" in profile and "woods" in profile


def test_engine_imports_no_django():
    code = "import sys, engine.rulesets; engine.rulesets.get('ats'); print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(catalogue.__file__).parents[2], check=True)
    assert out.stdout.strip() == "False"


# -- styles (how the painter, the map image and cards draw a terrain) ----------------------------------------

@pytest.mark.parametrize("ruleset_id", sorted(REQUIRED))
def test_every_builtin_entry_has_a_complete_style(ruleset_id):
    for entry in rulesets.get(ruleset_id).terrain.values():
        style, where = entry["style"], f"{ruleset_id}:{entry['id']}"
        assert list(style) == list(catalogue.STYLE_KEYS), where
        for key in ("fill", "pattern_colour", "stroke"):
            assert style[key] is None or catalogue.HEX_COLOUR.match(style[key]), where
        assert style["pattern"] in (None, *catalogue.PATTERNS), where
        assert style["marker"] in (None, *catalogue.MARKERS), where
        for key in catalogue.STYLE_REQUIRED[entry["layer"]]:
            assert style[key] is not None, (where, key)
        if style["pattern"]:
            assert style["pattern_colour"], where


def test_styles_look_like_a_map():
    ost, ats, tocs = rulesets.get("ost"), rulesets.get("ats"), rulesets.get("tocs")
    assert ost.get("woods")["style"]["pattern"] == "trees"
    assert ost.get("brush")["style"]["pattern"] == "dots"
    assert ost.get("light-structure")["style"]["pattern"] == "bricks"
    assert ost.get("marsh")["style"]["pattern"] == "marsh"
    assert ost.get("rubble")["style"]["pattern"] == "rubble"
    assert ats.get("river")["style"]["pattern"] == "waves"
    assert ost.get("bocage")["style"]["stroke_width"] > ost.get("hedge")["style"]["stroke_width"]
    assert tocs.get("stream")["style"]["stroke"] == "#3a78b5"


def test_builtin_entry_without_style_is_refused():
    data = raw("ost")
    del data["terrain"][0]["style"]
    data["terrain"][1]["style"]["fill"] = None
    data["terrain"][2]["style"]["pattern"] = "stripes"
    with pytest.raises(rulesets.RulesetError) as info:
        reading._build(data, where="ost.json", builtin_id="ost")
    assert any(e.startswith("ost.json: terrain[0].style: is required") for e in info.value.errors)
    assert any(e.startswith("ost.json: terrain[2].style.pattern: 'stripes'") for e in info.value.errors)
    del data["terrain"][0]
    data["terrain"][1]["style"]["pattern"] = "dots"
    with pytest.raises(rulesets.RulesetError) as info:
        reading._build(data, where="ost.json", builtin_id="ost")
    assert info.value.errors == ["ost.json: terrain 'brush'.style.fill: is required on a hex-layer entry",
                                 "ost.json: open_terrain: names no hex-layer terrain of this ruleset: 'open'"]


def test_bad_styles_are_reported_with_their_paths():
    profile = {
        "id": "ost-colours", "name": "Colours", "base": "ost", "extends_base": True,
        "styles": {"woods": {"fill": "green"}, "hedge": {"stroke_width": 2, "stroke": None},
                   "mud": {"fill": "#aa8844"}, "stream": "blue"},
        "terrain": [
            {"id": "pond", "name": "Pond", "layer": "hex", "los": "clear", "height": 0, "movement": {},
             "cover": 0, "rule": None, "style": {"fill": "#12345", "pattern": "waves", "marker": "hexagon",
                                                 "glow": True}},
            {"id": "fence", "name": "Fence", "layer": "hexside", "los": "clear", "height": 0, "movement": {},
             "cover": 0, "rule": None, "style": {"stroke": None}},
        ],
    }
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict(profile, where="c.json")
    errors = info.value.errors
    for where in ("styles.woods.fill", "styles.hedge.stroke_width", "styles.stream",
                  "terrain[0].style.fill", "terrain[0].style.marker", "terrain[0].style.glow"):
        assert any(e.startswith(f"c.json: {where}: ") for e in errors), (where, errors)
    # once the shapes are right, what each layer needs is checked on the resolved entries
    profile["styles"] = {"hedge": {"stroke": None}, "mud": {"fill": "#aa8844"}}
    profile["terrain"][0]["style"] = {"pattern": "waves"}
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict(profile, where="c.json")
    assert sorted(info.value.errors) == sorted([
        "c.json: styles.mud: no terrain 'mud' in this ruleset",
        "c.json: terrain 'hedge'.style.stroke: is required on a hexside-layer entry",
        "c.json: terrain 'pond'.style.pattern_colour: is required when a pattern is given",
        "c.json: terrain 'fence'.style.stroke: is required on a hexside-layer entry",
    ])


def test_a_profile_inherits_and_overrides_styles():
    ost = rulesets.get("ost")
    profile = rulesets.from_dict({
        "id": "ost-colours", "name": "Colours", "base": "ost", "extends_base": True,
        "styles": {"hedge": {"stroke": "#225522"}},
        "terrain": [
            {"id": "woods", "name": "Woods", "layer": "hex", "los": "blocking", "height": 0, "movement": {},
             "cover": 1, "rule": "OST 14.5", "style": {"fill": "#336633"}},
            {"id": "orchard", "name": "Orchard", "layer": "hex", "los": "hindering", "height": 0,
             "movement": {}, "cover": 1, "rule": "OST 14.6"},
            {"id": "sunken-lane", "name": "Sunken Lane", "layer": "hex", "los": "special", "height": -1,
             "movement": {"foot": 1}, "cover": 1, "rule": None},
        ],
    }, where="c.json")
    woods = profile.get("woods")["style"]
    assert woods["fill"] == "#336633"  # its own
    assert woods["pattern"] == ost.get("woods")["style"]["pattern"] == "trees"  # the rest from the base entry
    assert profile.get("orchard")["style"] == ost.get("orchard")["style"]  # restated without a style
    assert profile.get("hedge")["style"]["stroke"] == "#225522"  # a style alone, the entry kept
    assert profile.get("hedge")["style"]["stroke_width"] == ost.get("hedge")["style"]["stroke_width"]
    assert profile.get("hedge")["movement"] == ost.get("hedge")["movement"]
    assert profile.get("sunken-lane")["style"]["fill"] == catalogue.DEFAULT_FILL["special"]  # new: the default
    assert ost.get("hedge")["style"]["stroke"] != "#225522"  # the base is untouched
    again = rulesets.from_dict(profile.as_dict(), where="served.json")
    assert again.as_dict() == profile.as_dict() and "styles" not in profile.as_dict()
