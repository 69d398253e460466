"""Random edit operations that the server accepts, for comparing the browser's apply with the server's.

Each generator keeps just enough of the document's state (overlay ids, list lengths) to make operations that are
valid where they are applied, and writes every value in the form the file formats write back, so that the
browser's document (which does not re-read the file) can equal the server's whole."""

import copy
import random
import string

from engine import rulesets
from engine.hexgrid import Grid
from engine.scenarios import edits as scenario_edits

MAP_OPERATIONS = ("set_terrain", "set_level", "set_storeys", "set_label_note", "clear_hexes", "set_art", "clear_art",
                  "set_hexside", "clear_hexside", "place_overlay", "move_overlay", "remove_overlay", "set_background",
                  "rename")


def _text(rng, words=3):
    return " ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 7)))
                    for _ in range(rng.randint(1, words)))


class MapOperations:
    """Operations of every kind engine/edits.py accepts, on a map of the given grid and ruleset."""

    def __init__(self, document, seed):
        self.rng = random.Random(seed)
        self.grid = Grid(**document["grid"])
        ruleset = rulesets.get(document["ruleset"])
        terrain = ruleset.terrain.values()
        self.hex_terrain = sorted(t["id"] for t in terrain if t.get("layer", "hex") == "hex")
        self.side_terrain = sorted(t["id"] for t in terrain if t.get("layer") == "hexside")
        self.levels = list(range(ruleset.level_min, ruleset.level_max + 1, ruleset.level_step or 1))
        self.overlays = [o["id"] for o in document["overlays"]]
        self.made = 0

    def hex(self, inner=False):
        """A hex label; `inner` keeps it off the map's edge, so that its neighbours are on the map."""
        g, m = self.grid, 1 if inner else 0
        return g.label(self.rng.randint(m, g.columns - 1 - m), self.rng.randint(m, g.rows - 1 - m))

    def hexes(self):
        return sorted({self.hex() for _ in range(self.rng.randint(1, 6))})

    def art(self):
        """One or two triangles about the hex's centre, on a thousandth of a hex."""
        label = self.hex()
        cx, cy = self.grid.centre(*self.grid.parse_label(label))
        polygons = []
        for _ in range(self.rng.randint(1, 2)):
            r = self.rng.choice((0.3, 0.5, 0.7))
            corners = ((0, -1), (0.87, 0.5), (-0.87, 0.5))
            polygons.append([[round(cx + dx * r, 3), round(cy + dy * r, 3)] for dx, dy in corners])
        return label, polygons if len(polygons) > 1 or self.rng.random() < 0.5 else polygons[0]

    def overlay(self):
        self.made += 1
        offsets = sorted(self.rng.sample([[0, 0], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]], 3))
        hexes = [{"hex": o, "terrain": [self.rng.choice(self.hex_terrain)], "level": self.rng.choice(self.levels)}
                 for o in offsets]
        sides = [{"hex": [0, 0], "side": self.grid.sides[self.rng.randrange(6)],
                  "terrain": self.rng.choice(self.side_terrain)}] if self.rng.random() < 0.5 else []
        return {"id": f"ov-{self.made}", "anchor": self.hex(inner=True), "rotation": self.rng.randrange(6),
                "hexes": hexes, "hexsides": sides}

    def one(self, name):
        rng, g = self.rng, self.grid
        if name == "set_terrain":
            terrain = rng.sample(self.hex_terrain, rng.randint(1, 2))
            return {"op": name, "hexes": self.hexes(), "terrain": terrain}
        if name == "set_level":
            return {"op": name, "hexes": self.hexes(), "level": rng.choice(self.levels)}
        if name == "set_storeys":
            return {"op": name, "hexes": self.hexes(), "storeys": rng.randint(1, 10)}
        if name == "set_label_note":
            return {"op": name, "hexes": self.hexes(), "label_note": _text(rng) if rng.random() < 0.7 else None}
        if name == "clear_hexes":
            return {"op": name, "hexes": self.hexes()}
        if name == "set_art":
            label, art = self.art()
            return {"op": name, "hex": label, "art": art}
        if name == "clear_art":
            return {"op": name, "hex": self.hex()}
        if name == "set_hexside":
            return {"op": name, "hex": self.hex(inner=True), "side": g.sides[rng.randrange(6)],
                    "terrain": rng.choice(self.side_terrain)}
        if name == "clear_hexside":
            return {"op": name, "hex": self.hex(inner=True), "side": g.sides[rng.randrange(6)]}
        if name == "place_overlay":
            overlay = self.overlay()
            self.overlays.append(overlay["id"])
            return {"op": name, "overlay": overlay}
        if name == "move_overlay":
            if not self.overlays:
                return self.one("place_overlay")
            op = {"op": name, "id": rng.choice(self.overlays)}
            if rng.random() < 0.7:
                op["anchor"] = self.hex(inner=True)
            if "anchor" not in op or rng.random() < 0.5:
                op["rotation"] = rng.randrange(6)
            return op
        if name == "remove_overlay":
            if not self.overlays:
                return self.one("place_overlay")
            oid = rng.choice(self.overlays)
            self.overlays.remove(oid)
            return {"op": name, "id": oid}
        if name == "set_background":
            if rng.random() < 0.3:
                return {"op": name, "background": None}
            origin = [float(rng.randint(0, 400)), float(rng.randint(0, 400))]
            return {"op": name, "background": {"image": f"scan-{rng.randint(1, 9)}.png", "origin": origin,
                                               "hex_px": float(rng.randint(10, 80)),
                                               "rotation": float(rng.randint(-30, 30)),
                                               "opacity": rng.choice((0.25, 0.5, 1.0))}}
        assert name == "rename"
        return {"op": name, "name": _text(rng, 4)}

    def batches(self, count, size):
        """`count` operations, every kind in turn and then at random, in batches of `size`."""
        names = list(MAP_OPERATIONS) + [self.rng.choice(MAP_OPERATIONS) for _ in range(count - len(MAP_OPERATIONS))]
        ops = [self.one(name) for name in names]
        return [ops[i:i + size] for i in range(0, len(ops), size)]


class ScenarioOperations:
    """set, insert, remove and move at paths of a scenario with sides: metadata, special rules, objectives,
    markers, setup zones, placements. The state is followed with the server's own step function."""

    def __init__(self, document, grid, seed):
        self.rng = random.Random(seed)
        self.doc = copy.deepcopy(document)
        self.grid = Grid(**grid)
        self.made = 0

    def hex(self):
        g = self.grid
        return g.label(self.rng.randrange(g.columns), self.rng.randrange(g.rows))

    def candidates(self):
        rng, d, out = self.rng, self.doc, []
        for key in ("subtitle", "date", "place", "designer", "introduction"):
            out.append({"op": "set", "path": key, "value": _text(rng, 5)})
        out.append({"op": "set", "path": "title", "value": _text(rng).title()})
        rules = d["special_rules"]
        out.append({"op": "insert", "path": "special_rules", "value": _text(rng, 8),
                    "index": rng.randint(0, len(rules))})
        if rules:
            i = rng.randrange(len(rules))
            out += [{"op": "set", "path": f"special_rules[{i}]", "value": _text(rng, 8)},
                    {"op": "remove", "path": f"special_rules[{i}]"},
                    {"op": "move", "path": "special_rules", "from": i, "to": rng.randrange(len(rules))}]
        self.made += 1
        sides = [s["id"] for s in d["sides"]]
        out.append({"op": "insert", "path": "objectives", "value": {
            "id": f"obj-r{self.made}", "hex": self.hex(), "name": _text(rng).title(),
            "kind": rng.choice(("objective", "control")), "owner": rng.choice([None, *sides]),
            "vp": rng.choice((None, rng.randint(0, 20)))}})
        objectives = d["objectives"]
        if objectives:
            i = rng.randrange(len(objectives))
            out += [{"op": "set", "path": f"objectives[{i}].name", "value": _text(rng).title()},
                    {"op": "set", "path": f"objectives[{i}].vp", "value": rng.randint(0, 20)},
                    {"op": "remove", "path": f"objectives[{i}]"},
                    {"op": "move", "path": "objectives", "from": i, "to": rng.randrange(len(objectives))}]
        out.append({"op": "insert", "path": "markers", "value": {"kind": "control", "hex": self.hex(),
                                                                 "side": rng.choice([None, *sides]), "count": 1,
                                                                 "facing": None, "note": ""}})
        if d["markers"]:
            out.append({"op": "remove", "path": f"markers[{rng.randrange(len(d['markers']))}]"})
        s = rng.randrange(len(d["sides"]))
        side, path = d["sides"][s], f"sides[{s}]"
        zone = sorted({self.hex() for _ in range(rng.randint(0, 5))}, key=self.grid.parse_label)
        out += [{"op": "set", "path": f"{path}.setup_zone", "value": zone},
                {"op": "set", "path": f"{path}.name", "value": _text(rng, 2).title()},
                {"op": "set", "path": f"{path}.oob[0].name", "value": _text(rng, 2)}]
        if len(side["placements"]) < side["oob"][0]["count"]:
            out.append({"op": "insert", "path": f"{path}.placements",
                        "value": {"unit": side["oob"][0]["id"], "hex": self.hex(), "facing": None}})
        if side["placements"]:
            i = rng.randrange(len(side["placements"]))
            out += [{"op": "remove", "path": f"{path}.placements[{i}]"},
                    {"op": "move", "path": f"{path}.placements", "from": i,
                     "to": rng.randrange(len(side["placements"]))}]
        return out

    def one(self):
        op = self.rng.choice(self.candidates())
        # Followed with engine/scenarios/edits.py's own step, so the next operation's indexes are right.
        scenario_edits._run(self.doc, op, scenario_edits.parse_path(op["path"]))
        return op

    def batches(self, count, size):
        ops = [self.one() for _ in range(count)]
        return [ops[i:i + size] for i in range(0, len(ops), size)]
