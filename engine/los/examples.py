"""The map's LOS examples answered again (engine.mapfile.examples): what each gives now, and whether it still
gives what the designer wrote down. Every edit's checks run them (engine.checks), the painter says which an
edit changed, and they print as a page for the scenario's players (engine.scenarios.cards.los_examples)."""

from engine.los import engine
from engine.mapfile import examples


def outcome(answer):
    """An answer in the examples' words: clear, hindered, blocked or blind."""
    return "blind" if answer.blind else answer.result


def run(cmap, doc=None):
    """Each example of the map with its answer now: {"case", "answer" (the LOS answer with reasons), "got",
    "holds"}; an example naming a hex off the map (or a level the rules refuse) says so in "problem"."""
    out = []
    for number, case in enumerate(examples.cases(doc or cmap.doc), start=1):
        row = {"number": number, "case": case}
        try:
            answer = engine.line_of_sight(cmap, case["from"], case["to"], case["from_level"], case["to_level"])
        except ValueError as exc:
            row.update(answer=None, got=None, holds=False, problem=str(exc))
            out.append(row)
            continue
        got = outcome(answer)
        holds = got == case["expect"] and (case["hindrances"] is None or case["hindrances"] == answer.hindrances)
        row.update(answer=answer.as_dict(), got=got, holds=holds)
        out.append(row)
    return out


def describe(row):
    """One line a designer reads: 'C3 to H7 (blocked by the wall at F5, rule 8.2): now clear, not blocked'."""
    case = row["case"]
    note = f" ({case['note']})" if case["note"] else ""
    expected = case["expect"] + (f" with {case['hindrances']} hindrance{'s' if case['hindrances'] != 1 else ''}"
                                 if case["hindrances"] is not None else "")
    if row.get("problem"):
        return f"{case['from']} to {case['to']}{note}: cannot be answered: {row['problem']}"
    if row["holds"]:
        return f"{case['from']} to {case['to']}{note}: {expected}, as kept"
    hindrances = row["answer"]["hindrances"]
    got = row["got"] + (f" with {hindrances} hindrance{'s' if hindrances != 1 else ''}" if hindrances else "")
    return f"{case['from']} to {case['to']}{note}: now {got}, not {expected}"
