"""Drawing one head's weight matrix: colours, values, token labels, masked cells, the selected row.

HeatmapPainter draws onto any QPainter, so the window, PNG, SVG, PDF and the
clipboard all show the same picture. Cell colours come from one QImage (fast on
screen at any size) or, for vector files, one rectangle per cell while cells are large
enough to read (above that, one lossless image per head: 512² rectangles would make a
file of hundreds of MB); cell values are drawn in the same paint, never as one item per cell.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontInfo,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)

from ...core.explain import MINUS_INFINITY, fmt
from ..common.asked import Asked
from ..common.i18n import tr
from ..look import colormaps
from ..look.fonts import figure_font, weighted
from ..steps.stages import row_stage

NEUTRAL_FILL = QColor(232, 238, 247)  # a row of scores, before softmax gives them colours
SELECT_OUTER = QColor(0, 0, 0)
SELECT_INNER = QColor(255, 255, 255)


@dataclass(frozen=True)
class HeatmapData:
    tokens: tuple[str, ...]
    weights: np.ndarray          # [n, n], masked cells exactly 0
    masked: np.ndarray           # [n, n] bool: True where the score was −∞
    title: str = ""
    selected_row: int | None = None
    # Guided steps explain one row at a time: only that row is drawn, with the numbers
    # of the current stage (scores, scaled scores, ...) and, before softmax, no colours.
    only_row: int | None = None
    row_text: tuple[str, ...] | None = None
    colored: bool = True
    # What a masked cell says: its weight, 0 (from softmax on), or its score, −∞ (at the mask step).
    masked_text: str = "0"
    # Zoomed in, the keys shown are other tokens than the queries: the columns' labels, and each
    # row's largest weight in the whole row (the per-row colour scale must not see only the block).
    column_tokens: tuple[str, ...] | None = None
    row_max: np.ndarray | None = None
    short_title: str = ""  # a thumbnail too small for its whole title says this ("head 1")
    # A lesson's question on this head: its row drawn blank with "?" until revealed, the guess outlined.
    asked: Asked | None = None

    def hidden_row(self) -> int | None:
        """The row whose weights are hidden (a question not yet answered), or None."""
        a = self.asked
        return a.row if a is not None and not a.revealed else None

    @property
    def columns(self) -> tuple[str, ...]:
        return self.tokens if self.column_tokens is None else self.column_tokens


def window_of(data: HeatmapData, row: int, column: int, size: int) -> HeatmapData:
    """The size × size block of `data` from (row, column): a zoomed-in panel draws this."""
    rows, cols = slice(row, row + size), slice(column, column + size)

    def inside(i):
        return i - row if i is not None and row <= i < row + size else None
    return replace(data, tokens=tuple(data.tokens[rows]), column_tokens=tuple(data.columns[cols]),
                   weights=data.weights[rows, cols], masked=data.masked[rows, cols],
                   row_max=np.max(data.weights[rows], axis=1, keepdims=True, initial=0.0),
                   selected_row=inside(data.selected_row), only_row=inside(data.only_row),
                   asked=None if data.asked is None or inside(data.asked.row) is None else
                   replace(data.asked, row=inside(data.asked.row),
                           guess=None if data.asked.guess is None else data.asked.guess - column),
                   row_text=tuple(data.row_text[cols]) if data.row_text is not None else None)


def staged(data: HeatmapData, trace, row: int, number: int | None) -> HeatmapData:
    """What a panel draws at a guided step: the selected row only, with that stage's numbers (all of
    it outside guided steps, and at the layer's own steps: the row is computed in full by then)."""
    s = row_stage(number)
    if s is None:
        return data
    if s.row == "weights":
        return replace(data, only_row=row)
    values = trace.scores[row] if s.row == "scores" else trace.scaled[row]
    masked = data.masked if s.masks else np.zeros_like(data.masked)
    return replace(data, only_row=row, masked=masked, colored=False, masked_text=MINUS_INFINITY,
                   row_text=tuple(fmt(x, 2, fixed=True) for x in values))


TITLE_LINES = 3  # a head's title at most: ヘッド 0・K/V 組 0（ヘッド 1、2 と共有） whole in a ninth of the screen
ROW_LABEL_SHARE = 0.3  # of a panel's width, at most, for the queries' labels
LEAST_LABEL_SHRINK = 0.7  # labels too wide for that are made smaller down to this share of their type, then cut
MAX_ASPECT = 1.5  # cells may be up to 1.5× wider than tall, to fit labels on a wide screen
LABEL_EMS = 1.05   # a label's glyphs, in ems of its type: rows closer than this show every other label
VECTOR_CELL = 8.0  # logical px (points in a PDF): smaller cells go into vector files as an image
SHARP = 2          # an embedded image has at least this many pixels per logical px of its cells,
                   # so a viewer that smooths images when it scales them cannot blur a cell edge


@dataclass(frozen=True)
class Geometry:
    grid: QRectF        # the n × n cells
    cell_w: float
    cell_h: float
    title_height: float
    row_label_width: float
    column_label_height: float
    column_labels: str  # "one row", "two rows" (staggered: each label may take two columns) or "turned"
    label_font: QFont
    value_font: QFont | None  # None: cells too small to print values in
    title: str = ""           # as drawn: the whole title, or a thumbnail's short one
    beside: bool = False      # the title left of the weights (a wide thumbnail), not above them

    @property
    def cell(self) -> float:
        return min(self.cell_w, self.cell_h)


class HeatmapPainter:
    """Draws a HeatmapData into a rectangle; the same code for screen and files."""

    def __init__(self, colormap=None, font: QFont | None = None, show_values: bool = True,
                 decimals: int = 2, background: QColor | None = None, foreground: QColor | None = None,
                 signed: bool = False, reach: float = 1.0, value_share: float = 0.36, max_tall: float = 1.0,
                 labels: bool = True, least_pixels: int = 0):
        self.labels = labels  # False: a thumbnail, its title whole and the pattern of weights, no text in it
        # Presenting: no text smaller than the back row reads; values that would be are left out (the
        # colours still tell), labels keep this size.
        self.least_pixels = least_pixels
        self.signed = signed  # values in [−1, 1] (differences) on a diverging map, printed with a sign
        self.reach = reach    # signed values are drawn divided by this; printed times it
        self.colormap = colormap or colormaps.get("difference" if signed else colormaps.DEFAULT)
        self.font = QFont(font) if font is not None else figure_font()
        self.show_values = show_values and labels
        self.value_share = value_share  # a value's type, as a share of its cell's height
        self.decimals = decimals
        # How much taller than wide a cell may be: 1 (square at most) but where maps stand side by side
        # on a wide screen and the height would otherwise stay empty (the kernel's three, presented).
        self.max_tall = max_tall
        self.background = background or QColor(255, 255, 255)
        self.foreground = foreground or QColor(20, 20, 20)
        self.mask = colormaps.mask_look(self.background)
        self._hatch_cache = (None, None)
        self._pixel_cache = None
        self._geometry = (None, None)

    # ------------------------------------------------------------- layout

    def geometry(self, rect: QRectF, data: HeatmapData) -> Geometry:
        """Where everything goes; measured again only when the room, the tokens or the title change
        (measuring 512 labels on every paint would cost more than painting them)."""
        key = (rect.getRect(), data.tokens, data.column_tokens, data.title)
        if self._geometry[0] != key:
            self._geometry = (key, self._measure(rect, data))
        return self._geometry[1]

    def _measure(self, rect: QRectF, data: HeatmapData) -> Geometry:
        if not self.labels and rect.width() > 2 * rect.height():
            return self._measure_beside(rect, data)
        n = len(data.tokens)
        pad = max(4.0, rect.width() * 0.01)
        title_font = self._title_font()
        title = self._shown_title(data, rect)
        title_h = QFontMetricsF(title_font).height() * (0.4 + self._title_lines(title, rect.width()))
        # Labels scale with the cells and the cells with the room the labels leave:
        # size the font from a first estimate, then measure the labels once with it.
        # (The row labels need the cell's height; the keys' labels turn when too wide for its width.)
        estimate = self._cells(rect, n, pad, title_h, rect.width() * 0.2, QFontMetricsF(self.font).height())[1]
        label_font = self._fit_label_font(estimate)
        fm = QFontMetricsF(label_font)
        if self.labels:
            widest = widest_label(label_font, data.tokens)
            room = rect.width() * ROW_LABEL_SHARE
            shrink = room / (widest + fm.height() * 0.4)
            if LEAST_LABEL_SHRINK <= shrink < 1:  # a little smaller, rather than cut (座…); a long token is cut
                label_font.setPixelSize(max(6, int(label_font.pixelSize() * shrink)))
                fm = QFontMetricsF(label_font)
                widest = widest_label(label_font, data.tokens)
            row_w = min(widest + fm.height() * 0.4, room)
            columns, col_h = self._column_labels(rect, n, pad, title_h, row_w, label_font, data.columns)
        else:
            row_w, columns, col_h = 0.0, "none", pad
        cell_w, cell_h = self._cells(rect, n, pad, title_h, row_w, col_h)
        spare = max(0.0, rect.width() - 2 * pad - row_w - cell_w * n)  # centre the matrix in its panel
        grid = QRectF(rect.left() + pad + row_w + spare / 2, rect.top() + title_h + col_h, cell_w * n, cell_h * n)
        return Geometry(grid, cell_w, cell_h, title_h, row_w, col_h, columns, label_font,
                        self._value_font(cell_w, cell_h), title)

    def _measure_beside(self, rect: QRectF, data: HeatmapData) -> Geometry:
        """A wide, low thumbnail (a row of them under the big head): its title on one line at the
        left, the weights' square beside it."""
        n, pad = len(data.tokens), 4.0
        fm = QFontMetricsF(self._title_font())
        title = data.title if fm.horizontalAdvance(data.title) <= rect.width() - rect.height() - 3 * pad \
            else data.short_title or data.title
        title_w = fm.horizontalAdvance(title) + 2 * pad  # whole: the weights' square gives way
        side = max(1e-3, (min(rect.height(), rect.width() - title_w) - 2 * pad) / n)
        grid = QRectF(rect.left() + title_w + pad, rect.top() + (rect.height() - side * n) / 2, side * n, side * n)
        return Geometry(grid, side, side, 0.0, title_w, 0.0, "none", self.font, None, title, beside=True)

    def _column_labels(self, rect, n, pad, title_h, row_w, font: QFont, tokens) -> tuple[str, float]:
        """How the keys' labels go above the columns, and the height they take: on one line when they
        fit their columns; staggered on two lines when each fits two columns (食べた above 猫 が 魚
        reads better than any turned text); else turned to read upwards. Never one character a line."""
        fm = QFontMetricsF(font)
        widest = widest_label(font, tokens)
        line = fm.height() * 1.3
        if widest <= self._cells(rect, n, pad, title_h, row_w, line)[0] * 0.95:
            return "one row", line
        if n > 1 and widest <= self._cells(rect, n, pad, title_h, row_w, 2 * line)[0] * 1.9:
            return "two rows", 2 * line
        return "turned", min(widest + fm.height() * 0.5, rect.height() * 0.3)  # turned to read upwards

    def _cells(self, rect, n, pad, title_h, row_w, col_h) -> tuple[float, float]:
        """(width, height) of a cell: square where the room is square, wider on a wide screen (taller
        only up to max_tall)."""
        width = max(1e-3, (rect.width() - row_w - 2 * pad) / n)  # 4,096 tokens in 300 px: cells of 0.07 px
        height = max(1e-3, (rect.height() - title_h - col_h - pad) / n)
        cell_h = min(width * self.max_tall, height)
        return min(width, cell_h * MAX_ASPECT), cell_h

    def _fit_label_font(self, cell: float) -> QFont:
        """Labels keep the base size, shrink only when a line of text would not fit a cell,
        and grow (up to 1.5×) when cells are big."""
        base = QFontMetricsF(self.font).height()
        height = min(base * 1.5, max(min(base, cell * 0.8), cell * 0.5, 6.0))
        fitted = QFont(self.font)
        fitted.setPixelSize(max(6, self.least_pixels, round(QFontInfo(self.font).pixelSize() * height / base)))
        return fitted

    def _value_font(self, cell_w: float, cell_h: float) -> QFont | None:
        """Values about a third of the cell high (and "0.00" within its width), so they stay
        readable on a projector."""
        if not self.show_values:
            return None
        font = QFont(self.font)
        size = min(QFontMetricsF(self.font).height() * 2.0, cell_h * self.value_share, cell_w * 0.45)
        least = max(7, self.least_pixels)
        if self.least_pixels and size < least <= min(cell_h * 0.5, cell_w * 0.45):
            size = least  # presenting: the back row's size while it fits the cell
        if size < least:
            return None
        font.setPixelSize(int(size))
        return font

    def _title_font(self) -> QFont:
        return weighted(self.font, bold=True)

    def _title_lines(self, title: str, width: float) -> int:
        """A title too long for one line (a GQA head's group and the heads sharing it) takes two, three in
        a narrow panel (nine heads side by side); a thumbnail's as many as it needs, since it has no other
        text to say which head it is."""
        return self._title_text(title, width).count("\n") + 1 if title else 0

    def _title_text(self, title: str, width: float) -> str:
        fm = QFontMetricsF(self._title_font())
        if fm.horizontalAdvance(title) <= width:
            return title
        return wrapped(title, fm, width, most=TITLE_LINES if self.labels else None)

    def _shown_title(self, data: HeatmapData, rect: QRectF) -> str:
        """A thumbnail's whole title, or its short one when the whole would leave too little of the
        thumbnail for the weights."""
        if self.labels or not data.short_title:
            return data.title
        lines = self._title_lines(data.title, rect.width())
        return data.title if lines * QFontMetricsF(self._title_font()).height() <= rect.height() * 0.4 \
            else data.short_title

    def cell_at(self, rect: QRectF, data: HeatmapData, pos: QPointF):
        """(row, column) under `pos`, or None outside the grid."""
        g = self.geometry(rect, data)
        in_rows = g.grid.top() <= pos.y() < g.grid.bottom()
        if not in_rows or not g.grid.left() - g.row_label_width <= pos.x() < g.grid.right():
            return None  # a click on a row's label counts as a click on the row
        n = len(data.tokens)
        col = min(n - 1, max(0, int((pos.x() - g.grid.left()) / g.cell_w)))
        row = min(n - 1, int((pos.y() - g.grid.top()) / g.cell_h))
        return row, col

    # ------------------------------------------------------------- drawing

    def title_box(self, rect: QRectF, g: Geometry, tight: bool = False) -> QRectF | None:
        """Where the title is drawn: above the weights, or left of them (a wide thumbnail), centred in
        the panel's height (`tight`: only the line it takes there); None without one."""
        if not g.title:
            return None
        if g.beside:
            line = QFontMetricsF(self._title_font()).height() if tight else rect.height()
            return QRectF(rect.left(), rect.center().y() - line / 2, g.row_label_width, line)
        return QRectF(rect.left(), rect.top(), rect.width(), g.title_height)

    def paint(self, p: QPainter, rect: QRectF, data: HeatmapData, vector: bool = False) -> Geometry:
        g = self.geometry(rect, data)
        p.save()
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setRenderHint(QPainter.TextAntialiasing, True)
        box = self.title_box(rect, g)
        if box is not None:
            p.setFont(self._title_font())
            p.setPen(self.foreground)
            p.drawText(box, Qt.AlignLeft | Qt.AlignVCenter,
                       g.title if g.beside else self._title_text(g.title, rect.width()))
        if vector and g.cell >= VECTOR_CELL:
            self._paint_cells_as_rects(p, g, data)
        else:
            self._paint_cells_as_image(p, g, data, vector)
        self._paint_mask(p, g, data, vector)
        self._paint_grid_lines(p, g, len(data.tokens))
        self._paint_values(p, g, data)
        if self.labels:
            self._paint_labels(p, g, data)
        self._paint_selection(p, g, data)
        self._paint_guess(p, g, data)
        p.restore()
        return g

    def _position(self, values, row_max=None):
        """Where a value sits on the colour map: weights on the chosen scale, differences −1..1 halved."""
        return (np.asarray(values) + 1) / 2 if self.signed else self.colormap.places(values, row_max)

    def _text(self, w: float) -> str:
        if self.signed:
            return f"{w * self.reach:+.{self.decimals}f}".replace("-", "\u2212")
        return f"{w:.{self.decimals}f}"

    def _pixels(self, data: HeatmapData, step: int = 1) -> np.ndarray:
        """[n, n] opaque ARGB32 pixels of the cells: the colour map's, the mask's fill, blank rows
        (one table lookup and two masked writes: 12 heads of 512² in a few milliseconds); with
        `step`, one pixel for each step × step block. The last ones are kept: a panel repaints (a
        tooltip, another window passing over) far more often than its weights change."""
        key = (data.weights, data.masked, data.only_row, data.colored, data.hidden_row(), self.colormap.name,
               self.colormap.scale, self.background.rgb(), step)
        cached = self._pixel_cache
        if cached is not None and cached[0][0] is key[0] and cached[0][1] is key[1] and cached[0][2:] == key[2:]:
            return cached[1]
        pixels = self._colour(data, step)
        self._pixel_cache = (key, pixels)
        return pixels

    def _colour(self, data: HeatmapData, step: int = 1) -> np.ndarray:
        masked = data.masked
        if data.colored:
            places = self._position(data.weights, data.row_max)
            if step > 1:  # a block shows its largest weight (one strong key stays visible), hidden if all are
                places, masked = _blocks(places, step, np.maximum), _blocks(masked, step, np.logical_and)
            pixels = coloured(self.colormap, places)
        else:
            pixels = np.full(data.weights.shape, _argb(NEUTRAL_FILL), np.uint32)
        hidden = data.hidden_row()
        if hidden is not None:  # a question's row: no colour gives its weights away
            pixels[hidden] = _argb(NEUTRAL_FILL)
        pixels[masked] = _argb(self.mask.fill)
        if data.only_row is not None:
            row = pixels[data.only_row].copy()
            pixels[:] = _argb(self.background)
            pixels[data.only_row] = row
        return pixels

    def _paint_cells_as_image(self, p: QPainter, g: Geometry, data: HeatmapData, vector: bool = False) -> None:
        # Cells far smaller than a pixel (4,096 tokens in 300 px) are coloured a block at a time:
        # 9 heads of 4,096² took 600 MB of pixels and half a second to colour, for a few hundred
        # pixels a side on screen. A file (vector) and a single row's view keep every cell.
        plain = vector or data.only_row is not None or data.hidden_row() is not None or not data.colored
        step = 1 if plain else min(max(data.weights.shape),  # a block, a pixel at least; a panel squeezed
                                   max(1, int(np.ceil(1 / min(g.cell_w, g.cell_h)))))  # to nothing: one block
        pixels = self._pixels(data, step)  # kept alive until drawn: the QImage only points at it
        if vector:  # whole pixels per cell, enough of them to stay sharp in any viewer
            per_cell = max(1, int(np.ceil(SHARP * g.cell)))
            pixels = pixels.repeat(per_cell, axis=0).repeat(per_cell, axis=1)
        image = pixel_image(pixels)
        p.save()
        p.setRenderHint(QPainter.SmoothPixmapTransform, False)  # crisp cells, no blur
        p.setRenderHint(QPainter.LosslessImageRendering, True)  # a PDF gets Flate, never JPEG
        rows, columns = pixels.shape
        n_rows, n_columns = data.weights.shape
        target = g.grid if step == 1 else QRectF(g.grid.topLeft(), QSizeF(  # the last block may be a part one
            g.grid.width() * columns * step / n_columns, g.grid.height() * rows * step / n_rows))
        p.drawImage(target, image)
        p.restore()

    def _paint_cells_as_rects(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        pixels = self._pixels(data)
        p.save()
        p.setPen(Qt.NoPen)
        for i, row in enumerate(pixels):
            for j, pixel in enumerate(row):
                p.setBrush(QColor.fromRgb(int(pixel)))
                p.drawRect(self._cell_rect(g, i, j))
        p.restore()

    @staticmethod
    def _cell_rect(g: Geometry, i: int, j: int) -> QRectF:
        return QRectF(g.grid.left() + j * g.cell_w, g.grid.top() + i * g.cell_h, g.cell_w, g.cell_h)

    def _paint_mask(self, p: QPainter, g: Geometry, data: HeatmapData, vector: bool) -> None:
        """Diagonal hatching over the masked cells, cut exactly to them: no colour of any map
        looks like it. Cached, since it changes only with the mask or the size: as a path for
        vector files, as a ready-drawn image on screen (filling the path takes milliseconds)."""
        if g.cell < 6 or not data.masked.any():
            return
        shown = data.masked
        if data.only_row is not None:
            shown = shown & (np.arange(len(data.masked)) == data.only_row)[:, None]
        # drawn at the pixels it lands on: device pixels per logical pixel, on screen or in an exported PNG
        ratio = (p.device().devicePixelRatioF() if p.device() is not None else 1.0) * \
            max(abs(p.worldTransform().m11()), 1e-3)
        key = (g.grid.getRect(), shown.tobytes(), shown.shape, self.mask.hatch.rgb(), vector, ratio)
        if self._hatch_cache[0] != key:
            self._hatch_cache = (key, self._hatch_layer(g, shown, vector, ratio))
        layer = self._hatch_cache[1]
        if vector:
            p.fillPath(layer, self.mask.hatch)
        else:
            p.drawImage(g.grid.topLeft(), layer)

    def _hatch_layer(self, g: Geometry, shown: np.ndarray, vector: bool, ratio: float):
        region = QPainterPath()
        for i, j0, j1 in _runs(shown):
            region.addRect(QRectF(g.grid.left() + j0 * g.cell_w, g.grid.top() + i * g.cell_h,
                                  (j1 - j0) * g.cell_w, g.cell_h))
        spacing = max(3.0, min(g.cell / 4, QFontMetricsF(self.font).height() * 0.5))
        if vector:  # files: the stripes cut to the cells, exact in any viewer
            return hatch(region, g.grid, spacing, max(1.0, g.cell / 30))
        image = QImage(max(1, round(g.grid.width() * ratio)), max(1, round(g.grid.height() * ratio)),
                       QImage.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(0)
        painter = QPainter(image)
        painter.translate(-g.grid.topLeft())
        # Screen: the runs of masked cells filled with a tiled stripe (cutting a path of stripes
        # to the cells costs tens of milliseconds per panel; a texture costs nothing).
        brush = QBrush(_hatch_tile(max(3, round(spacing * ratio)), max(1.0, g.cell / 30) * ratio, self.mask.hatch))
        brush.setTransform(QTransform.fromScale(1 / ratio, 1 / ratio))
        painter.setBrushOrigin(g.grid.topLeft())
        for i, j0, j1 in _runs(shown):
            painter.fillRect(QRectF(g.grid.left() + j0 * g.cell_w, g.grid.top() + i * g.cell_h,
                                    (j1 - j0) * g.cell_w, g.cell_h), brush)
        painter.end()
        return image

    def _paint_grid_lines(self, p: QPainter, g: Geometry, n: int) -> None:
        if g.cell < 10:
            return
        x0, y0 = g.grid.left(), g.grid.top()
        lines = [QLineF(x0 + k * g.cell_w, y0, x0 + k * g.cell_w, g.grid.bottom()) for k in range(1, n)]
        lines += [QLineF(x0, y0 + k * g.cell_h, g.grid.right(), y0 + k * g.cell_h) for k in range(1, n)]
        p.save()
        p.setPen(QPen(self.background, max(1.0, g.cell / 40)))
        p.drawLines(lines)
        p.restore()

    def _paint_values(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        if g.value_font is None:
            return
        p.save()
        p.setFont(self._fitting(g.value_font, data.row_text, g.cell_w * 0.9) if data.row_text else g.value_font)
        n = len(data.tokens)
        rows = range(n) if data.only_row is None else [data.only_row]
        hidden = data.hidden_row()
        if hidden is not None:
            p.setFont(g.value_font)  # "?" in every cell, at the size the weights would have
        light = self.colormap.light(self._position(data.weights, data.row_max))  # [n, n]: black text, else white
        pens = {True: QColor(0, 0, 0), False: QColor(255, 255, 255)}
        for i in rows:
            for j in range(n):
                rect = self._cell_rect(g, i, j)
                if data.masked[i, j]:
                    if not self.signed:  # a difference of two masked weights is no news: blank
                        p.setPen(self.mask.text)
                        p.drawText(rect, Qt.AlignCenter, data.masked_text)
                    continue
                p.setPen(pens[bool(light[i, j])] if data.colored and i != hidden else QColor(20, 20, 20))
                text = data.row_text[j] if data.row_text is not None else self._text(float(data.weights[i, j]))
                p.drawText(rect, Qt.AlignCenter, "?" if i == hidden else text)
        p.restore()

    @staticmethod
    def _fitting(font: QFont, texts, width: float) -> QFont:
        """The font, made smaller if the widest of `texts` would overflow `width`."""
        widest = max(QFontMetricsF(font).horizontalAdvance(t) for t in texts)
        if widest <= width:
            return font
        smaller = QFont(font)
        smaller.setPixelSize(max(6, int(font.pixelSize() * width / widest)))
        return smaller

    def _paint_labels(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        n = len(data.tokens)
        fm = QFontMetricsF(g.label_font)
        # Thin out labels that would overlap: a glyph is about an em high (the font's line height, 1.45 em
        # for Noto CJK, has room above and below that neighbouring rows may share).
        step = max(1, int(np.ceil(g.label_font.pixelSize() * LABEL_EMS / g.cell)))
        p.save()
        fonts = {False: g.label_font, True: weighted(g.label_font, bold=True)}
        for i in range(0, n, step):
            p.setFont(fonts[i == data.selected_row])
            p.setPen(self.foreground)
            row_rect = QRectF(g.grid.left() - g.row_label_width, g.grid.top() + i * g.cell_h,
                              g.row_label_width - fm.height() * 0.25, g.cell_h)
            text = fm.elidedText(data.tokens[i], Qt.ElideRight, row_rect.width())
            p.drawText(row_rect, Qt.AlignRight | Qt.AlignVCenter, text)
        p.setFont(g.label_font)
        for k, j in enumerate(range(0, n, step)):
            self._paint_column_label(p, g, fm, j, data.columns[j], k)
        p.restore()

    def _paint_column_label(self, p: QPainter, g: Geometry, fm: QFontMetricsF, j: int, token: str, k: int = 0):
        """Label of column j, the k-th label drawn (staggered labels alternate lines by k)."""
        x, w = g.grid.left() + j * g.cell_w, g.cell_w
        bottom = g.grid.top() - fm.height() * 0.25
        if g.column_labels == "one row":
            p.drawText(QRectF(x, g.grid.top() - g.column_label_height, w, g.column_label_height),
                       Qt.AlignHCenter | Qt.AlignBottom, token)
        elif g.column_labels == "two rows":
            line = g.column_label_height / 2
            top = g.grid.top() - line * (2 - k % 2)  # the first label on the upper line, the next lower
            p.drawText(QRectF(x - w / 2, top, 2 * w, line), Qt.AlignHCenter | Qt.AlignBottom, token)
        else:
            room = g.column_label_height - fm.height() * 0.5
            p.save()
            p.translate(x + w / 2 + fm.ascent() / 2 - fm.descent(), bottom)
            p.rotate(-90)
            p.drawText(QPointF(0, 0), fm.elidedText(token, Qt.ElideRight, room))
            p.restore()

    def _paint_selection(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        if data.selected_row is None or not 0 <= data.selected_row < len(data.tokens):
            return
        row = QRectF(g.grid.left(), g.grid.top() + data.selected_row * g.cell_h, g.grid.width(), g.cell_h)
        width = max(2.0, min(5.0, g.cell * 0.08))
        p.save()
        p.setClipRect(g.grid, Qt.IntersectClip)  # the frame never covers a label (of the first row's keys, say)
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(SELECT_OUTER, width * 2))  # black outside, white inside: visible on any colour
        p.drawRect(row)
        p.setPen(QPen(SELECT_INNER, width * 0.8))
        p.drawRect(row)
        p.restore()

    def _paint_guess(self, p: QPainter, g: Geometry, data: HeatmapData) -> None:
        """The class's guess framed in its row (orange; green or red once revealed), ✓ or ✗ in its corner."""
        a = data.asked
        if a is None or a.guess is None or not 0 <= a.guess < len(data.columns):
            return
        cell = self._cell_rect(g, a.row, a.guess)
        width = max(3.0, min(8.0, g.cell * 0.1))
        p.save()
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(QColor(*a.colour()), width, Qt.SolidLine, Qt.SquareCap, Qt.MiterJoin))
        p.drawRect(cell.adjusted(width, width, -width, -width))
        if a.mark():  # on the cell's top right corner, clear of its number in the middle
            side = min(cell.width(), cell.height()) * 0.42
            badge = QRectF(cell.right() - side * 0.6, cell.top() - side * 0.4, side, side)
            p.setPen(QPen(QColor(255, 255, 255), max(1.5, width / 2)))  # white around: on any colour
            p.setBrush(QColor(*a.colour()))
            p.drawEllipse(badge)
            font = QFont(g.label_font)
            font.setPixelSize(max(6, round(side * 0.7)))
            p.setFont(weighted(font, bold=True))
            p.drawText(badge, Qt.AlignCenter, a.mark())
        p.restore()


def hatch(region: QPainterPath | None, bounds: QRectF, spacing: float, width: float) -> QPainterPath:
    """Stripes along x − y = c, every `spacing`, as filled bands cut exactly to `region`
    (a stroked line would poke out of the cells at its ends), or uncut with no region (to be
    clipped when drawn: cutting the path costs tens of milliseconds per panel)."""
    stripes = QPainterPath()
    top, bottom = bounds.top() - width, bounds.bottom() + width
    c = np.floor((bounds.left() - bottom) / spacing) * spacing
    while c < bounds.right() - top:
        stripes.addPolygon(QPolygonF([QPointF(top + c, top), QPointF(top + c + width, top),
                                      QPointF(bottom + c + width, bottom), QPointF(bottom + c, bottom)]))
        stripes.closeSubpath()
        c += spacing
    return stripes if region is None else stripes.intersected(region)


def _hatch_tile(period: int, width: float, color: QColor) -> QImage:
    """One period of the stripes along x − y = c, in device pixels, to tile with."""
    tile = QImage(period, period, QImage.Format_ARGB32_Premultiplied)
    tile.fill(0)
    p = QPainter(tile)
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(Qt.NoPen)
    p.setBrush(color)
    for c in (-period, 0, period):  # the band and its neighbours, wrapped into the tile
        p.drawPolygon(QPolygonF([QPointF(c, 0), QPointF(c + width, 0), QPointF(c + width + period, period),
                                 QPointF(c + period, period)]))
    p.end()
    return tile


def _runs(mask: np.ndarray):
    """(row, first column, end column) of each horizontal run of True cells."""
    for i, row in enumerate(mask):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        for j0, j1 in zip(edges[::2], edges[1::2]):
            yield i, int(j0), int(j1)


def _argb32(rgb: np.ndarray) -> np.ndarray:
    """[..., 3] uint8 colours -> opaque 0xAARRGGBB pixels, laid out as QImage.Format_ARGB32 reads them."""
    rgb = rgb.astype(np.uint32)
    return np.ascontiguousarray((0xFF << 24) | (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2])


def _blocks(a: np.ndarray, step: int, reduce) -> np.ndarray:
    """[n, m] -> [⌈n/step⌉, ⌈m/step⌉], each step × step block reduced to one value (max, all): the
    rows first, then the columns of what is left, each by viewing the whole blocks as one more axis
    (no copy of the matrix; reduceat took ten times as long, and the columns first, reading the
    matrix across its rows, five to ten times)."""
    return _blocks_of_rows(_blocks_of_rows(a, step, reduce).T, step, reduce).T


def _blocks_of_rows(a: np.ndarray, step: int, reduce) -> np.ndarray:
    """[n, m] -> [⌈n/step⌉, m]: each step rows reduced to one (the last block may have fewer)."""
    count = len(a) // step
    parts = [reduce.reduce(a[:count * step].reshape(count, step, *a.shape[1:]), axis=1)] if count else []
    if count * step < len(a):
        parts.append(reduce.reduce(a[count * step:], axis=0, keepdims=True))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def widest_label(font: QFont, tokens) -> float:
    """The widest of a panel's labels in `font`, measured once for every panel showing the same
    tokens (a model's 4,096 tokens were measured four times over in each of 9 panels)."""
    key = (font.key(), tuple(tokens))
    if key not in _WIDEST:
        if len(_WIDEST) > 32:
            _WIDEST.clear()
        fm = QFontMetricsF(font)
        _WIDEST[key] = max(fm.horizontalAdvance(t) for t in key[1])
    return _WIDEST[key]


_WIDEST: dict = {}


def _argb(color: QColor) -> np.uint32:
    return np.uint32(0xFF000000 | (color.red() << 16) | (color.green() << 8) | color.blue())


def coloured(colormap, places) -> np.ndarray:
    """Places on the colour map (0..1, any shape) -> opaque ARGB32 pixels: one table lookup."""
    return _lut32(colormap)[colormap.index(places)]


def pixel_image(pixels: np.ndarray) -> QImage:
    """A QImage over [h, w] ARGB32 pixels, without a copy: keep `pixels` alive while it is drawn."""
    pixels = np.ascontiguousarray(pixels)
    h, w = pixels.shape
    return QImage(pixels.data, w, h, 4 * w, QImage.Format_ARGB32)


def _lut32(colormap) -> np.ndarray:
    """The colour map's 256 colours as opaque ARGB32 pixels."""
    return _pixel_table(colormap.lut.tobytes())


@lru_cache(maxsize=32)
def _pixel_table(lut: bytes) -> np.ndarray:
    return _argb32(np.frombuffer(lut, np.uint8).reshape(-1, 3))


# ---------------------------------------------------------------- colour bar

def legend_kind(scenario) -> str:
    """What the hatching stands for in this scenario: its mask, or a model's weights of 0."""
    return "given" if scenario.weights_only else scenario.settings.mask_kind


def mask_legend(mask_kind: str) -> str:
    """What the hatched swatch stands for: the future with the causal mask, else hidden keys
    (or, in a model's weights, a weight of exactly 0)."""
    return {"causal": tr("masked\n(future)"), "given": tr("weight\nexactly 0")}.get(mask_kind,
                                                                                  tr("masked\n(hidden)"))


WHITE = QColor(255, 255, 255)  # the page a colour bar is drawn on, unless told


def paint_colorbar(p: QPainter, rect: QRectF, colormap, font: QFont, foreground: QColor,
                   background: QColor = WHITE, mask_kind: str | None = "causal",
                   reach: float | None = None, title: str | None = None, least_pixels: float = 0) -> None:
    """The 0–1 scale every panel shares, and the masked-cell swatch that explains the hatching
    (none when `mask_kind` is None). With `reach`, a diverging scale from −reach to +reach. The mask's
    legend is set smaller to fit, but not under `least_pixels` (presenting: it wraps instead)."""
    fm = QFontMetricsF(font)
    p.save()
    p.setFont(font)
    p.setPen(foreground)
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), fm.height() * 1.2),
               Qt.AlignHCenter | Qt.AlignVCenter, title or tr("weight"))
    swatch = fm.height() * 1.6 if mask_kind is not None else 0.0
    legend_font, legend = fitted_legend(font, mask_legend(mask_kind), rect.width(), least_pixels) if mask_kind \
        else (font, "")
    legend_h = QFontMetricsF(legend_font).height() * 1.2 * (legend.count("\n") + 1) if mask_kind else 0.0
    bar_w = min(rect.width() * 0.35, fm.height() * 1.3)
    top = rect.top() + fm.height() * 1.8
    bottom = rect.bottom() - (swatch + fm.height() * 0.8 + legend_h if mask_kind is not None else fm.height() * 0.6)
    bar = QRectF(rect.left() + fm.height() * 0.3, top, bar_w, max(10.0, bottom - top))
    argb = _argb32(colormap.lut[::-1, None])  # [256, 1], top = 1
    image = QImage(argb.data, 1, 256, 4, QImage.Format_ARGB32)
    p.drawImage(bar, image)
    p.setPen(QPen(foreground, 1))
    p.setBrush(Qt.NoBrush)
    p.drawRect(bar)
    ticks = colormap.ticks() if reach is None else [(v, "") for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
    for value, text in ticks:
        y = bar.bottom() - value * bar.height()
        p.drawLine(QLineF(bar.right(), y, bar.right() + fm.height() * 0.3, y))
        text = tr(text) if reach is None else f"{(2 * value - 1) * reach:+.2g}".replace("-", "\u2212")
        p.drawText(QRectF(bar.right() + fm.height() * 0.4, y - fm.height() / 2, rect.width(), fm.height()),
                   Qt.AlignLeft | Qt.AlignVCenter, "0" if reach is not None and value == 0.5 else text)
    if mask_kind is None:
        p.restore()
        return
    cell = QRectF(bar.left(), rect.bottom() - swatch - fm.height() * 0.2 - legend_h, swatch, swatch)
    mask = colormaps.mask_look(background)
    p.fillRect(cell, mask.fill)
    region = QPainterPath()
    region.addRect(cell)
    p.fillPath(hatch(region, cell, swatch / 4, max(1.0, swatch / 30)), mask.hatch)
    p.setPen(mask.text)
    p.drawText(cell, Qt.AlignCenter, "0")
    p.setPen(foreground)
    p.setFont(legend_font)
    p.drawText(QRectF(rect.left(), cell.bottom() + fm.height() * 0.2, rect.width(), legend_h),
               Qt.AlignLeft | Qt.AlignTop, legend)
    p.restore()


LEAST_LEGEND = 0.75  # the mask legend's type, at its smallest, of the colour bar's


def fitted_legend(font: QFont, text: str, width: float, least_pixels: float = 0) -> tuple[QFont, str]:
    """The mask legend on the lines its translation gives (見えない位置 / （マスク）): Qt's word wrap
    breaks Japanese between any two characters (見えない位 / 置), so a line too wide is set in smaller
    type, down to LEAST_LEGEND (and never under `least_pixels`); one still too wide breaks where
    `wrapped` finds a place. The legend's room is made for its lines, so none is cut off."""
    font = QFont(font)
    pixels = font.pixelSize() > 0
    size = font.pixelSize() if pixels else font.pointSizeF()
    least = max(size * LEAST_LEGEND, least_pixels if pixels else 0)  # presenting, the bar's type is in pixels

    def widest():
        fm = QFontMetricsF(font)
        return max(fm.horizontalAdvance(line) for line in text.split("\n"))
    while widest() > width and size - 1 >= least:
        size -= 1
        font.setPixelSize(int(size)) if pixels else font.setPointSizeF(size)
    fm = QFontMetricsF(font)
    return font, "\n".join(wrapped(line, fm, width, most=None) for line in text.split("\n"))


def wrapped(text: str, fm: QFontMetricsF, width: float, most: int | None = 2) -> str:
    """`text` on lines of `width`, each broken after the last space or "・" / "（" that keeps it within
    the width (anywhere, for a text without one); with `most` lines, the rest elided into the last."""
    lines = []
    while text and (most is None or len(lines) < most - 1) and fm.horizontalAdvance(text) > width:
        cut = len(text)
        while cut > 1 and fm.horizontalAdvance(text[:cut]) > width:
            cut -= 1
        breaks = [i for i in range(1, cut + 1) if i < len(text) and (text[i] in "・（(" or text[i - 1] == " ")]
        at = breaks[-1] if breaks and breaks[-1] >= min(cut // 3, 3) else cut
        lines.append(text[:at].rstrip())
        text = text[at:].strip()
    lines.append(fm.elidedText(text, Qt.ElideRight, width) if most is not None else text)
    return "\n".join(lines)
