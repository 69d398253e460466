"""Seeded random maps: for benchmarks, differential tests and designers who want a quick test board.

The same seed always gives the same map. Terrain comes from the ruleset's own catalogue, hills grow as clusters
that rise towards their centre, and hexside features are scattered on hex edges.
"""

import random

from engine import rulesets
from engine.hexgrid import Grid
from engine.mapfile import Cell, MapDoc

STRUCTURES = {"light-structure", "heavy-structure", "building", "single-storey-building",
              "large-single-storey-building", "large-multi-storey-building", "village", "town", "city"}


def random_map(ruleset_id="ost", columns=60, rows=40, seed=1, orientation="flat", stagger="even",
               labels="letter-number", cover=1 / 3, hills=8, hexsides=300, art=0.3, name=None, terrain=None,
               sides=None):
    """A MapDoc with about ``cover`` of its hexes not open, ``hills`` hill clusters and ``hexsides`` features.

    ``terrain`` and ``sides`` narrow the hex and hexside terrain drawn from (default: the whole catalogue).
    """
    rng = random.Random(seed)
    catalogue = rulesets.get(ruleset_id)
    grid = Grid(orientation, columns, rows, stagger, labels, getattr(catalogue, "hex_metres", None) or 50)
    open_id = catalogue.open_hex()
    hex_ids = sorted(terrain or (t for t in catalogue.terrain_ids("hex") if t != open_id and t != "road"))
    side_ids = sorted(sides or catalogue.terrain_ids("hexside"))
    step = catalogue.level_step or 1
    low, high = catalogue.level_min, catalogue.level_max
    top = min(high, 3 * step)

    levels = {}
    for _ in range(hills):
        centre = (rng.randrange(columns), rng.randrange(rows))
        peak = rng.randint(1, max(1, top // step)) * step
        radius = rng.randint(2, 6)
        for col, row in grid.hexes():
            d = grid.distance(centre, (col, row))
            if d <= radius:
                level = max(0, peak - step * (d * (peak // step) // (radius + 1)))
                levels[(col, row)] = max(levels.get((col, row), 0), level)
    if low < 0:
        for _ in range((hills + 3) // 4):
            col, row = rng.randrange(columns), rng.randrange(rows)
            for h in [(col, row)] + grid.neighbours(col, row)[:2]:
                if levels.get(h, 0) == 0:
                    levels[h] = -step

    hexes = {}
    for col, row in grid.hexes():
        level = levels.get((col, row), 0)
        terrain, storeys, polys = (open_id,), 1, None
        if hex_ids and rng.random() < cover:
            terrain = (rng.choice(hex_ids),)
            if terrain[0] in STRUCTURES:
                storeys = rng.choice((1, 1, 2, 3))
            if rng.random() < art:
                cx, cy = grid.centre(col, row)
                s = rng.uniform(0.2, 0.45)  # with the offset, always inside the hex (inradius 0.866)
                dx, dy = rng.uniform(-0.15, 0.15), rng.uniform(-0.15, 0.15)
                polys = (((cx + dx - s, cy + dy - s), (cx + dx + s, cy + dy - s), (cx + dx + s, cy + dy + s),
                          (cx + dx - s, cy + dy + s)),)
        if terrain != (open_id,) or level:
            hexes[(col, row)] = Cell(terrain=terrain, level=level, storeys=storeys, art=polys)

    sides = {}
    all_hexes = list(grid.hexes())
    while side_ids and len(sides) < hexsides:
        col, row = rng.choice(all_hexes)
        sides[grid.hexside(col, row, rng.randrange(6))] = rng.choice(side_ids)
    return MapDoc(name=name or f"random {ruleset_id} {columns}x{rows} seed {seed}", ruleset=ruleset_id, grid=grid,
                  default_terrain=(open_id,), default_level=0, hexes=hexes, hexsides=sides)
