import json

from engine.los.engine import compile_map, line_of_sight
from maps.cli import CliError, MapCommand, check_level, parse_markers, read_map_file


class Command(MapCommand):
    help = "Line of sight between two hexes of a map file, with every reason."

    def add_arguments(self, parser):
        parser.add_argument("map", help="a map file (the Hexside map format)")
        parser.add_argument("from_hex", metavar="FROM")
        parser.add_argument("to_hex", metavar="TO")
        parser.add_argument("--from-level", type=int, default=None)
        parser.add_argument("--to-level", type=int, default=None)
        parser.add_argument("--marker", action="append", help="HEX:KIND[:COUNT], e.g. E6:smoke (repeatable)")
        parser.add_argument("--json", action="store_true", help="print the answer as JSON")

    def handle(self, *args, **options):
        doc = read_map_file(options["map"])
        cmap = compile_map(doc, parse_markers(options["marker"]))
        for name in ("from_hex", "to_hex"):
            try:
                cmap.index_of(options[name])
            except ValueError as exc:
                raise CliError(f"{'FROM' if name == 'from_hex' else 'TO'}: {exc}") from None
        check_level(doc, options["from_level"], "--from-level")
        check_level(doc, options["to_level"], "--to-level")
        answer = line_of_sight(cmap, options["from_hex"], options["to_hex"],
                               options["from_level"], options["to_level"])
        if options["json"]:
            self.stdout.write(json.dumps(answer.as_dict(), ensure_ascii=False))
            return
        self.stdout.write(f"{answer.from_hex} (level {answer.from_level}) -> {answer.to_hex} "
                          f"(level {answer.to_level}): {answer.result.upper()}  [{answer.term}]")
        if answer.hindrances:
            self.stdout.write(f"  hindrances: {answer.hindrances}")
        if answer.blind:
            self.stdout.write("  the target is in a blind hex")
        for reason in answer.reasons:
            where = reason.hexside or reason.hex
            self.stdout.write(f"  {where:>8}  {reason.terrain:<18} {reason.effect:<10} {reason.rule}")
        for assumption in answer.assumptions:
            self.stdout.write(f"  assumption: {assumption}")
