"""What every ruleset's LOS evaluator offers the engine.

Each game's LOS rules (engine/games/<id>/los) define ``class Rules(RulesBase)``.
Two ways to answer the same question, which a differential test keeps equal:

- ``evaluate``: the reference, one pair at a time, plain Python over a :class:`engine.los.trace.Trace`,
  returning an :class:`Answer` with every reason and assumption;
- ``batch``: the fast path, many pairs at once (numba or numpy), returning only result code, hindrance
  count and blind flag per pair.
"""

import numpy as np

from engine import rulesets
from engine.los import tables as line_tables


def hex_label(grid, h):
    """A hex's label, or its coordinates when it lies off the map (a line along the border meets those)."""
    if grid.contains(*h):
        return grid.label(*h)
    return f"off-map [{h[0]}, {h[1]}]"


def hexside_label(cmap, key):
    """A hexside named for people ('C4/SE'), also on the map's border."""
    try:
        return cmap.hexside_label(*key)
    except ValueError:
        return f"off-map [{key[0]}, {key[1]}]/{key[2]}"


def by_owner(step, values):
    """The two hexes of a hexside step with their values, the hexside's owner first: the same both ways."""
    pairs = list(zip(step.hexes, values, strict=False))
    owner = tuple(step.hexside[:2])
    return sorted(pairs, key=lambda pair: tuple(pair[0]) != owner)


class RulesBase:
    id = ""
    # The ruleset's own wording per generic result, e.g. {"clear": "Clear", "hindered": "Degraded", ..}
    terms = {"clear": "Clear", "hindered": "Hindered", "blocked": "Blocked"}
    # Where the game has fire groups (several units firing at one target as one attack): {"most": the degrading
    # elements the group's lines may cross together, "rule"}; None where it has none (engine/los/fire_groups.py).
    fire_group: dict | None = None

    def __init__(self, cmap):
        self.cmap = cmap
        # The catalogue is the one source of what a terrain does; a map compiled without one reads the built-in.
        self.catalogue = cmap.catalogue if cmap.catalogue is not None else rulesets.get(self.id)
        # The catalogue's words win, so a designer's custom profile can speak its own game's language.
        self.terms = {**self.terms, **(getattr(self.catalogue, "terms", None) or {})}

    def describe(self, result, hindrances, blind):
        """The ruleset's own wording for an answer (the Answer's ``term``); the batch path has only these three."""
        return self.terms[result]

    def unit_level(self, index):
        """Where a unit standing in hex ``index`` is, in the ruleset's level units (ground plus building)."""
        return int(self.cmap.level[index])

    def unit_levels(self):
        """unit_level for every hex, as a read-only int32 array, worked out once per map."""
        if getattr(self, "_unit_levels", None) is None:
            levels = np.array([self.unit_level(i) for i in range(self.cmap.n)], dtype=np.int32)
            levels.setflags(write=False)
            self._unit_levels = levels
        return self._unit_levels

    def hex_axial(self):
        """(lookup, q0, r0, q, r), made once per map: hexes by axial coordinates (tables.hex_lookup) and each hex's
        own axial coordinates as int32 arrays, so a kernel reads a hex's index instead of converting it."""
        if getattr(self, "_hex_axial", None) is None:
            grid = self.cmap.grid
            lookup, q0, r0 = line_tables.hex_lookup(grid)
            axial = np.array([grid.to_axial(*grid.from_index(i)) for i in range(grid.size)], dtype=np.int32)
            self._hex_axial = (lookup, q0, r0, np.ascontiguousarray(axial[:, 0]), np.ascontiguousarray(axial[:, 1]))
        return self._hex_axial

    _slice_tables = None  # while answer_pairs runs a slice: the tables holding that slice's shapes

    @property
    def tables(self):
        """The flattened trace shapes batch() reads: every shape of the grid (cached per grid shape), or, while
        answer_pairs runs one slice of a large map, that slice's shapes only."""
        if self._slice_tables is not None:
            return self._slice_tables
        grid = self.cmap.grid
        shape = (grid.orientation, grid.columns, grid.rows, grid.stagger)
        if not line_tables.full_tables_fit(*shape):
            # Every shape of a grid this large would take gigabytes: such a map is asked through answer_pairs.
            raise line_tables.TablesTooLarge(f"the line tables of a {grid.columns} x {grid.rows} map do not fit "
                                             "HEXSIDE_LOS_TABLE_MB: ask its pairs through answer_pairs()")
        return line_tables.trace_tables(*shape)

    def answer_pairs(self, a, b, level_a, level_b):
        """batch() for any number of pairs on any map, its memory bounded (HEXSIDE_LOS_TABLE_MB).

        A grid whose every line shape fits the budget is answered in one batch over its cached tables; a larger
        one slice by slice, each slice traced for its own shapes only. The answers are the same either way.
        """
        grid = self.cmap.grid
        a, b = np.asarray(a, np.int32), np.asarray(b, np.int32)
        level_a, level_b = np.asarray(level_a, np.int32), np.asarray(level_b, np.int32)
        if line_tables.full_tables_fit(grid.orientation, grid.columns, grid.rows, grid.stagger):
            return self.batch(a, b, level_a, level_b)
        result, hindrances, blind = np.zeros(len(a), np.int8), np.zeros(len(a), np.int16), np.zeros(len(a), bool)
        for part, tables in line_tables.slices(grid, a, b):
            self._slice_tables = tables
            try:
                result[part], hindrances[part], blind[part] = self.batch(a[part], b[part], level_a[part],
                                                                         level_b[part])
            finally:
                self._slice_tables = None
            del tables  # before the next slice's are built
        return result, hindrances, blind

    def evaluate(self, trace, from_level, to_level):
        raise NotImplementedError

    def batch(self, a, b, level_a, level_b):
        """Answer many pairs: int32 arrays of hex indices and levels, all of one length n.

        Returns (result int8[n] with 0 clear / 1 hindered / 2 blocked, hindrances int16[n], blind bool[n]).
        """
        raise NotImplementedError
