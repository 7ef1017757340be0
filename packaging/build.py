"""Build the standalone AttnViz (`make bundle`): dist/AttnViz/ and an archive of it to copy.

    python packaging/build.py                          # without the real model (under 250 MB)
    ATTNVIZ_BUNDLE_MODEL=1 python packaging/build.py   # with it, when it is installed (98 MB more)

Runs PyInstaller on packaging/attnviz.spec, checks that the result starts (`AttnViz --version`),
prints its size, and writes dist/AttnViz-<version>-<system>-<machine>.tar.gz (.zip on Windows).
Works the same on Linux, Windows and macOS.
"""
from __future__ import annotations

import platform
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DIST = ROOT / "dist"
FOLDER = DIST / "AttnViz"
LIMIT_MB = 250  # without the real model: a copy to a USB stick; the model's file is allowed on top


def folder_mb(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file() and not f.is_symlink()) / 2**20


def limit_mb(folder: Path) -> float:
    """The size the folder may have: LIMIT_MB, plus the real model's file when it was put in."""
    from attnviz.core.lm import BUNDLED
    model = next(folder.rglob(BUNDLED), None)
    return LIMIT_MB + (model.stat().st_size / 2**20 if model else 0)


def executable(folder: Path = FOLDER) -> Path:
    """The command-line program: AttnViz itself, or on Windows its console twin AttnVizCLI.exe."""
    return folder / ("AttnVizCLI.exe" if sys.platform == "win32" else "AttnViz")


def build() -> Path:
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--distpath", str(DIST), "--workpath", str(ROOT / "build" / "pyinstaller"),
                    str(ROOT / "packaging" / "attnviz.spec")], check=True, cwd=ROOT)
    return FOLDER


def archive(folder: Path) -> Path:
    from attnviz import __version__
    name = f"AttnViz-{__version__}-{platform.system().lower()}-{platform.machine().lower()}"
    kind = "zip" if sys.platform == "win32" else "gztar"
    return Path(shutil.make_archive(str(DIST / name), kind, root_dir=DIST, base_dir=folder.name))


def main() -> int:
    folder = build()
    started = subprocess.run([str(executable(folder)), "--version"], capture_output=True, text=True, check=False)
    if started.returncode != 0:
        print(started.stdout, started.stderr, sep="\n", file=sys.stderr)
        return 1
    size, limit = folder_mb(folder), limit_mb(folder)
    packed = archive(folder)
    print(f"{folder}: {size:.0f} MB unpacked (target ≤ {limit:.0f} MB), {started.stdout.strip()}")
    print(f"{packed}: {packed.stat().st_size / 2**20:.0f} MB to copy")
    return 0 if size <= limit else 2


if __name__ == "__main__":
    sys.exit(main())
