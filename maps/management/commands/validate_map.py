from pathlib import Path

from engine.importers import DiskFiles
from engine.importers.checked import validate_source
from engine.mapfile import Finding
from maps.cli import MapCommand, read_mapping_file, report_findings
from maps.importing import limits


class Command(MapCommand):
    help = ("Check map files: Hexside maps, and every format engine.importers reads (Tiled, Wesnoth, MegaMek, VASSAL, "
            "and zips of them), converted first. Exits 1 when any file has an error.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--ruleset", help="the ruleset a community map is converted to (default: its mapping's)")
        parser.add_argument("--mapping", metavar="MAPPING.json", help="a terrain mapping laid over the default one")

    def handle(self, *args, **options):
        bounds = limits()
        mapping = read_mapping_file(options["mapping"]) if options.get("mapping") else None
        results = (
            (name, findings)
            for path in options["files"]
            for name, _doc, findings in self.check(path, bounds, options.get("ruleset"), mapping)
        )
        report_findings(self, results, options["json"])

    def check(self, path, bounds, ruleset, mapping):
        file = Path(path)
        try:
            size = file.stat().st_size
            if size > bounds.max_bytes:
                return [(path, None, [Finding("$", f"the file is {size / 1e6:.1f} MB; at most "
                                                   f"{bounds.max_bytes / 1e6:.1f} MB is read", code="too-large")])]
            data = file.read_bytes()
        except OSError as exc:
            reason = "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))
            return [(path, None, [Finding("$", f"cannot read the file: {reason}", code="unreadable")])]
        # Names stay as given on the command line; a zip's maps are "ZIP!path/inside".
        results = validate_source(file.name, data, files=DiskFiles(file.parent, bounds), limits=bounds,
                                  ruleset=ruleset, mapping=mapping)
        return [(path + name[len(file.name):], doc, findings) for name, doc, findings in results]
