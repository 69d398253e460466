"""Opening an image within a pixel budget: every image an import, a board scan or a mapping preview opens goes
through here. No Django.

An image's width and height are read from its header and refused past the caller's budget before a pixel is
decoded; a picture made small is decoded small where the format allows it (a JPEG at down to an eighth of its
size each way, by the JPEG decoder itself: Image.draft), and every pixel it decodes is counted against a budget
the caller holds for the whole piece of work (a proposal's tile pictures, say), so that twenty small files
declaring 60 megapixels each cost one budget, not twenty images. Pillow's own MAX_IMAGE_PIXELS is no such bound:
it is per image, and large (89 million pixels).
"""

import io
import warnings

from PIL import Image


class TooLarge(ValueError):
    """An image past its budget, said in a designer's words (``str()``)."""

    def __init__(self, what, width, height, budget):
        self.width, self.height, self.budget = width, height, budget
        size = f"{width} x {height} pixels ({width * height:,})" if width else "larger than Pillow reads"
        super().__init__(f"{what} is {size}; at most {budget:,} pixels are decoded")


class Budget:
    """The pixels a piece of work may still decode; ``take`` charges a decode before it happens."""

    def __init__(self, pixels):
        self.left = max(0, int(pixels))

    def take(self, what, width, height):
        if width * height > self.left:
            raise TooLarge(what, width, height, self.left)
        self.left -= width * height


def budget_of(budget):
    return budget if isinstance(budget, Budget) else Budget(budget)


def open_image(data, pixels, formats=None, what="the image"):
    """The image with only its header read (no pixel decoded), or TooLarge when its width x height is past
    ``pixels``. Pillow's errors for a file that is not an image pass through (UnidentifiedImageError, ...)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the budget below is the bound
            image = Image.open(io.BytesIO(data), formats=formats)
    except Image.DecompressionBombError:
        raise TooLarge(what, 0, 0, pixels) from None
    width, height = image.size
    if width * height > pixels:
        raise TooLarge(what, width, height, pixels)
    return image


def decode(data, budget, at_least=None, declared=None, formats=None, what="the image"):
    """(image decoded, scale): an image decoded within ``budget`` (pixels, or a Budget charged what it decodes).

    ``at_least`` (width, height): the smallest size the caller needs; a JPEG is then decoded at the smallest of
    its reduced sizes that is at least that big (``scale`` is its size over the image's own). ``declared``: the
    most pixels the header may declare (default: the budget), checked before the reduction is chosen."""
    budget = budget_of(budget)
    image = open_image(data, budget.left if declared is None else declared, formats, what)
    width, height = image.size
    if at_least is not None and image.format == "JPEG":
        image.draft(image.mode, (max(1, int(at_least[0])), max(1, int(at_least[1]))))
    budget.take(what, *image.size)
    image.load()
    return image, image.size[0] / width
