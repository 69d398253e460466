from maps.cli import MapCommand, report_findings
from maps.validation import validate_file


class Command(MapCommand):
    help = "Check map files against the Hexside map format. Exits 1 when any file has an error."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        report_findings(self, options["files"], lambda path: validate_file(path)[1], options["json"])
