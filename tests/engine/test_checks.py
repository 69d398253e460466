"""The rules-level checks (engine/checks): a corpus of broken maps, one per check, each giving its finding on the
right hex (and side); the shipped samples give none; the LOS reciprocity sample is bounded and finds a one-way
answer."""

import json
from pathlib import Path

import pytest

from engine import checks, mapfile
from engine.checks import reciprocity
from engine.checks.findings import validate_bytes
from engine.los import engine

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "maps" / "samples").glob("*.json"))

GRIDS = {
    "ost": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "even", "labels": "letter-number"},
    "ats": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "odd", "labels": "letter-number"},
    "assault": {"orientation": "pointy", "columns": 8, "rows": 6, "stagger": "odd", "labels": "xxyy"},
    "tocs": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "odd", "labels": "xx.yy"},
    "miniatures": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "even", "labels": "letter-number"},
}
OPEN = {"ost": "open", "ats": "open-ground", "assault": "clear", "tocs": "open", "miniatures": "open"}


def broken(ruleset, hexes=(), hexsides=(), overlays=(), defaults=None):
    return {"format": "hexside-map", "version": 1, "name": f"broken {ruleset}", "ruleset": ruleset,
            "grid": GRIDS[ruleset], "defaults": defaults or {"terrain": [OPEN[ruleset]], "level": 0},
            "hexes": list(hexes), "hexsides": list(hexsides), "overlays": list(overlays)}


def ring(grid_spec, centre, terrain):
    """The six neighbours of a hex with the given terrain (as hex entries)."""
    from engine.hexgrid import Grid

    grid = Grid(**grid_spec)
    col, row = grid.parse_hex(centre)
    return [{"hex": grid.label(*n), "terrain": terrain} for n in grid.neighbours(col, row)]


# (id, map, code, hex, side, severity): one broken map per check.
CORPUS = [
    # levels within the game's range (the format's own check)
    ("level-range", broken("ost", [{"hex": "C3", "level": 5}]), "bad-level", "C3", None, "error"),
    ("ats-level-multiple", broken("ats", [{"hex": "D4", "level": 7}]), "bad-level", "D4", None, "error"),
    # hexside features only of allowed kinds (the format: a hexside terrain of the ruleset)
    ("hexside-kind", broken("ost", hexsides=[{"hex": "B2", "side": "SE", "terrain": "woods"}]), "unknown-terrain",
     "B2", None, "error"),
    # art inside its hex
    ("art-outside", broken("ost", [{"hex": "C3", "terrain": ["light-structure"],
                                    "art": [[20, 20], [21, 20], [21, 21]]}]), "art-outside-hex", "C3", None, "error"),
    ("art-spills", broken("ost", [{"hex": "A1", "terrain": ["light-structure"],
                                   "art": [[-0.5, 0.3], [1.4, 0.3], [1.4, 1.2], [-0.5, 1.2]]}]), "art-spills", "A1",
     None, "warning"),
    # overlays fitting the map
    ("overlay-off-map", broken("ats", overlays=[{"id": "V1", "anchor": "H6", "hexes": [
        {"hex": [0, 0], "terrain": ["building"]}, {"hex": [1, 0], "terrain": ["building"]}]}]), "overlay-off-map",
     None, None, "error"),
    ("overlays-overlap", broken("ats", overlays=[
        {"id": "V1", "anchor": "C3", "hexes": [{"hex": [0, 0], "terrain": ["building"]}]},
        {"id": "V2", "anchor": "C3", "hexes": [{"hex": [0, 0], "terrain": ["building"]}]}]), "overlays-overlap",
     "C3", None, "warning"),
    # level steps between neighbours
    ("ost-level-step", broken("ost", [{"hex": "C3", "level": 3}, {"hex": "C4", "level": 0}]), "level-step", "C3",
     "S", "warning"),
    ("ost-slope-flat", broken("ost", hexsides=[{"hex": "D3", "side": "N", "terrain": "steep-slope"}]),
     "step-hexside", "D2", "S", "error"),
    ("ats-precipitous", broken("ats", [{"hex": "E3", "level": 20}]), "level-step", "E3", "N", "warning"),
    ("ats-cliff-low", broken("ats", [{"hex": "E3", "level": 10}, {"hex": "E2", "level": 0}],
                             [{"hex": "E3", "side": "N", "terrain": "cliff"}]), "step-hexside", "E2", "S", "error"),
    ("ats-hillock-precipitous", broken("ats", [{"hex": "E3", "level": 10}],
                                       [{"hex": "E3", "side": "N", "terrain": "hillock-contour"}]), "precipitous",
     "E2", "S", "warning"),
    ("tocs-contours", broken("tocs", [{"hex": "03.03", "level": 4}]), "level-step", "03.03", "N", "warning"),
    ("tocs-cliff-flat", broken("tocs", hexsides=[{"hex": "03.03", "side": "N", "terrain": "cliff"}]),
     "step-hexside", "03.02", "S", "warning"),
    ("assault-slope-flat", broken("assault", hexsides=[{"hex": "0303", "side": "E", "terrain": "steep-slope"}]),
     "step-hexside", "0303", "E", "warning"),
    ("miniatures-crest-flat", broken("miniatures", hexsides=[{"hex": "C3", "side": "N", "terrain": "hill-crest"}]),
     "step-hexside", "C2", "S", "warning"),
    # building storeys and kinds
    ("ost-storeys", broken("ost", [{"hex": "D3", "terrain": ["heavy-structure"], "storeys": 6}]),
     "building-storeys", "D3", None, "error"),
    ("storeys-no-building", broken("ost", [{"hex": "D3", "terrain": ["woods"], "storeys": 2}]),
     "storeys-without-building", "D3", None, "warning"),
    ("assault-single-storey", broken("assault", [{"hex": "0404", "terrain": ["single-storey-building"],
                                                   "storeys": 2}]), "building-storeys", "0404", None, "error"),
    ("ost-row-house", broken("ost", [{"hex": "D3", "terrain": ["light-structure"]}],
                             [{"hex": "D3", "side": "S", "terrain": "row-house-wall"}]), "wall-outside-building",
     "D3", "S", "error"),
    ("ats-interior-wall", broken("ats", [{"hex": "D3", "terrain": ["building"]}],
                                 [{"hex": "D3", "side": "N", "terrain": "interior-wall"}]), "wall-outside-building",
     "D2", "S", "error"),
    ("ats-house-kind", broken("ats", [{"hex": "D3", "terrain": ["house"]}, {"hex": "D4", "terrain": ["building"]}],
                              [{"hex": "D3", "side": "S", "terrain": "interior-wall"}]), "building-kind", "D3", None,
     "warning"),
    ("ost-mix", broken("ost", [{"hex": "E4", "terrain": ["woods", "light-structure"]}]), "terrain-mix", "E4", None,
     "warning"),
    ("assault-mix", broken("assault", [{"hex": "0404", "terrain": ["brush", "rocky"]}]), "terrain-mix", "0404",
     None, "warning"),
    ("assault-urban-alley", broken("assault", [{"hex": "0404", "terrain": ["urban-alley", "road"]},
                                               {"hex": "0405", "terrain": ["road"]}]), "alley-terrain", "0404", None,
     "warning"),
    # road and rail continuity
    ("ost-road", broken("ost", [{"hex": "D3", "terrain": ["road"]}]), "road-isolated", "D3", None, "warning"),
    ("ats-rail", broken("ats", [{"hex": "D3", "terrain": ["railroad"]}]), "railroad-isolated", "D3", None,
     "warning"),
    ("tocs-road", broken("tocs", [{"hex": "04.03", "terrain": ["paved-road"]}]), "road-isolated", "04.03", None,
     "warning"),
    ("miniatures-road", broken("miniatures", [{"hex": "D3", "terrain": ["road"]}]), "road-isolated", "D3", None,
     "warning"),
    # ATS same-colour levels and X/Y overlay placement
    ("ats-colour", broken("ats", [{"hex": "D3", "level": 15}, {"hex": "D4", "level": 10}]), "hill-colour-level",
     "D3", None, "warning"),
    ("ats-overlay-anchor", broken("ats", overlays=[{"id": "W2", "anchor": "C3", "hexes": [
        {"hex": [1, 0], "terrain": ["wadi"]}]}]), "overlay-placement", "C3", None, "warning"),
    ("ats-overlay-pieces", broken("ats", overlays=[{"id": "W3", "anchor": "C3", "hexes": [
        {"hex": [0, 0], "terrain": ["wadi"]}, {"hex": [3, 0], "terrain": ["wadi"]}]}]), "overlay-placement", "C3",
     None, "warning"),
    ("ats-overlay-letter", broken("ats", overlays=[{"id": "F1", "anchor": "C3", "hexes": [
        {"hex": [0, 0], "terrain": ["scrub"]}]}]), "overlay-letter", "C3", None, "warning"),
    ("ats-overlay-track", broken("ats", overlays=[{"id": "Tr2", "anchor": "C3", "hexes": [
        {"hex": [0, 0], "terrain": ["road"]}, {"hex": [0, 1], "terrain": ["road"]}]}]), "overlay-letter", "C3", None,
     "warning"),
    # TOCS river classes, facilities, coasts, polders, forest
    ("tocs-river-end", broken("tocs", hexsides=[{"hex": "04.03", "side": "N", "terrain": "major-river"}]),
     "river-dead-end", "04.02", "S", "warning"),
    ("tocs-river-class", broken("tocs", hexsides=[{"hex": "04.03", "side": "N", "terrain": "major-river"},
                                                  {"hex": "04.03", "side": "NE", "terrain": "minor-river"}]),
     "river-class", "04.03", "NE", "warning"),
    ("tocs-railyard", broken("tocs", [{"hex": "04.03", "terrain": ["railyard"]}]), "facility-placement", "04.03",
     None, "warning"),
    ("tocs-beach", broken("tocs", [{"hex": "04.03", "terrain": ["beach"]}]), "coast-without-water", "04.03", None,
     "warning"),
    ("tocs-polder", broken("tocs", [{"hex": "04.03", "terrain": ["polder"]}]), "polder-streams", "04.03", None,
     "warning"),
    ("tocs-forest", broken("tocs", [{"hex": "04.03", "terrain": ["woods"]}]
                           + ring(GRIDS["tocs"], "04.03", ["woods"])), "forest-derivation", "04.03", None, "warning"),
]


FORMAT_CODES = {"bad-level", "unknown-terrain", "art-outside-hex", "art-spills", "overlay-off-map",
                "overlays-overlap"}


def findings_of(document):
    _doc, findings = validate_bytes(json.dumps(document), los_pairs=0)
    return findings


@pytest.mark.parametrize("case", CORPUS, ids=[c[0] for c in CORPUS])
def test_each_broken_map_gives_its_finding_on_the_right_hex(case):
    _id, document, code, hex_label, side, severity = case
    findings = findings_of(document)
    mine = [f for f in findings if f.code == code]
    assert mine, f"no {code} among {[str(f) for f in findings]}"
    grid = mapfile.parse(json.dumps({**document, "hexes": [], "hexsides": [], "overlays": []})).grid

    def place(label, side_name):
        """A hex, or a hexside by its one identity whichever of its two hexes names it."""
        if label is None or side_name is None:
            return label
        return grid.hexside(*grid.parse_hex(label), side_name)

    assert any(place(f.hex, f.side) == place(hex_label, side) and f.severity == severity for f in mine), \
        [(f.hex, f.side, f.severity, f.message) for f in mine]
    for f in mine:
        if code not in FORMAT_CODES:
            assert f.message.endswith(")"), f.message  # names the rule it comes from


def test_the_same_map_mended_gives_no_finding():
    """The corpus findings come from the broken part: the neighbouring good maps are clean."""
    good = [
        broken("ost", [{"hex": "C3", "level": 2}, {"hex": "C4", "level": 1}]),
        broken("ost", [{"hex": "C3", "level": 1}], [{"hex": "C3", "side": "S", "terrain": "steep-slope"}]),
        broken("ost", [{"hex": "D3", "terrain": ["road"]}, {"hex": "D4", "terrain": ["road", "light-structure"]}]),
        broken("ost", [{"hex": "D3", "terrain": ["light-structure"]}, {"hex": "D4", "terrain": ["heavy-structure"],
                                                                       "storeys": 3}],
               [{"hex": "D3", "side": "S", "terrain": "row-house-wall"}]),
        broken("ats", [{"hex": "E3", "level": 20}] + [{"hex": h["hex"], "level": 10}
                                                     for h in ring(GRIDS["ats"], "E3", ["open-ground"])
                                                     if h["hex"] != "E2"],
               [{"hex": "E3", "side": "N", "terrain": "cliff"}]),
        broken("ats", [{"hex": "D3", "level": 15}, {"hex": "D4", "level": 10}],
               [{"hex": "D3", "side": "S", "terrain": "hillock-contour"}]),
        broken("tocs", [{"hex": "04.03", "terrain": ["railyard", "railroad"]},
                        {"hex": "04.04", "terrain": ["railroad"]}]),
    ]
    for document in good:
        assert findings_of(document) == [], document


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_pass_every_rules_check(path):
    doc = mapfile.parse(path.read_text())
    assert checks.run(doc, los_pairs=40, los_seconds=30) == []


def test_a_custom_profile_is_checked_with_its_base_games_data():
    from engine import rulesets

    custom = rulesets.from_dict({"id": "my-ost", "name": "My OST", "base": "ost", "extends_base": True,
                                 "terrain": []})
    rulesets.register(custom)
    try:
        document = broken("ost", [{"hex": "D3", "terrain": ["road"]}])
        document["ruleset"] = "my-ost"
        assert [f.code for f in findings_of(document)] == ["road-isolated"]
    finally:
        rulesets.unregister("my-ost")


def test_reciprocity_sample_is_bounded_and_repeatable():
    pairs = reciprocity.sample_pairs(48, 24, "seed")
    assert len(pairs) == 24 and pairs == reciprocity.sample_pairs(48, 24, "seed")
    assert all(a < b for a, b in pairs)
    assert len(reciprocity.sample_pairs(3, 24, "seed")) == 3  # no more pairs than the map has
    assert reciprocity.sample_pairs(1, 24, "seed") == []


def test_reciprocity_finds_a_one_way_answer(monkeypatch):
    """An evaluator that answers one direction differently (as a map read one way only would) is caught."""
    doc = mapfile.parse(json.dumps(broken("ost", [{"hex": "D3", "terrain": ["woods"]}])))
    real = engine.rules_for

    def lopsided(cmap):
        rules = real(cmap)
        evaluate = rules.evaluate

        def one_way(trace, la, lb):
            answer = evaluate(trace, la, lb)
            if tuple(trace.a) < tuple(trace.b):
                answer.hindrances += 1
            return answer
        rules.evaluate = one_way
        return rules

    assert checks.run(doc, los_pairs=10) == []
    monkeypatch.setattr(engine, "rules_for", lopsided)
    found = checks.run(doc, los_pairs=10)
    assert found and all(f.code == "los-not-reciprocal" for f in found)
    assert len(found) <= 10 and found[0].hex and "back to" in found[0].message
