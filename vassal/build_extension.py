"""Builds Hexside's VASSAL LOS extension (vassal/src) into engine/exports/vassal_ext/hexside-los.jar, reproducibly.

``make vassal-extension`` runs it; tests/engine/exports/test_vassal_los.py builds it again and compares bytes. The
sources compile against the stubs of VASSAL's classes in vassal/stubs (VASSAL's own, under its LGPL, cut to the
members used); only the extension's classes go in the jar, sorted, with fixed timestamps, at class version 55
(``javac --release 11``: VASSAL 3.6 and 3.7 run on Java 11 and later). The exporter needs no JDK: it copies the
jar's classes into each module, where VASSAL's DataArchive loads them.
Run: .venv/bin/python vassal/build_extension.py [OUT.jar]
"""

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
JAR = HERE.parent / "engine" / "exports" / "vassal_ext" / "hexside-los.jar"
STAMP = (1980, 1, 1, 0, 0, 0)


def sources():
    return sorted(str(p) for folder in ("src", "stubs") for p in (HERE / folder).rglob("*.java"))


def build(out=JAR):
    """Compile and pack; returns the jar's path."""
    with tempfile.TemporaryDirectory() as classes:
        subprocess.run(["javac", "--release", "11", "-encoding", "UTF-8", "-g:source,lines", "-nowarn",
                        "-d", classes, *sources()], check=True)
        names = sorted(p.relative_to(classes).as_posix() for p in Path(classes).rglob("*.class"))
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(out, "w") as jar:
            for name in names:
                if not name.startswith("hexside/"):
                    continue  # the stubs: VASSAL has the real classes
                info = zipfile.ZipInfo(name, STAMP)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 0
                info.external_attr = 0o644 << 16
                jar.writestr(info, (Path(classes) / name).read_bytes())
    return out


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else JAR))
