"""Edit operations on a MapDoc (engine.edits): no database."""

import json

import pytest

from engine import edits, mapfile
from engine.mapfile import Cell


def make_doc(**extra):
    data = {
        "format": "hexside-map", "version": 1, "name": "Edits", "ruleset": "ost",
        "grid": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "even", "labels": "letter-number"},
        "hexes": [{"hex": "C4", "terrain": ["woods"]}, {"hex": "D5", "level": 1}],
        "hexsides": [{"hex": "C4", "side": "SE", "terrain": "hedge"}],
    }
    data.update(extra)
    return mapfile.parse(data)


def apply(doc, *operations):
    return edits.apply(doc, list(operations))


def problems(doc, *operations):
    with pytest.raises(edits.EditError) as caught:
        apply(doc, *operations)
    return caught.value.errors


def test_set_terrain_paints_every_hex_listed_by_label_or_pair():
    doc = make_doc()
    new, summary = apply(doc, {"op": "set_terrain", "hexes": ["A1", [1, 0], "D5"], "terrain": ["brush"]})
    assert new.hexes[(0, 0)].terrain == ("brush",)
    assert new.hexes[(1, 0)].terrain == ("brush",)
    assert new.hexes[(3, 4)] == Cell(terrain=("brush",), level=1)  # the level it had is kept
    assert summary == "paint 3 hexes brush"  # in the painter's words: the history shows it


def test_set_terrain_takes_one_id_or_several():
    new, _ = apply(make_doc(), {"op": "set_terrain", "hexes": ["B2"], "terrain": "woods"},
                   {"op": "set_terrain", "hexes": ["B3"], "terrain": ["stream", "brush"]})
    assert new.hexes[(1, 1)].terrain == ("woods",)
    assert new.hexes[(1, 2)].terrain == ("stream", "brush")


def test_the_map_given_is_never_changed():
    doc = make_doc()
    before = mapfile.dumps(doc)
    apply(doc, {"op": "set_terrain", "hexes": ["C4"], "terrain": "brush"},
          {"op": "clear_hexside", "hex": "C4", "side": "SE"},
          {"op": "rename", "name": "Other"})
    assert mapfile.dumps(doc) == before


def test_set_level_keeps_terrain():
    new, _ = apply(make_doc(), {"op": "set_level", "hexes": ["C4", "A1"], "level": 2})
    assert new.hexes[(2, 3)] == Cell(terrain=("woods",), level=2)
    assert new.hexes[(0, 0)] == Cell(terrain=("open",), level=2)


def test_set_storeys():
    new, _ = apply(make_doc(), {"op": "set_storeys", "hexes": ["E5"], "storeys": 3})
    assert new.hexes[(4, 4)].storeys == 3


def test_a_hex_back_to_the_defaults_is_no_longer_listed():
    new, _ = apply(make_doc(), {"op": "set_level", "hexes": ["D5"], "level": 0})
    assert (3, 4) not in new.hexes
    assert all(entry["hex"] != "D5" for entry in mapfile.to_dict(new)["hexes"])


def test_clear_hexes_brings_hexes_back_to_the_defaults():
    new, _ = apply(make_doc(), {"op": "clear_hexes", "hexes": ["C4", "D5", "A1"]})
    assert new.hexes == {}


def test_set_hexside_from_either_hex_is_the_same_hexside():
    doc = make_doc()
    grid = doc.grid
    neighbour = grid.neighbour(2, 3, "SE")
    label = grid.label(*neighbour)
    new, _ = apply(doc, {"op": "set_hexside", "hex": label, "side": "NW", "terrain": "stone-wall"})
    assert new.hexsides == {grid.hexside(2, 3, "SE"): "stone-wall"}


def test_clear_hexside():
    new, summary = apply(make_doc(), {"op": "clear_hexside", "hex": "C4", "side": "SE"})
    assert new.hexsides == {}
    assert "C4/SE" in summary


def test_set_and_clear_art():
    doc = make_doc()
    cx, cy = doc.grid.centre(2, 3)
    square = [[cx - 0.3, cy - 0.3], [cx + 0.3, cy - 0.3], [cx + 0.3, cy + 0.3], [cx - 0.3, cy + 0.3]]
    new, _ = apply(doc, {"op": "set_art", "hex": "C4", "art": square})
    assert new.hexes[(2, 3)].art == (tuple(tuple(p) for p in square),)
    assert new.hexes[(2, 3)].terrain == ("woods",)
    cleared, _ = apply(new, {"op": "clear_art", "hex": "C4"})
    assert cleared.hexes[(2, 3)].art is None


def test_art_outside_its_hex_is_refused_with_the_operation_named():
    doc = make_doc()
    cx, cy = doc.grid.centre(2, 3)
    far = [[cx + 5, cy], [cx + 6, cy], [cx + 6, cy + 1]]
    (found,) = problems(doc, {"op": "set_art", "hex": "C4", "art": far})
    assert found.operation == 0
    assert found.path.startswith("operations[0].art")
    assert found.hex == "C4"


def overlay(**extra):
    data = {"id": "H3", "anchor": "C3", "rotation": 0,
            "hexes": [{"hex": [0, 0], "terrain": ["woods"]}, {"hex": [1, 0], "terrain": ["brush"], "level": 1}],
            "hexsides": [{"hex": [0, 0], "side": "S", "terrain": "hedge"}]}
    data.update(extra)
    return data


def test_place_move_and_remove_an_overlay():
    doc = make_doc()
    placed, _ = apply(doc, {"op": "place_overlay", "overlay": overlay()})
    assert [o.id for o in placed.overlays] == ["H3"]
    cells, _ = placed.resolved()
    assert cells[(2, 2)].terrain == ("woods",)

    moved, summary = apply(placed, {"op": "move_overlay", "id": "H3", "anchor": "E3", "rotation": 1})
    (after,) = moved.overlays
    assert after.anchor == (4, 2) and after.rotation == 1
    assert after.hexes == placed.overlays[0].hexes
    cells, _ = moved.resolved()
    assert cells[(4, 2)].terrain == ("woods",)
    assert "move H3 to E3" in summary

    removed, _ = apply(moved, {"op": "remove_overlay", "id": "H3"})
    assert removed.overlays == []


def test_an_overlay_id_is_used_once():
    placed, _ = apply(make_doc(), {"op": "place_overlay", "overlay": overlay()})
    (found,) = problems(placed, {"op": "place_overlay", "overlay": overlay(anchor="A1")})
    assert found.path == "operations[0].overlay.id"


def test_moving_an_overlay_off_the_map_is_refused():
    placed, _ = apply(make_doc(), {"op": "place_overlay", "overlay": overlay()})
    found = problems(placed, {"op": "move_overlay", "id": "H3", "anchor": "H1"})
    assert found and all(p.operation == 0 for p in found)
    assert any("off the map" in p.message for p in found)


def test_an_overlay_with_unknown_terrain_names_the_entry():
    bad = overlay(hexes=[{"hex": [0, 0], "terrain": ["lava"]}])
    (found,) = problems(make_doc(), {"op": "place_overlay", "overlay": bad})
    assert found.path == "operations[0].overlay.hexes[0].terrain[0]"


def test_rename():
    new, _ = apply(make_doc(), {"op": "rename", "name": "Hill 112"})
    assert new.name == "Hill 112"
    (found,) = problems(make_doc(), {"op": "rename", "name": "x" * (edits.NAME_LENGTH + 1)})
    assert found.path == "operations[0].name"


def test_every_bad_operation_is_reported_by_index():
    found = problems(
        make_doc(),
        {"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"},
        {"op": "set_terrain", "hexes": ["A1", "Z99", [50, 0]], "terrain": "woods"},
        {"op": "set_level", "hexes": ["A1"], "level": 9},
        {"op": "set_hexside", "hex": "A1", "side": "E", "terrain": "hedge"},
        {"op": "paint", "hexes": ["A1"]},
        {"op": "set_terrain", "hexes": ["A1"], "terrain": "lava", "colour": "red"},
        {"op": "set_storeys", "hexes": ["A1"], "storeys": 0},
        {"op": "remove_overlay", "id": "nope"},
        "set_terrain",
        {"op": "set_hexside", "hex": "A1", "side": "N"},
    )
    by_op = {}
    for p in found:
        by_op.setdefault(p.operation, []).append(p.path)
    assert 0 not in by_op
    assert by_op[1] == ["operations[1].hexes[1]", "operations[1].hexes[2]"]
    assert by_op[2] == ["operations[2].level"]
    assert by_op[3] == ["operations[3].side"]
    assert by_op[4] == ["operations[4].op"]
    assert by_op[5] == ["operations[5].colour"]
    assert by_op[6] == ["operations[6].storeys"]
    assert by_op[7] == ["operations[7].id"]
    assert by_op[8] == ["operations[8]"]
    assert by_op[9] == ["operations[9].terrain"]


def test_unknown_terrain_is_refused_with_the_catalogue_message():
    (found,) = problems(make_doc(), {"op": "set_terrain", "hexes": ["A1"], "terrain": ["woods", "lava"]})
    assert found.path == "operations[0].terrain[1]"
    assert "lava" in found.message


def test_a_hexside_terrain_is_not_a_hex_terrain():
    (found,) = problems(make_doc(), {"op": "set_hexside", "hex": "A1", "side": "S", "terrain": "woods"})
    assert found.path == "operations[0].terrain"


@pytest.mark.parametrize("operations", [[], None, {"op": "rename", "name": "x"}, "rename"])
def test_operations_must_be_a_non_empty_list(operations):
    with pytest.raises(edits.EditError) as caught:
        edits.apply(make_doc(), operations)
    (found,) = caught.value.errors
    assert found.path == "operations" and found.operation is None


def test_later_operations_see_earlier_ones():
    new, _ = apply(make_doc(),
                   {"op": "place_overlay", "overlay": overlay()},
                   {"op": "move_overlay", "id": "H3", "rotation": 3},
                   {"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"},
                   {"op": "set_level", "hexes": ["A1"], "level": -1})
    assert new.overlays[0].rotation == 3
    assert new.hexes[(0, 0)] == Cell(terrain=("woods",), level=-1)


def test_result_is_a_valid_map_file():
    doc = make_doc()
    new, _ = apply(doc, {"op": "set_terrain", "hexes": [[c, r] for c in range(8) for r in range(6)],
                         "terrain": "brush"},
                   {"op": "place_overlay", "overlay": overlay()})
    again = mapfile.parse(mapfile.dumps(new))
    assert mapfile.dumps(again) == mapfile.dumps(new)


def test_summary_is_short():
    ops = [{"op": "set_terrain", "hexes": [[c, 0]], "terrain": "woods"} for c in range(8)] * 10
    _, summary = edits.apply(make_doc(), ops)
    assert len(summary) <= edits.SUMMARY_LENGTH


def test_a_stored_document_loads_back_to_the_same_map(map_document):
    doc = mapfile.parse(map_document)
    # As PostgreSQL's jsonb gives it back: the same content, keys in another order.
    stored = json.loads(json.dumps(mapfile.to_dict(doc), sort_keys=True))
    loaded = edits.load(stored)
    assert loaded == doc
    assert mapfile.dumps(loaded) == mapfile.dumps(doc)
    new, _ = edits.apply(loaded, [{"op": "move_overlay", "id": "H1", "rotation": 0}])
    assert stored["overlays"][0]["rotation"] == 2  # the stored document is not touched
