"""Victory conditions as structured kinds: checked, and each said as a plain English sentence. No Django.

A side's victory is one condition; ``and`` and ``or`` combine others. The same sentences are shown by the
editor and printed on the scenario card, so they are written once, here.

Kinds (docs/scenario-format.md):
    control    control objectives at the end of the game, or each turn (with VP per objective)
    vp         have at least N victory points at the end
    casualties inflict at least N casualty points on the enemy (who: enemy), or suffer at most N (who: own)
    exit       exit N units (or N VP of units) through a map edge or hexes, by a turn
    hold       hold an objective for N consecutive turns
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
    "hold": (("objective", "turns"), ()),
    "eliminate": ((), ()),
    "and": (("conditions",), ()),
    "or": (("conditions",), ()),
    "text": (("text",), ()),
}
CONTROL_AT = ("end", "each-turn")
MAX_DEPTH = 4


def check(value, path, objective_ids, side_ids=(), depth=0):
    """Every problem with a victory condition, as Findings with their JSON paths."""
    found = []

    def error(where, message, code="bad-victory"):
        found.append(Finding(where, message, code=code))

    if not isinstance(value, dict):
        error(path, f"expected a victory condition object such as {{\"kind\": \"vp\", \"at_least\": 10}}, got "
                    f"{_kind(value)}")
        return found
    kind = value.get("kind")
    if "kind" in value and wrong_text(kind, "a condition kind"):
        error(f"{path}.kind", wrong_text(kind, f"a condition kind, one of {', '.join(KINDS)}"), code="bad-type")
        return found
    if kind not in KINDS:
        error(f"{path}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
        return found
    required, optional = KINDS[kind]
    for key in value:
        if key != "kind" and key not in required + optional:
            error(f"{path}.{key}", f"unknown key {key!r} for a {kind} condition; expected "
                                   f"{', '.join(required + optional) or 'no other key'}", code="unknown-key")
    for key in required:
        if key not in value:
            error(f"{path}.{key}", f"a {kind} condition needs {key!r}", code="missing")
    if any(f.code == "missing" for f in found):
        return found

    def count(key, low=1):
        v = value.get(key)
        if v is not None and (not _is_int(v) or v < low):
            error(f"{path}.{key}", f"expected a whole number from {low}, got {v!r}")

    def objective(where, oid):
        if wrong_text(oid, "an objective id"):
            error(where, wrong_text(oid, "an objective id"), code="bad-type")
        elif oid not in objective_ids:
            error(where, f"no objective {oid!r} in this scenario (objectives: "
                         f"{', '.join(sorted(objective_ids)) or 'none yet'})", code="unknown-objective")

    if kind == "control":
        ids = value["objectives"]
        if not isinstance(ids, list) or not ids:
            error(f"{path}.objectives", "expected a non-empty list of objective ids")
        else:
            for i, oid in enumerate(ids):
                objective(f"{path}.objectives[{i}]", oid)
            if value.get("count") is not None and _is_int(value["count"]) and value["count"] > len(ids):
                error(f"{path}.count", f"at least {value['count']} of {len(ids)} objectives can never be met")
        if value.get("at", "end") not in CONTROL_AT:
            error(f"{path}.at", f"expected 'end' or 'each-turn', got {value.get('at')!r}")
        count("vp", 0)
        count("count")
    elif kind == "vp":
        count("at_least", 0)
    elif kind == "casualties":
        count("points", 0)
        if value.get("who", "enemy") not in ("enemy", "own"):
            error(f"{path}.who", f"expected 'enemy' (inflict at least) or 'own' (suffer at most), got "
                                 f"{value.get('who')!r}")
    elif kind == "exit":
        if value.get("units") is None and value.get("vp") is None:
            error(path, "an exit condition needs 'units' (how many) or 'vp' (how many VP of units)")
        if value.get("edge") is None and not value.get("hexes"):
            error(path, "an exit condition needs an 'edge' (N, E, S, W) or exit 'hexes'")
        if value.get("edge") is not None and (not isinstance(value["edge"], str) or value["edge"] not in EDGE_NAMES):
            error(f"{path}.edge", f"expected N, E, S or W, got {value['edge']!r}")
        hexes = value.get("hexes")
        if hexes is not None and not isinstance(hexes, list):
            error(f"{path}.hexes", "expected a list of hexes")  # each is read as a hex of the map by the format
        count("units")
        count("vp")
        count("by_turn")
    elif kind == "hold":
        objective(f"{path}.objective", value["objective"])
        count("turns")
    elif kind in ("and", "or"):
        items = value["conditions"]
        if not isinstance(items, list) or len(items) < 2:
            error(f"{path}.conditions", f"'{kind}' combines at least two conditions")
        elif depth >= MAX_DEPTH:
            error(f"{path}.conditions", f"conditions nest at most {MAX_DEPTH} deep")
        else:
            for i, item in enumerate(items):
                found.extend(check(item, f"{path}.conditions[{i}]", objective_ids, side_ids, depth + 1))
    elif kind == "text":
        if not isinstance(value["text"], str) or not value["text"].strip():
            error(f"{path}.text", "expected the condition's text")
    return found


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
        out.update(objective=value["objective"], turns=value["turns"])
    elif kind in ("and", "or"):
        out["conditions"] = [normalise(c) for c in value["conditions"]]
    elif kind == "text":
        out["text"] = value["text"]
    return out


# -- sentences -------------------------------------------------------------------------------------------

def sentence(condition, objectives=None, enemy="the enemy"):
    """The condition as a plain English sentence. ``objectives`` maps objective ids to how they are named."""
    names = objectives or {}
    kind = condition["kind"]

    def name(oid):
        return names.get(oid, oid)

    if kind == "control":
        listed = _join([name(o) for o in condition["objectives"]], "and")
        when = "at the end of each turn" if condition.get("at") == "each-turn" else "at the end of the game"
        vp, count = condition.get("vp"), condition.get("count")
        if vp is not None:
            each = "each of " if len(condition["objectives"]) > 1 else ""
            return f"Score {_plural(vp, 'VP', 'VP')} for {each}{listed} you control {when}."
        if count is not None and count < len(condition["objectives"]):
            return f"Control at least {count} of {_join([name(o) for o in condition['objectives']], 'and')} {when}."
        return f"Control {listed} {when}."
    if kind == "vp":
        return f"Have at least {_plural(condition['at_least'], 'victory point')} at the end of the game."
    if kind == "casualties":
        if condition.get("who") == "own":
            return f"Suffer no more than {_plural(condition['points'], 'casualty point')}."
        return f"Inflict at least {_plural(condition['points'], 'casualty point')} on {enemy}."
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
        return f"Exit {' or '.join(what)} {' or '.join(where)}{by}."
    if kind == "hold":
        turns = condition["turns"]
        span = "1 turn" if turns == 1 else f"{turns} consecutive turns"
        return f"Hold {name(condition['objective'])} for {span}."
    if kind == "eliminate":
        return f"Eliminate every unit of {enemy}."
    if kind in ("and", "or"):
        parts = [sentence(c, names, enemy).rstrip(".") for c in condition["conditions"]]
        parts = [p[0].lower() + p[1:] if p[:2] != "VP" else p for p in parts]
        if kind == "and":
            return "All of: " + "; ".join(parts) + "."
        return "Any one of: " + "; ".join(parts) + "."
    text = condition["text"].strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _plural(n, word, plural=None):
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _join(items, word):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def sentences_by_side(data):
    """{side id: {"sentence", "parts"}} from a canonical document: the whole condition and, for and/or, each
    condition it combines (the editor lists them one by one)."""
    names = {o["id"]: (f"{o['name']} ({o['hex']})" if o.get("name") else o["hex"]) for o in data.get("objectives", [])}
    out = {}
    for side in data.get("sides", []):
        condition = side.get("victory")
        if not condition:
            continue
        enemies = [s["name"] for s in data["sides"] if s["id"] != side["id"]]
        enemy = "the " + " and the ".join(enemies) if enemies else "the enemy"
        parts = condition.get("conditions") if condition["kind"] in ("and", "or") else [condition]
        out[side["id"]] = {"sentence": sentence(condition, names, enemy),
                           "parts": [sentence(c, names, enemy) for c in parts]}
    return out


def sentences_for(doc):
    """{side id: sentence} for every side of a parsed scenario with a victory condition."""
    data = doc.data if hasattr(doc, "data") else doc
    return {sid: entry["sentence"] for sid, entry in sentences_by_side(data).items()}
