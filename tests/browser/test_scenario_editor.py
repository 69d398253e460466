"""The scenario editor in real Chromium, used as a designer uses it: create a scenario on a sample map, build a
side's OOB, paint its setup zone, place units (click and drag), mark an objective, add a victory condition and
read its sentence, run the checks (a real Celery worker) and see the unit outside its zone highlighted, and run
the sight lines."""

import io

import pytest
from django.core.management import call_command

from authoring.models import Scenario
from tests.browser.painting import ARTIFACTS, drag, sign_in, wait_drawn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("designer", password="designer-password")


def point(page, label):
    x, y = page.evaluate("""(label) => {
        const e = window.scenarioEditor, [c, r] = e.grid.parseLabel(label), [cx, cy] = e.grid.centre(c, r);
        const [sx, sy] = e.view.toScreen(cx, cy), box = e.view.canvas.getBoundingClientRect();
        return [box.left + sx, box.top + sy];
    }""", label)
    return x, y


def revision(page):
    return int(page.evaluate("() => window.scenarioEditor.scenario.revision"))


def saved_after(page, before, timeout=10000):
    page.wait_for_function(f"() => window.scenarioEditor.scenario.revision > {before}", timeout=timeout)
    return revision(page)


def new_scenario(page, live_server, title, map_label):
    """Create a scenario from the scenarios page and wait for its editor; give it two sides."""
    page.goto(f"{live_server.url}/scenarios/")
    page.fill("#new-scenario [name=title]", title)
    page.select_option("#new-scenario [name=map]", label=map_label)
    page.click("#new-scenario button[type=submit]")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    r = revision(page)
    for _ in range(2):
        page.click("#add-side")
        r = saved_after(page, r)
    return Scenario.objects.get(title=title), r


def outline_colour(page, label):
    """The canvas pixel on a hex's outline (where findings are drawn), half-way along its first side."""
    return page.evaluate("""(label) => {
        const e = window.scenarioEditor, [c, r] = e.grid.parseLabel(label), [cx, cy] = e.grid.centre(c, r);
        const k = e.grid.corners(c, r), mx = (k[0][0] + k[1][0]) / 2, my = (k[0][1] + k[1][1]) / 2;
        const [sx, sy] = e.view.toScreen(cx + (mx - cx) * 0.94, cy + (my - cy) * 0.94), d = e.view.dpr;
        return [...e.view.ctx.getImageData(Math.round(sx * d), Math.round(sy * d), 1, 1).data];
    }""", label)


def sentences(page):
    return [t.replace("✕", "").strip() for t in page.locator("#victory .sentence").all_inner_texts()]


def document(pk):
    return Scenario.objects.get(pk=pk).document


def test_designer_builds_checks_and_reads_sight_lines(live_server, page, designer, jobs):
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    page.set_viewport_size({"width": 1500, "height": 950})
    # A scenario with two sides; the first gets an OOB of rifle squads and a leader.
    scenario, r = new_scenario(page, live_server, "Dawn at Hill 112", "Hill 112 (Old School Tactical) (ost)")
    assert scenario.ruleset == "ost" and scenario.owner == designer
    page.click("#tabs [role=tab]:text('Side 1')")
    page.fill("#oob tr[data-unit='unit-1'] input[aria-label=unit]", "Rifle Squad")
    page.locator("#oob tr[data-unit='unit-1'] input[aria-label=unit]").dispatch_event("change")
    r = saved_after(page, r)
    page.fill("#oob tr[data-unit='unit-1'] input[aria-label=count]", "3")
    page.locator("#oob tr[data-unit='unit-1'] input[aria-label=count]").dispatch_event("change")
    r = saved_after(page, r)
    page.click("#add-unit")
    r = saved_after(page, r)
    page.fill("#oob tr[data-unit='unit-2'] input[aria-label=unit]", "Leader")
    page.locator("#oob tr[data-unit='unit-2'] input[aria-label=unit]").dispatch_event("change")
    r = saved_after(page, r)
    page.check("#oob tr[data-unit-more='unit-2'] input[aria-label=leader]")
    r = saved_after(page, r)
    assert "4 units" in page.inner_text("#oob-counts")
    side = document(scenario.pk)["sides"][0]
    assert [(u["unit"], u["count"], u["leader"]) for u in side["oob"]] == [("Rifle Squad", 3, False),
                                                                           ("Leader", 1, True)]

    # Paint a setup zone by dragging down column B.
    page.click("#tools [data-tool=zone]")
    drag(page, [point(page, "B2"), point(page, "B3"), point(page, "B4"), point(page, "B5")])
    r = saved_after(page, r)
    assert document(scenario.pk)["sides"][0]["setup_zone"] == ["B2", "B3", "B4", "B5"]

    # Place: pick the squads' row and click B3 twice (a stack), drag the leader's row onto B3, and one squad
    # outside the zone, in E5.
    page.click("#oob tr[data-unit='unit-1'] td.counts")
    page.mouse.click(*point(page, "B3"))
    r = saved_after(page, r)
    page.mouse.click(*point(page, "B3"))
    r = saved_after(page, r)
    x, y = point(page, "B3")
    box = page.locator("#map-canvas").bounding_box()
    page.locator("#oob tr[data-unit='unit-2'] td.counts").drag_to(page.locator("#map-canvas"),
                                                          target_position={"x": x - box["x"], "y": y - box["y"]})
    r = saved_after(page, r)
    page.click("#oob tr[data-unit='unit-1'] td.counts")
    page.mouse.click(*point(page, "E5"))
    r = saved_after(page, r)
    placements = document(scenario.pk)["sides"][0]["placements"]
    assert [(p["unit"], p["hex"]) for p in placements] == [("unit-1", "B3"), ("unit-1", "B3"), ("unit-2", "B3"),
                                                           ("unit-1", "E5")]
    assert "3+0/3" in page.inner_text("#oob tr[data-unit='unit-1']")
    # Turn the squad in E5 twice: no facing, then N, then NE.
    page.click("#tools [data-tool=turn]")
    page.mouse.click(*point(page, "E5"))
    r = saved_after(page, r)
    page.mouse.click(*point(page, "E5"))
    r = saved_after(page, r)
    assert document(scenario.pk)["sides"][0]["placements"][3]["facing"] == "NE"

    # An objective on the crest, and a victory condition naming it: its sentence appears.
    page.click("#tools [data-tool=objective]")
    page.mouse.click(*point(page, "P10"))
    r = saved_after(page, r)
    page.select_option("#victory-kind", "control")
    page.select_option("#victory-inputs select[data-key=objectives]", ["obj-1"])
    page.click("#add-victory")
    r = saved_after(page, r)
    assert sentences(page) == ["Control Objective 1 (P10) at the end of the game."]
    page.select_option("#victory-kind", "casualties")
    page.fill("#victory-inputs input[data-key=points]", "12")
    page.click("#add-victory")
    r = saved_after(page, r)
    assert sentences(page) == ["Both:", "(a) control Objective 1 (P10) at the end of the game; and",
                               "(b) inflict at least 12 casualty points on Side 2."]
    assert page.locator("#victory .sentence.depth-1").count() == 2  # one item a line, indented under "Both:"
    assert document(scenario.pk)["sides"][0]["victory"]["kind"] == "and"
    assert page.locator("#victory .sentence:text('Both:') button").count() == 0  # only what "and" combines goes
    page.locator("#victory .sentence.depth-1").nth(1).locator("button").click()
    r = saved_after(page, r)
    assert sentences(page) == ["Control Objective 1 (P10) at the end of the game."]

    # The second side: a unit and a zone on the far side of the hill.
    page.click("#tabs [role=tab]:text('Side 2')")
    page.fill("#oob tr[data-unit='unit-1'] input[aria-label=unit]", "Panzergrenadiers")
    page.locator("#oob tr[data-unit='unit-1'] input[aria-label=unit]").dispatch_event("change")
    r = saved_after(page, r)
    page.click("#tools [data-tool=zone]")
    drag(page, [point(page, "R8"), point(page, "R9"), point(page, "S9"), point(page, "S10")])
    r = saved_after(page, r)

    # The checks run on a worker; the squad in E5 is outside its zone, listed and highlighted.
    page.click("#run-checks")
    page.wait_for_function("() => document.body.dataset.checks !== undefined", timeout=60000)
    finding = page.locator("#findings li[data-hex='E5']")
    assert "outside Side 1's setup zone" in finding.inner_text()
    finding.click()
    assert page.evaluate("() => window.scenarioEditor.activeFinding.code") == "setup-outside-zone"
    wait_drawn(page, "scenarioEditor.view")
    assert outline_colour(page, "E5")[:3] == [208, 0, 0]  # the finding's hex, outlined in red on the canvas
    assert outline_colour(page, "E7")[:3] != [208, 0, 0]
    finding.scroll_into_view_if_needed()
    page.screenshot(path=f"{ARTIFACTS}/scenario-editor-checks.png")

    # Sight lines: one sentence per side, and the dead ground drawn.
    page.click("#run-sight")
    page.wait_for_function("() => document.body.dataset.sight === '1'", timeout=60000)
    lines = page.locator("#sight .sentence").all_inner_texts()
    assert len(lines) == 2
    assert lines[0].strip().startswith("Side 1 sees ")
    assert "objective" in lines[0]
    page.locator("#sight").scroll_into_view_if_needed()
    page.screenshot(path=f"{ARTIFACTS}/scenario-editor-sight.png")

    # The whole scenario is still one that reads, and its history has every step.
    assert Scenario.objects.get(pk=scenario.pk).revision == r
    assert Scenario.objects.get(pk=scenario.pk).revisions.count() == r


def test_a_published_sample_reads_without_signing_in(live_server, page):
    """Anyone may read a published scenario: its counters, zones and objectives drawn, nothing editable; the
    German PaK and sniper set up hidden (OST 21.0) and are not there, and the German tab says so."""
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    scenario = Scenario.objects.get(title="Hill 112: the Orne heights")
    page.set_viewport_size({"width": 1500, "height": 950})
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert page.locator("#tools .tool").all_inner_texts() == ["Pan"]
    assert page.locator("#panel input:not([disabled])").count() == 0
    page.click("#tabs [role=tab]:text('German')")
    assert page.locator("#oob tr[data-unit]").count() == 4
    assert page.inner_text("#withheld") == "Hidden from you: 2 hidden units, 1 hidden marker."
    assert "Hidden from you" in page.inner_text("#hidden-from-you")
    assert page.locator("#victory .sentence").all_inner_texts()[1].startswith(
        "(a) control one of Hill 112 crest (P10) or The Cornfield wood (O9)")
    # Zoom on the crest, where the German stack and the objective are.
    page.evaluate("""() => { const e = window.scenarioEditor, [c, r] = e.grid.parseLabel('P9'),
        [x, y] = e.grid.centre(c, r); e.view.scale = 48; e.view.ox = e.view.width / 2 - x * 48;
        e.view.oy = e.view.height / 2 - y * 48; e.view.cache = null; }""")
    wait_drawn(page, "scenarioEditor.view")
    page.screenshot(path=f"{ARTIFACTS}/scenario-sample-hill-112.png")  # docs/images' copy: make docs-images
    page.goto(f"{live_server.url}/scenarios/")
    assert page.locator("table a:text('Hill 112: the Orne heights')").count() == 1
    # TOCS is double-blind: the read-only editor opens on the public part, each side's forces hidden
    tocs = Scenario.objects.get(ruleset="tocs")
    page.goto(f"{live_server.url}/scenarios/{tocs.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    page.click("#tabs [role=tab]:text('German')")
    assert page.locator("#oob tr[data-unit]").count() == 0
    assert page.inner_text("#withheld").startswith("Hidden from you: its brief, its victory conditions")


def facings(page):
    return page.locator("#facing option").evaluate_all("(options) => options.map((o) => o.value)")


def test_tocs_perimeter_and_miniatures_inches(live_server, page, designer):
    """The games' own tools: TOCS's shared perimeter painted side by side; miniatures distances in inches. What a
    game offers comes from its ruleset's capabilities: Assault's counters face vertices and it has no perimeter
    nor secret briefs; TOCS's face hexsides, and each side has a secret brief."""
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    page.set_viewport_size({"width": 1500, "height": 950})
    new_scenario(page, live_server, "Beach at Gela", "Gela beachhead (Assault) (assault)")
    assert facings(page) == ["", "0", "1", "2", "3", "4", "5"]
    assert page.locator("#tools [data-tool=perimeter]").count() == 0
    page.click("#tabs [role=tab]:text('Side 1')")
    assert page.locator("#side-panel h3:text('Secret brief')").count() == 0

    scenario, r = new_scenario(page, live_server, "Meeting at Mook", "Nijmegen approaches (TOCS) (tocs)")
    assert "0" not in facings(page) and len(facings(page)) == 7
    page.click("#tabs [role=tab]:text('Side 1')")
    assert page.locator("#side-panel h3:text('Secret brief')").count() == 1
    page.click("#tools [data-tool=perimeter]")
    drag(page, [point(page, "02.02"), point(page, "02.03"), point(page, "02.04")])
    r = saved_after(page, r)
    page.click("#tabs [role=tab]:text('Side 2')")
    page.click("#tools [data-tool=perimeter]")
    drag(page, [point(page, "02.04"), point(page, "03.04")])  # 02.04 changes hands
    r = saved_after(page, r)
    assert document(scenario.pk)["perimeter"] == {"side-1": ["02.02", "02.03"], "side-2": ["02.04", "03.04"]}
    page.click("#tabs [role=tab]:text('Scenario')")
    page.fill("#scenario-panel [name=area-from]", "02.02")
    page.locator("#scenario-panel [name=area-from]").dispatch_event("change")
    r = saved_after(page, r)
    page.fill("#scenario-panel [name=area-to]", "12.10")
    page.locator("#scenario-panel [name=area-to]").dispatch_event("change")
    r = saved_after(page, r)
    assert document(scenario.pk)["play_area"] == {"corners": ["02.02", "12.10"]}

    minis = Scenario.objects.get(title="Village on the Dnieper")
    page.goto(f"{live_server.url}/scenarios/{minis.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert '1 hex = 2"' in page.inner_text("#inches")
    page.click("#tools [data-tool=pan]")
    page.mouse.click(*point(page, "C3"))
    page.mouse.move(*point(page, "F3"))
    assert '3 hexes = 6" from C3' in page.inner_text("#status-hex")


def test_edits_show_at_once_undo_redo_and_a_refusal_rolls_back(live_server, page, designer):
    """The scenario editor's edit session: no reload after a write, Undo and Redo as new edits (Ctrl+Z, the
    buttons), and an edit the server refuses taken back with its message."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    scenario, r = new_scenario(page, live_server, "Undo at Hill 112", "Hill 112 (Old School Tactical) (ost)")
    page.evaluate("() => { window.stayed = true; }")   # gone if the page reloads
    page.click("#tabs [role=tab]:text('Scenario')")
    page.click("#add-rule")
    assert page.locator("#special-rules li").count() == 1   # shown before the server answers
    r = saved_after(page, r)
    assert document(scenario.pk)["special_rules"] == ["New special rule."]

    page.locator("#map-canvas").focus()
    page.keyboard.press("Control+z")
    r = saved_after(page, r)
    assert document(scenario.pk)["special_rules"] == []
    assert page.locator("#special-rules li").count() == 0
    page.click("#redo")
    r = saved_after(page, r)
    assert document(scenario.pk)["special_rules"] == ["New special rule."]
    assert Scenario.objects.get(pk=scenario.pk).revisions.count() == r

    # A count of 0 units is no OOB entry the format reads: refused, rolled back, the reason in the banner.
    page.click("#tabs [role=tab]:text('Side 1')")
    count = "#oob tr[data-unit='unit-1'] input[aria-label=count]"
    page.fill(count, "0")
    page.locator(count).dispatch_event("change")
    page.locator("#banner").wait_for()
    assert "refused" in page.inner_text("#banner")
    page.wait_for_function("() => !window.scenarioEditor.session.busy")
    assert page.input_value(count) == "1"
    assert page.evaluate("() => window.scenarioEditor.doc.sides[0].oob[0].count") == 1
    assert Scenario.objects.get(pk=scenario.pk).revision == r
    assert page.evaluate("() => window.stayed") is True
    page.screenshot(path=f"{ARTIFACTS}/scenario-editor-undo.png")


def test_publish_with_its_maps_and_a_private_map_is_named_to_others(live_server, page, designer, django_user_model):
    """The editor's publish form refuses while the map is private, publishes both when asked; a published
    scenario whose map is private tells another visitor which map, and draws nothing of it."""
    import copy

    from engine import mapfile
    from engine.scenarios import scenariofile
    from maps.models import Map
    from tests.conftest import MAP_DOCUMENT
    from tests.scenarios.conftest import SMALL

    board = Map.objects.create_from_doc(designer, mapfile.parse(copy.deepcopy(MAP_DOCUMENT)))
    data = copy.deepcopy(SMALL)
    data["maps"] = [{"key": "main", "id": board.pk}]
    scenario = Scenario.objects.create_from_doc(designer, scenariofile.parse(data, lambda entry: board.mapdoc()))
    sign_in(page, live_server, designer)
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    page.click("#publish")
    page.wait_for_selector(".messages li.error")
    assert "Hill 112" in page.locator(".messages").inner_text() and not Scenario.objects.get(pk=scenario.pk).published
    page.check("#publish-maps")
    page.click("#publish")
    page.wait_for_selector("#unpublish")
    assert "and its maps" in page.locator(".messages").inner_text()
    assert Scenario.objects.get(pk=scenario.pk).published and Map.objects.get(pk=board.pk).published

    Map.objects.filter(pk=board.pk).update(published=False)  # as if it went private with the scenario left up
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("#banner:not([hidden])")
    said = page.locator("#banner").inner_text()
    assert "This scenario's map is private" in said and "maps[0]" not in said  # in words: no JSON path, no id


def test_a_special_rule_that_changes_the_terrain_changes_the_map_shown(live_server, page, designer):
    """Issue 30: a special rule carries a terrain change ("the woods are brush"); the editor draws the changed map."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    scenario, r = new_scenario(page, live_server, "Cut woods", "Hill 112 (Old School Tactical) (ost)")
    woods = page.evaluate("""() => { const e = window.scenarioEditor, g = e.grid, out = [];
        for (let c = 0; c < g.columns; c++) for (let r = 0; r < g.rows; r++)
          if (e.model.resolvedCell(c, r).terrain.includes("woods")) out.push(g.label(c, r));
        return out; }""")
    assert woods  # the sample has woods
    page.click("#tabs [role=tab]:text('Scenario')")
    page.click("#add-rule")
    r = saved_after(page, r)
    page.click("#special-rules .terrain-change-form summary")
    page.select_option("#special-rules [name=change-action]", "replace")
    page.select_option("#special-rules [name=change-from]", "woods")
    page.select_option("#special-rules [name=change-to]", "brush")
    page.click("#special-rules [name=change-add]")
    r = saved_after(page, r)
    assert document(scenario.pk)["special_rules"] == [{"text": "New special rule.",
                                                       "terrain": [{"replace": {"woods": "brush"}}]}]
    page.wait_for_function("""(label) => { const e = window.scenarioEditor, [c, r] = e.grid.parseLabel(label);
        return e.model.resolvedCell(c, r).terrain.includes("brush"); }""", arg=woods[0], timeout=15000)
    assert "Woods becomes Brush, everywhere" in page.inner_text("#special-rules")
    page.screenshot(path=f"{ARTIFACTS}/scenario-terrain-rule.png")
