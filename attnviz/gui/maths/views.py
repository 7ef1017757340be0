"""See the maths (seed 003): √d_k, softmax and its max subtraction, attention as a kernel,
and before / after an edit. Each view draws what attnviz.core.explorers computes.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6.QtCore import QEvent, QRectF, Qt, QTime
from PySide6.QtGui import QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.compute import hidden
from ...core.explain import fmt
from ...core.explorers import ScaleDemo, linear_attention_weights, softmax_steps, sqrt_dk_demo
from ..common.i18n import head_label, tr
from ..common.lazy import MathView
from ..common.markup import MathLabel
from ..heads.heatmap import HeatmapData, HeatmapPainter, paint_colorbar
from ..look import colormaps
from ..look.fonts import figure_font, figure_font_like, weighted
from .sizing import Presenting, exponents, least_pixels, plot_title, style_plot

BAR_WIDTH_EMS = 4.5  # a colour bar and its tick labels, in lines of the widget's type
PRESENTED_VALUES = 0.45  # presenting, a value's type as a share of its cell (the desk's 0.36 gives 16 px in 45)
PRESENTED_TALL = 1.5  # presenting, the kernel's cells may be this much taller than wide: its three maps use the height


class Heatmaps(QWidget):
    """Several heatmaps side by side (or in rows), each under its caption, in one paint. The captions
    wrap (never cut short); presenting, a map whose cells are too small for readable numbers shows its
    colours only (the colour bar says what they mean)."""

    def __init__(self, columns: int, parent=None):
        super().__init__(parent)
        self.columns = columns
        self.items: list[tuple[HeatmapData, HeatmapPainter]] = []
        self.least_value_pixels = 0  # presenting: numbers smaller than this are left out
        self.stacked_bars = False  # the colour bars one above the other, in one bar's width: room for the maps
        self._quiet: dict[int, HeatmapPainter] = {}
        self.setMinimumHeight(160)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def show_maps(self, items):
        self.items = items
        self._quiet = {}
        self.update()

    def bars(self) -> list[HeatmapPainter]:
        """One colour bar per kind of map shown: the weights' 0–1, and a difference's ±reach."""
        found = {}
        for _, painter in self.items:
            found.setdefault((painter.signed, painter.reach if painter.signed else None), painter)
        return list(found.values())

    def bar_columns(self) -> int:
        return min(1, len(self.bars())) if self.stacked_bars else len(self.bars())

    def bar_rect(self, index: int) -> QRectF:
        width = BAR_WIDTH_EMS * QFontMetricsF(self.font()).height()
        if self.stacked_bars:
            height = self.height() / max(1, len(self.bars()))
            return QRectF(self.width() - width, index * height + 2, width - 4, height - 4)
        return QRectF(self.width() - (len(self.bars()) - index) * width, 2, width - 4, self.height() - 4)

    def cell_rect(self, index: int) -> QRectF:
        """The room of the index-th map and its caption."""
        rows = max(1, -(-len(self.items) // self.columns))
        room = self.width() - self.bar_columns() * BAR_WIDTH_EMS * QFontMetricsF(self.font()).height()
        w, h = room / self.columns, self.height() / rows
        return QRectF((index % self.columns) * w + 2, (index // self.columns) * h + 2, w - 4, h - 4)

    def caption_font(self) -> QFont:
        return weighted(figure_font_like(self.font()), bold=True)

    def caption_height(self) -> float:
        """As high as the longest caption wrapped in its map's width: every caption whole, the maps aligned."""
        if not self.items:
            return 0.0
        fm = QFontMetricsF(self.caption_font())
        width = self.cell_rect(0).width()
        return max(fm.boundingRect(QRectF(0, 0, width, 10_000), CAPTION_FLAGS, data.title).height()
                   for data, _ in self.items) + fm.height() * 0.2

    def caption_rect(self, index: int) -> QRectF:
        cell = self.cell_rect(index)
        return QRectF(cell.left(), cell.top(), cell.width(), self.caption_height())

    def rect_of(self, index: int) -> QRectF:
        cell = self.cell_rect(index)
        return cell.adjusted(0, self.caption_height(), 0, 0)

    def painter_for(self, index: int) -> HeatmapPainter:
        """The map's painter, or one without numbers where they would be smaller than readable."""
        data, painter = self.items[index]
        if not self.least_value_pixels or not painter.show_values:
            return painter
        g = painter.geometry(self.rect_of(index), replace(data, title=""))
        if g.value_font is not None and g.value_font.pixelSize() >= self.least_value_pixels and \
                QFontMetricsF(g.value_font).horizontalAdvance(widest_value(painter)) <= g.cell_w * 0.95:
            return painter
        if id(painter) not in self._quiet:
            self._quiet[id(painter)] = HeatmapPainter(painter.colormap, painter.font, show_values=False,
                                                      background=painter.background, foreground=painter.foreground,
                                                      signed=painter.signed, reach=painter.reach,
                                                      max_tall=painter.max_tall)
        return self._quiet[id(painter)]

    def paintEvent(self, event):
        p = QPainter(self)
        p.setFont(self.caption_font())
        for i, (data, painter) in enumerate(self.items):
            p.setPen(painter.foreground)
            p.drawText(self.caption_rect(i), CAPTION_FLAGS, data.title)
            self.painter_for(i).paint(p, self.rect_of(i), replace(data, title=""))
        for i, painter in enumerate(self.bars()):
            paint_colorbar(p, self.bar_rect(i), painter.colormap, painter.font, painter.foreground, painter.background,
                           mask_kind=None, reach=painter.reach if painter.signed else None,
                           title=tr("difference") if painter.signed else None)
        p.end()


CAPTION_FLAGS = Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap


def widest_value(painter: HeatmapPainter) -> str:
    """The widest number a map of this painter writes in a cell."""
    return ("+" if painter.signed else "") + "0." + "0" * painter.decimals


def _painter(signed=False, widget=None, reach=1.0, view=None, tall=1.0):
    """Weights on the colour map and scale of `view` (the window's view state), differences on
    the diverging map; in the widget's type (the application's, or presentation-sized); cells up to
    `tall` times taller than wide."""
    font = figure_font_like(widget.font()) if widget is not None else figure_font()
    palette = widget.palette() if widget is not None else None
    colormap = colormaps.get("difference") if signed else \
        colormaps.get(view.colormap, view.scale) if view is not None else colormaps.get()
    share = PRESENTED_VALUES if getattr(widget, "presenting", False) and not signed else 0.36  # "+0.05" is wider
    return HeatmapPainter(colormap, font, signed=signed, reach=reach, value_share=share, max_tall=tall,
                          background=palette.window().color() if palette else None,
                          foreground=palette.windowText().color() if palette else None)


# ---------------------------------------------------------------- √d_k

class SqrtDkExplorer(Presenting, MathView):
    """Random q and k of growing d_k, with and without ÷√d_k, side by side (§4.1)."""

    reads_document = False  # its own random q and k: only the seed changes them

    def __init__(self, document, view=None, parent=None):
        super().__init__(document, parent, view)
        self.setObjectName("sqrtExplorer")
        self.explanation = MathLabel()
        self.seed_name = QLabel()
        self.seed = QSpinBox(objectName="sqrtSeed")
        self.seed.setRange(0, 9999)
        self.seed.valueChanged.connect(lambda _: self.refresh())
        self.maps = Heatmaps(4)
        top = QHBoxLayout()
        top.addWidget(self.explanation, 1)
        top.addWidget(self.seed_name)
        top.addWidget(self.seed)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.maps, 1)
        self.retranslate()

    def presentation_changed(self):
        self.maps.least_value_pixels = least_pixels(self) if self.presenting else 0
        self._restyle()  # its maps' painters: larger numbers presenting

    def retranslate(self):
        self.explanation.setText(tr(
            "Random q and k with unit variance. q·k spreads like √d_k, so without ÷√d_k (bottom row) "
            "softmax saturates: each row puts almost all its weight on one key. With it (top row) the "
            "rows stay spread at any d_k."))
        self.seed_name.setText(tr("Random seed"))
        self.seed.setToolTip(tr("Another seed draws other random q and k"))

    def demos(self) -> list[ScaleDemo]:
        return sqrt_dk_demo(seed=self.seed.value())

    def refresh(self):
        items = []
        demos = self.demos()
        painter = _painter(widget=self, view=self.view)
        for scaled in (True, False):  # the top row divided by √d_k, the bottom row not
            for demo in demos:
                w = demo.scaled if scaled else demo.unscaled
                caption = (tr("dₖ = {0}, ÷√dₖ: largest weight {1}") if scaled else
                           tr("dₖ = {0}, no ÷√dₖ: largest weight {1}"))
                caption = caption.format(demo.d_k, fmt(ScaleDemo.peak(w), 2, fixed=True))
                tokens = tuple(str(i + 1) for i in range(len(w)))
                items.append((HeatmapData(tokens, w, np.zeros_like(w, dtype=bool), caption), painter))
        self.maps.show_maps(items)


# ---------------------------------------------------------------- softmax

class SoftmaxView(Presenting, MathView):
    """The selected row's scores and weights, and softmax done with and without the max subtraction.
    Presenting, the bars go side by side above the table, which takes the whole width."""

    FACTORS = (1, 10, 100, 1000)

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self.setObjectName("softmaxView")
        self.explanation = MathLabel()
        self.factor_name = QLabel()
        self.factor = QComboBox(objectName="softmaxFactor")
        self.factor.addItems([f"× {f}" for f in self.FACTORS])
        self.factor.currentIndexChanged.connect(lambda _: self.refresh())
        self.plots = SoftmaxBars()
        self.table = QTableWidget(objectName="softmaxTable")
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.verdict = QLabel(objectName="softmaxVerdict", wordWrap=True)
        self.formula = MathLabel(objectName="softmaxFormula")
        top = QHBoxLayout()
        top.addWidget(self.explanation, 1)
        top.addWidget(self.factor_name)
        top.addWidget(self.factor)
        self.body = QBoxLayout(QBoxLayout.LeftToRight)
        self.body.addWidget(self.plots, 2)
        self.body.addWidget(self.table, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.formula)
        layout.addLayout(self.body, 1)
        layout.addWidget(self.verdict)
        self.retranslate()

    def presentation_changed(self):
        self.body.setDirection(QBoxLayout.TopToBottom if self.presenting else QBoxLayout.LeftToRight)
        self.plots.side_by_side(self.presenting)
        self._fit_table()

    def _fit_table(self):
        """Rows as high as the type; presenting, the whole table in view under the bars, as wide as the screen."""
        table = self.table
        table.resizeColumnsToContents()
        table.resizeRowsToContents()
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Stretch if self.presenting else QHeaderView.Interactive)
        if self.presenting:
            rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
            table.setFixedHeight(rows + header.sizeHint().height() + 2 * table.frameWidth() + 2)
        else:
            table.setMinimumHeight(0)
            table.setMaximumHeight(16_777_215)  # QWIDGETSIZE_MAX: the desk's splitter decides

    def retranslate(self):
        self.explanation.setText(exponents(tr(
            "softmax(x) = eˣ / Σ eˣ. Before taking eˣ, AttnViz subtracts the largest score from every score: "
            "the result is the same, but eˣ can no longer overflow. Multiply the scores to see why.")))
        self.factor_name.setText(tr("Scores ×"))
        self.factor.setToolTip(tr("Multiply this row's scores, e.g. by 1000, to see eˣ overflow"))

    def steps(self):
        d = self.document
        trace = d.result.heads[d.active_head]
        return softmax_steps(trace.masked[d.query] * self.FACTORS[self.factor.currentIndex()])

    def refresh(self):
        d = self.document
        self.plots.setVisible(not d.scenario.weights_only)
        self.table.setVisible(not d.scenario.weights_only)
        self.factor.setVisible(not d.scenario.weights_only)
        if d.scenario.weights_only:
            self.formula.setText("")
            self.verdict.setText(tr("This file holds the model's weights only: there are no scores to put "
                                    "through softmax."))
            return
        steps = self.steps()
        self.plots.show_row(d.scenario.tokens, steps, self.font())
        headers = [tr("key"), "x", "x − max", "eˣ⁻ᵐᵃˣ", tr("weight"), tr("eˣ without − max"),
                   tr("weight without − max")]
        t = d.scenario.settings.temperature
        self.formula.setText(tr("x = q·k / √d_k / T with T = {0}, × {1}: the scores softmax receives").format(
            fmt(t, 2), self.FACTORS[self.factor.currentIndex()]))
        columns = (steps.x, steps.shifted, steps.exp_shifted, steps.weights, steps.exp_naive, steps.naive)
        self.table.setColumnCount(len(headers))
        self.table.setRowCount(d.scenario.n)
        self.table.setHorizontalHeaderLabels(headers)
        for j, token in enumerate(d.scenario.tokens):
            self.table.setItem(j, 0, QTableWidgetItem(token))
            for c, values in enumerate(columns, start=1):
                self.table.setItem(j, c, _number_item(values[j]))
        self._fit_table()
        if steps.overflows:
            self.verdict.setText(tr("Without subtracting the max, eˣ overflows to ∞ and ∞ / ∞ gives NaN: "
                                    "the weights are lost. With it, the largest term is e⁰ = 1 and "
                                    "the weights come out right."))
        else:
            self.verdict.setText(tr("Both ways give the same weights here: the scores are small enough "
                                    "for eˣ. Multiply them by 1000 to see the difference."))


def _number_item(x: float) -> QTableWidgetItem:
    text = "NaN" if np.isnan(x) else fmt(x, 3, fixed=True)
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
    if not np.isfinite(x) and not (np.isneginf(x)):
        item.setForeground(Qt.red)
    return item


class SoftmaxBars(QWidget):
    """Two bar charts, pyqtgraph: the row's scores (masked ones left out) and its weights; one above
    the other on the desk, side by side presenting."""

    def __init__(self, parent=None):
        super().__init__(parent)
        import pyqtgraph as pg  # only when the view is first made, not at start-up

        from .geometry import quiet_plot  # geometry imports pyqtgraph too
        self.pg = pg
        self.scores = quiet_plot(pg)
        self.weights = quiet_plot(pg)
        self.weights.setYRange(0, 1)
        self._colour_plots()
        self.layout_ = QBoxLayout(QBoxLayout.TopToBottom, self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.addWidget(self.scores)
        self.layout_.addWidget(self.weights)
        self.setMinimumWidth(240)

    def side_by_side(self, on: bool) -> None:
        self.layout_.setDirection(QBoxLayout.LeftToRight if on else QBoxLayout.TopToBottom)

    def changeEvent(self, event):
        if event.type() == QEvent.PaletteChange:
            self._colour_plots()
        super().changeEvent(event)

    def _colour_plots(self):
        from .geometry import follow_palette  # with pyqtgraph, loaded when the view is first made
        for plot in (self.scores, self.weights):
            follow_palette(plot, self.palette())

    def show_row(self, tokens, steps, font: QFont):
        pg = self.pg
        visible = np.isfinite(steps.x)
        x = np.arange(len(tokens))[visible]  # masked keys (−∞) get no bar, not a bar of 0
        ticks = [[(j, t if visible[j] else f"{t}\n(−∞)") for j, t in enumerate(tokens)]]
        for plot, values, title in ((self.scores, steps.x[visible], tr("scores x")),
                                    (self.weights, steps.weights[visible], tr("weights"))):
            plot.clear()
            plot.addItem(pg.BarGraphItem(x=x, height=values, width=0.7, brush=(68, 1, 84) if plot is self.scores
                                         else (33, 145, 140)))
            plot.getAxis("bottom").setTicks(ticks)
            style_plot(plot, font, tick_lines=1 if visible.all() else 2)
            plot_title(plot, title, font)


# ---------------------------------------------------------------- kernel

class KernelView(Presenting, MathView):
    """Softmax attention beside linear attention with φ(x) = elu(x) + 1, and their difference (§4.4)."""

    def __init__(self, document, view=None, parent=None):
        super().__init__(document, parent, view)
        self.setObjectName("kernelView")
        self.explanation = MathLabel()
        self.maps = Heatmaps(3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.explanation)
        layout.addWidget(self.maps, 1)
        self.retranslate()

    def presentation_changed(self):
        # Three maps side by side leave a third of the width each: presenting, their colour bars share one
        # column and their cells grow taller, so that 13 tokens' labels stay readable and the maps fill the screen.
        self.maps.least_value_pixels = least_pixels(self) if self.presenting else 0
        self.maps.stacked_bars = self.presenting
        self._restyle()  # its maps' painters: larger numbers presenting

    def retranslate(self):
        self.explanation.setText(tr(
            "Attention is a kernel smoother: each row averages the v's with weights from a kernel of q and "
            "k. Softmax uses exp(q·k / √d_k); linear attention uses φ(q)·φ(k) with φ(x) = elu(x) + 1, "
            "normalised per row, which can be computed in time linear in the length."))

    def weights(self):
        """(softmax, linear, linear − softmax) for the active head, with its mask."""
        d = self.document
        head, trace = d.scenario.heads[d.active_head], d.result.heads[d.active_head]
        linear = linear_attention_weights(head.q, head.k, ~hidden(trace))
        return trace.weights, linear, linear - trace.weights

    def refresh(self):
        d = self.document
        tokens = d.scenario.tokens
        if d.scenario.weights_only:
            self.explanation.setText(tr("This file holds the model's weights only: linear attention needs q and k."))
            self.maps.show_maps([])
            return
        self.retranslate()
        softmax_w, linear_w, difference = self.weights()
        masked = hidden(d.result.heads[d.active_head])
        reach = max(0.05, float(np.abs(difference).max()))
        label = head_label(d.scenario, d.active_head)
        tall = PRESENTED_TALL if self.presenting else 1.0
        painter = _painter(widget=self, view=self.view, tall=tall)
        self.maps.show_maps([
            (HeatmapData(tokens, softmax_w, masked, tr("softmax: {0}").format(label), d.query), painter),
            (HeatmapData(tokens, linear_w, masked, tr("linear, φ = elu + 1"), d.query), painter),
            (HeatmapData(tokens, difference / reach, masked, tr("linear − softmax (scale ±{0})").format(fmt(reach, 2)),
                         d.query), _painter(signed=True, widget=self, reach=reach, tall=tall)),
        ])


# ---------------------------------------------------------------- before / after

class DiffView(Presenting, MathView):
    """Pin the weights, edit, and see after − before for every head. Shown with nothing pinned, it pins
    the weights there and then: a teacher who presses 8 sees every head's map (all 0) at once, not an
    empty screen with a button."""

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self.setObjectName("diffView")
        self.pinned: list[np.ndarray] | None = None
        self.pinned_tokens = None
        self.pinned_at = ""  # the time of day, as the note says it
        self.pinned_automatically = False
        self.explanation = MathLabel()
        self.note = QLabel(objectName="pinnedNote", wordWrap=True)
        self.pin = QPushButton(objectName="pinButton")
        self.pin.clicked.connect(self.pin_weights)
        self.maps = Heatmaps(4)
        top = QHBoxLayout()
        top.addWidget(self.explanation, 1)
        top.addWidget(self.pin)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(self.maps, 1)
        document.replaced.connect(self.unpin)
        self.retranslate()

    def presentation_changed(self):
        self.maps.least_value_pixels = least_pixels(self) if self.presenting else 0
        self._restyle()  # its maps' painters: larger numbers presenting

    def retranslate(self):
        self.pin.setText(tr("Pin the weights now") if self.pinned is None else tr("Pin the weights again"))
        self.pin.setToolTip(tr("Remember every head's weights; after your edits, each cell shows after − before"))
        # The colours of the "difference" map (colormaps.py): blue below 0, brown above.
        self.explanation.setText(tr("Pin, then edit: blue cells lost weight, brown ones gained it."))
        self.note.setText(self.pinned_text())
        self.note.setVisible(self.pinned is not None)

    def pinned_text(self) -> str:
        """When the weights were pinned, and what: the line under the explanation."""
        if self.pinned is None:
            return ""
        text = tr("Pinned automatically at {0}, when this view was shown: the weights of {1} heads, {2} tokens.") \
            if self.pinned_automatically else tr("Pinned at {0}: the weights of {1} heads, {2} tokens.")
        return text.format(self.pinned_at, len(self.pinned), len(self.pinned_tokens))

    def pin_weights(self):
        self._pin(automatically=False)
        self._stale = True
        self.sync()

    def _pin(self, automatically: bool) -> None:
        self.pinned = [np.array(w) for w in self.document.result.weights()]
        self.pinned_tokens = self.document.scenario.tokens
        self.pinned_at = QTime.currentTime().toString("HH:mm:ss")
        self.pinned_automatically = automatically

    def unpin(self):
        self.pinned = None
        self.retranslate()

    def differences(self) -> list[np.ndarray] | None:
        """after − before for each head, or None when nothing is pinned or the tokens changed
        in number (a renamed token still compares)."""
        d = self.document
        if self.pinned is None or len(self.pinned_tokens) != d.scenario.n or \
                len(self.pinned) != len(d.scenario.heads):
            return None
        return [after - before for after, before in zip(d.result.weights(), self.pinned)]

    def refresh(self):
        d = self.document
        if self.pinned is None:  # shown (refresh runs only then) with nothing pinned: pin what it shows now
            self._pin(automatically=True)
        differences = self.differences()
        if differences is None:
            self.maps.show_maps([])
            self.explanation.setText(tr("The tokens changed since the weights were pinned: pin them again."))
            return
        self.retranslate()
        # One symmetric scale for every head, as large as the largest change: small changes
        # stay visible; the caption says what the ends of the scale are.
        reach = max(0.05, max(float(np.abs(diff).max()) for diff in differences))
        self.explanation.setText(self.explanation.text() + " " + tr("Scale: ±{0}.").format(fmt(reach, 2)))
        painter = _painter(signed=True, widget=self, reach=reach)
        items = []
        for i, difference in enumerate(differences):
            masked = hidden(d.result.heads[i])
            items.append((HeatmapData(d.scenario.tokens, difference / reach, masked,
                                      tr("{0}: after − before").format(head_label(d.scenario, i))), painter))
        self.maps.columns = max(1, min(4, len(items)))
        self.maps.show_maps(items)
