"""A sixth game touches its own folder alone: the toy game (tests/engine/games/toygame/), registered by these tests
only, answers LOS with its reasons, has its scenario checks and summary, its block on the card, its capabilities,
and works through the API (the rulesets listing, a LOS job, a map's findings)."""

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from engine import mapfile, rulesets
from engine.los import engine
from engine.rulesets.capabilities import capabilities
from engine.scenarios import cards, scenariofile
from engine.scenarios import checks as scenario_checks

FOLDER = Path(__file__).resolve().parent / "toygame"

MAP = {
    "format": "hexside-map", "version": 1, "name": "Toy field", "ruleset": "toygame",
    "grid": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "even", "labels": "letter-number",
             "hex_metres": 50},
    "defaults": {"terrain": ["clear"], "level": 0},
    "hexes": [{"hex": "C3", "terrain": ["forest"]}, {"hex": "C5", "terrain": ["brush"]}],
}

SCENARIO = {
    "format": "hexside-scenario", "version": 1, "title": "Toy skirmish", "ruleset": "toygame",
    "maps": [{"key": "m", "document": MAP}],
    "turns": {"count": 4},
    "sides": [
        {"id": "blue", "name": "Blue", "fields": {"morale": 7}, "oob": [{"id": "sq", "unit": "Squad", "type": "squad"}],
         "setup_zone": ["A1", "A2"], "placements": [{"unit": "sq", "hex": "A1"}], "victory": {"kind": "eliminate"}},
        {"id": "red", "name": "Red", "fields": {}, "oob": [{"id": "sq", "unit": "Squad", "type": "squad"}],
         "setup_zone": ["H5", "H6"], "placements": [{"unit": "sq", "hex": "H6"}], "victory": {"kind": "eliminate"}},
    ],
}


@pytest.fixture
def toygame():
    """The toy game, registered for one test and gone after it."""
    game = rulesets.games.register(FOLDER, "tests.engine.games.toygame")
    yield game
    rulesets.games.unregister(game.id)


def test_the_registry_finds_the_toy_game_in_its_folder(toygame):
    assert rulesets.builtin_ids()[-1] == "toygame"
    ruleset = rulesets.get("toygame")
    assert ruleset.builtin and ruleset.base == "toygame" and ruleset.terms["blocked"] == "Unseen"
    assert capabilities(ruleset.as_dict()) == {"facing": "vertex", "perimeter": False, "side_briefs": False}
    assert toygame.rules_page.read_text(encoding="utf-8").startswith("# The toy game")


def test_the_toy_game_is_gone_once_unregistered():
    assert "toygame" not in rulesets.builtin_ids()
    with pytest.raises(rulesets.UnknownRuleset):
        rulesets.get("toygame")


def test_los_answers_with_the_toy_rules_reasons(toygame):
    cmap = engine.compile_map(mapfile.parse(MAP))
    blocked = engine.line_of_sight(cmap, "A3", "E3").as_dict()
    assert blocked["result"] == "blocked" and blocked["term"] == "Unseen"
    assert blocked["reasons"] == [{"hex": "C3", "hexside": None, "terrain": "forest", "effect": "blocking",
                                   "rule": "Toy rules 1"}]
    hindered = engine.line_of_sight(cmap, "A5", "E5").as_dict()
    assert (hindered["result"], hindered["hindrances"], hindered["reasons"][0]["hex"]) == ("hindered", 1, "C5")
    assert engine.line_of_sight(cmap, "A1", "H1").result == "clear"
    seen = engine.viewshed(cmap, "A3")["hexes"]
    assert seen["E3"]["result"] == "blocked" and seen["B3"]["result"] == "clear"


def test_the_scenario_checks_and_summary_are_the_toy_games(toygame):
    doc = scenariofile.parse(SCENARIO)
    found = [(f.code, f.path) for f in scenario_checks.check(doc)]
    assert found == [("toy-morale", "sides[1].fields")]
    summary = scenario_checks.summary(doc)
    assert summary["sides"]["blue"] == {"units": 1, "placed": 1, "arriving": 0, "setup_hexes": 2, "morale": 7}


def test_the_card_carries_the_toy_block(toygame):
    reader = PdfReader(io.BytesIO(cards.card_pdf(scenariofile.parse(SCENARIO))))
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    assert "Toy morale" in text and "Blue 7" in text and "Toy game" in text


@pytest.mark.django_db
def test_the_api_lists_the_toy_game_and_answers_its_los_and_findings(toygame, user_client):
    from jobs import runner
    from jobs.models import Job
    from maps.tasks import answer_los

    listed = {r["id"]: r for r in user_client.get("/api/rulesets/").json()}
    assert listed["toygame"]["custom"] is False and listed["toygame"]["ruleset"]["name"] == "Toy game"
    created = user_client.post("/api/maps/", {"document": MAP}, format="json")
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    asked = user_client.post(f"/api/maps/{pk}/los/", {"from": "A3", "to": "E3"}, format="json")
    assert asked.status_code == 202, asked.content
    job = Job.objects.create(kind="los", subject_type="map", subject_id=pk, content_hash=created.json()["content_hash"],
                             request_key="toy", parameters={"from": "A3", "to": "E3"})
    expected = engine.line_of_sight(engine.compile_map(mapfile.parse(MAP)), "A3", "E3").as_dict()
    runner.run(None, job.pk, answer_los)  # what a worker does with the job a LOS request queues
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result == expected and job.result["reasons"][0]["rule"] == "Toy rules 1"
    findings = user_client.get(f"/api/maps/{pk}/findings/")
    assert findings.status_code == 200, findings.content
