"""File → Compare with… and the Help menu's pairs: what is shown (A) beside a preset, a file or
another layer of the same model (B), in a dialog of its own."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QInputDialog

from ...core import lm
from ...core.io import load_scenario
from ...core.presets import load_preset
from ...core.scenario import with_projection_options
from ..common.i18n import current_language, tr
from ..state.files import FILE_FILTER, fill_with_presets, resolve
from .dialog import CompareDialog, retitled

if TYPE_CHECKING:
    from ...core.scenario import Scenario

ORDER_PAIR = ("position-nekoga", "position-suwatta")  # seed 003: the same words in two orders
HASHI_PAIR = ("hashi-chopsticks", "hashi-bridge")     # one はし, two meanings
PAIRS = (ORDER_PAIR, HASHI_PAIR)  # the Help menu's pairs and the presented compare's (C), in this order


def partner(source: str | None) -> str | None:
    """The preset a scenario opened from a pair's preset is compared with (its version in either
    language has the same id), or None."""
    name = source[len("preset:"):] if source and source.startswith("preset:") else None
    for pair in PAIRS:
        if name in pair:
            return pair[1 - pair.index(name)]
    return None


def presented_pairs(source: str | None) -> list[tuple[str | None, str]]:
    """What C presents, press after press: (None: the window's scenario, its partner) first when it
    has one, then the built-in pairs it is not part of."""
    other = partner(source)
    own = [(None, other)] if other else []
    return own + [pair for pair in PAIRS if other not in pair]


@dataclasses.dataclass(frozen=True)
class Compared:
    """What a comparison made for the stage shows, as a lesson's scene names it (lessons/editor.py): A and B
    as they opened, before the comparison retitled them, and where each came from ("preset:ID", the window's
    source, or None: a lesson's B)."""

    a: Scenario
    a_source: str | None
    b: Scenario
    b_source: str | None
    own: bool               # A is the window's scenario: the window's head and query are A's

    def positioned(self, a_positions: str | None, b_positions: str | None) -> Compared:
        """A and B with the positions the comparison shows them with now (its control changes both)."""
        return dataclasses.replace(self, a=_positioned(self.a, a_positions), b=_positioned(self.b, b_positions))


class CompareController:
    def __init__(self, document, shell, view, runner, files):
        self.document, self.shell, self.view, self.runner = document, shell, view, runner
        self.files = files  # opens A of a pair; knows whether other layers exist
        self.dialog = None

    def fill_menu(self, menu):
        fill_with_presets(menu, lambda p: self.compare_with(resolve(p)[0]))
        menu.addSeparator()
        menu.addAction(tr("A file…")).triggered.connect(self.compare_with_file)
        if self.files.other_layers():
            menu.addAction(tr("Another layer of this model…")).triggered.connect(self.ask_layer)

    def compare_with_file(self):
        path, _ = QFileDialog.getOpenFileName(self.shell.dialog_parent(), tr("Compare with"), "", FILE_FILTER)
        if path:
            self.compare_with(lambda: load_scenario(path))  # read off the GUI thread

    def ask_layer(self):
        s = self.document.scenario
        layer, ok = QInputDialog.getInt(self.shell.dialog_parent(), tr("Compare with another layer"),
                                        tr("Layer (0 to {0}) to set beside layer {1}:").format(s.layer[1] - 1,
                                                                                               s.layer[0]),
                                        (s.layer[0] + 1) % s.layer[1], 0, s.layer[1] - 1)
        if ok:
            self.compare_layer(layer)

    def compare_layer(self, layer: int) -> None:
        """The layer shown now (A) beside another layer of the same model (B), B − A per head."""
        s, path = self.document.scenario, self.document.path
        if s.live is not None:
            self.runner.when_ready(lambda result: self.compare_with(lambda: lm.another_layer(s, result, layer)))
        else:
            self.compare_with(lambda: load_scenario(path, layer))  # read off the GUI thread

    def compare_presets(self, a: str, b: str) -> None:
        """Open preset `a` in the window and show it beside `b` (the Help menu's pairs)."""
        if self.files.open_scenario(a):
            self.compare_with(resolve(b)[0])  # in the window's language, as A

    def present_pair(self, turn: int):
        """The presented compare (C, `turn` presses in): a CompareDialog to lend to the stage, not a
        window of its own, so the presentation's keys keep working; its hint says what C shows next."""
        pairs = presented_pairs(self.document.source)
        a_id, b_id = pairs[turn % len(pairs)]
        lang = current_language()
        a = self.document.scenario if a_id is None else load_preset(a_id, lang)
        b = load_preset(b_id, lang)
        dialog = self._dialog(a, _with_positions_of(a, b))
        dialog.set_hint(self._next_hint(pairs[(turn + 1) % len(pairs)], len(pairs)))
        a_source = self.document.source if a_id is None else f"preset:{a_id}"
        dialog.compared = Compared(a, a_source, b, f"preset:{b_id}", own=a_id is None)
        return dialog

    def present_with(self, b):
        """A lesson's comparison: the window's scenario beside `b`, for the stage."""
        a = self.document.scenario
        compared = Compared(a, self.document.source, b, None, own=True)
        a, b = (retitled(a), retitled(b)) if a.projection is not None and b.projection is not None else (a, b)
        dialog = self._dialog(a, b)
        dialog.set_hint("")  # the lesson's caption says what is compared; its keys are the lesson's
        dialog.compared = compared
        return dialog

    @staticmethod
    def shown(dialog) -> Compared | None:
        """What a comparison made for the stage (present_pair, present_with) shows now; None while it is
        being built (its positions control may be changing A and B)."""
        compared = dialog.compared
        if compared is None or dialog.figure is None or dialog.working:
            return None
        figure = dialog.figure
        return compared.positioned(*(s.projection.positions if s.projection is not None else None
                                     for s in (figure.a, figure.b)))

    @staticmethod
    def _next_hint(pair, count: int) -> str:
        """What the next C shows, named by its pair's point (the pair holding B)."""
        if count < 2:
            return tr("Esc: back")
        named = tr("the word orders") if pair[1] in ORDER_PAIR else tr("“bank” and its neighbours")
        return tr("C: the next pair ({0}) · Esc: back").format(named)

    def _dialog(self, a, b):
        dialog = CompareDialog(a, b, self.view, self.shell.dialog_parent())
        dialog.failed.connect(lambda message: self.shell.warn(tr("Cannot open"), message))
        return dialog

    def compare_with(self, other):
        """The scenario shown now (A) beside `other` (B, or a function that makes it, called off the
        GUI thread), with B − A for each head; built off the GUI thread, with progress and Cancel.
        If B cannot be made, say why and show nothing."""
        dialog = self._dialog(self.document.scenario, other)
        dialog.finished.connect(lambda *_: self._forget(dialog))  # closed, cancelled or failed
        self.dialog = dialog
        dialog.show()
        if self.view.presenting:  # in front of the class: the comparison full screen, presented too
            dialog.set_presentation(True)
        return dialog

    def _forget(self, dialog) -> None:
        if self.dialog is dialog:
            self.dialog = None


def _positioned(s, positions: str | None):
    if s.projection is None or positions is None or s.projection.positions == positions:
        return s
    return with_projection_options(s, positions=positions)


def _with_positions_of(a, b):
    """B with A's positions when both are a layer: the teacher may have turned RoPE on in the window."""
    if a.projection is None or b.projection is None or a.projection.positions == b.projection.positions:
        return b
    return retitled(with_projection_options(b, positions=a.projection.positions))
