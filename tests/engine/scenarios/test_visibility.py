"""The view of a scenario a reader holding some sides gets (engine.scenarios.visibility), and the catalogue's
``scenario.hidden`` section it reads."""

import copy
import json
from pathlib import Path

import pytest

from engine import rulesets
from engine.scenarios import scenariofile, visibility

ROOT = Path(__file__).resolve().parents[3]


def sample(name):
    return json.loads((ROOT / "authoring" / "samples" / f"{name}.json").read_text(encoding="utf-8"))


def test_the_owner_reads_the_document_whole_and_it_is_not_changed():
    data = sample("hill-112")
    before = copy.deepcopy(data)
    assert visibility.view(data, visibility.ALL) == before
    visibility.view(data, set())
    assert data == before


def test_ost_hidden_units_and_mines_are_their_sides_own():
    data = sample("hill-112")
    public = visibility.view(data, set())
    german = next(s for s in public["sides"] if s["id"] == "german")
    assert {u["id"] for u in german["oob"]} == {"rifle", "hmg", "ltn", "pz4"}
    assert not any(pl["unit"] in ("pak", "sniper") for pl in german["placements"])
    assert not any(m["kind"] == "mines" for m in public["markers"])
    assert german["setup_zone"]  # OST setup zones are on the card
    withheld = public["extensions"]["withheld"]["german"]
    assert withheld["units"] == 2 and withheld["markers"] == 1
    # OST lists every force on the card (3.1.4): the hidden lines' public faces, with no hex, arrival or note
    faces = withheld["listed"]
    assert [(f["unit"], f["count"]) for f in faces] == [("PaK 40", 1), ("Sniper", 1)]
    assert not any(key in f for f in faces for key in ("id", "hex", "placements", "notes"))
    mine = visibility.view(data, {"german"})
    assert any(m["kind"] == "mines" for m in mine["markers"]) and "withheld" not in mine["extensions"]


def test_tocs_is_double_blind_with_secret_victory_conditions():
    data = sample("groesbeek-heights")
    public = visibility.view(data, set())
    for side in public["sides"]:
        assert side["oob"] == side["placements"] == side["reinforcements"] == side["setup_zone"] == []
        assert side["victory"] is None and not any(side["brief"].values()) and side["fields"] == {}
    assert public["perimeter"] == data["perimeter"]
    assert [(m["kind"], m["side"]) for m in public["markers"]] == [("bridge", None), ("bridge", None)]  # the map's
    assert [o["vp"] for o in public["objectives"]] == [None, None]
    german = visibility.view(data, {"german"})
    # the German condition names the highway bridge: its VP is theirs; the Grave bridge's is not
    assert [o["vp"] for o in german["objectives"]] == [None, 20]
    assert next(s for s in german["sides"] if s["id"] == "german")["brief"]["mission"].startswith("Hold")


def test_a_view_still_reads_as_a_scenario_document():
    """Withheld parts are emptied, not made malformed: the format's own reader takes the view."""
    maps = scenariofile.folder_maps(ROOT / "maps" / "samples")
    for name in ("hill-112", "oosterbeek-crossroads", "gela-piano-lupo", "village-on-the-dnieper",
                 "groesbeek-heights"):  # (a TOCS view's sides have no units: a draft's shape, which reads)
        for sides in [set()] + [{s["id"]} for s in sample(name)["sides"]]:
            scenariofile.parse(visibility.view(sample(name), sides), maps)


def test_an_earlier_revision_does_not_give_back_a_unit_hidden_since():
    data = sample("village-on-the-dnieper")
    now = copy.deepcopy(data)
    now["sides"][0]["oob"][6]["hidden"] = True
    old = visibility.view(data, set(), current=now)
    assert "g2-2" not in {u["id"] for u in old["sides"][0]["oob"]}


def test_covers():
    assert visibility.covers(visibility.ALL, visibility.ALL) and visibility.covers(visibility.ALL, ["a"])
    assert visibility.covers(frozenset({"a"}), ["a"]) and visibility.covers(frozenset(), [])
    assert not visibility.covers(frozenset({"a"}), ["b"]) and not visibility.covers(frozenset({"a"}), "all")


def test_a_catalogues_hidden_section_is_checked():
    ost = rulesets.get("ost").as_dict()
    ost.update(id="ost-secret", base="ost")
    ost["scenario"]["hidden"] = {"double_blind": "yes", "oob": ["casualty_points"], "secret": True}
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict(ost, where="secret.json")
    errors = info.value.errors
    for where in ("scenario.hidden.double_blind", "scenario.hidden.oob[0]", "scenario.hidden.secret"):
        assert any(e.startswith(f"secret.json: {where}: ") for e in errors), (where, errors)


def test_a_tocs_sheet_printed_by_the_owner_holds_only_what_its_sides_may_see():
    """The owner prints the public sheet for both players and each brief for its side: the card draws each sheet
    from its sides' view, not from the owner's whole document (004 L140: victory conditions are secret)."""
    import io

    import pypdf

    from engine.scenarios import cards

    data = sample("groesbeek-heights")
    doc = scenariofile.parse(json.dumps(data).encode(), scenariofile.folder_maps(ROOT / "maps" / "samples"))

    def text(sheet):
        pdf = pypdf.PdfReader(io.BytesIO(cards.card_pdf(doc, "a4", sheet)))
        return " ".join(" ".join(page.extract_text().split()) for page in pdf.pages)

    briefs = {side["id"]: " ".join(side["brief"]["mission"].split()[:6]) for side in data["sides"]}
    public = text("public")
    assert "Nijmegen highway bridge 16.05 German —" in public and "16.05 German 20" not in public
    assert not [side for side, brief in briefs.items() if brief in public]
    for side in briefs:
        brief = text(side)
        assert briefs[side] in brief
        assert not [other for other, words in briefs.items() if other != side and words in brief]


def test_a_view_of_a_view_keeps_the_faces_the_first_listed():
    """The public card of a side's kit is a view of that side's view: the other side's hidden lines it listed
    (ATS 3.5.2: the 6-pdr, its crew; a dummy by its FOW side) stay listed, and the side's own are listed too."""
    data = sample("oosterbeek-crossroads")
    german_view = visibility.view(data, {"german"})
    public = visibility.view(german_view, set())
    withheld = public["extensions"]["withheld"]
    assert [f["unit"] for f in withheld["british"]["listed"]] == ["6-pounder ATG", "Crew"]
    assert withheld["german"]["listed"] == [{"unit": "AFV dummy", "count": 1, "type": "fully-tracked-vehicle",
                                             "dummy": True}]
    assert public["extensions"]["withheld"] == visibility.view(data, set())["extensions"]["withheld"]
