from engine import render
from engine.los.engine import compile_map
from maps.cli import CliError, MapCommand, read_map_file


class Command(MapCommand):
    help = "Draw a map file as a PNG for print: any dpi up to 300, hexes of a chosen size, legend and scale bar."

    def add_arguments(self, parser):
        parser.add_argument("map", help="a map file (the Hexside map format)")
        parser.add_argument("--out", required=True, metavar="FILE.png")
        parser.add_argument("--dpi", type=int, default=150, help=f"dots per inch, up to {render.MAX_DPI} "
                                                                 "(default 150)")
        parser.add_argument("--hex-mm", type=float, default=19.0, help="a hex's width across the flats in "
                                                                       "millimetres (default 19)")
        parser.add_argument("--crop", metavar="A1:F10", help="only this rectangle of hexes (the play area)")
        parser.add_argument("--no-labels", action="store_true", help="no hex labels")
        parser.add_argument("--no-legend", action="store_true", help="no legend and no scale bar")

    def handle(self, *args, **options):
        doc = read_map_file(options["map"])
        cmap = compile_map(doc)
        legend = not options["no_legend"]
        try:
            image = render.render_print(cmap, dpi=options["dpi"], hex_mm=options["hex_mm"],
                                        labels=not options["no_labels"], legend=legend, scale_bar=legend,
                                        crop=options["crop"])
        except ValueError as exc:
            raise CliError(str(exc)) from None
        try:
            image.save(options["out"], format="PNG", compress_level=1, dpi=(options["dpi"], options["dpi"]))
        except OSError as exc:
            raise CliError(f"{options['out']}: cannot write it ({exc.strerror or exc})") from None
        self.stdout.write(f"{options['out']}: {image.width} x {image.height} px at {options['dpi']} dpi")
