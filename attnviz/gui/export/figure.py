"""Figures for slides and papers: one head, all heads, or one query's steps beside its heatmap.

A Figure is painted onto any QPainter (PNG image, SVG generator, PDF writer,
clipboard image) in logical pixels, with the same HeatmapPainter as the window,
so what is exported is what the screen shows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from PySide6.QtCore import QLineF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen

from ...core.compute import Result, hidden
from ...core.explain import fmt_temperature, step_rows, sum_row
from ...core.scenario import Scenario
from ..common.i18n import head_label, tr
from ..heads.heatmap import HeatmapData, HeatmapPainter, legend_kind, paint_colorbar
from ..look import colormaps
from ..look.fonts import figure_font, weighted
from ..steps.table import COLUMNS, DOT, EXP, SCALED, WEIGHT, K, step_headers, step_output, step_title

KINDS = ("head", "all", "step")
FONT_PX = 16          # logical pixels; PNG exports scale the whole figure
GRID_FONT_PX = 13     # the all-heads grid has smaller panels
HEAD_SIDE = 640       # one head's heatmap
GRID_SIDE = 380       # each head in the all-heads grid
COLORBAR_WIDTH = 96
MARGIN = 16
FOREGROUND = QColor(20, 20, 20)
BACKGROUND = QColor(255, 255, 255)
RULE = QColor(200, 200, 200)


@dataclass(frozen=True)
class FigureOptions:
    kind: str = "head"      # "head", "all" or "step"
    head: int = 0           # the head of "head" and "step"
    query: int | None = None  # the highlighted row, and the row "step" explains (default: the last)
    caption: bool = True    # head name and settings under the figure
    colormap: str = colormaps.DEFAULT
    scale: str = "linear"   # the colour scale: a name of colormaps.SCALES


class Figure:
    def __init__(self, scenario: Scenario, result: Result, options: FigureOptions):
        self.scenario, self.result, self.options = scenario, result, options
        self.font = figure_font(pixel_size=GRID_FONT_PX if options.kind == "all" else FONT_PX)
        self.heatmap = HeatmapPainter(colormaps.get(options.colormap, options.scale), self.font,
                                      background=BACKGROUND, foreground=FOREGROUND)

    # ------------------------------------------------------------- size

    def size(self) -> QSizeF:
        """The figure in logical pixels; every format keeps this aspect ratio."""
        caption = self._caption_height()
        if self.options.kind == "all":
            columns, rows = self._grid()
            return QSizeF(columns * GRID_SIDE + COLORBAR_WIDTH + 2 * MARGIN,
                          rows * GRID_SIDE + caption + 2 * MARGIN)
        if self.options.kind == "step":
            return QSizeF(HEAD_SIDE + self._step_width() + COLORBAR_WIDTH + 3 * MARGIN,
                          max(HEAD_SIDE, self._step_height()) + caption + 2 * MARGIN)
        return QSizeF(HEAD_SIDE + COLORBAR_WIDTH + 2 * MARGIN, HEAD_SIDE + caption + 2 * MARGIN)

    def _grid(self) -> tuple[int, int]:
        count = len(self.scenario.heads)
        columns = math.ceil(math.sqrt(count))
        return columns, math.ceil(count / columns)

    def _caption_height(self) -> float:
        return QFontMetricsF(self.font).height() * 2.2 if self.options.caption else 0.0

    # ------------------------------------------------------------- painting

    def paint(self, p: QPainter, vector: bool = False) -> None:
        size = self.size()
        p.fillRect(QRectF(0, 0, size.width(), size.height()), BACKGROUND)
        body = QRectF(MARGIN, MARGIN, size.width() - 2 * MARGIN,
                      size.height() - 2 * MARGIN - self._caption_height())
        if self.options.kind == "all":
            for i in range(len(self.scenario.heads)):
                self._paint_head(p, i, vector)
        else:
            self._paint_head(p, self.options.head, vector)
        if self.options.kind == "step":
            self._paint_step(p, body)
        self._paint_colorbar(p, body)
        if self.options.caption:
            self._paint_caption(p, QRectF(MARGIN, body.bottom(), body.width(), self._caption_height()))

    def head_data(self, index: int) -> HeatmapData:
        trace = self.result.heads[index]
        highlight = self.query if self.options.kind == "step" else self.options.query
        return HeatmapData(self.scenario.tokens, trace.weights, hidden(trace),
                           head_label(self.scenario, index), highlight)

    @property
    def query(self) -> int:
        q = self.options.query
        return self.scenario.n - 1 if q is None or not 0 <= q < self.scenario.n else q

    def head_rect(self, index: int) -> QRectF:
        """Where head `index` is drawn, in logical pixels."""
        if self.options.kind != "all":
            return QRectF(MARGIN, MARGIN, HEAD_SIDE, HEAD_SIDE)
        columns, _ = self._grid()
        return QRectF(MARGIN + (index % columns) * GRID_SIDE, MARGIN + (index // columns) * GRID_SIDE,
                      GRID_SIDE - MARGIN / 2, GRID_SIDE - MARGIN / 2)

    def _paint_head(self, p, index, vector):
        self.heatmap.paint(p, self.head_rect(index), self.head_data(index), vector=vector)

    def _paint_colorbar(self, p, body):
        """Right of the grid for all heads; right of the heatmap (before the table) otherwise."""
        if self.options.kind == "all":
            rect = QRectF(body.right() - COLORBAR_WIDTH + MARGIN / 2, body.top(),
                          COLORBAR_WIDTH - MARGIN / 2, body.height())
        else:
            rect = QRectF(body.left() + HEAD_SIDE + MARGIN / 2, body.top(),
                          COLORBAR_WIDTH - MARGIN / 2, min(body.height(), HEAD_SIDE))
        paint_colorbar(p, rect, self.heatmap.colormap, self.font, FOREGROUND, mask_kind=legend_kind(self.scenario))

    def caption_text(self) -> str:
        s = self.scenario.settings
        d_k = self.scenario.heads[self.options.head].d_k
        if self.options.kind == "all":
            what = tr("All heads ({0})").format(len(self.scenario.heads))
        else:
            what = head_label(self.scenario, self.options.head)
        layer = [tr("Layer {0} of {1}").format(*self.scenario.layer)] if self.scenario.layer else []
        if self.scenario.weights_only:  # the model's own weights: no mask, d_k or temperature of ours
            return " · ".join(layer + [what, tr("the model's weights")])
        mask = tr("causal mask on") if s.causal else tr("causal mask off")
        scale = tr("÷√d_k (d_k = {0})").format(d_k) if s.scale else tr("no ÷√d_k")
        temperature = tr("temperature {0}").format(fmt_temperature(s.temperature))
        return " · ".join(layer + [what, mask, scale, temperature])

    def _paint_caption(self, p, rect):
        p.save()
        p.setFont(self.font)
        p.setPen(FOREGROUND)
        p.drawText(rect, Qt.AlignLeft | Qt.AlignVCenter | Qt.TextWordWrap, self.caption_text())
        p.restore()

    # ------------------------------------------------------------- the step table

    @cached_property
    def step_table(self):
        """(title, headers, rows, output line) of the selected query, as the window shows them
        (made once: sizing and painting the figure both read it)."""
        o, s, i = self.options, self.scenario, self.query
        head, trace = s.heads[o.head], self.result.heads[o.head]
        rows = step_rows(s.tokens, head.q[i], head.k, trace, i) + [sum_row(trace, i)]
        output = "" if s.weights_only else step_output(s, self.result, o.head, i)  # no v: no output
        return step_title(s, o.head, i), step_headers(s, o.head, i, self.result), rows, output

    @property
    def step_columns(self) -> list[int]:
        """The columns shown: a model's weights alone have no k, q·k, ÷√d_k or eˣ to show."""
        absent = {K, DOT, SCALED, EXP} if self.scenario.weights_only else set()
        return [c for c in range(COLUMNS) if c not in absent]

    def _row_height(self) -> float:
        return QFontMetricsF(self.font).height() * 1.6

    def _step_widths(self) -> list[float]:
        title, headers, rows, _ = self.step_table
        fm = QFontMetricsF(weighted(self.font, bold=True))  # bold is the wider: headers, best row
        cells = [headers] + [r.cells for r in rows]
        return [max(fm.horizontalAdvance(c[i]) for c in cells) + fm.height() for i in self.step_columns]

    def _step_width(self) -> float:
        """The table's, or the title's if that is wider (a model's weights have a narrow table)."""
        title = QFontMetricsF(weighted(self.font, bold=True)).horizontalAdvance(self.step_table[0])
        return max(sum(self._step_widths()), title + self.font.pixelSize())

    def _step_height(self) -> float:
        _, _, rows, output = self.step_table
        h = self._row_height()
        return h * (len(rows) + 2) + self._output_height(output)  # the title, the headers, the rows, the output

    def _output_height(self, output: str) -> float:
        """The output's lines as they wrap in the table's width, two at least (every one of them is drawn)."""
        flags = Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap
        wrapped = QFontMetricsF(self.font).boundingRect(QRectF(0, 0, sum(self._step_widths()), 1e5), flags, output)
        return max(self._row_height() * 2, wrapped.height())

    def _paint_step(self, p, body):
        left = body.left() + HEAD_SIDE + COLORBAR_WIDTH + MARGIN
        title, headers, rows, output = self.step_table
        widths, h = self._step_widths(), self._row_height()
        fm = QFontMetricsF(self.font)
        p.save()
        bold = weighted(self.font, bold=True)
        p.setFont(bold)
        p.setPen(FOREGROUND)
        p.drawText(QRectF(left, body.top(), self._step_width(), h), Qt.AlignLeft | Qt.AlignVCenter, title)
        top = body.top() + h
        best = max(range(len(rows) - 1), key=lambda j: rows[j].weight_value)
        for r, cells in enumerate([headers] + [x.cells for x in rows]):
            y = top + r * h
            x = left
            row = rows[r - 1] if r else None
            total = r == len(rows)  # the Σ row
            p.setFont(bold if r == 0 or r - 1 == best or total else self.font)
            for n, c in enumerate(self.step_columns):
                text = cells[c]
                cell = QRectF(x, y, widths[n], h)
                if row is not None and c == WEIGHT and not row.masked and not total:
                    p.fillRect(cell, self.heatmap.colormap.color(row.weight_value))
                    p.setPen(self.heatmap.colormap.text_color(row.weight_value))
                else:
                    p.setPen(colormaps.LIGHT_MASK.dimmed if row is not None and row.masked else FOREGROUND)
                align = Qt.AlignLeft if c in (0, 2) else Qt.AlignRight
                p.drawText(cell.adjusted(fm.height() / 2, 0, -fm.height() / 2, 0), align | Qt.AlignVCenter, text)
                x += widths[n]
            p.setPen(QPen(RULE, 1))
            p.drawLine(QLineF(left, y + h, left + sum(widths), y + h))
        p.setFont(self.font)
        p.setPen(FOREGROUND)
        p.drawText(QRectF(left, top + (len(rows) + 1) * h + h * 0.3, sum(widths), self._output_height(output)),
                   Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap, output)
        p.restore()
