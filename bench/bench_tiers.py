"""Issue 31, point 1: how long each of the three test tiers takes, each run whole as a designer runs it.

`make check` (the inner loop: ruff and the tests that need no worker, browser or service), `make test` (ruff and
every test) and, with --ci, `.ci/run` (everything on SQLite and on PostgreSQL). Each command's output goes to a
log under var/bench-tiers/; printed are its time, the aim and the time measured before issue 31 (make test: 20
minutes alone on 2 cores; .ci/run: 28; make check did not exist), and pytest's closing line. The times depend on
the machine and on what else runs on it: say which when quoting them.
Run by hand: .venv/bin/python bench/bench_tiers.py [--ci] [check] [test]
"""

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "var" / "bench-tiers"
# name: (command, aim in minutes, minutes before issue 31 or None)
TIERS = {
    "check": (["make", "check"], 3, None),
    "test": (["make", "test"], 10, 20),
    "ci": ([".ci/run"], 15, 28),
}


def closing_line(log):
    """pytest's last summary line ("=== 2244 passed in ... ==="), or the log's last line when pytest did not end."""
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    summaries = [line for line in lines if " passed" in line or " failed" in line or " error" in line]
    return (summaries or lines or ["(no output)"])[-1].strip()


def run(name):
    command, aim, before = TIERS[name]
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{name}.log"
    start = time.monotonic()
    with open(log, "wb") as out:
        code = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT).returncode
    minutes = (time.monotonic() - start) / 60
    baseline = f"{before} min before" if before else "no tier before"
    verdict = "ok" if code == 0 else f"FAILED (exit {code})"
    print(f"{name:6} {minutes:6.1f} min   aim < {aim} min   {baseline:15}  {verdict}: {closing_line(log)}", flush=True)
    return code


def main(args):
    names = [a for a in args if a in TIERS] or ["check", "test"] + (["ci"] if "--ci" in args else [])
    print(f"tier     time       aim           baseline         result (logs in {LOGS.relative_to(ROOT)}/)")
    codes = [run(name) for name in names]
    return max(codes)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
