"""The module both sides play (issue 26): one module, every side in its roster, each hidden piece owned by its side
and masked or invisible to the others, no secret text outside its side's window, the at-start placement as a
predefined setup, and any name surviving VASSAL's encoding. Read with VASSAL's own decoding (vassal_decode.py)."""

import io
import json
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from engine.exports import vassal_scenario
from engine.scenarios import scenariofile, visibility
from tests.engine.exports import vassal_decode as vd
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES

SLOT = "VASSAL.build.widget.PieceSlot"
SETUP = "VASSAL.build.module.PredefinedSetup"
PRIVATE = "VASSAL.build.module.PrivateMap"


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


def parse(data, maps):
    return scenariofile.parse(json.dumps(data), maps)


def with_hidden(data):
    """The sample with something hidden on every side its game can hide, and a secret brief per side."""
    rules = visibility.hidden_rules(data["ruleset"])
    for n, side in enumerate(data["sides"]):
        side["brief"] = {"mission": f"Hold the line until dusk, codeword Quartz{n} {side['id']}.",
                         "intelligence": f"Enemy armour seen near the mill, report Ochre{n}."}
        first = side["oob"][0]
        first["hidden"] = True
        if "dummy" in (rules.get("oob") or ()):
            side["oob"].append({**first, "id": "dummy-1", "unit": "Dummy", "hidden": False, "dummy": True,
                                "count": 1})
            side["placements"].append({"unit": "dummy-1", "hex": side["placements"][0]["hex"], "facing": None})
        kinds = rules.get("markers") or ()
        if kinds and side["placements"]:
            data.setdefault("markers", []).append({"kind": kinds[0], "hex": side["placements"][0]["hex"],
                                                   "side": side["id"], "count": 1, "facing": None, "note": ""})
    return data


def read(module):
    z = zipfile.ZipFile(io.BytesIO(module))
    return z, ET.fromstring(z.read("buildFile.xml"))


def properties(traits):
    fields = next(((vd.tokens(t.partition(";")[2], ","), vd.tokens(s, ",")) for t, s in traits
                   if t.startswith("mark;")), ([], []))
    return dict(zip(*fields, strict=False))


def pieces(z, root):
    """(where, traits) of every piece: each palette slot's, and each at-start piece of each predefined setup."""
    out = [("slot", vd.add_piece(slot.text)[1]) for slot in root.iter(SLOT)]
    for setup in root.iter(SETUP):
        for command in vd.saved_game(z.read(setup.get("file"))):
            if command.startswith("+/") and "/stack/" not in command:
                out.append(("setup", vd.add_piece(command)[1]))
    return out


def private_units(doc):
    rules = visibility.hidden_rules(doc.ruleset)
    blind = bool(rules.get("double_blind"))
    return {(s["name"], u["id"]) for s in doc.data["sides"] for u in s["oob"]
            if blind or visibility.is_private_unit(u, rules)}


CASES = [(stem, hidden) for stem in [p.stem for p in SAMPLES] for hidden in (False, True)]


@pytest.mark.parametrize(("stem", "hidden"), CASES)
def test_one_module_both_sides_own_their_pieces_and_hide_what_the_rules_hide(maps, stem, hidden):
    data = json.loads(next(p for p in SAMPLES if p.stem == stem).read_text())
    doc = parse(with_hidden(data) if hidden else data, maps)
    z, root = read(vassal_scenario.scenario_module(doc))
    assert root.get("name") == doc.data["title"] == ET.fromstring(z.read("moduledata")).findtext("name")
    sides = [s["name"] for s in doc.data["sides"]]
    assert [e.text for e in root.iter("entry")] == sides
    private = private_units(doc)
    blind = bool(visibility.hidden_rules(doc.ruleset).get("double_blind"))
    seen = Counter()
    for where, traits in pieces(z, root):
        props = properties(traits)
        ids = [t.partition(";")[0] for t, _ in traits]
        assert ids[-1] == "piece"
        side = props.get("Side")
        if not side:  # an objective: everyone's
            assert "restrict" not in ids and "obs" not in ids and "hide" not in ids
            continue
        owner, fields = vd.trait_fields(traits[0][0])
        assert owner == "restrict;" and vd.tokens(fields[0], ",") == [side], "owned by its side"
        is_unit = "OOB" in props
        is_private = (side, props["OOB"]) in private if is_unit else ("obs" in ids or "hide" in ids)
        if is_unit and is_private:
            assert where == "setup", "a hidden unit is never in a palette anyone opens"
        seen[(is_unit, is_private)] += 1
        if not is_private:
            assert "obs" not in ids and "hide" not in ids
            continue
        kind, fields = vd.trait_fields(traits[1][0])
        state = traits[1][1]
        if blind:
            assert kind == "hide;" and fields[3] == f"sides:{side}" and state == side  # invisible to the other
        else:
            assert kind == "obs;" and fields[5] == f"sides:{side}"  # masked from the other side
            assert vd.tokens(state, ";")[0] == side  # masked from the start
            assert fields[4] == f"{side} unit"  # what the other side reads
    if hidden:
        assert seen[(True, True)] >= len(doc.data["sides"])
    # every unit's piece has the prototype's commands; a unit type's prototype is defined once
    names = [p.get("name") for p in root.iter("VASSAL.build.module.PrototypeDefinition")]
    assert len(names) == len(set(names))
    for proto in root.iter("VASSAL.build.module.PrototypeDefinition"):
        ids = [t.partition(";")[0] for t, _ in vd.add_piece(proto.text)[1]]
        assert {"delete", "clone", "rotate", "markmoved"} <= set(ids)


@pytest.mark.parametrize("stem", [p.stem for p in SAMPLES])
def test_no_secret_text_outside_its_sides_window(maps, stem):
    data = with_hidden(json.loads(next(p for p in SAMPLES if p.stem == stem).read_text()))
    doc = parse(data, maps)
    z, root = read(vassal_scenario.scenario_module(doc))
    texts = {name: z.read(name).decode("utf-8", "replace") for name in z.namelist() if not name.endswith(".png")}
    for setup in root.iter(SETUP):
        texts[setup.get("file")] = "\x1b".join(vd.saved_game(z.read(setup.get("file"))))
    for side in doc.data["sides"]:
        for secret in side["brief"].values():
            for name, text in texts.items():
                assert secret not in text, (side["id"], name)
        # the side's sheet is a private window only its players open, drawn on its board
        window = next(m for m in root.iter(PRIVATE) if m.get("mapName") == f"{side['name']}: secret sheet")
        assert vd.tokens(window.get("side"), ",") == [side["name"]] and window.get("visible") == "false"
    assert [h.get("title") for h in root.iter("VASSAL.build.module.documentation.HelpFile")] == [
        next(iter(dict(vassal_scenario.cards.sheet_choices(doc.data)).values()))]


@pytest.mark.parametrize("stem", [p.stem for p in SAMPLES])
def test_the_predefined_setup_decodes_into_the_at_start_placement(maps, stem):
    doc = parse(with_hidden(json.loads(next(p for p in SAMPLES if p.stem == stem).read_text())), maps)
    module = vassal_scenario.scenario_module(doc)
    z, root = read(module)
    (setup,) = root.iter(SETUP)
    assert setup.get("name") == doc.data["title"] and setup.get("useFile") == "true"
    commands = vd.saved_game(z.read(setup.get("file")))
    assert commands[0] == "begin_save" and commands[-1] == "end_save"
    b = vassal_scenario.vassal.make_board(doc.maps[doc.main_key].grid, 19.0, 100)
    wanted = Counter()
    for side in doc.data["sides"]:
        for pl in side["placements"]:
            if ":" not in pl["hex"]:
                point = vassal_scenario.vassal_point(b, *doc.maps[doc.main_key].grid.parse_label(pl["hex"]))
                wanted[(side["name"], pl["unit"], point)] += 1
    found, ids, stacked = Counter(), set(), set()
    for command in commands:
        if not command.startswith("+/"):
            continue
        piece_id, traits = vd.add_piece(command)
        if traits[0][0] == "stack":
            fields = vd.tokens(traits[0][1], ";")
            assert fields[-1] == "@@0"
            stacked |= set(fields[3:-1])
            continue
        ids.add(piece_id)
        props = properties(traits)
        fields = vd.tokens(traits[-1][1], ";")
        if fields[0] == "Main Map" and "OOB" in props:
            found[(props["Side"], props["OOB"], (int(fields[1]), int(fields[2])))] += 1
    assert found == wanted
    assert stacked == ids  # every piece is in its hex's stack
    assert f"{commands[1].split(chr(9))[0]}" == "Main MapBoardPicker"


NAMES = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                       exclude_characters=[chr(c) for c in range(32) if c not in (9, 10)]
                                       + ["\x7f", "\ufffe", "\uffff"])
                | st.sampled_from(["\\", ";", "/", ",", "\t", "\n", "<", "&", '"', "'", ":", "$", "Ж", "戦", "車"]),
                min_size=1, max_size=24).filter(lambda s: s.strip())


@settings(max_examples=15, deadline=None, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(unit="Pak\\", side="A;b/c,d\td", title="<&\"> 戦車")
@example(unit="'q'", side="Ж\\", title="x\ny")
@given(unit=NAMES, side=NAMES, title=NAMES)
def test_any_name_survives_vassals_encoding_and_xml(maps, unit, side, title):
    data = json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_text())
    data["title"], data["sides"][0]["name"] = title, side
    if side == data["sides"][1]["name"]:
        return
    data["sides"][0]["oob"][0]["unit"] = unit
    data["sides"][0]["oob"][1]["hidden"] = True
    doc = parse(data, maps)
    z, root = read(vassal_scenario.scenario_module(doc, hex_mm=6.0))
    assert root.get("name") == title and [e.text for e in root.iter("entry")][0] == side
    label = f"{unit} ({side})"
    assert label in [s.get("entryName") for s in root.iter(SLOT)]
    placed = [traits for where, traits in pieces(z, root) if properties(traits).get("Side") == side
              and "OOB" in properties(traits)]
    assert placed
    for traits in placed:
        props = properties(traits)
        name = vd.basic(traits[-1][0])[1]
        assert name == f"{props['Unit']} ({side})"
        assert vd.tokens(vd.trait_fields(traits[0][0])[1][0], ",") == [side]
        if props["OOB"] == data["sides"][0]["oob"][0]["id"]:
            assert props["Unit"] == unit
        if props["OOB"] == data["sides"][0]["oob"][1]["id"]:
            access = vd.trait_fields(traits[1][0])[1][5]
            assert access.startswith("sides:") and vd.tokens(access[6:], ":") == [side]


@pytest.mark.parametrize("bad", ["\x01", "\x1b", "\x0b", "\x7f"])
def test_the_scenario_format_refuses_control_characters_naming_the_field(maps, bad):
    data = json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_text())
    data["sides"][0]["oob"][0]["unit"] = f"Rifle{bad}Squad"
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(data, maps)
    message = str(caught.value)
    assert f"U+{ord(bad):04X}" in message and "control character" in message


def add_marker_part(built):
    """An extra part, as the LOS extension adds its own: a file and a component of the module."""
    built.files["extra/part.txt"] = built.map_doc.name.encode()
    ET.SubElement(built.root, "VASSAL.build.module.Extra", board=str(built.board.across_px),
                  window=built.window.get("mapName"))


@pytest.mark.parametrize("part", [add_marker_part, "tests.engine.exports.test_vassal_play:add_marker_part"])
def test_extra_parts_join_every_module(maps, monkeypatch, part):
    monkeypatch.setattr(vassal_scenario.vassal, "EXTRA_PARTS", (part,))
    doc = parse(json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_text()), maps)
    for module in (vassal_scenario.scenario_module(doc, hex_mm=6.0),
                   vassal_scenario.vassal.map_module(doc.maps[doc.main_key], hex_mm=6.0)):
        z, root = read(module)
        extra = root.find("VASSAL.build.module.Extra")
        assert z.read("extra/part.txt") == doc.maps[doc.main_key].name.encode() and extra is not None
