"""Reading a scenario's sides, part of the scenario format's reader (engine/scenarios/scenariofile.py): each
side's OOB, setup zone, placements, reinforcements, victory condition and brief, and what the sides own on
the map (markers, the TOCS perimeter). ``SidesReader`` is one of the reader's classes: it uses the small
readers (text, hexes, game fields...) and the state (catalogue, unit types, objective ids) the reader has."""

import re

from engine.mapfile import _is_int, _kind
from engine.scenarios import limits, types, unittypes, victory

RESERVED_SIDE_IDS = ("public", "card")  # the names of the public sheet (engine/scenarios/cards)
SIDE_KEYS = ("id", "name", "nationality", "colour", "fields", "oob", "setup_zone", "placements", "reinforcements",
             "victory", "brief")
BRIEF_KEYS = ("mission", "intelligence")
PLACEMENT_KEYS = ("unit", "hex", "facing", "off_map", "strength", "steps_lost", "status")
REINFORCEMENT_KEYS = ("turn", "units", "edge", "hexes", "note")
REINFORCEMENT_UNIT_KEYS = ("unit", "count")
MARKER_KEYS = ("kind", "hex", "side", "count", "facing", "note", "details")

# The OOB entry's fields common to every game. What each game adds (OOB keys, side fields, scenario rules, unit
# qualities) is its catalogue's scenario section (engine/games/<game>/catalogue.json, docs/scenario-format.md);
# anything else is an error, so a typo is caught rather than kept.
OOB_COMMON = ("id", "unit", "name", "count", "class", "type", "quality", "leader", "weapons", "formation", "hidden",
              "notes")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _is_count(value):
    return _is_int(value) and value >= 1


class SidesReader:
    """The sides and what they own on the map, read into the canonical document."""

    def read_sides(self, items, objectives):
        out, seen = [], set()
        if not self.within(items, "sides", limits.SIDES):
            items = []
        lines = sum(len(s["oob"]) for s in items if isinstance(s, dict) and isinstance(s.get("oob"), list)) \
            if isinstance(items, list) else 0
        if lines > limits.OOB_LINES_ALL:
            self.error("sides", f"the sides have {lines:,} OOB lines in all; at most {limits.OOB_LINES_ALL:,}",
                       code="too-many")
            items = []
        ids = [s.get("id") for s in items if isinstance(s, dict)] if isinstance(items, list) else []
        self.all_side_ids = [i for i in ids if isinstance(i, str)]
        for path, entry in self.entries(items, "sides", SIDE_KEYS, ("id", "name")):
            sid = self.ident(entry["id"], f"{path}.id", seen, "side")
            if sid in RESERVED_SIDE_IDS:
                self.error(f"{path}.id", f"a side may not be called {sid!r}: the printed sheets are named 'public' "
                                         "and by their sides' ids, so this one would be taken for the public card",
                           code="reserved-id")
                sid = None
            side = {"id": sid, "name": self.text(entry, "name", f"{path}.name", required=True, limit=limits.SIDE_NAME),
                    "nationality": self.text(entry, "nationality", f"{path}.nationality", limit=limits.NATIONALITY)}
            colour = entry.get("colour", "#3b5b92")
            if not isinstance(colour, str) or not COLOUR.match(colour):
                self.error(f"{path}.colour", f"expected a colour written #rrggbb, got {colour!r}", code="bad-colour")
                colour = "#3b5b92"
            side["colour"] = colour.lower()
            side["fields"] = self.read_side_fields(entry.get("fields", {}), f"{path}.fields")
            self.side_name = side["name"]
            # A side with no units yet is a draft: it reads, and the checks say it is not playable (not-playable).
            side["oob"] = self.side_oob = self.read_oob(entry.get("oob", []), f"{path}.oob")
            units = {u["id"]: u for u in side["oob"]}
            side["setup_zone"] = self.hexes(entry.get("setup_zone", []), f"{path}.setup_zone")
            side["placements"] = self.read_placements(entry.get("placements", []), f"{path}.placements", units)
            side["reinforcements"] = self.read_reinforcements(entry.get("reinforcements", []),
                                                              f"{path}.reinforcements", units)
            side["victory"] = self.read_victory(entry.get("victory"), f"{path}.victory")
            brief = entry.get("brief", {})
            side["brief"] = {"mission": "", "intelligence": ""}
            if self.keys(brief, f"{path}.brief", BRIEF_KEYS):
                for k in BRIEF_KEYS:
                    side["brief"][k] = self.text(brief, k, f"{path}.brief.{k}", limit=limits.BRIEF)
            if sid is not None:
                out.append(side)
        return out, [s["id"] for s in out]

    def read_side_fields(self, value, path):
        return self.game_fields(value, path, "side")

    def read_oob(self, items, path):
        extra = self.catalogue.scenario_fields("oob") if self.catalogue is not None else {}
        allowed = OOB_COMMON + tuple(key for key in extra if key not in OOB_COMMON)
        out, seen = [], set()
        if not self.within(items, path, limits.OOB_LINES):
            return out
        for where, entry in self.entries(items, path, allowed, ("id", "unit")):
            uid = self.ident(entry["id"], f"{where}.id", seen, "unit")
            unit = self.text(entry, "unit", f"{where}.unit", required=True, limit=limits.UNIT)
            clean = {"id": uid, "unit": unit, "name": self.text(entry, "name", f"{where}.name", limit=limits.UNIT)}
            count = entry.get("count", 1)
            clean["count"] = self.integer(count, f"{where}.count", 1, 500) or 1
            unit_class = entry.get("class")
            classes = self.unit_classes()
            if unit_class is not None and classes and unit_class not in classes:
                self.error(f"{where}.class", f"expected one of this ruleset's unit classes ({', '.join(classes)}), "
                                             f"got {unit_class!r}", code="bad-class")
            clean["class"] = unit_class if unit_class is not None else (classes[0] if classes else None)
            if "type" in entry:
                label = unittypes.line_label(unit, self.side_name, int(where.rpartition("[")[2][:-1]))
                clean["type"] = unittypes.reference(entry["type"], self.unit_types, f"{where}.type", label,
                                                    self.error)
                if unit_class is None and clean["type"] is not None:
                    clean["class"] = self.unit_types[clean["type"]].get("class") or clean["class"]
            quality = entry.get("quality")
            qualities = self.catalogue.qualities if self.catalogue is not None else ()
            if quality is not None and qualities and quality not in qualities:
                self.error(f"{where}.quality", f"expected one of {', '.join(qualities)}, got {quality!r}",
                           code="bad-quality")
            clean["quality"] = quality
            clean["leader"] = self.flag(entry["leader"], f"{where}.leader") if "leader" in entry else False
            weapons = entry.get("weapons", [])
            if not isinstance(weapons, list) or not all(isinstance(w, str) and w for w in weapons):
                self.error(f"{where}.weapons", "expected a list of weapon names", code="bad-type")
                weapons = []
            elif not self.within(weapons, f"{where}.weapons", limits.WEAPONS):
                weapons = []
            for k, weapon in enumerate(weapons):
                if len(weapon) > limits.WEAPON:
                    self.error(f"{where}.weapons[{k}]", self.too_long(f"{where}.weapons[{k}]", len(weapon),
                                                                       limits.WEAPON), code="too-long")
            clean["weapons"] = weapons
            formation = entry.get("formation")
            if formation is not None and not isinstance(formation, str):
                self.error(f"{where}.formation", f"expected the formation or platoon's name, got {_kind(formation)}",
                           code="bad-type")
                formation = None
            elif formation is not None and len(formation) > limits.FORMATION:
                self.error(f"{where}.formation", self.too_long(f"{where}.formation", len(formation),
                                                               limits.FORMATION), code="too-long")
            clean["formation"] = formation
            clean["hidden"] = self.flag(entry["hidden"], f"{where}.hidden") if "hidden" in entry else False
            clean["notes"] = self.text(entry, "notes", f"{where}.notes", limit=limits.UNIT_NOTES)
            for key, spec in extra.items():
                if key in entry and key not in OOB_COMMON:
                    clean[key] = self.field_value(spec, entry[key], f"{where}.{key}")
            if uid is not None:
                out.append(clean)
        return out

    def unit_classes(self):
        return self.catalogue.unit_classes if self.catalogue is not None else ()

    def read_placements(self, items, path, units):
        out = []
        placed = {}
        if not self.within(items, path, limits.PLACEMENTS):
            return out
        side = self.side_name or "this side"
        for where, entry in self.entries(items, path, PLACEMENT_KEYS, ("unit", "hex")):
            ref = self.hex(entry["hex"], f"{where}.hex")
            uid = entry["unit"]
            wrong = types.wrong_text(uid, "a unit id")
            if wrong:
                self.error(f"{where}.unit", wrong, ref, code="bad-type")
                continue
            if uid not in units:
                known = ", ".join(sorted(units)) or "none yet"
                self.error(f"{where}.unit", f"{side}'s placement in {ref or entry['hex']!r} names unit {uid!r}, which "
                                            f"is not in {side}'s OOB (its unit ids: {known})", ref,
                           code="unknown-unit")
                continue
            unit = units[uid]
            label = self.unit_label(unit)
            placed[uid] = placed.get(uid, 0) + 1
            if placed[uid] == unit["count"] + 1:
                self.error(f"{where}.unit", f"{label} is placed more times than its count ({unit['count']})", ref,
                           code="too-many-placed", named=True)
            facing = self.facing(entry.get("facing"), f"{where}.facing", ref)
            clean = {"unit": uid, "hex": ref, "facing": facing}
            clean.update(self.placement_state(entry, where, unit, label, ref))
            if ref is not None:
                out.append(clean)
        return out

    def unit_label(self, unit):
        """ "Rifle Squad (German OOB line 3)": an OOB line as the messages name it."""
        index = next(i for i, u in enumerate(self.side_oob) if u is unit)
        text = unit["unit"] + (f" {unit['name']}" if unit.get("name") else "")
        return unittypes.line_label(text, self.side_name, index)

    def placement_state(self, entry, where, unit, label, ref):
        """What a placement says of its unit besides the hex, each key written only when given: ``off_map``
        (the unit is off the map; ``hex`` is the hex it is reckoned from, 004 L506), its ``strength`` as printed,
        ``steps_lost`` (fewer than its steps, where its line or type gives them: a unit with none left is
        eliminated, not set up) and ``status`` (ids of the game's catalogue, scenario.statuses)."""
        out = {}
        if "off_map" in entry and self.flag(entry["off_map"], f"{where}.off_map"):
            out["off_map"] = True
        strength = self.text(entry, "strength", f"{where}.strength", limit=limits.STRENGTH, hex=ref)
        if strength.strip():
            out["strength"] = strength.strip()
        if entry.get("steps_lost", 0) != 0:
            lost = self.integer(entry["steps_lost"], f"{where}.steps_lost", 0, limits.STEPS_LOST, ref)
            steps = unit.get("steps")
            if steps is None:
                steps = (self.unit_types.get(unit.get("type")) or {}).get("steps")
            if lost is not None and _is_count(steps) and lost >= steps:
                fields = self.catalogue.scenario_fields("oob") if self.catalogue is not None else {}
                rule = (fields.get("steps") or {}).get("rule")
                self.error(f"{where}.steps_lost", f"{label} has {steps} step{'s' if steps != 1 else ''}; with "
                                                  f"{lost} lost it is eliminated, not set up: at most {steps - 1}"
                                                  + (f" ({rule})" if rule else ""),
                           ref, code="bad-steps", named=True)
            elif lost:
                out["steps_lost"] = lost
        if entry.get("status", []) != []:
            statuses = self.read_status(entry["status"], f"{where}.status", label, ref)
            if statuses:
                out["status"] = statuses
        return out

    def read_status(self, value, path, label, ref):
        known = self.catalogue.statuses if self.catalogue is not None else {}
        game = self.catalogue.name if self.catalogue is not None else "this ruleset"
        if not isinstance(value, list):
            self.error(path, f"{label}: expected a list of status ids, got {types.kind_of(value)}", ref,
                       code="bad-type", named=True)
            return []
        if not self.within(value, path, limits.STATUSES):
            return []
        out = []
        for i, item in enumerate(value):
            if item in out:
                self.error(f"{path}[{i}]", f"{label} is given status {item!r} twice", ref, code="duplicate-id",
                           named=True)
            elif not isinstance(item, str) or item not in known:
                self.error(f"{path}[{i}]", f"{label}: status {item!r} is not one of {game}'s statuses "
                                           f"({', '.join(known) or 'it has none'})", ref, code="unknown-status",
                           named=True)
            else:
                out.append(item)
        return out

    def read_reinforcements(self, items, path, units):
        out = []
        if not self.within(items, path, limits.REINFORCEMENTS):
            return out
        for where, entry in self.entries(items, path, REINFORCEMENT_KEYS, ("turn", "units")):
            turn = self.integer(entry["turn"], f"{where}.turn", 0, 1000)
            group = []
            if not self.within(entry["units"], f"{where}.units", limits.REINFORCEMENT_UNITS):
                continue
            for upath, u in self.entries(entry["units"], f"{where}.units", REINFORCEMENT_UNIT_KEYS, ("unit",)):
                wrong = types.wrong_text(u["unit"], "a unit id")
                if wrong:
                    self.error(f"{upath}.unit", wrong, code="bad-type")
                    continue
                if u["unit"] not in units:
                    self.error(f"{upath}.unit", f"no unit {u['unit']!r} in this side's OOB", code="unknown-unit")
                    continue
                count = self.integer(u.get("count", 1), f"{upath}.count", 1, 500) or 1
                group.append({"unit": u["unit"], "count": count})
            if isinstance(entry["units"], list) and not entry["units"]:
                self.error(f"{where}.units", "a reinforcement brings at least one unit", code="missing")
            clean = {"turn": turn, "units": group, "edge": None, "hexes": []}
            if entry.get("edge") is None and not entry.get("hexes"):
                self.error(where, "say where they enter: a map 'edge' (N, E, S, W) or entry 'hexes'",
                           code="missing-entry")
            if entry.get("edge") is not None:
                clean["edge"] = self.edge(entry["edge"], f"{where}.edge")
            if "hexes" in entry:
                clean["hexes"] = self.hexes(entry["hexes"], f"{where}.hexes")
            clean["note"] = self.text(entry, "note", f"{where}.note", limit=limits.REINFORCEMENT_NOTE)
            out.append(clean)
        return out

    def read_victory(self, value, path):
        if value is None:
            return None
        too_big = limits.victory_problems(value, path, self.data)
        if too_big:
            self.errors.extend(too_big)
            return None
        found = victory.check(value, path, self.objective_ids, self.all_side_ids)
        self.errors.extend(self.named_findings(found))
        if found:
            return None
        condition = victory.normalise(value)
        self.read_exit_hexes(condition, value, path)
        return condition

    def read_exit_hexes(self, condition, given, path):
        """Exit hexes named by a condition (or the conditions it combines) are hexes of the maps."""
        if condition["kind"] == "exit":
            condition["hexes"] = self.hexes(given.get("hexes") or [], f"{path}.hexes")
        pairs = zip(condition.get("conditions") or [], given.get("conditions") or [], strict=False)
        for i, (inner, raw) in enumerate(pairs):
            self.read_exit_hexes(inner, raw, f"{path}.conditions[{i}]")

    def read_markers(self, items, side_ids):
        out = []
        known = self.marker_kinds()
        if not self.within(items, "markers", limits.MARKERS):
            return out
        for path, entry in self.entries(items, "markers", MARKER_KEYS, ("kind", "hex")):
            ref = self.hex(entry["hex"], f"{path}.hex")
            kind = entry["kind"]
            if not isinstance(kind, str) or (known and kind not in known):
                self.error(f"{path}.kind", f"expected one of this ruleset's markers ({', '.join(sorted(known))}), "
                                           f"got {kind!r}", ref, code="unknown-marker")
                continue
            side = entry.get("side")
            if side is not None and side not in side_ids:
                self.error(f"{path}.side", f"expected a side's id ({', '.join(side_ids) or 'no sides yet'}) or null, "
                                           f"got {side!r}", ref, code="unknown-side")
            count = self.integer(entry.get("count", 1), f"{path}.count", 1, 100, ref) or 1
            facing = self.facing(entry.get("facing"), f"{path}.facing", ref)
            details = self.read_details(kind, entry.get("details", {}), f"{path}.details", ref)
            if ref is not None:
                out.append({"kind": kind, "hex": ref, "side": side, "count": count, "facing": facing,
                            "note": self.text(entry, "note", f"{path}.note", limit=limits.MARKER_NOTE)})
                if details:
                    out[-1]["details"] = details
        return out

    def read_details(self, kind, value, path, ref):
        """A marker's details: the fields its kind declares in the catalogue (scenario.markers.<kind>.details),
        each checked by its spec; written only when given."""
        specs = self.catalogue.marker_details(kind) if self.catalogue is not None else {}
        if value == {}:
            return {}
        if not specs:
            name = self.catalogue.marker_name(kind) if self.catalogue is not None else kind
            self.error(path, f"a {name} marker takes no details (its game declares none)", ref, code="unknown-key")
            return {}
        fields = self.fields(value, path, tuple(specs))
        for key, spec in specs.items():
            if key in fields:
                fields[key] = self.field_value(spec, fields[key], f"{path}.{key}")
        return {key: fields[key] for key in specs if key in fields and fields[key] is not None}

    def marker_kinds(self):
        """Markers a scenario may place: the catalogue's marker layer, the kinds its scenario section declares,
        plus control markers."""
        if self.catalogue is None:
            return set()
        return self.catalogue.marker_kinds()

    def read_perimeter(self, value, side_ids):
        """TOCS: who owns each hex at the start (one shared layer); the hexes not listed belong to nobody."""
        if value is None:
            return None
        if not isinstance(value, dict):
            self.error("perimeter", f"expected an object of hexes per side id, got {_kind(value)}", code="bad-type")
            return None
        out, owner = {}, {}
        if not self.within(value, "perimeter", limits.SIDES, "sides"):
            return None
        for sid in sorted(value):
            if sid not in side_ids:
                self.error(f"perimeter.{sid}", f"no side {sid!r} (sides: {', '.join(side_ids)})", code="unknown-side")
                continue
            hexes = self.hexes(value[sid], f"perimeter.{sid}")
            for ref in hexes:
                if ref in owner:
                    self.error(f"perimeter.{sid}", f"hex {ref} is owned by {owner[ref]} already; each hex has one "
                                                   "owner", ref, code="perimeter-overlap")
                owner[ref] = sid
            out[sid] = hexes
        return out
