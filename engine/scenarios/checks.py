"""**Scenario checks** (docs/validation.md), per ruleset: is the scenario playable by its game's rules? No Django.

The scenario format (engine/scenarios/scenariofile.py) refuses what is malformed; these checks look at a scenario that
parsed and say what a player would trip over at the table: units outside their zone or the play area, stacks
over the limit, units on terrain they may not enter, reinforcements that never come, the miniatures activation
deck, TOCS perimeters... Each finding is a :class:`engine.mapfile.Finding` with a code, a severity (error or
warning), the JSON path, the hex when there is one, and a message a designer understands. The rules come from
each game's rulebook (named with its sections in docs/rulesets/<id>.md), by way of the "validation" section of
its digest; the rulebook's own section (or, where it numbers none, its line) is in each message.

What a unit is comes from its OOB line's ``type`` (engine/scenarios/unittypes.py): the game's catalogue of unit
types, or one the scenario declares, with its kind, stacking points or steps, echelon, barred terrain and whether
it may set up hidden. A unit's name is never read for its type; a line without a type is said to be unchecked.

What a terrain lets a unit do comes from the catalogue's movement data: "X" means the unit's class may not
enter; "road only" and "road or railroad only" allow it only where the hex also has a road (or railroad). Which
terrain is a road or a railroad is the catalogue's too (an entry's ``linear``), never guessed from its name.
"""

from dataclasses import dataclass, field

from engine import rulesets
from engine.mapfile import Finding
from engine.scenarios import scenariofile, unittypes, victory


def error(path, message, hex=None, code="invalid"):
    return Finding(path, message, hex, code, severity="error")


def warning(path, message, hex=None, code="warning"):
    return Finding(path, message, hex, code, severity="warning")


@dataclass
class Board:
    """What the checks need to know about the maps, worked out once: terrain per hex, the play area, edges."""

    doc: object
    catalogue: object
    cells: dict = field(default_factory=dict)  # map key -> {(col, row): Cell} (overlays laid)
    play: set = field(default_factory=set)  # hex refs inside the play area

    @classmethod
    def of(cls, doc):
        board = cls(doc, rulesets.get(doc.ruleset))
        for key, mdoc in doc.maps.items():
            board.cells[key] = mdoc.resolved()[0]
        area = doc.data["play_area"]
        for key, mdoc in doc.maps.items():
            grid = mdoc.grid
            if area is not None and key == _map_of(doc, area["corners"][0]):
                (_, c1, r1), (_, c2, r2) = (doc.resolve(c) for c in area["corners"])
                cols, rows = range(min(c1, c2), max(c1, c2) + 1), range(min(r1, r2), max(r1, r2) + 1)
                board.play.update(doc.ref(key, c, r) for c in cols for r in rows)
            elif area is None or key != doc.main_key:
                board.play.update(doc.ref(key, c, r) for c, r in grid.hexes())
        return board

    def terrain(self, ref):
        key, col, row = self.doc.resolve(ref)
        cell = self.cells[key].get((col, row)) or self.doc.maps[key].default_cell()
        return cell.terrain

    def on_edge(self, ref):
        """A hex of the play area with a neighbour outside it (or off the map)."""
        key, col, row = self.doc.resolve(ref)
        grid = self.doc.maps[key].grid
        if ref not in self.play:
            return False
        for side in range(6):
            n = grid.step(col, row, side)
            if not grid.contains(*n) or self.doc.ref(key, *n) not in self.play:
                return True
        return False

    def edge_hexes(self, edge):
        """The play-area hexes along one compass edge of the main map's play area."""
        doc = self.doc
        key = doc.main_key
        spots = [doc.resolve(r)[1:] for r in self.play if _map_of(doc, r) == key]
        if not spots:
            return set()
        cols = [c for c, _ in spots]
        rows = [r for _, r in spots]
        pick = {"N": lambda c, r: r == min(rows), "S": lambda c, r: r == max(rows),
                "W": lambda c, r: c == min(cols), "E": lambda c, r: c == max(cols)}[edge]
        return {doc.ref(key, c, r) for c, r in spots if pick(c, r)}

    def forbidden(self, ref, unit_class, markers=()):
        """The terrain (or marker) id in a hex that a unit of this class may not enter, or None.

        A unit set up in a hex stands at ground level and may have come along the hex's road or railroad: those
        are the conditions that hold for the catalogue's movement cases (docs/rulesets/catalogues.md)."""
        ids = list(self.terrain(ref)) + list(markers)
        conditions = self.catalogue.movement_conditions(ids)
        has_road, has_rail = "along-road" in conditions, "along-railroad" in conditions
        for tid in ids:
            entry = self.catalogue.terrain.get(tid)
            if entry is None:
                continue
            cost = movement_cost((entry.get("movement") or {}).get(unit_class), conditions)
            if not isinstance(cost, str):
                continue
            text = cost.strip().lower()
            if text == "x":
                return tid
            if text.endswith("only") and "road" in text:
                if not (has_road or ("railroad" in text and has_rail)):
                    return tid
        return None


def movement_cost(cost, conditions):
    """A movement cost as the catalogue gives it: a value, or a list of cases {"when": condition, "cost"} read
    in order, the first whose condition holds (or that has none) giving the cost; None when none applies."""
    if not isinstance(cost, list):
        return cost
    for case in cost:
        if isinstance(case, dict) and ("when" not in case or case["when"] in conditions):
            return case.get("cost")
    return None


def _map_of(doc, ref):
    key = ref.rpartition(":")[0]
    return key or doc.main_key


def check(doc):
    """Every finding about a parsed scenario: common checks, then its game's."""
    board = Board.of(doc)
    findings = common(doc, board)
    game = _game(doc)
    extra = GAME_CHECKS.get(game)
    if extra is not None:
        findings.extend(extra(doc, board))
    return findings


def _game(doc):
    """The built-in game whose checks apply: the ruleset's base (a built-in is its own base)."""
    return rulesets.get(doc.ruleset).base


def markers_at(doc):
    out = {}
    for m in doc.data["markers"]:
        out.setdefault(m["hex"], []).append(m["kind"])
    return out


def common(doc, board):
    data = doc.data
    found = []
    sides = data["sides"]
    if len(sides) < 2:
        found.append(error("sides", f"a scenario needs at least two sides; it has {len(sides)}", code="too-few-sides"))
    turns = data["turns"]["count"]
    marker_hexes = markers_at(doc)
    occupied = {}  # hex -> set of side ids
    for s, side in enumerate(sides):
        where = f"sides[{s}]"
        units = doc.units(side)
        zone = set(side["setup_zone"])
        for z in side["setup_zone"]:
            if z not in board.play:
                found.append(warning(f"{where}.setup_zone", f"setup zone hex {z} is outside the play area", z,
                                     code="zone-outside-play-area"))
        used = {uid: 0 for uid in units}
        for u, unit in enumerate(side["oob"]):
            if unit.get("type") is None:
                found.append(warning(f"{where}.oob[{u}].type", f"{_line(side, u)} has no unit type: its stacking "
                                     "and what its type allows are not checked", code="no-unit-type"))
        for p, placement in enumerate(side["placements"]):
            ref = placement["hex"]
            path = f"{where}.placements[{p}]"
            unit = units[placement["unit"]]
            used[unit["id"]] += 1
            occupied.setdefault(ref, set()).add(side["id"])
            if ref not in board.play:
                found.append(error(f"{path}.hex", f"{_unit_name(unit)} sets up in {ref}, outside the play area", ref,
                                   code="setup-outside-play-area"))
            elif zone and ref not in zone:
                found.append(error(f"{path}.hex", f"{_unit_name(unit)} sets up in {ref}, outside {side['name']}'s "
                                                  "setup zone", ref, code="setup-outside-zone"))
            bad = board.forbidden(ref, unit["class"], marker_hexes.get(ref, ()))
            if bad is not None:
                found.append(error(f"{path}.hex", f"{_unit_name(unit)} ({unit['class']}) may not enter {bad} "
                                                  f"terrain in {ref}", ref, code="forbidden-terrain"))
            kind = utype(doc, unit)
            barred = [t for t in (kind or {}).get("barred", ()) if t in board.terrain(ref)
                      or t in marker_hexes.get(ref, ())]
            if barred:
                found.append(error(f"{path}.hex", f"{_unit_name(unit)} ({kind['name']}) may not set up in {barred[0]} "
                                   f"({ref}; {kind.get('rule') or 'its unit type'})", ref, code="forbidden-terrain"))
        for r, reinforcement in enumerate(side["reinforcements"]):
            path = f"{where}.reinforcements[{r}]"
            turn = reinforcement["turn"]
            if turn is not None and not 1 <= turn <= turns:
                found.append(error(f"{path}.turn", f"reinforcements arrive on turn {turn}, but the game has turns 1 "
                                                   f"to {turns}", code="reinforcement-turn"))
            for ref in reinforcement["hexes"]:
                if not board.on_edge(ref):
                    found.append(error(f"{path}.hexes", f"entry hex {ref} is not on an edge of the play area", ref,
                                       code="entry-not-on-edge"))
            for group in reinforcement["units"]:
                used[group["unit"]] += group["count"]
        for u, unit in enumerate(side["oob"]):
            if used[unit["id"]] > unit["count"]:
                found.append(error(f"{where}.oob[{u}].count", f"{_unit_name(unit)}: {used[unit['id']]} placed or "
                                                              f"arriving, but the OOB has {unit['count']}",
                                   code="more-than-count"))
            elif used[unit["id"]] < unit["count"] and not zone:
                found.append(warning(f"{where}.oob[{u}]", f"{unit['count'] - used[unit['id']]} of "
                                                          f"{_unit_name(unit)} are neither placed nor arriving, and "
                                                          f"{side['name']} has no setup zone", code="unit-nowhere"))
    for ref, owners in sorted(occupied.items()):
        if len(owners) > 1:
            found.append(error("sides", f"units of {' and '.join(sorted(owners))} start in the same hex {ref}", ref,
                               code="both-sides-in-hex"))
    for o, objective in enumerate(data["objectives"]):
        if objective["hex"] not in board.play:
            found.append(error(f"objectives[{o}].hex", f"objective {objective['name'] or objective['id']} in "
                                                       f"{objective['hex']} is outside the play area",
                               objective["hex"], code="objective-outside-play-area"))
    for m, marker in enumerate(data["markers"]):
        if marker["hex"] not in board.play:
            found.append(error(f"markers[{m}].hex", f"{marker['kind']} marker in {marker['hex']} is outside the play "
                                                    "area", marker["hex"], code="marker-outside-play-area"))
    if sides and not any(side["victory"] for side in sides):
        found.append(error("sides", "no side has a victory condition", code="no-victory"))
    for s, side in enumerate(sides):
        for path, message in victory.zero_thresholds(side["victory"], f"sides[{s}].victory"):
            found.append(warning(path, message, code="zero-threshold"))
    return found


def _unit_name(unit):
    return f"{unit['unit']}{' (' + unit['name'] + ')' if unit['name'] else ''}"


def stacks(side, units):
    """hex -> [(placement index, unit)] for one side's placements."""
    out = {}
    for p, placement in enumerate(side["placements"]):
        out.setdefault(placement["hex"], []).append((p, units[placement["unit"]]))
    return out


def utype(doc, unit):
    """The unit type of an OOB line (the catalogue's or the scenario's own), or None when it names none."""
    return unittypes.of(doc, unit)


def kind_of(doc, unit):
    """The game's word for what the unit is (its type's kind), or None for a line without a type."""
    entry = utype(doc, unit)
    return entry["kind"] if entry is not None else None


def _points(entry):
    """A type's stacking points; a type that gives none counts as one unit."""
    return 1 if entry.get("stacking") is None else entry["stacking"]


def _line(side, index):
    """How a designer names an OOB line: "Rifle Squad (German OOB line 3)"."""
    return unittypes.line_label(side["oob"][index]["unit"], side["name"], index)


# -- Old School Tactical (its digest, section 9) -------------------------------------------------------------

def check_ost(doc, board):
    found = []
    for s, side in enumerate(doc.data["sides"]):
        where = f"sides[{s}]"
        fields = side["fields"]
        if "gut_check" not in fields or "impulse" not in fields:
            found.append(warning(f"{where}.fields", f"{side['name']} needs a gut check number and an impulse formula "
                                                    "such as GUT CHECK 7, IMPULSE PTS 2D6+3 (OST 3.1.6)",
                                 code="ost-side-numbers"))
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            typed = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
            leaders = sum(_points(t) for t in typed if t["kind"] == "leader")
            others = sum(_points(t) for t in typed if t["kind"] != "leader")
            # a vehicle transporting another unit counts as 1 unit (20.0.3): one unit of a kind it carries may ride
            riders = min(sum(1 for t in typed if t.get("carries")),
                         sum(1 for t in typed if any(t["kind"] in c.get("carries", ()) for c in typed)))
            p = stack[-1][0]
            if others - riders > 2 or leaders > 2:
                found.append(error(f"{where}.placements[{p}].hex", f"{others} units and {leaders} leaders "
                                   f"of {side['name']} in {ref}: at most 2 units and 2 leaders per hex (OST 20.0)",
                                   ref, code="stacking"))
            elif others > 2:
                found.append(warning(f"{where}.placements[{p}].hex", f"{others} units of {side['name']} in {ref}: "
                                     f"at most 2 per hex, unless {others - 2} of them ride in the vehicles there (a "
                                     "vehicle transporting a unit counts as 1 unit, OST 20.0.3)", ref,
                                     code="stacking"))
        for u, unit in enumerate(side["oob"]):
            if kind_of(doc, unit) == "sniper" and not unit["hidden"]:
                found.append(warning(f"{where}.oob[{u}].hidden", f"{_line(side, u)}: snipers start hidden unless the "
                                     "scenario says otherwise (OST 21.0)", code="ost-hidden"))
    counts = {}
    for m, marker in enumerate(doc.data["markers"]):
        ref, kind = marker["hex"], marker["kind"]
        if kind not in ("smoke", "smoke2", "wreck", "control"):
            counts[ref] = counts.get(ref, 0) + 1
            if counts[ref] == 2:
                found.append(error(f"markers[{m}]", f"more than one battlefield marker in {ref} (OST 13.0)", ref,
                                   code="ost-markers-per-hex"))
        if kind in ("bunker", "pillbox"):
            terrain = board.terrain(ref)
            bad = [t for t in terrain if "structure" in t or t in ("ruins", "stream")]
            if bad:
                found.append(error(f"markers[{m}]", f"a {kind} may not be placed in {bad[0]} ({ref}; 13.4.3, 13.5.3)",
                                   ref, code="ost-fortification-terrain"))
        if kind == "pillbox" and marker["facing"] is None:
            found.append(error(f"markers[{m}].facing", f"the pillbox in {ref} needs a facing hexside (13.5.8)", ref,
                               code="ost-pillbox-facing"))
        if kind in ("mines",) and marker["side"] is None:
            found.append(warning(f"markers[{m}].side", f"say which side the mines in {ref} belong to", ref,
                                 code="ost-mines-owner"))
    return found


# -- ATS (ats.md section 9) ----------------------------------------------------------------------------------

ATS_OVERSTACKING = ("overstacking is allowed, with its penalties: double the usual entry cost for all units in "
                    "the location, and the hex is easier to spot (ATS 5.1.1, 5.4.11, 5.4.12)")


def ats_stack(doc, stack):
    """(vehicles, heavy weapons, personnel stacking points) of one side's stack, by the units' types: vehicles and
    Heavy weapons one of each per hex (5.2.1); Personnel by their Stacking Points (5.3.1), leaving out one crew
    for each Heavy weapon, which mans it (5.3.11); L and M weapons count nothing (5.3.21). Untyped units are left
    out (a finding says so)."""
    types = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
    vehicles = sum(1 for t in types if t["kind"] == "vehicle")
    heavy = sum(1 for t in types if t["kind"] == "heavy-weapon")
    manning = heavy
    points = 0
    for t in types:
        if t["kind"] in ("vehicle", "heavy-weapon"):
            continue
        if t["kind"] == "crew" and manning:
            manning -= 1
            continue
        points += t.get("stacking") or 0
    return vehicles, heavy, points


def check_ats(doc, board):
    found = []
    data = doc.data
    rules = data["rules"]
    if not rules.get("setup_order") and data["sets_up_first"] is None:
        found.append(warning("rules.setup_order", "no set-up order: the players roll for Initiative and the low "
                                                   "roll chooses (3.5.3)", code="ats-setup-order"))
    for o, overlay in enumerate(rules.get("overlays") or []):
        a, b = doc.resolve(overlay["x"]), doc.resolve(overlay["y"])
        grid = doc.maps[a[0]].grid
        if a[0] != b[0] or grid.distance(a[1:], b[1:]) != 1:
            found.append(error(f"rules.overlays[{o}]", f"overlay {overlay['id']}: X ({overlay['x']}) and Y "
                                                       f"({overlay['y']}) must be adjacent hexes (ATS 3.3.1)",
                               overlay["x"], code="ats-overlay-xy"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            vehicles, heavy, sp = ats_stack(doc, stack)
            p = stack[-1][0]
            path = f"{where}.placements[{p}].hex"
            for count, what in ((vehicles, "vehicles"), (heavy, "Heavy weapons")):
                if count > 1:
                    found.append(warning(path, f"{count} {what} of {side['name']} in {ref}, over the limit of one "
                                 f"per hex (ATS 5.2.1): {ATS_OVERSTACKING}", ref, code="overstacking"))
            if sp > 12:
                found.append(warning(path, f"{sp} Stacking Points of Personnel of {side['name']} in {ref}, over the "
                                           f"limit of 12 (ATS 5.3.1): {ATS_OVERSTACKING}", ref, code="overstacking"))
        pending = sum(u["count"] for u in side["oob"]) - len(side["placements"]) - sum(
            g["count"] for r in side["reinforcements"] for g in r["units"])
        if pending > 0 and not side["setup_zone"]:
            found.append(error(f"{where}.setup_zone", f"{side['name']} has units to set up but an empty set-up area "
                                                       "(ATS 3.5.4)", code="ats-empty-zone"))
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            if unit["hidden"] and kind is not None and not kind.get("hidden"):
                found.append(warning(f"{where}.oob[{u}].hidden", f"{_line(side, u)} sets up hidden: only Heavy "
                                     "weapons and their manning crews may, unless a special rule allows it (ATS 6.8.1)",
                                     code="ats-hidden"))
    return found


# -- Assault: Sicily '43 (assault-sicily.md section 9) --------------------------------------------------------

def check_assault(doc, board):
    found = []
    data = doc.data
    objectives = {o["hex"]: o for o in data["objectives"]}
    for o, objective in enumerate(data["objectives"]):
        for side in data["sides"]:
            if objective["hex"] in side["setup_zone"] and objective["owner"] != side["id"]:
                found.append(error(f"objectives[{o}].owner", f"{objective['name'] or objective['id']} lies in "
                                   f"{side['name']}'s setup area, so {side['name']} controls it first (Assault 5.5)",
                                   objective["hex"], code="assault-objective-owner"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        if not side["victory"]:
            found.append(error(f"{where}.victory", f"{side['name']} has no victory condition; both factions need "
                                                   "them (Assault 3.1)", code="assault-victory"))
        for ref, stack in stacks(side, units).items():
            types = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
            carried = {k for t in types for k in t.get("carries", ())}
            counted = sum(_points(t) for t in types if not (carried and t["kind"] in carried))
            if counted > 1:
                found.append(error(f"{where}.placements[{stack[1][0]}].hex", f"{counted} units in {ref}: one unit "
                                   "per hex, transported units apart (Assault 5.8)", ref, code="stacking"))
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            ref = placement["hex"]
            if unit["class"] in ("artillery", "wheeled", "tracked") and placement["facing"] is None:
                found.append(error(f"{where}.placements[{p}].facing", f"{_unit_name(unit)} in {ref} needs a facing "
                                   "vertex, 0 to 5: vehicles always face a hex vertex (Assault 9.9)", ref,
                                   code="assault-facing"))
            if unit["class"] == "infantry" and placement["facing"] is not None:
                found.append(warning(f"{where}.placements[{p}].facing",
                                     f"infantry have no facing ({ref}; Assault 9.9)", ref, code="assault-facing"))
            if unit["class"] == "wheeled" and ref in objectives:
                found.append(error(f"{where}.placements[{p}].hex", f"unarmoured vehicles may not be placed on an "
                                   f"objective ({ref}; Assault 9.6)", ref, code="assault-vehicle-objective"))
        fields = side["fields"]
        formations = fields.get("formations") or {}
        available = {}
        for unit in side["oob"]:
            if unit.get("deck") and unit["formation"]:
                available.setdefault(unit["deck"], set()).add(unit["formation"])
        for deck, n in formations.items():
            have = len(available.get(deck, ()))
            need = 2 * n if fields.get("selection") == "draw-and-choose" else n
            if have < need:
                found.append(warning(f"{where}.fields.formations.{deck}", f"{side['name']} takes {n} {deck} "
                                     f"formation{'s' if n != 1 else ''}{' by draw and choose' * (need > n)}, which "
                                     f"needs {need} formation cards; its OOB has {have} (Assault 5.6)",
                                     code="assault-formations"))
        ta = fields.get("ta_oas")
        if ta is not None and ta > 5:
            found.append(error(f"{where}.fields.ta_oas", f"at most 5 TA/OAS cards per player, not {ta} (Assault 12.2)",
                               code="assault-ta-oas"))
        elif ta is not None and formations and ta > sum(formations.values()):
            found.append(warning(f"{where}.fields.ta_oas", f"{ta} TA/OAS cards is more than the "
                                 f"{sum(formations.values())} starting formations (Assault 4.9.3)",
                                 code="assault-ta-oas"))
    smoke = sum(1 for m in data["markers"] if m["kind"] == "smoke")
    mines = [m for m in data["markers"] if m["kind"].startswith("minefield")]
    if mines and not data["rules"].get("minefields"):
        found.append(error("markers", "minefields are placed but the scenario does not enable them (Assault 9.5.9)",
                           mines[0]["hex"], code="assault-minefields"))
    real = sum(1 for m in mines if m["kind"] != "minefield-dummy")
    dummies = len(mines) - real
    if real != dummies:
        found.append(warning("markers", f"{real} real minefields and {dummies} dummies: they come in equal numbers "
                                        "(Assault 9.5.9.1)", code="assault-mine-dummies"))
    if smoke > 30:
        found.append(warning("markers", f"{smoke} smoke markers; the game's counter mix has 30", code="assault-pool"))
    return found


# -- miniatures (miniatures-qrs.md sections 2 and 11) --------------------------------------------------------

def deck_cards(side):
    """The side's activation cards by the QRS formula (QRS L7, L317): platoons with their own card (P), local FOOs
    (F), elite platoon commanders (E) and company commanders (C). Attached elements, snipers and divisional
    FOOs get none; a Soviet tank company fielded as a single unit is one platoon, so one card."""
    platoons, foos, elite, company = set(), 0, 0, 0
    for unit in side["oob"]:
        element = unit.get("element") or ("platoon" if unit["formation"] else None)
        if element == "platoon" and unit["formation"] and not unit.get("attached"):
            platoons.add(unit["formation"])
            if unit["leader"] and unit.get("commander") == "elite":
                elite += unit["count"]
        elif element == "local-foo":
            foos += unit["count"]
        elif element == "company-commander":
            company += unit["count"]
    return {"platoons": len(platoons), "foos": foos, "elite_commanders": elite, "company_commanders": company,
            "total": len(platoons) + foos + elite + company}


def check_miniatures(doc, board):
    found = []
    data = doc.data
    ipx = scenariofile.inches_per_hex(doc)
    if ipx is not None and ipx < 1.25:
        found.append(warning("rules.inches_per_hex", f"{ipx}\" per hex is smaller than a 3-figure base (1.25\"); "
                                                     "the map's scale may be wrong (QRS L375)",
                                 code="miniatures-scale"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        cards = deck_cards(side)
        given = side["fields"].get("deck")
        formula = (f"{cards['platoons']} platoons + {cards['foos']} local FOO + {cards['elite_commanders']} elite "
                   f"platoon commanders + {cards['company_commanders']} company commanders = {cards['total']}")
        if given is None:
            found.append(warning(f"{where}.fields.deck", f"{side['name']}'s activation cards are not given; the "
                                 f"formula gives {formula} (QRS L7)", code="miniatures-deck"))
        elif given != cards["total"]:
            found.append(error(f"{where}.fields.deck", f"{side['name']} has {given} activation cards, but the "
                               f"formula gives {formula} (QRS L7, L317)", code="miniatures-deck"))
        by_formation = {}
        for unit in side["oob"]:
            if unit.get("element") == "platoon" and unit["formation"]:
                by_formation.setdefault(unit["formation"], []).append(unit)
        for name, members in by_formation.items():
            infantry = any(u["class"] == "infantry" for u in members)
            if infantry and not any(u["leader"] for u in members):
                found.append(warning(f"{where}.oob", f"{name} has no officer element; every platoon template has one "
                                                     "(QRS L383-387)", code="miniatures-officer"))
            kinds = {kind_of(doc, u) for u in members}
            if "truck" in kinds and "half-track" in kinds:
                found.append(error(f"{where}.oob", f"{name} mixes trucks and half-tracks (QRS L388)",
                                   code="miniatures-attachments"))
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            hosts = set((kind or {}).get("attaches_to", ()))
            if not hosts:
                continue
            mates = [m for m in side["oob"] if m is not unit and unit["formation"]
                     and m["formation"] == unit["formation"]]
            if not any(kind_of(doc, m) in hosts for m in mates):
                found.append(error(f"{where}.oob[{u}].formation", f"{_line(side, u)} is a {kind['name']}, which is "
                                   f"attached to a platoon of {' or '.join(sorted(hosts))}; "
                                   + (f"{unit['formation']} has none" if unit["formation"] else "it names no platoon")
                                   + f" ({kind.get('rule') or 'its unit type'})", code="miniatures-attachments"))
        enemies = [(e, t) for t, other in enumerate(data["sides"]) if other is not side
                   for e in [p["hex"] for p in other["placements"]] + other["setup_zone"]]
        units = doc.units(side)
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            if unit.get("element") != "sniper" and kind_of(doc, unit) != "sniper":
                continue
            key, col, row = doc.resolve(placement["hex"])
            grid = doc.maps[key].grid
            for ref, _ in enemies:
                ekey, ecol, erow = doc.resolve(ref)
                if ekey == key and grid.distance((col, row), (ecol, erow)) * ipx <= 8:
                    found.append(error(f"{where}.placements[{p}].hex", f"the sniper in {placement['hex']} is within "
                                       f"8\" of the enemy at {ref} ({grid.distance((col, row), (ecol, erow))} hexes of "
                                       f"{ipx}\"); snipers are placed more than 8\" away (QRS L333)", placement["hex"],
                                       code="miniatures-sniper"))
                    break
    return found


# -- TOCS (tocs.md section 12) -------------------------------------------------------------------------------

TOCS_COMBAT = ("company", "vehicle-platoon", "battery")  # four of these, and four assets, per hex (TOCS L169)


def check_tocs(doc, board):
    found = []
    data = doc.data
    perimeter = data["perimeter"]
    owner = {}
    if perimeter is None:
        found.append(error("perimeter", "the initial perimeter is missing: give the owner of every hex (TOCS L31)",
                           code="tocs-perimeter"))
    else:
        for sid, hexes in perimeter.items():
            for ref in hexes:
                owner[ref] = sid
        unowned = [ref for ref in sorted(board.play) if ref not in owner]
        if unowned:
            found.append(warning("perimeter", f"{len(unowned)} hexes belong to nobody (e.g. {', '.join(unowned[:5])}): "
                                              "only a meeting engagement has a no man's land (TOCS L35)", unowned[0],
                                 code="tocs-no-mans-land"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            ref = placement["hex"]
            if perimeter is not None and owner.get(ref) != side["id"]:
                held = owner.get(ref)
                kind = kind_of(doc, unit)
                severity = error if held is not None else warning
                what = f"owned by {held}" if held else "in no man's land"
                found.append(severity(f"{where}.placements[{p}].hex", f"{_unit_name(unit)} sets up in {ref}, {what}, "
                                      f"outside {side['name']}'s perimeter (TOCS L31)"
                                      + ("; batteries never enter the enemy perimeter" if kind == "battery" else ""),
                                      ref, code="tocs-outside-perimeter"))
        for ref, stack in stacks(side, units).items():
            big = [u for _, u in stack if kind_of(doc, u) in TOCS_COMBAT]
            assets = [u for _, u in stack if kind_of(doc, u) == "asset"]
            if len(big) > 4 or len(assets) > 4:
                found.append(error(f"{where}.placements[{stack[-1][0]}].hex", f"{len(big)} companies, platoons and "
                                   f"batteries and {len(assets)} assets in {ref}: at most 4 of each (TOCS L169)", ref,
                                   code="stacking"))
        ids = {u["id"]: u for u in side["oob"]}
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            most = kind.get("steps") if kind is not None else None
            if unit.get("steps") is not None and most is not None and unit["steps"] > most:
                found.append(error(f"{where}.oob[{u}].steps", f"{_line(side, u)} has {unit['steps']} steps; a "
                                   f"{kind['name']} takes at most {most} ({kind.get('rule') or 'its unit type'})",
                                   code="tocs-steps"))
            said = unit.get("echelon")
            if kind is not None and kind.get("echelon") and said and said != kind["echelon"]:
                found.append(warning(f"{where}.oob[{u}].echelon", f"{_line(side, u)} is a {kind['name']}, of echelon "
                                     f"{kind['echelon']}, but its line says {said}: the type's echelon is used "
                                     "(TOCS L187)", code="tocs-echelon"))
            parent = unit.get("parent")
            if parent is None:
                continue
            if parent not in ids or kind_of(doc, ids[parent]) != "hq":
                found.append(error(f"{where}.oob[{u}].parent", f"{_line(side, u)} reports to {parent!r}, which "
                                   f"is not an HQ of {side['name']} (TOCS L187)", code="tocs-hq-tree"))
                continue
            low, high = tocs_echelon(doc, unit), tocs_echelon(doc, ids[parent])
            if kind is not None and kind["kind"] == "hq" and low is not None and high is not None and low >= high:
                found.append(error(f"{where}.oob[{u}].parent", f"{_line(side, u)} reports to "
                                   f"{_unit_name(ids[parent])}, which is not of a higher echelon: the chain of "
                                   "command runs Army Group, Army, Corps, Division, Brigade/Regiment, Battalion "
                                   "(TOCS L187)", code="tocs-hq-tree"))
            seen, at = {unit["id"]}, parent
            while at is not None and at in ids:
                if at in seen:
                    found.append(error(f"{where}.oob[{u}].parent", f"the HQ chain of {_line(side, u)} "
                                       "loops back on itself (TOCS L187)", code="tocs-hq-tree"))
                    break
                seen.add(at)
                at = ids[at].get("parent")
        if side["fields"].get("op_minimum") is None:
            found.append(warning(f"{where}.fields.op_minimum", f"{side['name']} needs a minimum OP value (TOCS L85)",
                                 code="tocs-side"))
        if not side["brief"]["mission"] or not side["brief"]["intelligence"]:
            found.append(warning(f"{where}.brief", f"{side['name']}'s secret brief needs its mission and intelligence "
                                                   "report (TOCS L57)", code="tocs-brief"))
    return found


def tocs_echelon(doc, unit):
    """An HQ's place in the chain of command (0 for the lowest echelon), from its type's echelon, else the OOB
    line's own ``echelon``; None when neither names one of the game's echelons. Brigade and regiment stand level
    (TOCS L187: "Brigade/Regiment")."""
    echelons = rulesets.get(doc.ruleset).echelons
    entry = utype(doc, unit)
    name = (entry or {}).get("echelon") or unit.get("echelon")
    if name not in echelons:
        return None
    rank = echelons.index(name)
    if name == "brigade" and "regiment" in echelons:
        rank = echelons.index("regiment")
    return rank


GAME_CHECKS = {"ost": check_ost, "ats": check_ats, "assault": check_assault, "miniatures": check_miniatures,
               "tocs": check_tocs}


# -- what the card and the editor show -------------------------------------------------------------------------

def summary(doc):
    """Per side: units, placed and arriving; OST casualty points; Assault points; the miniatures deck; and for
    miniatures the inches per hex."""
    out = {"sides": {}}
    game = _game(doc)
    for side in doc.data["sides"]:
        units = sum(u["count"] for u in side["oob"])
        entry = {"units": units, "placed": len(side["placements"]),
                 "arriving": sum(g["count"] for r in side["reinforcements"] for g in r["units"]),
                 "setup_hexes": len(side["setup_zone"])}
        if game == "ost":
            entry["casualty_points"] = sum(u["count"] * (u.get("casualty_points") or 0) for u in side["oob"])
        if game == "assault":
            entry["points"] = sum(u["count"] * (u.get("points") or 0) for u in side["oob"])
        if game == "miniatures":
            entry["deck"] = deck_cards(side)
        out["sides"][side["id"]] = entry
    if game == "miniatures":
        out["inches_per_hex"] = scenariofile.inches_per_hex(doc)
        out["deck_size"] = sum(s["deck"]["total"] for s in out["sides"].values())
    return out
