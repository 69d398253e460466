"""A page of LOS examples for a scenario's players: the examples its main map keeps (engine.mapfile.examples),
each answered by the rules with the hexes and hexsides that decided it and the rule that applied, beside the
designer's note. A module of its own beside the card's sheets (engine.scenarios.cards), drawn with the card's
fonts and styles (layout.py); the map is read as printed, without the scenario's counters.
"""

import io

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle

from engine.los import examples as los_examples
from engine.los.engine import compile_map
from engine.scenarios.cards.layout import FONT, MARGIN, PAPERS, p, register_fonts


def example_rows(mapdoc):
    """Each example of the map answered now (engine.los.examples.run), and the catalogue that names terrain."""
    cmap = compile_map(mapdoc)
    return los_examples.run(cmap, mapdoc), cmap.catalogue


def _reasons(answer, catalogue):
    if not answer or not answer["reasons"]:
        return "nothing along the line changes it"

    def name(tid):
        return (catalogue.terrain.get(tid) or {}).get("name", tid).lower()

    return "; ".join(f"{r['hexside'] or r['hex']}: {name(r['terrain'])} {r['effect']} ({r['rule']})"
                     for r in answer["reasons"])


def los_examples_pdf(doc, paper="a4"):
    """The scenario's page of LOS examples (its main map's) as PDF bytes; a page saying there are none otherwise."""
    register_fonts()
    size = PAPERS[paper]
    mapdoc = doc.maps[doc.main_key]
    rows, catalogue = example_rows(mapdoc)
    out = io.BytesIO()
    title = f"{doc.data['title']}: LOS examples"
    pdf = SimpleDocTemplate(out, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=MARGIN, title=title, creator="Hexside", initialFontName=FONT)
    story = [p(title, "title"), p(f"On the map {mapdoc.name}, as printed (no counters on it).", "meta"),
             Spacer(1, 4 * mm)]
    if not rows:
        story.append(p("This map keeps no LOS examples yet."))
    else:
        table = [[p(h, "head") for h in ("#", "Line", "Answer", "Why (the rules)", "Designer's note")]]
        for row in rows:
            case, answer = row["case"], row["answer"]
            levels = ""
            if answer:
                levels = f" (level {answer['from_level']} → {answer['to_level']})"
            got = (answer["term"] if answer else row.get("problem", "")) + ("" if row["holds"] else
                                                                              f" — kept as {case['expect']}")
            table.append([p(str(row["number"]), "cell"), p(f"{case['from']} → {case['to']}{levels}", "cell"),
                          p(got, "cell"), p(_reasons(answer, catalogue), "cell"), p(case["note"], "cell")])
        width = pdf.width
        story.append(Table(table, colWidths=[8 * mm, 32 * mm, 30 * mm, width - 8 * mm - 32 * mm - 30 * mm - 50 * mm,
                                             50 * mm], repeatRows=1,
                           style=TableStyle([("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999990")),
                                             ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#ecebe4")),
                                             ("VALIGN", (0, 0), (-1, -1), "TOP")])))
    pdf.build(story)
    return out.getvalue()
