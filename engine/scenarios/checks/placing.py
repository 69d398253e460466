"""Set-up rules that every game states as catalogue data, read the same way for all of them: where a marker may be
placed (its entry's ``placing``), which way a counter faces (its unit type's ``faces``), and the crew a weapon sets up
with (its unit type's ``crewed_by``). docs/rulesets/catalogues.md says what each key means."""

from engine.scenarios import terrain_rules
from engine.scenarios.checks.common import _line, error, kind_of, utype, warning


def markers(doc, board, terrain_code, facing_code="marker-facing"):
    """Each marker placed where its ``placing`` allows: not in terrain it bars, in terrain it takes only with a
    road only where a road runs, facing a hexside or a vertex as it says, and, for a marker in use only by special
    rule, with a special rule that names it."""
    found = []
    catalogue = board.catalogue
    for m, marker in enumerate(doc.data["markers"]):
        entry = catalogue.terrain.get(marker["kind"])
        placing = (entry or {}).get("placing")
        if not placing:
            continue
        ref, name = marker["hex"], entry["name"]
        terrain = board.terrain(ref)
        bad = [t for t in placing.get("barred", ()) if t in terrain]
        if not bad and not _has_road(board, terrain):
            bad = [t for t in placing.get("barred_off_road", ()) if t in terrain]
        if bad:
            found.append(error(f"markers[{m}].hex", f"{name} marker in {ref} may not be placed in "
                                                    f"{_terrain(board, bad[0])} terrain ({placing['rule']})", ref,
                               code=terrain_code))
        found += _marker_facing(m, marker, name, placing, facing_code)
        if placing.get("by_ssr") and not _named_by_rule(doc, entry):
            found.append(warning(f"markers[{m}].kind", f"the {name} in {ref} is in use only by special rule "
                                                      f"({placing['by_ssr']}): add the special rule that provides "
                                                      "it", ref, code="marker-by-ssr"))
    return found


def markers_on_units(doc, board):
    """A marker placed on a unit (its kind's ``on`` in the catalogue's scenario markers: TOCS 10.15, Extended
    Deployment on a Company) has a unit of those kinds of its side in its hex."""
    found = []
    catalogue = board.catalogue
    for m, marker in enumerate(doc.data["markers"]):
        on = catalogue.marker_on(marker["kind"])
        if not on:
            continue
        ref = marker["hex"]
        sides = [s for s in doc.data["sides"] if marker.get("side") in (None, s["id"])]
        here = [kind_of(doc, doc.units(s)[p["unit"]]) for s in sides for p in s["placements"] if p["hex"] == ref
                and not p.get("off_map")]
        if None in here or any(k in on["kinds"] for k in here):
            continue
        whose = next((s["name"] + "'s " for s in sides if s["id"] == marker.get("side")), "")
        there = "no unit" if not here else " and ".join(sorted({_kinds({"kinds": [k]}) for k in here}))
        found.append(error(f"markers[{m}].hex", f"{whose}{catalogue.marker_name(marker['kind'])} marker in {ref} is "
                                                f"on {there}, not on a {_kinds(on)} ({on['rule']})", ref,
                           code="marker-on-unit"))
    return found


def _marker_facing(m, marker, name, placing, code):
    wants, given = placing.get("facing"), marker["facing"]
    rule = placing.get("facing_rule") or placing["rule"]
    ref = marker["hex"]
    if wants == "hexside" and not isinstance(given, str):
        said = "needs" if given is None else f"faces vertex {given}, but needs"
        return [error(f"markers[{m}].facing", f"the {name} in {ref} {said} a facing hexside ({rule})", ref,
                      code=code)]
    if wants == "vertex" and not isinstance(given, int):
        said = "needs" if given is None else f"faces the {given} hexside, but needs"
        return [error(f"markers[{m}].facing", f"the {name} in {ref} {said} a facing vertex, 0 to 5 ({rule})", ref,
                      code=code)]
    return []


def _has_road(board, terrain):
    return "along-road" in board.catalogue.movement_conditions(terrain)


def _terrain(board, tid):
    return (board.catalogue.terrain.get(tid) or {}).get("name", tid)


def _named_by_rule(doc, entry):
    """Whether a special rule of the scenario names the marker, by its name or id ("Blockhouse", "blockhouses")."""
    words = {entry["name"].lower(), entry["id"].replace("-", " ")}
    texts = [terrain_rules.rule_text(rule).lower() for rule in doc.data.get("special_rules") or ()]
    return any(word in text for text in texts for word in words)


def facings(doc, side, where):
    """A placed counter whose type says which way it faces (``faces``: a vehicle's hexside, OST 9.0.5) facing the
    other way: a vertex given for a hexside, or a hexside for a vertex. No facing given is not checked here."""
    found = []
    units = doc.units(side)
    lines = {u["id"]: i for i, u in enumerate(side["oob"])}
    for p, placement in enumerate(side["placements"]):
        unit = units[placement["unit"]]
        faces = (utype(doc, unit) or {}).get("faces")
        given = placement.get("facing")
        if not faces or given is None:
            continue
        ref, who = placement["hex"], _line(side, lines[unit["id"]])
        if faces["to"] == "hexside" and not isinstance(given, str):
            found.append(error(f"{where}.placements[{p}].facing", f"{who} in {ref} faces vertex {given}: give the "
                                                                  f"hexside it faces ({faces['rule']})", ref,
                               code="unit-facing"))
        elif faces["to"] == "vertex" and isinstance(given, str):
            found.append(error(f"{where}.placements[{p}].facing", f"{who} in {ref} faces the {given} hexside: give "
                                                                  f"the vertex it faces, 0 to 5 ({faces['rule']})",
                               ref, code="unit-facing"))
    return found


def crews(doc, side, where):
    """A weapon that sets up with its crew (``crewed_by``: ATS 3.6.4, M and H weapons on top of their manning crew)
    has one of its own in its hex, and one arriving with it in its reinforcement: one crew for each weapon."""
    found = []
    units = doc.units(side)
    lines = {u["id"]: i for i, u in enumerate(side["oob"])}
    by_hex = {}
    for p, placement in enumerate(side["placements"]):
        if not placement.get("off_map"):
            by_hex.setdefault(placement["hex"], []).append((p, units[placement["unit"]], 1))
    for ref, here in by_hex.items():
        for p, unit, rule in _uncrewed(doc, here):
            found.append(error(f"{where}.placements[{p}].hex", f"{_line(side, lines[unit['id']])} sets up in {ref} "
                                                               f"with no {_kinds(rule)} of {side['name']} to man it "
                                                               f"({rule['rule']})", ref, code="weapon-crew"))
    by_id = {u["id"]: u for u in side["oob"]}
    for r, reinforcement in enumerate(side["reinforcements"]):
        arriving = [(r, by_id[g["unit"]], g["count"]) for g in reinforcement["units"] if g["unit"] in by_id]
        for _, unit, rule in _uncrewed(doc, arriving):
            found.append(error(f"{where}.reinforcements[{r}].units",
                               f"{_line(side, lines[unit['id']])} arrives on turn {reinforcement['turn']} with no "
                               f"{_kinds(rule)} of {side['name']} to man it ({rule['rule']})", code="weapon-crew"))
    return found


def _uncrewed(doc, here):
    """[(index, unit, crewed_by)] for each weapon of ``here`` ([(index, unit, count)]) beyond the crews there to
    man them, by the kinds that crew them. A line without a type may be the crew: then none is reported."""
    if any(kind_of(doc, unit) is None for _, unit, _ in here):
        return []
    out = []
    taken = {}
    for index, unit, count in here:
        rule = (utype(doc, unit) or {}).get("crewed_by")
        if not rule:
            continue
        kinds = tuple(rule["kinds"])
        crews = sum(n for _, u, n in here if kind_of(doc, u) in kinds)
        need = taken.get(kinds, 0) + count
        taken[kinds] = need
        if need > crews:
            out.append((index, unit, rule))
    return out


def _kinds(rule):
    return " or ".join(k.replace("-", " ") for k in rule["kinds"])
