"""Sight lines of a scenario agree with the LOS engine's own answer for every pair they summarise."""

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
