"""The engine's front door on the shipped samples of every ruleset: the answer's shape, the fast path agreeing
with the reference, reciprocity, the whole-map analysis and the command-line tools."""

import io
import json
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command

from engine import mapfile
from engine.generate import random_map
from engine.los.engine import (
    analyze,
    compile_map,
    line_of_sight,
    observer_chunks,
    rules_for,
    viewshed,
    viewshed_answer,
)

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "maps" / "samples").glob("*.json"))
ANSWER_KEYS = ["from", "to", "from_level", "to_level", "result", "hindrances", "blind", "term", "reasons",
               "assumptions"]


def load(path):
    return compile_map(mapfile.parse(path.read_text()))


@pytest.fixture(scope="module", params=SAMPLES, ids=lambda p: p.stem)
def sample(request):
    return load(request.param)


def test_an_answer_has_the_contracts_shape(sample):
    n = sample.n
    answer = line_of_sight(sample, sample.label(0), sample.label(n - 1)).as_dict()
    assert list(answer) == ANSWER_KEYS
    assert answer["result"] in ("clear", "hindered", "blocked")
    assert isinstance(answer["hindrances"], int) and isinstance(answer["blind"], bool)
    assert answer["term"]
    for reason in answer["reasons"]:
        assert set(reason) == {"hex", "hexside", "terrain", "effect", "rule"}
        assert reason["rule"]


def test_the_viewshed_agrees_with_the_reference_for_every_target(sample):
    """The fast batch path and the per-pair reference evaluator give the same answer, hex by hex."""
    rng = np.random.default_rng(7)
    for observer in rng.choice(sample.n, size=3, replace=False):
        shed = viewshed(sample, sample.label(observer))
        assert len(shed["hexes"]) == sample.n
        for label, fast in shed["hexes"].items():
            ref = line_of_sight(sample, sample.label(observer), label).as_dict(reasons=False)
            assert fast == ref, (sample.ruleset, sample.label(observer), label)


@pytest.mark.parametrize("chunk", [1, 2, 7, 4096])
def test_the_viewshed_written_as_json_pieces_is_the_viewshed(sample, chunk):
    """A job writes the viewshed's JSON straight from its arrays (issue 7, point 1): it must read back as the dict."""
    shed = viewshed_answer(sample, sample.label(sample.n // 3), level=2)
    text = "".join(shed.json_pieces(chunk))
    assert json.loads(text) == shed.as_dict() == viewshed(sample, sample.label(sample.n // 3), 2)


def test_a_one_hex_viewshed_as_json_pieces():
    cmap = compile_map(random_map("ats", 1, 1, seed=1, hexsides=0))
    shed = viewshed_answer(cmap, cmap.label(0))
    assert json.loads("".join(shed.json_pieces(1))) == shed.as_dict()


def test_reciprocity_with_levels_swapped(sample):
    rng = np.random.default_rng(11)
    rules = rules_for(sample)
    for _ in range(150):
        a, b = (int(x) for x in rng.choice(sample.n, size=2, replace=False))
        la, lb = rules.unit_level(a), rules.unit_level(b)
        ab = line_of_sight(sample, sample.label(a), sample.label(b), la, lb)
        ba = line_of_sight(sample, sample.label(b), sample.label(a), lb, la)
        assert (ab.result, ab.hindrances, ab.blind) == (ba.result, ba.hindrances, ba.blind), (a, b)


def test_analysis_matches_the_viewsheds(sample):
    result = analyze(sample, full=True, chunks=3)
    n = sample.n
    assert result.pairs == n * (n - 1) // 2
    assert np.array_equal(result.matrix["result"], result.matrix["result"].T)
    for observer in (0, n // 2, n - 1):
        shed = viewshed(sample, sample.label(observer))
        for i in range(n):
            if i == observer:
                continue
            fast = shed["hexes"][sample.label(i)]
            assert ("clear", "hindered", "blocked")[result.matrix["result"][observer, i]] == fast["result"]
            assert bool(result.matrix["blind"][observer, i]) == fast["blind"]
    total = result.clear + result.hindered + result.blocked
    assert (total == n - 1).all()
    assert (result.blind <= result.blocked).all()


def test_analysis_at_a_height_sees_at_least_as_much_on_open_ground():
    doc = random_map("ost", 12, 10, seed=3, cover=0.0, hills=0, hexsides=0)
    cmap = compile_map(doc)
    assert analyze(cmap).clear.sum() == cmap.n * (cmap.n - 1)


@pytest.mark.parametrize("n,chunks", [(2400, 16), (10, 3), (5, 8), (1, 2)])
def test_observer_chunks_cover_every_pair_once(n, chunks):
    bounds = observer_chunks(n, chunks)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    if n > 100:
        sizes = [sum(n - 1 - i for i in range(s, e)) for s, e in bounds]
        assert max(sizes) < 1.3 * (n * (n - 1) / 2 / chunks)


def manage(*args):
    """A command's output, run in this process (its exit codes as a process: tests/maps/test_commands.py)."""
    out = io.StringIO()
    call_command(*map(str, args), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_los_command_prints_exactly_the_engines_answer(path):
    cmap = load(path)
    a, b = cmap.label(1), cmap.label(cmap.n - 2)
    out = manage("los", path, a, b, "--json")
    assert json.loads(out) == line_of_sight(cmap, a, b).as_dict()


def test_viewshed_and_analyze_commands(tmp_path):
    path = ROOT / "maps" / "samples" / "hill-112.json"
    cmap = load(path)
    png = tmp_path / "shed.png"
    out = manage("viewshed", path, "J6", "--json", "--png", png)
    assert json.loads(out) == json.loads(json.dumps(viewshed(cmap, "J6")))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    matrix_file = tmp_path / "m.npz"
    report = json.loads(manage("analyze_map", path, "--json", "--out", matrix_file))
    assert report["pairs"] == cmap.n * (cmap.n - 1) // 2 and report["seconds"] >= 0
    expected = analyze(cmap)
    assert report["hexes"]["J6"]["clear"] == int(expected.clear[cmap.index_of("J6")])
    with np.load(matrix_file) as matrix:
        assert matrix["result"].shape == (cmap.n, cmap.n)
        assert list(matrix["labels"][:2]) == [cmap.label(0), cmap.label(1)]


def test_markers_enter_the_engine():
    """The same map answers differently once a scenario lays smoke on the line."""
    path = ROOT / "maps" / "samples" / "hill-112.json"
    doc = mapfile.parse(path.read_text())
    bare = compile_map(doc)
    grid = doc.grid
    for col in range(grid.columns - 2):
        a, mid, b = (col, 0), (col + 1, 0), (col + 2, 0)
        if bare.level[bare.index_of(list(a))] == bare.level[bare.index_of(list(b))]:
            before = line_of_sight(bare, list(a), list(b))
            if before.result == "clear":
                break
    else:
        pytest.skip("no clear line along the top row of the sample")
    smoky = compile_map(doc, markers=[{"hex": grid.label(*mid), "kind": "smoke"}])
    after = line_of_sight(smoky, list(a), list(b))
    assert after.result != "clear"
    assert any(r.hex == grid.label(*mid) for r in after.reasons)


# -- the catalogue is the one source of terrain ratings, under every base ruleset ---------------------------

# Per base ruleset: its open ground, its woods (or the nearest thing), the observer's level (TOCS observes only
# from a hill), and what the woods does to a line through it under the built-in catalogue.
WOODS = {
    "ost": ("open", "woods", 0),
    "ats": ("open-ground", "woods", 0),
    "assault": ("clear", "heavy-forest", 0),
    "miniatures": ("open", "woods", 0),
    "tocs": ("open", "woods", 1),
}


@pytest.mark.parametrize("base", sorted(WOODS))
def test_a_custom_profile_re_rating_woods_changes_the_answer(base):
    from engine import rulesets
    from engine.hexgrid import Grid
    from engine.mapfile import Cell, MapDoc
    from tests.engine.los.helpers import check

    open_id, woods, level = WOODS[base]
    entry = dict(rulesets.get(base).get(woods), los="clear", height=0)
    entry.pop("obstacle", None)
    profile = rulesets.register(rulesets.from_dict(
        {"id": f"{base}-clear-woods", "name": "Woods you can see through", "base": base, "extends_base": True,
         "terrain": [entry]}, where="test"))
    try:
        grid = Grid("flat", 1, 5, "even")
        hexes = {(0, 0): Cell(terrain=(open_id,), level=level), (0, 2): Cell(terrain=(woods,), level=0)}
        answers = {}
        for ruleset in (base, profile.id):
            doc = MapDoc(name="w", ruleset=ruleset, grid=grid, default_terrain=(open_id,), hexes=hexes)
            answers[ruleset] = check(rules_for(compile_map(doc)), "A1", "A4")  # reference = reverse = fast path
        assert answers[base].result == "blocked", answers[base].as_dict()
        assert answers[profile.id].result == "clear", answers[profile.id].as_dict()
    finally:
        rulesets.unregister(profile.id)


@pytest.mark.parametrize("command, args", [("los", ["J6", "J8", "--from-level", "13"]),
                                           ("los", ["J6", "J8", "--to-level", "-2"]),
                                           ("viewshed", ["J6", "--level", "40"])])
def test_los_commands_refuse_a_level_no_unit_can_stand_at(command, args):
    """OST stands from level -1 to its highest hill (3) plus nine upper storeys: 13 and -2 are no place."""
    path = ROOT / "maps" / "samples" / "hill-112.json"
    err = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command(command, str(path), *args, stdout=io.StringIO(), stderr=err)
    assert stopped.value.code == 2
    assert f"{args[-2]} {args[-1]} is outside what a unit can stand at in Old School Tactical" in err.getvalue()
    assert manage(command, path, *args[:-1], "12" if args[-1] != "-2" else "-1")  # the edges are asked
