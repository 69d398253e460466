"""The printable card: every sample's PDF opens, is the right size, embeds its fonts and says everything it must;
TOCS briefs keep their secrets; long OOBs flow onto more pages; map images have their printed size."""

import copy
import io
import json

import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from engine import render
from engine.los.engine import compile_map
from engine.scenarios import cards, scenariofile, victory
from engine.scenarios import checks as scenario_checks
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES

A4_PT = (595.28, 841.89)
LETTER_PT = (612.0, 792.0)


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


@pytest.fixture(scope="module")
def docs(maps):
    return {path.stem: scenariofile.parse(path.read_bytes(), maps) for path in SAMPLES}


def flat(text):
    """Text with every run of whitespace as one space: a sentence wrapped over lines still reads as one."""
    return " ".join(text.split())


def read(pdf):
    reader = PdfReader(io.BytesIO(pdf))
    return reader, flat(" ".join(page.extract_text() for page in reader.pages))


def embedded_fonts(reader):
    """(font name, embedded?) of every font the pages use."""
    found = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            embedded = descriptor is not None and any(k in descriptor.get_object()
                                                      for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.add((str(font["/BaseFont"]), embedded))
    return found


def unit_names(side):
    return [scenario_checks._unit_name(u) for u in side["oob"]]


@pytest.mark.parametrize("name", [p.stem for p in SAMPLES])
def test_every_sample_card_says_everything(docs, name):
    doc = docs[name]
    texts = []
    for sheet in cards.sheets(doc):
        reader, text = read(cards.card_pdf(doc, "a4", sheet))
        for page in reader.pages:
            assert [round(float(v), 1) for v in page.mediabox[2:]] == [round(v, 1) for v in A4_PT]
        fonts = embedded_fonts(reader)
        assert fonts and all(embedded for _, embedded in fonts), fonts
        assert all("DejaVu" in name or "CardSans" in name for name, _ in fonts), fonts
        texts.append(text)
    text = " ".join(texts)
    assert flat(doc.title) in text
    for side in doc.data["sides"]:
        assert side["name"] in text
        for unit in unit_names(side):
            assert flat(unit) in text, (side["id"], unit)
    for sentence in victory.sentences_for(doc).values():
        assert flat(sentence) in text, sentence
    for n, rule in enumerate(doc.data["special_rules"], 1):
        assert flat(f"{n}. {rule}") in text


def test_letter_paper_and_bad_requests(docs):
    reader, _ = read(cards.card_pdf(docs["hill-112"], "letter"))
    assert [round(float(v), 1) for v in reader.pages[0].mediabox[2:]] == list(LETTER_PT)
    with pytest.raises(cards.CardError, match="paper must be one of a4, letter"):
        cards.card_pdf(docs["hill-112"], "a3")
    with pytest.raises(cards.CardError, match="no sheet 'russian'"):
        cards.card_pdf(docs["hill-112"], "a4", "russian")


def test_game_blocks(docs):
    _, ost = read(cards.card_pdf(docs["hill-112"]))
    assert "Gut check and impulse points" in ost and "2D6+3" in ost and "1D6+2" in ost
    _, minis = read(cards.card_pdf(docs["village-on-the-dnieper"]))
    doc = docs["village-on-the-dnieper"]
    assert "Activation deck" in minis
    assert f"{scenariofile.inches_per_hex(doc):g} inches on the table" in minis
    _, assault = read(cards.card_pdf(docs["gela-piano-lupo"]))
    assert "Formations and points" in assault and "Panzergrenadier platoon" in assault
    _, ats = read(cards.card_pdf(docs["oosterbeek-crossroads"]))
    assert "Overlays" in ats and "Setup order: British, then German." in ats
    assert "Turn record track" in ats


def test_tocs_briefs_keep_their_secrets(docs):
    doc = docs["groesbeek-heights"]
    assert cards.sheets(doc) == ["public", "allied", "german"]
    sides = {s["id"]: s for s in doc.data["sides"]}
    text = {sheet: read(cards.card_pdf(doc, "a4", sheet))[1] for sheet in cards.sheets(doc)}
    names = {sid: set(unit_names(side)) for sid, side in sides.items()}
    for sid, side in sides.items():
        other = next(o for o in sides if o != sid)
        only_theirs = names[other] - names[sid]
        assert only_theirs, "the sample's sides must have units of their own to test with"
        for unit in only_theirs:
            assert flat(unit) not in text[sid], (sid, unit)
        for unit in names[sid]:
            assert flat(unit) not in text["public"], unit
        assert flat(side["brief"]["mission"]) in text[sid]
        mission = flat(side["brief"]["mission"])
        assert mission not in text[other] and mission not in text["public"]
        assert flat(side["brief"]["intelligence"]) not in text[other]
        assert "SECRET" in text[sid]
        sentence = victory.sentences_for(doc)[sid]
        assert flat(sentence) in text[sid] and flat(sentence) not in text[other]


def test_long_oob_and_many_rules_flow_onto_more_pages(docs, maps):
    data = json.loads(scenariofile.dumps(docs["hill-112"]))
    data["title"] = "Ste-Mère-Église to Łódź"
    side = data["sides"][0]
    side["oob"] = [dict(side["oob"][0], id=f"u{k}", unit=f"Grenadier squad {k:03d} of Łódź", count=1,
                        notes=("A long note that must wrap inside its cell without running into the next column "
                               "or off the page. " if k % 7 == 0 else ""))
                   for k in range(200)]
    side["placements"] = [{"unit": "u0", "hex": side["setup_zone"][0]}]
    data["special_rules"] = [f"Special rule number {k}: Ste-Mère-Église rules apply to this hex; " + "lorem " * k
                             for k in range(20)]
    doc = scenariofile.parse(data, maps)
    short_pages = len(PdfReader(io.BytesIO(cards.card_pdf(docs["hill-112"]))).pages)
    reader, text = read(cards.card_pdf(doc))
    assert len(reader.pages) > short_pages + 2
    assert "Ste-Mère-Église to Łódź" in text
    for k in range(200):
        assert f"Grenadier squad {k:03d} of Łódź" in text
    for n, rule in enumerate(data["special_rules"], 1):
        assert flat(f"{n}. {rule}") in text
    assert flat(victory.sentences_for(doc)["british"]) in text


@pytest.mark.parametrize("name", [p.stem for p in SAMPLES])
def test_map_image_has_its_printed_size(docs, name):
    doc = docs[name]
    sheet = cards.sheets(doc)[-1]
    for dpi, hex_mm in ((100, 19.0), (150, 12.0)):
        image = Image.open(io.BytesIO(cards.scenario_map_png(doc, sheet, dpi, hex_mm)))
        cmap = compile_map(doc.maps[doc.main_key])
        crop = cards.crop_of(doc)
        area = render.play_area(cmap, crop) if crop else None
        width, height = render.printed_size(cmap.grid, dpi, hex_mm, area=area, cmap=cmap)
        assert image.width == width
        assert height < image.height < height * 1.6  # the legend and scale bar go under the map
        assert image.info["dpi"][0] == pytest.approx(dpi, abs=0.05)  # stored as dots per metre


def test_map_image_differs_where_terrain_differs(docs, maps):
    """The same scenario on a map whose hex K3 is woods instead of open: the images differ, around K3 only."""
    doc = docs["hill-112"]
    data = json.loads(scenariofile.dumps(doc))
    raw = json.loads((SAMPLE_MAPS / "hill-112.json").read_text())
    data["maps"][0] = {"key": data["maps"][0]["key"], "document": copy.deepcopy(raw)}
    same = scenariofile.parse(data, maps)
    for entry in raw["hexes"]:
        if entry["hex"] == "K3":
            assert entry["terrain"] == ["open"]
            entry["terrain"] = ["woods"]
    data["maps"][0]["document"] = raw
    changed = scenariofile.parse(data, maps)
    a = Image.open(io.BytesIO(cards.scenario_map_png(same, "card", 60, 12.0))).convert("RGB")
    b = Image.open(io.BytesIO(cards.scenario_map_png(changed, "card", 60, 12.0))).convert("RGB")
    assert a.size == b.size
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None, "changing a hex's terrain changed nothing"
    hex_px = 12.0 / 25.4 * 60
    assert box[2] - box[0] < 2 * hex_px and box[3] - box[1] < 2 * hex_px, box  # only around that hex
