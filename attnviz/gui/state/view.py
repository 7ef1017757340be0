"""How the window shows the numbers, beside the document that holds them: the colour map, the
colour scale, the look, the zoom of each mode, the language and whether it is presenting.

Qt-free, like the core. One object per window; views and dialogs are given it and subscribe to
the fields they draw with, so a change reaches every one of them and nothing is pushed by hand.
The classroom (View menu) sets the fields and remembers them.
"""
from __future__ import annotations

from typing import Any, Callable

FIELDS = {
    "colormap": "viridis",      # a name of look/colormaps.WEIGHT_MAPS
    "scale": "linear",          # a name of look/colormaps.SCALES
    "look": "light",            # a name of look/theme.THEMES
    "language": "en",           # a name of common/i18n.LANGUAGES
    "presenting": False,
    "desk_zoom": 1.0,           # each mode keeps its own zoom
    "presentation_zoom": 1.6,
}


class ViewState:
    def __init__(self, **values: Any):
        unknown = set(values) - set(FIELDS)
        if unknown:
            raise TypeError(f"no such view field: {', '.join(sorted(unknown))}")
        self._values = {**FIELDS, **values}
        self._subscribers: dict[str, list[Callable[[Any], None]]] = {name: [] for name in FIELDS}

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def zoom(self) -> float:
        """The zoom of the mode the window is in."""
        return self.presentation_zoom if self.presenting else self.desk_zoom

    def set(self, name: str, value: Any) -> bool:
        """Change one field and tell its subscribers; False (and nobody told) when it is unchanged."""
        if name not in FIELDS:
            raise AttributeError(name)
        if self._values[name] == value:
            return False
        self._values[name] = value
        for callback in list(self._subscribers[name]):
            callback(value)
        return True

    def subscribe(self, names: str | tuple[str, ...], callback: Callable[[Any], None]) -> Callable[[], None]:
        """Call `callback(value)` whenever one of `names` changes; returns what unsubscribes it
        (a dialog that closes before the window calls it)."""
        names = (names,) if isinstance(names, str) else names
        for name in names:
            self._subscribers[name].append(callback)

        def unsubscribe() -> None:
            for name in names:
                if callback in self._subscribers[name]:
                    self._subscribers[name].remove(callback)
        return unsubscribe

    def subscribers(self, name: str) -> int:
        """How many are listening to `name` (tests count them: a closed dialog must not)."""
        return len(self._subscribers[name])
