"""A Tiled map's object layers (engine/importers/tiled.py reads the tiles): hexsides, art, Hexside's own overlays,
and object layers whose name or class is a terrain. No Django.

- an object of class (or type) ``hexside`` with a ``terrain`` property is a hexside: the edge nearest the middle
  of its line; one with an ``overlay`` property belongs to that overlay (engine/exports/tiled.py writes both);
- an object of class ``art`` with a ``hex`` property is that hex's art: its exact map-space ``points`` (JSON)
  when it has them, else its polygon in Tiled's pixels;
- an object of class ``label_note`` with ``hex`` and ``note`` properties is that hex's label note;
- an object of class ``overlay`` with a ``definition`` property (JSON: the overlay's hexes and hexsides) is one of
  Hexside's overlays, laid at its ``anchor`` with its ``rotation``, named by its ``name``; the tile layer with its
  ``overlay`` property only shows it, and is not read as terrain when the overlay is rebuilt (when it is not, its
  tiles replace the terrain under them, as the overlay did);
- any other object layer whose name (or class) the mapping or the mapping step's word table takes for a terrain
  ("forest", "Woods") is that terrain, as a source code like a tile's: it is given to every hex whose centre its
  polygons, rectangles and ellipses cover, and to the hex under each of its points, so the mapping step shows
  it with its hexes. Layers of other names (spawn points, notes) are left, counted in ``ignored_layers``.
"""

import json
import math

from engine.importers.common import number


class Objects:
    """What one map's object layers hold, kept by the reader and laid on the map when it is built."""

    def __init__(self, context):
        self.context = context
        self.hexsides = []  # (x1, y1, x2, y2, terrain, where, overlay id or None), Tiled's pixels
        self.art = []  # (hex label, [(x, y)] map space or None, [(x, y)] pixels, where)
        self.overlays = []  # {"id", "anchor", "rotation", "name", "definition", "where"}
        self.notes = []  # (hex label, label note, where)
        self.groups = []  # (code, [shape], where) of the layers that may be terrain
        self.count = 0

    def read_group(self, name, group_class, objects):
        """One object layer: ``objects`` is [(attributes, properties, points, shape)], a line's or polygon's
        points relative to the object. True when the layer held anything Hexside reads as its own."""
        found, shapes = False, []
        for attributes, props, points, shape in objects:
            self.count += 1
            if self.count > self.context.limits.max_xml_elements:
                self.context.refuse(f"layer {name!r}", "the map holds too many objects", code="too-many-objects")
            top = {key.lower(): value for key, value in props if value is not None}
            kind = str(attributes.get("class") or attributes.get("type") or "").lower()
            where = f"layer {name!r}, object {attributes.get('name') or attributes.get('id')}"
            if kind == "hexside" and isinstance(top.get("terrain"), str) and len(points) >= 2:
                found |= self.hexside(attributes, top, points, where)
            elif kind == "art" and isinstance(top.get("hex"), str):
                self.art.append((top["hex"], _exact_points(top.get("points")), self.pixels(attributes, points,
                                                                                            where), where))
                found = True
            elif kind == "label_note" and isinstance(top.get("hex"), str) and isinstance(top.get("note"), str):
                self.notes.append((top["hex"], top["note"], where))
                found = True
            elif kind == "overlay" and isinstance(top.get("definition"), str) and isinstance(top.get("id"), str):
                self.overlays.append({"id": top["id"], "anchor": top.get("anchor"), "rotation": top.get("rotation"),
                                      "name": top.get("name"), "definition": top["definition"], "where": where})
                found = True
            else:
                shapes.append((attributes, points, shape, where))
        code = str(group_class or name or "").strip()
        if not found and shapes and code:  # read as terrain if its name is one (lay()); counted as left till then
            self.groups.append((code, shapes, f"layer {name!r}"))
        return found

    def pixels(self, attributes, points, where):
        x = number(attributes.get("x") or 0, self.context, where, "an object's x")
        y = number(attributes.get("y") or 0, self.context, where, "an object's y")
        out = []
        for point in points:
            if len(point) == 2:
                out.append((x + number(point[0], self.context, where, "a point"),
                            y + number(point[1], self.context, where, "a point")))
        return out

    def hexside(self, attributes, top, points, where):
        if any(len(point) != 2 for point in (points[0], points[-1])):
            self.context.error(where, "a hexside's line should be points x,y; it was not read", code="bad-value")
            return False
        (ax, ay), (bx, by) = self.pixels(attributes, [points[0], points[-1]], where)
        overlay = top.get("overlay") if isinstance(top.get("overlay"), str) else None
        self.hexsides.append((ax, ay, bx, by, top["terrain"].strip(), where, overlay))
        return True


def _exact_points(text):
    """An art polygon's map-space points as the exporter wrote them (JSON [[x, y], ..]), or None."""
    try:
        points = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    if not isinstance(points, list) or len(points) < 3 or len(points) > 1000:
        return None
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                          and math.isfinite(v) for v in p) for p in points):
        return None
    return [tuple(p) for p in points]


def lay(objects, builder, to_map, restored, ignored):
    """Lay what the object layers hold on the map being built: the hexsides (an overlay's only when its overlay
    is not rebuilt), the art, and the terrain layers' codes. ``to_map(x, y)``: a Tiled pixel as map space;
    ``restored``: the ids of the overlays rebuilt; ``ignored``: the layers left, by kind."""
    grid, context = builder.grid, builder.context
    known = builder.mapping.catalogue.terrain_ids("hexside")
    for x1, y1, x2, y2, terrain, where, overlay in objects.hexsides:
        if overlay in restored:
            continue
        key = grid.hexside_at(*to_map((x1 + x2) / 2, (y1 + y2) / 2))
        if not grid.hexside_hexes(key):
            context.error(where, "the hexside lies off the map; it was not read", code="hexside-off-map")
            continue
        col, row, side = grid.hexside_name(key)
        label = grid.label(col, row)
        if terrain not in known:
            context.error(where, f"hexside terrain {terrain!r} of {label} {side} is not a hexside terrain of "
                                 f"{builder.mapping.catalogue.id!r}; expected one of: {', '.join(sorted(known))}",
                          label, code="unmapped-terrain")
            continue
        builder.hexsides.append({"hex": label, "side": side, "terrain": terrain})
    for label, exact, pixels, where in objects.art:
        points = exact or [to_map(x, y) for x, y in pixels]
        place = _hex(grid, label, where, context)
        if place is not None and len(points) >= 3:
            builder.art.setdefault(place, []).append([[x, y] for x, y in points])
    for label, note, where in objects.notes:
        place = _hex(grid, label, where, context)
        if place is not None:
            builder.notes[place] = note
    for code, shapes, _where in objects.groups:
        if not is_terrain(code, builder.mapping):
            continue
        ignored["objectgroup"] -= 1
        if not ignored["objectgroup"]:
            del ignored["objectgroup"]
        hexes, budget = set(), [context.limits.max_tiles]  # hexes tested, in all: a bound on the work
        for attributes, points, shape, place in shapes:
            hexes |= covered(grid, attributes, points, shape, place, to_map, context, budget)
        for col, row in sorted(hexes):
            builder.add_code(col, row, code)


def _hex(grid, label, where, context):
    try:
        return grid.parse_label(label)
    except ValueError:
        context.warn(where, f"hex {label!r} is not a hex of the map; the object was not read", code="bad-value")
        return None


def is_terrain(code, mapping):
    """Whether an object layer's name is a terrain: the mapping maps it, or the word table proposes one."""
    from engine.importers import suggest  # noqa: PLC0415 - suggest imports the importers' package

    entry = mapping.lookup(code)
    if entry is not None:
        return bool(entry.terrain) or entry.level is not None
    proposal = suggest.propose_code(code, mapping, "tiled")
    return bool(proposal.get("terrain")) and not proposal.get("flag")


def covered(grid, attributes, points, shape, where, to_map, context, budget):
    """The hexes of the map one object covers: those whose centre is inside its polygon, rectangle or ellipse, or
    the hex under a point. Only the hexes of its bounding box are tested, counted against ``budget``."""
    x = number(attributes.get("x") or 0, context, where, "an object's x")
    y = number(attributes.get("y") or 0, context, where, "an object's y")
    width = number(attributes.get("width") or 0, context, where, "an object's width")
    height = number(attributes.get("height") or 0, context, where, "an object's height")
    if shape == "polygon" and len(points) >= 3:
        outline = [to_map(x + number(px, context, where, "a point"), y + number(py, context, where, "a point"))
                   for px, py in points]
        inside = _in_polygon
    elif shape == "ellipse" and width > 0 and height > 0:
        outline = [to_map(x + width / 2, y + height / 2), to_map(x + width, y + height)]
        inside = _in_ellipse
    elif width > 0 and height > 0 and shape not in ("polyline", "point"):
        outline = [to_map(x, y), to_map(x + width, y), to_map(x + width, y + height), to_map(x, y + height)]
        inside = _in_polygon
    else:
        col, row = grid.hex_at(*to_map(x, y))
        return {(col, row)} if grid.contains(col, row) else set()
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    if shape == "ellipse":
        (cx, cy), (ex, ey) = outline
        xs, ys = [2 * cx - ex, ex], [2 * cy - ey, ey]
    corners = [grid.hex_at(x, y) for x in (min(xs), max(xs)) for y in (min(ys), max(ys))]
    cols = range(max(0, min(c for c, _ in corners) - 1), min(grid.columns, max(c for c, _ in corners) + 2))
    rows = range(max(0, min(r for _, r in corners) - 1), min(grid.rows, max(r for _, r in corners) + 2))
    budget[0] -= len(cols) * len(rows)
    if budget[0] < 0:
        context.refuse(where, "the map's terrain objects cover more hexes in all than Hexside reads; merge them in "
                              "Tiled", code="too-many-objects")
    out = set()
    for col in cols:
        for row in rows:
            px, py = grid.centre(col, row)
            if min(xs) <= px <= max(xs) and min(ys) <= py <= max(ys) and inside(outline, px, py):
                out.add((col, row))
    return out


def _in_polygon(outline, px, py):
    inside = False
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1], strict=True):
        if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _in_ellipse(outline, px, py):
    (cx, cy), (ex, ey) = outline
    rx, ry = abs(ex - cx), abs(ey - cy)
    return rx > 0 and ry > 0 and ((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 <= 1


def overlays(objects, builder, expected_ruleset, context):
    """The overlays rebuilt from their objects, as map-format entries, and their names; none when the map is
    imported to another ruleset than its own (their terrain is then read from their tile layers, mapped)."""
    if not objects.overlays:
        return [], {}
    if builder.mapping.catalogue.id != expected_ruleset:
        context.warn("$", f"the map's overlays are {expected_ruleset or 'another game'}'s; imported to "
                          f"{builder.mapping.catalogue.id!r}, their terrain was laid into the map's, mapped",
                     code="overlays-laid")
        return [], {}
    entries, names = [], {}
    for item in objects.overlays:
        try:
            definition = json.loads(item["definition"])
        except ValueError:
            definition = None
        rotation = item["rotation"]
        if not isinstance(definition, dict) or not isinstance(item["anchor"], str):
            context.warn(item["where"], "the overlay's definition cannot be read; its tile layer was read as "
                                        "terrain instead", code="bad-value")
            continue
        entries.append({"id": item["id"], "anchor": item["anchor"],
                        "rotation": int(rotation) if str(rotation).lstrip("-").isdecimal() else 0,
                        "hexes": definition.get("hexes", []), "hexsides": definition.get("hexsides", [])})
        if isinstance(item["name"], str) and item["name"].strip():
            names[item["id"]] = item["name"].strip()
    return entries, names
