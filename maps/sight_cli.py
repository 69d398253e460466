"""The sight questions of ``analyze_map``: --exposure, --route, --diff and --min-height (docs/los.md)."""

import json

from engine.los import changes, sight
from engine.los.engine import compile_map
from maps.cli import CliError, read_map_file


def parse_hexes(cmap, text, flag):
    """A list of hexes "C3,C4 D5" as indices, or CliError naming the hex not on the map."""
    names = [h for h in text.replace(",", " ").split() if h]
    if not names:
        raise CliError(f"{flag}: name at least one hex, e.g. {flag} C3,C4")
    try:
        return sight.observer_indices(cmap, names)
    except ValueError as exc:
        raise CliError(f"{flag}: {exc}") from None


def unit_class(cmap, value):
    classes = cmap.catalogue.unit_classes
    if value is None:
        return classes[0]
    if value not in classes:
        raise CliError(f"--unit-class {value!r}: {cmap.catalogue.name} moves {', '.join(classes)}")
    return value


def exposure(command, cmap, options):
    result = sight.exposure(cmap, parse_hexes(cmap, options["exposure"], "--exposure"))
    if options["json"]:
        return command.stdout.write(json.dumps(result.as_dict()))
    most = result.most
    command.stdout.write(f"exposure from {len(result.observers)} observers: the most-seen hex is seen by "
                         f"{int(most.max())}; {int((most == 0).sum())} hexes are seen by none")
    for i in range(cmap.n):
        levels = "".join(f" level {lv}: {c}" for lv, c in sorted(result.levels.get(i, {}).items()))
        command.stdout.write(f"{cmap.label(i):>6} {int(result.seen[i]):>5}{levels}")


def route(command, cmap, options):
    if not options["observers"]:
        raise CliError("--route needs --observers HEXES: the other side's observers whose exposure it avoids")
    observers = parse_hexes(cmap, options["observers"], "--observers")
    ends = []
    for flag, name in zip(("FROM", "TO"), options["route"], strict=True):
        try:
            ends.append(cmap.index_of(name))
        except ValueError as exc:
            raise CliError(f"--route {flag}: {exc}") from None
    counts = sight.exposure(cmap, observers).seen
    try:
        path = sight.least_exposed_route(cmap, counts, ends[0], ends[1], unit_class(cmap, options["unit_class"]))
    except sight.NoRoute as exc:
        raise CliError(str(exc)) from None
    report = sight.route_report(cmap, path, counts)
    if options["json"]:
        return command.stdout.write(json.dumps(report))
    command.stdout.write(f"least-exposed route {cmap.label(ends[0])} to {cmap.label(ends[1])}: {report['length']} "
                         f"hexes, exposure {report['exposure']}, {report['seen_hexes']} hexes seen "
                         f"({100 * report['share_seen']:.0f}%)")
    command.stdout.write(" ".join(f"{h['hex']}({h['seen']})" for h in report["hexes"]))


def diff(command, options):
    old_doc, new_doc = (read_map_file(path) for path in options["diff"])
    markers = options["markers"]
    try:
        result = changes.diff(compile_map(old_doc, markers), compile_map(new_doc, markers))
    except changes.NotComparable as exc:
        raise CliError(str(exc)) from None
    if options["json"]:
        return command.stdout.write(json.dumps(result.as_dict()))
    command.stdout.write(result.sentence)
    command.stdout.write(f"{result.traced} pairs traced again; {len(result.gained[0])} gained LOS, "
                         f"{len(result.lost[0])} lost it")


def minimum_height(command, cmap, options):
    try:
        result = sight.minimum_height(cmap, options["min_height"])
    except ValueError as exc:
        raise CliError(f"--min-height: {exc}") from None
    if options["json"]:
        return command.stdout.write(json.dumps(result))
    values = [v for v in result["hexes"].values() if v is not None]
    command.stdout.write(f"from {result['from']}, levels {result['levels'][0]} to {result['levels'][-1]}: "
                         f"{len(values)} hexes seen at some level, {len(result['hexes']) - len(values)} at none")
    for label, level in result["hexes"].items():
        command.stdout.write(f"{label:>6} {'-' if level is None else level:>5}")


