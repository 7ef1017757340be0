"""What covers a presented lesson for a moment: the list of its scenes to pick one from (S), the blank
screen (B) that takes the class's eyes off the projector, and the model reading a real
model's scene (never the scene shown before it, under a caption that is already the new scene's)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QApplication, QLabel, QListWidget, QProgressBar, QVBoxLayout, QWidget

from ..common.i18n import SUBSCRIPT_LETTERS, tr
from ..common.markup import SUBSCRIPTED
from ..look.fonts import presented, weighted
from ..steps.table import POWER

ON_TOP_MS = 100  # the reading cover raised again this often while it is shown
LINE = 70  # characters of a scene's caption the list shows: its first words
# The list's own keys: presenting, the window's shortcuts hold ↑ ↓ (the query), Page Up / Down and
# Home / End (the scenes); while the list is open they move in it instead.
LIST_KEYS = {Qt.Key_Up, Qt.Key_Down, Qt.Key_PageUp, Qt.Key_PageDown, Qt.Key_Home, Qt.Key_End, Qt.Key_Return,
             Qt.Key_Enter}


def plain(caption: str) -> str:
    """A caption in a plain-text list: dₖ for d_k, and exp(2.83) for e^2.83 (Unicode has no superscript
    point for e to the 2.83; the caption itself sets it as a power)."""
    caption = SUBSCRIPTED.sub(lambda m: m[1] + SUBSCRIPT_LETTERS.get(m[2], m[2]), caption)
    return POWER.sub(lambda m: f"exp({m.group(1).strip('()')})", caption)


class Blank(QWidget):
    """The whole window black; B (or Esc) brings the lesson back as it was."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("lessonBlank")
        self.hide()

    def toggle(self) -> None:
        if self.isVisible():
            self.hide()
        else:
            self.setGeometry(self.parentWidget().rect())
            self.show()
            self.raise_()

    def paintEvent(self, event):
        QPainter(self).fillRect(self.rect(), QColor(0, 0, 0))


class Reading(QWidget):
    """Everything above the caption covered while the real model reads a scene's text: what it is doing,
    in the presentation's type, and a progress bar (the model's loading, then a pass it does not count)."""

    def __init__(self, parent: QWidget, caption: QWidget):
        super().__init__(parent)
        self.setObjectName("lessonReading")
        self.setAutoFillBackground(True)
        self.caption = caption  # the caption's strip: what stays in view below
        self.label = QLabel(objectName="lessonReadingText", alignment=Qt.AlignCenter, wordWrap=True)
        self.bar = QProgressBar(objectName="lessonReadingBar", textVisible=False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(200, 0, 200, 0)
        layout.addStretch(1)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addStretch(1)
        parent.installEventFilter(self)
        # The window brings a dock forward on a later turn (the layer's, the steps'): the cover stays on top
        self.on_top = QTimer(self, interval=ON_TOP_MS, timeout=self.raise_)
        self.hide()

    def start(self, text: str) -> None:
        base = presented(QFont(QApplication.font()), self.parentWidget())
        self.label.setFont(weighted(base, bold=True))
        self.bar.setFixedHeight(base.pixelSize())
        self.label.setText(text)
        self.bar.setRange(0, 0)  # busy until the loading says how far it is
        self._place()
        self.show()
        self.raise_()
        self.on_top.start()

    def progress(self, what: str, done: int, total: int) -> None:
        """The model runner's progress: the loading's is counted; the rest is busy."""
        if self.isVisible():
            self.bar.setRange(0, total if what == "load" and total > 0 else 0)
            self.bar.setValue(done)

    def fail(self, text: str) -> None:
        self.label.setText(text)
        self.bar.hide()

    def stop(self) -> None:
        self.on_top.stop()
        self.hide()
        self.bar.show()

    def _place(self) -> None:
        top = self.caption.mapTo(self.parentWidget(), self.caption.rect().topLeft()).y() \
            if self.caption.isVisible() else self.parentWidget().height()
        self.setGeometry(0, 0, self.parentWidget().width(), max(0, top))

    def eventFilter(self, watched, event):
        if watched is self.parentWidget() and event.type() in (QEvent.Resize, QEvent.LayoutRequest) \
                and self.isVisible():
            self._place()
        return False


class SceneList(QWidget):
    """Every scene by its number and its caption's first words; Enter or a click goes there."""

    chosen = Signal(int)  # the scene's index, 0-based

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("lessonScenes")
        self.setAutoFillBackground(True)
        self.title = QLabel(objectName="lessonScenesTitle", alignment=Qt.AlignCenter)
        self.list = QListWidget(objectName="lessonScenesList")
        self.list.itemActivated.connect(lambda item: self._choose(self.list.row(item)))
        self.list.itemClicked.connect(lambda item: self._choose(self.list.row(item)))
        self.list.installEventFilter(self)
        self.hint = QLabel(objectName="lessonScenesHint", alignment=Qt.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 30, 60, 30)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.ShortcutOverride and event.key() in LIST_KEYS:
            event.accept()  # the key goes to the list as a key press, not to the window's shortcut
            return True
        if event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter):
            self.choose_current()  # Enter picks on every platform (Qt's item activation varies)
            return True
        return super().eventFilter(watched, event)

    def open(self, title: str, captions: list[str], current: int) -> None:
        base = presented(QFont(QApplication.font()), self)
        self.list.setFont(base)
        self.title.setFont(weighted(base, bold=True))
        self.title.setText(title)
        self.hint.setFont(base)
        self.hint.setText(tr("↑ ↓ choose · Enter go there · Esc close"))
        self.list.clear()
        for number, caption in enumerate(map(plain, captions), start=1):
            self.list.addItem(f"{number}.  {caption[:LINE] + '…' if len(caption) > LINE else caption}")
        self.list.setCurrentRow(current)
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()
        self.list.setFocus()

    def choose_current(self) -> None:
        self._choose(self.list.currentRow())

    def _choose(self, index: int) -> None:
        self.hide()
        self.parentWidget().setFocus()  # the lesson's keys are the window's again
        self.chosen.emit(index)
