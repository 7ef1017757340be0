"""See the maths: drag q and k as arrows, √d_k, softmax overflow, masks beyond causal, kernel, before/after."""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QSpinBox, QWidget

from attnviz.core import compute
from attnviz.core.explorers import ScaleDemo, linear_attention_weights
from attnviz.core.masks import MaskSpec, visible


@pytest.fixture
def maths(window, qtbot):
    window.resize(1400, 1000)
    window.parts.maths_dock.show()
    window.parts.maths_dock.raise_()
    tabs = window.parts.maths.widget()
    qtbot.wait(20)
    return tabs


def show(tabs, name, qtbot):
    view = tabs.findChild(QWidget, name)
    tabs.setCurrentWidget(view)
    qtbot.wait(20)
    return view


def tip_position(view, x, y) -> QPoint:
    """Where the data point (x, y) of the geometry plot is on its viewport, in pixels."""
    scene = view.plot.getViewBox().mapViewToScene(QPointF(x, y))
    return view.plot.mapFromScene(scene)


def test_dragging_the_querys_arrow_edits_those_two_components_and_moves_the_weights(window, maths, qtbot):
    d = window.document
    view = show(maths, "geometryView", qtbot)
    sore = d.scenario.tokens.index("それ")
    assert d.query == sore and d.scenario.heads[0].q[sore].tolist() == [0, 2, 0, 0]
    start, end = tip_position(view, 0, 2), tip_position(view, 2, 0)  # from 食べ物 to 動物
    viewport = view.plot.viewport()
    qtbot.mousePress(viewport, Qt.LeftButton, pos=start)
    for t in np.linspace(0, 1, 8)[1:]:
        qtbot.mouseMove(viewport, pos=QPoint(int(start.x() + t * (end.x() - start.x())),
                                             int(start.y() + t * (end.y() - start.y()))))
    qtbot.mouseRelease(viewport, Qt.LeftButton, pos=end)
    q = d.scenario.heads[0].q[sore]
    assert q[2:].tolist() == [0, 0]  # only the two dimensions of the plane changed
    assert q[0] == pytest.approx(2, abs=0.15) and q[1] == pytest.approx(0, abs=0.15)
    weights = window.findChild(QWidget, "headPanel0").weights()
    np.testing.assert_array_equal(weights, compute(d.scenario).heads[0].weights)
    assert d.scenario.tokens[int(np.argmax(weights[sore]))] == "猫"  # それ now looks at the cat
    assert d.undo_stack.count() == 1  # one drag, one undo step
    window.menus.undo_action.trigger()
    assert d.scenario.heads[0].q[sore].tolist() == [0, 2, 0, 0]


def test_pca_projection_is_labelled_and_not_draggable(window, maths, qtbot):
    view = show(maths, "geometryView", qtbot)
    view.pca.setChecked(True)
    assert not view.arrows.draggable and "PCA" in view.note.text()
    assert view.plot.getAxis("bottom").labelText == "PC 1"


def test_the_root_d_k_explorer_shows_both_ways_for_every_d_k(window, maths, qtbot):
    view = show(maths, "sqrtExplorer", qtbot)
    assert len(view.maps.items) == 8
    captions = [data.title for data, _ in view.maps.items]
    assert captions[3].startswith("dₖ = 256, ÷√dₖ") and captions[7].startswith("dₖ = 256, no ÷√dₖ")
    demo = view.demos()[-1]
    assert ScaleDemo.peak(demo.unscaled) > ScaleDemo.peak(demo.scaled) + 0.3
    view.seed.setValue(5)
    assert view.maps.items[3][0].weights.tolist() != demo.scaled.tolist()  # the same d_k, another draw


def test_the_softmax_view_shows_overflow_without_the_max_subtraction(window, maths, qtbot):
    view = show(maths, "softmaxView", qtbot)
    assert "same weights" in view.verdict.text()
    view.factor.setCurrentIndex(view.FACTORS.index(1000))
    steps = view.steps()
    assert steps.overflows and np.all(np.isfinite(steps.weights))
    texts = [view.table.item(r, c).text() for r in range(view.table.rowCount()) for c in (5, 6)]
    assert "∞" in texts and "NaN" in texts and "overflows" in view.verdict.text()


def choose_mask(window, kind, size=None):
    box = window.findChild(QComboBox, "maskSelector")
    box.setCurrentIndex(("none", "causal", "window", "prefix", "padding", "custom").index(kind))
    box.activated.emit(box.currentIndex())
    if size is not None:
        window.findChild(QSpinBox, "maskSize").setValue(size)


@pytest.mark.parametrize("kind, size, spec", [("window", 2, MaskSpec("window", window=2)),
                                              ("prefix", 3, MaskSpec("prefix", prefix=3)),
                                              ("none", None, MaskSpec("none"))])
def test_each_mask_kind_gives_its_pattern_in_the_heatmaps(window, kind, size, spec):
    choose_mask(window, kind, size)
    hidden = ~visible(spec, 10)
    for i in range(2):
        panel = window.findChild(QWidget, f"headPanel{i}")
        assert np.array_equal(panel.masked(), hidden) and np.all(panel.weights()[hidden] == 0)
    assert window.findChild(QWidget, "causalToggle").isChecked() == (kind == "causal")


def cell_point(panel, row, col):
    g = panel.painter.geometry(panel._content_rect(), panel.data())
    return QPoint(int(g.grid.left() + (col + 0.5) * g.cell_w), int(g.grid.top() + (row + 0.5) * g.cell_h))


def test_hand_painting_hides_and_shows_cells_and_refuses_an_empty_row(window, qtbot):
    choose_mask(window, "custom")
    panel = window.findChild(QWidget, "headPanel0")
    qtbot.mouseClick(panel, Qt.LeftButton, Qt.ShiftModifier, cell_point(panel, 6, 2))  # それ ⇸ 魚
    assert panel.masked()[6, 2] and panel.weights()[6, 2] == 0
    assert window.document.query == 6  # a painting click does not select
    qtbot.mouseClick(panel, Qt.LeftButton, Qt.ShiftModifier, cell_point(panel, 0, 0))  # 猫 would see nothing
    assert not panel.masked()[0, 0] and "猫 would see no key" in window.findChild(QWidget, "messageLabel").text()
    window.menus.undo_action.trigger()
    assert not panel.masked()[6, 2]


def test_padding_hides_a_token_from_all_the_others(window, qtbot):
    choose_mask(window, "padding")
    panel = window.findChild(QWidget, "headPanel1")
    qtbot.mouseClick(panel, Qt.LeftButton, Qt.ShiftModifier, cell_point(panel, 9, 5))  # pad 。
    assert window.document.scenario.settings.mask.padding == (5,)
    masked = panel.masked()
    assert masked[6:, 5].all() and not masked[5, 5]


def test_linear_attention_in_the_kernel_view_equals_a_direct_computation(window, maths, qtbot):
    view = show(maths, "kernelView", qtbot)
    softmax_w, linear_w, difference = view.weights()
    head = window.document.scenario.heads[0]
    np.testing.assert_allclose(linear_w, linear_attention_weights(head.q, head.k, visible(MaskSpec(), 10)))
    np.testing.assert_array_equal(difference, linear_w - softmax_w)
    assert [data.title for data, _ in view.maps.items][1] == "linear, φ = elu + 1"


def test_before_and_after_shown_on_the_desk_pins_by_itself_then_shows_the_difference_for_every_head(window, maths,
                                                                                                   qtbot):
    view = show(maths, "diffView", qtbot)
    assert view.pinned is not None and len(view.maps.items) == 2  # shown with nothing pinned: pinned at once
    assert all(not data.weights.any() for data, _ in view.maps.items)
    before = [w.copy() for w in compute(window.document.scenario).weights()]
    view.pin.click()
    model = window.findChild(QWidget, "kTable").model()
    assert model.setData(model.index(0, 0), "0.5")
    QApplication.processEvents()
    after = compute(window.document.scenario).weights()
    for diff, a, b in zip(view.differences(), after, before):
        np.testing.assert_array_equal(diff, a - b)
    assert len(view.maps.items) == 2 and view.maps.items[0][1].signed


def test_the_maths_views_follow_a_switch_to_the_dark_look_at_once(window, maths, qtbot):
    kernel = show(maths, "kernelView", qtbot)
    window.classroom.set_theme("dark")
    QApplication.processEvents()
    # No edit in between: the switch alone redraws the heatmaps on the dark background ...
    assert all(painter.background.lightness() < 128 for _, painter in kernel.maps.items)
    softmax = show(maths, "softmaxView", qtbot)
    # ... and the softmax bars too, not only the geometry plot.
    assert all(plot.backgroundBrush().color().lightness() < 128
               for plot in (softmax.plots.scores, softmax.plots.weights))


def test_the_root_d_k_explorer_does_not_redraw_for_edits_it_does_not_show(window, maths, qtbot):
    view = show(maths, "sqrtExplorer", qtbot)
    drawn = view.maps.items
    model = window.findChild(QWidget, "qTable").model()
    assert model.setData(model.index(0, 0), "0.5")
    QApplication.processEvents()
    assert view.maps.items is drawn  # its random q and k do not depend on the scenario
    view.seed.setValue(1)
    assert view.maps.items is not drawn


def painted_geometry(view, qtbot):
    view.plot.viewport().repaint()  # place_labels runs in the paint
    qtbot.wait(10)
    return view.arrows


@pytest.mark.parametrize("preset", ["seed-demo", "hashi-chopsticks", "gqa-demo"])
def test_geometry_labels_never_overlap_and_every_tip_stays_in_view_after_edits(window, maths, qtbot, preset):
    from attnviz.gui.state.commands import SetProjectionCell, SetRow
    assert window.files.open_scenario(preset)
    view = show(maths, "geometryView", qtbot)
    d = window.document
    for step in range(3):
        arrows = painted_geometry(view, qtbot)
        boxes = arrows.placed
        assert len(boxes) == sum(1 for a in arrows.arrows if a[5])
        for a in range(len(boxes)):
            for b in range(a + 1, len(boxes)):
                assert not boxes[a].intersects(boxes[b]), (preset, step, a, b)
        (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
        assert all(x0 <= t[2][0] <= x1 and y0 <= t[2][1] <= y1 for t in arrows.arrows), (preset, step)
        if d.scenario.projection is None:
            row = np.array(d.scenario.heads[d.active_head].q[d.query])
            row[: 2] = row[: 2] * 3 + 5  # far out of the old view
            d.push(SetRow(d, d.active_head, "q", d.query, row))
        else:  # q comes from X: move the query's x instead
            d.push(SetProjectionCell(d, "x", d.query, step, float(d.scenario.projection.x[d.query, step]) * 3 + 5))
        view.refresh()


def test_geometry_masked_keys_are_dashed_and_their_weight_is_never_counted(window, maths, qtbot):
    view = show(maths, "geometryView", qtbot)
    d = window.document
    d.select(query=0)  # 猫 sees only itself: every other key is masked
    view.refresh()
    masked = [a for a in view.arrows.arrows if a[0] == "k" and a[6]]
    seen = [a for a in view.arrows.arrows if a[0] == "k" and not a[6]]
    assert masked and all("w =" not in a[5] for a in masked)
    assert all(d.scenario.tokens.index(a[5].split()[1].rstrip(",")) == 0 for a in seen if "w =" in a[5])
    assert all("e-" not in a[5] and "e−" not in a[5] for a in view.arrows.arrows)
    assert not view.plot.getAxis("left").autoSIPrefix  # plain numbers on the axes


def test_kernel_and_before_after_maps_have_colour_bars_beside_them(window, maths, qtbot):
    kernel = show(maths, "kernelView", qtbot)
    bars = kernel.maps.bars()
    assert [b.signed for b in bars] == [False, True]  # the weights' 0–1 and the difference's ±
    for i in range(len(kernel.maps.items)):
        assert all(not kernel.maps.rect_of(i).intersects(kernel.maps.bar_rect(b)) for b in range(len(bars)))
    image = kernel.maps.grab().toImage()
    bar = kernel.maps.bar_rect(0)
    top = image.pixelColor(int(bar.left() + bar.width() * 0.2), int(bar.top() + bar.height() * 0.2))
    assert top.green() > 150 and top.blue() < 150  # viridis near 1: yellow-green, drawn there
    diff = show(maths, "diffView", qtbot)
    diff.pin.click()
    model = window.findChild(QWidget, "kTable").model()
    assert model.setData(model.index(0, 0), "0.5")
    QApplication.processEvents()
    assert [(b.signed, b.reach) for b in diff.maps.bars()] == [(True, diff.maps.items[0][1].reach)]
