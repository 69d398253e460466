"""Map checks, the rules part: what each game's rules say a map may hold, beyond the format errors.

Which terrain plays which part (a road, a building, a river...) and each threshold come from the game's check
data (engine/games/<id>/map_checks.json, docs/validation.md); what a terrain is (its layer, LOS class, height)
comes from the catalogue. A custom profile is checked with its base game's data. Ids the data names that a
catalogue lacks are ignored, so the data keeps working while the catalogues change. No Django here.
"""

import json
from collections import defaultdict
from functools import cache

from engine import mapfile, rulesets


@cache
def check_data(ruleset_id):
    """The check data of a built-in ruleset ({} for none)."""
    if not rulesets.games.is_game(ruleset_id):
        return {}
    path = rulesets.games.get(ruleset_id).map_checks_path
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


class MapFacts:
    """A parsed map as the checks see it: overlays laid, every hex's cell, each hexside's terrain."""

    def __init__(self, doc, catalogue):
        self.doc = doc
        self.grid = doc.grid
        self.catalogue = catalogue
        self.cells, self.hexsides = doc.resolved()
        self.default = doc.default_cell()
        base = getattr(catalogue, "base", None) or doc.ruleset
        data = check_data(base)
        known = set(catalogue.terrain) if catalogue is not None else set()
        self.data = _only_known(data, known)
        self.findings = []

    # -- lookups ---------------------------------------------------------------------------------------
    def cell(self, pos):
        return self.cells.get(pos, self.default)

    def terrain(self, pos):
        return self.cell(pos).terrain

    def level(self, pos):
        return self.cell(pos).level

    def label(self, pos):
        return self.grid.label(*pos)

    def listed(self):
        """The hexes that differ from the defaults (only these, and their neighbours, can break a rule that
        the defaults keep), on the map, in order."""
        return sorted(p for p in self.cells if self.grid.contains(*p))

    def on_edge(self, pos):
        return len(self.grid.neighbours(*pos)) < 6

    def side_of(self, pos, side):
        return self.hexsides.get(self.grid.hexside(*pos, side))

    # -- findings --------------------------------------------------------------------------------------
    def hex_finding(self, pos, code, message, rule, severity="warning"):
        label = self.label(pos)
        self.findings.append(mapfile.Finding(f"hexes[{label}]", f"{message} ({rule})", label, code,
                                             severity=severity))

    def hexside_finding(self, key, code, message, rule, severity="warning", seen_from=None):
        """A finding on a hexside, named from ``seen_from`` (hex, side index) when given: the hex that caused it."""
        if seen_from is not None:
            (col, row), index = seen_from
            side = self.grid.sides[index]
        else:
            col, row, side = self.grid.hexside_name(key)
        label = self.label((col, row))
        self.findings.append(mapfile.Finding(f"hexsides[{label}/{side}]", f"{message} ({rule})", label, code,
                                             severity=severity, side=side))


def _only_known(data, known):
    """The check data with terrain ids the catalogue lacks left out of its lists (every string in a list of the
    data is a terrain id), so an entry the catalogue renamed or dropped is simply not checked for."""
    if isinstance(data, list):
        return [_only_known(v, known) for v in data if not isinstance(v, str) or v in known]
    if isinstance(data, dict):
        return {k: _only_known(v, known) for k, v in data.items()}
    return data


def _dict_ids(mapping, known):
    return {k: v for k, v in mapping.items() if k in known}


# -- the checks ------------------------------------------------------------------------------------------

def level_steps(facts):
    """Neighbours whose levels differ more than the game allows across an ordinary hexside."""
    spec = facts.data.get("level_step")
    if not spec:
        return
    exempt, both = set(spec.get("exempt_hexsides", ())), set(spec.get("exempt_when_both", ()))
    message = spec.get("message") or ("the levels change by {diff} between neighbours; more than {max} is a "
                                      "steep step that needs a {exempt} hexside")
    grid, seen = facts.grid, set()
    for pos in facts.listed():
        for side in range(6):
            other = grid.neighbour(*pos, side)
            key = grid.hexside(*pos, side)
            if other is None or key in seen:
                continue
            seen.add(key)
            diff = abs(facts.level(pos) - facts.level(other))
            if diff <= spec["max"] or facts.hexsides.get(key) in exempt:
                continue
            if both and both & set(facts.terrain(pos)) and both & set(facts.terrain(other)):
                continue
            text = message.format(diff=diff, max=spec["max"], exempt=" or ".join(sorted(exempt)) or "special")
            facts.hexside_finding(key, "level-step", text, spec["rule"], seen_from=(pos, side))


def step_hexsides(facts):
    """Hexsides that mean a change of level (slopes, cliffs, crests) between hexes that do not change enough."""
    grid = facts.grid
    specs = _dict_ids(facts.data.get("step_hexsides", {}), facts.catalogue.terrain)
    for key, tid in sorted(facts.hexsides.items()):
        spec = specs.get(tid)
        if spec is None:
            continue
        hexes = grid.hexside_hexes(key)
        name = facts.catalogue.get(tid)["name"]
        if len(hexes) < 2:
            # A board cut from a larger one may show a slope on its edge: worth a look, not an error.
            facts.hexside_finding(key, "step-hexside", f"a {name} hexside on the map's edge has no second hex to "
                                  "change level to", spec["rule"])
            continue
        diff = abs(facts.level(hexes[0]) - facts.level(hexes[1]))
        if diff < spec["min"]:
            text = (spec.get("message") or "a {name} hexside lies only between hexes of different levels "
                    "(at least {min} apart); here the levels differ by {diff}").format(name=name, min=spec["min"],
                                                                                       diff=diff)
            facts.hexside_finding(key, "step-hexside", text, spec["rule"], spec.get("severity", "warning"))


def precipitous_hexsides(facts):
    """ATS: a hillock contour on a hexside that is also a hill contour makes precipitous terrain."""
    spec = facts.data.get("precipitous_hexsides")
    if not spec:
        return
    ids = set(spec["ids"])
    for key, tid in sorted(facts.hexsides.items()):
        hexes = facts.grid.hexside_hexes(key)
        if tid in ids and len(hexes) == 2 and abs(facts.level(hexes[0]) - facts.level(hexes[1])) >= spec["min"]:
            facts.hexside_finding(key, "precipitous", "a hillock contour on a hill contour makes this hexside "
                                  "precipitous terrain (4 MP, immobilisation risk); check it is meant", spec["rule"])


def buildings(facts):
    """Storeys only in buildings, and no more than the building kind has; walls inside buildings only."""
    structures = set(facts.data.get("structures", ()))
    storeys = facts.data.get("storeys", {})
    for pos in facts.listed():
        cell = facts.cell(pos)
        kinds = [t for t in cell.terrain if t in structures]
        if cell.storeys > 1 and not kinds and structures:
            facts.hex_finding(pos, "storeys-without-building", f"this hex has {cell.storeys} storeys but no "
                              "building; storeys belong to a building's terrain", "map format: storeys")
        for tid in kinds:
            limit = storeys.get(tid)
            if isinstance(limit, int) and cell.storeys > limit:
                name = facts.catalogue.get(tid)["name"]
                facts.hex_finding(pos, "building-storeys", f"a {name} has at most {limit} "
                                  f"storey{'s' * (limit != 1)}; this one has {cell.storeys}",
                                  storeys.get("rule", ""), severity="error")
    walls = _dict_ids(facts.data.get("building_hexsides", {}), facts.catalogue.terrain)
    for key, tid in sorted(facts.hexsides.items()):
        if tid not in walls:
            continue
        hexes = facts.grid.hexside_hexes(key)
        if len(hexes) < 2 or not all(structures & set(facts.terrain(h)) for h in hexes):
            name = facts.catalogue.get(tid)["name"]
            facts.hexside_finding(key, "wall-outside-building", f"a {name} lies between two hexes of the same "
                                  "building; here one side holds no building", walls[tid], severity="error")
    single = facts.data.get("single_hex_buildings")
    if single and walls:
        for key, tid in sorted(facts.hexsides.items()):
            if tid not in walls:
                continue
            for pos in facts.grid.hexside_hexes(key):
                for kind in set(single["ids"]) & set(facts.terrain(pos)):
                    name, wall = facts.catalogue.get(kind)["name"], facts.catalogue.get(tid)["name"]
                    facts.hex_finding(pos, "building-kind", f"a {name} is a one-hex building, but a {wall} joins "
                                      "it to the next hex; a building of several hexes is a Large building",
                                      single["rule"])


def terrain_mixes(facts):
    """Several in-hex terrains in one hex where the game describes no such mix."""
    spec = facts.data.get("mixes")
    if not spec:
        return
    free = set(spec.get("free", ()))
    pairs = {frozenset(p) for p in spec.get("pairs", ()) if len(p) == 2}
    for pos in facts.listed():
        rest = [t for t in facts.terrain(pos) if t not in free]
        if len(rest) < 2:
            continue
        if len(rest) == 2 and frozenset(rest) in pairs:
            continue
        names = ", ".join(facts.catalogue.get(t)["name"] for t in rest)
        facts.hex_finding(pos, "terrain-mix", f"this hex mixes {names}; the rules describe no such mix, so the "
                          "LOS and movement of the hex are a guess", spec["rule"])


def linear_features(facts):
    """Roads and railroads run on: a road hex with no road beside it (and off the map's edge) goes nowhere."""
    grid = facts.grid
    for spec in facts.data.get("linear", ()):
        ids = set(spec["ids"])
        if not ids or ids & set(facts.default.terrain):
            continue
        for pos in facts.listed():
            if not ids & set(facts.terrain(pos)) or facts.on_edge(pos):
                continue
            if any(ids & set(facts.terrain(n)) for n in grid.neighbours(*pos)):
                continue
            facts.hex_finding(pos, f"{spec['name']}-isolated", f"this {spec['name']} hex has no {spec['name']} "
                              f"beside it: a {spec['name']} must run on into the next hex or off the map's edge",
                              spec["rule"])


def needs(facts):
    """Terrain that goes with other terrain: in the same hex, beside it, or on all its hexsides."""
    grid = facts.grid
    for spec in facts.data.get("needs", ()):
        tid = spec["terrain"]
        if tid not in facts.catalogue.terrain:
            continue
        for pos in facts.listed():
            terrain = set(facts.terrain(pos))
            if tid not in terrain:
                continue
            # A condition whose terrain the catalogue lacks altogether (renamed, dropped) is not judged.
            ok = True
            if spec.get("with_any") and not terrain & set(spec["with_any"]):
                ok = False
            if spec.get("without_any") and terrain & set(spec["without_any"]):
                ok = False
            if spec.get("near_any"):
                near = set(spec["near_any"])
                beside = any(near & set(facts.terrain(n)) for n in grid.neighbours(*pos))
                sides = any(facts.side_of(pos, s) in near for s in range(6))
                ok = ok and (beside or sides)
            if spec.get("all_hexsides"):
                allowed = set(spec["all_hexsides"])
                ok = ok and all(facts.side_of(pos, s) in allowed for s in range(6))
            if not ok:
                facts.hex_finding(pos, spec["code"], spec["message"], spec["rule"])


def derived_terrain(facts):
    """TOCS: a woods hex ringed by woods is forest, and forest is woods ringed by woods (edge hexes aside)."""
    grid = facts.grid
    for spec in facts.data.get("derived", ()):
        inner, whole = spec["inner"], spec["whole"]
        if inner not in facts.catalogue.terrain or whole not in facts.catalogue.terrain:
            continue
        names = {t: facts.catalogue.get(t)["name"] for t in (inner, whole)}
        for pos in facts.listed():
            terrain = facts.terrain(pos)
            if (inner not in terrain and whole not in terrain) or facts.on_edge(pos):
                continue
            ringed = all({inner, whole} & set(facts.terrain(n)) for n in grid.neighbours(*pos))
            if inner in terrain and ringed:
                facts.hex_finding(pos, spec["code"], f"this {names[inner]} hex has {names[inner]} on all six "
                                  f"sides, which makes it {names[whole]}", spec["rule"])
            elif whole in terrain and not ringed:
                facts.hex_finding(pos, spec["code"], f"{names[whole]} is {names[inner]} with {names[inner]} on all "
                                  f"six sides; this hex has open sides, which makes it {names[inner]}", spec["rule"])


def hill_colours(facts):
    """ATS: each hill colour is one level; a level between colours needs a hillock (+5) to stand on."""
    spec = facts.data.get("hill_colours")
    if not spec:
        return
    colours = set(spec["levels"])
    for pos in facts.listed():
        level = facts.level(pos)
        if level in colours:
            continue
        if any(facts.side_of(pos, s) == spec.get("hillock") for s in range(6)):
            continue
        facts.hex_finding(pos, "hill-colour-level", f"level {level:+d} is not the level of a hill colour "
                          f"({', '.join(f'{v:+d}' for v in sorted(colours))}); it is reached only on a hillock, "
                          "and this hex has no hillock contour", spec["rule"])


def overlays(facts):
    """ATS: an overlay is placed by its X and Y hexes (the anchor and its neighbour), is one piece, and its
    letter says what terrain it carries."""
    spec = facts.data.get("overlays")
    if not spec:
        return
    grid = facts.grid
    for overlay in facts.doc.overlays:
        anchor = grid.label(*overlay.anchor)
        offsets = {tuple(e["hex"]) for e in overlay.hexes}
        path = f"overlays[{overlay.id}]"
        if spec.get("anchor_inside") and offsets and (0, 0) not in offsets:
            facts.findings.append(mapfile.Finding(path, f"overlay {overlay.id} is placed by its X hex, the anchor "
                                                  f"{anchor}, but the overlay holds no hex there ({spec['rule']})",
                                                  anchor, "overlay-placement", severity="warning"))
        if spec.get("connected") and len(offsets) > 1 and not _connected(offsets):
            facts.findings.append(mapfile.Finding(path, f"overlay {overlay.id} falls apart into separate pieces; "
                                                  f"an overlay is one card ({spec['rule']})", anchor,
                                                  "overlay-placement", severity="warning"))
        # The letters that begin an overlay's id name its terrain (V village, Tr track, RR railroad...).
        letters = spec.get("letters") or {}
        letter = max((p for p in letters if overlay.id.startswith(p)), key=len, default=None)
        wanted = letters.get(letter)
        if wanted and wanted["ids"]:
            held = {t for e in overlay.hexes for t in ([e["terrain"]] if isinstance(e.get("terrain"), str)
                                                       else e.get("terrain", ()))}
            held |= {e["terrain"] for e in overlay.hexsides}
            if not held & set(wanted["ids"]):
                facts.findings.append(mapfile.Finding(path, f"overlay {overlay.id}: the letters {letter} mark a "
                                                      f"{wanted['name']} overlay, but it holds none "
                                                      f"({wanted['rule']})", anchor, "overlay-letter",
                                                      severity="warning"))


def _connected(offsets):
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    start = next(iter(offsets))
    seen, todo = {start}, [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in steps:
            n = (q + dq, r + dr)
            if n in offsets and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(offsets)


def obstacle_heights(facts):
    """Miniatures: blocking terrain needs a height for the dead-zone rule; the catalogue must give one."""
    spec = facts.data.get("obstacle_heights")
    if spec is None:
        return
    for pos in facts.listed():
        for tid in facts.terrain(pos):
            entry = facts.catalogue.get(tid)
            if entry["los"] == "blocking" and entry.get("height") is None:
                facts.hex_finding(pos, "obstacle-height", f"{entry['name']} blocks LOS but the ruleset gives it no "
                                  "height, so what it hides from higher ground is unknown", spec["rule"])


def rivers(facts):
    """TOCS: rivers flow on (no river stops in the open) and do not jump classes where no other water joins."""
    spec = facts.data.get("rivers")
    if not spec:
        return
    grid = facts.grid
    ids, flow, water = set(spec["ids"]), set(spec["must_flow"]), set(spec["water_hexes"])
    order = {tid: k for k, tid in enumerate(spec["classes"])}
    at_vertex = defaultdict(list)
    for key, tid in facts.hexsides.items():
        if tid in ids:
            for point in grid.side_endpoints(*key):
                at_vertex[_vertex(point)].append((key, tid))
    reported = set()
    for vertex, sides in sorted(at_vertex.items()):
        if len(sides) == 1:
            key, tid = sides[0]
            if tid not in flow or key in reported:
                continue
            hexes = _hexes_at(grid, key, vertex)
            on_map = [h for h in hexes if grid.contains(*h)]
            if len(on_map) < 3 or any(water & set(facts.terrain(h)) for h in on_map):
                continue  # the map's edge, or a lake, sea or marsh the river runs into
            reported.add(key)
            name = facts.catalogue.get(tid)["name"]
            facts.hexside_finding(key, "river-dead-end", f"this {name} stops at a corner where no other stream, "
                                  "river or water continues it", spec["rule"])
        elif len(sides) == 2:
            (k1, t1), (k2, t2) = sorted(sides, key=lambda s: -order.get(s[1], -1))
            if t1 in order and t2 in order and order[t1] - order[t2] >= 2:
                names = [facts.catalogue.get(t)["name"] for t in (t1, t2)]
                facts.hexside_finding(k2, "river-class", f"the water changes from {names[0]} to {names[1]} at a "
                                      "corner where no other stream or river joins; a river grows one class at a "
                                      "time", spec["rule"])


def _vertex(point):
    return round(point[0], 4), round(point[1], 4)


def _hexes_at(grid, key, vertex):
    """The hexes (on the map or not) that have this corner: the hexside's two and their common neighbour."""
    col, row, side = key
    candidates = {(col, row), grid.step(col, row, side)}
    for h in list(candidates):
        candidates.update(grid.step(*h, s) for s in range(6))
    return [h for h in candidates if any(_vertex(c) == vertex for c in grid.corners(*h))]


CHECKS = (level_steps, step_hexsides, precipitous_hexsides, buildings, terrain_mixes, linear_features, needs,
          derived_terrain, hill_colours, overlays, obstacle_heights, rivers)


def check_rules(doc, catalogue):
    """Every rules-level finding for a parsed map, in check order then map order."""
    facts = MapFacts(doc, catalogue)
    for check in CHECKS:
        check(facts)
    return facts.findings
