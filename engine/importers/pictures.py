"""The small picture of each tile a Tiled map uses, for the mapping step to show beside its source code.

Each is cut from its tileset's image (an atlas) or is its own image (an image collection), decoded through
engine.images: the image's header is read and its size checked before anything is decoded, a JPEG is decoded
reduced to what the pictures need, the images are decoded one at a time and let go once their tiles are cut, and
every pixel decoded is charged to one budget per conversion (ImportLimits.max_picture_pixels). A picture is a
help, never a finding: a tile whose image cannot be read, or would take more than the budget left, has none.
"""

import base64
import io

from engine import images

PICTURE_PX = 48


def tile_pictures(seen, context):
    """{code: a small PNG data URI of its tile} for ``seen`` ({code: (tileset, local id)})."""
    budget = images.Budget(context.limits.max_picture_pixels)
    out = {}
    for (ref, base), tiles in by_image(seen, context).items():
        try:
            _, data = context.sibling(ref, base)
        except Exception:  # noqa: BLE001, S112 - a sibling too large or a path that escapes: no picture
            continue
        if data is None:
            continue
        out.update(cut(data, tiles, budget, context.limits.max_image_pixels))
        if budget.left <= 0:
            break
    return out


def by_image(seen, context):
    """{(image reference, the folder it is relative to): [(code, its box in the image, or None: the whole)]}."""
    found = {}
    for code, (tileset, local) in seen.items():
        if local in tileset.images:
            ref, box = tileset.images[local], None
        elif tileset.atlas is not None:
            ref, width, height, spacing, margin, columns = tileset.atlas
            if not (ref and width and height):
                continue
            columns = columns or 1
            x = margin + (local % columns) * (width + spacing)
            y = margin + (local // columns) * (height + spacing)
            box = (x, y, x + width, y + height)
        else:
            continue
        if isinstance(ref, str):
            found.setdefault((ref, tileset.base), []).append((code, box))
    return found


def cut(data, tiles, budget, declared):
    """The pictures of the tiles of one image, decoded once (reduced where its format allows) within budget;
    ``declared``: the most pixels its header may declare."""
    try:
        image = images.open_image(data, declared)
        width, height = image.size
        boxes = [box for _code, box in tiles if box is not None]
        tile_w = min((b[2] - b[0] for b in boxes), default=width)
        tile_h = min((b[3] - b[1] for b in boxes), default=height)
        need = (width * PICTURE_PX / max(1, tile_w), height * PICTURE_PX / max(1, tile_h))
        image, scale = images.decode(data, budget, at_least=need, declared=declared)
    except Exception:  # noqa: BLE001 - not an image, damaged, or past the budget: no pictures from it
        return {}
    out = {}
    for code, box in tiles:
        try:
            if box is None:
                picture = image.copy() if len(tiles) > 1 else image
            else:
                if box[2] > width or box[3] > height:
                    continue
                picture = image.crop(tuple(round(v * scale) for v in box))
            if picture.mode not in ("RGBA", "RGB", "L", "LA"):
                picture = picture.convert("RGBA")  # a crop is small; a whole image is within the budget
            picture.thumbnail((PICTURE_PX, PICTURE_PX), reducing_gap=2.0)
            buffer = io.BytesIO()
            picture.save(buffer, "PNG")
            out[code] = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
        except Exception:  # noqa: BLE001, S112 - a picture is a help: one that cannot be cut is left out
            continue
    return out
