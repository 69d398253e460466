"""ATS LOS: the rulebook's worked examples (digest §6: EX-1, EX-2, EX-4, EX-5, EX-7, EX-8, EX-9, EX-10, EX-13),
the rules they rest on, and reciprocity (the reference against the fast path on random maps:
test_reference_vs_batch.py).

Maps are flat-topped with the even letters (B, D, ..) half a hex lower, as the ATS maps are (digest §1): a
straight line down one letter column crosses only that column's hexes, so ranges along it are row counts.
"""


import pytest

from engine import rulesets
from engine.games.ats import los as ats
from engine.games.ats.los import Rules
from engine.hexgrid import Grid
from engine.los.compiled import CompiledMap
from engine.los.trace import ALONG, trace
from engine.mapfile import Cell, MapDoc
from tests.engine.los.helpers import check, square

GRID = Grid("flat", 8, 30, "odd")
CATALOGUE = rulesets.get("ats")


def make(hexes=None, hexsides=None, markers=(), grid=GRID, options=None, catalogue=CATALOGUE):
    """A map of level-0 open ground. ``hexes``: label -> (terrain ids, level) or (terrain, level, extra Cell
    fields); ``hexsides``: (label, side name) -> terrain id."""
    cells = {}
    for label, spec in (hexes or {}).items():
        terrain, level, *extra = spec
        if isinstance(terrain, str):
            terrain = [terrain]
        cells[grid.parse_label(label)] = Cell(terrain=tuple(terrain), level=level, **(extra[0] if extra else {}))
    sides = {}
    for (label, side), tid in (hexsides or {}).items():
        col, row = grid.parse_label(label)
        sides[grid.hexside(col, row, side)] = tid
    doc = MapDoc(name="t", ruleset="ats", grid=grid, default_terrain=("open-ground",), hexes=cells,
                 hexsides=sides, extensions={"rules": options or {}})
    return Rules(CompiledMap(doc, catalogue, markers))


def outcome(answer):
    return answer.result, answer.hindrances, answer.blind


def hexside(rules, label, side):
    """A hexside's name as answers give it (from the hex that owns the edge)."""
    col, row = rules.cmap.grid.parse_label(label)
    return rules.cmap.hexside_label(col, row, rules.cmap.grid.side_index(side))


def effects(answer):
    return [(r.hex or r.hexside, r.terrain, r.effect) for r in answer.reasons]


def provisional(answer):
    return [note for note in answer.assumptions if "provisional" in note]


def along(grid, a, b):
    """The two hexes beside, and the hexside under, the one hexside the line from a to b runs along."""
    steps = [s for s in trace(grid, grid.parse_label(a), grid.parse_label(b)).steps if s.kind == ALONG]
    assert len(steps) == 1
    return [grid.label(*h) for h in steps[0].hexes], steps[0]


# -- the table -------------------------------------------------------------------------------------------

def test_table_proven_cell_and_provisional_formula():
    rules = make()
    counts, prov = rules.table, rules.table_provisional
    for rng in range(13, 19):
        assert counts[10, rng] == 3 and not prov[10, rng]
    assert (counts[10, 7], prov[10, 7]) == (2, True)  # band 2: 2 x 10 / 10
    assert counts[20, 13] == 2  # band 3: 30 / 20 = 1.5, halves up
    assert counts[20, 1] == 1  # max(1, round(0.5 up))
    assert counts[40, 5] == 1  # never below 1


def test_table_without_a_catalogue_reads_the_built_in_one():
    rules = make(catalogue=None)
    assert rules.table[10, 16] == 3 and not rules.table_provisional[10, 16]
    assert rules.table[30, 40] == ats.provisional_blind_hexes(30, 40) == 2


class Profile(rulesets.Ruleset):
    """An ATS profile whose designer entered the play aid: every cell 2, all proven (the built-in terrain)."""

    def __init__(self):
        super().__init__({**CATALOGUE.as_dict(), "id": "ats-play-aid"})

    def blind_hexes(self, diff, range_hexes):
        return (2, True) if diff >= 10 else None


def test_table_cells_come_from_the_catalogue_and_the_proven_cell_stays():
    rules = make({"C5": ("woods", 0)}, catalogue=Profile())
    assert rules.table[20, 3] == 2 and not rules.table_provisional[20, 3]
    assert rules.table[10, 14] == 3
    answer = check(rules, "C3", "C7", from_level=20)  # two blind hexes behind the woods: C6, C7
    assert outcome(answer) == ("blocked", 0, True)
    assert provisional(answer) == []
    assert check(make({"C5": ("woods", 0)}), "C3", "C7", from_level=20).result == "clear"  # provisional: 1


# -- EX-1: hill blind hexes (8.13.21) ----------------------------------------------------------------------
# The firer on a +20 hill hex at C1; a +10 hex of a different hill 16 hexes away at C17; open ground at 0 beyond.

def ex1(same_hill=False):
    hexes = {"C1": ("open-ground", 20), "C17": ("open-ground", 10)}
    if same_hill:  # a ridge in column E joins the two hill hexes, off the line
        hexes.update({f"D{row}": ("open-ground", 10) for row in (1, 17)})
        hexes.update({f"E{row}": ("open-ground", 10) for row in range(1, 18)})
    return make(hexes)


def test_EX1a_target_at_range_20_is_seen():
    answer = check(ex1(), "C1", "C21")
    assert outcome(answer) == ("clear", 0, False)
    assert effects(answer) == [("C17", "hill +10", "ignored")]
    assert provisional(answer) == []  # only the proven cell (+10, 13-18) was used


def test_EX1b_target_at_range_19_is_blind():
    answer = check(ex1(), "C1", "C20")
    assert outcome(answer) == ("blocked", 0, True)
    assert answer.term == "Blind"
    assert effects(answer) == [("C17", "hill +10", "blind")]
    assert "6.2.63" in answer.reasons[0].rule
    assert provisional(answer) == []


@pytest.mark.parametrize("target, seen", [("C18", False), ("C19", False), ("C20", False), ("C21", True),
                                          ("C25", True)])
def test_EX1b_derived_three_blind_hexes_at_ranges_17_to_19(target, seen):
    answer = check(ex1(), "C1", target)
    assert (answer.result == "clear") == seen
    assert answer.blind == (not seen)


def test_EX1c_same_hill_makes_one_fewer_blind_hex():
    rules = ex1(same_hill=True)
    assert rules.data[rules.cmap.index_of("C1"), ats.C_HILL] == rules.data[rules.cmap.index_of("C17"), ats.C_HILL]
    seen = check(rules, "C1", "C20")
    assert outcome(seen) == ("clear", 0, False)
    assert "8.13.21" in seen.reasons[0].rule
    blind = check(rules, "C1", "C19")
    assert outcome(blind) == ("blocked", 0, True)


def test_EX1c_terraced_hills_keep_every_blind_hex():
    hexes = {"C1": ("open-ground", 20), "C17": ("open-ground", 10)}
    hexes.update({f"D{row}": ("open-ground", 10) for row in (1, 17)})
    hexes.update({f"E{row}": ("open-ground", 10) for row in range(1, 18)})
    rules = make(hexes, options={"terraced_hills": True})
    assert check(rules, "C1", "C20").blind


def test_EX1_cliff_crest_gets_no_reduction():
    hexes = {"C1": ("open-ground", 20), "C17": ("open-ground", 10)}
    hexes.update({f"D{row}": ("open-ground", 10) for row in (1, 17)})
    hexes.update({f"E{row}": ("open-ground", 10) for row in range(1, 18)})
    rules = make(hexes, hexsides={("C17", "S"): "cliff"})
    assert check(rules, "C1", "C20").blind


# -- EX-9: the hill figure (12.12): a hill stepping +30, +20, +10 down to level 0 -------------------------

def ex9(options=None):
    return make({"C1": ("open-ground", 30), "C2": ("open-ground", 20), "C3": ("open-ground", 10)},
                options=options)


def test_EX9a_top_of_the_hill_sees_down_its_own_slopes():
    answer = check(ex9(), "C1", "C4")
    assert outcome(answer) == ("clear", 0, False)
    assert [r.effect for r in answer.reasons] == ["ignored", "ignored"]
    assert provisional(answer)  # the (+10, 1-6) and (+20, 1-6) cells are provisional


def test_EX9b_terraced_hill_hides_the_hex_behind_each_contour():
    rules = ex9({"terraced_hills": True})
    assert outcome(check(rules, "C1", "C4")) == ("blocked", 0, True)
    assert outcome(check(rules, "C1", "C3")) == ("blocked", 0, True)
    assert check(rules, "C1", "C2").result == "clear"


def test_EX9c_an_intervening_hex_above_both_blocks():
    rules = make({"C1": ("open-ground", 10), "C2": ("open-ground", 30), "C3": ("open-ground", 20)})
    answer = check(rules, "C1", "C3")
    assert outcome(answer) == ("blocked", 0, False)
    assert effects(answer) == [("C2", "hill +30", "blocking")]


def test_EX9e_up_a_continuous_slope():
    answer = check(ex9(), "C4", "C1")
    assert answer.result == "clear"


def test_EX9f_level_0_unit_does_not_see_into_the_deir_beyond_the_rim():
    rules = make({"C5": ("deir", -5), "C6": ("deir", -5)})
    answer = check(rules, "C1", "C6")
    assert outcome(answer) == ("blocked", 0, True)
    assert (hexside(rules, "C4", "S"), "deir contour", "blind") in effects(answer)
    assert any("Stationary" in note for note in answer.assumptions)


# -- EX-10: the deir figure (12.8, 8.6.2) -------------------------------------------------------------------

DEIR = {f"C{row}": ("deir", -5) for row in range(5, 9)}


def test_EX10_rim_unit_adjacent_to_the_contour_sees_all_deir_units():
    rules = make(DEIR)
    for target in ("C5", "C7", "C8"):
        assert check(rules, "C4", target).result == "clear"


def test_EX10_one_hex_back_it_does_not_see_a_deir_unit_away_from_the_contour():
    rules = make(DEIR)
    assert outcome(check(rules, "C3", "C6")) == ("blocked", 0, True)


def test_EX10_one_hex_back_it_sees_a_deir_unit_next_to_level_0():
    rules = make(DEIR)
    assert check(rules, "C3", "C5").result == "clear"


def test_EX10_higher_units_see_in_within_their_height_in_hexes():
    deir = {f"C{row}": ("deir", -5) for row in range(13, 16)}
    rules = make(deir)
    assert check(rules, "C3", "C14", from_level=10).result == "clear"  # +10, 10 hexes to the first deir hex
    assert outcome(check(rules, "C2", "C14", from_level=10)) == ("blocked", 0, True)  # +10, 11 hexes
    assert check(rules, "C8", "C14", from_level=5).result == "clear"  # +5, 5 hexes
    assert outcome(check(rules, "C7", "C14", from_level=5)) == ("blocked", 0, True)  # +5, 6 hexes


def test_EX10_wreck_in_the_deir_is_ignored_from_higher_ground():
    rules = make({**DEIR, "C1": ("open-ground", 10)}, markers=[{"hex": "C6", "kind": "wreck"}])
    assert outcome(check(rules, "C1", "C8")) == ("clear", 0, False)


# -- EX-2: walls, hedges, bocage (12.4, 7.2) ----------------------------------------------------------------

def test_along_fixture_is_a_hexside():
    hexes, _ = along(GRID, "C5", "E5")
    assert sorted(hexes) == ["D4", "D5"]


@pytest.mark.parametrize("tid", ["wall", "hedge"])
def test_EX2a_b_line_along_a_wall_or_hedge_is_clear(tid):
    rules = make(hexsides={("D5", "N"): tid})
    assert check(rules, "C5", "E5").result == "clear"


@pytest.mark.parametrize("tid", ["wall", "hedge"])
def test_EX2a_b_wall_between_same_level_units_blocks(tid):
    rules = make(hexsides={("C5", "S"): tid})
    answer = check(rules, "C3", "C8")
    assert outcome(answer) == ("blocked", 0, False)
    assert effects(answer) == [(hexside(rules, "C5", "S"), tid, "blocking")]


@pytest.mark.parametrize("tid", ["wall", "hedge", "bocage"])
def test_EX2_hexside_of_the_target_hex_lets_LOS_reach_it(tid):
    rules = make(hexsides={("C7", "N"): tid})
    assert check(rules, "C3", "C7").result == "clear"


def test_EX2c_no_LOS_along_bocage():
    rules = make(hexsides={("D5", "N"): "bocage"})
    answer = check(rules, "C5", "E5")
    assert outcome(answer) == ("blocked", 0, False)
    assert (hexside(rules, "D5", "N"), "bocage", "blocking") in effects(answer)


def test_EX2d_bocage_blinds_the_hex_behind_it_from_higher_up():
    rules = make({"C1": ("open-ground", 20)}, hexsides={("C7", "N"): "bocage"})
    answer = check(rules, "C1", "C7")
    assert outcome(answer) == ("blocked", 0, True)
    assert effects(answer) == [(hexside(rules, "C7", "N"), "bocage", "blind")]
    # a +5 wall there casts no blind hex (7.2)
    wall = make({"C1": ("open-ground", 20)}, hexsides={("C7", "N"): "wall"})
    assert check(wall, "C1", "C7").result == "clear"


def test_EX2f_interior_walls_block_even_along():
    rules = make(hexsides={("D5", "N"): "interior-wall"})
    assert check(rules, "C5", "E5").result == "blocked"


# -- EX-4, EX-5: buildings (6.2.4, 8.3.13) -------------------------------------------------------------------

def test_EX4_building_blocks_only_where_the_line_touches_its_art():
    on = make({"C5": ("building", 0, {"art": (square(GRID, "C5", 0, 0),)})})
    assert check(on, "C3", "C8").result == "blocked"
    off = make({"C5": ("building", 0, {"art": (square(GRID, "C5", 0.6, 0),)})})
    answer = check(off, "C3", "C8")
    assert outcome(answer) == ("clear", 0, False)
    assert answer.reasons == []


def test_EX5_house_is_plus_10_and_a_steeple_makes_it_plus_20():
    hill = {"C3": ("open-ground", 10), "C8": ("open-ground", 10)}
    house = make({**hill, "C5": ("house", 0)})
    assert check(house, "C3", "C8").result == "clear"  # +10 units see over a +10 house on level 0
    steeple = make({**hill, "C5": (["house", "steeple"], 0)})
    answer = check(steeple, "C3", "C8")
    assert outcome(answer) == ("blocked", 0, False)
    assert effects(answer) == [("C5", "steeple", "blocking")]


def test_building_storeys_set_its_height():
    rules = make({"C3": ("open-ground", 10), "C8": ("open-ground", 10), "C5": ("building", 0, {"storeys": 2})})
    assert check(rules, "C3", "C8").result == "blocked"


# -- EX-7: smoke (7.4, 6.4.5) --------------------------------------------------------------------------------

def test_EX7_brush_with_smoke_is_plus_4_not_5():
    rules = make({"C5": ("brush", 0)}, markers=[{"hex": "C5", "kind": "smoke"}])
    answer = check(rules, "C3", "C8")
    assert outcome(answer) == ("hindered", 4, False)
    assert answer.term == "Obscured (+4)"


def test_smoke_counts_each_counter_and_in_the_end_hexes():
    rules = make(markers=[{"hex": "C5", "kind": "smoke", "count": 2}, {"hex": "C3", "kind": "smoke2"},
                          {"hex": "C8", "kind": "dust"}])
    assert outcome(check(rules, "C3", "C8")) == ("hindered", 16, False)


# -- EX-8: Scottish Corridor mapsheet 1 figure (12.6), as far as the text fixes it ---------------------------

def test_EX8b_hedge_between_two_plus_10_units_blocks():
    hill = {f"C{row}": ("open-ground", 10) for row in range(2, 9)}
    rules = make(hill, hexsides={("C5", "S"): "hedge"})
    assert outcome(check(rules, "C2", "C8")) == ("blocked", 0, False)


def test_EX8d_two_crops_hexes_obscure_plus_2():
    hexes = {"C3": ("open-ground", 0), "C5": ("crops", 10), "C6": ("crops", 10), "C7": ("open-ground", 10)}
    rules = make(hexes)
    answer = check(rules, "C3", "C7", from_level=10)  # Sq6 in the steeple location, +10 above level 0
    assert outcome(answer) == ("hindered", 2, False)
    assert answer.term == "Obscured (+2)"
    assert [r.effect for r in answer.reasons] == ["hindering", "hindering"]


def test_EX8e_hedge_on_level_0_ignored_by_higher_units():
    hexes = {"C4": ("crops", 5), "C7": ("open-ground", 5)}
    rules = make(hexes, hexsides={("C5", "S"): "hedge"})
    answer = check(rules, "C3", "C7", from_level=10)
    assert outcome(answer) == ("hindered", 1, False)  # the crops on +5 ground, not the hedge


def test_EX8f_hillock_unit_pays_nothing_for_crops_on_level_0():
    rules = make({"C7": ("open-ground", 5), "C5": ("crops", 0)}, hexsides={("C7", "N"): "hillock-contour"})
    answer = check(rules, "C3", "C7", from_level=10)
    assert outcome(answer) == ("clear", 0, False)


def test_EX8j_along_a_hexside_between_two_crops_hexes_counts_once():
    rules = make({"D4": ("crops", 0), "D5": ("crops", 0)})
    answer = check(rules, "C5", "E5")
    assert outcome(answer) == ("hindered", 1, False)


def test_EX8l_hillock_unit_sees_over_a_hedge():
    rules = make({"C7": ("open-ground", 5)}, hexsides={("C7", "N"): "hillock-contour", ("C4", "S"): "hedge"})
    answer = check(rules, "C2", "C7")
    assert outcome(answer) == ("clear", 0, False)
    assert effects(answer) == [(hexside(rules, "C4", "S"), "hedge", "ignored")]
    plain = make(hexsides={("C4", "S"): "hedge"})
    assert check(plain, "C2", "C7").result == "blocked"


def test_EX8a_down_in_a_sunken_road_out_of_LOS_of_a_non_adjacent_unit():
    rules = make({"C6": ("sunken-road", 10), "C2": ("crops", 10)})
    answer = check(rules, "C2", "C6", to_level=0)
    assert outcome(answer) == ("blocked", 0, True)
    assert effects(answer)[-1] == ("C6", "sunken-road (DOWN)", "blind")
    assert any("crestline" in note for note in answer.assumptions)


def test_EX8g_down_unit_sees_adjacent_hexes_and_along_its_depression():
    road = {f"C{row}": ("sunken-road", 10) for row in range(3, 9)}
    rules = make({**road, "D7": ("open-ground", 10)})
    assert check(rules, "C6", "D6", from_level=0).result == "clear"  # adjacent
    assert check(rules, "C3", "C8", from_level=0, to_level=0).result == "clear"  # along the road
    assert check(rules, "C6", "E7", from_level=0).result == "blocked"  # leaves the road


# -- EX-13: woods and their art (12.10, 6.2.3) ---------------------------------------------------------------

def test_EX13_woods_art_blocks_only_where_touched():
    grid = Grid("flat", 24, 24, "odd")
    art = (square(grid, "T19", 0, 0.2, 0.5),)  # around the centre, clear of the T18/T19 hexside
    rules = make({"T19": ("woods", 0, {"art": art}), "S19": ("woods", 0), "U19": ("woods", 0)}, grid=grid)
    blocked = check(rules, "T18", "T20")
    assert outcome(blocked) == ("blocked", 0, False)
    assert effects(blocked) == [("T19", "woods", "blocking")]
    hexes, _ = along(grid, "S19", "U19")
    assert sorted(hexes) == ["T18", "T19"]
    assert outcome(check(rules, "S19", "U19")) == ("clear", 0, False)


# -- same level, different levels: the core rules ------------------------------------------------------------

def test_same_level_blocking_terrain_blocks_and_obscuring_hinders():
    assert check(make({"C5": ("woods", 0)}), "C3", "C8").result == "blocked"
    assert outcome(check(make({"C5": ("orchard", 0)}), "C3", "C8")) == ("hindered", 1, False)
    assert check(make({"C5": ("rubble", 0)}), "C3", "C8").result == "blocked"
    assert check(make({"C5": ("woods", 0)}), "C3", "C8", 10, 10).result == "clear"


def test_terrain_in_the_end_hexes_does_not_count():
    rules = make({"C3": ("woods", 0), "C8": ("brush", 0)})
    assert outcome(check(rules, "C3", "C8")) == ("clear", 0, False)


def test_obstacle_top_equal_to_the_higher_unit_blocks():
    rules = make({"C5": ("woods", 0)})
    answer = check(rules, "C3", "C8", from_level=10)
    assert outcome(answer) == ("blocked", 0, False)
    assert any("equals the higher unit" in note for note in answer.assumptions)


def test_obstacle_less_than_10_below_the_higher_unit_blocks():
    rules = make({"C5": ("woods", 0)})
    assert outcome(check(rules, "C3", "C8", from_level=15)) == ("blocked", 0, False)


def test_plus_5_obstacle_casts_no_blind_hexes_from_above():
    rules = make({"C5": ("rubble", 0)})
    answer = check(rules, "C3", "C6", from_level=10)
    assert outcome(answer) == ("clear", 0, False)
    assert any("only +5" in note for note in answer.assumptions)


def test_woods_cast_blind_hexes_from_above():
    rules = make({"C5": ("woods", 0)})
    assert check(rules, "C3", "C6", from_level=20).blind  # range 2: 1 blind hex (provisional)
    assert check(rules, "C3", "C7", from_level=20).result == "clear"


def test_orchard_casts_blind_hexes_only_for_higher_units():
    rules = make({"C5": ("orchard", 0)})
    answer = check(rules, "C3", "C6", from_level=20)
    assert outcome(answer) == ("blocked", 1, True)
    assert outcome(check(rules, "C3", "C7", from_level=20)) == ("hindered", 1, False)
    assert outcome(check(rules, "C3", "C6", from_level=10)) == ("hindered", 1, False)


# -- hillocks (8.12.21-24) ---------------------------------------------------------------------------------

def hillock(*labels):
    """A +5 hillock over the given hexes, contoured on every side toward level 0."""
    hexes = {label: ("open-ground", 5) for label in labels}
    sides = {}
    for label in labels:
        col, row = GRID.parse_label(label)
        for s in range(6):
            nb = GRID.neighbour(col, row, s)
            if nb is not None and GRID.label(*nb) not in labels:
                sides[(label, GRID.sides[s])] = "hillock-contour"
    return hexes, sides


def test_hillock_level_0_units_behind_a_non_adjacent_hillock_are_hidden():
    hexes, sides = hillock("C5")
    rules = make(hexes, sides)
    answer = check(rules, "C2", "C8")
    assert outcome(answer) == ("blocked", 0, False)
    assert effects(answer) == [("C5", "hillock", "blocking")]
    assert check(rules, "C2", "C5").result == "clear"  # sees onto the hillock (8.12.23)


def test_hillock_adjacent_level_0_unit_sees_past_it():
    hexes, sides = hillock("C5", "C6")
    rules = make(hexes, sides)
    answer = check(rules, "C4", "C9")
    assert outcome(answer) == ("clear", 0, False)
    assert [r.rule for r in answer.reasons] == ["ATS 8.12.22", "ATS 8.12.22"]
    assert check(rules, "C2", "C9").result == "blocked"


def test_hillock_to_hillock_blind_zone_is_a_quarter_of_the_range():
    first, sides1 = hillock("C1", "C2")
    second, sides2 = hillock("C14")
    rules = make({**first, **second}, {**sides1, **sides2})
    # from C2 (on the first hillock) the last hexes of the second is 12 away: 12 // 4 = 3 blind hexes, after
    # the first hex behind it (C15, adjacent, stays visible): C16, C17, C18
    assert check(rules, "C2", "C15").result == "clear"
    for label in ("C16", "C17", "C18"):
        assert outcome(check(rules, "C2", label)) == ("blocked", 0, True)
    assert check(rules, "C2", "C19").result == "clear"
    # from C1 the range counts without the viewer's own hillock hex C2: still 12
    assert check(rules, "C1", "C18").blind and check(rules, "C1", "C19").result == "clear"


def test_hillock_seen_over_from_a_hill():
    hexes, sides = hillock("C5")
    rules = make({**hexes, "C1": ("open-ground", 10)}, sides)
    assert check(rules, "C1", "C6").result == "clear"


def test_hillock_on_a_hill_does_not_affect_LOS():
    hill = {f"C{row}": ("open-ground", 10) for row in range(1, 10)}
    rules = make({**hill, "C5": ("open-ground", 15)}, {("C5", "N"): "hillock-contour"})
    assert check(rules, "C2", "C8").result == "clear"
    assert rules.unit_level(rules.cmap.index_of("C5")) == 15


# -- vehicles and wrecks (6.2.71) ----------------------------------------------------------------------------

def test_vehicles_and_wrecks_obscure_same_level_lines_once_per_hex():
    rules = make(markers=[{"hex": "C5", "kind": "vehicle", "count": 2}, {"hex": "C5", "kind": "wreck"},
                          {"hex": "C6", "kind": "wreck"}])
    answer = check(rules, "C3", "C8")
    assert outcome(answer) == ("hindered", 2, False)


def test_vehicles_never_blind_and_are_looked_over_from_above():
    rules = make(markers=[{"hex": "C5", "kind": "vehicle"}])
    assert outcome(check(rules, "C3", "C6", from_level=20)) == ("clear", 0, False)


def test_vehicles_on_a_continuous_slope_obscure():
    rules = make({"C1": ("open-ground", 20), "C2": ("open-ground", 10)}, markers=[{"hex": "C2", "kind": "vehicle"}])
    assert outcome(check(rules, "C1", "C3")) == ("hindered", 1, False)


# -- map options and what is not handled yet ----------------------------------------------------------------

def test_options_forest_harvested_crops_and_high_dunes():
    woods = {"C3": ("open-ground", 10), "C8": ("open-ground", 10), "C5": ("woods", 0)}
    assert check(make(woods), "C3", "C8").result == "clear"
    assert check(make(woods, options={"forest": True}), "C3", "C8").result == "blocked"  # 8.32.21: +20
    crops = {"C5": ("crops", 0)}
    assert check(make(crops), "C3", "C8").result == "hindered"
    assert check(make(crops, options={"harvested_crops": True}), "C3", "C8").result == "clear"
    dune = {("C5", "S"): "sand-dune"}
    high = {"C1": ("open-ground", 20)}
    assert check(make(high, dune), "C1", "C6").result == "clear"  # +5: no blind hexes
    assert check(make(high, dune, options={"sand_dune_height": 10}), "C1", "C6").blind


def test_unhandled_specials_are_named_in_the_assumptions():
    rules = make({"C5": ("fort", 0), "C8": ("wadi", 0)})
    answer = check(rules, "C3", "C8", from_level=20)
    assert any("8.3.152" in note for note in answer.assumptions)
    assert any("7.3.4" in note for note in answer.assumptions)  # C8 is UP in its wadi
    assert check(make(), "C3", "C8").assumptions == []


def test_terrain_the_evaluator_does_not_rate_is_clear_and_says_so():
    profile = rulesets.from_dict({"id": "ats-mystery", "name": "M", "base": "ats", "extends_base": True, "terrain": [
        {"id": "mystery", "name": "Mystery", "layer": "hex", "los": "special", "height": None, "movement": {},
         "cover": None, "rule": None}]}, where="m.json")
    for tid in ("mystery", "unknown-thing"):
        rules = make({"C5": (tid, 0)}, catalogue=profile)
        answer = check(rules, "C3", "C8")
        assert answer.result == "clear"
        assert any(tid in note for note in answer.assumptions)
