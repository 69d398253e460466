"""Who may read what of a scenario (docs/scenarios.md, "Who may read what"): for each game's sample, every hidden
item is searched for in every response a reader gets (the page, the editor's API reads, revisions, the file,
the checks and sight-lines jobs, the card PDFs and the job files, run by a real worker process): an anonymous
visitor and another signed-in user find none; the public card finds none whoever printed it, the owner
included; each side's sheet prints that side's hidden items (its hidden units with their hexes, its hidden
markers, its brief, its secret victory) and none of the other's; a side's link holder finds that side's and not
the other's; the owner and an editor find all.

Hidden items are listed here by hand from the rulebooks (not computed by the code under test): OST 21.0 hidden
units and mines, ATS 6.7.5 dummies and 6.8.1 hidden H weapons with their crews, Assault 9.5.9 real and dummy
minefields, a miniatures hidden counter (the quick reference's "hidden counters and minefields are deployed"),
TOCS double-blind forces, briefs and secret victory conditions. The samples have no brief outside TOCS and
Assault's and the miniatures' have nothing hidden, so the owner adds some through the edits API first.
"""

import io
import json
import re
import time
import zipfile

import pypdf
import pytest
from rest_framework.test import APIClient

from authoring.models import Scenario, SideLink

pytestmark = pytest.mark.usefixtures("jobs_isolated")  # what these tests send goes to their own broker folder

GAMES = ("ost", "ats", "assault", "miniatures", "tocs")


def row(*cells):
    """A pattern for a card table's row: its cells in order, a narrow cell's text broken anywhere."""
    return r"\s+".join(r"\s*".join(r"\s" if c == " " else re.escape(c) for c in cell) for cell in cells) + r"(?!\d)"


def placed(name, hex, hidden=True):
    """A pattern for a unit's row on a sheet: its name, then where it sets up ("sets up in R11; hidden")."""
    where = r"\s*".join(re.escape(c) for c in f"sets up in {hex}" if c != " ")
    facing = r"(?:\s*facing\s*(?:vertex\s*)?[NESW]+)?"  # the way it faces, where its placement says
    return re.escape(name) + r"[\s\S]{0,80}?" + where + facing + (r";\s*hidden" if hidden else r"(?!\d)")


# OST and ATS list every force on the card, hidden ones included, and hide only where they are (OST 3.1.4, 000
# L354, with 21.0.1, L1353; ATS 3.5.2, 001 L150, a dummy by its FOW side): a hidden unit's name is public there,
# its hex and its row's "sets up in" are not.
# Per game, per side: what only that side (and the owner) may read. "ids": hidden OOB line ids; "texts": what
# must not be printed or answered (unit names, brief texts, victory sentences); "patterns": regular expressions
# over a card's text (a hidden unit's row with its hex, a marker's row, an objective's VP); "markers": (kind, hex)
# in a document. "*": what every side holds and the public does not. Each side's sheet prints every text and
# pattern of its side.
HIDDEN = {
    "ost": {
        "german": {"ids": {"pak", "sniper"}, "texts": ["Hold the crest until the panzers come"],
                   "patterns": [row("Mines", "L10"), placed("PaK 40", "R11"), placed("Sniper", "O9"),
                                r"R11\s*facing"],
                   "markers": {("mines", "L10")}},
        "british": {"ids": set(), "texts": ["Take the crest by the orchard track"], "patterns": [], "markers": set()},
    },
    "ats": {
        "british": {"ids": {"6pdr", "crew"}, "texts": ["The gun covers the crossroads"],
                    "patterns": [placed("6-pounder ATG", "F5"), placed("Crew", "F5"), r"F5\s*facing\s*SE"],
                    "markers": set()},
        "german": {"ids": {"dummy"}, "texts": ["Feint along the east road"], "patterns": [],
                   "markers": set()},
    },
    "assault": {
        "allies": {"ids": set(), "texts": [], "patterns": [row("Anti-Personnel Minefield", "1011"),
                                                                 row("Dummy Minefield", "1012")],
                   "markers": {("minefield-apm", "1011"), ("minefield-dummy", "1012")}},
        "axis": {"ids": set(), "texts": ["Break through to the beaches"], "patterns": [], "markers": set()},
    },
    "miniatures": {
        "german": {"ids": {"g2-2"}, "texts": ["Ambush MG nest"], "patterns": [placed("Ambush MG nest", "B4")],
                   "markers": set()},
        "soviet": {"ids": set(), "texts": ["Storm the church at dawn"], "patterns": [], "markers": set()},
    },
    "tocs": {
        "allied": {"ids": {"hq505", "co-a", "co-b", "co-c", "bty"},
                   "texts": ["505th PIR HQ", "A/1/505", "376th PFAB",
                             "Seize the Grave bridge and the Nijmegen highway bridge",
                             "Rear-area battalions, poorly equipped",
                             "no German unit in 07.11"],
                   "patterns": [row("08.12", "Allied", "10"), placed("A/1/505", "06.10", hidden=False)],
                   "markers": set()},
        "german": {"ids": {"kg", "co1", "co2", "flak", "stug"},
                   "texts": ["KG Henke", "1./Ers.Btl", "StuG platoon", "Flak battery",
                             "Hold the Nijmegen highway bridge at all costs", "Enemy parachute landings"],
                   "patterns": [placed("KG Henke", "16.05", hidden=False), row("Roadblock", "15.03"),
                                row("Entrenched", "16.05")],
                   "markers": {("roadblock", "15.03"), ("entrenched", "16.05"), ("extended-deployment", "15.03")}},
        # named by both sides' victory conditions: each side's link reads its VP, the public does not
        "*": {"ids": set(), "texts": [], "patterns": [row("16.05", "German", "20")], "markers": set()},
    },
}

# What the owner adds (rulebook-backed, see the docstring) before anything is read.
EDITS = {
    "ost": [("sides[0].brief.mission", "Hold the crest until the panzers come."),
            ("sides[1].brief.mission", "Take the crest by the orchard track.")],
    "ats": [("sides[0].brief.mission", "The gun covers the crossroads."),
            ("sides[1].brief.mission", "Feint along the east road.")],
    "assault": [("rules.minefields", True), ("sides[0].brief.mission", "Break through to the beaches."),
                ("markers", "append", {"kind": "minefield-apm", "hex": "1011", "side": "allies"}),
                ("markers", "append", {"kind": "minefield-dummy", "hex": "1012", "side": "allies"})],
    "miniatures": [("sides[0].oob[6].hidden", True), ("sides[0].oob[6].name", "Ambush MG nest"),
                   ("sides[1].brief.mission", "Storm the church at dawn.")],
    "tocs": [],
}


def edited(scenario, game):
    """The sample with the owner's additions, through the edits API as its owner."""
    operations = []
    for edit in EDITS[game]:
        if len(edit) == 3:
            operations.append({"op": "insert", "path": edit[0], "value": edit[2]})
        else:
            operations.append({"op": "set", "path": edit[0], "value": edit[1]})
    if operations:
        client = APIClient()
        client.force_authenticate(scenario.owner)
        answer = client.post(f"/api/scenarios/{scenario.pk}/edits/",
                             {"revision": scenario.revision, "operations": operations}, format="json")
        assert answer.status_code == 200, answer.json()
        scenario.refresh_from_db()
    return scenario


def walk(value):
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def found(game, side, body):
    """The hidden items of ``side`` found in a response body: text (HTML, a file, a PDF's text) or JSON."""
    items = HIDDEN[game][side]
    hits = []
    if not isinstance(body, str):
        for node in walk(body):
            if isinstance(node, dict):
                if node.get("id") in items["ids"] and "unit" in node:
                    hits.append(f"OOB line {node['id']}")
                if node.get("unit") in items["ids"] and "hex" in node:
                    hits.append(f"placement of {node['unit']} at {node['hex']}")
                if (node.get("kind"), node.get("hex")) in items["markers"]:
                    hits.append(f"marker {node['kind']} at {node['hex']}")
        body = json.dumps(body, ensure_ascii=False)
    hits += [text for text in items["texts"] if text in body]
    hits += [pattern for pattern in items["patterns"] if re.search(pattern, body)]
    return hits


def pdf_text(content):
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)


def with_query(url, query, **more):
    """The URL with the reader's ``?link=`` and more parameters."""
    parts = [query.lstrip("?")] if query else []
    parts += [f"{key}={value}" for key, value in more.items()]
    return f"{url}?{'&'.join(parts)}" if parts else url


def job_result(client, url, data=None, query="", seconds=300):
    """A job's JSON once the worker has run it, or None and the answer that refused it."""
    answer = client.post(with_query(url, query), data, format="json")
    if answer.status_code not in (200, 202):
        return None, answer
    job_id = answer.json().get("id") or answer.json()["job"]
    deadline = time.monotonic() + seconds
    while True:
        job = client.get(with_query(f"/api/jobs/{job_id}/", query, wait=5))
        assert job.status_code == 200, job.content
        body = job.json()
        if body["status"] in ("succeeded", "failed", "cancelled") or time.monotonic() > deadline:
            break
    assert body["status"] == "succeeded", (body["status"], body["error"], body["message"])
    return body, answer


def responses(client, scenario, link=None, sheets=(), kit=True):
    """Every body the reader gets: (channel, body) pairs, JSON as parsed and text as text; jobs' ids kept. The
    print-and-play kit (a zip of PDFs) is one channel per PDF in it, "kit NAME"."""
    query = f"?link={link}" if link else ""
    out = []
    page = client.get(f"/scenarios/{scenario.pk}/{query}")
    assert page.status_code == 200
    # The editor's list of the game's unit types is the catalogue's, the same for every scenario ("Sniper" is a
    # type of OST whether or not this scenario hides one): not a part of the scenario to search.
    out.append(("page", re.sub(r'"unitTypes": \[(\[[^\]]*\](, )?)*\]', "", page.content.decode())))
    detail = client.get(f"/api/scenarios/{scenario.pk}/{query}")
    assert detail.status_code == 200
    out.append(("detail", detail.json()))
    revisions = client.get(f"/api/scenarios/{scenario.pk}/revisions/{query}").json()
    revisions = revisions.get("results", revisions) if isinstance(revisions, dict) else revisions
    out.append(("revisions", revisions))
    for revision in revisions:
        one = client.get(f"/api/scenarios/{scenario.pk}/revisions/{revision['number']}/{query}")
        assert one.status_code == 200
        out.append((f"revision {revision['number']}", one.json()))
    download = client.get(f"/api/scenarios/{scenario.pk}/export/{query}")
    assert download.status_code == 200
    out.append(("file", json.loads(download.content)))
    jobs = {}
    for kind in ("checks", "sight-lines"):
        body, _ = job_result(client, f"/api/scenarios/{scenario.pk}/{kind}/", query=query)
        if body is not None:
            jobs[kind] = body["id"]
            out.append((kind, body))
    for sheet in sheets:
        body, answer = job_result(client, f"/api/scenarios/{scenario.pk}/print/", {"format": "pdf", "sheet": sheet},
                                  query)
        assert body is not None, (sheet, answer.status_code, answer.content)
        jobs[sheet] = body["id"]
        out.append((f"job {sheet}", body))
        file = client.get(with_query(f"/api/jobs/{body['id']}/file/", query))
        assert file.status_code == 200
        out.append((f"sheet {sheet}", pdf_text(b"".join(file.streaming_content))))
    if kit:
        body, answer = job_result(client, f"/api/scenarios/{scenario.pk}/print/", {"format": "kit", "hex_mm": 8},
                                  query)
        if body is not None:  # (an anonymous visitor starts no job)
            jobs["kit"] = body["id"]
            file = client.get(with_query(f"/api/jobs/{body['id']}/file/", query))
            assert file.status_code == 200
            archive = zipfile.ZipFile(io.BytesIO(b"".join(file.streaming_content)))
            for name in archive.namelist():
                content = archive.read(name)
                out.append((f"kit {name}", pdf_text(content) if name.endswith(".pdf") else content.decode()))
    if client.get("/api/jobs/").status_code == 200:  # a signed-in reader's own jobs
        out.append(("my jobs", client.get("/api/jobs/").json()))
    return out, jobs


def hits_in(game, side, bodies):
    return {channel: hits for channel, body in bodies if (hits := found(game, side, body))}


def missing(game, side, text):
    """What of ``side``'s hidden items a sheet's text does not print (every text and pattern should be there)."""
    items = HIDDEN[game][side]
    return ([t for t in items["texts"] if t not in text]
            + [pattern for pattern in items["patterns"] if not re.search(pattern, text)])


def theirs(game, side):
    """The entries of HIDDEN a holder of ``side`` reads: its own and, where there is one, what every side holds."""
    return (side, "*") if "*" in HIDDEN[game] else (side,)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_each_reader_reads_only_what_they_hold(game, samples, django_user_model, jobs):
    scenario = edited(samples[game], game)
    sides = [s["id"] for s in scenario.document["sides"]]
    everything = ["public", *sides]
    owner, editor, other, anonymous = APIClient(), APIClient(), APIClient(), APIClient()
    owner.force_login(scenario.owner)
    rival = django_user_model.objects.create_user("rival", password="rival-password")
    other.force_login(rival)
    helper = django_user_model.objects.create_user("helper", password="helper-password")
    editor.force_login(helper)

    mine, owner_jobs = responses(owner, scenario, sheets=everything)
    sheet = {name: dict(mine)[f"sheet {name}"] for name in everything}
    # the designer's kit holds the public card and every side's sheet, each as its own export prints it
    for side in sides:
        name = f"kit 02-sheet-{scenario.document['sides'][sides.index(side)]['name']}.pdf"
        for own in theirs(game, side):
            assert missing(game, own, dict(mine)[name]) == [], f"the designer's kit should hold {side}'s sheet"
    for side in HIDDEN[game]:
        assert found(game, side, dict(mine)["kit 01-public-card.pdf"]) == [], f"{side}'s items on the kit's card"
    for side in HIDDEN[game]:  # the owner reads every side's private part, but not on the public card
        assert hits_in(game, side, mine), f"the owner should read {side}'s hidden items"
        assert found(game, side, sheet["public"]) == [], f"{side}'s hidden items are on the owner's public card"
    for side in sides:  # each side's sheet prints its own hidden items, and none of the other's
        for own in theirs(game, side):
            assert missing(game, own, sheet[side]) == [], f"{side}'s sheet should print them"
        for enemy in sides:
            if enemy != side:
                assert found(game, enemy, sheet[side]) == [], f"{enemy}'s hidden items are on {side}'s sheet"

    # an editor reads what the owner reads: the same jobs, every sheet
    made = owner.post(f"/api/scenarios/{scenario.pk}/editors/", {"username": "helper"}, format="json")
    assert made.status_code == 201, made.json()
    edited_by, editor_jobs = responses(editor, scenario, sheets=everything)
    assert editor_jobs == owner_jobs
    for side in HIDDEN[game]:
        assert hits_in(game, side, edited_by), f"an editor should read {side}'s hidden items"

    # another user and an anonymous visitor get the public answers: the one public card the owner made too
    public, other_jobs = responses(other, scenario, sheets=["public"])
    assert "sight-lines" in other_jobs and other_jobs["public"] == owner_jobs["public"]
    seen, anonymous_jobs = responses(anonymous, scenario, sheets=["public"])
    assert anonymous_jobs == other_jobs
    for side in HIDDEN[game]:
        assert hits_in(game, side, public) == {}, f"{side}'s hidden items leak to another user"
        assert hits_in(game, side, seen) == {}, f"{side}'s hidden items leak to an anonymous visitor"
    for client in (other, anonymous):
        for name, job_id in owner_jobs.items():
            if name != "public":
                assert client.get(f"/api/jobs/{job_id}/").status_code == 404, name
                assert client.get(f"/api/jobs/{job_id}/file/").status_code == 404, name
        for side in sides:  # nor may they ask for a side's sheet
            refused = client.post(f"/api/scenarios/{scenario.pk}/print/", {"format": "pdf", "sheet": side},
                                  format="json")
            assert refused.status_code in (400, 401, 403), refused.content

    # each side's link holder reads that side, not the other's, and gets the sheet the owner exported
    for side in sides:
        link = SideLink.objects.create(scenario=scenario, side=side)
        holder = APIClient()
        holder.force_login(rival)
        bodies, held_jobs = responses(holder, scenario, link=link.token, sheets=["public", side])
        assert held_jobs[side] == owner_jobs[side] and held_jobs["public"] == owner_jobs["public"]
        # the holder's kit is theirs (its sides are the holder's), not the designer's with every side
        assert held_jobs["kit"] != owner_jobs["kit"]
        assert holder.get(f"/api/jobs/{owner_jobs['kit']}/?link={link.token}").status_code == 404
        kit_sheets = [name for name, _ in bodies if name.startswith("kit 02-sheet-")]
        assert kit_sheets == [f"kit 02-sheet-{scenario.document['sides'][sides.index(side)]['name']}.pdf"]
        for own in theirs(game, side):
            assert hits_in(game, own, bodies), f"{side}'s link holder should read its hidden items"
            assert missing(game, own, dict(bodies)[f"sheet {side}"]) == []
            assert missing(game, own, dict(bodies)[kit_sheets[0]]) == []  # the kit's sheet is the side's sheet
        for enemy in sides:
            if enemy != side:
                assert hits_in(game, enemy, bodies) == {}, f"{enemy}'s hidden items leak to {side}'s link"
                refused = holder.post(f"/api/scenarios/{scenario.pk}/print/?link={link.token}",
                                      {"format": "pdf", "sheet": enemy}, format="json")
                assert refused.status_code == 400 and "sheet" in refused.json()
                assert holder.get(f"/api/jobs/{owner_jobs[enemy]}/?link={link.token}").status_code == 404
        link.revoke()
        again = holder.get(f"/api/scenarios/{scenario.pk}/?link={link.token}").json()
        assert found(game, side, again) == []
        assert holder.get(f"/api/jobs/{held_jobs[side]}/?link={link.token}").status_code == 404
        assert holder.get(f"/api/jobs/{held_jobs['public']}/?link={link.token}").status_code == 200

    # an editor removed reads the public part only
    assert owner.delete(f"/api/scenarios/{scenario.pk}/editors/helper/").status_code == 204
    for side in HIDDEN[game]:
        assert found(game, side, editor.get(f"/api/scenarios/{scenario.pk}/").json()) == []
    assert editor.get(f"/api/jobs/{owner_jobs[sides[0]]}/").status_code == 404


@pytest.mark.django_db
def test_the_link_page_keeps_the_side_for_its_session(samples, other_user):
    """Opened once, a side's link goes with the holder's requests (the editor's API reads, the page), until it
    is revoked; an unknown or revoked token is a 404."""
    scenario = samples["tocs"]
    owner = APIClient()
    owner.force_login(scenario.owner)
    made = owner.post(f"/scenarios/{scenario.pk}/links/", {"side": "german"})
    assert made.status_code == 302
    link = SideLink.objects.get(scenario=scenario, side="german")
    page = owner.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert f"/scenarios/{scenario.pk}/side/{link.token}/" in page and "Revoke" in page
    assert owner.post(f"/scenarios/{scenario.pk}/links/", {"side": "nobody"}).status_code == 302
    assert SideLink.objects.filter(scenario=scenario).count() == 1

    holder = APIClient()
    holder.force_login(other_user)
    assert holder.post(f"/scenarios/{scenario.pk}/links/", {"side": "german"}).status_code == 403
    assert found("tocs", "german", holder.get(f"/api/scenarios/{scenario.pk}/").json()) == []
    assert holder.get(f"/scenarios/{scenario.pk}/side/{link.token}/").status_code == 302
    document = holder.get(f"/api/scenarios/{scenario.pk}/").json()
    assert found("tocs", "german", document) and found("tocs", "allied", document) == []
    page = holder.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "your side: German" in page and "Hidden from you" in page and "Revoke" not in page

    assert owner.post(f"/scenarios/{scenario.pk}/links/{link.pk}/revoke/").status_code == 302
    assert found("tocs", "german", holder.get(f"/api/scenarios/{scenario.pk}/").json()) == []
    assert holder.get(f"/scenarios/{scenario.pk}/side/{link.token}/").status_code == 404
    assert holder.get(f"/scenarios/{scenario.pk}/side/not-a-token/").status_code == 404


@pytest.mark.django_db
def test_a_sight_lines_cost_is_reckoned_on_what_its_reader_sees(samples):
    """A refusal states the cost: on TOCS it must not tell a public reader the size of a withheld setup zone."""
    from authoring import scenario_maps
    from authoring.jobs import sight_lines_cost

    scenario = samples["tocs"]
    pins = [pin.as_parameter() for pin in scenario_maps.maps_for(scenario, scenario.owner)]
    costs = [sight_lines_cost({"maps": pins, "sides": sides}, scenario) for sides in ("all", ["german"], [])]
    assert costs[0] > costs[1] > costs[2], costs


@pytest.mark.django_db
def test_the_checks_on_a_view_say_nothing_of_what_was_withheld(samples):
    """A public reader's checks of TOCS do not report the briefs, OP values and victory conditions they were not
    given as missing; the owner's report the scenario as it is."""
    from authoring.tasks import checks_result
    from engine.scenarios import scenariofile, visibility

    doc = samples["tocs"].scenariodoc()
    public = checks_result(scenariofile.ScenarioDoc(data=visibility.view(doc.data, set()), maps=doc.maps))
    assert not [f for f in public["findings"] if f["code"] in ("tocs-brief", "tocs-side", "no-victory")]
    assert public["victory"] == {}
    everything = checks_result(doc)
    assert set(everything["victory"]) == {"allied", "german"}


@pytest.mark.django_db
def test_a_private_scenarios_link_is_explained_not_a_bare_404(samples, other_user):
    """Issue 32: a side link made while the scenario is private says so where it is made, and to whoever opens it
    ("not published yet", nothing of the scenario but its title), then opens once the scenario is published."""
    scenario = samples["tocs"]
    Scenario.objects.filter(pk=scenario.pk).update(published=False)
    owner = APIClient()
    owner.force_login(scenario.owner)
    page = owner.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert 'id="side-links-private"' in page and "opens it only once you publish it" in page
    made = owner.post(f"/scenarios/{scenario.pk}/links/", {"side": "german"}, follow=True).content.decode()
    assert "opens it only once you publish it" in made
    link = SideLink.objects.get(scenario=scenario, side="german")

    holder = APIClient()
    holder.force_login(other_user)
    answer = holder.get(f"/scenarios/{scenario.pk}/side/{link.token}/")
    text = answer.content.decode()
    assert answer.status_code == 404 and "is not published yet" in text and scenario.title in text
    assert "German" not in text  # nothing of the sides
    assert holder.get(f"/scenarios/{scenario.pk}/side/not-a-token/").status_code == 404
    assert "not published yet" not in holder.get(f"/scenarios/{scenario.pk}/side/not-a-token/").content.decode()
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    assert holder.get(f"/scenarios/{scenario.pk}/side/{link.token}/").status_code == 302
