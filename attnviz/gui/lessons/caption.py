"""The strip under a presented scene: where the lesson is (scene 3 / 19), the caption in type the back
row reads, and the question, if the scene asks one, in larger type still."""
from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ..common.asked import RIGHT_COLOUR, WRONG_COLOUR
from ..common.markup import rich
from ..look.fonts import LEAST_SHARE, presented, readable_pixels, weighted
from ..steps.table import POWER

QUESTION_SHARE = 1.25  # the question's type, as a share of the caption's


SCRIPT_SHARE = 2 / 3  # Qt sets a <sub> or <sup> at this share of the type it is given


def lesson_text(text: str, least: int = 0) -> str:
    """A caption as rich text: d_k with its subscript, e^2.83 as a power (as the step table writes eˣ).
    With `least` (px), a subscript or power is given the type that Qt sets at `least` at the smallest."""
    html = POWER.sub(lambda m: f"e<sup>{m.group(1).strip('()')}</sup>", rich(text))
    if least:
        script = math.ceil(least / SCRIPT_SHARE)
        html = html.replace("<sub>", f'<sub style="font-size:{script}px">')
        html = html.replace("<sup>", f'<sup style="font-size:{script}px">')
    return html


class CaptionBar(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("lessonCaption")
        self.setAutoFillBackground(True)
        self.where = QLabel(objectName="lessonWhere", alignment=Qt.AlignLeft | Qt.AlignTop)
        self.caption = QLabel(objectName="lessonCaptionText", textFormat=Qt.RichText, wordWrap=True)
        self.question = QLabel(objectName="lessonQuestion", textFormat=Qt.RichText, wordWrap=True)
        self.verdict = QLabel(objectName="lessonVerdict", textFormat=Qt.PlainText, wordWrap=True)  # the guess
        self.explanation = QLabel(objectName="lessonExplanation", textFormat=Qt.RichText, wordWrap=True)
        self.typed = QLabel(objectName="lessonTyped", alignment=Qt.AlignRight | Qt.AlignTop)  # a scene number
        texts = QVBoxLayout()
        texts.addWidget(self.caption)
        texts.addWidget(self.question)
        texts.addWidget(self.verdict)
        texts.addWidget(self.explanation)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 8)
        layout.addWidget(self.where, 0, Qt.AlignTop)
        layout.addLayout(texts, 1)
        layout.addWidget(self.typed, 0, Qt.AlignTop)
        self.question.hide()
        self.verdict.hide()
        self.explanation.hide()
        self.least = 0  # the least type in pixels, once fit_type knows the screen

    def show_scene(self, number: int, count: int, caption: str, question: str = "") -> None:
        self.where.setText(f"{number} / {count}")
        self.caption.setText(lesson_text(caption, self.least))
        self.question.setText(f"<b>{lesson_text(question, self.least)}</b>")
        self.question.setVisible(bool(question))
        self.typed.clear()

    def show_verdict(self, text: str, right: bool | None = None, explanation: str = "") -> None:
        """The line about the class's guess: green when right, red when wrong, else the caption's colour;
        once revealed, the answer's numbers and why under it."""
        self.verdict.setText(text)
        colour = {True: RIGHT_COLOUR, False: WRONG_COLOUR}.get(right)
        self.verdict.setStyleSheet("" if colour is None else "color: rgb({0}, {1}, {2});".format(*colour))
        self.verdict.setVisible(bool(text))
        self.explanation.setText(lesson_text(explanation, self.least))
        self.explanation.setVisible(bool(explanation))

    def show_typed(self, text: str) -> None:
        self.typed.setText(text)

    def fit_type(self) -> None:
        """Type the back row reads, on the screen the bar is on (its scripts too)."""
        self.least = readable_pixels(self, LEAST_SHARE)
        base = presented(QFont(QApplication.font()), self)
        self.verdict.setFont(weighted(base, bold=True))
        for label in (self.where, self.caption, self.typed, self.explanation):
            label.setFont(base)
        bigger = weighted(base, bold=True)
        bigger.setPixelSize(round(base.pixelSize() * QUESTION_SHARE))
        self.question.setFont(bigger)
        self.where.setFont(weighted(base, bold=True))
