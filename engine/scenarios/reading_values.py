"""The scenario reader's small readers (engine/scenarios/scenariofile.py): a text, a whole number, a flag, an id,
a hex and lists of hexes, an edge, a facing, and a game's own fields by their catalogue specs. Each reports what
is wrong with its path and reads on, so that a file's every problem is listed at once. ``ValuesReader`` is one of
the reader's classes: it uses the state the reader has (the maps, the main map's key, the catalogue)."""

import json
import re

from engine.mapfile import _is_int, _kind
from engine.scenarios import limits

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
EDGES = ("N", "E", "S", "W")
IMPULSE = re.compile(r"^(\d+)D6(?:\+(\d+))?$")
# What no text of a scenario may hold: the control characters XML 1.0 cannot write (a VASSAL module's buildFile,
# an SVG, a TMX), DEL, and lone surrogates, which no UTF-8 file can. Tab and newline are text.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


class ValuesReader:
    def text(self, obj, key, path, required=False, limit=limits.INTRODUCTION, hex=None):
        value = obj.get(key, "")
        if key not in obj and required:
            return ""
        if not isinstance(value, str):
            self.error(path, f"expected text, got {_kind(value)}", hex, code="bad-type")
            return ""
        if required and not value.strip():
            self.error(path, "must not be empty", hex, code="missing")
        if len(value) > limit:
            self.error(path, self.too_long(path, len(value), limit), hex, code="too-long")
        found = CONTROL.search(value)
        if found:
            self.error(path, f"holds the invisible control character U+{ord(found.group()):04X} (at character "
                             f"{found.start() + 1}); remove it", hex, code="control-character")
            return CONTROL.sub("", value)
        return value

    def within(self, items, path, limit, noun=None):
        """Is a list no longer than its limit (limits.py)? A longer one is reported and not read further."""
        if isinstance(items, (list, dict)) and len(items) > limit:
            self.error(path, self.too_many(path, len(items), limit, noun), code="too-many")
            return False
        return True

    def integer(self, value, path, low=None, high=None, hex=None):
        if not _is_int(value) or (low is not None and value < low) or (high is not None and value > high):
            span = (f" from {low}" if low is not None else "") + (f" to {high}" if high is not None else "")
            self.error(path, f"expected a whole number{span}, got {value!r}", hex, code="bad-number")
            return None
        return value

    def number(self, value, path, positive=True):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (positive and value <= 0):
            self.error(path, f"expected a {'positive ' if positive else ''}number, got {value!r}", code="bad-number")
            return None
        return value

    def flag(self, value, path):
        if not isinstance(value, bool):
            self.error(path, f"expected true or false, got {value!r}", code="bad-type")
            return False
        return value

    def ident(self, value, path, seen, what):
        if not isinstance(value, str) or not ID.match(value):
            self.error(path, f"expected an id (letters, digits, '-', '_' or '.', at most 64), got {value!r}",
                       code="bad-id")
            return None
        if value in seen:
            self.error(path, f"{what} id {value!r} is used twice", code="duplicate-id")
            return None
        seen.add(value)
        return value

    def hex(self, value, path):
        """The canonical reference of a hex ("C4", or "key:C4" off the main map), or None (reported)."""
        if self.main is None:
            return None
        key = self.main
        raw = value
        if isinstance(value, str) and ":" in value:
            key, _, raw = value.rpartition(":")
            if key not in self.maps:
                self.error(path, f"no map {key!r} in this scenario (maps: {', '.join(self.maps)})", value,
                           code="unknown-map")
                return None
        grid = self.maps[key].grid
        try:
            col, row = grid.parse_hex(raw)
        except ValueError as exc:
            self.error(path, str(exc), value if isinstance(value, str) else None, code="off-map")
            return None
        label = grid.label(col, row)
        return label if key == self.main else f"{key}:{label}"

    def hexes(self, value, path, sort=True):
        if not isinstance(value, list):
            self.error(path, f"expected a list of hexes, got {_kind(value)}", code="bad-type")
            return []
        if not self.within(value, path, limits.HEXES, "hexes"):
            return []
        self.hexes_listed += len(value)
        if self.hexes_listed > limits.HEXES_ALL:
            if self.hexes_listed - len(value) <= limits.HEXES_ALL:  # said once
                self.error(path, f"the scenario's hex lists come to more than {limits.HEXES_ALL:,} hexes here; at "
                                 f"most {limits.HEXES_ALL:,} in all", code="too-many")
            return []
        out = []
        for i, item in enumerate(value):
            ref = self.hex(item, f"{path}[{i}]")
            if ref is not None and ref not in out:
                out.append(ref)
        return self.sorted_hexes(out) if sort else out

    def sorted_hexes(self, refs):
        keys = list(self.maps)

        def order(ref):
            key, _, label = ref.rpartition(":")
            key = key or self.main
            return (keys.index(key),) + self.maps[key].grid.parse_label(label)

        return sorted(refs, key=order)

    def edge(self, value, path):
        if value not in EDGES:
            self.error(path, f"expected a map edge: N (north), E (east), S (south) or W (west), got {value!r}",
                       code="bad-edge")
            return None
        return value

    def facing(self, value, path, hex=None):
        if value is None:
            return None
        if _is_int(value) and 0 <= value <= 5:
            return value
        grid = self.maps[self.main].grid if self.main else None
        if isinstance(value, str) and grid is not None and value.upper() in grid.sides:
            return value.upper()
        sides = ", ".join(grid.sides) if grid else "a side name"
        self.error(path, f"expected a hexside ({sides}) or a vertex 0 to 5, got {value!r}", hex, code="bad-facing")
        return None

    def game_fields(self, obj, path, part):
        """A part's per-game fields ("oob", "side" or "rules"), each checked by its spec in the ruleset's
        catalogue (scenario.<part>); a ruleset without one takes none."""
        specs = self.catalogue.scenario_fields(part) if self.catalogue is not None else {}
        fields = self.fields(obj, path, tuple(specs))
        for key, spec in specs.items():
            if key in fields:
                fields[key] = self.field_value(spec, fields[key], f"{path}.{key}")
        return fields

    def field_value(self, spec, value, path):
        """One per-game field checked by its catalogue spec (engine.rulesets.catalogue.FIELD_TYPES)."""
        kind = spec["type"]
        size = len(json.dumps(value, ensure_ascii=False))
        if size > limits.GAME_FIELD:
            self.error(path, self.too_long(path, size, limits.GAME_FIELD), code="too-long")
            return value
        if kind == "integer":
            self.integer(value, path, spec.get("min"), spec.get("max"))
        elif kind == "number":
            self.number(value, path)
        elif kind == "boolean":
            self.flag(value, path)
        elif kind in ("text", "unit") and not isinstance(value, str):
            self.error(path, f"expected text, got {_kind(value)}", code="bad-type")
        elif kind in ("text", "unit") and len(value) > limits.GAME_TEXT:
            self.error(path, self.too_long(path, len(value), limits.GAME_TEXT), code="too-long")
        elif kind == "choice" and value not in spec["values"]:
            self.error(path, f"expected one of {', '.join(spec['values'])}, got {value!r}",
                       code=spec.get("code", "bad-choice"))
        elif kind == "edge":
            self.edge(value, path)
        elif kind == "dice":
            if isinstance(value, str) and IMPULSE.match(value.upper()):
                return value.upper()
            self.error(path, f"expected a dice formula such as \"2D6+3\", got {value!r}",
                       code=spec.get("code", "bad-dice"))
        elif kind == "counts":
            self.counts(spec, value, path)
        elif kind == "overlays" and self.within(value, path, limits.GAME_LIST, "overlays"):
            for where, entry in self.entries(value, path, ("id", "x", "y"), ("id", "x", "y")):
                if not isinstance(entry["id"], str) or not entry["id"]:
                    self.error(f"{where}.id", "expected the overlay's id, e.g. \"OG1\"", code="bad-type")
                for k in ("x", "y"):
                    ref = self.hex(entry[k], f"{where}.{k}")
                    if ref is not None:
                        entry[k] = ref
        elif kind == "side-ids" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            self.error(path, f"expected a list of side ids, got {value!r}", code="bad-type")
        elif kind == "side-ids":
            self.within(value, path, limits.GAME_LIST, "side ids")
        elif kind == "hex":
            return self.hex(value, path)
        return value

    def counts(self, spec, value, path):
        """Whole numbers by name: by the names the spec lists, or by any name."""
        if value is None:
            return
        names = spec.get("keys")
        if names is not None:
            if not self.keys(value, path, tuple(names)):
                return
        elif not isinstance(value, dict) or not self.within(value, path, limits.GAME_LIST, "names"):
            self.error(path, f"expected an object of {spec.get('means') or 'whole numbers by name'}",
                       code="bad-type")
            return
        for name, n in value.items():
            if names is None or name in names:
                self.integer(n, f"{path}.{name}", spec.get("min"), spec.get("max"))

    def fields(self, obj, path, allowed):
        """Free per-game fields: only the names the game knows, each a JSON value. Objects inside are written
        with their keys sorted, so that a store that reorders keys (PostgreSQL's jsonb) changes nothing."""
        if not self.keys(obj, path, allowed):
            return {}
        return {key: json.loads(json.dumps(obj[key], sort_keys=True)) for key in allowed if key in obj}
