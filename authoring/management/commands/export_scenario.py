"""python manage.py export_scenario SCENARIO.json --format vassal --out FILE.vmod [--side ID] [--hex-mm N]"""

from pathlib import Path

from authoring.cli import add_map_options, map_lookup
from engine.exports import vassal, vassal_scenario
from engine.render.printing import HEX_MM_RANGE, MAX_DPI
from engine.scenarios import scenariofile
from maps.cli import CliError, MapCommand


class Command(MapCommand):
    help = ("Write a scenario as a VASSAL 3.7 module (docs/exports.md): the module both sides play (every side's "
            "units, hidden ones masked or invisible to the other side), or with --side a print of what that side's "
            "reader may see (no other side's hidden units or secrets)."
            " Maps named by id come from this server's library (its published maps, or --user NAME's), maps "
            "named by name from the sample maps (or --maps DIR).")

    def add_arguments(self, parser):
        parser.add_argument("scenario", metavar="SCENARIO.json")
        parser.add_argument("--format", required=True, choices=["vassal"])
        parser.add_argument("--out", required=True, metavar="FILE.vmod")
        parser.add_argument("--side", default=None, metavar="ID",
                            help="Print only what this side's reader may see (its id).")
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
