import json
import sys
from pathlib import Path

from engine import mapfile
from engine.edits import NAME_LENGTH
from engine.importers import DiskFiles, convert_upload, expand, suggest
from maps.cli import CliError, MapCommand, read_mapping_file
from maps.importing import limits


class Command(MapCommand):
    help = ("Convert a community map (Tiled .tmx/.tmj/.json, Wesnoth .map, MegaMek .board, VASSAL .vmod or "
            "buildFile, or a zip holding one) into a Hexside map file. Its findings are printed; with any error "
            "nothing is written and the exit code is 1. A VASSAL board image is written beside the map.")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="the map; FILE.vmod#Board picks one board of a module")
        parser.add_argument("--ruleset", help="the ruleset to map terrain to (default: the mapping's, else ost)")
        parser.add_argument("--mapping", metavar="MAPPING.json", help="a terrain mapping laid over the default one")
        parser.add_argument("--board", metavar="NAME", help="the board of a VASSAL module holding several")
        parser.add_argument("--suggest-mapping", metavar="OUT.json",
                            help="write a proposed mapping (every source terrain code with its proposed terrain and "
                                 "a confidence from 0 to 1, and a level scale) and exit; import with --mapping")
        parser.add_argument("--name", help="the map's name (default: the name the file gives: a Tiled map's name "
                                           "property, a VASSAL module's name, else the file's name)")
        parser.add_argument("--out", metavar="MAP.json")

    def handle(self, *args, **options):
        if not options["out"] and not options["suggest_mapping"]:
            raise CliError("--out MAP.json is required (or --suggest-mapping OUT.json to propose a mapping)")
        bounds = limits()
        path, board = Path(options["file"]), ""
        if not path.exists() and "#" in options["file"]:
            raw, board = options["file"].rsplit("#", 1)
            path, board = Path(raw), "#" + board
        if options["board"]:
            board = "#" + options["board"]
        mapping = read_mapping_file(options["mapping"]) if options["mapping"] else None
        try:
            if path.stat().st_size > bounds.max_bytes:
                raise CliError(f"{path}: the file is larger than {bounds.max_bytes / 1e6:.1f} MB")
            data = path.read_bytes()
        except FileNotFoundError:
            raise CliError(f"{path}: no such file") from None
        except OSError as exc:
            raise CliError(f"{path}: cannot read it ({exc.strerror})") from None
        uploads = expand(path.name + board, data, bounds) if not board else expand(path.name, data, bounds)
        if board:
            boards = [u.name.rsplit("#", 1)[1] for u in uploads if "#" in u.name]
            uploads = [u for u in uploads if u.name.endswith(board)] or [u for u in uploads if "#" not in u.name]
            if not uploads:
                raise CliError(f"{path}: has no board {board[1:]!r}; its boards are: {', '.join(boards)}")
            for upload in uploads:
                upload.name = upload.name.split("#", 1)[0] + board
        maps = [u for u in uploads if u.data is not None]
        if len(maps) > 1:
            names = ", ".join(u.name for u in maps[:6]) + (" .." if len(maps) > 6 else "")
            raise CliError(f"{path}: holds {len(maps)} maps ({names}); import_map converts one (pick a board with "
                           "--board NAME, or check them all with validate_map)")
        upload = maps[0] if maps else uploads[0]
        if not upload.files:
            upload.files = DiskFiles(path.parent, bounds)
        if options["suggest_mapping"]:
            return self.suggest(upload, path, options, bounds)
        result = convert_upload(upload, ruleset=options["ruleset"], mapping=mapping, limits=bounds)
        for f in result.findings:
            self.stdout.write(f"  {f.severity}: {f.where}: {f.message} [{f.code}]")
        errors = [f for f in result.findings if f.severity == "error"]
        if result.doc is None or errors:
            first = errors[0] if errors else None
            more = f" (and {len(errors) - 1} more above)" if len(errors) > 1 else ""
            self.stderr.write(f"error: {path}: cannot import: {first.message if first else 'nothing to import'}"
                              f"{more}; nothing written")
            sys.exit(1)
        out = Path(options["out"])
        doc = mapfile.parse(result.doc)
        if options["name"] and options["name"].strip():
            doc.name = options["name"].strip()[:NAME_LENGTH]
        try:
            out.write_text(mapfile.dumps(doc), encoding="utf-8")
            for name, content in result.files.items():
                (out.parent / name).write_bytes(content)
        except OSError as exc:
            raise CliError(f"{out}: cannot write it ({exc.strerror})") from None
        warnings = len(result.findings)
        self.stdout.write(f"{out}: {result.source_format} map imported as {doc.ruleset} "
                          f"({doc.grid.columns} x {doc.grid.rows} hexes, {warnings} warning{'s' * (warnings != 1)})"
                          + "".join(f"; wrote {name}" for name in result.files))

    def suggest(self, upload, path, options, bounds):
        proposal, findings = suggest.suggest(upload, ruleset=options["ruleset"], limits=bounds)
        if proposal is None:
            refused = next((f for f in findings if f.severity == "error"), None)
            raise CliError(f"{path}: cannot propose a mapping: {refused.message if refused else 'nothing to read'}")
        out = Path(options["suggest_mapping"])
        try:
            out.write_text(json.dumps(proposal, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:
            raise CliError(f"{out}: cannot write it ({exc.strerror})") from None
        terrain = proposal["terrain"].values()
        flagged = sum(1 for entry in terrain if entry.get("flag"))
        unsure = sum(1 for entry in terrain if not entry.get("flag") and entry["confidence"] < 0.9)
        self.stdout.write(f"{out}: {len(proposal['terrain'])} source terrain codes proposed for {proposal['ruleset']} "
                          f"({unsure} to check, {flagged} that nothing fits, left open and flagged); levels: "
                          f"{proposal['levels']['reason']}")
        for code, entry in proposal["terrain"].items():
            if entry.get("flag") or entry["confidence"] < 0.9:
                self.stdout.write(f"  {code!r} -> {entry['terrain'] or 'open, flagged'} "
                                  f"(confidence {entry['confidence']:.1f}: {entry['reason']}; "
                                  f"{entry['count']} hexes: {', '.join(entry['hexes'])})")
