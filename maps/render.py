"""Pillow: a map as an image, terrain, levels and hexsides, with an optional highlight per hex (a viewshed)."""

from PIL import Image, ImageDraw

SCALE = 24  # pixels per map unit (a hex's circumradius)
MARGIN = 8

# Colours by what a terrain does to LOS, so that any ruleset, custom ones too, draws sensibly.
LOS_COLOURS = {"clear": (233, 228, 205), "hindering": (170, 200, 120), "blocking": (70, 120, 60),
               "special": (160, 150, 140)}
LEVEL_TINT = 18
HEXSIDE_COLOUR = (110, 60, 20)
RESULT_COLOURS = {"clear": (40, 170, 60, 90), "hindered": (240, 190, 30, 120), "blocked": (200, 40, 40, 130),
                  "blind": (90, 40, 160, 150)}


def _terrain_colour(catalogue, terrain, level):
    colour = LOS_COLOURS["clear"]
    for tid in terrain:
        try:
            los = catalogue.get(tid).get("los", "clear")
        except KeyError:
            continue
        if los != "clear":
            colour = LOS_COLOURS.get(los, colour)
    tint = max(-3, min(6, level)) * LEVEL_TINT
    return tuple(max(0, min(255, c - tint)) for c in colour)


def image_space(grid):
    """((width, height), px): the image's size in pixels and the map-space-to-pixel function it is drawn with
    (the map page lays its highlights over the image with the same one)."""
    min_x, min_y, max_x, max_y = grid.extent()
    width = int((max_x - min_x) * SCALE) + 2 * MARGIN
    height = int((max_y - min_y) * SCALE) + 2 * MARGIN

    def px(point):
        return (MARGIN + (point[0] - min_x) * SCALE, MARGIN + (point[1] - min_y) * SCALE)
    return (width, height), px


def render_map(cmap, highlight=None, labels=True):
    """The map as an RGB image; ``highlight`` maps hex index to an RGBA colour laid over it."""
    grid = cmap.grid
    (width, height), px = image_space(grid)

    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image, "RGBA")
    step = max(1, cmap.n // 4000)
    for col, row in grid.hexes():
        i = grid.index(col, row)
        corners = [px(p) for p in grid.corners(col, row)]
        draw.polygon(corners, fill=_terrain_colour(cmap.catalogue, cmap.terrain[i], int(cmap.level[i])),
                     outline=(150, 150, 150))
        if cmap.art[i] is not None:
            for poly in getattr(cmap.art[i], "geoms", [cmap.art[i]]):
                draw.polygon([px(p) for p in poly.exterior.coords], fill=(120, 90, 70))
        if highlight and i in highlight:
            draw.polygon(corners, fill=highlight[i])
        if labels and i % step == 0 and grid.size <= 4000:
            cx, cy = px(grid.centre(col, row))
            draw.text((cx - 9, cy - SCALE * 0.75), grid.label(col, row), fill=(60, 60, 60))
    for (col, row, side) in cmap.hexsides:
        a, b = grid.side_endpoints(col, row, side)
        draw.line([px(a), px(b)], fill=HEXSIDE_COLOUR, width=4)
    return image


def render_viewshed(cmap, shed):
    """A viewshed (engine.viewshed) drawn over the map, the observer's hex outlined."""
    highlight = {}
    for label, answer in shed["hexes"].items():
        key = "blind" if answer["blind"] else answer["result"]
        highlight[cmap.index_of(label)] = RESULT_COLOURS[key]
    image = render_map(cmap, highlight)
    draw = ImageDraw.Draw(image)
    col, row = cmap.grid.parse_hex(shed["from"])
    _, px = image_space(cmap.grid)
    corners = [px(p) for p in cmap.grid.corners(col, row)]
    draw.line(corners + corners[:1], fill=(0, 0, 0), width=3)
    return image
