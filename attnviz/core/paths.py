"""Where AttnViz's resources are (the presets, translations, help pages and colour maps).

The repository keeps them at its top level, in resources/; the wheel and the standalone bundle
carry them inside the package, as attnviz/resources/ (pyproject.toml maps the one onto the
other). Code asks for `resource("presets")` and never needs to know which it runs from.
"""
from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def resource_root() -> Path:
    """attnviz/resources in a wheel or a bundle; resources/ beside attnviz/ in a checkout."""
    for folder in (PACKAGE / "resources", PACKAGE.parent / "resources"):
        if (folder / "presets").is_dir():
            return folder
    raise FileNotFoundError(f"AttnViz's resources are missing (looked in {PACKAGE / 'resources'} and "
                            f"{PACKAGE.parent / 'resources'}): reinstall AttnViz")


def resource(*parts: str) -> Path:
    return resource_root().joinpath(*parts)


def data_folder() -> Path:
    """Where AttnViz keeps what it writes for itself (crash copies, the log, models it assembled):
    $ATTNVIZ_DATA_DIR, else the system's place for an application's data, as Qt's
    AppDataLocation names it for AttnViz (~/.local/share/AttnViz/AttnViz on Linux)."""
    override = os.environ.get("ATTNVIZ_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "AttnViz" / "AttnViz"
