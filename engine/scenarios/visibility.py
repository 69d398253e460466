"""Who may read what of a scenario: the document as a reader holding some of its sides may see it.

The owner holds every side (ALL) and reads the document whole. Anyone else holds the sides whose links they
have (docs/scenarios.md, "Who may read what"), and reads ``view(data, sides)``: the public part, and the private
part of those sides only. A side's private part is, in every game, its brief and its OOB lines marked ``hidden``
with their placements and arrivals; and what its game's catalogue says in its scenario section's ``hidden``
(engine/games/<game>/catalogue.json), never guessed from names:

- ``oob``: OOB fields that, when true, make a line that side's own (ATS ``dummy``: dummies set up FOW side up);
- ``markers``: marker kinds that are their side's own (OST mines, Assault's real and dummy minefields, TOCS
  roadblocks and minefields); a hidden marker of no side is the owner's alone;
- ``double_blind``: every part of a side is its own (TOCS: OOB, setup zone, placements, reinforcements, its
  fields, its markers); the perimeter, objectives and special rules stay public;
- ``victory``: the sides' victory conditions are secret, and so is an objective's VP to a reader whose side's
  condition does not name it;
- ``forces_public``: the card lists every force, hidden ones without their hexes (OST 3.1.4 with 21.0.1, ATS
  3.5.2: a dummy by its FOW side): a withheld line's public face (``public_face``) stays in ``withheld[side]
  ["listed"]``, its placements, arrivals and notes withheld.

The view is still a canonical document the card, the checks, the sight lines and the editor read: a withheld
list is emptied, a withheld condition is None, a brief's texts are empty, and ``extensions["withheld"]`` says,
per side, what was taken out, so that a page can say "hidden from you".
"""

import copy

from engine import rulesets

ALL = "all"
WITHHELD = "withheld"


def hidden_rules(ruleset):
    """The catalogue's scenario ``hidden`` section of a game ({} for a game without one or an unknown id)."""
    try:
        return dict(rulesets.get(ruleset).scenario.get("hidden") or {})
    except (KeyError, AttributeError):
        return {}


def holds(sides, side_id):
    return sides == ALL or side_id in sides


def covers(reader, wanted):
    """Whether a reader holding ``reader`` may read what was made for ``wanted`` (each ALL or a list of side ids)."""
    if reader == ALL:
        return True
    return wanted != ALL and set(wanted) <= set(reader)


def as_parameter(sides):
    """The sides as a job parameter: "all", or the sorted list of side ids."""
    return ALL if sides == ALL else sorted(sides)


def is_private_unit(unit, rules):
    return bool(unit.get("hidden")) or any(unit.get(flag) is True for flag in rules.get("oob") or ())


def _objectives_named(condition):
    if not isinstance(condition, dict):
        return set()
    named = set(condition.get("objectives") or ())
    for part in condition.get("conditions") or ():
        named |= _objectives_named(part)
    return named


def view(data, sides, current=None):
    """The canonical document ``data`` as a reader holding ``sides`` (ALL, or a set of side ids) may see it; a
    new document (``data`` is not changed). ALL: the document itself, copied.

    ``current``: for an earlier revision, the scenario's current document; an OOB line private in it is left
    out of the revision too (a unit made hidden later is not read back from the history)."""
    out = copy.deepcopy(data)
    if sides == ALL:
        return out
    sides = set(sides)
    rules = hidden_rules(data.get("ruleset"))
    private_now = {}
    for side in (current or {}).get("sides") or []:
        private_now[side.get("id")] = {u.get("id") for u in side.get("oob") or [] if is_private_unit(u, rules)}
    # a view of a view keeps what the first withheld (a hidden line's public face the card lists)
    withheld = copy.deepcopy((out.get("extensions") or {}).get(WITHHELD) or {})
    for side in out.get("sides") or []:
        if side.get("id") in sides:
            continue
        gone = _withhold_side(side, rules, private_now.get(side.get("id"), set()))
        if gone:
            earlier = withheld.get(side["id"]) or {}
            if earlier.get("listed") and not gone.get("listed"):
                gone["listed"] = earlier["listed"]
                gone["units"] = gone.get("units", 0) + earlier.get("units", 0)
            withheld[side["id"]] = {**earlier, **gone}
    _withhold_markers(out, sides, rules, withheld)
    if rules.get("victory", False):
        _withhold_objective_vp(out, sides, withheld)
    if withheld:
        out["extensions"] = {**(out.get("extensions") or {}), WITHHELD: withheld}
    return out


def _withhold_side(side, rules, later):
    """Blank what a side the reader does not hold keeps from them, in place; what was withheld, for the card.
    ``later``: the side's units private in the current document (for an earlier revision)."""
    double_blind = rules.get("double_blind", False)
    gone = {}
    if any((side.get("brief") or {}).values()):
        side["brief"], gone["brief"] = {key: "" for key in side["brief"]}, True
    if rules.get("victory", False) and side.get("victory"):
        side["victory"], gone["victory"] = None, True
    oob = side.get("oob") or []
    private = {u["id"] for u in oob if double_blind or is_private_unit(u, rules) or u["id"] in later}
    if private:
        gone["units"] = sum(u.get("count") or 1 for u in oob if u["id"] in private)
        if rules.get("forces_public") and not double_blind:
            gone["listed"] = [public_face(u, rules) for u in oob if u["id"] in private]
        side["oob"] = [u for u in oob if u["id"] not in private]
        side["placements"] = [pl for pl in side.get("placements") or [] if pl.get("unit") not in private]
        arrivals = []
        for arrival in side.get("reinforcements") or []:
            units = [g for g in arrival.get("units") or [] if g.get("unit") not in private]
            if units:
                arrivals.append({**arrival, "units": units})
        side["reinforcements"] = arrivals
    if double_blind:
        if side.get("setup_zone"):
            side["setup_zone"], gone["setup_zone"] = [], True
        if side.get("fields"):
            side["fields"], gone["fields"] = {}, True
    return gone


# What of a hidden OOB line a public card prints (forces_public): what it is and how many, never where, its
# notes or its own name (a leader's name, a designer's label: the side's, as every earlier reader was told).
PUBLIC_FACE = ("unit", "count", "type", "class", "quality", "leader", "weapons", "formation",
               "casualty_points", "vp", "points", "steps")


def public_face(unit, rules):
    """A hidden line as the other side may know it: a dummy by its FOW side only (ATS 3.5.2: "that side sets up
    with that many dummies, of the specified type"), a hidden unit by what it is and how many (OST 3.1.4)."""
    if any(unit.get(flag) is True for flag in rules.get("oob") or ()):
        return {"unit": unit.get("unit"), "count": unit.get("count") or 1, "type": unit.get("type"), "dummy": True}
    return {key: copy.deepcopy(unit[key]) for key in PUBLIC_FACE if key in unit} | {"hidden": True}


def _withhold_markers(out, sides, rules, withheld):
    """Leave out the markers the reader's sides may not see, counting them per side in ``withheld``."""
    hidden_markers, double_blind = set(rules.get("markers") or ()), rules.get("double_blind", False)
    markers, kept = out.get("markers") or [], []
    for marker in markers:
        if _private_marker(marker, sides, hidden_markers, double_blind):
            entry = withheld.setdefault(marker.get("side") or "", {})
            entry["markers"] = entry.get("markers", 0) + 1
        else:
            kept.append(marker)
    if markers:
        out["markers"] = kept


def _withhold_objective_vp(out, sides, withheld):
    """Secret victory: an objective's VP shows only where a condition of the reader's own sides names it."""
    named = set()
    for side in out.get("sides") or []:
        if side.get("id") in sides:
            named |= _objectives_named(side.get("victory"))
    for objective in out.get("objectives") or []:
        if objective.get("vp") is not None and objective.get("id") not in named:
            objective["vp"] = None
            withheld.setdefault("", {})["objective_vp"] = True


def _private_marker(marker, sides, hidden_kinds, double_blind):
    side = marker.get("side")
    if side and side in sides:
        return False
    return marker.get("kind") in hidden_kinds or (double_blind and bool(side))



def withheld_paths(viewed):
    """The paths of a view's withheld parts ("sides[1].brief", ...; "sides" when a victory condition is): the
    checks' findings there speak of what the reader was not given, not of the scenario, and are left out."""
    withheld = (viewed.get("extensions") or {}).get(WITHHELD) or {}
    paths = []
    for index, side in enumerate(viewed.get("sides") or []):
        gone = withheld.get(side.get("id")) or {}
        paths += [f"sides[{index}].{key}" for key in ("brief", "victory", "setup_zone", "fields") if gone.get(key)]
        if gone.get("units") and not side.get("oob"):
            paths.append(f"sides[{index}].oob")  # every unit withheld: "has no units" is about the reader's view
        if gone.get("victory"):
            paths.append("sides")
    return paths


def about_withheld(path, paths):
    return any(path == p or (p != "sides" and path.startswith((p + ".", p + "["))) for p in paths)
