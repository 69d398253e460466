"""The objective and zone questions of the sight lines against single reference answers."""

import copy
import json

from engine.los import engine
from engine.scenarios import scenariofile
from engine.scenarios.sightlines import sight_lines_of
from tests.conftest import MAP_DOCUMENT
from tests.scenarios.conftest import SMALL


def seen(cmap, a, b):
    answer = engine.line_of_sight(cmap, a, b)
    return a == b or (answer.result != "blocked" and not answer.blind)


def test_objectives_zones_and_exposure_equal_single_answers():
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = copy.deepcopy(MAP_DOCUMENT)
    doc = scenariofile.parse(json.loads(json.dumps(data)))
    q = sight_lines_of(doc)["questions"]
    cmap = engine.compile_map(doc.maps[doc.main_key])
    blue, red = (side["setup_zone"] for side in data["sides"])
    row = q["objectives"]["blue"]["setup_zone"][0]
    assert row["hexes"] == [h for h in blue if seen(cmap, h, "D5")] and row["count"] == len(row["hexes"])
    units = q["objectives"]["blue"]["units"][0]
    assert units["hexes"] == [h for h in ("A1", "A2", "B2") if seen(cmap, h, "D5")]
    zone = q["zones"][0]
    pairs = [[a, b] for a in sorted(blue, key=cmap.index_of) for b in sorted(red, key=cmap.index_of)]
    assert zone["seen_pairs"] == [p for p in pairs if seen(cmap, *p)]
    assert zone["pairs"] == len(pairs) and zone["blocked"] == len(pairs) - zone["intervisible"]
    assert sum(b["pairs"] for b in zone["blockers"]) >= zone["blocked"] or len(zone["blockers"]) == 10
    exposure = q["exposure"]["red"]["setup_zone"]["hexes"]
    for i in range(cmap.n):
        label = cmap.label(i)
        assert exposure.get(label, 0) == sum(seen(cmap, h, label) for h in red)
