"""What AttnViz remembers between sessions, through QSettings (one place, typed, checked).

The settings file may have been edited by hand, written by another version or damaged:
every value is checked when it is read. A bad one is forgotten and reported in one line
(`notices()`), never raised, so AttnViz always starts.
"""
from __future__ import annotations

import math
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

from ...core.text import first_control
from .view import FIELDS

MAX_RECENT = 8
ZOOM_RANGE = (0.7, 2.8)
_notices: list[str] = []


def notices() -> list[str]:
    """One line for each damaged setting that was forgotten since the last call."""
    found = list(_notices)
    _notices.clear()
    return found


def check_files() -> None:
    """Before QSettings first reads: a settings file that is not a regular file (a pipe would
    block the start for ever) is moved aside, or, when it cannot be, settings go to a fresh
    temporary folder for this session. Linux and other XDG systems keep settings in files;
    macOS and Windows keep them elsewhere (a property list, the registry)."""
    if sys.platform in ("win32", "darwin"):
        return
    config = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation))
    files = (config / "AttnViz" / "AttnViz.conf", config / "AttnViz.conf")
    for path in (*files, *(f.with_name(f.name + ".lock") for f in files)):  # QSettings locks with these
        try:
            bad = os.path.lexists(path) and not stat.S_ISREG(os.stat(path).st_mode)
        except OSError:
            bad = True  # a link to nowhere, a loop: not readable either
        if not bad:
            continue
        try:
            os.replace(path, path.with_name(f"{path.name}.damaged-{int(time.time())}"))
            _notices.append(f"the settings file {path} was not a regular file: it was moved aside")
        except OSError:
            ini = QSettings.Format.IniFormat
            QSettings.setDefaultFormat(ini)
            QSettings.setPath(ini, QSettings.Scope.UserScope, tempfile.mkdtemp(prefix="attnviz-settings-"))
            _notices.append(f"the settings file {path} is not a regular file: settings are not kept this time")
            return


def _forget(key: str, value) -> None:
    """A damaged value: remove it (so it is reported once) and say so."""
    text = repr(value)
    _notices.append(f"the setting {key} = {text[:40] + '…' if len(text) > 40 else text} was damaged "
                    "and has been reset")
    QSettings().remove(key)


def _get(key: str, default, check=None):
    """The value of `key` if `check(value)` accepts it (returning the value to use), else `default`."""
    value = QSettings().value(key)
    if value is None:
        return default
    try:
        checked = check(value) if check else value
    except (TypeError, ValueError, OverflowError):
        checked = None
    if checked is None:
        _forget(key, value)
        return default
    return checked


def _set(key: str, value) -> None:
    QSettings().setValue(key, value)


def _text(value) -> str | None:
    """A short string without control characters (a NUL in a path would crash the file functions)."""
    return value if isinstance(value, str) and len(value) <= 4096 and first_control(value) is None else None


def _one_of(choices):
    return lambda value: value if value in choices else None


def _boolean(value) -> bool | None:
    if isinstance(value, bool):
        return value
    return {"true": True, "false": False, "1": True, "0": False}.get(str(value).lower())


def _number_in(low: float, high: float):
    def check(value) -> float | None:
        number = float(value)
        return number if math.isfinite(number) and low <= number <= high else None
    return check


def language(default: str, choices=("en", "ja")) -> str:
    return _get("language", default, _one_of(choices))


def set_language(lang: str) -> None:
    _set("language", lang)


def colormap(default: str, choices=()) -> str:
    return _get("colormap", default, _one_of(choices) if choices else _text)


def set_colormap(name: str) -> None:
    _set("colormap", name)


def colour_scale(choices) -> str:
    return _get("colourScale", "linear", _one_of(choices))


def set_colour_scale(name: str) -> None:
    _set("colourScale", name)


def model_memory() -> str:
    """How a real model's weights are kept (core/lm/memory.py's ways): auto, compact or fast."""
    from ...core.lm.memory import WAYS
    return _get("modelMemory", "auto", _one_of(WAYS))


def set_model_memory(way: str) -> None:
    _set("modelMemory", way)


def theme() -> str:
    return _get("theme", "light", _one_of(("light", "dark")))


def set_theme(name: str) -> None:
    _set("theme", name)


def zoom(presentation: bool = False) -> float:
    key = "presentation/zoom" if presentation else "zoom"
    default = FIELDS["presentation_zoom" if presentation else "desk_zoom"]
    return _get(key, default, _number_in(*ZOOM_RANGE))


def set_zoom(factor: float, presentation: bool = False) -> None:
    _set("presentation/zoom" if presentation else "zoom", factor)


def reopen_last() -> bool:
    return _get("reopenLast", False, _boolean)


def set_reopen_last(on: bool) -> None:
    _set("reopenLast", on)


def last_scenario() -> str | None:
    return _get("lastScenario", None, _text) or None


def set_last_scenario(source: str | None) -> None:
    _set("lastScenario", source or "")


def recent_files() -> list[str]:
    value = _get("recentFiles", [], lambda v: [v] if isinstance(v, str) else v if isinstance(v, list) else None)
    kept = [p for p in value if _text(p)][:MAX_RECENT]
    if len(kept) != len(value):
        _forget("recentFiles", value)
        if kept:
            _set("recentFiles", kept)
    return kept


def remember_recent(path: str) -> None:
    _set("recentFiles", [path] + [p for p in recent_files() if p != path][:MAX_RECENT - 1])


def window_state():
    """(geometry, state) as Qt saved them, or None for either that is not what Qt saves."""
    def saved(value):
        return value if isinstance(value, (QByteArray, bytes)) else None
    return _get("window/geometry", None, saved), _get("window/state", None, saved)


def set_window_state(geometry, state) -> None:
    _set("window/geometry", geometry)
    _set("window/state", state)


def presentation_controls() -> bool:
    """Whether the controls were shown the last time a presentation ended."""
    return _get("presentation/controls", True, _boolean)


def set_presentation_controls(on: bool) -> None:
    _set("presentation/controls", on)
