"""A whole model at a glance: every layer × head as a thumbnail, their statistics, the means
and attention rollout (View → Overview; `attnviz export FILE --overview`).

OverviewFigure paints the grid on any QPainter (the window's view and PNG/SVG/PDF files draw
the same); OverviewDialog gathers the layers off the GUI thread, one at a time, and shows the
grid, a sortable table of head statistics, and the summaries with their formulas.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRectF, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QTableWidget,
    QTabWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ...core.explain import fmt
from ...core.research.head_types import head_types
from ...core.scenario import ScenarioError
from ...core.summary import (
    MAX_ROLLOUT,
    STATISTICS,
    STATS,
    ModelSummary,
    check_work,
    layer_weights,
    rollout_fits,
    summarise,
)
from ..common.background import BackgroundDialog
from ..common.cells import NumberItem
from ..common.i18n import Retranslated, describe, tr
from ..export.figure import BACKGROUND, COLORBAR_WIDTH, FOREGROUND, MARGIN
from ..export.files import export_figure
from ..heads.heatmap import HeatmapData, HeatmapPainter, _argb, coloured, paint_colorbar, pixel_image
from ..look import colormaps
from ..look.fonts import figure_font, figure_font_like, presented, weighted
from ..maths.sizing import fit_children, pixels
from ..research.dialog import type_name

THUMB = 56            # a thumbnail's side, in logical pixels (presenting, as large as the screen allows)
PRESENTED_THUMB = 36  # presenting, smaller still rather than scroll: a whole model on one screen
MOST_BLOCKS = 6       # presenting, the layers' blocks side by side tried at most
GAP = 6               # between thumbnails
GROUP_GAP = 10        # more between groups of heads sharing K and V
FONT_PX = 13          # exported files; the window's overview follows the interface's type
ACTIVE = QColor(230, 90, 0)      # the head shown in the window
ALIKE = QColor(0, 150, 220)      # "find heads like this one"
ZERO = QColor(236, 228, 212)     # a weight of exactly 0 (the mask's light fill)
BADGE = QColor(120, 40, 140)     # a head type's tag


CAPTION_FLAGS = Qt.AlignLeft | Qt.AlignVCenter | Qt.TextWordWrap


def stat_names() -> dict[str, str]:
    return {stat.key: tr(stat.label) for stat in STATISTICS}


class OverviewFigure:
    """Layers down, heads across; one colour scale; K/V groups set apart and named."""

    def __init__(self, summary: ModelSummary, title: str = "", groups: list[int] | None = None,
                 caption: bool = True, colormap: colormaps.ColorMap | None = None):
        self.summary, self.title, self.groups, self.caption = summary, title, groups, caption
        self.colormap = colormap or colormaps.get()
        self.font = figure_font(pixel_size=FONT_PX)
        self.overlay: str | None = None          # a statistic written on every thumbnail, or "pair"
        self.pair = (0, 0)                       # the overlay "pair": the weight from this query to this key
        self.active: tuple[int, int] | None = None
        self.alike: list[tuple[int, int]] = []
        self.badges: dict[tuple[int, int], list[str]] = {}  # a real model's head types (core/research/head_types)
        self._blocks = None                      # ((layers, caption, thumb), (blocks, layers in each)), worked out once
        self.thumb = THUMB                       # a thumbnail's side
        self.blocks: int | None = None           # presenting: the blocks fit_thumbnails chose (None: _layout's own)
        self.recolour()

    def set_font_pixels(self, pixels: int) -> None:
        """The labels' and caption's type (the window's, or presentation-sized); the layout follows."""
        self.font = figure_font(pixel_size=pixels)
        self._blocks = None

    def fit_thumbnails(self, width: float, height: float) -> None:
        """The largest thumbnails with which the whole figure fits `width` × `height`, in type of the same
        size (a zoom would enlarge the type too): two heads take half the screen each. The layers' blocks
        are as many as make the thumbnails largest; a model too large for that even at PRESENTED_THUMB
        keeps THUMB and the desk's blocks, and scrolls (30 layers × 9 heads fit 1920 × 1080 in three blocks)."""
        best = None
        for blocks in range(1, min(self.summary.layers, MOST_BLOCKS) + 1):
            self.blocks = blocks
            thumb = self._largest_thumb(PRESENTED_THUMB, width, height)
            if thumb is not None and (best is None or thumb > best[1]):
                best = (blocks, thumb)
        self.blocks, self.thumb = (None, THUMB) if best is None else best

    def _fits(self, width: float, height: float) -> bool:
        size = self.size()
        return size.width() <= width and size.height() <= height

    def _largest_thumb(self, least: int, width: float, height: float) -> int | None:
        """The largest thumbnail side from `least` up that fits (the layout's blocks as they are), or None."""
        self.thumb = least
        if not self._fits(width, height):
            return None
        low, high = least, max(least, int(max(width, height)))
        while low < high:  # the figure grows with its thumbnails: the largest that fits, by halving
            middle = (low + high + 1) // 2
            self.thumb = middle
            low, high = (middle, high) if self._fits(width, height) else (low, middle - 1)
        return low

    def recolour(self) -> None:
        """The thumbnails' pixels, on the colour map's scale."""
        self._images = [[self._image(t) for t in layer] for layer in self.summary.thumbnails]

    def _image(self, thumbnail: np.ndarray) -> tuple[QImage, np.ndarray]:
        pixels = coloured(self.colormap, self.colormap.places(np.clip(thumbnail, 0, 1)))
        pixels[thumbnail == 0] = _argb(ZERO)
        return pixel_image(pixels), pixels  # the array keeps the image valid

    # ------------------------------------------------------------- layout
    # Layers run down in blocks set side by side when there are many of them, so that the grid is
    # about as tall as it is wide whatever the number of layers: 256 layers of one head make a
    # square of 16 blocks, not a strip 16,000 pixels tall (an exported PNG stays width × width).

    def _label_width(self) -> float:
        return QFontMetricsF(self.font).horizontalAdvance(tr("layer {0}").format(888)) + GAP

    def _block_width(self) -> float:
        heads = self.summary.heads
        groups = self.groups[heads - 1] if self.groups else 0
        return self._label_width() + heads * (self.thumb + GAP) + groups * GROUP_GAP + GROUP_GAP

    def _bar_width(self) -> float:
        """The colour bar with its ticks, wider when the type is larger (presenting)."""
        return max(COLORBAR_WIDTH, 4.5 * QFontMetricsF(self.font).height())

    def _top(self) -> float:
        fm = QFontMetricsF(self.font)
        return MARGIN + fm.height() * (2.6 if self.groups else 1.4)

    def _caption_height(self, width: float) -> float:
        """Two lines and a bit, or as many as the caption takes wrapped in `width`: never cut short."""
        if not self.caption:
            return 0.0
        fm = QFontMetricsF(self.font)
        wrapped = fm.boundingRect(QRectF(0, 0, max(1.0, width - 2 * MARGIN), 1e6), CAPTION_FLAGS, self.caption_text())
        return max(fm.height() * 2.4, wrapped.height() + fm.height() * 0.4)

    def _layout(self) -> tuple[int, int]:
        """(blocks side by side, layers in each): as fit_thumbnails chose them presenting, else the fewest
        blocks whose grid is no taller than wide."""
        layers = max(1, self.summary.layers)
        if self.blocks is not None:
            return self.blocks, -(-layers // self.blocks)
        if self._blocks is None or self._blocks[0] != (layers, self.caption, self.thumb):  # (the font: set_font_pixels)
            blocks = 1
            while blocks < layers and self._size_of(blocks, -(-layers // blocks)).height() > \
                    self._size_of(blocks, -(-layers // blocks)).width():
                blocks += 1
            self._blocks = ((layers, self.caption, self.thumb), (blocks, -(-layers // blocks)))
        return self._blocks[1]

    def _size_of(self, blocks: int, rows: int) -> QSizeF:
        width = MARGIN + blocks * self._block_width() + self._bar_width() + MARGIN
        body = max(rows * (self.thumb + GAP), 5 * THUMB)  # (5 THUMB: the colour bar's least height)
        return QSizeF(width, self._top() + body + self._caption_height(width) + MARGIN)

    def _x(self, head: int, block: int = 0) -> float:
        group = self.groups[head] if self.groups else 0
        return MARGIN + block * self._block_width() + self._label_width() + head * (self.thumb + GAP) + \
            group * GROUP_GAP

    def thumb_rect(self, layer: int, head: int) -> QRectF:
        block, row = divmod(layer, self._layout()[1])
        return QRectF(self._x(head, block), self._top() + row * (self.thumb + GAP), self.thumb, self.thumb)

    def size(self) -> QSizeF:
        return self._size_of(*self._layout())

    def at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (layer, head) whose thumbnail is at (x, y) in figure coordinates."""
        blocks, rows = self._layout()
        block, row = int((x - MARGIN) // self._block_width()), int((y - self._top()) // (self.thumb + GAP))
        layer = block * rows + row
        if not (0 <= block < blocks and 0 <= row < rows and layer < self.summary.layers):
            return None
        return next(((layer, head) for head in range(self.summary.heads)
                     if self.thumb_rect(layer, head).contains(x, y)), None)

    def caption_text(self) -> str:
        s = self.summary
        template = tr("{0}: {1} layers × {2} heads, {3} tokens; one colour scale for every head") if s.layers != 1 \
            else tr("{0}: one layer × {2} heads, {3} tokens; one colour scale for every head")
        text = template.format(self.title or tr("Overview"), s.layers, s.heads, len(s.tokens))
        if self.colormap.scale != "linear":
            text += " · " + tr(colormaps.SCALES[self.colormap.scale])
        if self.overlay == "pair":
            q, k = self.pair
            tokens = self.summary.tokens
            text += " · " + tr("numbers: the weight from {0} to {1}").format(tokens[q], tokens[k])
        elif self.overlay:
            text += " · " + tr("numbers: {0}").format(stat_names()[self.overlay])
        return text

    # ------------------------------------------------------------- painting

    def paint(self, p: QPainter, vector: bool = False) -> None:
        size = self.size()
        p.fillRect(QRectF(0, 0, size.width(), size.height()), BACKGROUND)
        p.setFont(self.font)
        p.setPen(FOREGROUND)
        self._paint_labels(p)
        p.save()
        p.setRenderHint(QPainter.SmoothPixmapTransform, False)
        p.setRenderHint(QPainter.LosslessImageRendering, True)
        for layer, images in enumerate(self._images):
            for head, (image, _) in enumerate(images):
                p.drawImage(self.thumb_rect(layer, head), image)
        p.restore()
        if self.overlay:
            self._paint_overlay(p)
        self._paint_marks(p)
        self._paint_badges(p)
        blocks, rows = self._layout()
        bar = QRectF(MARGIN + blocks * self._block_width() + GAP, self._top(), self._bar_width() - MARGIN,
                     max(5 * THUMB, min(rows * (self.thumb + GAP), 10 * self.thumb)))
        paint_colorbar(p, bar, self.colormap, self.font, FOREGROUND, BACKGROUND, mask_kind=None)
        if self.caption:
            p.setFont(self.font)
            p.setPen(FOREGROUND)
            p.drawText(self.caption_rect(), CAPTION_FLAGS, self.caption_text())

    def caption_rect(self) -> QRectF:
        size = self.size()
        height = self._caption_height(size.width())
        return QRectF(MARGIN, size.height() - MARGIN - height, size.width() - 2 * MARGIN, height)

    def _paint_labels(self, p: QPainter) -> None:
        fm = QFontMetricsF(self.font)
        top = self._top() - fm.height() * 1.3
        blocks, rows = self._layout()
        for block in range(blocks):
            for head in range(self.summary.heads):
                p.drawText(QRectF(self._x(head, block), top, self.thumb, fm.height() * 1.2), Qt.AlignCenter,
                           tr("head {0}").format(head) if self.thumb > fm.horizontalAdvance(tr("head {0}").format(88))
                           else str(head))
            for group in sorted(set(self.groups or [])):
                members = [h for h, g in enumerate(self.groups) if g == group]
                left, right = self._x(members[0], block), self._x(members[-1], block) + self.thumb
                band = QRectF(left, top - fm.height() * 1.2, right - left, fm.height())
                p.drawText(band, Qt.AlignCenter, tr("K/V {0}").format(group))
                p.drawLine(band.bottomLeft(), band.bottomRight())
        for layer in range(self.summary.layers):
            rect = self.thumb_rect(layer, 0)
            label = QRectF(rect.left() - self._label_width(), rect.top(), self._label_width() - GAP, self.thumb)
            p.drawText(label, Qt.AlignRight | Qt.AlignVCenter, tr("layer {0}").format(layer))

    def overlay_values(self) -> np.ndarray:
        """[layers, heads]: the numbers written on the thumbnails."""
        if self.overlay == "pair":
            return self.summary.pair(*self.pair)
        return self.summary.table()[..., STATS.index(self.overlay)]

    def _paint_overlay(self, p: QPainter) -> None:
        table = self.overlay_values()
        p.save()
        p.setFont(weighted(self.font, bold=True))
        fm = QFontMetricsF(p.font())
        for (layer, head), value in np.ndenumerate(table):
            rect = self.thumb_rect(layer, head)
            band = QRectF(rect.left(), rect.bottom() - fm.height(), rect.width(), fm.height())
            p.fillRect(band, QColor(255, 255, 255, 215))
            p.setPen(FOREGROUND)
            p.drawText(band, Qt.AlignCenter, fmt(value, 2 if self.overlay != "distance" else 1, fixed=True))
        p.restore()

    def _paint_marks(self, p: QPainter) -> None:
        p.save()
        p.setBrush(Qt.NoBrush)
        for heads, color, style in ((self.alike, ALIKE, Qt.DashLine), ([self.active] if self.active else [],
                                                                         ACTIVE, Qt.SolidLine)):
            p.setPen(QPen(color, 3, style))
            for layer, head in heads:
                p.drawRect(self.thumb_rect(layer, head).adjusted(-2, -2, 2, 2))
        p.restore()


    def _paint_badges(self, p: QPainter) -> None:
        """Each typed head's letters (P previous-token, I induction, …) on a tag over its top right corner."""
        if not self.badges:
            return
        p.save()
        font = QFont(self.font)
        font.setPixelSize(max(9, min(pixels(self.font), int(self.thumb * 0.3))))
        font.setBold(True)
        p.setFont(font)
        fm = QFontMetricsF(font)
        for (layer, head), kinds in self.badges.items():
            text = "".join(badge_letter(kind) for kind in kinds)
            rect = self.thumb_rect(layer, head)
            tag = QRectF(0, 0, fm.horizontalAdvance(text) + 4, fm.height())
            tag.moveTopRight(rect.topRight() + QPointF(2, -2))
            p.setPen(Qt.NoPen)
            p.setBrush(BADGE)
            p.drawRoundedRect(tag, 3, 3)
            p.setPen(QColor(255, 255, 255))
            p.drawText(tag, Qt.AlignCenter, text)
        p.restore()


LETTERS = {"previous": "P", "induction": "I", "duplicate": "D", "sink": "S", "local": "L"}  # the legend names them


def badge_letter(kind: str) -> str:
    return LETTERS[kind]


class OverviewCanvas(QWidget):
    """The grid at its own size (in a scroll area): hover for a head's numbers, click to open it."""

    chosen = Signal(int, int)   # layer, head

    def __init__(self, figure: OverviewFigure, parent=None):
        super().__init__(parent)
        self.setObjectName("overviewCanvas")
        self.figure = figure
        self.setMouseTracking(True)
        self.refit()

    def refit(self, width: float | None = None, height: float | None = None) -> None:
        """As wide as `width` allows (thumbnails grow up to 3×), never smaller; with `height` too
        (presenting), thumbnails as large as fit both: the whole grid in view, as big as it goes
        (a grid too large even at THUMB scrolls)."""
        if height is None:
            self.figure.thumb, self.figure.blocks = THUMB, None
        else:
            self.figure.fit_thumbnails(width, height)
        size = self.figure.size()
        self.zoom = 1.0 if width is None or height is not None else max(1.0, min(3.0, width / size.width()))
        self.setFixedSize(int(size.width() * self.zoom) + 1, int(size.height() * self.zoom) + 1)
        self.update()

    def paintEvent(self, event):
        p = QPainter(self)
        p.scale(self.zoom, self.zoom)
        self.figure.paint(p)
        p.end()

    def _head_at(self, event):
        return self.figure.at(event.position().x() / self.zoom, event.position().y() / self.zoom)

    def mouseMoveEvent(self, event):
        found = self._head_at(event)
        tip = head_tip(self.figure.summary, *found, self.figure.badges.get(found, ())) if found else ""
        QToolTip.showText(event.globalPosition().toPoint(), tip, self)

    def mousePressEvent(self, event):
        found = self._head_at(event)
        if found and event.button() == Qt.LeftButton:
            self.chosen.emit(*found)


def head_tip(summary: ModelSummary, layer: int, head: int, kinds=()) -> str:
    """A head's statistics, one per line, for its tooltip; a real model's head types first."""
    values = summary.table()[layer, head]
    names = stat_names()
    lines = [tr("layer {0}, head {1}").format(layer, head)]
    if kinds:
        lines.append(tr("Head type: {0}").format(tr(", ").join(type_name(kind) for kind in kinds)))
    lines += [f"{names[key]}: {fmt(value, 3, fixed=True)}" for key, value in zip(STATS, values)]
    return "\n".join(lines)


class StatsTable(QTableWidget):
    """One row per layer × head; click a header to sort (previous-token heads, sinks, ...)."""

    chosen = Signal(int, int)

    def __init__(self, summary: ModelSummary, parent=None):
        super().__init__(parent)
        self.setObjectName("headStatistics")
        self.summary = summary
        table = summary.table()
        self.setRowCount(summary.layers * summary.heads)
        self.setColumnCount(2 + len(STATS))
        for row, (layer, head) in enumerate(np.ndindex(summary.layers, summary.heads)):
            self.setItem(row, 0, NumberItem(layer, 0))
            self.setItem(row, 1, NumberItem(head, 0))
            for column, value in enumerate(table[layer, head]):
                self.setItem(row, 2 + column, NumberItem(value))
        self.setSortingEnabled(True)
        self.horizontalHeader().sortIndicatorChanged.connect(lambda *_: self.scrollToTop())  # the top of the new order
        self.setSelectionBehavior(QTableWidget.SelectRows)
        self.setSelectionMode(QTableWidget.SingleSelection)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.itemSelectionChanged.connect(self._selected)
        self.retranslate()

    def retranslate(self) -> None:
        names = stat_names()
        self.setHorizontalHeaderLabels([tr("layer"), tr("head")] + [names[key] for key in STATS])

    def head_at(self, row: int) -> tuple[int, int]:
        return int(self.item(row, 0).value), int(self.item(row, 1).value)

    def _selected(self) -> None:
        rows = self.selectionModel().selectedRows()
        if rows:
            self.chosen.emit(*self.head_at(rows[0].row()))

    def mark(self, heads) -> None:
        """Select the first of `heads` (the others stay marked in the grid)."""
        wanted = set(heads)
        for row in range(self.rowCount()):
            if self.head_at(row) in wanted:
                self.blockSignals(True)
                self.selectRow(row)
                self.blockSignals(False)
                self.scrollToItem(self.item(row, 0))
                return


class SummaryView(QWidget):
    """Mean over heads, mean over layers, or rollout built up layer by layer (a slider)."""

    def __init__(self, summary: ModelSummary, parent=None):
        super().__init__(parent)
        self.setObjectName("summaryView")
        self.summary = summary
        self.kind = QComboBox(objectName="summaryKind")
        self.layer = QSlider(Qt.Horizontal, objectName="summaryLayer")
        self.layer.setRange(0, summary.layers - 1)
        self.layer.setValue(summary.layers - 1)
        self.layer_label = QLabel(objectName="summaryLayerLabel")
        self.formula = QLabel(objectName="summaryFormula", wordWrap=True, textFormat=Qt.RichText)  # its own markup
        self.colormap = colormaps.get()
        self.painter = self._painter()
        self.canvas = SummaryCanvas(self)
        top = QHBoxLayout()
        top.addWidget(self.kind)
        top.addWidget(self.layer_label)
        top.addWidget(self.layer, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.formula)
        layout.addWidget(self.canvas, 1)
        self.kind.currentIndexChanged.connect(self.refresh)
        self.layer.valueChanged.connect(self.refresh)
        self.retranslate()

    def _painter(self) -> HeatmapPainter:
        """In the view's type: the window's on the desk (never below 14 px), presentation-sized presenting."""
        font = figure_font_like(self.font())
        if pixels(font) < 14:
            font = figure_font(pixel_size=14)
        return HeatmapPainter(self.colormap, font, background=BACKGROUND, foreground=FOREGROUND)

    def set_colormap(self, colormap: colormaps.ColorMap) -> None:
        self.colormap = colormap
        self.painter = self._painter()
        self.canvas.update()

    def changeEvent(self, event):
        if event.type() == QEvent.FontChange:
            self.painter = self._painter()
            self.canvas.update()
        super().changeEvent(event)

    def retranslate(self) -> None:
        index = max(0, self.kind.currentIndex())
        self.kind.blockSignals(True)
        self.kind.clear()
        names = {"rollout": tr("Attention rollout"), "heads": tr("Mean over the heads of a layer"),
                 "layers": tr("Mean over the layers")}
        self.kind.addItems([names[kind] for kind in self.kinds()])
        self.kind.setCurrentIndex(index)
        self.kind.blockSignals(False)
        self.refresh()

    def kinds(self) -> list[str]:
        """The summaries shown: rollout only when it was computed (it costs n³ a layer)."""
        return (["rollout"] if self.summary.with_rollout else []) + ["heads", "layers"]

    def matrix(self) -> np.ndarray:
        kind, layer = self.kinds()[max(0, self.kind.currentIndex())], self.layer.value()
        if kind == "rollout":
            return self.summary.rollouts[layer]
        if kind == "heads":
            return self.summary.means[layer]
        return self.summary.mean_over_layers()

    def refresh(self) -> None:
        kind = ("rollout", "heads", "layers").index(self.kinds()[max(0, self.kind.currentIndex())])
        layer = self.layer.value()
        self.layer.setEnabled(kind != 2)
        self.layer_label.setText(tr("up to layer {0}").format(layer) if kind == 0 else tr("layer {0}").format(layer))
        if kind == 0:
            step = (tr("R<sub>{0}</sub> = Â<sub>{0}</sub> · R<sub>{1}</sub>").format(layer, layer - 1) if layer
                    else tr("R<sub>0</sub> = Â<sub>0</sub>"))
            self.formula.setText(tr("Rollout: Â<sub>l</sub> = 0.5·A<sub>l</sub> + 0.5·I, each row divided by its "
                                    "sum; R<sub>l</sub> = Â<sub>l</sub> ⋯ Â<sub>0</sub>. Now: {0}. A row shows how "
                                    "much of each token reaches this one through the layers so far.").format(step))
        elif kind == 1:
            self.formula.setText(tr("A<sub>l</sub> = (1/H) Σ<sub>h</sub> W<sub>l,h</sub>: the {0} heads of layer "
                                    "{1}, averaged.").format(self.summary.heads, layer))
        else:
            self.formula.setText(tr("(1/L) Σ<sub>l</sub> A<sub>l</sub>: every head of all {0} layers, "
                                    "averaged.").format(self.summary.layers))
        if not self.summary.with_rollout:
            self.formula.setText(self.formula.text() + "<br>" + tr(
                "Attention rollout is left out: {0} layers of {1:,} tokens take more than {2:,} multiplications "
                "(layers × tokens³).").format(self.summary.layers, len(self.summary.tokens), MAX_ROLLOUT))
        self.canvas.update()



class SummaryCanvas(QWidget):
    """The chosen summary as a heatmap, drawn like a head's."""

    def __init__(self, view: SummaryView):
        super().__init__(view)
        self.setObjectName("summaryCanvas")
        self.view = view
        self.setMinimumSize(420, 420)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def data(self) -> HeatmapData:
        matrix = self.view.matrix()
        return HeatmapData(shown_tokens(self.view.summary.tokens, len(matrix)), matrix, matrix == 0, "")

    def paintEvent(self, event):
        p = QPainter(self)
        p.fillRect(self.rect(), BACKGROUND)
        font = self.view.painter.font
        bar = max(COLORBAR_WIDTH, 4.5 * QFontMetricsF(font).height())  # its ticks in the painter's type
        area = QRectF(self.rect()).adjusted(8, 8, -8 - bar, -8)
        self.view.painter.paint(p, area, self.data())
        paint_colorbar(p, QRectF(area.right() + 8, area.top(), bar - 8, max(min(area.height(), 420),
                                                                              area.height() / 2)),
                       self.view.painter.colormap, self.view.painter.font, FOREGROUND, BACKGROUND, mask_kind=None)
        p.end()


def shown_tokens(tokens, size: int) -> list[str]:
    """A label per row of a matrix pooled to `size` rows: each block's first token (and "…")."""
    if len(tokens) == size:
        return list(tokens)
    block = -(-len(tokens) // size)
    return [tokens[i] + "…" for i in range(0, len(tokens), block)]


class OverviewDialog(Retranslated, BackgroundDialog):
    """View → Overview: built off the GUI thread, one layer at a time, with progress and Cancel.
    When the window's numbers change (an edit, a head switched off) it says that it shows the
    numbers from before, with a button to gather them again."""

    chosen = Signal(int, int)       # open this layer with this head active
    refresh_requested = Signal()    # "Refresh": gather again what the window shows now

    def __init__(self, first, layers: int, scenario_of, view, title: str = "", groups=None, parent=None,
                 query: int = 0):
        super().__init__(parent)
        self.setObjectName("overviewDialog")
        self.progress.setObjectName("overviewProgress")
        self.message.setObjectName("overviewMessage")
        self.start_query, self.view = query, view
        self.colormap = colormaps.get(view.colormap, view.scale)
        self.destroyed.connect(view.subscribe(("colormap", "scale"), lambda _: self.update_colours()))
        self.title, self.groups = title, groups
        self.summary: ModelSummary | None = None
        self.figure: OverviewFigure | None = None
        self.content: QWidget | None = None
        self.stale = QWidget(objectName="overviewStale")
        self.stale_note = QLabel(objectName="overviewStaleNote", wordWrap=True)
        self.refresh_button = QPushButton(objectName="refreshOverview")
        self.refresh_button.clicked.connect(self.refresh_requested)
        row = QHBoxLayout(self.stale)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.stale_note, 1)
        row.addWidget(self.refresh_button)
        self.stale.hide()
        self.layout_.insertWidget(0, self.stale)
        self.setWindowTitle(tr("Overview: {0}").format(title))
        self.resize(1100, 800)
        self.presenting = False
        QApplication.instance().fontChanged.connect(self._zoomed)
        self.gather(first, layers, scenario_of, groups)

    # ------------------------------------------------------------- in front of a class

    def set_presentation(self, on: bool) -> None:
        """Presentation-sized type (the table, tabs, buttons, the grid's labels: at least what the back row
        reads at 1920×1080) and the grid as large as the room allows; off, the desk's look again."""
        self.presenting = on
        self.setFont(presented(QApplication.font(), self) if on else QFont())  # QFont(): the application's again
        fit_children(self, on)
        self._apply_type()

    def figure_pixels(self) -> int:
        """The grid's type: the dialog's (so the zoom and presenting reach it), never below the files' 13 px."""
        return max(FONT_PX, pixels(self.font()))

    def _apply_type(self) -> None:
        if self.figure is None:
            return
        self.figure.set_font_pixels(self.figure_pixels())
        self.table.resizeRowsToContents()
        self._refit()

    def _refit(self) -> None:
        viewport = self.scroll.viewport()
        if self.presenting:  # the whole grid in view, as big as it fits, in the middle of the room
            self.canvas.refit(viewport.width() - 4, viewport.height() - 4)
        else:
            self.canvas.refit(viewport.width() - 4)
        fits = self.presenting and self.figure.blocks is not None  # else it scrolls (test: fit_thumbnails)
        for policy in (self.scroll.setHorizontalScrollBarPolicy, self.scroll.setVerticalScrollBarPolicy):
            policy(Qt.ScrollBarAlwaysOff if fits else Qt.ScrollBarAsNeeded)  # no bars left from the desk's size
        self.scroll.setAlignment(Qt.AlignCenter if self.presenting else Qt.AlignLeft | Qt.AlignTop)

    def changeEvent(self, event):
        if event.type() == QEvent.FontChange:
            self._apply_type()
        super().changeEvent(event)

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Resize and self.figure is not None and watched is self.scroll.viewport():
            self._refit()
        return super().eventFilter(watched, event)

    def _zoomed(self, _font) -> None:
        if self.presenting:
            self.setFont(presented(QApplication.font(), self))  # the zoom changed: never below readable
            fit_children(self, True)

    # ------------------------------------------------------------- off the GUI thread

    def gather(self, first, layers: int, scenario_of, groups=None) -> None:
        """Every layer again (the first run, or Refresh); what is shown stays until the new one is ready."""
        self.groups = groups
        self.set_stale(False)
        self.message.setText(tr("Gathering every layer's weights…"))
        self.start(self._gather, first, layers, scenario_of)

    @staticmethod
    def _gather(step, first, layers, scenario_of) -> ModelSummary:
        check_work(first, layers)  # before a second layer is read

        def counted():
            for done, weights in enumerate(layer_weights(layers, scenario_of), 1):
                step(done, layers)
                yield weights
        step(0, layers)
        summary = summarise(first.tokens, counted(), layers, rollout=rollout_fits(layers, first.n))
        if first.live is None:
            return summary, {}
        return summary, head_types(first.live.model, progress=lambda *_: step(layers, layers)).strong()

    def progress_text(self, done: int, total: int) -> str:
        return tr("Gathering every layer's weights: {0} of {1}").format(done, total)

    def show_failure(self, message: str) -> None:
        self.message.setText(tr("The overview could not be made: {0}").format(message))

    def set_stale(self, stale: bool) -> None:
        """The window's numbers are no longer the ones shown (an edit, a head switched off)."""
        self.stale.setVisible(stale and self.summary is not None)

    # ------------------------------------------------------------- the views

    def show_result(self, result) -> None:
        """The views of (summary, a real model's head types); a refreshed overview keeps the tab, the
        numbers written on the grid and the head marked."""
        summary, badges = result
        kept = self._state()
        if self.content is not None:
            self.layout_.removeWidget(self.content)
            self.content.deleteLater()
        self.summary = summary
        self.figure = OverviewFigure(summary, self.title, self.groups, colormap=self.colormap)
        self.figure.badges = badges
        self.canvas = OverviewCanvas(self.figure)
        self.scroll = scroll = QScrollArea(objectName="overviewScroll")
        scroll.setWidget(self.canvas)
        scroll.viewport().installEventFilter(self)  # its room changes with the type too, not only the dialog's
        self.table = StatsTable(summary)
        self.summaries = SummaryView(summary)
        self.summaries.set_colormap(self.colormap)
        self.tabs = QTabWidget(objectName="overviewTabs")
        for widget in (scroll, self.table, self.summaries):
            self.tabs.addTab(widget, "")
        self.overlay = QComboBox(objectName="overviewOverlay")
        self.pair_query = QComboBox(objectName="overviewQuery")
        self.pair_key = QComboBox(objectName="overviewKey")
        for combo in (self.pair_query, self.pair_key):
            combo.addItems([f"{i}: {t}" for i, t in enumerate(summary.tokens)])
            combo.setMaxVisibleItems(20)
            combo.currentIndexChanged.connect(self._pair_changed)
        self.pair_query.setCurrentIndex(self.start_query if self.start_query < len(summary.tokens) else 0)
        self.alike_button = QPushButton(objectName="findAlike")
        self.export_button = QPushButton(objectName="exportOverview")
        self.content = QWidget(objectName="overviewContent")
        column = QVBoxLayout(self.content)
        column.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.overlay_name = QLabel()
        self.arrow = QLabel("→")
        for widget in (self.overlay_name, self.overlay, self.pair_query, self.arrow, self.pair_key,
                       self.alike_button, self.export_button):
            bar.addWidget(widget)
        bar.addStretch(1)
        column.addLayout(bar)
        column.addWidget(self.tabs, 1)
        self.layout_.addWidget(self.content, 1)
        self.overlay.currentIndexChanged.connect(self._overlay_changed)
        self.alike_button.clicked.connect(self.find_alike)
        self.export_button.clicked.connect(self.export_dialog)
        self.canvas.chosen.connect(self.choose)
        self.table.chosen.connect(self.mark_active)
        self.retranslate()
        self._restore(kept)
        self._pair_changed()
        self._overlay_changed(self.overlay.currentIndex())
        self._apply_type()
        QTimer.singleShot(0, self, self._refit)  # once laid out

    def _state(self):
        if self.figure is None:
            return None
        return (self.tabs.currentIndex(), self.overlay.currentIndex(), self.pair_query.currentIndex(),
                self.pair_key.currentIndex(), self.figure.active)

    def _restore(self, state) -> None:
        if state is None:
            return
        tab, overlay, query, key, active = state
        self.tabs.setCurrentIndex(tab)
        self.overlay.setCurrentIndex(overlay)
        if max(query, key) < len(self.summary.tokens):
            self.pair_query.setCurrentIndex(query)
            self.pair_key.setCurrentIndex(key)
        if active is not None and active[0] < self.summary.layers and active[1] < self.summary.heads:
            self.figure.active = active

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Overview: {0}").format(self.title))
        self.retranslate_work()
        self.stale_note.setText(tr("The window's numbers changed since this overview was made (an edit, or a head "
                                   "switched off): it shows the numbers from before."))
        self.refresh_button.setText(tr("Refresh"))
        if self.summary is None:
            return
        self.message.setText(tr("Every layer × head, on one colour scale. Hover over a head for its numbers; "
                                "click it to open that layer with that head.") + (" " + tr(
            "Tags: P previous-token, I induction, D duplicate-token, S sink, L local heads, found on random tokens "
            "repeated once (Research → Head types…).") if self.figure.badges else ""))
        for index, text in enumerate((tr("Grid"), tr("Head statistics"), tr("Means and rollout"))):
            self.tabs.setTabText(index, text)
        self.overlay_name.setText(tr("Numbers on the grid:"))
        current = max(0, self.overlay.currentIndex())
        self.overlay.blockSignals(True)
        self.overlay.clear()
        self.overlay.addItems([tr("none")] + list(stat_names().values()) + [tr("weight from a query to a key")])
        self.overlay.setCurrentIndex(current)
        self.overlay.blockSignals(False)
        self.alike_button.setText(tr("Find heads like this one"))
        self.alike_button.setToolTip(tr("Mark the 5 heads whose weights are most alike (cosine similarity)"))
        self.export_button.setText(tr("Export…"))
        self.table.retranslate()
        self.summaries.retranslate()
        self.canvas.update()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if self.figure is not None:
            self._refit()

    def update_colours(self) -> None:
        """Another colour scale or colour map: the grid and the summaries redrawn with it."""
        self.colormap = colormaps.get(self.view.colormap, self.view.scale)
        if self.figure is not None:
            self.figure.colormap = self.colormap
            self.figure.recolour()
            self.canvas.update()
            self.summaries.set_colormap(self.colormap)

    def _overlay_changed(self, index: int) -> None:
        self.figure.overlay = None if index <= 0 else STATS[index - 1] if index <= len(STATS) else "pair"
        for widget in (self.pair_query, self.arrow, self.pair_key):
            widget.setVisible(self.figure.overlay == "pair")
        self._refit()  # the caption says what the numbers are: it may take another line

    def _pair_changed(self, *_) -> None:
        self.figure.pair = (max(0, self.pair_query.currentIndex()), max(0, self.pair_key.currentIndex()))
        self.canvas.update()

    def show_pair(self, query: int, key: int) -> None:
        """Write on every thumbnail the weight from `query` to `key` (which head does this?)."""
        self.pair_query.setCurrentIndex(query)
        self.pair_key.setCurrentIndex(key)
        self.overlay.setCurrentIndex(len(STATS) + 1)

    def mark_active(self, layer: int, head: int) -> None:
        if self.figure.active != (layer, head):
            self.figure.alike = []  # the marks were of the heads like another one
        self.figure.active = (layer, head)
        self.canvas.update()

    def choose(self, layer: int, head: int) -> None:
        self.mark_active(layer, head)
        self.table.mark([(layer, head)])
        self.chosen.emit(layer, head)

    def find_alike(self) -> None:
        layer, head = self.figure.active or (0, 0)
        self.figure.active = (layer, head)
        self.figure.alike = self.summary.like(layer, head)
        self.message.setText(tr("Dashed: the 5 heads most like layer {0}, head {1} (outlined): {2}").format(
            layer, head, tr(", ").join(tr("layer {0}, head {1}").format(*h) for h in self.figure.alike)))
        self.canvas.update()

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Export the overview"), "overview.png",
                                              tr("Images (*.png *.svg *.pdf)"))
        if path:
            try:
                export_figure(self.figure, path, 2400)
            except ScenarioError as e:
                self.message.setText(describe(e))

