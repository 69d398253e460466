from pathlib import Path

from engine.exports import mapfiles, tiled
from engine.render import HEX_MM_RANGE
from maps.cli import CliError, MapCommand, read_map_file


class Command(MapCommand):
    help = ("Export a map file for another tool: a VASSAL module (.vmod), a Tiled map (a zip of the .tmx and its "
            "tileset images, or the .tmx with the images written beside it), or the print in vectors at true hex "
            "size (SVG or PDF). docs/exports.md")

    def add_arguments(self, parser):
        parser.add_argument("map", help="a map file (the Hexside map format)")
        parser.add_argument("--format", required=True, choices=sorted(mapfiles.FORMATS))
        parser.add_argument("--out", required=True, metavar="FILE")
        parser.add_argument("--hex-mm", type=float, default=19.0,
                            help=f"a hex's width across the flats in millimetres, {HEX_MM_RANGE[0]:g} to "
                                 f"{HEX_MM_RANGE[1]:g} (default 19): the printed size, the VASSAL board's")

    def handle(self, *args, **options):
        doc = read_map_file(options["map"])
        format, out, hex_mm = options["format"], Path(options["out"]), options["hex_mm"]
        try:
            mapfiles.check(doc.grid, format, hex_mm)
        except mapfiles.Refused as exc:
            raise CliError(f"{'--hex-mm' if exc.option == 'hex_mm' else options['map']}: {exc}") from None
        if format == "tiled" and out.suffix.lower() == ".tmx":
            written = tiled.files(doc, out.stem)  # the TMX, and its tileset images beside it
        else:
            try:
                written = {out.name: mapfiles.export(doc, format, hex_mm)}
            except ImportError as exc:
                raise CliError(f"--format {format}: this installation cannot write it ({exc})") from None
        try:
            for name, content in written.items():
                (out.parent / name).write_bytes(content)
        except OSError as exc:
            raise CliError(f"{out}: cannot write it ({exc.strerror or exc})") from None
        size = sum(len(c) for c in written.values())
        self.stdout.write(f"{out}: {mapfiles.FORMATS[format].label}, {doc.grid.columns} x {doc.grid.rows} hexes"
                          + (f" at {hex_mm:g} mm" if format != "tiled" else "") + f", {size / 1e3:,.0f} kB"
                          + "".join(f"; wrote {name}" for name in written if name != out.name))
