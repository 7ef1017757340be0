"""Update the Japanese translation: collect tr() strings into the .ts, then compile the .qm.

    python tools/translations.py          # lupdate + lrelease (run after changing UI text)

Translate new entries in resources/translations/attnviz_ja.ts (Qt Linguist,
`pyside6-linguist`, or any editor), then run this again. The .qm is committed so
users need no build step; tests/gui/classroom/test_i18n.py checks both are complete and current.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "resources" / "translations" / "attnviz_ja.ts"
# The window's code, and the core's messages marked with QT_TR_NOOP (numbers, scenario edits),
# their subpackages included.
SOURCES = sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "attnviz" / "gui").rglob("*.py"),
                                                     *(ROOT / "attnviz" / "core").rglob("*.py")])


def tool(name: str) -> str:
    found = shutil.which(f"pyside6-{name}", path=str(Path(sys.executable).parent)) or shutil.which(f"pyside6-{name}")
    if not found:
        sys.exit(f"pyside6-{name} not found (it comes with PySide6)")
    return found


def update(ts: Path = TS, cwd: Path = ROOT) -> None:
    subprocess.run([tool("lupdate"), "-locations", "none", "-no-obsolete", *SOURCES, "-ts", str(ts)],
                   cwd=cwd, check=True, capture_output=True)


def release(ts: Path = TS, qm: Path | None = None) -> Path:
    qm = qm or ts.with_suffix(".qm")
    subprocess.run([tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)
    return qm


if __name__ == "__main__":
    update()
    print(release())
