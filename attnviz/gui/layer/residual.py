"""ResidualPlane: O = X + Y′ for one token as arrows in the plane of two dimensions (seed 002's
geometric meaning: Y′ is a change added to X; the token moves, it does not start again)."""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from .diagram import arrow_head

X_COLOUR = QColor("#3a6fd8")
Y_COLOUR = QColor("#e07b00")
O_COLOUR = QColor("#2e8b57")


class ResidualPlane(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("residualPlane")
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.vectors = None  # (x, y′, o), each of two numbers
        self.names = ("X", "Y′", "O = X + Y′")
        self.axes = ("dim 0", "dim 1")  # the axes' titles: which dimension each is (not a value)
        self.pixels = 0.0  # the labels' pixel size; 0: the widget's own font

    def sizeHint(self):  # noqa: N802 (Qt's name)
        return QSize(260, 220)

    def minimumSizeHint(self):  # noqa: N802
        return QSize(160, 140)  # the three arrows and their names stay readable

    def set_vectors(self, x, y, o, names, axes) -> None:
        self.vectors = tuple(np.asarray(v, dtype=float) for v in (x, y, o))
        self.names, self.axes = names, axes
        self.update()

    def label_font(self) -> QFont:
        font = QFont(self.font())
        if self.pixels:
            font.setPixelSize(round(self.pixels))
        return font

    def _frame(self) -> tuple[QRectF, float, QPointF]:
        """(the plot's rectangle, pixels per unit, where the origin is), every tip inside."""
        fm = QFontMetricsF(self.label_font())
        margin = fm.height() * 1.3
        right = max(margin * 2.5, fm.horizontalAdvance(self.axes[0]) + fm.height() * 0.4)  # the x axis's title
        room = QRectF(self.rect()).adjusted(margin, margin, -right, -margin)
        x, _, o = self.vectors
        points = np.array([[0.0, 0.0], x, o])
        low, high = points.min(axis=0), points.max(axis=0)
        span = np.maximum(high - low, 1e-9)
        unit = min(room.width() / span[0] if span[0] > 1e-9 else math.inf,
                   room.height() / span[1] if span[1] > 1e-9 else math.inf)
        unit = unit if math.isfinite(unit) else 1.0
        centre = (low + high) / 2
        origin = QPointF(room.center().x() - centre[0] * unit, room.center().y() + centre[1] * unit)
        return room, unit, origin

    def axis_title_rects(self) -> tuple[QRectF, QRectF]:
        """Where the axes' titles go: the first's right of its axis, the second's above its axis,
        each inside the widget."""
        fm = QFontMetricsF(self.label_font())
        room, _, origin = self._frame()
        w0, w1, h = fm.horizontalAdvance(self.axes[0]), fm.horizontalAdvance(self.axes[1]), fm.height()
        first = QRectF(min(room.right() + h * 0.2, self.width() - w0), origin.y() - h / 2, w0, h)
        left = min(max(0.0, origin.x() + h * 0.2), self.width() - w1)
        second = QRectF(left, max(0.0, room.top() - h), w1, h)
        return first, second

    def tips(self) -> dict[str, QPointF]:
        """Where each arrow starts and ends on screen (the tests read them)."""
        _, unit, origin = self._frame()
        x, _, o = self.vectors

        def at(v):
            return QPointF(origin.x() + v[0] * unit, origin.y() - v[1] * unit)
        return {"origin": origin, "x": at(x), "o": at(o)}

    def paintEvent(self, event):  # noqa: N802
        if self.vectors is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        font = self.label_font()
        painter.setFont(font)
        fm = QFontMetricsF(font)
        pal = self.palette()
        room, _, origin = self._frame()
        grey = pal.color(QPalette.Mid)
        painter.setPen(QPen(grey, 1))
        painter.drawLine(QPointF(room.left(), origin.y()), QPointF(room.right(), origin.y()))
        painter.drawLine(QPointF(origin.x(), room.top()), QPointF(origin.x(), room.bottom()))
        painter.setPen(pal.color(QPalette.WindowText))
        for rect, title in zip(self.axis_title_rects(), self.axes):
            painter.drawText(rect, Qt.AlignCenter, title)
        t = self.tips()
        width = max(2.0, fm.height() / 8)
        self._arrow(painter, t["origin"], t["o"], O_COLOUR, width * 1.4)
        self._arrow(painter, t["origin"], t["x"], X_COLOUR, width)
        self._arrow(painter, t["x"], t["o"], Y_COLOUR, width)
        # Each arrow's name outside the triangle origin, X, O: on the side away from its third corner.
        for (start, end, away), name, colour in zip(((t["origin"], t["x"], t["o"]), (t["x"], t["o"], t["origin"]),
                                                     (t["origin"], t["o"], t["x"])),
                                                    self.names, (X_COLOUR, Y_COLOUR, O_COLOUR)):
            self._label(painter, fm, start, end, away, name, colour)
        painter.end()

    def _arrow(self, painter, start, end, colour, width):
        painter.setPen(QPen(colour, width, Qt.SolidLine, Qt.RoundCap))
        painter.drawLine(start, end)
        size = width * 5
        if math.hypot(end.x() - start.x(), end.y() - start.y()) >= size:  # too short for a head: a line
            arrow_head(painter, start, end, colour, size)

    def _label(self, painter, fm, start, end, away, name, colour):
        """The name beside the arrow's middle, on the side away from `away`, kept inside the widget."""
        mid = QPointF((start.x() + end.x()) / 2, (start.y() + end.y()) / 2)
        w, h = fm.horizontalAdvance(name), fm.height()
        dx, dy = end.x() - start.x(), end.y() - start.y()
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        if nx * (away.x() - mid.x()) + ny * (away.y() - mid.y()) > 0:
            nx, ny = -nx, -ny
        reach = (abs(nx) * w + abs(ny) * h) / 2 + h * 0.3  # clear of the arrow whatever its direction
        centre = QPointF(mid.x() + nx * reach, mid.y() + ny * reach)
        left = min(max(0.0, centre.x() - w / 2), self.width() - w)
        top = min(max(0.0, centre.y() - h / 2), self.height() - h)
        painter.setPen(colour.darker(115))
        painter.drawText(QRectF(left, top, w, h), Qt.AlignCenter, name)
