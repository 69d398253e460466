
from authoring.cli import add_map_options, map_lookup
from engine.mapfile import Finding
from engine.scenarios import checks as scenario_checks
from engine.scenarios import scenariofile
from maps.cli import MapCommand, report_findings


def validate_file(path, maps):
    """(doc or None, findings) for one scenario file: its format errors, or the checks' findings."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))
        return None, [Finding("$", f"cannot read the file: {reason}", code="unreadable")]
    try:
        doc = scenariofile.parse(data, maps)
    except scenariofile.ScenarioFormatError as exc:
        return None, list(exc.errors)
    return doc, scenario_checks.check(doc)


class Command(MapCommand):
    help = ("Check scenario files against the scenario format and their game's rules. Maps named by id come "
            "from this server's library (its published maps, or --user NAME's), maps named by name from the "
            "sample maps (or --maps DIR). Exits 1 when any file has an error.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true")
        add_map_options(parser)

    def handle(self, *args, **options):
        maps = map_lookup(options)
        report_findings(self, ((path, validate_file(path, maps)[1]) for path in options["files"]), options["json"])
