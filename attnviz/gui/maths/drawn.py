"""A maths view drawn on a Canvas (maths/canvas.py) under a line of explanation: the seed's x·W, the
three places of softmax."""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from ..common.lazy import MathView
from ..common.markup import MathLabel
from .canvas import Canvas
from .sizing import Presenting


class DrawnView(Presenting, MathView):
    """`explanation` above `canvas`, which `_lay_out` fills; the subclass sets its own state, then calls
    `retranslate()` (which lays the canvas out)."""

    def __init__(self, document, name: str, parent=None):
        super().__init__(document, parent)
        self.explanation = MathLabel(objectName=f"{name}Explanation")
        self.canvas = Canvas(self._lay_out)
        self.canvas.setObjectName(f"{name}Canvas")
        layout = QVBoxLayout(self)
        layout.addWidget(self.explanation)
        layout.addWidget(self.canvas, 1)

    def presentation_changed(self):
        self.canvas.presenting = self.presenting
        self.canvas.refit()
