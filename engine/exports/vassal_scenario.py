"""A scenario as the module both sides play (vassal.scenario_module): one name, one version, every side in the
roster, and the scenario's at-start placement as a predefined setup (a saved game in the module).

- Each side's pieces are owned by it (Restricted Access by roster side). What the game's catalogue keeps from the
  other side (``scenario.hidden``, engine/scenarios/visibility) is masked to it (Mask: ATS dummies, OST snipers,
  hidden OOB lines, hidden markers), or on a double-blind game (TOCS) invisible to it: each side's every piece.
- Each side has a private window (PrivateMap, only its players open it) holding its secret sheet, drawn as the
  window's board, and one holding its reinforcements by turn and the units that set up anywhere in its zone.
  The public card is a help page. No secret text is anywhere else in the module.
- Each side has a piece window (palette) of its OOB lines that are not hidden, and one tab per turn of arrival.
- The turn track, the game's dice (its catalogue's ``scenario.dice``), the setup zones drawn and named.
"""

import xml.etree.ElementTree as ET
from dataclasses import replace

from engine.exports import vassal, vassal_grid, vassal_table
from engine.exports import vassal_encoding as enc
from engine.exports import vassal_pieces as vp
from engine.exports.counters import counter_png
from engine.exports.vassal_sheets import rows_png, sheet_html, side_rows
from engine.exports.vassal_zones import zone_path
from engine.scenarios import cards, visibility, writing
from engine.scenarios.cards.track import turn_label

MAIN = "Main Map"
P = vassal.P


def clean(text):
    """A text for drawing on a counter: its control characters (newline, tab) as spaces."""
    return " ".join(str(text or "").split())


def unit_label(unit):
    name = unit.get("name") or ""
    return f"{unit['unit']} {name}".strip() if name and name != unit["unit"] else unit["unit"]


class Counters:
    """Counter images, piece slots and the at-start pieces of one module."""

    def __init__(self, doc, files, size, prototypes, rules):
        self.doc, self.files, self.size, self.prototypes, self.rules = doc, files, size, prototypes, rules
        self.images, self.gpid, self.pieces, self.slots = {}, 0, [], {}
        self.types = vp.unit_types(doc, prototypes.catalogue)
        self.blind = bool(rules.get("double_blind"))

    def image(self, key, drawn, colour):
        if key not in self.images:
            name = f"counter-{len(self.images) + 1}.png"
            drawn = {k: clean(v) if isinstance(v, str) else v for k, v in drawn.items()}
            self.files[f"images/{name}"] = counter_png(drawn, colour, self.size, self.prototypes.orientation)
            self.images[key] = name
        return self.images[key]

    def private(self, side, unit):
        return self.blind or visibility.is_private_unit(unit, self.rules)

    def hiding(self, side, hidden):
        """The owner's traits: Restricted Access, and where hidden the mask or invisibility."""
        traits = [vp.restricted(side["name"])]
        if hidden and self.blind:
            traits.append(vp.invisible(side["name"]))
        elif hidden:
            mask = self.image(("mask", side["id"]), {"unit": side["name"], "name": "?"}, side.get("colour"))
            traits.append(vp.masked(side["name"], mask, f"{side['name']} unit"))
        return traits

    def unit_traits(self, side, unit):
        entry = self.types.get(unit.get("type")) or {"name": unit.get("type") or "Unit"}
        proto = self.prototypes.for_type(unit.get("type"), entry)
        values = [("Side", side["name"]), ("Type", entry.get("name") or ""), ("OOB", unit["id"]),
                  ("Unit", unit_label(unit))]
        values += [(key, unit[key]) for key in ("quality", "casualty_points", "vp", "points", "steps")
                   if unit.get(key) not in (None, "", [])]
        own = self.hiding(side, self.private(side, unit)) + [vp.properties(values)]
        return own, proto

    def piece_name(self, side, label):
        return enc.check_text(f"{label} ({side['name']})", "a unit's name")

    def slot(self, parent, side, unit):
        """A palette's PieceSlot of an OOB line (its prototype by name)."""
        own, proto = self.unit_traits(side, unit)
        self.gpid += 1
        image = self.image((side["id"], unit["id"]), unit, side.get("colour"))
        name = self.piece_name(side, unit_label(unit))
        piece_type, state = enc.decorate(own + [vp.use_prototype(proto)], enc.basic_piece(name, image),
                                         enc.basic_state(gpid=self.gpid))
        ET.SubElement(parent, P + "widget.PieceSlot", entryName=name, gpid=str(self.gpid), height=str(self.size),
                      width=str(self.size)).text = enc.add_piece(None, piece_type, state)
        self.slots[(side["id"], unit["id"])] = self.gpid

    def place(self, map_name, point, side, unit, facing=None):
        """An at-start piece: its own traits and its prototype's, expanded as VASSAL's PieceCloner does."""
        own, proto = self.unit_traits(side, unit)
        entry = self.types.get(unit.get("type")) or {}
        traits = self.expanded(proto, entry, facing)
        image = self.image((side["id"], unit["id"]), unit, side.get("colour"))
        self.add(map_name, point, own + traits, self.piece_name(side, unit_label(unit)), image,
                 self.slots.get((side["id"], unit["id"]), ""))

    def expanded(self, proto, entry, facing):
        statuses = list(self.prototypes.catalogue.statuses.values()) if self.prototypes.catalogue else []
        traits = self.prototypes.common(vp.steps_of(entry, self.prototypes.catalogue), statuses)
        if facing not in (None, ""):
            index = vp.angle_index(self.prototypes.orientation, facing, self.prototypes.count)
            traits = [(t, str(index) if t.startswith("rotate;") else s) for t, s in traits]
        return traits

    def marker(self, map_name, point, kind_name, side, hidden, colour):
        own = self.hiding(side, hidden) if side else []
        own.append(vp.properties([("Side", side["name"] if side else ""), ("Type", kind_name)]))
        traits = own + self.prototypes.common()[-2:]
        image = self.image(("marker", kind_name, side["id"] if side else ""), {"unit": kind_name}, colour)
        name = enc.check_text(kind_name + (f" ({side['name']})" if side else ""), "a marker's name")
        self.add(map_name, point, traits, name, image, "")

    def add(self, map_name, point, traits, name, image, gpid):
        piece_id = f"hx{len(self.pieces) + 1}"
        piece_type, state = enc.decorate(traits, enc.basic_piece(name, image),
                                         enc.basic_state(map_name, point[0], point[1], gpid))
        self.pieces.append((piece_id, map_name, tuple(point), enc.add_piece(piece_id, piece_type, state)))

    def commands(self, boards):
        """The saved game's commands: each map's board, each piece, then a stack per point."""
        out = [enc.boards_command(m, b) for m, b in boards]
        stacks = {}
        for piece_id, map_name, point, command in self.pieces:
            out.append(command)
            stacks.setdefault((map_name, point), []).append(piece_id)
        for n, ((map_name, point), ids) in enumerate(stacks.items(), 1):
            out.append(enc.stack_piece(f"hxs{n}", map_name, point, ids))
        return out


def scenario_module(scenario_doc, side=None, hex_mm=vassal.DEFAULT_HEX_MM, dpi=vassal.DEFAULT_DPI):
    """The module both sides play (``side`` None: every side's pieces, each hidden one owned by its side and
    masked or invisible to the others), or a print of what one side's reader may see (a side id). Bytes."""
    if side is not None and scenario_doc.side(side) is None:
        known = ", ".join(f"{s['id']} ({s['name']})" for s in scenario_doc.data["sides"]) or "none"
        raise vassal.ModuleError(f"the scenario has no side {side!r}; its sides are: {known}", "side")
    doc = scenario_doc if side is None else replace(scenario_doc, data=visibility.view(scenario_doc.data, {side}))
    b = vassal.make_board(doc.maps[doc.main_key].grid, hex_mm, dpi)
    try:
        return build(doc, side, b)
    except ValueError as exc:  # a text no module can carry (vassal_encoding.check_text), named
        raise vassal.ModuleError(str(exc), "scenario") from None


def build(doc, side, b):
    """The module's bytes (see scenario_module); ``doc`` is what it may show."""
    data = doc.data
    catalogue = cards.catalogue(doc)
    rules = visibility.hidden_rules(doc.ruleset)
    main = doc.maps[doc.main_key]
    files = {}
    files["images/board.png"], size = vassal.board_png(cards.printed_map(doc), b)
    title = enc.check_text(data["title"], "the title")
    name = title if side is None else f"{title} ({doc.side(side)['name']}'s view)"
    version = f"1.0+{writing.content_hash(doc)[:10]}"
    description = " · ".join(x for x in (data.get("subtitle"), data.get("date"), data.get("place"),
                                         cards.game_name(doc)) if x)
    root = vassal.game_module(name, version, description)
    roster = ET.SubElement(root, P + "module.PlayerRoster", buttonKeyStroke="", buttonText="Retire",
                           buttonToolTip="Switch sides, become observer, or release faction")
    for s in data["sides"]:
        ET.SubElement(roster, "entry").text = enc.check_text(s["name"], "a side's name")
    vassal.add_help(root, files, vassal_sheet_title(doc), "card.html", sheet_html(doc, cards.PUBLIC))
    facing_kind = (catalogue.scenario.get("facing") if catalogue is not None else None) or "hexside"
    prototypes = vp.Prototypes(root, files, max(16, round(b.across_px * vassal.COUNTER_SHARE)),
                               main.grid.orientation, facing_kind, catalogue)
    counters = Counters(doc, files, prototypes.size, prototypes, rules)
    vassal_table.add_turn_track(root, doc)
    vassal_table.add_dice(root, (catalogue.scenario.get("dice") if catalogue is not None else None) or [])

    board_name = enc.check_text(main.name or title, "the map's name")
    window, board_element = vassal.add_map_window(root, MAIN, board_name, "board.png", size)
    zoned = vassal.add_grid(board_element, b, size)
    boards = [(MAIN, board_name)]
    for s in data["sides"]:
        zone = [h for h in s["setup_zone"] if ":" not in h]
        if zone:
            vassal.add_zone(zoned, f"{s['name']} setup zone", zone_path(main.grid, b, zone), colour_rgb(s))
    for s in data["sides"]:
        add_palette(root, doc, s, counters)
        place_side(doc, s, counters, b)
        boards += add_side_windows(root, files, doc, s, counters)
    place_markers(doc, counters, b, rules)
    vassal_table.add_setup(root, files, title, counters.commands(boards))
    return vassal.pack(root, name, version, description, files, vassal.Built(root, files, b, main, window))


def vassal_sheet_title(doc):
    """The public sheet's name as the card names it ("Public card"; on TOCS "Public sheet")."""
    return dict(cards.sheet_choices(doc.data))[cards.PUBLIC]


def colour_rgb(side):
    colour = side.get("colour") or "#777777"
    return ",".join(str(int(colour[i:i + 2], 16)) for i in (1, 3, 5))


def vassal_point(b, col, row):
    """The pixel VASSAL's numbering gives a hex's label (HexGridNumbering.getCenterPoint, the grid unrotated)."""
    attrs = vassal_grid.hex_grid(b)
    dx, dy, x0, y0 = float(attrs["dx"]), float(attrs["dy"]), int(attrs["x0"]), int(attrs["y0"])
    k = 0 if b.grid.stagger == "odd" else 1
    line, along = (col, row) if b.grid.orientation == "flat" else (row, col)
    nx = line + k
    x = int(nx * dx) + x0
    y = (int(along * dy) if nx % 2 == 0 else int(along * dy + dy / 2)) + y0
    return (y, x) if b.grid.orientation == "pointy" else (x, y)


def place_side(doc, side, counters, b):
    main = doc.maps[doc.main_key]
    units = doc.units(side)
    for pl in side["placements"]:
        if ":" in pl["hex"] or pl["unit"] not in units:
            continue
        point = vassal_point(b, *main.grid.parse_label(pl["hex"]))
        counters.place(MAIN, point, side, units[pl["unit"]], pl.get("facing"))


def place_markers(doc, counters, b, rules):
    """Markers (fortifications, mines, roadblocks...) and objectives as counters on their hexes. A hidden marker
    of no side is the scenario owner's alone (visibility): no player holds it, so it is not in the module."""
    main = doc.maps[doc.main_key]
    sides = {s["id"]: s for s in doc.data["sides"]}
    hidden_kinds = set(rules.get("markers") or ())
    for m in doc.data.get("markers") or []:
        side = sides.get(m.get("side"))
        hidden = m["kind"] in hidden_kinds or counters.blind and side is not None
        if ":" in m["hex"] or (hidden and side is None):
            continue
        point = vassal_point(b, *main.grid.parse_label(m["hex"]))
        for _ in range(m.get("count") or 1):
            counters.marker(MAIN, point, cards.marker_name(doc, m["kind"]), side, hidden,
                            (side or {}).get("colour"))
    for o in doc.data.get("objectives") or []:
        if ":" in o["hex"]:
            continue
        point = vassal_point(b, *main.grid.parse_label(o["hex"]))
        counters.marker(MAIN, point, "Objective " + (o.get("name") or o["hex"]), None, False, "#f2d24b")


def add_palette(root, doc, side, counters):
    """The side's piece window: its OOB lines that are not hidden, a tab per turn of arrival."""
    window = ET.SubElement(root, P + "module.PieceWindow", defaultWidth="0", hidden="false", hotkey="", icon="",
                           name=f"{side['name']} OOB", scale="1.0", text=f"{side['name']} OOB",
                           tooltip=f"{side['name']}'s order of battle")
    tabs = ET.SubElement(window, P + "widget.TabWidget", entryName=f"{side['name']} OOB")
    public = [u for u in side["oob"] if not counters.private(side, u)]
    groups = [("OOB", public)]
    units = doc.units(side)
    for r in sorted(side["reinforcements"], key=lambda r: r["turn"]):
        shown = [units[g["unit"]] for g in r["units"] if g["unit"] in units and units[g["unit"]] in public]
        if shown:
            groups.append((turn_label(doc, r["turn"], True), shown))
    for label, group in groups:
        listing = ET.SubElement(tabs, P + "widget.ListWidget", divider="150", entryName=label, height="0",
                                scale="1.0", width="0")
        for unit in group:
            counters.slot(listing, side, unit)


def add_side_windows(root, files, doc, side, counters):
    """The side's private windows: its secret sheet, and its reinforcements and free set-up; their boards."""
    boards = []
    title = f"{side['name']}: secret sheet"
    if side["id"] in cards.sheets(doc):
        png, size = vassal_table.brief_png(vassal_table.text_lines(sheet_html(doc, side["id"])))
        image_name = f"sheet-{len(files)}.png"
        files[f"images/{image_name}"] = png
        vassal_table.add_private_window(root, vassal.add_map_window, side["name"], title, image_name, size,
                                        visible=False)
        boards.append((title, title))
    rows = side_rows(doc, side)
    if not rows:
        return boards
    image_name = f"window-{len(files)}.png"
    png, size, points = rows_png([(clean(label), entries) for label, entries in rows], counters.size,
                                 side.get("colour"))
    files[f"images/{image_name}"] = png
    title = f"{side['name']}: reinforcements and set-up"
    hides = counters.blind or any(counters.private(side, u) for u in side["oob"])
    vassal_table.add_private_window(root, vassal.add_map_window, side["name"], title, image_name, size,
                                    visible=not hides)
    boards.append((title, title))
    units = doc.units(side)
    for (_, entries), point in zip(rows, points, strict=False):
        for unit_id, count in entries:
            for _ in range(count):
                counters.place(title, point, side, units[unit_id])
    return boards
