"""Proposed mappings (engine/importers/suggest.py): every source code is named with a proposal and a
confidence, the proposal reads back as a mapping, and every community map imports with its own proposal at
the source's size, or is refused with its reason."""

import pytest

from engine import rulesets
from engine.importers import DiskFiles, ImportLimits, common, convert, expand, mappings
from engine.importers.suggest import propose_code, propose_levels, suggest, words_of
from tests.data import COMMUNITY
from tests.data.megamek import BOARDS
from tests.engine.test_importers import ALL_FILES, MAP_ENDINGS, REFUSED, rel

MAPS = [p for p in ALL_FILES if p.name.endswith(MAP_ENDINGS) and "SOURCE" not in p.name
        and REFUSED.get(rel(p)) not in ("missing-tileset", "not-a-map")]


def mapping_for(source, ruleset):
    context = common.Context(name="x", files={}, limits=ImportLimits(), source=source, ruleset=ruleset)
    return mappings.resolve(context)


def test_words_of_a_code():
    assert words_of("tileGrass_tile") == ["grass"]
    assert words_of("planted_fields:2") == ["planted", "fields"]
    assert words_of("flat_hex#0") == []
    assert words_of("hexForestBroadleaf02") == ["forest", "broadleaf"]


@pytest.mark.parametrize("source, code, ruleset, terrain, level", [
    ("tiled", "water", "ost", "stream", None),
    ("tiled", "water", "tocs", "lake", None),
    ("tiled", "sand", "ats", "soft-sand", None),
    ("tiled", "sand", "tocs", "desert", None),
    ("tiled", "tileGrass_tile", "ost", "open", None),
    ("tiled", "stone_hills", "tocs", "open", 1),
    ("tiled", "Dense Forest", "tocs", "forest", None),
    ("wesnoth", "Sm", "ost", "marsh", None),
    ("wesnoth", "Ww", "ost", "stream", None),  # shallow water (the default mapping), not marsh
    ("wesnoth", "Wwt", "ost", "stream", None),
    ("wesnoth", "Sm", "tocs", "swamp", None),
    ("megamek", "planted_fields:2", "ost", "wheatfield", None),
    ("megamek", "planted_fields:2", "ats", "crops", None),
    ("megamek", "woods:1", "ost", "woods", None),
])
def test_a_code_is_proposed_from_its_words(source, code, ruleset, terrain, level):
    proposal = propose_code(code, mapping_for(source, ruleset), source)
    assert proposal["terrain"] == terrain and proposal.get("level") == level, proposal
    assert 0 < proposal["confidence"] <= 1 and proposal["reason"]
    assert terrain in rulesets.get(ruleset).terrain_ids("hex")


@pytest.mark.parametrize("source, code", [("tiled", "flat_hex#0"), ("tiled", "tileset#11"),
                                          ("tiled", "tileMagic_tile"), ("megamek", "magma:1"),
                                          ("wesnoth", "^Qhu")])
def test_a_code_nothing_fits_is_left_open_and_flagged(source, code):
    proposal = propose_code(code, mapping_for(source, "ost"), source)
    assert proposal["terrain"] == [] and proposal["flag"] is True and proposal["confidence"] <= 0.1


def test_the_default_mapping_is_proposed_with_full_confidence():
    mapping = mapping_for("megamek", "ost")
    exact = next(iter(mapping.exact))
    assert propose_code(exact, mapping, "megamek")["confidence"] == 1.0
    assert propose_code("woods:3", mapping, "megamek")["confidence"] == 0.9  # the default's woods:* pattern


@pytest.mark.parametrize("elevations, ruleset", [((0, 3), "ost"), ((-3, 2), "ost"), ((-6, 4), "ost"),
                                                 ((-20, 40), "ost"), ((0, 9), "tocs"), ((2, 5), "assault"),
                                                 ((0, 12), "ats")])
def test_proposed_levels_fit_the_ruleset(elevations, ruleset):
    mapping = mapping_for("megamek", ruleset)
    levels = propose_levels(list(elevations), mapping)
    catalogue = mapping.catalogue
    for e in range(elevations[0], elevations[1] + 1):
        level = common.round_level(e * levels["scale"] + levels["offset"], catalogue)
        assert catalogue.level_min <= level <= catalogue.level_max, (e, levels)
    fits = catalogue.level_min <= elevations[0] and elevations[1] <= catalogue.level_max
    assert (levels["confidence"] == 1.0) == fits and levels["source_range"] == list(elevations)


def imports_with_its_proposal(name, data, files, ruleset):
    uploads = expand(name, data)
    assert uploads
    for upload in uploads:
        if not upload.files:
            upload.files = files
        proposal, findings = suggest(upload, ruleset=ruleset)
        assert proposal is not None, findings
        assert all("confidence" in entry and "hexes" in entry for entry in proposal["terrain"].values())
        again = convert(upload.name.rsplit("!", 1)[-1], upload.data, files=upload.files, ruleset=ruleset,
                        mapping=proposal)
        assert again.ok, [f for f in again.findings if f.severity == "error"]
        plain = convert(upload.name.rsplit("!", 1)[-1], upload.data, files=upload.files, ruleset=ruleset)
        if plain.doc is not None:  # the source's size, whatever the mapping
            assert again.doc["grid"] == plain.doc["grid"]
        flagged = {code for code, entry in proposal["terrain"].items() if entry.get("flag")}
        said = {f.message.split("'")[1] for f in again.findings if f.code == "terrain-left-open"}
        assert said == flagged  # a code left open is said, never silently open ground


@pytest.mark.parametrize("ruleset", ["ost", "tocs"])
@pytest.mark.parametrize("path", MAPS, ids=rel)
def test_every_community_map_imports_with_its_proposed_mapping(path, ruleset):
    imports_with_its_proposal(path.name, path.read_bytes(), DiskFiles(path.parent), ruleset)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_megamek_board_imports_with_its_proposed_mapping(name):
    data = BOARDS[name] if isinstance(BOARDS[name], bytes) else BOARDS[name].encode()
    imports_with_its_proposal(name, data, {}, "ost")


def test_a_file_missing_its_tileset_is_proposed_with_the_reason_it_is_refused():
    path = COMMUNITY / "Yanrishatum+cherry-jam" / "hexagonal-2.tmx"
    upload = expand(path.name, path.read_bytes())[0]
    upload.files = {}
    proposal, findings = suggest(upload, ruleset="ost")
    assert "missing-tileset" in {f.code for f in findings}


@pytest.mark.parametrize("path", [COMMUNITY / "Yanrishatum+cherry-jam" / "hex-final.tmx",  # a tileset image
                                  COMMUNITY / "adrien-bon+bevy_ecs_tiled" / "maps" / "hexagonal"
                                  / "finite_flat_top_odd.tmx"],  # an image per tile
                         ids=["atlas", "collection"])
def test_a_tiled_codes_proposal_carries_its_tiles_picture(path):
    import base64
    import io

    from PIL import Image

    upload = expand(path.name, path.read_bytes())[0]
    upload.files = DiskFiles(path.parent)
    proposal, _ = suggest(upload)
    pictures = {code: entry["picture"] for code, entry in proposal["terrain"].items()}
    assert pictures and all(p.startswith("data:image/png;base64,") for p in pictures.values())
    decoded = {code: Image.open(io.BytesIO(base64.b64decode(p.split(",", 1)[1]))) for code, p in pictures.items()}
    assert all(0 < max(i.size) <= 48 for i in decoded.values())
    assert len({i.tobytes() for i in decoded.values()}) == len(decoded)  # each code its own tile
    again = convert(path.name, path.read_bytes(), files=DiskFiles(path.parent), mapping=proposal)
    assert again.ok  # the picture is information, which the mapping reader passes over
