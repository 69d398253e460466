"""Counter images for a module's pieces: the one counter drawing of engine/render/counters.py (the sheets and the
card's map draw it too), kept here under the names the VASSAL export has always called. ``facing=None`` draws no
arrow, for a module whose pieces turn with a Rotate trait."""

from engine.render.counters import (  # noqa: F401 - the names the exports call
    GREY,
    VALUES,
    counter_image,
    counter_png,
    facing_angle,
    values_line,
)
