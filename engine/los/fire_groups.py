"""Fire groups: several units firing at one target as one attack (OST 27.8). Each unit needs its own line to the
target; the degrading terrain the lines cross is counted once over the whole group, a hex both lines cross once
(27.8.7), different hexes adding up (27.8.8), and a group whose lines cross more than the game allows together
may not fire. The units stand in the same or adjacent hexes (27.8). The game says whether it has fire groups and
how many degrading elements a group may cross (its LOS rules' ``fire_group``); the lines are the engine's single
answers with their reasons, so a group's answer explains itself as a single line does."""

from engine.los.engine import line_of_sight, rules_for

COUNTED = ("hindering", "blind-hindering")  # the reasons that cost a line a hindrance


class FireGroupError(ValueError):
    """A question no fire group answers: a game without fire groups, a single unit, units too far apart."""


def fire_group(cmap, observers, target, levels=None, target_level=None):
    """The fire group of ``observers`` (hexes, a label or [column, row] each) at ``target``: a dict with each
    line's answer, the degrading elements counted for the group, whether it may fire and the FP it loses."""
    rules = rules_for(cmap)
    spec = rules.fire_group
    if spec is None:
        raise FireGroupError(f"{cmap.catalogue.name} has no fire groups")
    if len(observers) < 2:
        raise FireGroupError("a fire group is at least two firing hexes")
    levels = list(levels) if levels is not None else [None] * len(observers)
    grid = cmap.grid
    spots = [grid.from_index(cmap.index_of(h)) for h in observers]
    apart = [(grid.label(*a), grid.label(*b)) for n, a in enumerate(spots) for b in spots[n + 1:]
             if grid.distance(a, b) > 1]
    if apart:
        raise FireGroupError(f"{apart[0][0]} and {apart[0][1]} are not in the same or adjacent hexes: a fire "
                             f"group's units are ({spec['rule'].split(':')[0]}, 27.8)")
    lines = [line_of_sight(cmap, h, target, level, target_level) for h, level in zip(observers, levels, strict=True)]
    union = {}
    for line in lines:
        for reason in line.reasons:
            if reason.effect in COUNTED:
                union.setdefault((reason.hex, reason.hexside, reason.terrain), reason)
    degrading = list(union.values())
    blocked = [line for line in lines if line.result == "blocked"]
    if blocked:
        line = blocked[0]
        why = f"{line.from_hex} has no LOS to {line.to_hex}: each unit of a group needs its own line (27.8)"
    elif len(degrading) > spec["most"]:
        why = (f"the group's lines cross {len(degrading)} degrading elements together, more than "
               f"{spec['most']} ({spec['rule']})")
    else:
        why = ""
    return {"target": lines[0].to_hex, "observers": [line.from_hex for line in lines], "may_fire": not why,
            "degrading": [r.as_dict() for r in degrading], "fp": -len(degrading) if not why else None,
            "why": why or (f"{len(degrading)} degrading element{'s' if len(degrading) != 1 else ''} for the "
                           f"group: {-len(degrading)} FP ({spec['rule']})"),
            "lines": [line.as_dict() for line in lines]}
