"""What every game's scenario checks share: the findings, the board (terrain per hex, the play area, its
edges), the checks every scenario gets whatever its game (play area, setup zones, counts, reinforcements,
victory), and the helpers that read a side's stacks and its units' types."""

from dataclasses import dataclass, field

from engine import rulesets
from engine.mapfile import Finding
from engine.rulesets.catalogue import case_cost
from engine.scenarios import unittypes, victory


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

    def standing_in(self, ref, statuses=()):
        """The terrain a unit in a hex is in: all of it, but where a road runs through, a status such as OST's On
        Road takes it out of the structure (its catalogue entry's ``not_in_with_road``, OST 16.6.1-16.6.2)."""
        terrain = self.terrain(ref)
        known = self.catalogue.statuses
        outside = {t for s in statuses for t in (known.get(s) or {}).get("not_in_with_road", ())}
        if outside and "along-road" in self.catalogue.movement_conditions(terrain):
            return [t for t in terrain if t not in outside]
        return terrain

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
        return self.catalogue.refuses(list(self.terrain(ref)) + list(markers), unit_class)


def movement_cost(cost, conditions):
    """A movement cost as the catalogue gives it: a value, or a list of cases {"when": condition, "cost"} read
    in order, the first whose condition holds (or that has none) giving the cost; None when none applies."""
    return case_cost(cost, conditions)


def _map_of(doc, ref):
    key = ref.rpartition(":")[0]
    return key or doc.main_key

def markers_at(doc):
    out = {}
    for m in doc.data["markers"]:
        out.setdefault(m["hex"], []).append(m["kind"])
    return out


def common(doc, board, forces_drawn=None):
    """The checks every game shares; ``forces_drawn(side)`` says when a side's units come from a draw at the
    table rather than its OOB (Assault's random formation draw), so that an empty OOB is playable."""
    data = doc.data
    found = []
    sides = data["sides"]
    if len(sides) < 2:
        found.append(error("sides", f"a scenario needs at least two sides; it has {len(sides)}", code="too-few-sides"))
    for s, side in enumerate(sides):
        if not side["oob"] and not (forces_drawn and forces_drawn(side)):
            found.append(error(f"sides[{s}].oob", f"{side['name']} has no units yet: the scenario is not playable "
                                                  "until it has", code="not-playable"))
    turns = data["turns"]["count"]  # None: no fixed number of turns (turns.end says when the game ends)
    if turns is None and not data["turns"].get("end"):
        found.append(error("turns.end", "the game has no fixed number of turns and the scenario does not say when "
                                        "it ends: write it in turns.end (\"the game ends when ...\")",
                           code="no-end"))
    marker_hexes = markers_at(doc)
    occupied = {}  # hex -> set of side names
    for s, side in enumerate(sides):
        found += _side(doc, board, s, side, turns, marker_hexes, occupied)
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
            found.append(error(f"markers[{m}].hex", f"{board.catalogue.marker_name(marker['kind'])} marker in "
                                                    f"{marker['hex']} is outside the play area", marker["hex"],
                               code="marker-outside-play-area"))
    if sides and not any(side["victory"] for side in sides):
        found.append(error("sides", "no side has a victory condition", code="no-victory"))
    for s, side in enumerate(sides):
        for path, message in victory.zero_thresholds(side["victory"], f"sides[{s}].victory"):
            found.append(warning(path, message, code="zero-threshold"))
    return found



def _side(doc, board, s, side, turns, marker_hexes, occupied):
    """One side's checks: its setup zone, its OOB's unit types, its placements, its reinforcements and whether
    its units are all placed or arriving (``occupied``: hex -> side names, filled for the check of both sides
    in one hex)."""
    found = []
    where = f"sides[{s}]"
    units = doc.units(side)
    zone = set(side["setup_zone"])
    for z in side["setup_zone"]:
        if z not in board.play:
            found.append(warning(f"{where}.setup_zone", f"{side['name']}'s setup zone hex {z} is outside the play "
                                                        "area", z, code="zone-outside-play-area"))
    used = {uid: 0 for uid in units}
    for u, unit in enumerate(side["oob"]):
        if unit.get("type") is None:
            found.append(warning(f"{where}.oob[{u}].type", f"{_line(side, u)} has no unit type: its stacking "
                                 "and what its type allows are not checked", code="no-unit-type"))
    found += _placements(doc, board, where, side, zone, used, marker_hexes, occupied)
    found += _reinforcements(board, where, side, turns, used)
    for u, unit in enumerate(side["oob"]):
        if used[unit["id"]] > unit["count"]:
            found.append(error(f"{where}.oob[{u}].count", f"{_who(side, u)}: {used[unit['id']]} placed or "
                                                          f"arriving, but the OOB has {unit['count']}",
                               code="more-than-count"))
        elif used[unit["id"]] < unit["count"] and not zone:
            found.append(warning(f"{where}.oob[{u}]", f"{unit['count'] - used[unit['id']]} of "
                                                      f"{_who(side, u)} are neither placed nor arriving, and "
                                                      f"{side['name']} has no setup zone", code="unit-nowhere"))
    return found


def _placements(doc, board, where, side, zone, used, marker_hexes, occupied):
    """Each placement: in the play area and the side's zone, on terrain its class may enter and its unit type
    may set up in; counted in ``used``."""
    found = []
    units = doc.units(side)
    lines = {u["id"]: i for i, u in enumerate(side["oob"])}
    for p, placement in enumerate(side["placements"]):
        ref = placement["hex"]
        path = f"{where}.placements[{p}]"
        unit = units[placement["unit"]]
        who = _who(side, lines[unit["id"]])
        used[unit["id"]] += 1
        if placement.get("off_map"):
            continue  # off the map, reckoned from its hex (004 L506): not in a stack, a zone or a terrain
        occupied.setdefault(ref, set()).add(side["name"])
        if ref not in board.play:
            found.append(error(f"{path}.hex", f"{who} sets up in {ref}, outside the play area", ref,
                               code="setup-outside-play-area"))
        elif zone and ref not in zone:
            found.append(error(f"{path}.hex", f"{who} sets up in {ref}, outside {side['name']}'s setup zone", ref,
                               code="setup-outside-zone"))
        bad = board.forbidden(ref, unit["class"], marker_hexes.get(ref, ()))
        if bad is not None:
            entry = board.catalogue.terrain.get(bad) or {}
            rule = entry.get("movement_rule") or entry.get("rule") or "its movement table"
            found.append(error(f"{path}.hex", f"{who}, a {unit['class'].replace('-', ' ')} unit, may not enter "
                                              f"{_terrain_name(board, bad)} in {ref} ({rule})", ref,
                               code="forbidden-terrain"))
        kind = utype(doc, unit)
        terrain = board.standing_in(ref, placement.get("status") or ())
        barred = [t for t in (kind or {}).get("barred", ()) if t in terrain or t in marker_hexes.get(ref, ())]
        if barred:
            found.append(error(f"{path}.hex", f"{who} ({kind['name']}) may not set up in "
                                              f"{_terrain_name(board, barred[0])} ({ref}; "
                                              f"{kind.get('rule') or 'its unit type'})", ref,
                               code="forbidden-terrain"))
    return found


def _reinforcements(board, where, side, turns, used):
    """Each reinforcement: a turn of the game, entry hexes on an edge of the play area; counted in ``used``."""
    found = []
    for r, reinforcement in enumerate(side["reinforcements"]):
        path = f"{where}.reinforcements[{r}]"
        turn = reinforcement["turn"]
        if turn is not None and (turn < 1 or (turns is not None and turn > turns)):
            span = f"turns 1 to {turns}" if turns is not None else "turns from 1"
            found.append(error(f"{path}.turn", f"{side['name']}'s reinforcements arrive on turn {turn}, but the "
                                               f"game has {span}", code="reinforcement-turn"))
        for ref in reinforcement["hexes"]:
            if not board.on_edge(ref):
                found.append(error(f"{path}.hexes", f"{side['name']}'s entry hex {ref} (turn {turn}) is not on an "
                                                    "edge of the play area", ref, code="entry-not-on-edge"))
        for group in reinforcement["units"]:
            used[group["unit"]] += group["count"]
        found += _entry_terrain(board, path, side, reinforcement)
    return found


def _entry_terrain(board, path, side, reinforcement):
    """An arriving unit needs an entry hex it may enter: by its class's movement (a vehicle and a river) and by its
    type's ``barred_entering`` (ATS 8.22.4: Heavy weapons may set up in rubble but not enter it)."""
    hexes = reinforcement["hexes"]
    if not hexes:
        return []
    doc = board.doc
    found = []
    lines = {u["id"]: (i, u) for i, u in enumerate(side["oob"])}
    for group in reinforcement["units"]:
        if group["unit"] not in lines:
            continue
        i, unit = lines[group["unit"]]
        barred = set((utype(doc, unit) or {}).get("barred_entering", ()))
        why = {}
        for ref in hexes:
            bad = board.forbidden(ref, unit["class"]) or next((t for t in board.terrain(ref) if t in barred), None)
            if bad is not None:
                why[ref] = bad
        if len(why) == len(hexes):
            ref, bad = next(iter(why.items()))
            entry = board.catalogue.terrain.get(bad) or {}
            rule = entry.get("movement_rule") or entry.get("rule") or "its movement table"
            if bad in barred:
                rule = (utype(doc, unit) or {}).get("rule") or rule
            found.append(error(f"{path}.hexes", f"{_who(side, i)} arrives on turn {reinforcement['turn']} by "
                                                f"{', '.join(hexes)}, none of which it may enter "
                                                f"({_terrain_name(board, bad)} in {ref}; {rule})", ref,
                               code="entry-terrain"))
    return found

def _terrain_name(board, tid):
    """A terrain or marker id as the catalogue names it ("Lake", "Foxholes"), not by its id."""
    entry = board.catalogue.terrain.get(tid)
    return entry["name"] if entry is not None else tid


def _who(side, index):
    """An OOB line with its name, for a finding: "Company A/1/505 (Allied OOB line 2)"."""
    unit = side["oob"][index]
    text = unit["unit"] + (f" {unit['name']}" if unit.get("name") else "")
    return unittypes.line_label(text, side["name"], index)


def _unit_name(unit):
    return f"{unit['unit']}{' (' + unit['name'] + ')' if unit['name'] else ''}"


def stacks(side, units):
    """hex -> [(placement index, unit)] for one side's placements on the map (an off-map unit is in no stack)."""
    out = {}
    for p, placement in enumerate(side["placements"]):
        if placement.get("off_map"):
            continue
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
