"""`?` while presenting: every key of the presentation over the window, in the interface's language.

Presenting (F5): the views and their keys (views.py's VIEWS), the keys that work in every view, and the
teacher's tools (tools.py). While a lesson is given the digits are a scene's number, not views: the
lesson's own keys come first (from the player), then what still works in every scene, then the tools.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QApplication, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ..common.i18n import tr
from ..look.fonts import LEAST_SHARE, presented, weighted
from .tools import tool_keys
from .views import VIEWS

TYPE_SHARE = 1.3  # of the presentation's least type, when the list fits on the screen at that size


def scene_keys() -> list[tuple[str, str]]:
    """What works in any view, the views' own keys aside (a lesson's scene, or a presented view)."""
    return [
        ("V", tr("the heads: one big ↔ all side by side")),
        ("H", tr("the controls panel")),
        ("↑ / ↓", tr("the previous / next query")),
        (tr("slider: ← / →"), tr("move it once clicked (Esc: let go)")),
        (tr("Ctrl++ / Ctrl+−"), tr("larger / smaller text")),
        ("Ctrl+Shift+A", tr("this, as a scene of the lesson being made")),
        ("?", tr("this list of keys")),
    ]


def presentation_sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """Presenting without a lesson: (heading, [(key, what it does)]) per column block."""
    views = [(v.key, tr(v.label)) for v in VIEWS]
    every = [
        (tr("Tab / Shift+Tab"), tr("the next / previous view")),
        (tr("→ / Space / PgDn"), tr("the next guided step")),
        (tr("← / PgUp"), tr("the previous guided step")),
        *scene_keys(),
        (tr("Esc"), tr("close this list; the next Esc leaves")),
        ("F5", tr("leave the presentation")),
    ]
    return [(tr("Views"), views), (tr("In every view"), every), (tr("Your tools"), tool_keys())]


def lesson_sections(lesson_keys: list[tuple[str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """While a lesson is given: its own keys (the player's), what works in every scene (the views on a letter,
    C and the like; a digit is a scene's number), the tools."""
    lettered = [(v.key, tr(v.label)) for v in VIEWS if not v.key.isdigit()]
    every = [(tr("Tab / Shift+Tab"), tr("another view of the scene")), *lettered, *scene_keys()]
    return [(tr("The lesson"), lesson_keys), (tr("In every scene"), every), (tr("Your tools"), tool_keys(True))]


class KeysOverlay(QWidget):
    """Covers the window until Esc (or ?) closes it; nothing under it changes."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("keysOverlay")
        self.hide()
        self.title = QLabel(objectName="keysTitle", alignment=Qt.AlignCenter)
        self.columns = QHBoxLayout()
        self.columns.setSpacing(80)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 40, 60, 40)
        layout.addWidget(self.title)
        layout.addSpacing(20)
        layout.addLayout(self.columns)
        layout.addStretch(1)
        self.sections = presentation_sections  # read again when the language changes
        self.labels: list[tuple[QLabel, bool]] = []  # every label and whether it is bold
        parent.installEventFilter(self)

    def open(self, sections=presentation_sections) -> None:
        """Shown over the whole window, in the current language, as large as fits; `sections()` gives
        (heading, [(key, what it does)]) blocks (a lesson's: lesson_sections)."""
        self.sections = sections
        self.setGeometry(self.parentWidget().rect())
        self._fill()
        self.raise_()
        self.show()

    def _fill(self) -> None:
        while self.columns.count():
            column = self.columns.takeAt(0).layout()
            while column.count():
                grid = column.takeAt(0).layout()
                while grid is not None and grid.count():
                    label = grid.takeAt(0).widget()
                    label.hide()
                    label.deleteLater()
            column.deleteLater()
        self.labels = [(self.title, True)]
        self.title.setText(tr("Keys while presenting (? or Esc closes this list)"))
        sections = self.sections()
        for part in _halves([len(rows) + 1 for _, rows in sections]):
            column = QVBoxLayout()
            column.setSpacing(24)
            for heading, rows in (sections[i] for i in part):
                column.addLayout(self._grid(heading, rows))
            column.addStretch(1)
            self.columns.addLayout(column, 1)
        self._fit()

    def _grid(self, heading: str, rows) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(30)
        grid.setVerticalSpacing(4)
        grid.addWidget(self._label(heading, bold=True), 0, 0, 1, 2)
        for i, (key, text) in enumerate(rows, start=1):
            grid.addWidget(self._label(key, bold=True), i, 0, Qt.AlignRight | Qt.AlignTop)
            grid.addWidget(self._label(text), i, 1, Qt.AlignLeft | Qt.AlignTop)
        grid.setColumnStretch(1, 1)
        return grid

    def _label(self, text: str, bold: bool = False) -> QLabel:
        label = QLabel(text, self)
        label.setTextFormat(Qt.PlainText)
        self.labels.append((label, bold))
        return label

    def _fit(self) -> None:
        """TYPE_SHARE × the presentation's least type (one look from the back row: larger still), smaller
        only as far as the whole list needs to be on the screen, never below the least (20 px at 1080)."""
        room = self.parentWidget().size()
        least = max(1, round(LEAST_SHARE * (self.screen() or QApplication.primaryScreen()).geometry().height()))
        pixels = round(presented(QApplication.font(), self).pixelSize() * TYPE_SHARE)
        while True:
            font = QFont(QApplication.font())
            font.setPixelSize(pixels)
            self.setFont(font)
            for label, bold in self.labels:
                label.setFont(weighted(font, bold=bold))
            _invalidate(self.layout())  # each layout keeps its last size hint, the grids inside too
            needed = self.layout().sizeHint()
            if pixels <= least or (needed.height() <= room.height() and needed.width() <= room.width()):
                return
            pixels -= 1

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange and self.isVisible():
            self._fill()  # the language switched with the list open: its texts follow
        super().changeEvent(event)

    def eventFilter(self, watched, event):
        if watched is self.parentWidget() and event.type() == QEvent.Resize and self.isVisible():
            self.setGeometry(self.parentWidget().rect())
        return False

    def paintEvent(self, event):
        p = QPainter(self)
        background = QColor(self.palette().window().color())
        background.setAlpha(248)  # the view underneath a shade away: this is about keys, not it
        p.fillRect(self.rect(), background)


def _halves(sizes: list[int]) -> list[list[int]]:
    """The sections (their row counts, in order) in two columns as even as their order allows."""
    if len(sizes) < 2:
        return [list(range(len(sizes)))]
    split = min(range(1, len(sizes)), key=lambda k: max(sum(sizes[:k]), sum(sizes[k:])))
    return [list(range(split)), list(range(split, len(sizes)))]


def _invalidate(layout) -> None:
    layout.invalidate()
    for i in range(layout.count()):
        inner = layout.itemAt(i).layout()
        if inner is not None:
            _invalidate(inner)
