"""Every terrain style of every game, and the painter's own fallback styles, legible and distinct: a hex label's
ink contrasts with the hex's fill at WCAG 2's 4.5:1 (1.4.3) whatever the terrain and level, and no terrain is
drawn with a pattern of the LOS results' swatches (a hindered hex must not read as a wheatfield)."""

import re
from pathlib import Path

import pytest

from engine.render import styles
from engine.rulesets import games
from engine.rulesets import get as ruleset

STATIC = Path(__file__).resolve().parents[2] / "static/js/canvas"


def hex_terrains():
    for game in games.all_games():
        catalogue = ruleset(game.id)
        for entry in catalogue.terrain.values():
            if entry.get("layer", "hex") == "hex":
                yield game.id, catalogue, entry


def js_styles():
    """The painter's fallback styles (layers.js) and the LOS results' swatches (results.js), read from the files."""
    layers = (STATIC / "layers.js").read_text()
    fallback = re.findall(r'fill: "(#[0-9a-f]{6})"(?:, pattern: "(\w+)")?', layers[:layers.index("HEXSIDE_FALLBACK")])
    results = dict(re.findall(r'(\w+): \{ colour: "#\w+", pattern: "(\w+)"', (STATIC / "results.js").read_text()))
    return fallback, results


def test_the_wcag_ratio():
    assert styles.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert styles.contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("steps", [-3, -1, 0, 1, 2, 4])
def test_every_label_is_legible_on_every_terrain_and_level(steps):
    low = []
    for game, catalogue, entry in hex_terrains():
        fill = styles.level_fill(styles.hex_look(catalogue, (entry["id"],))[0], steps)
        ink, _ = styles.label_ink(fill)
        if styles.contrast(ink, fill) < styles.LEGIBLE:
            low.append((game, entry["id"], fill))
    assert low == []


def test_woods_labels_were_unreadable_and_now_are_white():
    ost = ruleset("ost")
    woods = styles.hex_look(ost, ("woods",))[0]
    assert styles.contrast((70, 70, 62), woods) < styles.LEGIBLE  # the old ink
    assert styles.label_ink(woods)[0] == styles.WHITE


def test_the_painter_chooses_its_labels_by_the_same_rule():
    raster = (STATIC / "raster.js").read_text()
    assert "0.2126 * r + 0.7152 * g + 0.0722 * b" in raster and "(l + 0.05) / 0.05 >= 1.05 / (l + 0.05)" in raster
    fallback, _ = js_styles()
    assert len(fallback) > 10
    for colour, _pattern in fallback:
        fill = styles.rgb(colour)
        assert styles.contrast(styles.label_ink(fill)[0], fill) >= styles.LEGIBLE, colour


def test_no_terrain_is_drawn_with_a_result_swatchs_pattern():
    fallback, results = js_styles()
    assert set(results) == {"hindered", "blocked", "blind"}
    reserved = set(results.values())
    used = {(game, entry["id"]): (entry.get("style") or {}).get("pattern") for game, _, entry in hex_terrains()}
    used.update({("painter", colour): pattern for colour, pattern in fallback})
    assert {key: pattern for key, pattern in used.items() if pattern in reserved} == {}
    assert used[("ost", "wheatfield")] == "hatch" and results["hindered"] != "hatch"
