"""What a module shows beside its board: the card's sheets as help pages, and each side's at-start window.

VASSAL's help window is an HTML viewer (HelpFile opens an archive entry in a JEditorPane), so a sheet goes in as
HTML: the same parts, in the same order and words, as the printed card (engine/scenarios/cards), which it reuses
for every sentence it prints (where a unit starts, the turn's name, who moves first, the victory lines)."""

import html
import io

from PIL import Image, ImageDraw

from engine.render.styles import font, rgb
from engine.scenarios import cards, terrain_rules, victory, visibility
from engine.scenarios.cards.track import turn_label

ROW_LABEL_PX = 360


def _p(text, tag="p"):
    return f"<{tag}>{html.escape(str(text))}</{tag}>"


def _paragraphs(text):
    return "".join(_p(part) for part in str(text).split("\n\n") if part.strip())


def sheet_html(doc, sheet):
    """One sheet of the card ("card", "public" or a side id) as an HTML page, drawn from what it may show."""
    doc = cards.sheet_view(doc, sheet)
    data = doc.data
    side_ids = cards.sheet_sides(doc, sheet)
    secret = doc.side(sheet) if sheet not in ("card", "public") else None
    out = ["<html><head><meta charset='utf-8'></head><body>"]
    if secret:
        out.append(_p(f"SECRET — {secret['name']} brief. Show it to no other player.", "h3"))
    out.append(_p(data["title"], "h1"))
    if data.get("subtitle"):
        out.append(_p(data["subtitle"], "h2"))
    meta = [x for x in (data.get("date"), data.get("place")) if x] + [cards.game_name(doc)]
    out.append(_p(" · ".join(meta) + (f" · by {data['designer']}" if data.get("designer") else ""), "i"))
    if data.get("introduction") and not secret:
        out.append(_paragraphs(data["introduction"]))
    turns = data["turns"]
    out.append(_p(f"{turns['count']} turns" + (", counted down" if turns.get("counts") == "down" else "") + ". "
                  + " ".join(cards.play_order(doc))))
    if secret:
        brief = secret.get("brief") or {}
        for key, heading in (("mission", "Mission"), ("intelligence", "Intelligence")):
            if brief.get(key):
                out += [_p(heading, "h3"), _paragraphs(brief[key])]
    out += objectives(doc)
    sentences = victory.lines_for(doc)
    if sheet == "public":
        out += [_p(line, "i") for line in withheld_lines(doc)]
    for side in data["sides"]:
        if side["id"] in side_ids:
            out += side_part(doc, side, sentences)
    markers = [m for m in data.get("markers") or [] if m.get("side") in side_ids or not m.get("side")]
    if markers:
        names = {s["id"]: s["name"] for s in data["sides"]}
        out.append(_p("Markers at start", "h3"))
        out.append(table(["Marker", "Hex", "Side", "Count"],
                         [[cards.marker_name(doc, m["kind"]), m["hex"], names.get(m.get("side"), "—"),
                           m.get("count") or 1] for m in markers]))
    if data.get("special_rules") and not secret:
        out.append(_p("Special rules", "h2"))
        rules = (_p(terrain_rules.rule_text(rule), "li") for rule in data["special_rules"])
        out.append("<ol>" + "".join(rules) + "</ol>")
    out.append("</body></html>")
    return "\n".join(out)


def withheld_lines(doc):
    """What the public sheet leaves to each side's secret sheet, as visibility.view withheld it: a sentence per
    side with something withheld, so the sheet never says a side's forces are elsewhere while it lists them."""
    withheld = (doc.data.get("extensions") or {}).get(visibility.WITHHELD) or {}
    lines = []
    for side in doc.data["sides"]:
        gone = withheld.get(side["id"]) or {}
        every_unit = gone.get("units") and not side["oob"]
        what = [label for key, label in (
            ("units", "forces" if every_unit else "hidden units"), ("setup_zone", "setup zone"),
            ("markers", "hidden markers"), ("brief", "brief"), ("fields", "game numbers"),
            ("victory", "victory conditions")) if gone.get(key)]
        if what:
            listed = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " and " + what[-1]
            lines.append(f"{side['name']}'s {listed} {'is' if len(what) == 1 and not what[0].endswith('s') else 'are'}"
                         " on its secret sheet, not here.")
    return lines


def table(head, rows):
    cells = "".join(f"<th align='left'>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table border='1' cellspacing='0' cellpadding='3'><tr>{cells}</tr>{body}</table>"


def objectives(doc):
    found = doc.data.get("objectives") or []
    if not found:
        return []
    names = {s["id"]: s["name"] for s in doc.data["sides"]}
    return [_p("Objectives", "h3"), table(["Objective", "Hex", "Held at start by", "VP"], [
        [o.get("name") or "—", o["hex"], names.get(o.get("owner"), "nobody"),
         o["vp"] if o.get("vp") is not None else "—"] for o in found])]


def side_part(doc, side, sentences):
    out = [f"<h2><font color='{html.escape(side.get('colour') or '#777777')}'>■</font> "
           f"{html.escape(side['name'])}</h2>"]
    out.append(table(["Unit", "Count", "Quality", "Setup or entry"], [
        [cards.unit_name(u), u["count"], u.get("quality") or "—", cards.setup_or_entry(doc, side, u)]
        for u in side["oob"]]))
    if side["setup_zone"]:
        out.append(_p(f"Setup zone: {cards.hex_list(side['setup_zone'])}."))
    units = doc.units(side)
    for r in sorted(side["reinforcements"], key=lambda r: r["turn"]):
        what = ", ".join(f"{g['count']} × {cards.unit_name(units[g['unit']]) if g['unit'] in units else g['unit']}"
                         for g in r["units"])
        out.append(_p(f"{turn_label(doc, r['turn'], True)}: {what} {arrival_where(r)}."
                      + (f" {r['note']}" if r.get("note") else "")))
    if side["id"] in sentences:
        out.append(_p("Victory", "h3"))
        out += [f"<p style='margin-left:{16 * line['depth']}px'>{html.escape(line['text'])}</p>"
                for line in sentences[side["id"]]]
    return out


def arrival_where(r):
    where = []
    if r.get("edge"):
        where.append(f"along the {victory.EDGE_NAMES[r['edge']]} edge")
    if r.get("hexes"):
        where.append("at " + cards.hex_list(r["hexes"]))
    return " or ".join(where)


# -- the at-start window -------------------------------------------------------------------------------------

def side_rows(doc, side):
    """[(label, [(OOB id, count)])]: one row per turn of arrival (its entries merged), then the units that set up
    on another map of the scenario, then those that set up anywhere in the zone (neither placed nor arriving)."""
    units = doc.units(side)
    left = {u["id"]: u["count"] for u in side["oob"]}
    for pl in side["placements"]:
        if pl["unit"] in left and ":" not in pl["hex"]:
            left[pl["unit"]] -= 1
    by_turn = {}
    for r in sorted(side["reinforcements"], key=lambda r: r["turn"]):
        label, entries = by_turn.setdefault(r["turn"], [[], []])
        label.append(arrival_where(r))
        for g in r["units"]:
            if g["unit"] in units:
                entries.append((g["unit"], g["count"]))
                left[g["unit"]] -= g["count"]
    rows = [(f"{turn_label(doc, turn, True)}: " + "; ".join(w for w in where if w), entries)
            for turn, (where, entries) in by_turn.items() if entries]
    elsewhere = {}
    for pl in side["placements"]:
        if pl["unit"] in left and ":" in pl["hex"]:
            elsewhere.setdefault(pl["hex"].split(":")[0], []).append((pl["unit"], 1))
            left[pl["unit"]] -= 1
    rows += [(f"Sets up on map {key}: " + ", ".join(p["hex"] for p in side["placements"]
                                                      if p["hex"].startswith(key + ":")), entries)
             for key, entries in elsewhere.items()]
    free = [(uid, n) for uid, n in left.items() if n > 0]
    if free:
        rows.append(("Sets up anywhere in the setup zone" if side["setup_zone"] else "Sets up off map", free))
    return rows


def rows_png(rows, counter, colour):
    """The window's board: a row per entry, its label on the left; (png, size, stack centre per row)."""
    row_h = round(counter * 1.5)
    width, height = ROW_LABEL_PX + counter * 3, row_h * len(rows)
    image = Image.new("RGB", (width, height), (250, 250, 246))
    draw = ImageDraw.Draw(image)
    f = font(14)
    band = rgb(colour, (119, 119, 119)) if colour else (119, 119, 119)
    points = []
    for i, (label, _) in enumerate(rows):
        top = i * row_h
        draw.rectangle([0, top, 5, top + row_h - 1], fill=band)
        draw.line([0, top + row_h - 1, width, top + row_h - 1], fill=(200, 200, 190))
        lines, line = [], ""
        for word in label.split():
            trial = f"{line} {word}".strip()
            if f.getlength(trial) > ROW_LABEL_PX - 24 and line:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        y = top + row_h / 2 - 9 * (len(lines[:4]) - 1)
        for text in lines[:4]:
            draw.text((14, y), text, fill=(0, 0, 0), font=f, anchor="lm")
            y += 18
        points.append((ROW_LABEL_PX + counter, top + row_h // 2))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue(), (width, height), points
