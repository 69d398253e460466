import json

from engine.los.engine import compile_map, viewshed
from engine.render import render_viewshed
from maps.cli import CliError, MapCommand, check_level, parse_markers, read_map_file


class Command(MapCommand):
    help = "What one hex sees: every hex of the map with result, hindrances and blind."

    def add_arguments(self, parser):
        parser.add_argument("map", help="a map file (the Hexside map format)")
        parser.add_argument("from_hex", metavar="FROM")
        parser.add_argument("--level", type=int, default=None, help="the observer's level (default: where a unit "
                                                                     "in that hex stands)")
        parser.add_argument("--marker", action="append", help="HEX:KIND[:COUNT], e.g. E6:smoke (repeatable)")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--png", metavar="OUT.png", help="draw the map shaded by result")

    def handle(self, *args, **options):
        doc = read_map_file(options["map"])
        cmap = compile_map(doc, parse_markers(options["marker"]))
        try:
            cmap.index_of(options["from_hex"])
        except ValueError as exc:
            raise CliError(f"FROM: {exc}") from None
        check_level(doc, options["level"], "--level")
        shed = viewshed(cmap, options["from_hex"], options["level"])
        if options["png"]:
            try:
                render_viewshed(cmap, shed).save(options["png"])
            except OSError as exc:
                raise CliError(f"{options['png']}: cannot write it ({exc.strerror or exc})") from None
        if options["json"]:
            self.stdout.write(json.dumps(shed, ensure_ascii=False))
            return
        counts = {}
        for answer in shed["hexes"].values():
            key = "blind" if answer["blind"] else answer["result"]
            counts[key] = counts.get(key, 0) + 1
        self.stdout.write(f"from {shed['from']} at level {shed['level']}: "
                          + ", ".join(f"{counts.get(k, 0)} {k}" for k in ("clear", "hindered", "blocked", "blind")))
        if options["png"]:
            self.stdout.write(f"drawn to {options['png']}")
