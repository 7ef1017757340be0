"""`?` while presenting: every key of the presentation over the window, in the interface's language
(the views and their keys from views.py's VIEWS, then the keys that work in every view)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QApplication, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ..common.i18n import tr
from ..look.fonts import presented, weighted
from .views import VIEWS

TYPE_SHARE = 1.3  # of the presentation's least type


def other_keys(lesson: bool = False) -> list[tuple[str, str]]:
    """The keys that work in every presented view, as the overlay lists them (and, while a lesson is
    given, the key that reveals a question's answer)."""
    answer = [("A", tr("a lesson's question: show the answer (→ too)"))] if lesson else []
    return answer + [
        (tr("Tab / Shift+Tab"), tr("the next / previous view")),
        ("V", tr("the heads: one big ↔ all side by side")),
        ("H", tr("the controls panel")),
        (tr("→ / Space / PgDn"), tr("the next guided step")),
        (tr("← / PgUp"), tr("the previous guided step")),
        ("↑ / ↓", tr("the previous / next query")),
        (tr("slider: ← / →"), tr("move it once clicked (Esc: let go)")),
        (tr("Ctrl++ / Ctrl+−"), tr("larger / smaller text")),
        ("?", tr("this list of keys")),
        (tr("Esc"), tr("close this list; the next Esc leaves")),
        ("F5", tr("leave the presentation")),
    ]


class KeysOverlay(QWidget):
    """Covers the window until Esc (or ?) closes it; nothing under it changes."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("keysOverlay")
        self.hide()
        self.lesson = False
        self.title = QLabel(objectName="keysTitle", alignment=Qt.AlignCenter)
        self.columns = QHBoxLayout()
        self.columns.setSpacing(80)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 40, 60, 40)
        layout.addWidget(self.title)
        layout.addSpacing(20)
        layout.addLayout(self.columns)
        layout.addStretch(1)
        parent.installEventFilter(self)

    def open(self, lesson: bool = False) -> None:
        """Shown over the whole window, in the current language at presentation size; `lesson`: a
        lesson is given, its answer key listed."""
        self.lesson = lesson
        font = presented(QApplication.font(), self)
        font.setPixelSize(round(font.pixelSize() * TYPE_SHARE))  # one look from the back row: larger still
        self.setFont(font)
        self._fill()
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()

    def _fill(self) -> None:
        while self.columns.count():
            grid = self.columns.takeAt(0).layout()
            while grid.count():
                grid.takeAt(0).widget().deleteLater()
            grid.deleteLater()
        self.title.setText(tr("Keys while presenting (? or Esc closes this list)"))
        self.title.setFont(weighted(self.font(), bold=True))
        views = [(v.key, tr(v.label)) for v in VIEWS]
        for heading, rows in ((tr("Views"), views), (tr("In every view"), other_keys(self.lesson))):
            grid = QGridLayout()
            grid.setHorizontalSpacing(30)
            grid.setVerticalSpacing(8)
            grid.addWidget(self._label(heading, bold=True), 0, 0, 1, 2)
            for i, (key, text) in enumerate(rows, start=1):
                grid.addWidget(self._label(key, bold=True), i, 0, Qt.AlignRight | Qt.AlignTop)
                grid.addWidget(self._label(text), i, 1, Qt.AlignLeft | Qt.AlignTop)
            grid.setColumnStretch(1, 1)
            grid.setRowStretch(len(rows) + 1, 1)
            self.columns.addLayout(grid, 1)

    def _label(self, text: str, bold: bool = False) -> QLabel:
        label = QLabel(text, self)
        label.setTextFormat(Qt.PlainText)
        if bold:
            label.setFont(weighted(self.font(), bold=True))
        return label

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
