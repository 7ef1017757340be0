"""A line confirming what the teacher did while presenting (a scene added to the lesson being made, the
screen kept with its drawing), where the status bar is hidden."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from ..look.fonts import presented, weighted


class Notice(QLabel):
    """A line of confirmation at the top of the presented window, in the presentation's type, for a few
    seconds; it takes no click and covers nothing else."""

    SECONDS = 3

    def __init__(self, parent: QWidget):
        super().__init__(parent, objectName="lessonNotice", alignment=Qt.AlignCenter)
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setStyleSheet("background: rgba(20, 20, 20, 220); color: white; border-radius: 12px; padding: 12px 28px;")
        self.timer = QTimer(self, singleShot=True, interval=self.SECONDS * 1000, timeout=self.hide)
        self.hide()

    def say(self, text: str) -> None:
        self.setFont(weighted(presented(QFont(QApplication.font()), self.parentWidget()), bold=True))
        self.setText(text)
        self.adjustSize()
        parent = self.parentWidget().rect()
        self.move(parent.center().x() - self.width() // 2, parent.top() + self.height() // 2)
        self.show()
        self.raise_()
        self.timer.start()
