"""A map revision compiled once into flat arrays, the form every evaluator reads.

Hexes are numbered column by column: ``index = column * rows + row`` (``Grid.index``). A hex just off the map
has no index; evaluators treat it as open ground at level 0.
"""

import numpy as np
from shapely.geometry import Polygon
from shapely.ops import unary_union

MARKER_KINDS = ("smoke", "smoke2", "wreck", "vehicle", "rubble", "dust", "flame")


class CompiledMap:
    """Arrays of one map (overlays applied) plus the scenario's markers.

    Attributes:
        grid: the Grid; n: number of hexes; ruleset: the ruleset id; catalogue: its Ruleset (terrain data).
        terrain: tuple of terrain ids per hex; level: int32 ground level; storeys: int32.
        side_ids: hexside terrain ids, code 0 meaning none; side_code: int16[n, 6], the code of each side of each
            hex (an edge is filled from both of its hexes).
        art: shapely geometry or None per hex; art_hex_start/art_ring_start/art_x/art_y: the same rings flattened
            for compiled kernels (hex i owns rings art_hex_start[i]..art_hex_start[i+1]; ring k owns points
            art_ring_start[k]..art_ring_start[k+1], closed: last point equals first).
        markers: dict index -> list of marker kinds (one entry per counter); marker_count(kind) -> int16[n].
        options: the map's rules options (extensions.rules), e.g. {"terraced_hills": true}.
        centres: float64[n, 2] map-space centres.
    """

    def __init__(self, doc, catalogue, markers=()):
        grid = doc.grid
        self.doc = doc
        self.grid = grid
        self.n = grid.size
        self.ruleset = doc.ruleset
        self.catalogue = catalogue
        self.options = dict((doc.extensions or {}).get("rules", {}))
        cells, hexsides = doc.resolved()
        default = doc.default_cell()
        self.terrain = []
        self.level = np.zeros(self.n, dtype=np.int32)
        self.storeys = np.ones(self.n, dtype=np.int32)
        self.art = [None] * self.n
        self.centres = np.zeros((self.n, 2), dtype=np.float64)
        for col, row in grid.hexes():
            i = grid.index(col, row)
            cell = cells.get((col, row), default)
            self.terrain.append(tuple(cell.terrain))
            self.level[i] = cell.level
            self.storeys[i] = cell.storeys
            if cell.art:
                # Only the art inside its own hex counts (artwork may spill over the edge).
                inside = unary_union([Polygon(p) for p in cell.art]).intersection(Polygon(grid.corners(col, row)))
                polys = [g for g in getattr(inside, "geoms", [inside]) if g.geom_type == "Polygon" and g.area > 0]
                self.art[i] = unary_union(polys) if polys else None
            self.centres[i] = grid.centre(col, row)
        self._has = {}

        self.side_ids = [None] + sorted(set(hexsides.values()))
        codes = {tid: k for k, tid in enumerate(self.side_ids)}
        self.side_code = np.zeros((self.n, 6), dtype=np.int16)
        self.hexsides = dict(hexsides)
        for (col, row, side), tid in hexsides.items():
            if grid.contains(col, row):
                self.side_code[grid.index(col, row), side] = codes[tid]
            ncol, nrow = grid.step(col, row, side)
            if grid.contains(ncol, nrow):
                self.side_code[grid.index(ncol, nrow), (side + 3) % 6] = codes[tid]

        self._flatten_art()

        self.markers = {}
        for entry in markers:
            col, row = grid.parse_hex(entry["hex"])
            kind = entry["kind"]
            if kind not in MARKER_KINDS:
                raise ValueError(f"marker {kind!r} in hex {grid.label(col, row)} is not one of "
                                 f"{', '.join(MARKER_KINDS)}")
            self.markers.setdefault(grid.index(col, row), []).extend([kind] * int(entry.get("count", 1)))

    def _flatten_art(self):
        hex_start, ring_start, xs, ys = [0], [0], [], []
        for geom in self.art:
            polys = [] if geom is None else getattr(geom, "geoms", [geom])
            for poly in polys:
                coords = list(poly.exterior.coords)
                xs.extend(x for x, _ in coords)
                ys.extend(y for _, y in coords)
                ring_start.append(len(xs))
            hex_start.append(len(ring_start) - 1)
        self.art_hex_start = np.array(hex_start, dtype=np.int32)
        self.art_ring_start = np.array(ring_start, dtype=np.int32)
        self.art_x = np.array(xs, dtype=np.float64)
        self.art_y = np.array(ys, dtype=np.float64)

    # -- lookups -------------------------------------------------------------------------------------
    def has(self, terrain_id):
        """bool[n]: which hexes hold this terrain."""
        if terrain_id not in self._has:
            self._has[terrain_id] = np.array([terrain_id in t for t in self.terrain], dtype=bool)
        return self._has[terrain_id]

    def marker_count(self, kind):
        out = np.zeros(self.n, dtype=np.int16)
        for i, kinds in self.markers.items():
            out[i] = kinds.count(kind)
        return out

    def index_of(self, hex_ref):
        """Index of a hex named by label or [column, row]; ValueError naming it when it is not on the map."""
        return self.grid.index(*self.grid.parse_hex(hex_ref))

    def label(self, index):
        return self.grid.label(*self.grid.from_index(index))

    def side_terrain(self, index, side):
        """Hexside terrain id on side ``side`` (0-5) of hex ``index``, or None."""
        return self.side_ids[self.side_code[index, side]]

    def hexside_label(self, col, row, side):
        """A hexside named for people: 'C4/SE' from a hex on the map."""
        key = self.grid.hexside(col, row, side)
        ncol, nrow, name = self.grid.hexside_name(key)
        return f"{self.grid.label(ncol, nrow)}/{name}"
