"""What the painter's browser tests and benchmark share: a signed-in page, a map, and pointing at hexes."""

from django.test import Client

from maps.models import Map

ARTIFACTS = "tests/browser/artifacts"


def sign_in(page, live_server, user):
    """Sign a page in as a user by giving it a session cookie (the sign-in pages are another branch's)."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])


def watch_console(page):
    """The console's error lines, gathered as the page runs."""
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def only_expected(errors, *statuses):
    """Console errors other than the browser's own line for an answer the test asked for (a 409, a 400)."""
    allowed = tuple(f"status of {status} " for status in statuses)
    return [e for e in errors if not (e.startswith("Failed to load resource") and any(a in e for a in allowed))]


def blank_map(user, name="Painted", columns=12, rows=9, ruleset="ost", orientation="flat", **grid):
    """A new map made through the API (POST /api/maps/), as its owner; the new map form is another branch's."""
    client = Client()
    client.force_login(user)
    answer = client.post("/api/maps/", {"name": name, "ruleset": ruleset, "grid": {
        "orientation": orientation, "columns": columns, "rows": rows, "stagger": "even", "labels": "letter-number",
        **grid}}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return Map.objects.get(pk=answer.json()["id"])


def open_editor(page, live_server, map_id):
    page.goto(f"{live_server.url}/maps/{map_id}/edit/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)


def point(page, label, dx=0.0, dy=0.0):
    """The page coordinates of a hex's centre (plus an offset in hex radii, in map space)."""
    x, y = page.evaluate("""([label, dx, dy]) => {
        const p = window.painter, [c, r] = p.grid.parseLabel(label), [cx, cy] = p.grid.centre(c, r);
        const [sx, sy] = p.view.toScreen(cx + dx, cy + dy), box = p.view.canvas.getBoundingClientRect();
        return [box.left + sx, box.top + sy];
    }""", [label, dx, dy])
    return x, y


def drag(page, points, steps=6):
    page.mouse.move(*points[0])
    page.mouse.down()
    for p in points[1:]:
        page.mouse.move(*p, steps=steps)
    page.mouse.up()


def wait_saved(page, timeout=10000):
    page.wait_for_function("() => window.painter && !window.painter.editor.busy", timeout=timeout)


def wait_drawn(page, view="painter.view", timeout=10000):
    """Ask a canvas's view for a frame and wait until it is drawn: the canvas then shows the page's state as it is
    now (a view counts the frames it draws, static/js/canvas/layers.js)."""
    frames = page.evaluate(f"() => {{ const v = {view}, n = v.frames; v.request(); return n; }}")
    page.wait_for_function(f"(n) => {view}.frames > n && !{view}.pending", arg=frames, timeout=timeout)


def document(map_id):
    return Map.objects.get(pk=map_id).document


def cells(map_id):
    return {e["hex"]: e for e in document(map_id)["hexes"]}
