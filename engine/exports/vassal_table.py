"""What a module puts on the table besides the map: the global options, the turn track, the game's dice, a side's
private windows (its brief), and the scenarios as predefined setups.

Attributes are the ones VASSAL's classes read (build/module at tag 3.7.26): GlobalOptions, turn/TurnTracker with
one turn/CounterTurnLevel, DiceButton, PrivateMap (``side``, ``visible``, ``useBoards``) and PredefinedSetup
(``name``, ``useFile``, ``file``, ``isMenu``): a setup's file is a saved game in the module (vassal_encoding)."""

import html
import io
import re
import xml.etree.ElementTree as ET
import zipfile

from PIL import Image, ImageDraw

from engine.exports import vassal_encoding as enc
from engine.render.styles import font

P = "VASSAL.build."
BRIEF_WIDTH = 900
BRIEF_LINES = 400  # a brief's window shows at most this many lines (a brief is at most a few thousand words)


def add_global_options(root):
    """Players may not unmask another side's pieces; moves are reported, HTML in the chat (for the reports)."""
    ET.SubElement(root, P + "module.GlobalOptions", autoReport="Always", centerOnMove="Use Preferences Setting",
                  chatterHTMLSupport="Always", hotKeysOnClosedWindows="Never", inventoryForAll="Never",
                  markMoved="Always", nonOwnerUnmaskable="Never", playerIdFormat="$PlayerName$",
                  promptString="Opponents can unmask pieces", sendToLocationMoveTrails="Never",
                  storeLeadingZeroIntegersAsStrings="true")


def add_turn_track(root, doc):
    """The scenario's turns as a counter: up from the first ("Turn 3 of 14"), or where the track counts down
    (OST's, the catalogue's ``turn_track``) down from the count, as its boxes do; the end in its tooltip."""
    turns = doc.data["turns"]
    down = turns.get("counts") == "down" and turns.get("count")
    start = turns["count"] if down else turns.get("first") or 1
    count = turns.get("count")
    end = enc.check_text(turns.get("end") or "", "the turns' end")
    of = f" of {count}" if count and not down else ""
    tooltip = " ".join(x for x in ((f"{count} turns" if count else "No fixed number of turns"), end) if x)
    tracker = ET.SubElement(root, P + "module.turn.TurnTracker", buttonText="Turn", fwdOnly="true", hotkey="",
                            icon="", length="-1", lengthStyle="Maximum", name="Turn", nexthotkey="", prevhotkey="",
                            reportFormat="* $PlayerId$: $newTurn$ (was $oldTurn$)", tooltip=tooltip,
                            turnButtonHeight="22", turnFormat="$level1$")
    ET.SubElement(tracker, P + "module.turn.CounterTurnLevel", incr="-1" if down else "1", loop="false",
                  loopLimit="-1", name="Turn", property="Turn", start=str(start),
                  turnFormat=("Turn box $value$ (the track counts down)" if down else f"Turn $value${of}"))
    return tracker


def add_dice(root, dice):
    """A DiceButton per die roll the game's catalogue names (scenario.dice: name, count, sides, rule)."""
    for die in dice:
        name = enc.check_text(die["name"], "a die's name")
        ET.SubElement(root, P + "module.DiceButton", addToTotal="0", hotkey="", icon="", keepCount="1",
                      keepDice="false", keepOption=">", lockAdd="false", lockDice="true", lockPlus="true",
                      lockSides="true", nDice=str(die["count"]), nSides=str(die["sides"]), name=name, plus="0",
                      prompt="false", reportFormat="** $name$ = $result$ *** <$PlayerName$>",
                      reportTotal="true" if die["count"] > 1 else "false", sortDice="false", text=name,
                      tooltip=enc.check_text(die.get("rule") or name, "a die's rule"))


def add_private_window(root, map_window, side_name, title, image, size, visible):
    """A PrivateMap only ``side_name``'s players open (``visible`` false: nobody else sees into it)."""
    window, _ = map_window(root, title, title, image, size, launch=True, tag="module.PrivateMap")
    window.set("side", enc.string_array([side_name]))
    window.set("visible", "true" if visible else "false")
    window.set("useBoards", "")
    return window


def text_lines(page):
    """An HTML sheet (vassal_sheets.sheet_html) as plain lines: one per paragraph, heading or table row."""
    page = re.sub(r"</(p|h\d|tr|li|i)>", "\n", page)
    page = re.sub(r"</t[dh]>", " · ", page)
    return [html.unescape(re.sub(r"<[^>]+>", "", line)).strip(" ·") for line in page.split("\n")
            if re.sub(r"<[^>]+>", "", line).strip()]


def brief_png(lines):
    """The brief as the window's board: its lines wrapped to BRIEF_WIDTH pixels, black on white."""
    f, bold = font(15), font(17, bold=True)
    wrapped = []
    for n, line in enumerate(lines):
        face = bold if n == 0 else f
        words, current = line.split(), ""
        for word in words:
            trial = f"{current} {word}".strip()
            if face.getlength(trial) > BRIEF_WIDTH - 40 and current:
                wrapped.append((current, face))
                current = word
            else:
                current = trial
        wrapped.append((current, face))
    wrapped = wrapped[:BRIEF_LINES]
    image = Image.new("RGB", (BRIEF_WIDTH, 40 + 22 * len(wrapped)), (255, 253, 240))
    draw = ImageDraw.Draw(image)
    for n, (text, face) in enumerate(wrapped):
        draw.text((20, 20 + 22 * n), text, fill=(0, 0, 0), font=face)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue(), image.size


def add_setup(root, files, name, commands):
    """A PredefinedSetup: the scenario's at-start placement as a saved game in the module."""
    file_name = "setup-" + re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()[:40] + ".vsav"
    n, base = 1, file_name
    while file_name in files:
        n += 1
        file_name = base.replace(".vsav", f"-{n}.vsav")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", enc.saved_game(commands))
    files[file_name] = out.getvalue()
    ET.SubElement(root, P + "module.PredefinedSetup", description="", file=file_name, isMenu="false",
                  name=enc.check_text(name, "the scenario's title"), useFile="true")
    return file_name
