"""The map's LOS examples (docs/map-format.md, "LOS examples"): cases a designer keeps with the map, each a line
with the answer it should give ("C3 to H7: blocked by the wall at F5, rule 8.2"), versioned on their own in the
one place for free data, ``extensions["los_examples"]``:

    {"version": 1, "cases": [{"from": "C3", "to": "H7", "from_level": null, "to_level": null,
                              "expect": "blocked", "hindrances": null, "note": "blocked by the wall at F5, rule 8.2"}]}

``expect`` is clear, hindered, blocked or blind (a line blocked only by a blind hex); ``hindrances`` (optional)
the count a hindered answer should have. The reader checks the section when it is there; LOS answers it
elsewhere (engine.los.examples).
"""

EXAMPLES = "los_examples"
EXAMPLES_VERSION = 1
EXPECTS = ("clear", "hindered", "blocked", "blind")
CASE_KEYS = ("from", "to", "from_level", "to_level", "expect", "hindrances", "note")
MAX_CASES = 200
NOTE_LENGTH = 200
LEVEL_LIMIT = 1000


def problems(section, grid):
    """[(path, message, hex)] of what is wrong with an ``extensions.los_examples`` section, in a designer's words."""
    base = f"extensions.{EXAMPLES}"
    if not isinstance(section, dict):
        return [(base, "LOS examples should be an object {\"version\": 1, \"cases\": [...]}", None)]
    found = []
    if section.get("version") != EXAMPLES_VERSION:
        found.append((f"{base}.version", f"LOS examples of version {section.get('version')!r}: this reader knows "
                                         f"version {EXAMPLES_VERSION}", None))
    unknown = sorted(set(section) - {"version", "cases"})
    if unknown:
        found.append((base, f"unknown key {unknown[0]!r} (expected version and cases)", None))
    cases = section.get("cases", [])
    if not isinstance(cases, list):
        return found + [(f"{base}.cases", "the cases should be a list", None)]
    if len(cases) > MAX_CASES:
        found.append((f"{base}.cases", f"{len(cases)} LOS examples: a map keeps at most {MAX_CASES}", None))
    for n, case in enumerate(cases[:MAX_CASES]):
        found += case_problems(case, grid, f"{base}.cases[{n}]", n + 1)
    return found


def case_problems(case, grid, path, number):
    if not isinstance(case, dict):
        return [(path, f"LOS example {number} should be an object with from, to and expect", None)]
    found = []
    for key in sorted(set(case) - set(CASE_KEYS)):
        found.append((path, f"LOS example {number} has an unknown key {key!r}", None))
    for key in ("from", "to"):
        try:
            grid.parse_hex(case.get(key))
        except (ValueError, TypeError, IndexError, KeyError) as exc:
            found.append((f"{path}.{key}", f"LOS example {number}: its {key} hex: {exc}", None))
    if case.get("expect") not in EXPECTS:
        found.append((f"{path}.expect", f"LOS example {number} should expect one of {', '.join(EXPECTS)}", None))
    for key in ("from_level", "to_level", "hindrances"):
        value = case.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or abs(value) > LEVEL_LIMIT
                                  or (key == "hindrances" and value < 0)):
            found.append((f"{path}.{key}", f"LOS example {number}: {key} should be a whole number or null", None))
    note = case.get("note", "")
    if not isinstance(note, str) or len(note) > NOTE_LENGTH:
        found.append((f"{path}.note", f"LOS example {number}: its note should be a text of at most {NOTE_LENGTH} "
                                      "characters", None))
    return found


def cases(doc):
    """The map's LOS examples, each with its defaults filled in ([] when it keeps none)."""
    section = (doc.extensions or {}).get(EXAMPLES)
    if not isinstance(section, dict):
        return []
    return [{"from": c["from"], "to": c["to"], "from_level": c.get("from_level"), "to_level": c.get("to_level"),
             "expect": c["expect"], "hindrances": c.get("hindrances"), "note": c.get("note") or ""}
            for c in section.get("cases") or [] if isinstance(c, dict)]


def section(case_list):
    """The extensions entry holding these cases."""
    return {"version": EXAMPLES_VERSION, "cases": list(case_list)}
