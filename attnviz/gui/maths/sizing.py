"""The maths views' type (and the overview's): the application's font (and its zoom) on the desk, and
presentation-sized in front of a class (`set_presentation`): never smaller than the back row reads at
1920×1080.

A view's own font is what everything in it is drawn with: Qt hands it to the labels, buttons and
tables inside, and the figures read it. pyqtgraph does not: its axes keep their own tick font, their
labels an HTML size, and a plot's title row is 30 px high whatever its text; `style_plot` sets them
from the view's font.
"""
from __future__ import annotations

from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF
from PySide6.QtWidgets import QApplication, QComboBox, QHeaderView

from ..look.fonts import LEAST_SHARE, figure_font, presented, readable_pixels

EXPONENTS = {"e^(x − max)": "eˣ⁻ᵐᵃˣ", "e^(x−max)": "eˣ⁻ᵐᵃˣ", "e^x": "eˣ", "e^0": "e⁰", "e^−∞": "e⁻∞"}


def exponents(text: str) -> str:
    """Caret powers written as the formula writes them (e^x → eˣ), whatever the translation still has."""
    for caret, raised in EXPONENTS.items():
        text = text.replace(caret, raised)
    return text


def pixels(font: QFont) -> int:
    """The font's size in pixels, whether it was given in points or in pixels."""
    return font.pixelSize() if font.pixelSize() > 0 else QFontInfo(font).pixelSize()


class Presenting:
    """Mixin for a maths view: `set_presentation(on)` sizes its type for a projector, and it follows
    the application's zoom while presenting (Ctrl++ never makes it smaller than the back row reads)."""

    presenting = False
    _follows_zoom = False

    def set_presentation(self, on: bool) -> None:
        self.presenting = on
        if not self._follows_zoom:  # (only top-level windows hear of a new application font)
            QApplication.instance().fontChanged.connect(self._zoomed)
            self._follows_zoom = True
        self._present_font()
        self.presentation_changed()

    def _present_font(self) -> None:
        # QFont() with nothing set: the widget follows the application's font again (the desk's look).
        self.setFont(presented(QApplication.font(), self) if self.presenting else QFont())
        fit_children(self, self.presenting)

    def _zoomed(self, _font) -> None:
        if self.presenting:
            self._present_font()  # presented type follows the zoom, never below readable

    def presentation_changed(self) -> None:
        """What else the view rearranges presenting (a layout turned, numbers left out)."""


def fit_children(widget, presenting: bool) -> None:
    """What does not follow `widget`'s new font by itself: a table's headers (the platform gives them a
    font of their own) take it, and each combo box is at least as large as its text in it (a QComboBox
    works out its least size once and keeps it whatever its font becomes)."""
    for header in widget.findChildren(QHeaderView):
        header.setFont(widget.font() if presenting else QFont())
    for combo in widget.findChildren(QComboBox):
        combo.setMinimumSize(combo.sizeHint())


def style_plot(plot, font: QFont, tick_lines: int | None = None) -> None:
    """A pyqtgraph PlotWidget's ticks and axis labels in `font` (the axes make room for them). With
    `tick_lines`, the bottom axis is as high as that many lines of tick text from the start (pyqtgraph
    measures its ticks only once drawn, and cuts them off until the next layout)."""
    font = figure_font(pixel_size=pixels(font))
    if tick_lines:
        axis = plot.getAxis("bottom")
        axis.setHeight(QFontMetricsF(font).height() * tick_lines + max(5, pixels(font) // 3) + 5)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setTickFont(font)
        axis.setStyle(tickTextOffset=max(5, pixels(font) // 3))
        axis.label.setFont(font)
        axis.labelStyle["font-size"] = f"{pixels(font)}px"
        if axis.labelText:
            axis.setLabel(axis.labelText)  # its HTML again, in that size


def plot_title(plot, text: str, font: QFont) -> None:
    """A plot's title in `font` and the window's text colour (pyqtgraph's own is light grey, faint on a
    projector), in a row as high as its text (pyqtgraph's own is 30 px, for ~ 9 pt)."""
    plot.setTitle(text, size=f"{pixels(font)}px", color=plot.palette().windowText().color().name())
    height = QFontMetricsF(figure_font(pixel_size=pixels(font))).height() * 1.3
    plot.getPlotItem().titleLabel.setMaximumHeight(height)
    plot.getPlotItem().layout.setRowFixedHeight(0, height)




def least_pixels(widget) -> int:
    """Presenting, numbers smaller than this are left out rather than shown unreadable."""
    return readable_pixels(widget, LEAST_SHARE)
