import json

import numpy as np

from engine.los.engine import analyze, compile_map
from maps import sight_cli
from maps.cli import CliError, MapCommand, parse_markers, read_map_file


class Command(MapCommand):
    help = "Whole-map visibility: every hex against every hex, per-hex counts, the pair count and the seconds."

    def add_arguments(self, parser):
        parser.add_argument("map", nargs="?", help="a map file (the Hexside map format)")
        parser.add_argument("--height", type=int, default=0, help="observers and targets this many levels above "
                                                                  "where a unit stands (default 0)")
        parser.add_argument("--marker", action="append", help="HEX:KIND[:COUNT], e.g. E6:smoke (repeatable)")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--out", metavar="FILE.npz", help="also write the full matrix (result, hindrances, blind)")
        parser.add_argument("--exposure", metavar="FROM_HEXES", help="how many of these hexes (C3,C4,..) see each "
                                                                     "hex, at every level a unit may stand on")
        parser.add_argument("--route", nargs=2, metavar=("FROM", "TO"), help="the least-exposed route between two "
                                                                             "hexes (with --observers)")
        parser.add_argument("--observers", metavar="HEXES", help="the other side's observers a --route avoids")
        parser.add_argument("--unit-class", help="who takes the --route (default: the ruleset's first unit class)")
        parser.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"), help="what changed for LOS between two map "
                                                                            "files (no MAP)")
        parser.add_argument("--min-height", metavar="HEX", help="the lowest level from which an observer in HEX "
                                                                "sees each hex")

    def handle(self, *args, **options):
        options["markers"] = parse_markers(options["marker"])
        if options["diff"]:
            if options["map"]:
                raise CliError("--diff OLD NEW compares two map files: give no MAP besides them")
            return sight_cli.diff(self, options)
        if not options["map"]:
            raise CliError("name a map file (or --diff OLD NEW)")
        doc = read_map_file(options["map"])
        cmap = compile_map(doc, options["markers"])
        for flag, answer in (("exposure", sight_cli.exposure), ("route", sight_cli.route),
                             ("min_height", sight_cli.minimum_height)):
            if options[flag]:
                return answer(self, cmap, options)
        result = analyze(cmap, height=options["height"], full=bool(options["out"]))
        if options["out"]:
            try:
                with open(options["out"], "wb") as out:
                    np.savez_compressed(out, labels=np.array(result.labels), **result.matrix)
            except OSError as exc:
                raise CliError(f"{options['out']}: cannot write it ({exc.strerror or exc})") from None
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict()))
            return
        self.stdout.write(f"{doc.name}: {result.pairs} pairs in {result.seconds:.2f} s (height {result.height})")
        self.stdout.write(f"{'hex':>6} {'clear':>6} {'hindered':>9} {'blocked':>8} {'blind':>6}")
        for i, label in enumerate(result.labels):
            self.stdout.write(f"{label:>6} {result.clear[i]:>6} {result.hindered[i]:>9} {result.blocked[i]:>8} "
                              f"{result.blind[i]:>6}")
