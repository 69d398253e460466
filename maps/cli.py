"""What the command-line tools share: reading a map file and failing with one clear line, never a traceback."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from engine import mapfile, rulesets


class CliError(Exception):
    """A problem with the command's input, said in one line."""


def read_map_file(path):
    """The MapDoc in a file, or CliError naming the file and what is wrong."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        return mapfile.parse(data)
    except mapfile.MapFormatError as exc:
        first = exc.errors[0]
        more = f" (and {len(exc.errors) - 1} more; run validate_map {path})" if len(exc.errors) > 1 else ""
        raise CliError(f"{path}: invalid map: {first}{more}") from None


def read_mapping_file(path):
    """A designer's terrain mapping (docs/importing.md) as a dict, or CliError naming the file and the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: a mapping should be a JSON object (docs/importing.md)")
    return data


def check_level(doc, level, flag):
    """A --level option where a unit of the map's ruleset can stand (Ruleset.standing_levels), else CliError."""
    try:
        rulesets.get(doc.ruleset).check_level(level, mapfile.MAX_STOREYS, what=flag)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def parse_markers(values):
    """--marker HEX:KIND[:COUNT] options into the engine's marker list."""
    markers = []
    for value in values or ():
        parts = value.split(":")
        if len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].isdigit()):
            raise CliError(f"--marker {value!r}: expected HEX:KIND or HEX:KIND:COUNT, e.g. E6:smoke")
        entry = {"hex": parts[0], "kind": parts[1]}
        if len(parts) == 3:
            entry["count"] = int(parts[2])
        markers.append(entry)
    return markers


class MapCommand(BaseCommand):
    """A command whose bad input prints one line on stderr and exits 2."""

    # Engine tools read files, not the database or the site: the system checks have nothing to say to them,
    # and their warnings would break the one-line contract on stderr.
    requires_system_checks = []

    def execute(self, *args, **options):
        try:
            return super().execute(*args, **options)
        except CliError as exc:
            self.stderr.write(f"error: {exc}")
            sys.exit(2)
        except (ValueError, KeyError) as exc:
            message = exc.args[0] if exc.args else exc.__class__.__name__
            self.stderr.write(f"error: {message}")
            sys.exit(2)


def report_findings(command, results, as_json):
    """What validate_map and validate_scenario print: ``results`` gives (file name, findings) pairs, shown as
    lines or JSON; exits 1 when any file has an error."""
    report = []
    for path, findings in results:
        report.append({"file": path, "ok": not any(f.severity == "error" for f in findings),
                       "findings": [{"severity": f.severity, "code": f.code, "where": f.where,
                                     "message": f.message} for f in findings]})
    if as_json:
        command.stdout.write(json.dumps({"files": report}, ensure_ascii=False))
    else:
        for entry in report:
            errors = sum(f["severity"] == "error" for f in entry["findings"])
            warnings = len(entry["findings"]) - errors
            command.stdout.write(f"{entry['file']}: {'ok' if entry['ok'] else 'INVALID'} "
                                 f"({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)})")
            for f in entry["findings"]:
                command.stdout.write(f"  {f['severity']}: {f['where']}: {f['message']} [{f['code']}]")
    if not all(entry["ok"] for entry in report):
        sys.exit(1)
