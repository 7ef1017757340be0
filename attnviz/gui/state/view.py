"""How the window shows the numbers, beside the document that holds them: the colour map, the
colour scale, the look, the zoom of each mode, the language and whether it is presenting.

Qt-free, like the core. One object per window; views and dialogs are given it and subscribe to
the fields they draw with, so a change reaches every one of them and nothing is pushed by hand.
The classroom (View menu) sets the fields and remembers them.

Each field is declared below with its type, its default and what it means (as glue's viewer states
and napari's evented models declare theirs). A field that is not declared cannot be read, set,
subscribed to or given: the name is refused where it is used, and tests/house/test_view_fields.py
checks every name the code passes as text.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Literal, get_args

Field = Literal["colormap", "scale", "look", "language", "presenting", "desk_zoom", "presentation_zoom"]


def _declared(default: Any, doc: str) -> Any:
    return field(default=default, metadata={"doc": doc})


@dataclass(eq=False)
class ViewState:
    colormap: str = _declared("viridis", "the weights' colour map: a name of look/colormaps.WEIGHT_MAPS")
    scale: str = _declared("linear", "how weights map to colours: a name of look/colormaps.SCALES")
    look: str = _declared("light", "the window's theme: a name of look/theme.THEMES")
    language: str = _declared("en", "the language shown: a name of common/i18n.LANGUAGES")
    presenting: bool = _declared(False, "whether the window is presenting (full screen, for a projector)")
    desk_zoom: float = _declared(1.0, "the type's zoom at the desk (each mode keeps its own)")
    presentation_zoom: float = _declared(1.6, "the type's zoom while presenting")
    _subscribers: dict[str, list[Callable[[Any], None]]] = field(init=False, repr=False)  # who listens to each

    def __post_init__(self) -> None:
        object.__setattr__(self, "_subscribers", {name: [] for name in FIELDS})

    def __setattr__(self, name: str, value: Any) -> None:
        """`view.colormap = "grey"` is `view.set("colormap", "grey")`: the subscribers hear it."""
        if "_subscribers" not in self.__dict__:  # the dataclass's own __init__ filling the fields
            object.__setattr__(self, name, value)
        else:
            self.set(name, value)  # type: ignore[arg-type]  # refused there unless declared

    @property
    def zoom(self) -> float:
        """The zoom of the mode the window is in."""
        return self.presentation_zoom if self.presenting else self.desk_zoom

    def set(self, name: Field, value: Any) -> bool:
        """Change one field and tell its subscribers; False (and nobody told) when it is unchanged."""
        _check(name)
        if getattr(self, name) == value:
            return False
        object.__setattr__(self, name, value)
        for callback in list(self._subscribers[name]):
            callback(value)
        return True

    def subscribe(self, names: Field | tuple[Field, ...], callback: Callable[[Any], None]) -> Callable[[], None]:
        """Call `callback(value)` whenever one of `names` changes; returns what unsubscribes it
        (a dialog that closes before the window calls it)."""
        names = (names,) if isinstance(names, str) else names
        for name in names:
            _check(name)
            self._subscribers[name].append(callback)

        def unsubscribe() -> None:
            for name in names:
                if callback in self._subscribers[name]:
                    self._subscribers[name].remove(callback)
        return unsubscribe

    def subscribers(self, name: Field) -> int:
        """How many are listening to `name` (tests count them: a closed dialog must not)."""
        _check(name)
        return len(self._subscribers[name])


# name -> its default, read by those that reset a field (Ctrl+0) or fall back to it
FIELDS: dict[str, Any] = {f.name: f.default for f in fields(ViewState) if f.init}
DOCS: dict[str, str] = {f.name: f.metadata["doc"] for f in fields(ViewState) if f.init}
if set(FIELDS) != set(get_args(Field)):  # the declared fields and the names the type allows are one list
    raise TypeError(f"ViewState's fields {sorted(FIELDS)} and Field {sorted(get_args(Field))} differ")


def _check(name: str) -> None:
    if name not in FIELDS:
        raise AttributeError(f"no such view field: {name} (the fields: {', '.join(FIELDS)})")
