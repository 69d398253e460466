import json

from engine.los.engine import compile_map
from engine.los.fire_groups import FireGroupError, fire_group
from maps.cli import CliError, MapCommand, parse_markers, read_map_file


class Command(MapCommand):
    help = ("A fire group's attack (OST 27.8): each firing hex's line to the target, and the degrading terrain "
            "counted once for the group.")

    def add_arguments(self, parser):
        parser.add_argument("map", help="a map file (the Hexside map format)")
        parser.add_argument("to_hex", metavar="TARGET")
        parser.add_argument("from_hexes", metavar="FROM", nargs="+", help="the firing hexes, two or more")
        parser.add_argument("--marker", action="append", help="HEX:KIND[:COUNT], e.g. E6:smoke (repeatable)")
        parser.add_argument("--json", action="store_true", help="print the answer as JSON")

    def handle(self, *args, **options):
        doc = read_map_file(options["map"])
        cmap = compile_map(doc, parse_markers(options["marker"]))
        for name, hexes in (("TARGET", [options["to_hex"]]), ("FROM", options["from_hexes"])):
            for hex in hexes:
                try:
                    cmap.index_of(hex)
                except ValueError as exc:
                    raise CliError(f"{name}: {exc}") from None
        try:
            group = fire_group(cmap, options["from_hexes"], options["to_hex"])
        except FireGroupError as exc:
            raise CliError(str(exc)) from None
        if options["json"]:
            self.stdout.write(json.dumps(group, ensure_ascii=False))
            return
        verdict = "MAY FIRE" if group["may_fire"] else "MAY NOT FIRE"
        self.stdout.write(f"{', '.join(group['observers'])} -> {group['target']}: {verdict}: {group['why']}")
        for line in group["lines"]:
            n = line["hindrances"]
            self.stdout.write(f"  {line['from']} -> {line['to']}: {line['result']} "
                              f"({n} hindrance{'' if n == 1 else 's'})")
        for element in group["degrading"]:
            self.stdout.write(f"  degrading: {element['hexside'] or element['hex']} {element['terrain']} "
                              f"{element['rule']}")
