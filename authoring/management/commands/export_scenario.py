"""python manage.py export_scenario SCENARIO.json --format vassal --out FILE.vmod [--side ID] [--hex-mm N]
python manage.py export_scenario SCENARIO.json --format kit --out KIT.zip [--side ID] [--paper a4|letter]
    [--hex-mm N] [--counter-size 5/8in|MM] [--offset-x MM] [--offset-y MM] [--no-map-layer]"""

from pathlib import Path

from authoring.cli import add_map_options, map_lookup
from engine.exports import countersheets, kit, mappages, vassal, vassal_scenario
from engine.render.printing import HEX_MM_RANGE, MAX_DPI
from engine.scenarios import scenariofile, visibility
from maps.cli import CliError, MapCommand


class Command(MapCommand):
    help = ("Write a scenario as a VASSAL 3.7 module (docs/exports.md): the module both sides play (every side's "
            "units, hidden ones masked or invisible to the other side), or with --side a print of what that side's "
            "reader may see (no other side's hidden units or secrets); or as a print-and-play kit (--format kit, "
            "docs/print-and-play.md): a zip of PDFs, the designer's with every side, or with --side that side's."
            " Maps named by id come from this server's library (its published maps, or --user NAME's), maps "
            "named by name from the sample maps (or --maps DIR).")

    def add_arguments(self, parser):
        parser.add_argument("scenario", metavar="SCENARIO.json")
        parser.add_argument("--format", required=True, choices=["vassal", "kit"])
        parser.add_argument("--out", required=True, metavar="FILE.vmod|KIT.zip")
        parser.add_argument("--paper", default="a4", choices=sorted(mappages.PAPERS), help="kit: the paper.")
        parser.add_argument("--counter-size", default="5/8in", metavar="SIZE",
                            help=f"kit: the counters, {', '.join(countersheets.SIZES)} or millimetres.")
        parser.add_argument("--offset-x", type=float, default=0.0, metavar="MM",
                            help="kit: the printer's offset of the counters' backs, mm right (-10 to 10).")
        parser.add_argument("--offset-y", type=float, default=0.0, metavar="MM",
                            help="kit: the printer's offset of the counters' backs, mm down (-10 to 10).")
        parser.add_argument("--no-map-layer", action="store_true",
                            help="kit: the map pages without the scenario's zones and counters.")
        parser.add_argument("--side", default=None, metavar="ID",
                            help="vassal: print only what this side's reader may see; kit: that side's kit (its id).")
        parser.add_argument("--hex-mm", type=float, default=vassal.DEFAULT_HEX_MM, metavar="N",
                            help=f"A hex across the flats on the board, {HEX_MM_RANGE[0]:g} to "
                                 f"{HEX_MM_RANGE[1]:g} mm (default {vassal.DEFAULT_HEX_MM:g}).")
        parser.add_argument("--dpi", type=int, default=vassal.DEFAULT_DPI, metavar="N",
                            help=f"The board's dots per inch, 10 to {MAX_DPI} (default {vassal.DEFAULT_DPI}).")
        add_map_options(parser)

    def handle(self, *args, **options):
        path = Path(options["scenario"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CliError(f"{path}: cannot read it ({exc.strerror or exc})") from None
        try:
            doc = scenariofile.parse(data, map_lookup(options))
        except scenariofile.ScenarioFormatError as exc:
            first = exc.errors[0]
            more = f" (and {len(exc.errors) - 1} more; run validate_scenario {path})" if len(exc.errors) > 1 else ""
            raise CliError(f"{path}: invalid scenario: {first}{more}") from None
        if options["format"] == "kit":
            return self.kit(doc, options)
        try:
            module = vassal_scenario.scenario_module(doc, side=options["side"], hex_mm=options["hex_mm"],
                                                     dpi=options["dpi"])
        except vassal.ModuleError as exc:
            option = {"hex_mm": "--hex-mm", "dpi": "--dpi", "side": "--side"}.get(exc.path, exc.path)
            raise CliError(f"{option}: {exc}") from None
        out = Path(options["out"])
        try:
            out.write_bytes(module)
        except OSError as exc:
            raise CliError(f"{out}: cannot write it ({exc.strerror or exc})") from None
        who = f"{doc.side(options['side'])['name']}'s view" if options["side"] else "the module both sides play"
        self.stdout.write(f"{out}: {who} of {doc.title!r}, {len(module):,} bytes, for VASSAL {vassal.VASSAL_VERSION}")

    def kit(self, doc, options):
        """The designer's kit (every side), or with --side that side's: what its link holder may have."""
        side = options["side"]
        if side is not None and doc.side(side) is None:
            raise CliError(f"--side: this scenario has no side {side!r}; its sides are "
                           f"{', '.join(s['id'] for s in doc.data['sides'])}")
        if not HEX_MM_RANGE[0] <= options["hex_mm"] <= HEX_MM_RANGE[1]:
            raise CliError(f"--hex-mm: a hex is {HEX_MM_RANGE[0]:g} to {HEX_MM_RANGE[1]:g} mm, "
                           f"got {options['hex_mm']:g}")
        try:
            content = kit.kit_zip(doc, visibility.ALL if side is None else {side}, paper=options["paper"],
                                  hex_mm=options["hex_mm"], counter_size=options["counter_size"],
                                  offset=(options["offset_x"], options["offset_y"]),
                                  map_layer=not options["no_map_layer"])
        except countersheets.SheetError as exc:
            raise CliError(f"--counter-size or --offset: {exc}") from None
        out = Path(options["out"])
        try:
            out.write_bytes(content)
        except OSError as exc:
            raise CliError(f"{out}: cannot write it ({exc.strerror or exc})") from None
        who = f"{doc.side(side)['name']}'s kit" if side else "the designer's kit (every side)"
        self.stdout.write(f"{out}: {who} of {doc.title!r}, {len(content):,} bytes, a zip of PDFs")
