"""Redrawing lazily: at the next event-loop turn after a change (NextTurn), and the maths views
only while shown (MathView)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from .i18n import Retranslated


class NextTurn:
    """Calls `act` once at the next event-loop turn, however often it is asked for in this one: any
    number of changes in one turn cost one redraw (and reading the document's result, one recompute)."""

    def __init__(self, owner: QObject, act):
        self._owner, self._act = owner, act  # the call is dropped if the owner is gone by then
        self.pending = False

    def __call__(self, *_) -> None:
        if not self.pending:
            self.pending = True
            QTimer.singleShot(0, self._owner, self._run)

    def _run(self) -> None:
        self.pending = False
        self._act()


class MathView(Retranslated, QWidget):
    """Redraws at the next event-loop turn after a change, and only while it is shown."""

    reads_document = True  # False: what it draws does not depend on the scenario, edits pass it by

    def __init__(self, document, parent=None, view=None):
        super().__init__(parent)
        self.document = document
        self.view = view  # the window's view state, for a view that colours weights with the chosen map
        self._stale = True
        self._next_turn = NextTurn(self, self.sync)
        if self.reads_document:
            document.changed.connect(self.schedule)
            document.selectionChanged.connect(self.schedule)
        if view is not None:
            self.destroyed.connect(view.subscribe(("colormap", "scale"), lambda _: self._restyle()))

    def on_screen(self) -> bool:
        """Shown, and not behind another tab: Qt keeps the docks behind a tab "visible", moved out
        of the window, so isVisible() alone would redraw them at every edit for no one."""
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def schedule(self):
        if not self._stale:
            self._stale = True
            if self.on_screen():
                self._next_turn()

    def sync_if_shown(self):
        """Its dock came to the front: catch up with what changed while it was behind."""
        if self.on_screen():
            self.sync()

    def sync(self):
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event):
        super().showEvent(event)
        self.sync()

    def changeEvent(self, event):
        # Texts, the look (light or dark) and the zoom are all in what refresh() draws.
        if event.type() in (QEvent.LanguageChange, QEvent.PaletteChange, QEvent.FontChange):
            self._restyle()
        super().changeEvent(event)

    def _restyle(self) -> None:
        self._stale = True
        self.sync() if self.isVisible() else None

    def retranslate(self):
        pass  # its texts are all in what refresh() draws

    def refresh(self):
        raise NotImplementedError
