"""A layer × head (or layer × position) map of one number per cell: the workbench's patching,
attribution and sweep results. Signed numbers on the diverging scale (blue below 0, yellow above,
symmetric about 0), the value written in each cell that has room, the row and column names
beside, the largest cells outlined; a cell's tooltip says what it is, a click chooses it."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..heads.heatmap import coloured, pixel_image
from ..look import colormaps

OUTLINED = 3          # the strongest cells (by |value|) get an outline
LEAST_CELL = 14       # px: below this a cell shows no number (its colour and tooltip still tell)


class LayerMap(QWidget):
    """rows × columns of numbers; `chosen(row, column)` on a click."""

    chosen = Signal(int, int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.values: np.ndarray | None = None
        self.rows: list[str] = []
        self.columns: list[str] = []
        self.tip = lambda row, column, value: f"{value:+.3f}"
        self.signed = True
        self.top: float | None = None
        self.setMouseTracking(True)
        self.setMinimumSize(320, 240)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self._map = colormaps.get("difference")

    def set_values(self, values: np.ndarray, rows: list[str], columns: list[str], signed: bool = True,
                   tip=None, top: float | None = None) -> None:
        """`top`: unsigned numbers on a fixed scale from 0 to it (probabilities: 1), else to their largest."""
        self.values, self.rows, self.columns, self.signed = np.asarray(values, dtype=float), rows, columns, signed
        self.top = top
        self._map = colormaps.get("difference" if signed else "viridis")
        if tip is not None:
            self.tip = tip
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(720, 560)

    # ------------------------------------------------------------- geometry

    def _grid(self) -> QRectF:
        fm = QFontMetricsF(self.font())
        left = max((fm.horizontalAdvance(r) for r in self.rows), default=0) + 10
        top = min(max((fm.horizontalAdvance(c) for c in self.columns), default=0) + 10, self.height() * 0.3) \
            if self._turned() else fm.height() + 8
        return QRectF(left, top, max(1.0, self.width() - left - 8), max(1.0, self.height() - top - 8))

    def _turned(self) -> bool:
        """Column names too wide for their column read upwards."""
        if self.values is None or not self.columns:
            return False
        fm = QFontMetricsF(self.font())
        width = (self.width() - 60) / self.values.shape[1]
        return max(fm.horizontalAdvance(c) for c in self.columns) > width * 0.9

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        if self.values is None:
            return None
        g = self._grid()
        if not g.contains(point):
            return None
        rows, columns = self.values.shape
        return (min(rows - 1, int((point.y() - g.top()) / g.height() * rows)),
                min(columns - 1, int((point.x() - g.left()) / g.width() * columns)))

    def _places(self) -> np.ndarray:
        v = np.nan_to_num(self.values)
        if not self.signed:
            top = self.top or np.abs(v).max() or 1.0
            return np.clip(v / top, 0, 1)
        reach = np.abs(v).max() or 1.0
        return 0.5 + 0.5 * v / reach

    # ------------------------------------------------------------- painting

    def paintEvent(self, event):
        p = QPainter(self)
        try:
            p.fillRect(self.rect(), self.palette().base())
            if self.values is not None and self.values.size:
                self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        g, (rows, columns) = self._grid(), self.values.shape
        places = self._places()
        pixels = coloured(self._map, places)
        p.save()
        p.setRenderHint(QPainter.SmoothPixmapTransform, False)
        p.drawImage(g, pixel_image(pixels))
        p.restore()
        cw, ch = g.width() / columns, g.height() / rows
        fm = QFontMetricsF(self.font())
        p.setPen(self.palette().text().color())
        for r, name in enumerate(self.rows):
            p.drawText(QRectF(0, g.top() + r * ch, g.left() - 6, ch), Qt.AlignRight | Qt.AlignVCenter, name)
        self._paint_columns(p, g, cw, fm)
        if min(cw, ch) >= LEAST_CELL and fm.horizontalAdvance("−0.00") <= cw - 2:
            light = self._map.light(places)
            for r in range(rows):
                for c in range(columns):
                    p.setPen(QColor(0, 0, 0) if light[r, c] else QColor(255, 255, 255))
                    p.drawText(QRectF(g.left() + c * cw, g.top() + r * ch, cw, ch), Qt.AlignCenter,
                               f"{self.values[r, c]:.2f}".replace("-", "−"))
        p.setPen(QPen(QColor(230, 90, 0), 2))
        p.setBrush(Qt.NoBrush)
        for index in np.argsort(-np.abs(np.nan_to_num(self.values)), axis=None)[:OUTLINED]:
            r, c = divmod(int(index), columns)
            p.drawRect(QRectF(g.left() + c * cw, g.top() + r * ch, cw, ch).adjusted(1, 1, -1, -1))

    def _paint_columns(self, p: QPainter, g: QRectF, cw: float, fm: QFontMetricsF) -> None:
        turned = self._turned()
        every = max(1, int(np.ceil(fm.height() / cw))) if turned else 1  # turned names one line apart at least
        for c, name in enumerate(self.columns):
            if c % every:
                continue
            if turned:
                p.save()
                p.translate(g.left() + (c + 0.5) * cw + fm.ascent() / 2 - fm.descent(), g.top() - 4)
                p.rotate(-90)
                p.drawText(QPointF(0, 0), name)
                p.restore()
            else:
                p.drawText(QRectF(g.left() + c * cw, 0, cw, g.top() - 2), Qt.AlignHCenter | Qt.AlignBottom, name)

    # ------------------------------------------------------------- the mouse

    def mouseMoveEvent(self, event):
        cell = self.cell_at(event.position())
        if cell is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), self.tip(*cell, float(self.values[cell])), self)

    def mousePressEvent(self, event):
        cell = self.cell_at(event.position())
        if cell is not None and event.button() == Qt.LeftButton:
            self.chosen.emit(*cell)
