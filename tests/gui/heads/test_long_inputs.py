"""Long inputs: a heatmap of hundreds of tokens zooms and pans, and the selected query stays in view."""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attnviz.core import compute, make_head, make_scenario
from attnviz.gui import MainWindow
from attnviz.gui.heads.view import MIN_ZOOM_CELLS

N = 300


@pytest.fixture
def long_window(qtbot):
    rng = np.random.default_rng(0)
    heads = [make_head(f"head {h}", *(rng.normal(size=(N, 8)) for _ in "qkv")) for h in range(2)]
    window = MainWindow(make_scenario([f"t{i}" for i in range(N)], heads))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.document.select(head=0, query=150)
    return window


def panel(window):
    return window.parts.heads.panels[0]


def wheel(widget, notches, at):
    event = QWheelEvent(at, widget.mapToGlobal(at), QPoint(0, 0), QPoint(0, 120 * notches), Qt.NoButton,
                        Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def cell_centre(p, row, column):
    """Where cell (row, column) of the whole matrix is drawn now."""
    g = p.painter.geometry(p._content_rect(), p.shown())
    r0, c0 = p.offset()
    return QPointF(g.grid.left() + (column - c0 + 0.5) * g.cell_w, g.grid.top() + (row - r0 + 0.5) * g.cell_h)


def test_the_wheel_zooms_in_around_the_cell_under_the_mouse_and_back_out_to_the_whole_matrix(long_window):
    p = panel(long_window)
    target = cell_centre(p, 150, 100)
    wheel(p, 4, target)
    row, column, size = p.block
    assert size == round(N / 1.25 ** 4) and row <= 150 < row + size and column <= 100 < column + size
    shown = p.shown()
    np.testing.assert_array_equal(shown.weights, compute(long_window.document.scenario).heads[0].weights[
        row:row + size, column:column + size])
    assert shown.tokens[0] == f"t{row}" and shown.columns[0] == f"t{column}"  # labels follow the block
    for _ in range(40):
        wheel(p, 1, cell_centre(p, 150, 100))
    assert p.block[2] == MIN_ZOOM_CELLS
    for _ in range(40):
        wheel(p, -1, cell_centre(p, 150, 100))
    assert p.block is None  # all of it again


def test_the_selected_query_stays_in_view_and_highlighted_when_it_changes(long_window):
    p = panel(long_window)
    p.zoom(10)
    assert p.shown().selected_row is not None
    long_window.document.select(query=290)
    p.data()  # rebuilt after the change
    row, _, size = p.block
    assert row <= 290 < row + size and p.shown().tokens[p.shown().selected_row] == "t290"


def test_a_drag_moves_the_block_and_a_click_selects_the_row_under_it(long_window, qtbot):
    p = panel(long_window)
    p.zoom(10)
    before = p.block
    start = cell_centre(p, before[0] + 5, before[1] + 5)
    g = p.painter.geometry(p._content_rect(), p.shown())
    QTest.mousePress(p, Qt.LeftButton, pos=start.toPoint())
    QTest.mouseMove(p, (start - QPointF(3 * g.cell_w, 2 * g.cell_h)).toPoint())
    QTest.mouseRelease(p, Qt.LeftButton, pos=(start - QPointF(3 * g.cell_w, 2 * g.cell_h)).toPoint())
    after = p.block
    assert (after[0] - before[0], after[1] - before[1]) == (2, 3)
    assert long_window.document.query == 150  # a drag is not a click
    target = cell_centre(p, after[0] + 4, after[1] + 1)
    QTest.mouseClick(p, Qt.LeftButton, pos=target.toPoint())
    assert long_window.document.query == after[0] + 4
    QTest.mouseDClick(p, Qt.LeftButton, pos=target.toPoint())
    assert p.block is None


def test_a_zoomed_panel_draws_its_block_and_a_minimap(long_window):
    p = panel(long_window)
    p.zoom(6)
    image = p.grab().toImage()
    row, column, size = p.block
    box = p.minimap_rect()
    side, left, top = box.width(), box.left(), box.top()
    assert box.top() < p.painter.geometry(p._content_rect(), p.shown()).grid.center().y()  # above the diagonal
    x = int(left + column / N * side)  # the outline of the block shown, on the minimap
    y = int(top + (row + size / 2) / N * side)
    colours = {image.pixelColor(x + dx, y).name() for dx in (-1, 0, 1)}
    assert "#e67800" in colours, colours


def test_zoomed_in_the_per_row_scale_still_divides_by_the_whole_rows_largest_weight(long_window):
    long_window.classroom.set_scale("row")
    p = panel(long_window)
    p.zoom(10)
    shown = p.shown()
    row, column, size = p.block
    full = compute(long_window.document.scenario).heads[0].weights
    np.testing.assert_allclose(shown.row_max[:, 0], full[row:row + size].max(axis=1))
    image = p.grab().toImage()
    i, j = 3, 1
    cell_w = p.painter.geometry(p._content_rect(), shown).cell_w
    point = cell_centre(p, row + i, column + j) - QPointF(0.3 * cell_w, 0)
    expected = p.painter.colormap.color(float(full[row + i, column + j] / full[row + i].max()))
    got = image.pixelColor(point.toPoint())
    assert max(abs(got.red() - expected.red()), abs(got.green() - expected.green()),
               abs(got.blue() - expected.blue())) <= 8


def test_a_guided_step_keeps_its_row_in_view_however_the_panel_is_zoomed(long_window):
    from attnviz.gui.steps.stages import NUMBERS
    SCORE = NUMBERS[0]
    d = long_window.document
    p = panel(long_window)
    d.select(query=10)
    d.set_stage(SCORE)
    p.zoom(8, cell_centre(p, 280, 280))  # far from the row being explained
    p.data()
    shown = p.shown()
    assert shown.only_row is not None and shown.tokens[shown.only_row] == "t10"
    d.set_stage(None)


def test_4096_tokens_show_whole_in_a_panel_of_a_few_hundred_pixels(qtbot):
    """A cell may be far smaller than a pixel: the whole matrix is drawn inside its panel (cells were
    kept at half a pixel at least, so a 4,096-token matrix ran 2,048 px off the panel's edges)."""
    n = 4096
    weights = np.tril(np.ones((1, n, n), dtype=np.float32))
    weights /= weights.sum(axis=-1, keepdims=True)
    window = MainWindow(make_scenario([f"t{i}" for i in range(n)], [make_head("head 0", *(np.zeros((n, 0)),) * 3)],
                                      given=weights))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    p = panel(window)
    room = p._content_rect()
    grid = p.painter.geometry(room, p.shown()).grid
    assert room.contains(grid) and grid.width() > 100
    image = p.grab().toImage()
    inside = image.pixelColor(int(grid.left() + grid.width() * 0.9), int(grid.top() + grid.height() * 0.97))
    outside = image.pixelColor(int(grid.left() + grid.width() * 0.1), int(grid.top() + grid.height() * 0.03))
    assert inside != outside  # the last rows' weights (below the diagonal) and the hidden future, both in view


def test_cells_far_smaller_than_a_pixel_are_coloured_a_block_at_a_time_and_a_peak_stays_visible(qtbot):
    n = 4096
    weights = np.tril(np.ones((1, n, n), dtype=np.float32))
    weights /= weights.sum(axis=-1, keepdims=True)
    weights[0, 3000, :] = 0
    weights[0, 3000, 1234] = 1.0  # one query's whole weight on one key
    window = MainWindow(make_scenario([f"t{i}" for i in range(n)], [make_head("head 0", *(np.zeros((n, 0)),) * 3)],
                                      given=weights))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    p = panel(window)
    image = p.grab().toImage()
    pixels = p.painter._pixel_cache[1]
    assert pixels.shape[0] <= grid_height(p) + 1 and pixels.nbytes <= 4 * 2**20  # not 4,096² × 4 bytes = 64 MB
    grid = p.painter.geometry(p._content_rect(), p.shown()).grid
    x, y = grid.left() + (1234.5 / n) * grid.width(), grid.top() + (3000.5 / n) * grid.height()
    around = [image.pixelColor(int(x) + dx, int(y) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert any(c.red() > 200 and c.green() > 200 and c.blue() < 100 for c in around)  # yellow, not averaged away


def grid_height(p) -> float:
    return p.painter.geometry(p._content_rect(), p.shown()).grid.height()


@pytest.mark.parametrize("n, side", [(4, 2), (1000, 3), (4096, 1)])
def test_a_heatmap_squeezed_to_a_few_pixels_still_paints_without_error(qtbot, n, side):
    """A panel squeezed to almost nothing (a dock dragged shut) gets cells of a thousandth of a
    pixel: one block then colours them all (it once asked for blocks of 1,000 rows from 4, and
    the painter left active by the error brought Qt down later)."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from attnviz.gui.heads.heatmap import HeatmapPainter
    weights = np.tril(np.ones((1, n, n), dtype=np.float32))
    weights /= weights.sum(axis=-1, keepdims=True)
    s = make_scenario([f"t{i}" for i in range(n)], [make_head("head 0", *(np.zeros((n, 0)),) * 3)], given=weights)
    window = MainWindow(s)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    data = panel(window).shown()
    image = QImage(40, 40, QImage.Format_ARGB32)
    image.fill(0)
    painter, p = HeatmapPainter(labels=False), QPainter(image)
    try:
        painter.paint(p, QRectF(10, 10, side, side), data)  # raised ValueError
    finally:
        p.end()
    pixels = painter._pixel_cache[1]
    assert pixels.shape[0] <= 8 and pixels.shape == pixels.shape[::-1]  # a few blocks for all n² cells
