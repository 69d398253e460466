"""Victory conditions as structured kinds: checked, and each said as a plain English sentence. No Django.

A side's victory is one condition; ``and`` and ``or`` combine others. The same sentences are shown by the
editor and printed on the scenario card, so they are written once, here.

Kinds (docs/scenario-format.md):
    control    control objectives at the end of the game, or each turn (with VP per objective)
    vp         have at least N victory points at the end
    casualties inflict at least N casualty points on the enemy (who: enemy), or suffer at most N (who: own)
    exit       exit N units (or N VP of units) through a map edge or hexes, by a turn
    hold       hold an objective at the end of N consecutive turns (by a turn, or at any point in the game)
    eliminate  eliminate every enemy unit
    and, or    all (any) of the conditions listed
    text       free text, for what no kind says
"""

from engine.mapfile import Finding, _is_int, _kind
from engine.scenarios.types import wrong_text

EDGE_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
KINDS = {
    # kind -> (required keys, optional keys)
    "control": (("objectives",), ("at", "vp", "count")),
    "vp": (("at_least",), ()),
    "casualties": (("points",), ("who",)),
    "exit": ((), ("units", "vp", "edge", "hexes", "by_turn")),
    "hold": (("objective", "turns"), ("by_turn",)),
    "eliminate": ((), ()),
    "and": (("conditions",), ()),
    "or": (("conditions",), ()),
    "text": (("text",), ()),
}
CONTROL_AT = ("end", "each-turn")
MAX_DEPTH = 4


def check(value, path, objective_ids, side_ids=(), depth=0):
    """Every problem with a victory condition, as Findings with their JSON paths."""
    checker = _Checker(value, path, objective_ids, side_ids, depth)
    if checker.shape_ok() and checker.keys_ok():
        getattr(checker, KIND_CHECKS[value["kind"]])()
    return checker.found


# Each kind's own checks, a method of _Checker each (``and`` and ``or`` share one).
KIND_CHECKS = {"control": "control", "vp": "vp", "casualties": "casualties", "exit": "exit", "hold": "hold",
               "and": "combined", "or": "combined", "eliminate": "nothing", "text": "text"}


class _Checker:
    """One condition's checks: its shape, its keys, then its kind's own, gathering findings as they go."""

    def __init__(self, value, path, objective_ids, side_ids, depth):
        self.value, self.path, self.depth = value, path, depth
        self.objective_ids, self.side_ids = objective_ids, side_ids
        self.found = []

    def error(self, where, message, code="bad-victory"):
        self.found.append(Finding(where, message, code=code))

    def shape_ok(self):
        value, path = self.value, self.path
        if not isinstance(value, dict):
            self.error(path, f"expected a victory condition object such as {{\"kind\": \"vp\", \"at_least\": 10}}, "
                             f"got {_kind(value)}")
            return False
        kind = value.get("kind")
        if "kind" in value and wrong_text(kind, "a condition kind"):
            self.error(f"{path}.kind", wrong_text(kind, f"a condition kind, one of {', '.join(KINDS)}"),
                       code="bad-type")
            return False
        if kind not in KINDS:
            self.error(f"{path}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
            return False
        return True

    def keys_ok(self):
        value, path = self.value, self.path
        kind = value["kind"]
        required, optional = KINDS[kind]
        for key in value:
            if key != "kind" and key not in required + optional:
                self.error(f"{path}.{key}", f"unknown key {key!r} for a {kind} condition; expected "
                                            f"{', '.join(required + optional) or 'no other key'}", code="unknown-key")
        missing = [key for key in required if key not in value]
        for key in missing:
            self.error(f"{path}.{key}", f"a {kind} condition needs {key!r}", code="missing")
        return not missing

    def count(self, key, low=1):
        v = self.value.get(key)
        if v is not None and (not _is_int(v) or v < low):
            self.error(f"{self.path}.{key}", f"expected a whole number from {low}, got {v!r}")

    def objective(self, where, oid):
        if wrong_text(oid, "an objective id"):
            self.error(where, wrong_text(oid, "an objective id"), code="bad-type")
        elif oid not in self.objective_ids:
            self.error(where, f"no objective {oid!r} in this scenario (objectives: "
                              f"{', '.join(sorted(self.objective_ids)) or 'none yet'})", code="unknown-objective")

    def control(self):
        value, path = self.value, self.path
        ids = value["objectives"]
        if not isinstance(ids, list) or not ids:
            self.error(f"{path}.objectives", "expected a non-empty list of objective ids")
        else:
            for i, oid in enumerate(ids):
                self.objective(f"{path}.objectives[{i}]", oid)
            if value.get("count") is not None and _is_int(value["count"]) and value["count"] > len(ids):
                self.error(f"{path}.count", f"at least {value['count']} of {len(ids)} objectives can never be met")
        if value.get("at", "end") not in CONTROL_AT:
            self.error(f"{path}.at", f"expected 'end' or 'each-turn', got {value.get('at')!r}")
        self.count("vp", 0)
        self.count("count")

    def vp(self):
        self.count("at_least", 0)

    def casualties(self):
        self.count("points", 0)
        if self.value.get("who", "enemy") not in ("enemy", "own"):
            self.error(f"{self.path}.who", f"expected 'enemy' (inflict at least) or 'own' (suffer at most), got "
                                           f"{self.value.get('who')!r}")

    def exit(self):
        value, path = self.value, self.path
        if value.get("units") is None and value.get("vp") is None:
            self.error(path, "an exit condition needs 'units' (how many) or 'vp' (how many VP of units)")
        if value.get("edge") is None and not value.get("hexes"):
            self.error(path, "an exit condition needs an 'edge' (N, E, S, W) or exit 'hexes'")
        if value.get("edge") is not None and (not isinstance(value["edge"], str) or value["edge"] not in EDGE_NAMES):
            self.error(f"{path}.edge", f"expected N, E, S or W, got {value['edge']!r}")
        hexes = value.get("hexes")
        if hexes is not None and not isinstance(hexes, list):
            self.error(f"{path}.hexes", "expected a list of hexes")  # each is read as a hex of the map by the format
        for key in ("units", "vp", "by_turn"):
            self.count(key)

    def hold(self):
        value, path = self.value, self.path
        self.objective(f"{path}.objective", value["objective"])
        self.count("turns")
        self.count("by_turn")
        if _is_int(value["turns"]) and _is_int(value.get("by_turn")) and value["turns"] > value["by_turn"]:
            self.error(f"{path}.by_turn", f"{value['turns']} consecutive turns cannot end by turn {value['by_turn']}")

    def combined(self):
        value, path, kind = self.value, self.path, self.value["kind"]
        items = value["conditions"]
        if not isinstance(items, list) or len(items) < 2:
            self.error(f"{path}.conditions", f"'{kind}' combines at least two conditions")
        elif self.depth >= MAX_DEPTH:
            self.error(f"{path}.conditions", f"conditions nest at most {MAX_DEPTH} deep")
        else:
            for i, item in enumerate(items):
                self.found.extend(check(item, f"{path}.conditions[{i}]", self.objective_ids, self.side_ids,
                                        self.depth + 1))

    def text(self):
        if not isinstance(self.value["text"], str) or not self.value["text"].strip():
            self.error(f"{self.path}.text", "expected the condition's text")

    def nothing(self):
        """``eliminate`` takes no keys of its own."""


def normalise(value):
    """The canonical form: keys in the kind's order, defaults filled in."""
    kind = value["kind"]
    out = {"kind": kind}
    if kind == "control":
        out.update(objectives=list(value["objectives"]), at=value.get("at", "end"), vp=value.get("vp"),
                   count=value.get("count"))
    elif kind == "vp":
        out["at_least"] = value["at_least"]
    elif kind == "casualties":
        out.update(points=value["points"], who=value.get("who", "enemy"))
    elif kind == "exit":
        out.update(units=value.get("units"), vp=value.get("vp"), edge=value.get("edge"),
                   hexes=list(value.get("hexes") or []), by_turn=value.get("by_turn"))
    elif kind == "hold":
        out.update(objective=value["objective"], turns=value["turns"], by_turn=value.get("by_turn"))
    elif kind in ("and", "or"):
        out["conditions"] = [normalise(c) for c in value["conditions"]]
    elif kind == "text":
        out["text"] = value["text"]
    return out


def zero_thresholds(condition, path):
    """(path, message) of each threshold of 0 in a canonical condition: met before the game begins. Said as a
    warning by the scenario checks; where nothing but "or"s lead to it, the side wins without doing anything."""
    found = []

    def walk(c, where, alone):
        kind = c["kind"]
        outcome = "the side wins without doing anything" if alone else "this condition is met without doing anything"
        if kind == "vp" and c["at_least"] == 0:
            found.append((f"{where}.at_least", f"{where}.at_least is 0: {outcome}"))
        elif kind == "casualties" and c["who"] == "enemy" and c["points"] == 0:
            found.append((f"{where}.points", f"{where}.points is 0: {outcome}"))
        elif kind == "control" and c.get("vp") == 0:
            found.append((f"{where}.vp", f"{where}.vp is 0: controlling scores nothing"))
        elif kind in ("and", "or"):
            for i, item in enumerate(c["conditions"]):
                walk(item, f"{where}.conditions[{i}]", alone and kind == "or")

    if condition:
        walk(condition, path, True)
    return found


# -- sentences -------------------------------------------------------------------------------------------
#
# A condition that combines others is said as one sentence whose items are labelled by level, (a) (i) (A) (1),
# the way a rule is drafted, so "or" and "and" at different depths never blur: "Either: (a) control A; or
# (b) both: (i) exit 4 units off the north edge; and (ii) hold B at the end of two consecutive turns, at any
# point in the game." The card and the editor print it one item a line (``lines``), indented by level; the
# lines joined with spaces are the sentence. Free text is kept as written, never re-cased.

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
COMBINED = ("and", "or")
# How the rulebooks write a side in a sentence: "the German player", "12 Enemy Casualty Points on the Americans"
# (OST 1.7). A side named by its adjective is said as its people ("on the Germans", "every German unit"); a name
# not listed here is said as the designer wrote it, with no article added ("on Blue", "every Blue unit").
PEOPLES = {  # adjective -> the side, as a plural noun
    "German": "Germans", "American": "Americans", "Soviet": "Soviets", "Russian": "Russians",
    "Italian": "Italians", "Japanese": "Japanese", "Chinese": "Chinese", "British": "British", "French": "French",
    "Dutch": "Dutch", "Polish": "Poles", "Finnish": "Finns", "Hungarian": "Hungarians", "Romanian": "Romanians",
    "Canadian": "Canadians", "Australian": "Australians", "Belgian": "Belgians", "Greek": "Greeks",
    "Norwegian": "Norwegians", "Yugoslav": "Yugoslavs", "Partisan": "Partisans", "Indian": "Indians",
    "Allied": "Allies", "Axis": "Axis", "Commonwealth": "Commonwealth", "US": "US",
}
_NOUNS = {noun.lower(): adjective for adjective, noun in PEOPLES.items()}
_ADJECTIVES = {adjective.lower(): adjective for adjective in PEOPLES}


def side_as_people(name):
    """A side as the object of a sentence: "the Germans", "the Allies", "Blue"."""
    key = name.strip().lower()
    if key.startswith("the "):
        return name.strip()
    if key in _ADJECTIVES:
        return "the " + PEOPLES[_ADJECTIVES[key]]
    if key in _NOUNS:
        return "the " + name.strip()
    return name.strip()


def side_as_adjective(name):
    """A side before "unit": "German", "Allied", "Blue"."""
    name = name.strip()
    name = name[4:] if name.lower().startswith("the ") else name
    return _NOUNS.get(name.lower(), name)


def number(n):
    """Small counts as words, as a rulebook writes them ("one of", "two consecutive turns")."""
    return NUMBERS[n] if isinstance(n, int) and 0 <= n < len(NUMBERS) else str(n)


def _roman(n):
    out = ""
    for value, digits in ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + digits, n - value
    return out


def label(level, k):
    """The label of item ``k`` (from 0) of a combination at ``level`` (1 the outermost): (a), (i), (A), (1)."""
    style = (level - 1) % 4
    if style == 0:
        return f"({chr(ord('a') + k)})" if k < 26 else f"({k + 1})"
    if style == 1:
        return f"({_roman(k + 1)})"
    if style == 2:
        return f"({chr(ord('A') + k)})" if k < 26 else f"({k + 1})"
    return f"({k + 1})"


def clause(condition, objectives=None, enemies=()):
    """One condition that combines no others, as a sentence without its full stop. Free text as written."""
    names = objectives or {}
    kind = condition["kind"]
    enemies = [enemies] if isinstance(enemies, str) else list(enemies)
    people = _join([side_as_people(e) for e in enemies], "and") or "the enemy"
    adjective = _join([side_as_adjective(e) for e in enemies], "and") or "enemy"

    def name(oid):
        return names.get(oid, oid)

    if kind == "control":
        ids = condition["objectives"]
        when = "at the end of each turn" if condition.get("at") == "each-turn" else "at the end of the game"
        vp, count = condition.get("vp"), condition.get("count")
        if vp is not None:
            each = "each of " if len(ids) > 1 else ""
            return f"Score {vp} VP for {each}{_join([name(o) for o in ids], 'and')} you control {when}"
        if count is not None and count < len(ids):
            return f"Control {number(count)} of {_join([name(o) for o in ids], 'or')} {when}"
        return f"Control {_join([name(o) for o in ids], 'and')} {when}"
    if kind == "vp":
        return f"Have at least {_plural(condition['at_least'], 'victory point')} at the end of the game"
    if kind == "casualties":
        if condition.get("who") == "own":
            if condition["points"] == 0:
                return "Suffer no casualty points"
            return f"Suffer no more than {_plural(condition['points'], 'casualty point')}"
        return f"Inflict at least {_plural(condition['points'], 'casualty point')} on {people}"
    if kind == "exit":
        what = []
        if condition.get("units") is not None:
            what.append(f"at least {_plural(condition['units'], 'unit')}")
        if condition.get("vp") is not None:
            what.append(f"units worth at least {condition['vp']} VP")
        where = []
        if condition.get("edge"):
            where.append(f"off the {EDGE_NAMES[condition['edge']]} edge")
        if condition.get("hexes"):
            hexes = condition["hexes"]
            where.append(f"through {'hex' if len(hexes) == 1 else 'hexes'} {_join(hexes, 'or')}")
        by = f" by the end of turn {condition['by_turn']}" if condition.get("by_turn") else ""
        return f"Exit {' or '.join(what)} {' or '.join(where)}{by}"
    if kind == "hold":
        turns, by = condition["turns"], condition.get("by_turn")
        held = name(condition["objective"])
        if turns == 1:
            return f"Hold {held} at the end of any turn" + (f" up to turn {by}" if by else "")
        when = f"by the end of turn {by}" if by else "at any point in the game"
        return f"Hold {held} at the end of {number(turns)} consecutive turns, {when}"
    if kind == "eliminate":
        return f"Eliminate every {adjective} unit"
    text = condition["text"].strip()
    return text[:-1] if text.endswith(".") else text


def lines(condition, objectives=None, enemies=()):
    """The sentence one item a line: [{"depth", "text"}], depth 0 the first line. Joined with spaces, the
    texts are ``sentence``."""
    out = _lines(condition, objectives or {}, enemies, 0)
    if condition["kind"] != "text":  # free text keeps its own case
        out[0][1] = out[0][1][:1].upper() + out[0][1][1:]
    if not out[-1][1].endswith((".", "!", "?")):
        out[-1][1] += "."
    return [{"depth": depth, "text": text} for depth, text in out]


def _lines(condition, names, enemies, depth):
    kind = condition["kind"]
    if kind not in COMBINED:
        text = clause(condition, names, enemies)
        return [[depth, text if kind == "text" else text[:1].lower() + text[1:]]]
    items = condition["conditions"]
    two = len(items) == 2
    head = ("either" if two else "one of") if kind == "or" else ("both" if two else "all of")
    out = [[depth, head + ":"]]
    for k, item in enumerate(items):
        sub = _lines(item, names, enemies, depth + 1)
        sub[0][1] = f"{label(depth + 1, k)} {sub[0][1]}"
        if k < len(items) - 2:
            sub[-1][1] += ";"
        elif k == len(items) - 2:
            sub[-1][1] += f"; {kind}"
        out += sub
    return out


def sentence(condition, objectives=None, enemies=()):
    """The condition as one plain English sentence. ``objectives`` maps objective ids to how they are named;
    ``enemies`` are the other sides' names (or one name)."""
    return " ".join(line["text"] for line in lines(condition, objectives, enemies))


def _plural(n, word, plural=None):
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _join(items, word):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def sentences_by_side(data):
    """{side id: {"sentence", "lines", "parts"}} from a canonical document: the whole condition, the same one
    item a line (what the card and the editor print), and for and/or each condition it combines."""
    names = {o["id"]: (f"{o['name']} ({o['hex']})" if o.get("name") else o["hex"]) for o in data.get("objectives", [])}
    out = {}
    for side in data.get("sides", []):
        condition = side.get("victory")
        if not condition:
            continue
        enemies = [s["name"] for s in data["sides"] if s["id"] != side["id"]]
        parts = condition.get("conditions") if condition["kind"] in COMBINED else [condition]
        whole = lines(condition, names, enemies)
        out[side["id"]] = {"sentence": " ".join(line["text"] for line in whole), "lines": whole,
                           "parts": [sentence(c, names, enemies) for c in parts]}
    return out


def sentences_for(doc):
    """{side id: sentence} for every side of a parsed scenario with a victory condition."""
    data = doc.data if hasattr(doc, "data") else doc
    return {sid: entry["sentence"] for sid, entry in sentences_by_side(data).items()}


def lines_for(doc):
    """{side id: [{"depth", "text"}]}: each side's sentence one item a line, as the card prints it."""
    data = doc.data if hasattr(doc, "data") else doc
    return {sid: entry["lines"] for sid, entry in sentences_by_side(data).items()}
