import json
import sys

from maps.cli import MapCommand
from maps.validation import validate_file


class Command(MapCommand):
    help = "Check map files against the Hexside map format. Exits 1 when any file has an error."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        report = []
        for path in options["files"]:
            _doc, findings = validate_file(path)
            report.append({"file": path, "ok": not any(f.severity == "error" for f in findings),
                           "findings": [{"severity": f.severity, "code": f.code, "where": f.where,
                                         "message": f.message} for f in findings]})
        if options["json"]:
            self.stdout.write(json.dumps({"files": report}, ensure_ascii=False))
        else:
            for entry in report:
                errors = sum(f["severity"] == "error" for f in entry["findings"])
                warnings = len(entry["findings"]) - errors
                self.stdout.write(f"{entry['file']}: {'ok' if entry['ok'] else 'INVALID'} "
                                  f"({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)})")
                for f in entry["findings"]:
                    self.stdout.write(f"  {f['severity']}: {f['where']}: {f['message']} [{f['code']}]")
        if not all(entry["ok"] for entry in report):
            sys.exit(1)
