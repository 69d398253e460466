"""Sight lines of a scenario agree with the LOS engine's own answer for every pair they summarise."""

import json

from engine.los import engine
from engine.scenarios import scenariofile
from engine.scenarios.sightlines import sight_lines_of
from tests.scenarios.conftest import SAMPLES, parse


def seen(cmap, a, b):
    answer = engine.line_of_sight(cmap, a, b)
    return answer.result != "blocked" and not answer.blind


def test_hill_112_sight_lines_match_the_engine(sample_maps):
    path = next(p for p in SAMPLES if p.stem == "hill-112")
    doc = scenariofile.parse(path.read_bytes(), sample_maps)
    result = sight_lines_of(doc)
    cmap = engine.compile_map(doc.maps[doc.main_key])
    for side in doc.data["sides"]:
        entry = result["sides"][side["id"]]
        zone = side["setup_zone"]
        for row in entry["objectives"]:
            looks = [seen(cmap, z, row["hex"]) for z in zone]
            assert row["seen"] == any(looks), row
            assert row["seen_from_setup_hexes"] == sum(looks)
        enemy = next(s for s in doc.data["sides"] if s is not side)
        expected = [h for h in enemy["setup_zone"] if any(seen(cmap, z, h) for z in zone)]
        assert sorted(entry["enemy_setup"]["seen"]) == sorted(expected)
        expected_from = [h for h in enemy["setup_zone"] if any(seen(cmap, h, z) for z in zone)]
        assert sorted(entry["enemy_setup"]["seen_from"]) == sorted(expected_from)
    # Dead ground: a sample of hexes checked against the reference evaluator.
    german = result["sides"]["german"]
    zone = doc.side("german")["setup_zone"]
    for hex in german["dead_ground"][:8]:
        assert not any(seen(cmap, z, hex) for z in zone)
    assert german["sentence"].startswith("German sees 3 of 3 objectives from setup;")
    both = set(result["dead_ground_to_all"])
    assert both == set(german["dead_ground"]) & set(result["sides"]["british"]["dead_ground"])
    assert "are in dead ground from every British setup hex" not in result["sides"]["british"]["sentence"]
    assert "1 is in dead ground from every British setup hex" in result["sides"]["british"]["sentence"]


def test_a_wall_of_woods_makes_dead_ground(small, map_document):
    """Blue on the west edge, an objective behind a line of woods: in dead ground, and said so."""
    map_document["hexes"] = [{"hex": f"C{r}", "terrain": ["woods"]} for r in range(1, 9)]
    map_document["hexsides"] = []
    map_document["overlays"] = []
    small["maps"][0]["document"] = map_document
    small["objectives"] = [{"id": "hill", "hex": "E4", "name": "Farm"}, {"id": "near", "hex": "B5", "name": "Well"}]
    small["sides"][0]["victory"] = {"kind": "control", "objectives": ["hill", "near"]}
    doc = parse(small)
    result = sight_lines_of(doc)
    blue = result["sides"]["blue"]
    rows = {o["id"]: o for o in blue["objectives"]}
    assert rows["hill"]["seen"] is False and rows["near"]["seen"] is True
    assert "E4" in blue["dead_ground"] and "B5" not in blue["dead_ground"]
    assert blue["sentence"].startswith("Blue sees 1 of 2 objectives from setup; 1 is in dead ground from every "
                                       "Blue setup hex")


def test_a_scenarios_los_limit_caps_every_sight_line(sample_maps):
    """Assault 10.2 "LOS is unlimited unless restricted by the scenario"; any game's environment.visibility (night,
    fog): a line longer than the limit sees nothing, the rest as the engine answers."""
    path = next(p for p in SAMPLES if p.stem == "hill-112")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["environment"]["visibility"] = 4
    doc = scenariofile.parse(data, sample_maps)
    result = sight_lines_of(doc)
    cmap = engine.compile_map(doc.maps[doc.main_key])
    grid = cmap.grid

    def near(a, b):
        return grid.distance(grid.parse_label(a), grid.parse_label(b)) <= 4

    for side in doc.data["sides"]:
        entry = result["sides"][side["id"]]
        for row in entry["objectives"]:
            looks = [seen(cmap, z, row["hex"]) and near(z, row["hex"]) for z in side["setup_zone"]]
            assert row["seen_from_setup_hexes"] == sum(looks), row
        enemy = next(s for s in doc.data["sides"] if s is not side)
        expected = [h for h in enemy["setup_zone"] if any(seen(cmap, z, h) and near(z, h) for z in side["setup_zone"])]
        assert sorted(entry["enemy_setup"]["seen"]) == sorted(expected)
    unlimited = sight_lines_of(scenariofile.parse(path.read_bytes(), sample_maps))
    assert len(result["dead_ground_to_all"]) > len(unlimited["dead_ground_to_all"])
