"""What AttnViz remembers between sessions, through QSettings (one place, typed)."""
from __future__ import annotations

from PySide6.QtCore import QSettings

MAX_RECENT = 8


def _get(key: str, default, kind=str):
    value = QSettings().value(key, default)
    try:
        if kind is bool:
            return value if isinstance(value, bool) else str(value).lower() in ("true", "1")
        return kind(value)
    except (TypeError, ValueError):
        return default


def _set(key: str, value) -> None:
    QSettings().setValue(key, value)


def language(default: str) -> str:
    return _get("language", default)


def set_language(lang: str) -> None:
    _set("language", lang)


def colormap(default: str) -> str:
    return _get("colormap", default)


def set_colormap(name: str) -> None:
    _set("colormap", name)


def theme() -> str:
    return _get("theme", "light")


def set_theme(name: str) -> None:
    _set("theme", name)


def zoom(presentation: bool = False) -> float:
    return _get("presentation/zoom" if presentation else "zoom", 1.6 if presentation else 1.0, float)


def set_zoom(factor: float, presentation: bool = False) -> None:
    _set("presentation/zoom" if presentation else "zoom", factor)


def reopen_last() -> bool:
    return _get("reopenLast", False, bool)


def set_reopen_last(on: bool) -> None:
    _set("reopenLast", on)


def last_scenario() -> str | None:
    return _get("lastScenario", None) or None


def set_last_scenario(source: str | None) -> None:
    _set("lastScenario", source or "")


def recent_files() -> list[str]:
    value = QSettings().value("recentFiles", []) or []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def remember_recent(path: str) -> None:
    _set("recentFiles", [path] + [p for p in recent_files() if p != path][:MAX_RECENT - 1])


def window_state():
    s = QSettings()
    return s.value("window/geometry"), s.value("window/state")


def set_window_state(geometry, state) -> None:
    _set("window/geometry", geometry)
    _set("window/state", state)
