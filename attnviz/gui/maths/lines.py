"""The token-to-token lines view (BertViz's head view): queries on one side, keys on the other,
a line from query i to key j as thick and as opaque as the weight w_ij.

Vertical (two columns, queries left and keys right) or horizontal (two rows read left to
right, as a Japanese sentence is written); the selected query alone or every query; the
active head or every head at once, each in its own colour. A masked pair has no line; the
keys the selected query may not see are hatched, as in the heatmap.
"""
from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...core.compute import hidden as hidden_cells
from ..common.i18n import head_label, tr
from ..common.lazy import MathView
from ..heads.heatmap import hatch
from ..look import colormaps
from ..look.fonts import figure_font, figure_font_like, weighted
from .sizing import Presenting, pixels

MAX_WIDTH = 14.0     # a weight of 1, in logical pixels
SHOWN_FROM = 0.01    # lighter lines are left out: hundreds of hairlines hide the strong ones
# Heads overlaid: Okabe–Ito's colours (apart for colour-blind eyes), then Paul Tol's muted ones,
# 16 in all: the real model's 9 heads, or 12, never share one.
HEAD_COLOURS = [QColor(c) for c in ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                                    "#F0E442", "#000000", "#882255", "#44AA99", "#999933", "#332288",
                                    "#AA4499", "#117733", "#88CCEE", "#DDCC77")]


@dataclass(frozen=True)
class Line:
    head: int
    query: int
    key: int
    weight: float

    @property
    def width(self) -> float:
        return MAX_WIDTH * self.weight


def lines(weights, masked, heads, query: int | None, smallest: float = SHOWN_FROM) -> list[Line]:
    """The lines to draw: for each head in `heads`, from `query` (every query when None) to each
    key it may see with a weight of at least `smallest`; never a masked pair."""
    out = []
    for h in heads:
        w, hidden = np.asarray(weights[h]), np.asarray(masked[h])
        rows = range(len(w)) if query is None else [query]
        for i in rows:
            for j in np.flatnonzero((w[i] >= smallest) & ~hidden[i]):
                out.append(Line(h, i, int(j), float(w[i, j])))
    return out


def is_cjk(tokens) -> bool:
    """Japanese (or Chinese, Korean) text: read in a row, left to right."""
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for t in tokens for ch in t)


class LinesCanvas(QWidget):
    """Paints the two sides and the lines; a click on a query token selects it."""

    def __init__(self, view: "LinesView"):
        super().__init__(view)
        self.setObjectName("linesCanvas")
        self.view = view
        self.setMinimumSize(240, 80)  # never what makes the docks below the heatmaps taller
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.drawn: list[Line] = []

    # ------------------------------------------------------------- layout

    def anchors(self, n: int) -> tuple[list[QPointF], list[QPointF], list[QRectF], list[QRectF]]:
        """Where each query's and each key's line ends, and their labels' boxes."""
        r = QRectF(self.rect()).adjusted(12, 12, -12, -12)
        fm = QFontMetricsF(self.font_())
        if self.view.horizontal():
            r.setLeft(r.left() + self.gutter())  # "query" and "key" name the rows
            step = r.width() / max(n, 1)
            h = fm.height() * 1.6
            if self.turned(step):  # labels wider than their slot read upwards, in a taller row
                h = min(self._widest() + fm.height() * 0.8, r.height() * 0.3)
            boxes_q = [QRectF(r.left() + i * step, r.top(), step, h) for i in range(n)]
            boxes_k = [QRectF(r.left() + i * step, r.bottom() - h, step, h) for i in range(n)]
            return ([b.center() + QPointF(0, h / 2) for b in boxes_q],
                    [b.center() - QPointF(0, h / 2) for b in boxes_k], boxes_q, boxes_k)
        r.setTop(r.top() + fm.height() * 1.4)  # "query" and "key" head the columns
        step = r.height() / max(n, 1)
        w = min(r.width() * 0.3, max((fm.horizontalAdvance(t) for t in self.view.tokens()), default=0) + 16)
        boxes_q = [QRectF(r.left(), r.top() + i * step, w, step) for i in range(n)]
        boxes_k = [QRectF(r.right() - w, r.top() + i * step, w, step) for i in range(n)]
        return ([b.center() + QPointF(w / 2, 0) for b in boxes_q], [b.center() - QPointF(w / 2, 0) for b in boxes_k],
                boxes_q, boxes_k)

    def _widest(self) -> float:
        fm = QFontMetricsF(weighted(self.font_(), bold=True))
        return max((fm.horizontalAdvance(t) for t in self.view.tokens()), default=0.0)

    def turned(self, step: float) -> bool:
        """In rows, labels turn to read upwards once the widest no longer fits its slot (猫 2/3 at
        34 tokens): never cut short."""
        return self.view.horizontal() and self._widest() > step - 6

    def gutter(self) -> float:
        fm = QFontMetricsF(weighted(self.font_(), bold=True))
        return max(fm.horizontalAdvance(tr("query")), fm.horizontalAdvance(tr("key"))) + 12

    def font_(self):
        """The view's type (presenting, it is given in pixels): never below 9 pt on the desk."""
        font = self.font()
        return figure_font_like(font) if font.pixelSize() > 0 else figure_font(point_size=max(9.0, font.pointSizeF()))

    # ------------------------------------------------------------- painting

    def paintEvent(self, event):
        view = self.view
        tokens = view.tokens()
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        if not tokens:
            p.end()
            return
        starts, ends, boxes_q, boxes_k = self.anchors(len(tokens))
        self.drawn = view.lines()
        several = len(view.heads()) > 1
        thickness = max(1.0, pixels(self.font_()) / 16)  # larger type (a projector's), thicker lines
        for line in sorted(self.drawn, key=lambda line: line.weight):  # strong lines on top
            colour = QColor(HEAD_COLOURS[line.head % len(HEAD_COLOURS)] if several else self._accent())
            colour.setAlphaF(min(1.0, 0.25 + 0.75 * line.weight))
            p.setPen(QPen(colour, max(0.5, line.width * thickness), Qt.SolidLine, Qt.RoundCap))
            p.drawLine(starts[line.query], ends[line.key])
        self._paint_tokens(p, tokens, boxes_q, boxes_k)
        self._paint_sides(p, boxes_q[0], boxes_k[0])
        p.end()

    def _paint_sides(self, p: QPainter, first_q: QRectF, first_k: QRectF) -> None:
        """Which side holds the queries and which the keys."""
        p.setFont(weighted(self.font_(), bold=True))
        p.setPen(self.palette().placeholderText().color())
        fm = QFontMetricsF(p.font())
        for text, box in ((tr("query"), first_q), (tr("key"), first_k)):
            if self.view.horizontal():
                p.drawText(QRectF(12, box.top(), self.gutter() - 8, box.height()), Qt.AlignLeft | Qt.AlignVCenter, text)
            else:
                p.drawText(QRectF(box.left(), box.top() - fm.height() * 1.4, box.width(), fm.height() * 1.2),
                           Qt.AlignCenter, text)

    def _accent(self) -> QColor:
        return QColor(0, 114, 178)

    def _paint_tokens(self, p: QPainter, tokens, boxes_q, boxes_k) -> None:
        view = self.view
        font = self.font_()
        query = view.query()
        hidden = view.hidden_keys()
        mask = colormaps.mask_look(self.palette().base().color())
        text = self.palette().text().color()
        for j, box in enumerate(boxes_k):
            if j in hidden:  # the keys this query may not see: the heatmap's hatching
                region = QPainterPath()
                region.addRect(box.adjusted(2, 2, -2, -2))
                p.fillRect(box.adjusted(2, 2, -2, -2), mask.fill)
                p.fillPath(hatch(region, box, 6, 1), mask.hatch)
        turned = bool(boxes_q) and self.turned(boxes_q[0].width())
        if not view.horizontal() and boxes_q and QFontMetricsF(font).height() > boxes_q[0].height():
            font = QFont(font)  # many tokens in a column: smaller type, never overlapping lines
            font.setPixelSize(max(6, int(boxes_q[0].height() * 0.8)))
        for side, boxes in ((0, boxes_q), (1, boxes_k)):
            for i, (token, box) in enumerate(zip(tokens, boxes)):
                chosen = side == 0 and i == query
                p.setFont(weighted(font, bold=chosen))
                p.setPen(mask.text if side == 1 and i in hidden else text)
                if turned:
                    p.save()
                    p.translate(box.center())
                    p.rotate(-90)
                    p.drawText(QRectF(-box.height() / 2, -box.width() / 2, box.height(), box.width()),
                               (Qt.AlignRight if side == 0 else Qt.AlignLeft) | Qt.AlignVCenter, token)
                    p.restore()
                    continue
                align = Qt.AlignCenter if view.horizontal() else (Qt.AlignRight if side == 0 else Qt.AlignLeft) | \
                    Qt.AlignVCenter
                p.drawText(box.adjusted(4, 0, -4, 0), align, token)

    def mousePressEvent(self, event):
        tokens = self.view.tokens()
        _, _, boxes_q, _ = self.anchors(len(tokens))
        for i, box in enumerate(boxes_q):
            if box.contains(event.position()):
                self.view.document.select(query=i)
                return


class LinesView(Presenting, MathView):
    """The lines view's controls above its canvas; redrawn when shown and after a change."""

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self.setObjectName("linesView")
        self.which = QComboBox(objectName="linesQueries")
        self.all_heads = QCheckBox(objectName="linesAllHeads")
        self.layout_choice = QComboBox(objectName="linesLayout")
        self.legend = QLabel(objectName="linesLegend", wordWrap=True, textFormat=Qt.RichText)
        self.canvas = LinesCanvas(self)
        top = QHBoxLayout()
        for widget in (self.which, self.all_heads, self.layout_choice):
            widget.setSizePolicy(QSizePolicy.Minimum, QSizePolicy.Fixed)  # never cut short
            top.addWidget(widget)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.legend)
        layout.addWidget(self.canvas, 1)
        for signal in (self.which.currentIndexChanged, self.all_heads.toggled, self.layout_choice.currentIndexChanged):
            signal.connect(self.schedule_now)
        self._layout_chosen = False
        self.layout_choice.activated.connect(lambda _: setattr(self, "_layout_chosen", True))
        self.retranslate()

    def schedule_now(self, *_):
        self._stale = True
        self.sync() if self.isVisible() else None

    def retranslate(self):
        for combo, texts in ((self.which, (tr("The selected query"), tr("Every query"))),
                             (self.layout_choice, (tr("Side by side (two columns)"), tr("In rows, left to right")))):
            index = max(0, combo.currentIndex())
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(list(texts))
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
        self.all_heads.setText(tr("Every head, by colour"))
        self._stale = True

    # ------------------------------------------------------------- what is drawn

    def tokens(self) -> list[str]:
        return list(self.document.scenario.tokens)

    def query(self) -> int:
        return self.document.query

    def heads(self) -> list[int]:
        d = self.document
        return list(range(len(d.scenario.heads))) if self.all_heads.isChecked() else [d.active_head]

    def horizontal(self) -> bool:
        return self.layout_choice.currentIndex() == 1

    def hidden_keys(self) -> set[int]:
        """The keys the selected query may not see (in the active head); none when every query's
        lines are drawn (each row has its own)."""
        d = self.document
        if self.which.currentIndex() == 1:
            return set()
        return set(np.flatnonzero(np.isneginf(d.result.heads[d.active_head].masked[d.query])).tolist())

    def lines(self) -> list[Line]:
        d = self.document
        traces = d.result.heads
        return lines([t.weights for t in traces], [hidden_cells(t) for t in traces], self.heads(),
                     None if self.which.currentIndex() == 1 else d.query)

    def refresh(self):
        d = self.document
        if not self._layout_chosen:  # Japanese reads in rows; the user's own choice stays
            self.layout_choice.blockSignals(True)
            self.layout_choice.setCurrentIndex(1 if is_cjk(d.scenario.tokens) else 0)
            self.layout_choice.blockSignals(False)
        heads = self.heads()
        if len(heads) > 1:
            names = [f'<span style="color:{HEAD_COLOURS[h % len(HEAD_COLOURS)].name()}">■</span> '
                     f"{html.escape(head_label(d.scenario, h))}" for h in heads]
            self.legend.setText("  ".join(names))
        else:
            self.legend.setText(tr("A line's width and opacity are the weight (lines under {0} are left out); "
                                   "a masked pair has no line.").format(SHOWN_FROM))
        self.canvas.update()
