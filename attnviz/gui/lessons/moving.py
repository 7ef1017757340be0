"""A scene whose query's q moves (a lesson's move_q): the class watches the sliders go and every view follow,
as if the teacher moved them, from the scenario as it opens to the scene's. Each frame is shown, not edited
(no undo step, nothing to save); the last frame is the scene's own scenario."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QTimer

from ...core.scenario import with_row

FRAMES = 25      # frames of the move: enough for the weights to be seen shifting, not jumping
FRAME_MS = 80    # 2 s in all: long enough to follow from the back, short enough not to wait for


class Moving(QObject):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.frames: list = []
        self.timer = QTimer(self, interval=FRAME_MS, timeout=self.tick)

    @property
    def active(self) -> bool:
        return self.timer.isActive()

    def start(self, start, end, head: int, query: int) -> None:
        """From scenario `start` to `end`, which differ in the q of `query` in `head` only."""
        q0, q1 = start.heads[head].q[query], end.heads[head].q[query]
        eased = (1 - np.cos(np.linspace(0, np.pi, FRAMES + 1)[1:])) / 2  # slow to start and to stop
        self.frames = [with_row(start, head, "q", query, q0 + (q1 - q0) * t) for t in eased[:-1]] + [end]
        self.timer.start()

    def tick(self) -> None:
        if not self.frames:
            self.stop()
            return
        self.document.show(self.frames.pop(0))
        if not self.frames:
            self.stop()

    def finish(self) -> None:
        """At the end at once: a picture of the scene (a screenshot) shows it as it comes to rest."""
        if self.frames:
            self.document.show(self.frames[-1])
        self.stop()

    def stop(self) -> None:
        self.timer.stop()
        self.frames = []
