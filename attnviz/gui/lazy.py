"""Views that redraw lazily: at the next event-loop turn after a change, and only while shown."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtWidgets import QWidget


class MathView(QWidget):
    """Redraws at the next event-loop turn after a change, and only while it is shown."""

    reads_document = True  # False: what it draws does not depend on the scenario, edits pass it by

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self._stale = True
        if self.reads_document:
            document.changed.connect(self.schedule)
            document.selectionChanged.connect(self.schedule)

    def schedule(self):
        if not self._stale:
            self._stale = True
            if self.isVisible():
                QTimer.singleShot(0, self.sync)

    def sync(self):
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event):
        super().showEvent(event)
        self.sync()

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:
            self.retranslate()
        # Texts, the look (light or dark) and the zoom are all in what refresh() draws.
        if event.type() in (QEvent.LanguageChange, QEvent.PaletteChange, QEvent.FontChange):
            self._stale = True
            self.sync() if self.isVisible() else None
        super().changeEvent(event)

    def retranslate(self):
        pass

    def refresh(self):
        raise NotImplementedError
