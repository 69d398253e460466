"""The turn record track: which box of it shows which turn, and the track as the card prints it."""


from reportlab.platypus import Table, TableStyle

from engine.scenarios.cards.layout import FONT, INK, RULE, SHADE, TURNS_PER_ROW, p


def track_box(turns, played):
    """The box of the turn record track that shows turn ``played`` (1 = the first turn played, as reinforcements
    and victory count): on a track counting up from ``first``, first + played - 1; counting down, the first
    turn is the highest box, so a 14-turn OST track (1.3: "place a counter on the 10 square and a counter on the 4
    square for the initial turn") shows turn 3 in box 12."""
    first = turns.get("first")
    first = 1 if first is None else first
    if turns.get("counts") == "down" and turns.get("count") is not None:
        return first + turns["count"] - played
    return first + played - 1


def turn_label(doc, played, capital=False):
    """ "turn 3", and the box that shows it where the track's number differs: "turn 3 (box 12 of the track)"."""
    turns = doc.data["turns"]
    box = track_box(turns, played)
    text = f"{'T' if capital else 't'}urn {played}"
    if turns.get("count") is None:  # no track boxes: the turn is the turn played
        return text
    if not 1 <= played <= turns["count"]:
        return text + " (not on the track)"
    return text + (f" (box {box} of the track)" if box != played else "")


def turn_track(doc, side_ids, frame_w):
    """The turn record track: a box per turn, the boxes of the turns reinforcements arrive shaded and marked
    with who arrives; then when the game ends, where the scenario says (turns.end). A game with no fixed number
    of turns has no boxes to print, only that sentence."""
    data = doc.data
    turns = data["turns"]
    end = turns.get("end")
    if turns.get("count") is None:
        return [p(_sentence(end) if end else "The game has no fixed number of turns.")]
    first, count = turns.get("first"), turns["count"]
    first = 1 if first is None else first
    numbers = list(range(first, first + count))
    if turns.get("counts") == "down":
        numbers.reverse()
    arriving = {}
    for side in data["sides"]:
        if side["id"] in side_ids:
            for r in side["reinforcements"]:
                arriving.setdefault(track_box(turns, r["turn"]), []).append(side["name"])
    cells, marks = [], []
    for n in numbers:
        cells.append(p(n, "turn"))
        marks.append(p(" + ".join(dict.fromkeys(arriving.get(n, []))) or " ", "mark"))
    rows, shading = [], []
    for start in range(0, len(cells), TURNS_PER_ROW):
        r = len(rows)
        rows += [cells[start:start + TURNS_PER_ROW], marks[start:start + TURNS_PER_ROW]]
        shading += [("BACKGROUND", (c, r), (c, r + 1), SHADE)
                    for c, n in enumerate(numbers[start:start + TURNS_PER_ROW])
                    if n in arriving]
    width = frame_w / TURNS_PER_ROW
    table = Table(rows, colWidths=[width] * min(TURNS_PER_ROW, len(cells)), hAlign="LEFT")
    table.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 0.8, INK), ("INNERGRID", (0, 0), (-1, -1), 0.4, RULE),
                               ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("FONTNAME", (0, 0), (-1, -1), FONT)] + shading))
    note = "Shaded boxes bring reinforcements." if arriving else ""
    if turns.get("counts") == "down":
        note = (f"The track counts down: the first turn is box {numbers[0]}, the last box {numbers[-1]}. "
                + note).strip()
    return [table] + ([p(note, "meta")] if note else []) + ([p(_sentence(end))] if end else [])


def _sentence(text):
    """The designer's text as written, with a closing full stop where it has none."""
    return text if text.endswith((".", "!", "?")) else text + "."
