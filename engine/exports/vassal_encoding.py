"""The one way Hexside writes text into a VASSAL module: VASSAL's own encodings, checked against its source
(vassal-app/src/main/java/VASSAL at tag 3.7.26).

- ``sequence``: tools/SequenceEncoder.append(String). Each delimiter inside a value gets a backslash before it;
  a value that starts with a backslash, or starts and ends with a quote, is put in quotes. VASSAL's encoder does
  not quote a value that *ends* with a backslash, and its Decoder then reads "x\\;" as an escaped delimiter (the
  NoSuchElementException of issue 26); the Decoder unquotes any token that starts and ends with a quote, so
  quoting such a value too is read back exactly by every VASSAL version.
- ``decorate``: counters/Decorator.getType and getState: a trait's own part, then the inner piece's, joined by a
  tab in a SequenceEncoder (so each level's tabs are escaped once more); the BasicPiece's type is escaped too.
- ``add_piece``: build/module/BasicCommandEncoder.encode(AddPiece): ``+/`` id, type and state joined by ``/``.
- ``saved_game``: build/GameModule.encode joins a command and its sub-commands with ESC (KeyEvent.VK_ESCAPE);
  GameState writes the result to the ``savedGame`` entry through tools/io/ObfuscatingOutputStream: ``!VCSK``,
  the key byte in two hex digits, then each UTF-8 byte XOR the key in two hex digits.
- XML: buildFile.xml is XML 1.0, which has no way to write the C0 controls but tab and newline; ``check_text``
  refuses them (the scenario format refuses them first, naming the field: engine/scenarios/reading_values).
"""

import re

ESC = "\x1b"
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
# a NamedKeyStroke as NamedHotKeyConfigurer.encode writes it: key code, modifiers (CTRL_DOWN_MASK | CTRL_MASK)
CTRL = 130


def check_text(text, what):
    """``text`` as a string, or ValueError naming ``what`` when it holds a control character XML cannot carry."""
    text = "" if text is None else str(text)
    found = CONTROL.search(text)
    if found:
        raise ValueError(f"{what} holds the control character U+{ord(found.group()):04X}, which a VASSAL module "
                         "cannot carry")
    return text


def sequence(values, delim):
    """VASSAL's SequenceEncoder: ``values`` (None is empty, bools as Java prints them) joined by ``delim``."""
    out = []
    for value in values:
        if isinstance(value, bool):
            value = "true" if value else "false"
        value = "" if value is None else str(value)
        escaped = value.replace(delim, "\\" + delim)
        if value and (value[0] == "\\" or value[-1] == "\\" or (value[0] == "'" and value[-1] == "'")):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delim.join(out)


def string_array(values):
    """StringArrayConfigurer.arrayToString: a list as one comma-separated value."""
    return sequence(values, ",")


def key(letter):
    """A Ctrl+letter NamedKeyStroke (``68,130`` is Ctrl+D)."""
    return f"{ord(letter.upper())},{CTRL}"


def decorate(traits, basic_type, basic_state):
    """A piece's type and state: ``traits`` [(type, state)] from the outermost in, round a BasicPiece.

    BasicCommandEncoder.createPiece splits every level's type at tabs, the BasicPiece's too, so that type is
    encoded once more on its own (BasicPiece.getType does not, and a tab in a name makes a bogus trait)."""
    piece_type, piece_state = sequence([basic_type], "\t"), basic_state
    for trait_type, trait_state in reversed(traits):
        piece_type = sequence([trait_type, piece_type], "\t")
        piece_state = sequence([trait_state, piece_state], "\t")
    return piece_type, piece_state


def basic_piece(name, image):
    """BasicPiece.getType: ``piece;`` no clone or delete key, the image and the name."""
    return "piece;" + sequence(["", "", image, name], ";")


def basic_state(map_name="null", x=0, y=0, gpid="", properties=()):
    """BasicPiece.getState: map, position, gpid and its persistent properties (none)."""
    return sequence([map_name, x, y, gpid, len(properties), *[v for pair in properties for v in pair]], ";")


def add_piece(piece_id, piece_type, state):
    return "+/" + sequence(["null" if piece_id is None else piece_id, piece_type, state], "/")


def stack_piece(stack_id, map_name, point, piece_ids):
    """A Stack's AddPiece (counters/Stack: type ``stack``, state map;x;y;ids...;@@layer)."""
    return add_piece(stack_id, "stack", sequence([map_name, point[0], point[1], *piece_ids, "@@0"], ";"))


def boards_command(map_name, board_name):
    """BoardPicker.encode(SetBoards): the map's one board at (0, 0)."""
    return sequence([map_name + "BoardPicker", sequence([board_name], "/"), 0, 0], "\t")


def saved_game(commands, key_byte=0x5A):
    """The ``savedGame`` entry: begin_save, the commands, end_save (GameState.getRestoreCommand), obfuscated."""
    text = sequence(["begin_save", *commands, "end_save"], ESC)
    body = "".join(f"{b ^ key_byte:02x}" for b in text.encode("utf-8"))
    return f"!VCSK{key_byte:02x}{body}".encode("ascii")
