"""VASSAL's readers rewritten from its Java source (vassal-app/src/main/java/VASSAL at tag 3.7.26), for the tests to
read a module as VASSAL does, independently of the exporter's encoder:

- ``Decoder``: tools/SequenceEncoder.Decoder.nextToken, line for line (an escaped delimiter is one preceded by a
  backslash; a token in quotes is unquoted; the empty rest of a string is one last empty token).
- ``piece``: BasicCommandEncoder.decode of an AddPiece (``+/id/type/state``) and createPiece: the type split at
  tabs into the outermost trait and the inner piece, down to the BasicPiece; the state split the same way.
- ``saved_game``: DeobfuscatingInputStream (``!VCSK``, a key byte, the bytes XOR the key in hex) and
  GameModule.decode (commands split at ESC, each decoded).
"""

import io
import zipfile

ESC = "\x1b"


class Decoder:
    def __init__(self, value, delim):
        self.val, self.delim = value, delim
        self.start, self.stop = 0, len(value) if value is not None else 0

    def has_more(self):
        return self.val is not None

    def next(self, default=None):
        """nextToken (a default where VASSAL's nextToken(default) gives one for no more tokens)."""
        if not self.has_more():
            if default is not None:
                return default
            raise StopIteration("NoSuchElementException")
        val, delim, stop = self.val, self.delim, self.stop
        if self.start == stop:
            self.val = None
            return ""
        buf, tok, i = None, None, self.start
        while i < stop:
            if val[i] == delim:
                if i > 0 and val[i - 1] == "\\":
                    buf = (buf or "") + val[self.start:i - 1]
                    self.start = i
                else:
                    if not buf:
                        tok = val[self.start:i]
                    else:
                        buf += val[self.start:i]
                    self.start = i + 1
                    break
            i += 1
        if self.start < i:
            if not buf:
                tok = val[self.start:]
            else:
                buf += val[self.start:stop]
            self.val = None
        return unquote(tok if tok is not None else buf or "")

    def all(self):
        out = []
        while self.has_more():
            out.append(self.next())
        return out


def unquote(s):
    return s[1:-1] if len(s) > 1 and s[0] == "'" and s[-1] == "'" else s


def tokens(value, delim):
    return Decoder(value, delim).all()


def split_piece(type_text, state_text):
    """[(trait type, trait state)], outermost first, the BasicPiece last (createPiece, Decorator.setState)."""
    out = []
    while True:
        types, states = Decoder(type_text, "\t"), Decoder(state_text, "\t")
        outer, outer_state = types.next(), states.next("")
        out.append((outer, outer_state))
        if not types.has_more():
            return out
        type_text, state_text = types.next(), states.next("")


def add_piece(command):
    """(id, [(type, state)...]) of an AddPiece command, as BasicCommandEncoder.decode reads it."""
    assert command.startswith("+/"), command[:20]
    d = Decoder(command[2:], "/")
    piece_id, piece_type, state = d.next(), d.next(), d.next()
    return piece_id, split_piece(piece_type, state)


def deobfuscate(data):
    text = data.decode("ascii")
    assert text.startswith("!VCSK")
    key = int(text[5:7], 16)
    return bytes(int(text[i:i + 2], 16) ^ key for i in range(7, len(text), 2)).decode("utf-8")


def saved_game(vsav):
    """The commands of a saved game (a .vsav's bytes), each as its text, nested ones flattened."""
    with zipfile.ZipFile(io.BytesIO(vsav)) as z:
        text = deobfuscate(z.read("savedGame"))
    out = []

    def decode(command):
        d = Decoder(command, ESC)
        first = d.next()
        out.append(first)
        while d.has_more():
            decode(d.next())

    decode(text)
    return out


def trait_fields(trait_type):
    """(trait id, its fields) of a trait's type: ``obs;a;b`` -> ("obs;", ["a", "b"])."""
    ident, _, rest = trait_type.partition(";")
    delim = "," if ident == "mark" else ";"
    return ident + ";", tokens(rest, delim)


def basic(trait_type):
    """(image, name) of a BasicPiece type (``piece;clone;delete;image;name``)."""
    fields = tokens(trait_type, ";")
    return fields[3], fields[4]
