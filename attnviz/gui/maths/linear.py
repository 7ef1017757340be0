"""x·W (seed 000, "Query・Key・Value"): a vector times a matrix, drawn for a class. The seed's example
x = [2, 1] times W, whose columns are the outputs' weights, gives [2, 4]; the shapes are written under
each (1 × 2 · 2 × 2 = 1 × 2) and each output's sum written out, weight × input, as the seed says it
(1×2 + 0×1 = 2). Under it, the same x times W_q, W_k and W_v gives three different vectors: q, k, v.

The numbers are core/explorers.py's fixed example, whatever the scenario (like the √d_k view's demo): a
lesson's scene shows it with "view": "linear" on any scenario.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor

from ...core.explain import fmt
from ...core.explorers import LinearMap, linear_map, qkv_maps
from ..common.i18n import tr
from .canvas import Block, Shape, Text, Type, colour_of, column, grid, row, space, text, wrapped
from .drawn import DrawnView

BIG = 1.5        # the worked example's numbers and operators, in the view's type
CELL_EMS = 0.9   # a matrix's cell: its widest number plus this many ems
TINT = 45        # a column's tint behind W's numbers (alpha of its colour)
# Each output's colour (light look, dark look): W's column, the product's number and its written sum.
OUTPUT_COLOURS = (("#1459b8", "#7ab8ff"), ("#b34a00", "#ffae5c"))


class LinearView(DrawnView):
    """The seed's x·W with its shapes and sums, and W_q, W_k, W_v giving q, k, v from the same x."""

    reads_document = False  # the seed's own numbers: no edit changes them

    def __init__(self, document, parent=None):
        super().__init__(document, "linear", parent)
        self.setObjectName("linearView")
        self.retranslate()

    def retranslate(self):
        self.explanation.setText(tr(
            "A vector times a matrix (a linear map): each number of the output is the input's numbers times "
            "weights, added up. Attention makes each token's q, k and v this way, each with its own matrix."))
        self.canvas.refit()

    def refresh(self):
        self.retranslate()

    # ------------------------------------------------------------- the drawing

    def colours(self) -> list[QColor]:
        return [colour_of(self, light, dark) for light, dark in OUTPUT_COLOURS]

    def _lay_out(self, size: float) -> Block:
        t, big, bold = self.canvas.type(size), self.canvas.type(size * BIG), self.canvas.type(size, bold=True)
        return column([self._worked(linear_map(), t, big), space(height=size),
                       self._three(qkv_maps(), t, bold)], gap=size * 0.6)

    def _worked(self, m: LinearMap, t: Type, big: Type) -> Block:
        """x · W = x·W as the seed writes it: the numbers, what each is, its shape; each output's sum beside."""
        colours = self.colours()
        x_shape, w_shape, out_shape = m.shapes
        products = grid([
            [matrix(big, m.x, m.decimals), text(big, "·"), matrix(big, m.w, m.decimals, colours, tint=True),
             text(big, "="), matrix(big, m.product, m.decimals, colours)],
            [text(t, "x"), None, text(t, "W"), None, text(t, "x·W")],
            [text(t, tr("input")), None, text(t, tr("matrix")), None, text(t, tr("output"))],
            [text(t, x_shape), text(t, "·"), text(t, w_shape), text(t, "="), text(t, out_shape)],
        ], gap_x=t.pixels * 0.8, gap_y=t.pixels * 0.2)
        sums = [text(t, tr("output {0} = {1}").format(j + 1, s), colours[j % len(colours)])
                for j, s in enumerate(m.sums)]
        note = wrapped(t, tr("Each column of W makes one output: its weights times the input's numbers, added up."),
                       1.4 * max(s.width for s in sums))
        return row([products, column([note, *sums], gap=t.pixels * 0.4, align="l")], gap=t.pixels * 3)

    def _three(self, maps: dict[str, LinearMap], t: Type, bold: Type) -> Block:
        """The same x times W_q, W_k and W_v: three different vectors, each with its sums."""
        colours = self.colours()
        groups = []
        for name, m in maps.items():
            product = grid([
                [matrix(t, m.x, m.decimals), text(t, "·"), matrix(t, m.w, m.decimals, colours, tint=True),
                 text(t, "="), matrix(t, m.product, m.decimals, colours)],
                [text(t, "x"), None, text(t, f"W_{name}"), None, text(t, name)],
            ], gap_x=t.pixels * 0.5, gap_y=t.pixels * 0.2)
            sums = [text(t, s, colours[j % len(colours)]) for j, s in enumerate(m.sums)]
            groups.append(column([product, *sums], gap=t.pixels * 0.3))
        heading = text(bold, tr("The same x, another matrix, another vector: one matrix each for the query, "
                                "the key and the value"))
        return column([heading, row(groups, gap=t.pixels * 2.5, top=True)], gap=t.pixels * 0.8)


def matrix(t: Type, values, decimals: int, colours: list[QColor] | None = None, tint: bool = False) -> Block:
    """A matrix in brackets; with `colours`, column j's numbers in colour j (and with `tint`, its column
    tinted behind them): the column that makes output j."""
    cells = [[fmt(v, decimals, fixed=True) for v in r] for r in values]
    cell_w = max(t.width(s) for r in cells for s in r) + CELL_EMS * t.pixels
    cell_h = t.line * 1.15
    edge = t.pixels * 0.3  # a bracket's serif
    rows, columns = len(cells), len(cells[0])
    width, height = columns * cell_w + 2 * edge, rows * cell_h + 0.2 * cell_h

    def emit(x, y, drawing):
        left, top = x + edge, y + 0.1 * cell_h
        for c in range(columns):
            colour = colours[c % len(colours)] if colours else None
            if tint and colour is not None:
                faint = QColor(colour)
                faint.setAlpha(TINT)
                drawing.shapes.append(Shape(QRectF(left + c * cell_w + 2, top, cell_w - 4, rows * cell_h), faint))
            for r in range(rows):
                s = cells[r][c]
                w = t.width(s)
                rect = QRectF(left + c * cell_w + (cell_w - w) / 2, top + r * cell_h + (cell_h - t.line) / 2, w,
                              t.line)
                drawing.texts.append(Text(s, rect, t, colour))
        for side in (-1, 1):
            drawing.shapes.append(Shape(QRectF(x if side < 0 else x + width - edge, y, edge, height), bracket=side))

    return Block(width, height, emit)
