"""MegaMek boards written here, in MegaMek's own format, in place of MegaMek's (its board data is CC-BY-NC now,
so it is not copied into the repository).

The format is MegaMek's Map Editor readme ("The Board File Format") as MegaMek's own boards use it: CRLF lines;
``size W H``; ``option`` and ``tag`` lines; one ``hex XXYY ELEVATION "TERRAINS" "THEME"`` line per hex, row by row,
XXYY the 1-based column then row, each at least two digits (``10001``, ``01100`` past 99); ``end``. A hex's
terrains are ``type:level[:exits]`` items joined by ``;``, with the keys real boards use (``foliage_elev``,
``bldg_elev``, ``bldg_cf``, ``bldg_class``, ``bldg_armor``, ``fuel_tank*``, ``bridge*``, ``elevator``,
``impassable``, ``snow``). Each board is a fixed pattern: the same bytes on every run.
"""

from pathlib import Path


def board(width, height, hex_at, options=(), tags=()):
    """A .board file's bytes; ``hex_at(col, row)`` gives a 0-based hex's (elevation, terrains, theme)."""
    lines = [f"size {width} {height}", *(f"option {o}" for o in options), *(f'tag "{t}"' for t in tags)]
    for row in range(height):
        for col in range(width):
            elevation, terrains, theme = hex_at(col, row)
            lines.append(f'hex {col + 1:02d}{row + 1:02d} {elevation} "{terrains}" "{theme}"')
    lines.append("end")
    return ("\r\n".join(lines) + "\r\n").encode()


def _citytech(col, row):
    """16x17, levels 0 to 3: a hill, a paved town, a pond, woods and rough."""
    level = max(0, 3 - (abs(col - 3) + abs(row - 4)) // 2)
    if 8 <= col <= 11 and 6 <= row <= 10:
        return 0, "pavement:1", ""
    if (col - 12) ** 2 + (row - 14) ** 2 <= 3:
        return 0, f"water:{1 + (col + row) % 2}", ""
    if (col * 7 + row * 3) % 11 == 0:
        return level, "woods:2;foliage_elev:2", ""
    if (col * 5 + row) % 7 == 0:
        return level, "woods:1;foliage_elev:2", ""
    if (col + 2 * row) % 13 == 0:
        return level, "rough:1", ""
    return level, "", ""


def _battletech(col, row):
    """16x17, levels 0 to 3: two hills, woods, a lake and rough ground."""
    level = max(0, 3 - (abs(col - 11) + abs(row - 3)) // 2, 2 - (abs(col - 3) + abs(row - 12)) // 3)
    if (col - 6) ** 2 + (row - 7) ** 2 <= 4:
        return 0, "water:1" if (col - 6) ** 2 + (row - 7) ** 2 > 1 else "water:2", ""
    if (col * 3 + row * 5) % 9 == 0:
        return level, "woods:1", ""
    if (col * 11 + row) % 10 == 0:
        return level, "woods:2", ""
    if (col + row) % 12 == 0:
        return level, "rough:1", ""
    return level, "", ""


def _seaport(col, row):
    """16x17, level 0: the sea, a quay road, warehouses of several storeys, fuel tanks."""
    if col <= 2:
        return 0, "water:2", ""
    if row == 8 or col == 3:
        return 0, "road:1", ""
    if 5 <= col <= 8 and 2 <= row <= 5:
        return 0, f"bldg_elev:{1 + (col + row) % 3};building:{1 + col % 2}:{(col * row) % 64};bldg_cf:40", ""
    if 11 <= col <= 12 and 11 <= row <= 12:
        return 0, "fuel_tank_cf:15;fuel_tank_elev:2:0;fuel_tank_magn:50;fuel_tank:1:0", ""
    if 10 <= col <= 14 and 2 <= row <= 5:
        return 0, "pavement:1", ""
    return 0, "", ""


def _battle(col, row):
    """100x100, levels -2 to 9, snow: peaks walled off as impassable, a town with fortified buildings and a lift."""
    if (col, row) in ((99, 0), (0, 99), (99, 99)):
        return 9, "impassable:3", ""
    level = max(0, 9 - (abs(col - 70) + abs(row - 30)) // 4)
    if (col * 3 + row) % 23 == 0:
        level = -2 if level == 0 else level - 1  # shell craters
    if 40 <= col <= 47 and 60 <= row <= 67:
        if (col, row) == (43, 63):
            return 1, "pavement:1;elevator:6", ""
        return 1, f"building:3;bldg_cf:90;bldg_elev:{1 + (col + row) % 4};bldg_class:2;bldg_armor:30", ""
    if row == 50:
        return max(level, 0), "road:1", "snow"
    if (col * 13 + row * 7) % 19 == 0:
        return level, "woods:1;snow:1", "snow"
    if (col - 20) ** 2 + (row - 80) ** 2 <= 25:
        return -2, "water:1;ice:1", "snow"
    return level, "snow:1" if (col + row) % 5 == 0 else "", "snow"


def _bare(col, row):
    """35x35, bare elevation from a crater at -20 to a rock at 40, no terrain at all."""
    rock = 40 - 4 * (abs(col - 25) + abs(row - 25))
    crater = -20 + 5 * max(abs(col - 7), abs(row - 7))
    return min(max(rock, 0) or min(crater, 0), 40), "", ""


def _deep(col, row):
    """10x10, levels -3 to 20: pits at 0402, 0403 and 0503, a wall of impassable 20-level rock down one side."""
    if (col, row) in ((3, 1), (3, 2), (4, 2)):
        return -3, "", ""
    if col == 9:
        return 20, "impassable:1", ""
    return (col + row) % 3, "pavement:1" if row == 5 else "", ""


def _sinkhole(col, row):
    """16x17, levels -3 to 0: a desert sinkhole with rough sides."""
    depth = max(0, 3 - max(abs(col - 7), abs(row - 8)) // 2)
    return -depth, "rough:1" if depth == 1 else "", "desert"


def _archipelago(col, row):
    """16x17, levels 0 to 4: islands in deep water, a bridge between two of them."""
    island = max(0, 4 - (abs(col - 3) + abs(row - 14)), 2 - (abs(col - 11) + abs(row - 5)) // 2)
    if island:
        return island, "woods:1" if (col + row) % 4 == 0 else "", ""
    if row == 9 and 4 <= col <= 10:
        return 0, "water:3;bridge:1:18;bridge_cf:40;bridge_elev:1", ""
    return 0, f"water:{1 + (col * row) % 3}", ""


def _boreal(col, row):
    """14x14, levels -6 to 4: a frozen ravine under cliffs, a paved road across."""
    level = 4 - abs(col - 10) if col > 6 else -6 + abs(col - 3) * 2 if col < 6 else 0
    if row == 7:
        return level, "pavement:1", "snow"
    return level, "rough:1" if (col + row) % 4 == 0 else "", "snow"


BOARDS = {
    "16x17 CityTech.board": board(16, 17, _citytech, tags=("Water (Auto)", "Woods (Auto)")),
    "16x17 BattleTech.board": board(16, 17, _battletech, tags=("Water (Auto)", "Woods (Auto)")),
    "16x17 Seaport.board": board(16, 17, _seaport, options=("exit_roads_to_pavement false",),
                                 tags=("Water (Auto)", "Roads (Auto)")),
    "100x100 Battle.board": board(100, 100, _battle, tags=("Cliffs (Auto)", "SnowTheme (Auto)")),
    "35x35 Crater and Rock.board": board(35, 35, _bare),
    "10x10 Pits and Wall.board": board(10, 10, _deep),
    "16x17 Sinkhole.board": board(16, 17, _sinkhole),
    "16x17 Archipelago.board": board(16, 17, _archipelago, tags=("Water (Auto)",)),
    "14x14 Ravine.board": board(14, 14, _boreal, tags=("SnowTheme (Auto)", "Cliffs (Auto)")),
}
CITYTECH, DEEP = "16x17 CityTech.board", "10x10 Pits and Wall.board"


def write_boards(folder):
    """Write every board into a folder (a test's tmp_path); {name: path}."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, data in BOARDS.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths
