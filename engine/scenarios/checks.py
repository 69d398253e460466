"""**Scenario checks** (docs/validation.md), per ruleset: is the scenario playable by its game's rules? No Django.

The scenario format (engine/scenarios/scenariofile.py) refuses what is malformed; these checks look at a scenario that
parsed and say what a player would trip over at the table: units outside their zone or the play area, stacks
over the limit, units on terrain they may not enter, reinforcements that never come, the miniatures activation
deck, TOCS perimeters... Each finding is a :class:`engine.mapfile.Finding` with a code, a severity (error or
warning), the JSON path, the hex when there is one, and a message a designer understands. The rules come from
each game's rulebook (named with its sections in docs/rulesets/<id>.md), by way of the "validation" section of
its digest; the rule numbers are in the messages.

What a terrain lets a unit do comes from the catalogue's movement data: "X" means the unit's class may not
enter; "road only" and "road or railroad only" allow it only where the hex also has a road (or railroad). Which
terrain is a road or a railroad is the catalogue's too (an entry's ``linear``), never guessed from its name.
"""

from dataclasses import dataclass, field

from engine import rulesets
from engine.mapfile import Finding
from engine.scenarios import scenariofile, victory


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


def _is(unit, *words):
    text = f"{unit['unit']} {unit['name']}".lower()
    return any(w in text for w in words)


# -- Old School Tactical (its digest, section 9) -------------------------------------------------------------

def check_ost(doc, board):
    found = []
    for s, side in enumerate(doc.data["sides"]):
        where = f"sides[{s}]"
        fields = side["fields"]
        if "gut_check" not in fields or "impulse" not in fields:
            found.append(warning(f"{where}.fields", f"{side['name']} needs a gut check number and an impulse formula "
                                                    "such as GUT CHECK 7, IMPULSE PTS 2D6+3 (3.1.6, V22)",
                                 code="ost-side-numbers"))
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            leaders = [u for _, u in stack if u["leader"]]
            others = [u for _, u in stack if not u["leader"] and not _is(u, "sniper", "wreck")]
            if len(others) > 2 or len(leaders) > 2:
                p = stack[-1][0]
                found.append(error(f"{where}.placements[{p}].hex", f"{len(others)} units and {len(leaders)} leaders "
                                   f"of {side['name']} in {ref}: at most 2 units and 2 leaders per hex (V12, 20.0)",
                                   ref, code="stacking"))
        for u, unit in enumerate(side["oob"]):
            if _is(unit, "sniper") and not unit["hidden"]:
                found.append(warning(f"{where}.oob[{u}].hidden", "snipers set up hidden unless the scenario says "
                                                                  "otherwise (21.0, V24)", code="ost-hidden"))
    counts = {}
    for m, marker in enumerate(doc.data["markers"]):
        ref, kind = marker["hex"], marker["kind"]
        if kind not in ("smoke", "smoke2", "wreck", "control"):
            counts[ref] = counts.get(ref, 0) + 1
            if counts[ref] == 2:
                found.append(error(f"markers[{m}]", f"more than one battlefield marker in {ref} (13.0, V13)", ref,
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

def ats_stacking_points(unit):
    """Personnel stacking points (ATS 5): squad 3, crew or reduced squad 2, leader/FO/BAR/commissar 1; weapons
    (L and M) are free. Vehicles are counted apart."""
    if unit["leader"] or _is(unit, "leader", "commissar", "fo ", "forward observer", "bar"):
        return 1
    if _is(unit, "crew", "reduced", "half-squad"):
        return 2
    if _is(unit, "squad", "section", "team"):
        return 3
    return 0


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
                                                       f"({overlay['y']}) must be adjacent hexes (3.3.1, V10)",
                               overlay["x"], code="ats-overlay-xy"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            vehicles = [u for _, u in stack if u["class"] != "personnel"]
            sp = sum(ats_stacking_points(u) for _, u in stack if u["class"] == "personnel")
            p = stack[-1][0]
            if len(vehicles) > 1:
                found.append(error(f"{where}.placements[{p}].hex", f"{len(vehicles)} vehicles of {side['name']} in "
                                   f"{ref}: at most 1 vehicle per location (5)", ref, code="stacking"))
            if sp > 12:
                found.append(error(f"{where}.placements[{p}].hex", f"{sp} stacking points of personnel in {ref}: at "
                                   "most 12 (5)", ref, code="stacking"))
        pending = sum(u["count"] for u in side["oob"]) - len(side["placements"]) - sum(
            g["count"] for r in side["reinforcements"] for g in r["units"])
        if pending > 0 and not side["setup_zone"]:
            found.append(error(f"{where}.setup_zone", f"{side['name']} has units to set up but an empty set-up area "
                                                       "(V18)", code="ats-empty-zone"))
        for u, unit in enumerate(side["oob"]):
            if unit["hidden"] and not _is(unit, "atg", "gun", "crew", "pounder", "mortar", "pak", "hmg"):
                found.append(warning(f"{where}.oob[{u}].hidden", f"{_unit_name(unit)} sets up hidden: only H weapons "
                                     "and their crews may, unless a special rule allows it (6.8.1)",
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
                                   f"{side['name']}'s setup area, so {side['name']} controls it first (5.5, V23)",
                                   objective["hex"], code="assault-objective-owner"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        if not side["victory"]:
            found.append(error(f"{where}.victory", f"{side['name']} has no victory condition; both factions need "
                                                   "them (3.1, V32)", code="assault-victory"))
        for ref, stack in stacks(side, units).items():
            if len(stack) > 1:
                found.append(error(f"{where}.placements[{stack[1][0]}].hex", f"{len(stack)} units in {ref}: one unit "
                                   "per hex at setup (V17)", ref, code="stacking"))
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            ref = placement["hex"]
            if unit["class"] in ("artillery", "wheeled", "tracked") and placement["facing"] is None:
                found.append(error(f"{where}.placements[{p}].facing", f"{_unit_name(unit)} in {ref} needs a facing "
                                   "vertex, 0 to 5 (V21)", ref, code="assault-facing"))
            if unit["class"] == "infantry" and placement["facing"] is not None:
                found.append(warning(f"{where}.placements[{p}].facing", f"infantry have no facing ({ref}; V21)", ref,
                                     code="assault-facing"))
            if unit["class"] == "wheeled" and ref in objectives:
                found.append(error(f"{where}.placements[{p}].hex", f"unarmoured vehicles may not be placed on an "
                                   f"objective ({ref}; 9.6, V22)", ref, code="assault-vehicle-objective"))
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
                                     f"needs {need} formation cards; its OOB has {have} (5.6, V29-V30)",
                                     code="assault-formations"))
        ta = fields.get("ta_oas")
        if ta is not None and ta > 5:
            found.append(error(f"{where}.fields.ta_oas", f"at most 5 TA/OAS cards per player, not {ta} (12.2, V31)",
                               code="assault-ta-oas"))
        elif ta is not None and formations and ta > sum(formations.values()):
            found.append(warning(f"{where}.fields.ta_oas", f"{ta} TA/OAS cards is more than the "
                                 f"{sum(formations.values())} starting formations (4.9.3, V31)", code="assault-ta-oas"))
    smoke = sum(1 for m in data["markers"] if m["kind"] == "smoke")
    mines = [m for m in data["markers"] if m["kind"].startswith("minefield")]
    if mines and not data["rules"].get("minefields"):
        found.append(error("markers", "minefields are placed but the scenario does not enable them (9.5.9, V15)",
                           mines[0]["hex"], code="assault-minefields"))
    real = sum(1 for m in mines if m["kind"] != "minefield-dummy")
    dummies = len(mines) - real
    if real != dummies:
        found.append(warning("markers", f"{real} real minefields and {dummies} dummies: they come in equal numbers "
                                        "(9.5.9.1, V14)", code="assault-mine-dummies"))
    if smoke > 30:
        found.append(warning("markers", f"{smoke} smoke markers; the game has 30 (V16)", code="assault-pool"))
    return found


# -- miniatures (miniatures-qrs.md sections 2 and 11) --------------------------------------------------------

def deck_cards(side):
    """The side's activation cards by the QRS formula (L7, L317): platoons with their own card (P), local FOOs
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
                                                     "the map's scale may be wrong (V15)", code="miniatures-scale"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        cards = deck_cards(side)
        given = side["fields"].get("deck")
        formula = (f"{cards['platoons']} platoons + {cards['foos']} local FOO + {cards['elite_commanders']} elite "
                   f"platoon commanders + {cards['company_commanders']} company commanders = {cards['total']}")
        if given is None:
            found.append(warning(f"{where}.fields.deck", f"{side['name']}'s activation cards are not given; the "
                                 f"formula gives {formula} (L7)", code="miniatures-deck"))
        elif given != cards["total"]:
            found.append(error(f"{where}.fields.deck", f"{side['name']} has {given} activation cards, but the "
                               f"formula gives {formula} (L7, L317)", code="miniatures-deck"))
        by_formation = {}
        for unit in side["oob"]:
            if unit.get("element") == "platoon" and unit["formation"]:
                by_formation.setdefault(unit["formation"], []).append(unit)
        for name, members in by_formation.items():
            infantry = any(u["class"] == "infantry" for u in members)
            if infantry and not any(u["leader"] for u in members):
                found.append(warning(f"{where}.oob", f"{name} has no officer element; every platoon template has one "
                                                     "(L383-387)", code="miniatures-officer"))
            if any(u["class"] == "wheeled" for u in members) and any(u["class"] == "half-tracked" for u in members):
                found.append(error(f"{where}.oob", f"{name} mixes trucks and half-tracks (L388)",
                                   code="miniatures-attachments"))
        enemies = [(e, t) for t, other in enumerate(data["sides"]) if other is not side
                   for e in [p["hex"] for p in other["placements"]] + other["setup_zone"]]
        units = doc.units(side)
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            if unit.get("element") != "sniper" and not _is(unit, "sniper"):
                continue
            key, col, row = doc.resolve(placement["hex"])
            grid = doc.maps[key].grid
            for ref, _ in enemies:
                ekey, ecol, erow = doc.resolve(ref)
                if ekey == key and grid.distance((col, row), (ecol, erow)) * ipx <= 8:
                    found.append(error(f"{where}.placements[{p}].hex", f"the sniper in {placement['hex']} is within "
                                       f"8\" of the enemy at {ref} ({grid.distance((col, row), (ecol, erow))} hexes of "
                                       f"{ipx}\"); snipers are placed more than 8\" away (L333)", placement["hex"],
                                       code="miniatures-sniper"))
                    break
    return found


# -- TOCS (tocs.md section 12) -------------------------------------------------------------------------------

def tocs_kind(unit):
    text = unit["unit"].lower()
    for kind in ("hq", "battery", "vehicle platoon", "asset", "company", "mobile supply depot"):
        if kind in text:
            return kind
    return "company"


TOCS_STEPS = {"company": 4, "vehicle platoon": 2, "battery": 2, "asset": 1}
TOCS_HQ_STEPS = {"battalion": 1, "regiment": 2, "brigade": 2, "division": 3, "corps": 4, "army": 4}


def check_tocs(doc, board):
    found = []
    data = doc.data
    perimeter = data["perimeter"]
    owner = {}
    if perimeter is None:
        found.append(error("perimeter", "the initial perimeter is missing: give the owner of every hex (5.7, 13)",
                           code="tocs-perimeter"))
    else:
        for sid, hexes in perimeter.items():
            for ref in hexes:
                owner[ref] = sid
        unowned = [ref for ref in sorted(board.play) if ref not in owner]
        if unowned:
            found.append(warning("perimeter", f"{len(unowned)} hexes belong to nobody (e.g. {', '.join(unowned[:5])}): "
                                              "only a meeting engagement has a no man's land (5.5, 13)", unowned[0],
                                 code="tocs-no-mans-land"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            ref = placement["hex"]
            if perimeter is not None and owner.get(ref) != side["id"]:
                held = owner.get(ref)
                kind = tocs_kind(unit)
                severity = error if held is not None else warning
                what = f"owned by {held}" if held else "in no man's land"
                found.append(severity(f"{where}.placements[{p}].hex", f"{_unit_name(unit)} sets up in {ref}, {what}, "
                                      f"outside {side['name']}'s perimeter (5.7, 14)"
                                      + ("; batteries never enter the enemy perimeter" if kind == "battery" else ""),
                                      ref, code="tocs-outside-perimeter"))
        for ref, stack in stacks(side, units).items():
            big = [u for _, u in stack if tocs_kind(u) in ("company", "vehicle platoon", "battery")]
            assets = [u for _, u in stack if tocs_kind(u) == "asset"]
            if len(big) > 4 or len(assets) > 4:
                found.append(error(f"{where}.placements[{stack[-1][0]}].hex", f"{len(big)} companies, platoons and "
                                   f"batteries and {len(assets)} assets in {ref}: at most 4 of each (15)", ref,
                                   code="stacking"))
        ids = {u["id"]: u for u in side["oob"]}
        for u, unit in enumerate(side["oob"]):
            kind = tocs_kind(unit)
            most = TOCS_HQ_STEPS.get(unit.get("echelon") or "", 4) if kind == "hq" else TOCS_STEPS.get(kind)
            if unit.get("steps") is not None and most is not None and unit["steps"] > most:
                found.append(error(f"{where}.oob[{u}].steps", f"{_unit_name(unit)} has {unit['steps']} steps; a "
                                   f"{kind} has at most {most} (17)", code="tocs-steps"))
            parent = unit.get("parent")
            if parent is not None:
                if parent not in ids or tocs_kind(ids[parent]) != "hq":
                    found.append(error(f"{where}.oob[{u}].parent", f"{_unit_name(unit)} reports to {parent!r}, which "
                                       f"is not an HQ of {side['name']} (18)", code="tocs-hq-tree"))
                else:
                    seen, at = {unit["id"]}, parent
                    while at is not None and at in ids:
                        if at in seen:
                            found.append(error(f"{where}.oob[{u}].parent", f"the HQ chain of {_unit_name(unit)} "
                                               "loops back on itself (18)", code="tocs-hq-tree"))
                            break
                        seen.add(at)
                        at = ids[at].get("parent")
        if side["fields"].get("op_minimum") is None:
            found.append(warning(f"{where}.fields.op_minimum", f"{side['name']} needs a minimum OP value (24)",
                                 code="tocs-side"))
        if not side["brief"]["mission"] or not side["brief"]["intelligence"]:
            found.append(warning(f"{where}.brief", f"{side['name']}'s secret brief needs its mission and intelligence "
                                                   "report (7.5, 24)", code="tocs-brief"))
    return found


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
