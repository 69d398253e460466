"""python manage.py export_card SCENARIO.json --out card.pdf [--paper a4|letter]: the printable card of a file."""

from pathlib import Path

from authoring.cli import add_map_options, map_lookup
from engine.scenarios import cards, scenariofile
from maps.cli import CliError, MapCommand


class Command(MapCommand):
    help = ("Write a scenario's printable card as a PDF: its public card at --out and each side's secret sheet "
            "(on TOCS its secret brief) beside it (card-SIDE.pdf)."
            " Maps named by id come from this server's library (its published maps, or --user NAME's), maps "
            "named by name from the sample maps (or --maps DIR).")

    def add_arguments(self, parser):
        parser.add_argument("scenario", metavar="SCENARIO.json")
        parser.add_argument("--out", required=True, metavar="CARD.pdf")
        parser.add_argument("--paper", choices=sorted(cards.PAPERS), default="a4")
        add_map_options(parser)

    def handle(self, *args, **options):
        path = Path(options["scenario"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CliError(f"{path}: cannot read it ({exc.strerror or exc})") from None
        maps = map_lookup(options)
        try:
            doc = scenariofile.parse(data, maps)
        except scenariofile.ScenarioFormatError as exc:
            first = exc.errors[0]
            more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
            raise CliError(f"{path}: invalid scenario: {first}{more}") from None
        out = Path(options["out"])
        for sheet in cards.sheets(doc):
            target = out if sheet == cards.PUBLIC else out.with_name(f"{out.stem}-{sheet}{out.suffix}")
            pdf = cards.card_pdf(doc, options["paper"], sheet)
            try:
                target.write_bytes(pdf)
            except OSError as exc:
                raise CliError(f"{target}: cannot write it ({exc.strerror or exc})") from None
            self.stdout.write(f"{target}: {sheet} sheet, {len(pdf):,} bytes, {options['paper']}")
