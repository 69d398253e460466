"""Issue 17, point 13: how many answers the API gives that its schema (/api/schema/) does not describe.

Counted from the schema itself, operation by operation: an error the operation can answer but does not list
(403 everywhere, since a wrong token is refused; 404 where the path names something; 400, 413 and 415 where
there is a body; 429 where the view is rate-limited, for the operations known to be), an error listed without
its body, a job's requester that can be null but is not said to be, and a download whose media types are not
listed. Each is a failure schemathesis' conformance checks can find (tests/test_schemathesis.py runs them).
The baseline ("before") is this script run on commit 2fce266; the aim is 0.
Run: .venv/bin/python bench/bench_schema.py
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = 143  # measured on 2fce266
THROTTLED = {("post", "/api/maps/"), ("post", "/api/maps/import/"), ("post", "/api/scenarios/"),
             ("post", "/api/scenarios/import/"), ("post", "/api/token/")}
DOWNLOADS = {"/api/jobs/{id}/file/": {"application/pdf", "image/png", "application/octet-stream"},
             "/api/maps/{id}/background/": {"image/png", "image/jpeg"}}


def schema():
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "schema.json"
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "hexside.test_settings"}
        subprocess.run([sys.executable, "manage.py", "spectacular", "--format", "openapi-json", "--file", str(out)],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        return json.loads(out.read_text())


def gaps(document):
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            wanted = {"403"} | ({"404"} if "{" in path else set())
            if method in ("post", "put", "patch"):
                wanted |= {"400", "413", "415"}
            if (method, path) in THROTTLED:
                wanted.add("429")
            found += [f"{method} {path}: {code} not listed" for code in sorted(wanted - set(responses))]
            found += [f"{method} {path}: {code} without its body" for code, r in responses.items()
                      if code.startswith("4") and not r.get("content")]
            if method == "get" and path in DOWNLOADS:
                listed = set(responses.get("200", {}).get("content", {}))
                found += [f"get {path}: {media} not listed" for media in sorted(DOWNLOADS[path] - listed)]
    for name in ("Job", "JobSummary"):
        if not document["components"]["schemas"][name]["properties"]["requested_by"].get("nullable"):
            found.append(f"{name}.requested_by: null but not nullable")
    return found


def main():
    found = gaps(schema())
    for line in found[:10]:
        print("  ", line)
    print(f"answers the schema does not describe: before {BEFORE}, after {len(found)} "
          f"(ratio {len(found) / BEFORE:.3f})")


if __name__ == "__main__":
    main()
