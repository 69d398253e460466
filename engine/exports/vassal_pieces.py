"""A module's pieces as VASSAL builds them: a prototype per unit type, and each counter's own traits.

Each trait's type and state are the fields its class reads, in its order (vassal-app/src/main/java/VASSAL/counters
at tag 3.7.26, ``mySetType``/``myGetType``): Delete, Clone, FreeRotator (``rotate;``), MovementMarkable
(``markmoved;``), Embellishment (``emb2;``: steps, statuses), ReportState, UsePrototype, Marker (``mark;``),
Restricted (``restrict;``), Obscurable (``obs;``, the mask) and Hideable (``hide;``, invisible). Outermost first:
the owner's Restricted Access, then the mask or invisibility (so the other side learns nothing through the
traits inside), the properties, the prototype, the BasicPiece.

Facing: FreeRotator's angle *i* is ``-i * 360 / n`` degrees, drawn with ``getRotateInstance(-angle)`` (radians,
y down): clockwise on the screen by ``i * 360 / n``. A counter is drawn
upright, its top on the hex's top (a flat hex's N side, a pointy hex's N vertex). Where the game's facings are a
hexside on a pointy grid, or a vertex on a flat one, the top is none of them: the rotator has 12 angles, every
other one a facing.
"""

import io

from PIL import Image, ImageDraw

from engine.exports import vassal_encoding as enc
from engine.exports.counters import facing_angle
from engine.render.styles import font

PROTOTYPE = "VASSAL.build.module.PrototypeDefinition"


def unit_types(doc, catalogue):
    """type id -> entry: the game's unit types and the scenario's own."""
    found = dict(catalogue.unit_types) if catalogue is not None else {}
    found.update({t["id"]: t for t in doc.data.get("unit_types") or [] if isinstance(t, dict) and "id" in t})
    return found


def steps_of(entry, catalogue):
    """How many step levels a unit of this type has: its ``steps`` (TOCS L207..), the two sides of a counter
    whose casualty points are [full, reduced] (OST 1.6), or full and half strength where the game has that status
    (Assault 13.1); 1 where it has none."""
    if isinstance(entry.get("steps"), int) and entry["steps"] > 1:
        return entry["steps"]
    if isinstance(entry.get("casualty_points"), list) and len(entry["casualty_points"]) > 1:
        return len(entry["casualty_points"])
    if catalogue is not None and "half-strength" in catalogue.statuses:
        return 2
    return 1


def rotations(orientation, facing_kind):
    """The rotator's angles: 6 where the counter's top is a facing, 12 where facings lie between."""
    top_is_side = orientation == "flat"
    return 6 if (facing_kind == "vertex") != top_is_side else 12


def angle_index(orientation, facing, count):
    """FreeRotator's state for a placement's facing (0: upright)."""
    angle = facing_angle(orientation, facing)
    if angle is None:
        return 0
    return round(((angle - 270) % 360) / (360 / count)) % count


def badge_png(text, size):
    """A see-through layer image: ``text`` on a white band across the counter's foot."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    band = max(8, size // 4)
    draw.rectangle([1, size - band - 1, size - 2, size - 2], fill=(255, 255, 255, 235), outline=(200, 0, 0, 255))
    f = font(max(6, band - 4), bold=True)
    while f.getlength(text) > size - 6 and f.size > 6:
        f = font(f.size - 1, bold=True)
    draw.text((size / 2, size - band / 2 - 1), text, fill=(200, 0, 0, 255), font=f, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def suffix(text):
    """A layer level's name that follows the piece's ("Rifle Squad (German) (Shaken)"): Embellishment.getName
    splits a level's name at ``+``, an empty first part meaning "the piece's name, then the second"."""
    return enc.sequence(["", f" ({enc.check_text(text, 'a status name')})"], "+")


def layer(name, levels, up, down):
    """An Embellishment (emb2) with one level per (image, level name), always active, level 1 at start."""
    images, names = [i for i, _ in levels], [n for _, n in levels]
    fields = ["", enc.CTRL, "", up, enc.CTRL, "", down, enc.CTRL, "", "", "", "1", False, 0, 0,
              enc.string_array(images), enc.string_array(names), False, name, "", "", False, "", 1, 1, True, "",
              enc.key(up[0]) if up else "", enc.key(down[0]) if down else "", name, 1.0, "", "true"]
    return "emb2;" + enc.sequence(fields, ";"), "1"


class Prototypes:
    """The PrototypesContainer: one prototype per unit type the scenario uses, and one for markers."""

    def __init__(self, root, files, size, orientation, facing_kind, catalogue):
        self.files, self.size, self.catalogue = files, size, catalogue
        self.orientation, self.facing_kind = orientation, facing_kind
        self.count = rotations(orientation, facing_kind)
        self.container = root.makeelement("VASSAL.build.module.PrototypesContainer", {})
        root.append(self.container)
        self.names = {}
        self._moved = None

    def moved_image(self):
        if self._moved is None:
            self._moved = "moved.png"
            self.files[f"images/{self._moved}"] = badge_png("moved", self.size)
        return self._moved

    def common(self, steps=1, statuses=()):
        """Delete, Clone, Rotate, Mark moved, the step and status layers, and a report of each."""
        traits = [("report;" + enc.sequence([enc.string_array([enc.key("D"), enc.key("C"), enc.key("M")]),
                                             "$PlayerSide$: $oldPieceName$ $menuCommand$ in $location$ *",
                                             "", "", "Report", False], ";"), "0")]
        if steps > 1:
            levels = [("", "")] + [(self.badge(f"-{n} step" + ("s" if n > 1 else ""), f"step-{n}.png"),
                                    suffix(f"-{n}")) for n in range(1, steps)]
            traits.append(layer("Steps", levels, "Restore a step", "Lose a step"))
        if statuses:
            levels = [("", "")] + [(self.badge(s["name"], f"status-{i}.png"), suffix(s["name"]))
                                   for i, s in enumerate(statuses, 1)]
            traits.append(layer("Status", levels, "Next status", "Previous status"))
        traits += [
            ("rotate;" + enc.sequence([self.count, enc.key("]"), enc.key("["), "Rotate clockwise",
                                       "Rotate counterclockwise", "", "", "Facing", "Facing", "", "", "", True],
                                      ";"), "0"),
            ("markmoved;" + enc.sequence([self.moved_image(), 0, 0, "Mark moved", enc.key("M"), "Mark moved",
                                          False, "Mark moved", "", "Mark not moved", ""], ";"), "false"),
            ("clone;" + enc.sequence(["Clone", enc.key("C"), "Clone"], ";"), ""),
            ("delete;" + enc.sequence(["Delete", enc.key("D"), "Delete"], ";"), ""),
        ]
        return traits

    def badge(self, text, name):
        if f"images/{name}" not in self.files:
            self.files[f"images/{name}"] = badge_png(text, self.size)
        return name

    def define(self, name, traits):
        piece_type, state = enc.decorate(traits, enc.basic_piece("", ""), enc.basic_state())
        element = self.container.makeelement(PROTOTYPE, {"name": name, "description": ""})
        element.text = enc.add_piece(None, piece_type, state)
        self.container.append(element)

    def for_type(self, type_id, entry):
        """The prototype's name for a unit type (made the first time it is asked for)."""
        if type_id not in self.names:
            name = enc.check_text(entry.get("name") or type_id or "Unit", "a unit type's name")
            name = name if name not in self.names.values() else f"{name} ({type_id})"
            statuses = list((self.catalogue.statuses if self.catalogue is not None else {}).values())
            self.define(name, self.common(steps_of(entry, self.catalogue), statuses))
            self.names[type_id] = name
        return self.names[type_id]

    def for_markers(self):
        if None not in self.names:
            self.define("Marker", self.common()[-2:])
            self.names[None] = "Marker"
        return "Marker"


def use_prototype(name):
    """UsePrototype by name, with no properties (VASSAL's editor writes ``prototype;NAME``: a properties part,
    even empty, would run the whole prototype through FormattedString, dropping its $...$ report formats)."""
    return "prototype;" + enc.sequence([name], ";"), ""


def properties(values):
    """A Marker trait: the piece's properties (Side, Type, OOB line, values), each key and value encoded."""
    keys = [enc.check_text(k, "a property's name") for k, _ in values]
    return "mark;" + enc.sequence(keys, ","), enc.sequence([enc.check_text(v, k) for k, v in values], ",")


def restricted(side_name):
    """Restricted Access: only the players of ``side_name`` (a roster side) use or move the piece."""
    return "restrict;" + enc.sequence([enc.string_array([side_name]), False, True, f"Owned by {side_name}"],
                                      ";"), ""


def masked(side_name, mask_image, mask_name):
    """Mask (obs;): the other sides see ``mask_image`` named ``mask_name``; its side sees through (access by
    side). Masked at start: ``obscuredBy`` is the owning side, which SpecifiedSideAccess grants its players."""
    fields = [enc.key("U"), mask_image, "Mask", "I", mask_name, f"sides:{enc.sequence([side_name], ':')}", "Peek",
              f"Hidden from all but {side_name}", True, "", ""]
    return "obs;" + enc.sequence(fields, ";"), enc.sequence([side_name, ""], ";")


def invisible(side_name):
    """Invisible (hide;): drawn only for ``side_name``'s players (see-through), for no one else."""
    fields = [enc.key("I"), "Hide", "", f"sides:{enc.sequence([side_name], ':')}", 0.3,
              f"Invisible to all but {side_name}", False]
    return "hide;" + enc.sequence(fields, ";"), side_name
