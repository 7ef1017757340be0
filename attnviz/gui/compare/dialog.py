"""Two scenarios side by side: A's heads, B's heads, and B − A for each head they share.

Some stories only show in a pair (seed 003: attention alone cannot tell 猫が座った from
座ったが猫; はし next to ご飯 or next to 川). CompareFigure paints the pair on any QPainter,
like Figure: the window's Compare view and `attnviz export A --compare B` draw the same.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSizeF, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...core.compute import compute, hidden
from ...core.scenario import Scenario
from ..common.background import BackgroundDialog
from ..common.i18n import current_language, head_label, tr
from ..export.figure import BACKGROUND, COLORBAR_WIDTH, FOREGROUND, GRID_FONT_PX, GRID_SIDE, MARGIN
from ..heads.heatmap import HeatmapData, HeatmapPainter, legend_kind, paint_colorbar
from ..look import colormaps
from ..look.fonts import figure_font, weighted

MIN_REACH = 0.05  # the difference scale never narrower than ±0.05: noise stays pale


class CompareFigure:
    """Columns A, B and B − A, one row per head; a weights colour bar and a difference one."""

    def __init__(self, a: Scenario, b: Scenario, caption: bool = True, colormap: colormaps.ColorMap | None = None,
                 results=None):
        self.a, self.b, self.caption = a, b, caption
        self.results = results or (compute(a), compute(b))  # (A's, B's) when computed already
        self._differences = self._subtract()  # once: every repaint of the dialog reuses them
        self.font = figure_font(pixel_size=GRID_FONT_PX)
        self.colormap = colormap or colormaps.get()
        self.reach = max([MIN_REACH] + [float(np.abs(d).max()) for d in self.differences() if d.size])
        self._cells = self._panel_cells()
        # One painter per panel: a painter keeps one panel's layout and hatching between repaints.
        self._painters: dict[tuple[int, int], HeatmapPainter] = {}
        self.weights, self.signed = self.painter(0, 0), self.painter(2, 0)  # the colour bars' maps

    def painter(self, kind: int, head: int) -> HeatmapPainter:
        """The painter of head `head` in A (kind 0), B (1) or B − A (2)."""
        if (kind, head) not in self._painters:
            self._painters[kind, head] = HeatmapPainter(
                None if kind == 2 else self.colormap, self.font, signed=kind == 2, reach=self.reach,
                background=BACKGROUND, foreground=FOREGROUND)
        return self._painters[kind, head]

    def set_colormap(self, colormap: colormaps.ColorMap) -> None:
        """A and B drawn with another map or scale (B − A keeps its diverging one)."""
        self.colormap = colormap
        for (kind, _), painter in self._painters.items():
            if kind != 2:
                painter.colormap = colormap

    # ------------------------------------------------------------- numbers

    def comparable(self) -> bool:
        """B − A is defined cell by cell when both have as many tokens."""
        return self.a.n == self.b.n

    def differences(self) -> list[np.ndarray]:
        """B's weights − A's, for each head both have (none when the token counts differ)."""
        return self._differences

    def _panel_cells(self) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
        """(weights, masked) of every panel, made once: a painter keeps a panel's colours while they
        are the same arrays, so a repaint (a resize, a tooltip) colours nothing again."""
        cells = {}
        for kind, result in enumerate(self.results):
            for h, trace in enumerate(result.heads):
                cells[kind, h] = (trace.weights, hidden(trace))
        for h, difference in enumerate(self.differences()):
            cells[2, h] = (difference / self.reach, cells[0, h][1] & cells[1, h][1])
        return cells

    def colour(self) -> None:
        """Paint once into a small image, so that every panel's colours are made now (on the thread
        that builds the figure) rather than at the window's first paint."""
        size = self.size()
        image = QImage(320, max(1, round(320 * size.height() / size.width())), QImage.Format_ARGB32)
        p = QPainter(image)
        p.scale(320 / size.width(), 320 / size.width())
        self.paint(p)
        p.end()

    def _subtract(self) -> list[np.ndarray]:
        if not self.comparable():
            return []
        wa, wb = self.results[0].weights(), self.results[1].weights()
        return [np.subtract(b, a, dtype=np.result_type(a, b)) for a, b in zip(wa, wb)]

    # ------------------------------------------------------------- layout: A | B | B − A, a row per head

    def kinds(self) -> int:
        return 3 if self.comparable() else 2

    def rows(self) -> int:
        return max(len(self.a.heads), len(self.b.heads))

    def _label_height(self) -> float:
        return QFontMetricsF(weighted(self.font, bold=True)).height() * 2.6  # two lines of a title

    def size(self) -> QSizeF:
        caption = QFontMetricsF(self.font).height() * 2.2 if self.caption else 0.0
        return QSizeF(self.kinds() * GRID_SIDE + 2 * COLORBAR_WIDTH + 2 * MARGIN,
                      self._label_height() + self._body_height() + caption + 2 * MARGIN)

    def _body_height(self) -> float:
        """The heads, or the colour bars with the mask's swatch if they are taller (one head)."""
        return max(self.rows() * GRID_SIDE, GRID_SIDE * 1.25)

    def head_rect(self, kind: int, head: int) -> QRectF:
        """Where head `head` of A (kind 0), B (1) or B − A (2) is drawn."""
        return QRectF(MARGIN + kind * GRID_SIDE, MARGIN + self._label_height() + head * GRID_SIDE,
                      GRID_SIDE - MARGIN / 2, GRID_SIDE - MARGIN / 2)

    def caption_text(self) -> str:
        names = self.titles()
        text = tr("A: {0} · B: {1}").format(*names)
        if self.comparable():
            text += " · " + tr("B − A on a scale of ±{0}").format(f"{self.reach:.2f}")
        else:
            text += " · " + tr("no B − A: A has {0} tokens, B has {1}").format(self.a.n, self.b.n)
        return text

    def titles(self) -> tuple[str, str]:
        """Each side's title, and its layer when it is one layer of a model."""
        lang = current_language()
        names = [s.text("title", lang) or name for s, name in ((self.a, "A"), (self.b, "B"))]
        return tuple(tr("{0}, layer {1}").format(name, s.layer[0]) if s.layer else name
                     for name, s in zip(names, (self.a, self.b)))

    # ------------------------------------------------------------- painting

    def paint(self, p: QPainter, vector: bool = False) -> None:
        size = self.size()
        p.fillRect(QRectF(0, 0, size.width(), size.height()), BACKGROUND)
        title_a, title_b = self.titles()
        for kind, (s, label) in enumerate([(self.a, "A: " + title_a), (self.b, "B: " + title_b)]):
            self._column_label(p, kind, label)
            for h in range(len(s.heads)):
                self.painter(kind, h).paint(p, self.head_rect(kind, h), HeatmapData(
                    s.tokens, *self._cells[kind, h], head_label(s, h)), vector=vector)
        if self.comparable():
            self._column_label(p, 2, tr("B − A: blue lost weight, yellow gained it"))
            for h in range(len(self.differences())):
                self.painter(2, h).paint(p, self.head_rect(2, h), HeatmapData(
                    self.b.tokens, *self._cells[2, h], head_label(self.b, h)), vector=vector)
        self._bars(p)
        if self.caption:
            height = QFontMetricsF(self.font).height() * 2.2
            p.setFont(self.font)
            p.setPen(FOREGROUND)
            p.drawText(QRectF(MARGIN, size.height() - MARGIN - height, size.width() - 2 * MARGIN, height),
                       Qt.AlignLeft | Qt.AlignVCenter | Qt.TextWordWrap, self.caption_text())

    def _column_label(self, p: QPainter, kind: int, text: str) -> None:
        p.setFont(weighted(self.font, bold=True))
        p.setPen(FOREGROUND)
        p.drawText(QRectF(MARGIN + kind * GRID_SIDE, MARGIN, GRID_SIDE - MARGIN, self._label_height()),
                   Qt.AlignLeft | Qt.AlignBottom | Qt.TextWordWrap, text)

    def _bars(self, p: QPainter) -> None:
        left = MARGIN + self.kinds() * GRID_SIDE
        top = MARGIN + self._label_height()
        body = self._body_height()
        paint_colorbar(p, QRectF(left, top, COLORBAR_WIDTH - MARGIN / 2, body), self.weights.colormap, self.font,
                       FOREGROUND, BACKGROUND, mask_kind=legend_kind(self.a))
        if self.comparable():
            paint_colorbar(p, QRectF(left + COLORBAR_WIDTH, top, COLORBAR_WIDTH - MARGIN / 2, body),
                           self.signed.colormap, self.font, FOREGROUND, BACKGROUND, mask_kind=None,
                           reach=self.reach, title=tr("B − A"))


class CompareCanvas(QWidget):
    """The figure, scaled to the widget (its aspect ratio kept)."""

    def __init__(self, figure: CompareFigure, parent=None):
        super().__init__(parent)
        self.figure = figure
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumSize(480, 360)

    def paintEvent(self, event):
        size = self.figure.size()
        scale = min(self.width() / size.width(), self.height() / size.height())
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        p.translate((self.width() - size.width() * scale) / 2, (self.height() - size.height() * scale) / 2)
        p.scale(scale, scale)
        self.figure.paint(p)
        p.end()


class CompareDialog(BackgroundDialog):
    """File → Compare with…, and the Help menu's pairs: a window of its own, beside the main one.
    Built off the GUI thread (B read, both computed, B − A, every panel coloured), with progress
    and Cancel: a 4,096-token model takes seconds."""

    STEPS = 4

    def __init__(self, a: Scenario, b, view, parent=None):
        """`b`: the scenario B, or a function that makes it (reads a file, another layer), called
        off the GUI thread. If it fails, the dialog closes and `failed` says why. `view`: the
        window's view state, whose colour map and scale A and B are drawn with."""
        super().__init__(parent)
        self.setObjectName("compareDialog")
        self.view = view
        self.destroyed.connect(view.subscribe(("colormap", "scale"), lambda _: self.update_colours()))
        self.figure: CompareFigure | None = None
        self.canvas: CompareCanvas | None = None
        self.note = self.message  # the caption, once the figure is made
        self.setWindowTitle(tr("Compare"))
        self.message.setText(tr("Building the comparison…"))
        self.resize(1200, 400)
        self.start(self._build, a, b, colormaps.get(view.colormap, view.scale))

    @staticmethod
    def _build(step, a: Scenario, b, colormap) -> CompareFigure:
        step(0, CompareDialog.STEPS)
        b = b() if callable(b) else b
        step(1, CompareDialog.STEPS)
        first = compute(a)
        step(2, CompareDialog.STEPS)
        second = compute(b)
        step(3, CompareDialog.STEPS)
        figure = CompareFigure(a, b, colormap=colormap, results=(first, second))
        figure.colour()
        return figure

    def progress_text(self, done: int, total: int) -> str:
        return tr("Building the comparison: step {0} of {1}").format(done + 1, total)

    def show_failure(self, message: str) -> None:
        self.close()  # the caller says why (`failed`), as for any file that cannot be opened

    def show_result(self, figure: CompareFigure) -> None:
        figure.set_colormap(colormaps.get(self.view.colormap, self.view.scale))  # chosen while it was built
        self.figure = figure
        self.setWindowTitle(tr("Compare: {0} and {1}").format(*figure.titles()))
        self.note.setText(figure.caption_text())
        self.canvas = CompareCanvas(figure)
        self.layout_.addWidget(self.canvas, 1)
        size = figure.size()  # the figure's shape, not a square of empty space around it
        self.resize(1200, min(1000, round(1200 * size.height() / size.width()) + 60))

    def update_colours(self) -> None:
        """Another colour map or scale: drawn again with it."""
        if self.figure is not None:
            self.figure.set_colormap(colormaps.get(self.view.colormap, self.view.scale))
            self.canvas.update()
