"""Two scenarios side by side: A's heads, B's heads, and B − A for each head they share.

Some stories only show in a pair (seed 003: attention alone cannot tell 猫が座った from
座ったが猫; はし next to ご飯 or next to 川). B − A is taken word by word (core/align.py): B's
rows and columns in A's word order, so the same weights reordered give 0; when the words differ
there is no B − A, and the caption says why. CompareFigure paints the pair on any QPainter,
like Figure: the window's Compare view and `attnviz export A --compare B` draw the same.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from PySide6.QtCore import QEvent, QRectF, QSizeF, Qt
from PySide6.QtGui import QAction, QFont, QFontMetricsF, QImage, QKeySequence, QPainter
from PySide6.QtWidgets import QApplication, QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from ...core.align import align, differences, in_a_order, largest
from ...core.attention import POSITIONS
from ...core.compute import compute, hidden
from ...core.scenario import Scenario, ScenarioError, with_projection_options
from ..common.background import BackgroundDialog
from ..common.i18n import current_language, describe, head_label, tr
from ..export.figure import BACKGROUND, COLORBAR_WIDTH, FOREGROUND, GRID_FONT_PX, GRID_SIDE, MARGIN
from ..heads.heatmap import HeatmapData, HeatmapPainter, legend_kind, paint_colorbar
from ..look import colormaps
from ..look.fonts import figure_font, presented, readable_pixels, weighted

MIN_REACH = 0.05  # the difference scale never narrower than ±0.05: noise stays pale
LISTED = 4        # words named in the caption when A and B differ, before "…"
WRAP = Qt.AlignLeft | Qt.TextWordWrap


def sentences(*texts: str) -> str:
    """Sentences one after another: a space between them in English, none after Japanese's 。"""
    return ("" if current_language() == "ja" else " ").join(texts)


def retitled(s: Scenario) -> Scenario:
    """A title that says the positions chosen in the comparison (a preset's own may say "no positions")."""
    joined = ("" if any(not t.isascii() for t in s.tokens) else " ").join(s.tokens)
    label = {"none": tr("no positions"), "sinusoidal": tr("sinusoidal positions"), "rope": tr("RoPE")}
    title = tr("{0} ({1})").format(joined, label[s.projection.positions])
    return dataclasses.replace(s, title={current_language(): title})


class ComparePainter(HeatmapPainter):
    """A panel of the comparison. Differences print 0 as "0" (not "+0.00") and fit "+0.00" in a
    cell; presenting (`least` > 0), values take half the cell's height, at the least readable
    size or not at all."""

    def __init__(self, *args, least: int = 0, **kwargs):
        super().__init__(*args, value_share=0.5 if least else 0.36, **kwargs)
        self.least = least

    def _value_font(self, cell_w: float, cell_h: float) -> QFont | None:
        font = super()._value_font(cell_w, cell_h)
        if font is None:
            return None
        sample = "+0.00" if self.signed else "0.00"
        font = self._fitting(font, [sample], cell_w * 0.9)
        return font if font.pixelSize() >= max(7, self.least) else None

    def _text(self, w: float) -> str:
        """A difference of exactly 0 reads "0"; one that rounds to 0 "0.00", never "−0.00"."""
        if self.signed and round(w * self.reach, self.decimals) == 0:
            return "0" if w == 0 else f"{0:.{self.decimals}f}"
        return super()._text(w)


class CompareFigure:
    """Columns A, B and B − A, one row per head; a weights colour bar and a difference one."""

    def __init__(self, a: Scenario, b: Scenario, caption: bool = True, colormap: colormaps.ColorMap | None = None,
                 results=None):
        self.a, self.b, self.caption = a, b, caption
        self.results = results or (compute(a), compute(b))  # (A's, B's) when computed already
        self.alignment = align(a.tokens, b.tokens)
        self._differences = self._subtract()  # once: every repaint of the dialog reuses them
        self.colormap = colormap or colormaps.get()
        self.reach = max(MIN_REACH, largest(self._differences))
        self._cells = self._panel_cells()
        self.presented = 0  # presenting: the least type in pixels; 0 on the desk and in files
        self.side = GRID_SIDE  # a head's panel
        self._set_font(GRID_FONT_PX)

    def _set_font(self, pixels: int) -> None:
        self.font = figure_font(pixel_size=pixels)
        self.bar_width = COLORBAR_WIDTH * max(1.0, pixels / GRID_FONT_PX)  # its numbers grow with the type
        # One painter per panel: a painter keeps one panel's layout and hatching between repaints.
        self._painters: dict[tuple[int, int], HeatmapPainter] = {}
        self.weights, self.signed = self.painter(0, 0), self.painter(2, 0)  # the colour bars' maps

    def painter(self, kind: int, head: int) -> HeatmapPainter:
        """The painter of head `head` in A (kind 0), B (1) or B − A (2)."""
        if (kind, head) not in self._painters:
            options = dict(signed=kind == 2, reach=self.reach, background=BACKGROUND, foreground=FOREGROUND)
            colormap = None if kind == 2 else self.colormap
            self._painters[kind, head] = ComparePainter(colormap, self.font, least=self.presented, **options)
        return self._painters[kind, head]

    def set_colormap(self, colormap: colormaps.ColorMap) -> None:
        """A and B drawn with another map or scale (B − A keeps its diverging one)."""
        self.colormap = colormap
        for (kind, _), painter in self._painters.items():
            if kind != 2:
                painter.colormap = colormap

    def set_presentation(self, pixels: int) -> None:
        """Type of `pixels` (0: the desk's), for a figure drawn at its own size (see fit)."""
        self.presented = pixels
        self._set_font(pixels or GRID_FONT_PX)
        if not pixels:
            self.side = GRID_SIDE

    def fit(self, width: float, height: float) -> None:
        """Panels as large as `width` × `height` holds, drawn at scale 1: the type stays its size."""
        for _ in range(3):  # the titles' height depends on the panels' width: settle in a few rounds
            across = (width - self._bars_width() - 2 * MARGIN) / self.kinds()
            down = (height - self._label_height() - self._caption_height() - 2 * MARGIN) / max(self.rows(), 1.25)
            self.side = max(120.0, min(across, down))

    # ------------------------------------------------------------- numbers

    def comparable(self) -> bool:
        """B − A is defined cell by cell when B's words are A's, perhaps in another order."""
        return self.alignment.aligned

    def same(self) -> bool:
        """B − A is 0 in every cell (after lining up the words)."""
        return self.comparable() and largest(self._differences) == 0.0

    def differences(self) -> list[np.ndarray]:
        """B's weights − A's for each head both have, in A's word order (none when the words differ)."""
        return self._differences

    def _panel_cells(self) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
        """(weights, masked) of every panel, made once: a painter keeps a panel's colours while they
        are the same arrays, so a repaint (a resize, a tooltip) colours nothing again."""
        cells = {}
        for kind, result in enumerate(self.results):
            for h, trace in enumerate(result.heads):
                cells[kind, h] = (trace.weights, hidden(trace))
        for h, difference in enumerate(self.differences()):
            # hatched where both hide the key; hidden in one only, its weight is 0 and B − A is the other's
            both = cells[0, h][1] & in_a_order(cells[1, h][1], self.alignment)
            cells[2, h] = (difference / self.reach, both)
        return cells

    def _masks_differ(self) -> bool:
        return any(not np.array_equal(self._cells[0, h][1], in_a_order(self._cells[1, h][1], self.alignment))
                   for h in range(len(self.differences())))

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
        found = differences(self.results[0].weights(), self.results[1].weights(), self.alignment)
        return found or []

    # ------------------------------------------------------------- layout: A | B | B − A, a row per head

    def kinds(self) -> int:
        return 3 if self.comparable() else 2

    def rows(self) -> int:
        return max(len(self.a.heads), len(self.b.heads))

    def _label_height(self) -> float:
        """The columns' titles, wrapped to a panel's width: as tall as the tallest (two lines at least)."""
        font = weighted(self.font, bold=True)
        fm = QFontMetricsF(font)
        tallest = max(fm.boundingRect(QRectF(0, 0, self.side - MARGIN, 10000), WRAP, text).height()
                      for text in self.column_titles())
        return max(tallest, fm.height() * 2) + fm.height() * 0.5

    def _caption_height(self) -> float:
        if not self.caption:
            return 0.0
        fm = QFontMetricsF(self.font)
        return fm.boundingRect(QRectF(0, 0, self._width() - 2 * MARGIN, 10000), WRAP,
                               self.caption_text()).height() + fm.height() * 0.6

    def _bars_width(self) -> float:
        """The weights' colour bar, and B − A's when there is one."""
        return (2 if self.comparable() else 1) * self.bar_width

    def _width(self) -> float:
        return self.kinds() * self.side + self._bars_width() + 2 * MARGIN

    def size(self) -> QSizeF:
        return QSizeF(self._width(),
                      self._label_height() + self._body_height() + self._caption_height() + 2 * MARGIN)

    def _body_height(self) -> float:
        """The heads, or the colour bars with the mask's swatch if they are taller (one head)."""
        return max(self.rows() * self.side, self.side * 1.25)

    def head_rect(self, kind: int, head: int) -> QRectF:
        """Where head `head` of A (kind 0), B (1) or B − A (2) is drawn."""
        return QRectF(MARGIN + kind * self.side, MARGIN + self._label_height() + head * self.side,
                      self.side - MARGIN / 2, self.side - MARGIN / 2)

    def column_titles(self) -> list[str]:
        title_a, title_b = self.titles()
        titles = ["A: " + title_a, "B: " + title_b]
        if self.comparable():
            titles.append(tr("B − A in A's word order: blue lost weight, brown gained it")
                          if self.alignment.reordered else tr("B − A: blue lost weight, brown gained it"))
        return titles

    def verdict(self) -> str:
        """What the comparison shows, in a sentence: the same weights (reordered), a difference, or
        why there is no B − A."""
        if not self.comparable():
            return self._why_not()
        if self.same():
            return (tr("B − A is 0 everywhere: the same weights, reordered.") if self.alignment.reordered
                    else tr("B − A is 0 everywhere: the same weights."))
        reach = f"{self.reach:.2f}"
        text = (tr("B − A on a scale of ±{0}, with B's rows and columns put in A's word order.").format(reach)
                if self.alignment.reordered else tr("B − A on a scale of ±{0}.").format(reach))
        if self._masks_differ():
            text = sentences(text, tr("A key hidden in only one of them counts there as weight 0."))
        return text

    def _why_not(self) -> str:
        def listed(words):
            return tr(", ").join(words[:LISTED]) + ("…" if len(words) > LISTED else "")
        only_a, only_b = self.alignment.only_in_a(), self.alignment.only_in_b()
        if only_a or only_b:
            text = tr("No B − A: a difference means something only between the same words, and A and B "
                      "have different words (only in A: {0}; only in B: {1}).").format(
                listed(only_a) or "—", listed(only_b) or "—")
        else:
            text = tr("No B − A: a difference means something only between the same words, and A and B "
                      "have the same words but not as often each.")
        if self.a.n != self.b.n:
            text = sentences(text, tr("A has {0} tokens, B has {1}.").format(self.a.n, self.b.n))
        return text

    def caption_text(self) -> str:
        return tr("A: {0} · B: {1}").format(*self.titles()) + " · " + self.verdict()

    def titles(self) -> tuple[str, str]:
        """Each side's title, and its layer when it is one layer of a model."""
        lang = current_language()
        names = [s.text("title", lang) or name for s, name in ((self.a, "A"), (self.b, "B"))]
        return tuple(tr("{0}, layer {1}").format(name, s.layer[0]) if s.layer else name
                     for name, s in zip(names, (self.a, self.b)))

    # ------------------------------------------------------------- painting

    def panels(self):
        """(painter, rect, data) of every head drawn: A's, B's and (when the words line up) B − A's,
        labelled with A's words."""
        for kind, s in enumerate((self.a, self.b)):
            for h in range(len(s.heads)):
                yield self.painter(kind, h), self.head_rect(kind, h), HeatmapData(
                    s.tokens, *self._cells[kind, h], head_label(s, h))
        for h in range(len(self.differences())):
            yield self.painter(2, h), self.head_rect(2, h), HeatmapData(
                self.a.tokens, *self._cells[2, h], head_label(self.b, h))

    def paint(self, p: QPainter, vector: bool = False) -> None:
        size = self.size()
        p.fillRect(QRectF(0, 0, size.width(), size.height()), BACKGROUND)
        for kind, title in enumerate(self.column_titles()):
            self._column_label(p, kind, title)
        for painter, rect, data in self.panels():
            painter.paint(p, rect, data, vector=vector)
        self._bars(p)
        if self.caption:
            height = self._caption_height()
            p.setFont(self.font)
            p.setPen(FOREGROUND)
            p.drawText(QRectF(MARGIN, size.height() - MARGIN - height, size.width() - 2 * MARGIN, height),
                       WRAP | Qt.AlignVCenter, self.caption_text())

    def _column_label(self, p: QPainter, kind: int, text: str) -> None:
        p.setFont(weighted(self.font, bold=True))
        p.setPen(FOREGROUND)
        p.drawText(QRectF(MARGIN + kind * self.side, MARGIN, self.side - MARGIN, self._label_height()),
                   WRAP | Qt.AlignBottom, text)

    def _bars(self, p: QPainter) -> None:
        left = MARGIN + self.kinds() * self.side
        top = MARGIN + self._label_height()
        body = self._body_height()
        hatched = any(masked.any() for _, masked in self._cells.values())  # no swatch for what is not drawn
        paint_colorbar(p, QRectF(left, top, self.bar_width - MARGIN / 2, body), self.weights.colormap, self.font,
                       FOREGROUND, BACKGROUND, mask_kind=legend_kind(self.a) if hatched else None)
        if self.comparable():
            paint_colorbar(p, QRectF(left + self.bar_width, top, self.bar_width - MARGIN / 2, body),
                           self.signed.colormap, self.font, FOREGROUND, BACKGROUND, mask_kind=None,
                           reach=self.reach, title=tr("B − A"))


class CompareCanvas(QWidget):
    """The figure, scaled to the widget (its aspect ratio kept); presenting, laid out to fill it
    at scale 1, so its type keeps the presented size."""

    def __init__(self, figure: CompareFigure, parent=None):
        super().__init__(parent)
        self.figure = figure
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumSize(480, 360)

    def scale(self) -> float:
        """Screen pixels per pixel of the figure."""
        size = self.figure.size()
        return min(self.width() / size.width(), self.height() / size.height())

    def relayout(self) -> None:
        if self.figure.presented:
            self.figure.fit(self.width(), self.height())
        self.update()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.relayout()

    def paintEvent(self, event):
        size, scale = self.figure.size(), self.scale()
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
        self.destroyed.connect(view.subscribe("presenting", self.set_presentation))  # leaves with the window
        self.presenting = False
        self._sized = False  # the desk window shaped to its first figure
        self.figure: CompareFigure | None = None
        self.canvas: CompareCanvas | None = None
        self.note = self.message  # the caption, once the figure is made
        self.compared = None  # made for the stage: what it shows, as a lesson's scene names it (controller.Compared)
        self._positions_row()
        self._own_keys()
        self.setWindowTitle(tr("Compare"))
        self.message.setText(tr("Building the comparison…"))
        self.resize(1200, 400)
        self.start(self._build, a, b, colormaps.get(view.colormap, view.scale))

    def _positions_row(self) -> None:
        """Seed 003 in one place: positions on or off for A and B at once (when both are a layer
        with X and W), and B − A appears or goes."""
        self.positions_name = QLabel(tr("Positions in A and B"), objectName="comparePositionsName")
        self.positions = QComboBox(objectName="comparePositions")
        self.positions.addItems([tr("none"), tr("sinusoidal, added to X"), tr("RoPE, rotating q and k")])
        self.positions.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.positions.currentIndexChanged.connect(self._set_positions)
        # presented from the stage: what C and Esc do, on this row so the panels keep their height
        self.hint = QLabel(objectName="compareHint")
        self.hint.hide()
        row = QHBoxLayout()
        row.addWidget(self.positions_name)
        row.addWidget(self.positions)
        row.addStretch(1)
        row.addWidget(self.hint)
        self.layout_.insertLayout(1, row)
        for widget in (self.positions_name, self.positions):
            widget.hide()  # until both are known to be layers

    def _own_keys(self) -> None:
        """A window of its own does not get the main window's keys: F5 presents it (full screen at
        the back row's type) and leaves again; Esc leaves full screen first, then closes."""
        self.present_action = QAction(self, shortcut=QKeySequence("F5"))
        self.present_action.triggered.connect(self._f5)
        self.addAction(self.present_action)

    def _f5(self) -> None:
        if self.view.presenting:  # over the window's presentation: back to it (as Esc)
            self.close()
        else:
            self.set_presentation(not self.presenting)

    def lend(self) -> None:
        """Shown on the presentation's stage instead of in a window of its own: the main window's
        keys (its F5, the number keys, Tab, Esc) are the ones that work, and the type is presented."""
        self.setWindowFlags(Qt.Widget)
        self.present_action.setEnabled(False)  # two F5s in one window would both be ignored
        self.set_presentation(True)

    def set_hint(self, text: str) -> None:
        """Presented on the stage: a line under the comparison saying which keys go on from here."""
        self.hint.setText(text)
        self.hint.setVisible(bool(text))

    def keyPressEvent(self, event):
        if event.key() == Qt.Key_Escape and self.isWindow() and self.isFullScreen() and not self.view.presenting:
            self.set_presentation(False)  # back to the desk's window, the comparison kept
            return
        super().keyPressEvent(event)  # otherwise QDialog's: Esc closes (back to the presentation beneath)

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() == QEvent.WindowStateChange and self.isWindow() and self.isFullScreen() != self.presenting:
            # full screen by the window manager (F11, a double-click): the type follows, as with F5
            self.set_presentation(self.isFullScreen())

    def _set_positions(self, index: int) -> None:
        if self.figure is None or self.working:
            return
        try:
            a, b = (retitled(with_projection_options(s, positions=POSITIONS[index]))
                    for s in (self.figure.a, self.figure.b))
        except ScenarioError as e:
            self.note.setText(describe(e))
            return
        self.start(self._build, a, b, colormaps.get(self.view.colormap, self.view.scale))

    @staticmethod
    def _build(step, a: Scenario, b, colormap) -> CompareFigure:
        step(0, CompareDialog.STEPS)
        b = b() if callable(b) else b
        step(1, CompareDialog.STEPS)
        first = compute(a)
        step(2, CompareDialog.STEPS)
        second = compute(b)
        step(3, CompareDialog.STEPS)
        figure = CompareFigure(a, b, caption=False, colormap=colormap, results=(first, second))  # the note says it
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
        if self.canvas is not None:  # built again (other positions): the new figure in its place
            self.layout_.removeWidget(self.canvas)
            self.canvas.deleteLater()
        self.canvas = CompareCanvas(figure)
        self.layout_.addWidget(self.canvas, 1)
        layers = figure.a.projection is not None and figure.b.projection is not None
        for widget in (self.positions_name, self.positions):
            widget.setVisible(layers)
        if layers:
            self.positions.blockSignals(True)  # shows A's, changes nothing
            self.positions.setCurrentIndex(POSITIONS.index(figure.a.projection.positions))
            self.positions.blockSignals(False)
        if self.presenting:
            self.set_presentation(True)
        elif self.isWindow() and not self.isFullScreen() and not self.isMaximized() and not self._sized:
            self._sized = True  # once: other positions keep the size the user gave it (RoPE shrank it)
            size = figure.size()  # the figure's shape, not a square of empty space around it
            self.resize(1200, min(1000, round(1200 * size.height() / size.width()) + 60))

    def set_presentation(self, on: bool) -> None:
        """Presenting: full screen, the figure filling it at the back row's type (≥ 20 px at
        1920×1080), the note above it too. Off: back to the desk's window."""
        self.presenting = bool(on)
        font = presented(QApplication.font(), self) if self.presenting else QFont()
        for widget in (self.message, self.cancel_button, self.progress, self.positions_name, self.positions,
                       self.hint):
            widget.setFont(font)
        if self.figure is not None:
            self.figure.set_presentation(readable_pixels(self) if self.presenting else 0)
            self.canvas.relayout()
        if not self.isWindow():
            return  # on the presentation's stage: already full screen
        if self.presenting and not self.isFullScreen():
            self.showFullScreen()
        elif not self.presenting and self.isFullScreen():
            self.showNormal()

    def update_colours(self) -> None:
        """Another colour map or scale: drawn again with it."""
        if self.figure is not None:
            self.figure.set_colormap(colormaps.get(self.view.colormap, self.view.scale))
            self.canvas.update()
