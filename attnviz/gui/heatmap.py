"""One head's weight matrix: colours, values, token labels, the masked cells, the selected row.

HeatmapPainter draws onto any QPainter, so the window, PNG, SVG, PDF and the
clipboard all show the same picture. Cell colours come from one QImage (fast on
screen at any size) or, for vector files, one rectangle per cell; cell values are
drawn in the same paint, never as one item per cell.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, QSize, Signal
from PySide6.QtGui import QColor, QFont, QFontInfo, QFontMetricsF, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ..core.explain import MINUS_INFINITY
from . import colormaps
from .fonts import figure_font, weighted
from .i18n import tr

SELECT_OUTER = QColor(0, 0, 0)
SELECT_INNER = QColor(255, 255, 255)
ACTIVE_BORDER = QColor(230, 120, 0)



@dataclass(frozen=True)
class HeatmapData:
    tokens: tuple[str, ...]
    weights: np.ndarray          # [n, n], masked cells exactly 0
    masked: np.ndarray           # [n, n] bool: True where the score was −∞
    title: str = ""
    selected_row: int | None = None


@dataclass(frozen=True)
class Geometry:
    grid: QRectF        # the n × n cells
    cell: float
    title_height: float
    row_label_width: float
    column_label_height: float
    column_labels_vertical: bool
    label_font: QFont
    value_font: QFont | None  # None: cells too small to print values in


class HeatmapPainter:
    """Draws a HeatmapData into a rectangle; the same code for screen and files."""

    def __init__(self, colormap=None, font: QFont | None = None, show_values: bool = True,
                 decimals: int = 2, background: QColor | None = None, foreground: QColor | None = None):
        self.colormap = colormap or colormaps.get()
        self.font = QFont(font) if font is not None else figure_font()
        self.show_values = show_values
        self.decimals = decimals
        self.background = background or QColor(255, 255, 255)
        self.foreground = foreground or QColor(20, 20, 20)

    # ------------------------------------------------------------- layout

    def geometry(self, rect: QRectF, data: HeatmapData) -> Geometry:
        n = len(data.tokens)
        pad = max(4.0, rect.width() * 0.01)
        title_font = self._title_font()
        title_h = QFontMetricsF(title_font).height() * 1.4 if data.title else 0.0
        # Labels scale with the cells and the cells with the room the labels leave:
        # size the font from a first estimate, then measure the labels once with it.
        estimate = self._cell(rect, n, pad, title_h, rect.width() * 0.2, QFontMetricsF(self.font).height())
        label_font = self._fit_label_font(estimate)
        fm = QFontMetricsF(label_font)
        widest = max(fm.horizontalAdvance(t) for t in data.tokens)
        row_w = min(widest + fm.height() * 0.6, rect.width() * 0.3)
        horizontal_h = fm.height() * 1.3
        cell = self._cell(rect, n, pad, title_h, row_w, horizontal_h)
        vertical = widest > cell * 0.95
        col_h = min(self._vertical_label_extent(fm, data.tokens), rect.height() * 0.3) if vertical else horizontal_h
        cell = self._cell(rect, n, pad, title_h, row_w, col_h)
        spare = max(0.0, rect.width() - 2 * pad - row_w - cell * n)  # centre the matrix in its panel
        grid = QRectF(rect.left() + pad + row_w + spare / 2, rect.top() + title_h + col_h, cell * n, cell * n)
        return Geometry(grid, cell, title_h, row_w, col_h, vertical, label_font, self._value_font(cell))

    @staticmethod
    def _cell(rect, n, pad, title_h, row_w, col_h) -> float:
        width = rect.width() - row_w - 2 * pad
        height = rect.height() - title_h - col_h - pad
        return max(0.5, min(width, height) / n)

    def _fit_label_font(self, cell: float) -> QFont:
        """Labels follow the cells: a line of text about half a cell high, never above
        1.5× the base size (big cells on a projector) nor below 6 px."""
        base = QFontMetricsF(self.font).height()
        height = min(max(cell * 0.5, 6.0), base * 1.5)
        fitted = QFont(self.font)
        fitted.setPixelSize(max(6, round(QFontInfo(self.font).pixelSize() * height / base)))
        return fitted

    def _value_font(self, cell: float) -> QFont | None:
        """Values fill about a third of the cell, so they stay readable on a projector."""
        if not self.show_values:
            return None
        font = QFont(self.font)
        size = min(QFontMetricsF(self.font).height() * 2.0, cell * 0.3)
        if size < 7:
            return None
        font.setPixelSize(int(size))
        return font

    def _title_font(self) -> QFont:
        return weighted(self.font, bold=True)

    @staticmethod
    def _vertical_label_extent(fm: QFontMetricsF, tokens) -> float:
        """Japanese labels stack one character a line; others are rotated (see below)."""
        extent = max(fm.height() * 0.95 * len(t) if _is_cjk(t) else fm.horizontalAdvance(t) for t in tokens)
        return extent + fm.height() * 0.5

    def cell_at(self, rect: QRectF, data: HeatmapData, pos: QPointF):
        """(row, column) under `pos`, or None outside the grid."""
        g = self.geometry(rect, data)
        in_rows = g.grid.top() <= pos.y() < g.grid.bottom()
        if not in_rows or not g.grid.left() - g.row_label_width <= pos.x() < g.grid.right():
            return None  # a click on a row's label counts as a click on the row
        n = len(data.tokens)
        col = min(n - 1, max(0, int((pos.x() - g.grid.left()) / g.cell)))
        row = min(n - 1, int((pos.y() - g.grid.top()) / g.cell))
        return row, col

    # ------------------------------------------------------------- drawing

    def paint(self, p: QPainter, rect: QRectF, data: HeatmapData, vector: bool = False) -> Geometry:
        g = self.geometry(rect, data)
        p.save()
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setRenderHint(QPainter.TextAntialiasing, True)
        if data.title:
            p.setFont(self._title_font())
            p.setPen(self.foreground)
            p.drawText(QRectF(rect.left(), rect.top(), rect.width(), g.title_height),
                       Qt.AlignLeft | Qt.AlignVCenter, data.title)
        if vector:
            self._paint_cells_as_rects(p, g, data)
        else:
            self._paint_cells_as_image(p, g, data)
        self._paint_mask(p, g, data)
        self._paint_grid_lines(p, g, len(data.tokens))
        self._paint_values(p, g, data)
        self._paint_labels(p, g, data)
        self._paint_selection(p, g, data)
        p.restore()
        return g

    def _colors(self, data: HeatmapData) -> np.ndarray:
        rgb = self.colormap.lut[self.colormap.index(data.weights)]  # [n, n, 3]
        return np.where(data.masked[..., None], _rgb(colormaps.MASK_FILL), rgb)

    def _paint_cells_as_image(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        rgb = self._colors(data).astype(np.uint32)
        argb = np.ascontiguousarray((0xFF << 24) | (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2])
        n = argb.shape[0]
        image = QImage(argb.data, n, n, 4 * n, QImage.Format_ARGB32)
        p.save()
        p.setRenderHint(QPainter.SmoothPixmapTransform, False)  # crisp cells, no blur
        p.drawImage(g.grid, image)
        p.restore()

    def _paint_cells_as_rects(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        rgb = self._colors(data)
        p.save()
        p.setPen(Qt.NoPen)
        for i, row in enumerate(rgb):
            for j, (r, gr, b) in enumerate(row):
                p.setBrush(QColor(int(r), int(gr), int(b)))
                p.drawRect(self._cell_rect(g, i, j))
        p.restore()

    @staticmethod
    def _cell_rect(g: Geometry, i: int, j: int) -> QRectF:
        return QRectF(g.grid.left() + j * g.cell, g.grid.top() + i * g.cell, g.cell, g.cell)

    def _paint_mask(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        """Diagonal hatching over every masked cell: no colour of the map looks like it."""
        if g.cell < 6 or not data.masked.any():
            return
        spacing = max(3.0, min(g.cell / 4, QFontMetricsF(self.font).height() * 0.5))
        hatch = QPainterPath()
        for i, j in zip(*np.nonzero(data.masked)):
            _hatch_cell(hatch, self._cell_rect(g, i, j), spacing)
        p.save()
        p.setPen(QPen(colormaps.MASK_HATCH, max(1.0, g.cell / 30)))
        p.setBrush(Qt.NoBrush)
        p.drawPath(hatch)
        p.restore()

    def _paint_grid_lines(self, p: QPainter, g: Geometry, n: int) -> None:
        if g.cell < 10:
            return
        lines = [QLineF(g.grid.left() + k * g.cell, g.grid.top(), g.grid.left() + k * g.cell, g.grid.bottom())
                 for k in range(1, n)]
        lines += [QLineF(g.grid.left(), g.grid.top() + k * g.cell, g.grid.right(), g.grid.top() + k * g.cell)
                  for k in range(1, n)]
        p.save()
        p.setPen(QPen(self.background, max(1.0, g.cell / 40)))
        p.drawLines(lines)
        p.restore()

    def _paint_values(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        if g.value_font is None:
            return
        p.save()
        p.setFont(g.value_font)
        n = len(data.tokens)
        for i in range(n):
            for j in range(n):
                rect = self._cell_rect(g, i, j)
                if data.masked[i, j]:
                    p.setPen(colormaps.MASK_TEXT)
                    p.drawText(rect, Qt.AlignCenter, MINUS_INFINITY)
                else:
                    w = float(data.weights[i, j])
                    p.setPen(self.colormap.text_color(w))
                    p.drawText(rect, Qt.AlignCenter, f"{w:.{self.decimals}f}")
        p.restore()

    def _paint_labels(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        n = len(data.tokens)
        fm = QFontMetricsF(g.label_font)
        step = max(1, int(np.ceil(fm.height() * 0.9 / g.cell)))  # thin out labels that would overlap
        p.save()
        for i in range(0, n, step):
            p.setFont(weighted(g.label_font, bold=i == data.selected_row))
            p.setPen(self.foreground)
            row_rect = QRectF(g.grid.left() - g.row_label_width, g.grid.top() + i * g.cell,
                              g.row_label_width - fm.height() * 0.3, g.cell)
            text = fm.elidedText(data.tokens[i], Qt.ElideRight, row_rect.width())
            p.drawText(row_rect, Qt.AlignRight | Qt.AlignVCenter, text)
        p.setFont(g.label_font)
        for j in range(0, n, step):
            self._paint_column_label(p, g, fm, j, data.tokens[j])
        p.restore()

    def _paint_column_label(self, p: QPainter, g: Geometry, fm: QFontMetricsF, j: int, token: str):
        x = g.grid.left() + j * g.cell
        bottom = g.grid.top() - fm.height() * 0.25
        if not g.column_labels_vertical:
            p.drawText(QRectF(x, g.grid.top() - g.column_label_height, g.cell, g.column_label_height),
                       Qt.AlignHCenter | Qt.AlignBottom, token)
        elif _is_cjk(token):  # tategaki: Japanese reads top to bottom, one character a line
            step = fm.height() * 0.95
            top = bottom - step * len(token)
            for c, char in enumerate(token):
                p.drawText(QRectF(x, top + c * step, g.cell, step), Qt.AlignCenter, char)
        else:
            room = g.column_label_height - fm.height() * 0.5
            p.save()
            p.translate(x + g.cell / 2 + fm.ascent() / 2 - fm.descent(), bottom)
            p.rotate(-90)
            p.drawText(QPointF(0, 0), fm.elidedText(token, Qt.ElideRight, room))
            p.restore()

    def _paint_selection(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        if data.selected_row is None or not 0 <= data.selected_row < len(data.tokens):
            return
        row = QRectF(g.grid.left(), g.grid.top() + data.selected_row * g.cell, g.grid.width(), g.cell)
        width = max(2.0, min(5.0, g.cell * 0.08))
        p.save()
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(SELECT_OUTER, width * 2))  # black outside, white inside: visible on any colour
        p.drawRect(row)
        p.setPen(QPen(SELECT_INNER, width * 0.8))
        p.drawRect(row)
        p.restore()


def _hatch_cell(path: QPainterPath, r: QRectF, spacing: float) -> None:
    """Lines x − y = c at fixed spacing, clipped to the cell: a continuous hatch across cells."""
    start = np.ceil((r.left() - r.bottom()) / spacing) * spacing
    c = start
    while c < r.right() - r.top():
        # Intersect x − y = c with the cell: x from max(left, top + c) to min(right, bottom + c).
        x0, x1 = max(r.left(), r.top() + c), min(r.right(), r.bottom() + c)
        if x1 > x0:
            path.moveTo(x0, x0 - c)
            path.lineTo(x1, x1 - c)
        c += spacing


def _is_cjk(text: str) -> bool:
    return bool(text) and all(ord(ch) >= 0x3000 for ch in text)


def _rgb(color: QColor) -> np.ndarray:
    return np.array([color.red(), color.green(), color.blue()], dtype=np.uint8)


# ---------------------------------------------------------------- colour bar

def paint_colorbar(p: QPainter, rect: QRectF, colormap, font: QFont, foreground: QColor) -> None:
    """The 0–1 scale every panel shares, and the masked-cell swatch that explains the hatching."""
    fm = QFontMetricsF(font)
    p.save()
    p.setFont(font)
    p.setPen(foreground)
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), fm.height() * 1.2),
               Qt.AlignHCenter | Qt.AlignVCenter, tr("weight"))
    swatch = fm.height() * 1.6
    bar_w = min(rect.width() * 0.35, fm.height() * 1.3)
    top = rect.top() + fm.height() * 1.8
    bottom = rect.bottom() - swatch - fm.height() * 3.2
    bar = QRectF(rect.left() + fm.height() * 0.3, top, bar_w, max(10.0, bottom - top))
    gradient = np.ascontiguousarray(colormap.lut[::-1]).astype(np.uint32)  # top = 1
    argb = np.ascontiguousarray(((0xFF << 24) | (gradient[:, 0] << 16) | (gradient[:, 1] << 8)
                                 | gradient[:, 2])[:, None])
    image = QImage(argb.data, 1, 256, 4, QImage.Format_ARGB32)
    p.drawImage(bar, image)
    p.setPen(QPen(foreground, 1))
    p.setBrush(Qt.NoBrush)
    p.drawRect(bar)
    for value in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = bar.bottom() - value * bar.height()
        p.drawLine(QLineF(bar.right(), y, bar.right() + fm.height() * 0.3, y))
        p.drawText(QRectF(bar.right() + fm.height() * 0.4, y - fm.height() / 2, rect.width(), fm.height()),
                   Qt.AlignLeft | Qt.AlignVCenter, f"{value:g}")
    cell = QRectF(bar.left(), rect.bottom() - swatch - fm.height() * 2.6, swatch, swatch)
    p.fillRect(cell, colormaps.MASK_FILL)
    hatch = QPainterPath()
    _hatch_cell(hatch, cell, swatch / 4)
    p.setPen(QPen(colormaps.MASK_HATCH, 1))
    p.drawPath(hatch)
    p.setPen(colormaps.MASK_TEXT)
    p.drawText(cell, Qt.AlignCenter, MINUS_INFINITY)
    p.setPen(foreground)
    p.drawText(QRectF(rect.left(), cell.bottom() + fm.height() * 0.2, rect.width(), fm.height() * 2.4),
               Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap, tr("masked\n(future)"))
    p.restore()


class ColorBar(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("colorBar")
        self.colormap = colormaps.get()
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Expanding)

    def sizeHint(self):
        fm = self.fontMetrics()
        return QSize(int(fm.height() * 4.5), 200)

    def minimumSizeHint(self):
        return self.sizeHint()

    def paintEvent(self, event):
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        paint_colorbar(p, QRectF(self.rect()).adjusted(2, 4, -2, -4), self.colormap, self.font(),
                       self.palette().windowText().color())


# ---------------------------------------------------------------- one panel per head

class HeadPanel(QWidget):
    """The heatmap of head `index`; clicking it makes the head active and selects the row."""

    clicked = Signal(int, int)  # head, query row

    def __init__(self, document, index: int, parent=None):
        super().__init__(parent)
        self.document = document
        self.index = index
        self.setObjectName(f"headPanel{index}")
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumSize(120, 120)
        self.setFocusPolicy(Qt.ClickFocus)
        self.painter = HeatmapPainter()
        self._data: HeatmapData | None = None
        self.refresh()

    def weights(self) -> np.ndarray:
        """The matrix this panel draws (masked cells are 0)."""
        return np.array(self._data.weights)

    def masked(self) -> np.ndarray:
        return np.array(self._data.masked)

    def data(self) -> HeatmapData:
        return self._data

    def refresh(self) -> None:
        scenario = self.document.scenario
        if self.index >= len(scenario.heads):
            return
        trace = self.document.result.heads[self.index]
        self._data = HeatmapData(
            tokens=scenario.tokens, weights=trace.weights, masked=np.isneginf(trace.masked),
            title=f"{self.index}: {scenario.heads[self.index].name}",
            selected_row=self.document.query)
        self.setToolTip(tr("Head {0}: rows are queries, columns are keys. Click a row to "
                           "explain it step by step.").format(self.index))
        self.update()

    def set_style(self, painter: HeatmapPainter) -> None:
        self.painter = painter
        self.update()

    def paintEvent(self, event):
        if self._data is None:
            return
        p = QPainter(self)
        self.painter.paint(p, self._content_rect(), self._data)
        if self.document.active_head == self.index:
            p.setPen(QPen(ACTIVE_BORDER, 3))
            p.setBrush(Qt.NoBrush)
            p.drawRect(QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5))
        p.end()

    def _content_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(6, 4, -6, -6)

    def mousePressEvent(self, event):
        if event.button() != Qt.LeftButton or self._data is None:
            return super().mousePressEvent(event)
        cell = self.painter.cell_at(self._content_rect(), self._data, event.position())
        row = cell[0] if cell else self.document.query
        self.document.select(head=self.index, query=row)
        self.clicked.emit(self.index, row)
