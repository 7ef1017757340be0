"""What the README promises the heatmap draws, seen in its pixels: hatching on masked cells (and
only there), a frame around the selected query's row, and values legible on every cell's colour."""
import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFontInfo, QImage, QPainter

from attnviz.core import compute, load_preset
from attnviz.core.compute import hidden
from attnviz.gui.heads.heatmap import SELECT_OUTER, HeatmapData, HeatmapPainter
from attnviz.gui.look import colormaps
from pixels import assert_hatched, assert_not_hatched, background, cell, contrast, inked, near, rgb, triple

SIDE = 800
LOOKS = {"light": (QColor(255, 255, 255), QColor(20, 20, 20)), "dark": (QColor(30, 30, 30), QColor(230, 230, 230))}


def seed_demo(selected_row=None) -> HeatmapData:
    """Head 0 of seed-demo: causal, so every cell right of the diagonal is masked."""
    s = load_preset("seed-demo")
    trace = compute(s).heads[0]
    return HeatmapData(s.tokens, trace.weights, hidden(trace), "head 0", selected_row)


def painted(data: HeatmapData, painter: HeatmapPainter | None = None, side: int = SIDE):
    """(pixels [side, side, 3], the painter's geometry, the painter), as on screen."""
    painter = painter or HeatmapPainter()
    image = QImage(side, side, QImage.Format_RGB32)
    image.fill(painter.background)
    p = QPainter(image)
    g = painter.paint(p, QRectF(0, 0, side, side), data)
    p.end()
    return rgb(image), g, painter


@pytest.mark.parametrize("look", LOOKS)
def test_every_masked_cell_is_hatched_and_no_other_cell(look):
    back, fore = LOOKS[look]
    data = seed_demo()
    pixels, g, painter = painted(data, HeatmapPainter(background=back, foreground=fore))
    mask = painter.mask
    assert not inked(painter.colormap.lut.astype(float), mask.fill, mask.hatch).any()  # no cell passes for hatching
    assert data.masked.sum() == 45
    for i, j in np.argwhere(data.masked):
        assert_hatched(pixels, g, i, j, mask)
    for i, j in np.argwhere(~data.masked):
        assert_not_hatched(pixels, g, i, j, mask)


def test_the_windows_heatmap_hatches_the_future_and_frames_the_selected_query(window):
    window.document.select(head=0, query=5)
    panel = window.parts.heads.panels[0]
    pixels = rgb(panel.grab().toImage())
    data = panel.shown()
    g = panel.painter.geometry(panel._content_rect(), data)
    assert data.selected_row == 5
    for i, j in ((0, 9), (3, 4), (8, 9)):
        assert data.masked[i, j]
        assert_hatched(pixels, g, i, j, panel.painter.mask)
    for i, j in ((9, 0), (4, 4), (9, 9)):
        assert_not_hatched(pixels, g, i, j, panel.painter.mask)
    assert_framed(pixels, g, 5, 10)
    for row in (2, 8):
        assert_not_framed(pixels, g, row, 10)


# ---------------------------------------------------------------- the selected row's frame

FRAME = 6  # px: the frame is at most 5 wide, either side of the row's edge


def black(pixels):
    return near(pixels, SELECT_OUTER, 60)


def across_edge(pixels, g, row, column, edge):
    """(the pixels crossing row `row`'s top or bottom edge at the middle of `column`, as far as the
    frame reaches either side and never outside the matrix (labels are drawn there), the first
    one's y, the edge's y)."""
    y = g.grid.top() + (row + (edge == "bottom")) * g.cell_h
    x = round(g.grid.left() + (column + 0.5) * g.cell_w)
    top, bottom = round(max(y - FRAME, g.grid.top())), round(min(y + FRAME, g.grid.bottom()))
    return pixels[top:bottom + 1, x], top, y


def assert_framed(pixels, g, row, n):
    """The frame's black either side of the selected row's top and bottom edges (its white runs on
    the edge, where the grid's lines are white too), all along them, and down the row's left and
    right ends (inside the matrix: the frame is clipped to it)."""
    for column in range(n):
        for edge in ("top", "bottom"):
            profile, top, y = across_edge(pixels, g, row, column, edge)
            dark = np.flatnonzero(black(profile)) + top
            assert (dark < y).any() and (dark > y).any(), (row, column, edge)
    middle = round(g.grid.top() + (row + 0.5) * g.cell_h)
    ends = [pixels[middle, round(g.grid.left()):round(g.grid.left() + FRAME)],
            pixels[middle, round(g.grid.right() - FRAME):round(g.grid.right())]]
    assert all(black(end).any() for end in ends), row


def assert_not_framed(pixels, g, row, n):
    for column in range(n):
        for edge in ("top", "bottom"):
            assert not black(across_edge(pixels, g, row, column, edge)[0]).any(), (row, column, edge)
    middle = round(g.grid.top() + (row + 0.5) * g.cell_h)
    assert not black(pixels[middle, round(g.grid.left()):round(g.grid.left() + FRAME)]).any(), row


@pytest.mark.parametrize("selected", [1, 5, 8])
def test_the_selected_query_row_is_framed_and_no_other_row(selected):
    data = seed_demo(selected_row=selected)
    pixels, g, _ = painted(data)
    assert_framed(pixels, g, selected, 10)
    for row in range(10):
        if abs(row - selected) > 1:  # the rows beside it share an edge with it
            assert_not_framed(pixels, g, row, 10)


def test_with_no_row_selected_no_row_is_framed():
    pixels, g, _ = painted(seed_demo())
    for row in range(10):
        assert_not_framed(pixels, g, row, 10)


# ---------------------------------------------------------------- values legible on their cells

LEGIBLE = 4.5  # WCAG 2's contrast ratio for body text
ENDS = (0.0, 0.5, 1.0)  # places on the colour map: both ends and the middle


def text_contrast(pixels, g, i, j):
    """(the cell's colour, the contrast ratio against it of each pixel in the cell's middle, where
    its value is written): the colour is measured, never taken from the painter."""
    inside = cell(pixels, g, i, j, rows=(0.12, 0.88), columns=(0.12, 0.88)).reshape(-1, 3)
    colour = background(inside)
    return colour, contrast(inside, colour)


@pytest.mark.parametrize("name", list(colormaps.MAPS))
def test_values_are_written_legibly_on_both_ends_and_the_middle_of_every_colour_map(name):
    """Each value's text, measured from the pixels, stands out from its own cell's colour by a
    contrast ratio of 4.5 or more: the glyphs' strokes, not only a few of their edge pixels."""
    signed = not colormaps.MAPS[name].for_weights  # differences: −1 .. 1 on the diverging map
    values = np.array(ENDS) * 2 - 1 if signed else np.array(ENDS)
    data = HeatmapData(("a", "b", "c"), np.tile(values, (3, 1)), np.zeros((3, 3), bool))
    pixels, g, painter = painted(data, HeatmapPainter(colormaps.get(name), signed=signed), side=480)
    assert g.value_font is not None and g.value_font.pixelSize() >= 20  # strokes thicker than antialiasing
    for j, place in enumerate(ENDS):
        colour, ratios = text_contrast(pixels, g, 1, j)
        np.testing.assert_allclose(colour, triple(painter.colormap.color(place)), atol=2)  # the map's colour ...
        assert (ratios >= LEGIBLE).sum() >= 100, (name, place, colour, ratios.max())  # ... legible text on it


@pytest.mark.parametrize("look", LOOKS)
def test_a_masked_cells_value_is_legible_on_the_masks_fill(look):
    back, fore = LOOKS[look]
    pixels, g, painter = painted(seed_demo(), HeatmapPainter(background=back, foreground=fore))
    inside = cell(pixels, g, 0, 9, rows=(0.12, 0.88), columns=(0.12, 0.88)).reshape(-1, 3)
    assert near(inside, painter.mask.fill, 2).mean() > 0.3  # the fill between the stripes, under the 0
    assert (contrast(inside, triple(painter.mask.fill)) >= LEGIBLE).sum() >= 50, look


def test_a_row_label_a_little_too_wide_is_drawn_smaller_not_cut():
    from PySide6.QtGui import QFontMetricsF

    from attnviz.gui.look.fonts import figure_font
    tokens = ("猫", "が", "座った")
    data = HeatmapData(tokens, np.full((3, 3), 1 / 3), np.zeros((3, 3), bool), "head 0")
    painter = HeatmapPainter(font=figure_font(pixel_size=40))
    rect = QRectF(0, 0, 420, 420)  # 30 % of it, 126 px, is a little short of 座った at 40 px
    assert QFontMetricsF(painter._fit_label_font(120)).horizontalAdvance("座った") > 0.3 * rect.width() * 0.95
    g = painter.geometry(rect, data)
    fm = QFontMetricsF(g.label_font)
    assert fm.horizontalAdvance("座った") + fm.height() * 0.25 <= g.row_label_width + 0.5  # whole
    assert QFontInfo(g.label_font).pixelSize() >= 0.7 * 40 * 0.8  # smaller, not tiny


@pytest.mark.parametrize("height, shown", [(640, True), (520, False)])
def test_presented_values_keep_the_back_rows_size_while_it_fits_the_cell_else_are_left_out(height, shown):
    """Thirteen tokens in a presented panel (the real-model lesson's, about 64 × 44 px a cell once an answer's
    lines take their room): the values at the least readable size, 20 px, not dropped because a third of
    the cell is under it; where half the cell is under it, none (the colours tell)."""
    tokens = tuple(f"t{i}" for i in range(13))
    data = HeatmapData(tokens, np.tril(np.full((13, 13), 1 / 13)), ~np.tril(np.ones((13, 13), bool)))
    painter = HeatmapPainter(value_share=0.44, least_pixels=20)
    g = painter.geometry(QRectF(0, 0, 960, height), data)
    assert (g.value_font is not None) == shown, (g.cell_w, g.cell_h)
    if shown:
        assert g.value_font.pixelSize() == 20 and g.cell_h * 0.44 < 20  # the share alone would have dropped them
