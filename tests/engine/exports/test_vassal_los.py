"""Hexside's LOS inside a VASSAL module (engine/exports/vassal_los.py, vassal/src): the extension is built from its
source, and its own table lookup, run on a JVM headless over the table embedded in an exported module, agrees with
the engine's single-pair answer (what ``manage.py los`` prints), reasons included."""

import json
import random
import subprocess
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from engine.exports import vassal, vassal_los
from engine.generate import random_map
from engine.los.engine import compile_map, line_of_sight, rules_for
from maps.cli import read_map_file

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "maps" / "samples").glob("*.json"))
HARNESS = Path(__file__).resolve().parent / "java" / "LosCheck.java"
PAIRS = 10_000


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    """LosCheck compiled against the committed jar: the classes every module carries."""
    out = tmp_path_factory.mktemp("loscheck")
    subprocess.run(["javac", "--release", "11", "-cp", str(vassal_los.EXTENSION_JAR), "-d", str(out), str(HARNESS)],
                   check=True)
    return out


def ask(harness, module_path, lines):
    """Run the harness over a module: its header and one output line per input line."""
    classpath = f"{harness}:{vassal_los.EXTENSION_JAR}"
    run = subprocess.run(["java", "-cp", classpath, "LosCheck", str(module_path)], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True, encoding="utf-8")
    header, *rest = run.stdout.splitlines()
    return json.loads(header), rest


def test_the_committed_extension_is_built_from_its_source(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_extension", ROOT / "vassal" / "build_extension.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    rebuilt = build.build(tmp_path / "hexside-los.jar")
    assert rebuilt.read_bytes() == vassal_los.EXTENSION_JAR.read_bytes(), "run `make vassal-extension` and commit"
    with zipfile.ZipFile(rebuilt) as jar:
        names = jar.namelist()
        assert all(n.startswith("hexside/vassal/") for n in names)  # no stub of VASSAL's ships
        major = int.from_bytes(jar.read("hexside/vassal/HexsideLosThread.class")[6:8], "big")
    assert major == 55  # Java 11: VASSAL 3.6 and 3.7


def same_order(got, want):
    """The module's answer and the engine's, the summary aside and the assumptions in one order: the table holds
    each line's reverse as the line read backwards (its reasons reversed), whose assumptions are the same ones, in
    the order the line met them (docs/exports.md)."""
    got.pop("summary")
    for answer in (got, want):
        answer["assumptions"] = sorted(answer["assumptions"])
    return got, want


def random_queries(cmap, rules, count, seed):
    """``count`` random pairs, each end at its default level or at a random level a unit may stand at there."""
    levels = vassal_los.standing_levels(cmap, rules)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        ends = []
        for _ in range(2):
            i = rng.randrange(cmap.n)
            ls, _ = levels[i]
            ends.append((cmap.label(i), None if rng.random() < 0.5 else rng.choice(ls)))
        out.append(ends)
    return out


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_the_module_answers_as_the_engine_does(harness, path, tmp_path):
    doc = read_map_file(path)
    module = tmp_path / "map.vmod"
    module.write_bytes(vassal.map_module(doc))
    with zipfile.ZipFile(module) as z:
        build = z.read("buildFile.xml").decode("utf-8")
        assert f"<{vassal_los.THREAD_CLASS} " in build
        assert "hexside/vassal/HexsideLosThread.class" in z.namelist()
    cmap = compile_map(doc)
    queries = random_queries(cmap, rules_for(cmap), PAIRS, seed=path.stem)
    header, lines = ask(harness, module, [f"{a}\t{'-' if la is None else la}\t{b}\t{'-' if lb is None else lb}"
                                          for (a, la), (b, lb) in queries])
    assert header["status"] == 0 and len(lines) == PAIRS
    for ((a, la), (b, lb)), line in zip(queries, lines, strict=True):
        got, want = same_order(json.loads(line), line_of_sight(cmap, a, b, la, lb).as_dict())
        assert got == want, f"{a} (level {la}) -> {b} (level {lb})"


def test_manage_py_los_says_what_the_module_says(harness, tmp_path):
    path = ROOT / "maps" / "samples" / "oosterbeek-crossroads.json"
    module = tmp_path / "map.vmod"
    module.write_bytes(vassal.map_module(read_map_file(path)))
    cmap = compile_map(read_map_file(path))
    queries = random_queries(cmap, rules_for(cmap), 20, seed=3)
    _, lines = ask(harness, module, [f"{a}\t{'-' if la is None else la}\t{b}\t{'-' if lb is None else lb}"
                                     for (a, la), (b, lb) in queries])
    for ((a, la), (b, lb)), line in zip(queries, lines, strict=True):
        out = StringIO()
        args = [str(path), a, b, "--json"] + (["--from-level", str(la)] if la is not None else []) + (
            ["--to-level", str(lb)] if lb is not None else [])
        call_command("los", *args, stdout=out)
        got, want = same_order(json.loads(line), json.loads(out.getvalue()))
        assert got == want


def test_the_thread_says_the_answer_and_its_reasons(harness, tmp_path):
    path = ROOT / "maps" / "samples" / "oosterbeek-crossroads.json"
    module = tmp_path / "map.vmod"
    module.write_bytes(vassal.map_module(read_map_file(path)))
    _, lines = ask(harness, module, ["describe\tA1\tR12", "describe\tA1\tZZ99", "describe\tD4\tI8"])
    said = "\n".join(lines)
    assert said.startswith("A1 -> R12: blocked, 4 hindrances [Blind]: hill +5, orchard E4 (blocking, "
                           "ATS 8.13.2; ATS 7.4); ")
    assert "brush J6 (hindering, ATS 7.4)" in said
    assert "ZZ99 is not a hex of this map" in said
    assert ("D4 -> I8: hindered, 2 hindrances [Obscured (+2)]: crops F5 (hindering, ATS 7.4); graveyard H7 "
            "(hindering, ATS 7.4)") in lines


def test_a_hexside_reason_names_both_hexes():
    cmap = compile_map(read_map_file(ROOT / "maps" / "samples" / "hill-112.json"))
    answer = line_of_sight(cmap, "A1", "F9")
    hexside = next(r for r in answer.reasons if r.hexside)
    assert hexside.hexside == "A2/NE" and vassal_los.where(cmap, hexside) == "between A2 and B2"


def test_past_the_bounds_the_module_says_so(harness, tmp_path, monkeypatch):
    doc = read_map_file(ROOT / "maps" / "samples" / "gela-beachhead.json")
    module = tmp_path / "map.vmod"
    monkeypatch.setattr(vassal_los, "MAX_REASON_ANSWERS", 100)
    monkeypatch.setattr(vassal_los, "_TABLES", {})
    module.write_bytes(vassal.map_module(doc))
    header, lines = ask(harness, module, ["0101\t-\t1210\t-", "describe\t0101\t1210"])
    assert header["status"] == 1
    got = json.loads(lines[0])
    want = line_of_sight(compile_map(doc), "0101", "1210")
    assert (got["result"], got["hindrances"], "reasons" in got) == (want.result, want.hindrances, False)
    assert "its LOS reasons are in the module up to 10 places" in lines[-2]

    monkeypatch.setattr(vassal_los, "MAX_ANSWERS", 100)
    monkeypatch.setattr(vassal_los, "_TABLES", {})
    module.write_bytes(vassal.map_module(doc))
    header, lines = ask(harness, module, ["describe\t0101\t1210"])
    assert header["status"] == 2
    assert lines[0] == ("Hexside LOS: this map has 196 places a unit may stand (hexes and levels): Hexside's LOS "
                        "is in the module up to 10 places; ask Hexside, the thread measures range only")


def test_a_60_by_40_map_s_table_is_at_most_2_mb_in_the_module():
    doc = random_map("ost", 60, 40, seed=7, name="Bench 60x40")
    with zipfile.ZipFile(__import__("io").BytesIO(vassal.map_module(doc))) as z:
        size = z.getinfo(vassal_los.TABLE_FILE).compress_size
        header = vassal_los.zlib.decompress(z.read(vassal_los.TABLE_FILE))[:7]
    assert header == b"HXLOS\x01\x01"  # every pair's answer; the reasons past their bound
    assert size <= 2_000_000, size
