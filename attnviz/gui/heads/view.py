"""All heads' panels in a grid that fits 2 heads and 12 alike, with the one shared colour bar."""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontInfo, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core import masks
from ...core.attention import kv_group
from ...core.compute import hidden
from ...core.scenario import head_is_given, head_is_off
from ...core.summary import pooled
from ..common.asked import Asked
from ..common.i18n import Retranslated, current_language, head_label, tr
from ..common.lazy import NextTurn
from ..common.markup import rich
from ..look import colormaps
from ..look.fonts import LEAST_SHARE, figure_font, readable_pixels, weighted
from ..state.commands import SetHeadOff, SetSettings
from ..steps.guided import banner
from ..steps.stages import row_stage
from .heatmap import HeatmapData, HeatmapPainter, coloured, legend_kind, paint_colorbar, pixel_image, staged, window_of

QWIDGETSIZE_MAX = 16777215  # Qt's "no maximum" (QWIDGETSIZE_MAX, not exported by PySide6)
ACTIVE_BORDER = QColor(230, 120, 0)
MIN_ZOOM_CELLS = 8   # zoomed in as far as 8 × 8 cells
ZOOM_STEP = 1.25     # one notch of the mouse wheel
THUMBNAIL_EMS = 5     # presenting, the thumbnails under the big head: a row this many readable ems high
THUMBNAILS_A_ROW = 6  # more make two rows
SIDE_BY_SIDE = 4     # heads side by side when not all of them fit: the four around the active head
ALL_HEADS_SHARE = 0.27  # every head side by side when each gets this share of the screen's height at least
                        # (292 px at 1080: its title and every other label at the back row's type; GPT-2's 12)
PRESENTED_VALUE_SHARE = 0.44  # the presented head's values: 24 pt in the 73 px cells the steps and controls leave
OFF_LEAST_PIXELS = 12  # a switched-off head's label in desk type at least; smaller heads get the sign


BAR_LINES = 4.5  # the colour bar's width, in lines of its type: its ticks and the mask's legend fit
BAR_MOST = 150   # px: at most, zoomed in on the desk (the heatmap needs the room more) ...


class ColorBar(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("colorBar")
        self.colormap = colormaps.get()
        self.mask_kind = "causal"
        self.least_pixels = 0  # ... but presenting, as wide as its type at the back row's size needs
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Expanding)

    def set_least_pixels(self, pixels: int) -> None:
        """Presenting: every text of the bar (its title, ticks, the mask's legend) at least `pixels`."""
        if pixels != self.least_pixels:
            self.least_pixels = pixels
            self.updateGeometry()
            self.update()

    def _wanted_font(self) -> QFont:
        """The widget's type, never smaller than `least_pixels`."""
        font = figure_font(point_size=self.font().pointSizeF())
        if not self.least_pixels:
            return font
        return figure_font(pixel_size=max(self.least_pixels, QFontInfo(font).pixelSize()))  # in pixels, as it is read

    def label_font(self) -> QFont:
        """The type the bar's texts are painted in: the wanted one, smaller where the bar is too narrow
        for it (BAR_MOST on the desk), never under `least_pixels`."""
        font = self._wanted_font()
        fits = self.width() / BAR_LINES  # the line height its texts fit in (see sizeHint)
        if QFontMetricsF(font).height() > fits:
            pixels = QFontInfo(font).pixelSize() * fits / QFontMetricsF(font).height()
            font = figure_font(pixel_size=max(self.least_pixels, int(pixels)))
        return font

    def set_mask_kind(self, kind: str) -> None:
        if kind != self.mask_kind:
            self.mask_kind = kind
            self.update()

    def set_colormap(self, colormap: colormaps.ColorMap) -> None:
        self.colormap = colormap
        self.updateGeometry()  # another scale may label its ticks more widely
        self.update()

    def changeEvent(self, event):
        if event.type() in (QEvent.LanguageChange, QEvent.FontChange):
            self.updateGeometry()
            self.update()
        super().changeEvent(event)

    def sizeHint(self):
        """Wide enough for "0.75" and "masked (future)" (and the log scale's "0.0001"), and never
        wider than BAR_MOST: zoomed in on a projector, the heatmap needs the room more; presenting,
        never narrower than its type at `least_pixels` needs."""
        fm = QFontMetricsF(self._wanted_font())
        ticks = max(fm.horizontalAdvance(tr(text)) for _, text in self.colormap.ticks())
        least = QFontMetricsF(figure_font(pixel_size=self.least_pixels)).height() * BAR_LINES \
            if self.least_pixels else 0
        wanted = max(fm.height() * BAR_LINES, fm.height() * 2.2 + ticks)
        return QSize(math.ceil(max(least, min(wanted, BAR_MOST))), 200)

    def minimumSizeHint(self):
        return self.sizeHint()

    def paintEvent(self, event):
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        paint_colorbar(p, QRectF(self.rect()).adjusted(2, 4, -2, -4), self.colormap, self.label_font(),
                       self.palette().windowText().color(), self.palette().window().color(), self.mask_kind,
                       least_pixels=self.least_pixels)


# ---------------------------------------------------------------- one panel per head

class HeadPanel(QWidget):
    """The heatmap of head `index`; clicking it makes the head active and selects the row."""

    clicked = Signal(int, int)  # head, query row
    guessed = Signal(int)       # a key's column clicked in a question's hidden row: the class's guess
    resized = Signal()          # its size or type changed: what it draws is laid out anew

    def __init__(self, document, index: int, report=None, parent=None):
        super().__init__(parent)
        self.document = document
        self.index = index
        self.setObjectName(f"headPanel{index}")
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setAutoFillBackground(True)  # opaque: repainting a panel does not repaint the view under it
        self.setMinimumSize(60, 60)  # 12 thumbnails must fit beside a big head on 1080 lines
        self.setFocusPolicy(Qt.ClickFocus)
        self.colormap = colormaps.get()
        self.report = report or (lambda message: None)  # shows a refused mask painting
        self.min_points = 0.0  # presentation: labels and values never smaller than this
        self.thumbnail = False  # presenting, beside the big head: its title readable, no text in its cells
        self.painter = HeatmapPainter()
        self._data: HeatmapData | None = None
        self._inputs = None  # what the picture was made from: the same again, nothing to rebuild
        self.rebuilds = 0    # counted by the tests
        self._dirty = True
        self._drawn_active = None
        self.block: tuple[int, int, int] | None = None  # zoomed in: (first row, first column, cells)
        self._press = None   # where a drag started, and the block then
        self._dragged = False
        self._minimap = None  # (weights, colours and size, image, its pixels)
        self.asked: Asked | None = None  # a lesson's question on this head (common/asked.py)
        self._restyle()
        self._retranslate()

    def weights(self) -> np.ndarray:
        """The matrix this panel draws (masked cells are 0)."""
        return np.array(self.data().weights)

    def masked(self) -> np.ndarray:
        return np.array(self.data().masked)

    def data(self) -> HeatmapData:
        """What the panel draws now (built from the document when it changed since)."""
        if self._dirty:
            self._rebuild()
        return self._data

    def refresh(self) -> None:
        """The document changed: what this panel draws is rebuilt when next asked for."""
        self._dirty = True

    # ------------------------------------------------------------- zoom and pan (long inputs)

    def shown(self) -> HeatmapData | None:
        """What is drawn: the whole matrix, or the block zoomed in on."""
        data = self.data()
        if data is None or self.block is None:
            return data
        n = len(data.tokens)
        if self.block[2] >= n:  # tokens were removed: the whole matrix fits again
            self.block = None
            return data
        row, column, size = self._clamped(*self.block, n)
        if data.only_row is not None and not row <= data.only_row < row + size:
            row = data.only_row - size // 2  # a guided step explains this row: it is never out of view
        self.block = self._clamped(row, column, size, n)
        return window_of(data, *self.block)

    def offset(self) -> tuple[int, int]:
        return (self.block[0], self.block[1]) if self.block else (0, 0)

    def zoom(self, factor: float, around: QPointF | None = None) -> None:
        """Show `factor` times fewer cells across (more, below 1), keeping the cell under `around`
        where it is; back to the whole matrix once it would fit."""
        data = self.data()
        if data is None:
            return
        n = len(data.tokens)
        row, column, size = self.block or (0, 0, n)
        new = max(min(MIN_ZOOM_CELLS, n), round(size / factor))
        if new >= n:
            self.block = None
        else:
            cell = self.painter.cell_at(self._content_rect(), self.shown(), around) if around is not None else None
            i, j = cell if cell else (size // 2, size // 2)
            row = row + i - round(i * new / size)
            column = column + j - round(j * new / size)
            self.block = self._clamped(row, column, new, n)
        self.update()
        self.resized.emit()

    @staticmethod
    def _clamped(row: int, column: int, size: int, n: int) -> tuple[int, int, int]:
        return max(0, min(row, n - size)), max(0, min(column, n - size)), size

    def _keep_query_in_view(self) -> None:
        """The selected query stays on screen when it changes (the arrow keys, a click elsewhere)."""
        if self.block is None or self._data is None:
            return
        row, column, size = self.block
        query = self.document.query
        if not row <= query < row + size:
            self.block = self._clamped(query - size // 2, column, size, len(self._data.tokens))

    def wheelEvent(self, event):
        steps = event.angleDelta().y() / 120
        if steps and self.data() is not None:
            self.zoom(ZOOM_STEP ** steps, event.position())
            event.accept()
        else:
            super().wheelEvent(event)

    def mouseDoubleClickEvent(self, event):
        if self.block is not None:
            self.block = None  # the whole matrix again
            self.update()
            self.resized.emit()
        else:
            super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event):
        if self._press is None or self.block is None or not event.buttons() & Qt.LeftButton:
            return super().mouseMoveEvent(event)
        start, block = self._press
        g = self.painter.geometry(self._content_rect(), self.shown())
        moved = start - event.position()
        if abs(moved.x()) + abs(moved.y()) > 6 or self._dragged:
            self._dragged = True
            self.block = self._clamped(block[0] + round(moved.y() / g.cell_h), block[1] + round(moved.x() / g.cell_w),
                                        block[2], len(self.data().tokens))
            self.update()

    def _minimap_image(self, weights, side: int) -> QImage:
        """The whole matrix pooled to the minimap's size and coloured; made again only when the
        weights, the colours or the size change, not at every step of a pan (4,096² cells
        take 50 ms to pool)."""
        colormap = self.painter.colormap
        key = (side, colormap.name, colormap.scale)
        cached = self._minimap
        if cached is None or cached[0] is not weights or cached[1] != key:
            pixels = coloured(colormap, colormap.places(pooled(np.asarray(weights), side)))
            cached = self._minimap = (weights, key, pixel_image(pixels), pixels)
        return cached[2]

    def minimap_rect(self) -> QRectF:
        side = min(110.0, self.width() * 0.22, self.height() * 0.22)
        grid = self.painter.geometry(self._content_rect(), self.shown()).grid
        return QRectF(grid.right() - side - 4, grid.top() + 4, side, side)

    def _paint_minimap(self, p: QPainter) -> None:
        """Zoomed in: the whole matrix small in the top right corner (where a causal mask hides the
        future, so no weight is covered), the part shown outlined."""
        data = self.data()
        n = len(data.tokens)
        box = self.minimap_rect()
        side = box.width()
        image = self._minimap_image(data.weights, int(side))
        p.save()
        p.drawImage(box, image)
        p.setPen(QPen(self.palette().windowText().color(), 1))
        p.setBrush(Qt.NoBrush)
        p.drawRect(box)
        row, column, size = self.block
        p.setPen(QPen(ACTIVE_BORDER, 2))
        p.drawRect(QRectF(box.left() + column / n * side, box.top() + row / n * side, size / n * side, size / n * side))
        p.restore()

    def redraw_if_changed(self) -> None:
        """Repaint only when the picture differs: an edit of one head leaves the others be."""
        before, was_active = self._data, self._drawn_active
        if self.data() is None or not _same_picture(before, self._data) or was_active != self._is_active():
            self.update()

    def _is_active(self) -> bool:
        return self.document.active_head == self.index

    def _rebuild(self) -> None:
        d = self.document
        scenario = d.scenario
        self._dirty = False
        if self.index >= len(scenario.heads):
            return
        trace = d.result.heads[self.index]
        stage = d.stage if d.active_head == self.index else None
        title = head_label(scenario, self.index) + _group_note(scenario, self.index)
        asked = self.asked if self.asked is not None and self.asked.head == self.index else None
        inputs = (scenario.tokens, d.query, stage, title, asked)
        if self._inputs is not None and trace is self._inputs[0] and inputs == self._inputs[1]:
            return  # another head was edited: this one's picture is the very same
        self._inputs = (trace, inputs)
        data = HeatmapData(tokens=scenario.tokens, weights=trace.weights, masked=hidden(trace),
                           title=title, short_title=tr("head {0}").format(self.index), selected_row=d.query,
                           asked=asked)
        # Guided steps explain the active head's row; the other heads stay as they are.
        self._data = staged(data, trace, d.query, stage)
        self._keep_query_in_view()
        self.rebuilds += 1

    def _retranslate(self) -> None:
        self.setToolTip(tr("Head {0}: rows are queries, columns are keys. Click to make it the active head "
                           "(the query stays); then click a row to explain it step by step.").format(self.index)
                        + "\n" +
                        tr("Mouse wheel: zoom in and out; drag: move; double-click: the whole matrix."))

    def set_colormap(self, colormap: colormaps.ColorMap) -> None:
        self.colormap = colormap
        self._restyle()

    def _restyle(self) -> None:
        """Fonts follow the application's (zoom), colours the palette (light or dark look)."""
        palette = self.palette()
        font = figure_font(pixel_size=readable_pixels(self)) if self.thumbnail else \
            figure_font(point_size=max(self.font().pointSizeF(), self.min_points))
        self.painter = HeatmapPainter(self.colormap, font,
                                      background=palette.window().color(),
                                      foreground=palette.windowText().color(),
                                      value_share=PRESENTED_VALUE_SHARE if self.min_points else 0.36,
                                      labels=not self.thumbnail,
                                      least_pixels=readable_pixels(self, LEAST_SHARE) if self.min_points else 0)
        self.update()
        self.resized.emit()

    def changeEvent(self, event):
        if event.type() in (QEvent.FontChange, QEvent.PaletteChange, QEvent.ApplicationFontChange):
            self._restyle()
        elif event.type() == QEvent.LanguageChange:
            self._retranslate()
            self.refresh()
        super().changeEvent(event)

    def paintEvent(self, event):
        data = self.data()
        if data is None:
            return
        p = QPainter(self)
        try:  # ended whatever happens: a painter left active brings Qt down later
            g = self.painter.paint(p, self._content_rect(), self.shown())
            if self.block is not None and self.data().only_row is None:  # guided steps: no weights before softmax
                self._paint_minimap(p)
            if head_is_off(self.document.scenario, self.index):
                self._paint_off(p, g)
            self._drawn_active = self._is_active()
            if self._drawn_active:
                p.setPen(QPen(ACTIVE_BORDER, 3))
                p.setBrush(Qt.NoBrush)
                p.drawRect(QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5))
        finally:
            p.end()

    def _paint_off(self, p: QPainter, g) -> None:
        """A switched-off head: its weights veiled and a label on them, so no one reads them as
        what the model passes on (the numbers stay readable beneath). The label sits inside the grid's
        top right corner (with a causal mask, the hidden future's cells), clear of the column labels;
        a thumbnail too small for a readable word gets the "no entry" sign across its grid instead."""
        veil = QColor(self.palette().window().color())
        veil.setAlpha(120)
        p.fillRect(self.rect(), veil)
        ink, paper = self.palette().windowText().color(), self.palette().window().color()
        font = weighted(QFont(self.painter.font), bold=True)
        font.setPixelSize(max(OFF_LEAST_PIXELS, min(self.height() // 14, self.width() // 12,
                                                    self.value_pixels() or OFF_LEAST_PIXELS)))
        fm = QFontMetricsF(font)
        text = tr("switched off")
        box = QRectF(0, 0, fm.horizontalAdvance(text) + fm.height(), fm.height() * 1.4)
        if g is None or box.width() > g.grid.width() * 0.9 or box.height() > g.grid.height() * 0.5:
            self._paint_no_entry(p, g.grid if g is not None else QRectF(self.rect()), ink, paper)
            return
        box.moveTopRight(g.grid.topRight() + QPointF(-fm.height() * 0.3, fm.height() * 0.3))
        p.setFont(font)
        p.setPen(Qt.NoPen)
        p.setBrush(ink)
        p.drawRoundedRect(box, box.height() / 2, box.height() / 2)
        p.setPen(paper)
        p.drawText(box, Qt.AlignCenter, text)

    @staticmethod
    def _paint_no_entry(p: QPainter, grid: QRectF, ink: QColor, paper: QColor) -> None:
        """A circle struck through, across the grid: "off" at any size, in any language."""
        side = min(grid.width(), grid.height()) * 0.8
        ring = QRectF(0, 0, side, side)
        ring.moveCenter(grid.center())
        width = max(2.0, side * 0.12)
        p.save()
        p.setRenderHint(QPainter.Antialiasing)
        p.setBrush(Qt.NoBrush)
        for colour, w in ((paper, width * 1.8), (ink, width)):  # a light edge: visible on any weight's colour
            p.setPen(QPen(colour, w, Qt.SolidLine, Qt.FlatCap))
            p.drawEllipse(ring)
            slash = side / 2 * 0.7071
            c = ring.center()
            p.drawLine(c + QPointF(-slash, -slash), c + QPointF(slash, slash))
        p.restore()

    def _paint_mask(self, i: int, j: int) -> bool:
        """Shift+click: with a hand-painted mask, hide or show key j for query i; with padding,
        pad or unpad token j. True when the click was used for that."""
        d = self.document
        spec = d.scenario.settings.mask
        if spec is None or spec.kind not in ("custom", "padding"):
            return False
        if spec.kind == "custom":
            new, text = masks.toggled(spec, d.scenario.n, i, j), tr("Paint the mask")
        else:
            new, text = masks.toggled_padding(spec, j), tr("Pad or unpad {0}").format(d.scenario.tokens[j])
        d.attempt(lambda: SetSettings(d, text, mask=new), self.report)
        return True

    def _content_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(6, 4, -6, -6)

    def title_rect(self) -> QRect | None:
        """Where its title is painted (the panel's coordinates), or None."""
        data = self.shown()
        if data is None:
            return None
        rect = self._content_rect()
        box = self.painter.title_box(rect, self.painter.geometry(rect, data), tight=True)
        return box.toAlignedRect() if box is not None else None

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.resized.emit()

    def value_pixels(self) -> int:
        """The pixel size of the values it draws (of its labels when cells are too small for values)."""
        data = self.data()
        if data is None:
            return 0
        g = self.painter.geometry(self._content_rect(), data)
        return (g.value_font or g.label_font).pixelSize()

    def contextMenuEvent(self, event):
        """A real model's head can be switched off (its output zeroed) and on again."""
        d = self.document
        if d.scenario.live is None or self.index >= len(d.scenario.heads):
            return super().contextMenuEvent(event)
        off = head_is_off(d.scenario, self.index)
        menu = QMenu(self)
        action = menu.addAction(tr("Switch this head on") if off else tr("Switch this head off"))
        action.triggered.connect(lambda: self.set_off(not off))
        menu.exec(event.globalPos())

    def set_off(self, off: bool) -> None:
        """Switch this head off (or on), and make it the selected head: the one the step table, the
        next-token panel's story and "Add this as a scene" are then about."""
        d = self.document
        if d.attempt(lambda: SetHeadOff(d, self.index, off), self.report):
            d.select(head=self.index)

    def mousePressEvent(self, event):
        if event.button() != Qt.LeftButton or self.data() is None:
            return super().mousePressEvent(event)
        if self.block is not None:  # zoomed in: a drag pans, a click (on release) selects
            self._press, self._dragged = (event.position(), self.block), False
            return
        self._click(event)

    def mouseReleaseEvent(self, event):
        pressed, self._press = self._press, None
        if pressed is not None and event.button() == Qt.LeftButton and not self._dragged:
            self._click(event)
        super().mouseReleaseEvent(event)

    def _click(self, event) -> None:
        cell = self.painter.cell_at(self._content_rect(), self.shown(), event.position())
        if cell:
            cell = (cell[0] + self.offset()[0], cell[1] + self.offset()[1])
        if cell and event.modifiers() & Qt.ShiftModifier and self._paint_mask(*cell):
            return
        if cell and self.asked is not None and self.asked.hides(self.index, cell[0]):
            self.guessed.emit(cell[1])  # the question's row: a click is the class's guess, not a selection
            return
        d = self.document
        if self.index != d.active_head:  # a click picks the head; the query the class follows stays
            d.select(head=self.index)
        elif cell:
            d.select(query=cell[0])
        self.clicked.emit(self.index, d.query)


def _group_note(scenario, index: int) -> str:
    """With grouped-query attention, which heads read the same K and V as this one; a real
    model's head switched off (or given another output: patched) says so."""
    off = tr(" · switched off") if head_is_off(scenario, index) else \
        tr(" · patched") if head_is_given(scenario, index) else ""
    if scenario.live is not None:
        config = scenario.live.model.config
        kv_heads, n_heads = config.n_kv_heads, config.n_heads
    elif scenario.projection is not None:
        kv_heads, n_heads = scenario.projection.kv_heads, scenario.projection.n_heads
    else:
        return off
    if kv_heads == n_heads:
        return off
    group, sharing = kv_group(index, n_heads, kv_heads)
    others = [str(i) for i in sharing if i != index]
    return tr(" · K/V group {0}, shared with head {1}").format(group, tr(", ").join(others)) + off


def _same_picture(a: HeatmapData | None, b: HeatmapData) -> bool:
    """The same drawing: the weights are the very same arrays (unchanged heads keep their
    trace) and everything else around them is equal."""
    if a is None:
        return False
    fields = ("tokens", "title", "selected_row", "only_row", "row_text", "colored", "asked")
    return (a.weights is b.weights and (a.masked is b.masked or np.array_equal(a.masked, b.masked))
            and all(getattr(a, f) == getattr(b, f) for f in fields))


class GuideBar(QWidget):
    """Shown during guided steps: which step, what it computes, and Previous / Next."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("guideBar")
        self.label = QLabel(objectName="guideLabel")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.RichText)  # bold through markup: a style sheet would stop zoom
        self.previous, self.next, self.stop = QToolButton(), QToolButton(), QToolButton()
        self.line = QHBoxLayout()  # the buttons, and on the desk the words between them
        self.line.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.line)
        self.set_stacked(False)

    def set_stacked(self, on: bool) -> None:
        """The words above the buttons (presenting: beside them, the buttons' large type would take the
        width the step table needs), or all on one line (the desk)."""
        while self.line.count():  # widgets and the stretch of the other arrangement
            self.line.takeAt(0)
        self.layout().removeWidget(self.label)
        if on:
            self.layout().insertWidget(0, self.label)
            for button in (self.previous, self.next, self.stop):
                self.line.addWidget(button)
            self.line.addStretch(1)
        else:
            for widget in (self.previous, self.label, self.next, self.stop):
                self.line.addWidget(widget, 1 if widget is self.label else 0)

    def bind(self, previous_action, next_action, stop_action):
        for button, action in ((self.previous, previous_action), (self.next, next_action),
                               (self.stop, stop_action)):
            button.setDefaultAction(action)


class HeadsView(Retranslated, QWidget):
    """Every head: a grid of equal panels, or (presenting) the active head big and the rest small,
    or every head side by side, each as big as fits."""

    valuePixelsChanged = Signal(int)  # presenting: the big head's values changed size
    guessed = Signal(int)             # a lesson's question: the class guessed this key (a panel's click)

    def __init__(self, document, view, report=None, parent=None):
        super().__init__(parent)
        self.setObjectName("headsView")
        self.document = document
        self.view = view  # the colour map and scale every panel and the colour bar draw with
        self.panels: list[HeadPanel] = []
        self.asked: Asked | None = None  # a lesson's question, handed to every panel
        self.focus = False
        self.report = report  # where refused edits are shown
        self._redraw = NextTurn(self, self._redraw_changed)
        self.panels_points = 0.0
        self.side_by_side = False  # presenting: every head as big as fits, instead of one big
        self._placed = None  # (active head, columns) the grid was laid out for
        self.colormap = colormaps.get(view.colormap, view.scale)
        self.grid = QGridLayout()
        self.grid.setSpacing(6)
        self.colorbar = ColorBar()
        self.colorbar.set_colormap(self.colormap)
        self.description = QLabel(objectName="descriptionLabel")
        self.description.setWordWrap(True)
        self.description.setTextFormat(Qt.PlainText)
        self.guide = GuideBar()
        self.guide.hide()
        row = QHBoxLayout()
        row.addLayout(self.grid, 1)
        row.addWidget(self.colorbar)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.description)
        layout.addWidget(self.guide)
        layout.addLayout(row, 1)
        document.replaced.connect(self.rebuild)
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        view.subscribe(("colormap", "scale"), lambda _: self._recolour())
        self.rebuild()

    def rebuild(self):
        """New panels only when the number of heads changes (a different scenario)."""
        count = len(self.document.scenario.heads)
        if count != len(self.panels):
            for panel in self.panels:
                self.grid.removeWidget(panel)
                panel.setParent(None)  # gone from findChild() now, not at the next event loop turn
                panel.deleteLater()
            self.panels = [HeadPanel(self.document, i, self.report, self) for i in range(count)]
            for panel in self.panels:
                panel.set_colormap(self.colormap)
                panel.asked = self.asked
                panel.guessed.connect(self.guessed)
                panel.resized.connect(lambda p=panel: self._panel_resized(p))
        self._place()
        self.refresh()

    def _place(self):
        columns = self._side_columns()
        self._placed = (self.document.active_head, columns)
        for i, panel in enumerate(self.panels):  # large type for the big head; thumbnails: a readable title
            big = i == self.document.active_head or self.side_by_side
            points = self.panels_points if big else 0.0
            thumbnail = self.focus and not big
            if (panel.min_points, panel.thumbnail) != (points, thumbnail):
                panel.min_points, panel.thumbnail = points, thumbnail
                if not thumbnail:
                    panel.setMinimumHeight(60)
                    panel.setMaximumHeight(QWIDGETSIZE_MAX)
                panel._restyle()
        for panel in self.panels:
            self.grid.removeWidget(panel)
        for r in range(self.grid.rowCount()):
            self.grid.setRowStretch(r, 0)
        for c in range(self.grid.columnCount()):
            self.grid.setColumnStretch(c, 0)
        shown = self._side_heads()
        for i, panel in enumerate(self.panels):
            panel.setVisible(i in shown)
        if self.focus and len(self.panels) > 1:
            self._place_focus()
        else:
            columns = columns or math.ceil(math.sqrt(len(self.panels)))
            for k, i in enumerate(shown):
                self.grid.addWidget(self.panels[i], k // columns, k % columns)
                self.grid.setColumnStretch(k % columns, 1)
                self.grid.setRowStretch(k // columns, 1)

    def _side_heads(self) -> list[int]:
        """The heads shown: all of them when each is still large enough to read from the back (a model's
        12 heads at once), else side by side SIDE_BY_SIDE of them, those around the active head (heads
        4–7 while head 5 is active)."""
        n = len(self.panels)
        if not self.side_by_side or n <= SIDE_BY_SIDE or self._all_fit():
            return list(range(n))
        first = min(self.document.active_head // SIDE_BY_SIDE * SIDE_BY_SIDE, n - SIDE_BY_SIDE)
        return list(range(first, first + SIDE_BY_SIDE))

    def _all_fit(self) -> bool:
        n = len(self.panels)
        return self._largest_side(n, self._best_columns(n)) >= readable_pixels(self, ALL_HEADS_SHARE)

    def _side_columns(self) -> int | None:
        """Side by side: the number of columns that makes every (square) heatmap the largest,
        e.g. two heads each half the screen, four in a 2 × 2 grid."""
        n = len(self._side_heads()) if self.side_by_side else 0
        return self._best_columns(n) if n else None

    def _best_columns(self, n: int) -> int:
        return max(range(1, n + 1), key=lambda c: (round(self._largest_side(n, c)), -c))

    def _largest_side(self, n: int, columns: int) -> float:
        """The side of each of n square heatmaps in `columns` columns, in the room the view has."""
        width = max(1, self.width() - self.colorbar.sizeHint().width())
        height = max(1, self.height() - (self.guide.sizeHint().height() if self.guide.isVisible() else 0))
        return min(width / columns, height / math.ceil(n / columns))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if self.side_by_side and self._placed != (self.document.active_head, self._side_columns()):
            self._place()

    def _panel_resized(self, panel: "HeadPanel") -> None:
        if self.focus and panel.index == self.document.active_head:
            self.valuePixelsChanged.emit(panel.value_pixels())

    def title_rects(self) -> list[QRect]:
        """Where the shown heads' titles are (this view's coordinates): what a card over the scene must not
        cover (lessons/presenter.py's notes)."""
        return [r.translated(panel.pos()) for panel in self.panels if panel.isVisible()
                for r in [panel.title_rect()] if r is not None]

    def value_pixels(self) -> int:
        """The size of the active head's values: the step table matches it while presenting."""
        return self.panels[self.document.active_head].value_pixels() if self.panels else 0

    def _place_focus(self):
        """The active head fills the top; the others, small, in a row or two below it, in the room its
        square cells leave (a 10-token head is wider than tall on a 16:9 screen's share of it)."""
        active = self.document.active_head
        others = [p for i, p in enumerate(self.panels) if i != active]
        rows = 1 if len(others) <= THUMBNAILS_A_ROW else 2
        per_row = math.ceil(len(others) / rows)
        self.grid.addWidget(self.panels[active], 0, 0, 1, per_row)
        for k, panel in enumerate(others):
            self.grid.addWidget(panel, 1 + k // per_row, k % per_row)
            panel.setFixedHeight(round(THUMBNAIL_EMS * readable_pixels(panel) / rows))
        self.grid.setRowStretch(0, 1)
        for c in range(per_row):
            self.grid.setColumnStretch(c, 1)

    def set_presentation(self, on: bool, points: float = 0.0, side_by_side: bool = False):
        """The active head big and the rest small, or (side by side) every head as big as fits,
        with type of at least `points`."""
        if on != (self.focus or self.side_by_side):
            # The colour bar's type kept as presenting found it: zooming in (Ctrl++) must not widen it at
            # the head's cost.
            self.colorbar.setFont(QFont(QApplication.font()) if on else QFont())
        self.colorbar.set_least_pixels(readable_pixels(self, LEAST_SHARE) if on else 0)  # its ticks: the back row's
        self.focus = on and not side_by_side
        self.side_by_side = on and side_by_side
        self.guide.set_stacked(on)
        self.panels_points = points if on else 0.0
        self._place()
        self.show_description()

    def show_guide(self):
        d = self.document
        self.guide.setVisible(row_stage(d.stage) is not None)  # the layer's own steps: its diagram lights them
        if row_stage(d.stage) is not None:
            head = d.scenario.heads[d.active_head]
            text = banner(d.stage, d.scenario.tokens[d.query], head.d_k)
            self.guide.label.setText(f"<b>{rich(text)}</b>")

    def _recolour(self) -> None:
        self.colormap = colormaps.get(self.view.colormap, self.view.scale)
        for panel in self.panels:
            panel.set_colormap(self.colormap)
        self.colorbar.set_colormap(self.colormap)

    def refresh(self):
        """Panels are brought up to date at the next event-loop turn, once for any number of
        changes in this one: reading the results then costs one recompute."""
        if (self.focus or self.side_by_side) and self._placed[0] != self.document.active_head:
            self._place()  # a newly active head moves to the big place
        for panel in self.panels:
            panel.refresh()
        self.colorbar.set_mask_kind(legend_kind(self.document.scenario))
        self._redraw()
        self.show_description()
        self.show_guide()

    def _redraw_changed(self):
        for panel in self.panels:
            panel.redraw_if_changed()

    def show_description(self):
        """The scenario's story (what to look for), in the interface's language."""
        text = self.document.scenario.text("description", current_language())
        self.description.setText(text)
        self.description.setVisible(bool(text) and not (self.focus or self.side_by_side))

    def retranslate(self) -> None:
        self.show_description()
        self.show_guide()

    def set_asked(self, asked: Asked | None) -> None:
        """A lesson's question (or None): its head's panel hides the row and outlines the guess."""
        self.asked = asked
        for panel in self.panels:
            panel.asked = asked
        self.refresh()

    def panel(self, index: int) -> HeadPanel:
        return self.panels[index]
