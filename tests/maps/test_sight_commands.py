"""analyze_map's sight options in-process: each answers as the engine does, and bad input is one clear line."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from engine import mapfile
from engine.los import engine, sight

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "samples" / "village-skirmish.json"


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("analyze_map", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_exposure_route_and_height_answer_as_the_engine():
    cmap = engine.compile_map(mapfile.parse(SAMPLE.read_bytes()))
    code, out, _ = run(str(SAMPLE), "--exposure", "B2,C3 D4", "--json")
    assert code == 0
    expected = sight.exposure(cmap, sight.observer_indices(cmap, ["B2", "C3", "D4"]))
    assert json.loads(out)["hexes"]["A1"]["seen"] == int(expected.seen[0])
    code, out, _ = run(str(SAMPLE), "--route", "A1", "H6", "--observers", "D4", "--json")
    route = json.loads(out)
    assert code == 0 and route["hexes"][0]["hex"] == "A1" and route["hexes"][-1]["hex"] == "H6"
    code, out, _ = run(str(SAMPLE), "--min-height", "C3", "--json")
    assert json.loads(out) == sight.minimum_height(cmap, "C3")


@pytest.mark.parametrize("args, message", [
    (("--route", "A1", "Z99", "--observers", "D4"), "--route TO: hex Z99 is off the map"),
    (("--route", "A1", "B2"), "--route needs --observers HEXES"),
    (("--exposure", ","), "--exposure: name at least one hex"),
    (("--route", "A1", "B2", "--observers", "D4", "--unit-class", "dragon"), "--unit-class 'dragon'"),
])
def test_bad_options_are_one_line(args, message):
    code, _, err = run(str(SAMPLE), *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_diff_takes_two_files(tmp_path):
    code, out, _ = run("--diff", str(SAMPLE), str(SAMPLE), "--json")
    assert code == 0 and json.loads(out)["traced_pairs"] == 0
    code, _, err = run(str(SAMPLE), "--diff", str(SAMPLE), str(SAMPLE))
    assert code == 2 and "give no MAP" in err
    code, _, err = run("--diff", str(SAMPLE), str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err
