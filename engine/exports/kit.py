"""A scenario's print-and-play kit (docs/print-and-play.md): a zip of PDFs, each printed with its own settings
(the card on one side of the page, the map pages at 100 %, the counter sheets two-sided), and a README saying
how.

What a kit holds is what its reader may see (engine/scenarios/visibility.py): it is made from the scenario as
viewed by the sides its reader holds. The designer's kit (the owner's, an editor's: every side) holds the public
card, every side's sheet and every side's counters; a side's link holder's kit holds the public card, that side's
sheet and that side's counters, and nothing of another side's secrets (a side's sheet, its hidden units' hexes,
its hidden counters). The map pages are the public card's map: the public part of every side drawn.
"""

import dataclasses
import io
import zipfile

from engine.exports import countersheets, mappages
from engine.los.engine import compile_map
from engine.scenarios import cards, visibility
from engine.scenarios.cards.mapimage import crop_of, printed_map, scenario_layer

README = """{title}: print-and-play kit ({who})

{files}

How to print:
- the card and the side sheets: as they are, on {paper} paper; a side's sheet is for that side's player only;
- the map pages: at 100 % (actual size, no fit to page): each hex is {hex_mm:g} mm across the flats. Cut each page
  along its crop marks, glue the dashed strip of a page under the next and line up the circled crosses;
- the counter sheets: two-sided, flipped on the long edge, at 100 %. Print the calibration page first: if the
  back's cross misses the front's, make the kit again with that printer's x/y offset. Cut along the lines.
"""


def held_sides(doc, sides):
    """The side ids a reader holding ``sides`` (ALL, or a set of ids) holds in this scenario."""
    ids = [s["id"] for s in doc.data["sides"]]
    return ids if sides == visibility.ALL else [i for i in ids if i in set(sides)]


def kit_zip(doc, sides, paper="a4", hex_mm=19.0, counter_size="5/8in", offset=(0.0, 0.0), map_layer=True,
            progress=None):
    """The kit as zip bytes, drawn from ``doc`` as the reader holding ``sides`` sees it (ALL: the designer's)."""
    report = progress or (lambda percent, message: None)
    doc = dataclasses.replace(doc, data=visibility.view(doc.data, sides))
    held = held_sides(doc, sides)
    title = doc.data["title"]
    files = []
    report(5, "drawing the public card")
    files.append(("01-public-card.pdf", cards.card_pdf(doc, paper, cards.PUBLIC)))
    for side in held:
        report(15, f"drawing the {doc.side(side)['name']} sheet")
        files.append((f"02-sheet-{cards.safe_name(doc.side(side)['name'])}.pdf", cards.card_pdf(doc, paper, side)))
    report(35, "drawing the map pages")
    public = cards.sheet_view(doc, cards.PUBLIC)
    cmap = compile_map(printed_map(public))
    layer = {"layer": scenario_layer(public, cards.sheet_sides(public, cards.PUBLIC)), "crop": crop_of(public)}
    pages, plan = mappages.pages_pdf(cmap, hex_mm, paper, scenario=layer if map_layer else None, title=title)
    files.append(("03-map-pages.pdf", pages))
    report(65, "drawing the counter sheets")
    for side in held:
        name = doc.side(side)["name"]
        pdf, _ = countersheets.sheet_pdf(doc, {side}, counter_size, paper, offset=offset,
                                         title=f"{title}: {name} counters", common=False)
        files.append((f"04-counters-{cards.safe_name(name)}.pdf", pdf))
    pdf, _ = countersheets.sheet_pdf(doc, set(), counter_size, paper, offset=offset,
                                     title=f"{title}: markers and objectives", common=True)
    files.append(("05-counters-markers-and-objectives.pdf", pdf))
    who = ("the designer's: every side" if sides == visibility.ALL else
           "for " + ", ".join(doc.side(s)["name"] for s in held) + " only")
    listing = "\n".join(f"- {name}" for name, _ in files) + f"\n(map: {plan.pages} pages of {paper.upper()}, " + \
        f"{'landscape' if plan.landscape else 'portrait'})"
    readme = README.format(title=title, who=who, files=listing, paper=paper.upper(), hex_mm=hex_mm)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", readme)
        for name, content in files:
            archive.writestr(name, content)
    report(95, "packing the kit")
    return out.getvalue()
