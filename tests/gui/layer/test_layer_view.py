"""The layer from X to O as one picture: every matrix's shape written, the guided step's box lit,
a click on a box showing its numbers, GQA's shared groups, positions, the residual as arrows,
and the same widget presented (type ≥ 20 px at 1920 × 1080, nothing clipped) in both languages."""
import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontInfo, QFontMetrics, QPalette
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QTableView, QWidget

from attnviz.core import compute, load_preset
from attnviz.core.attention import sinusoidal_positions
from attnviz.core.scenario import with_projection_options
from attnviz.gui.common.i18n import install_language
from attnviz.gui.common.markup import unmarked
from attnviz.gui.layer.diagram import LIT
from attnviz.gui.layer.view import LayerView
from attnviz.gui.state.document import ScenarioDocument
from pixels import near, rgb


def open_view(qtbot, scenario, size=(1400, 900), presenting=False):
    if isinstance(scenario, str):
        scenario = load_preset(scenario)
    document = ScenarioDocument(scenario)
    messages = []
    view = LayerView(document, messages.append)
    qtbot.addWidget(view)
    view.set_presentation(presenting)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    view.messages = messages
    return view


def lines(view, key):
    return [unmarked(t) for t in view.diagram.boxes()[key].lines]  # as read: subscripts inline


def click(qtbot, view, key):
    rect = view.diagram.boxes()[key].rect
    qtbot.mouseClick(view.diagram, Qt.LeftButton, pos=rect.center().toPoint())


def shown(view) -> np.ndarray:
    """The numbers the table below the diagram shows, read from its cells' texts."""
    model = view.table.model()
    return np.array([[float(model.data(model.index(r, c)).replace("−", "-")) for c in range(model.columnCount())]
                     for r in range(model.rowCount())])


def test_projection_demo_writes_every_matrixs_shape_with_its_numbers(qtbot):
    view = open_view(qtbot, "projection-demo")  # n = 5, d = 4, h = 2: d/h = 2
    expected = {"x": ("X", "5 × 4"), "w_q": ("Wq", "4 × 4"), "w_k": ("Wk", "4 × 4"), "w_v": ("Wv", "4 × 4"),
                "q": ("Q", "5 × 4"), "q:0": ("Q0", "5 × 2"), "kv:1": ("K1 V1", "5 × 2"),
                "scores:0": ("Q0K0ᵀ", "5 × 5"), "weights:1": ("softmax", "5 × 5"), "heads:1": ("· V1 = Y1", "5 × 2"),
                "concat": ("concat", "5 × 4"), "w_o": ("Wo", "4 × 4"), "projected": ("Y′", "5 × 4"),
                "add": ("+ X", "5 × 4"), "output": ("O", "5 × 4")}
    for key, (name, numbers) in expected.items():
        assert lines(view, key)[:2] == [name, numbers], key
    texts = view.diagram.texts()
    assert "n × d" in texts and "n × d/h" in texts and "d × d" in texts  # the seed's letters too
    assert any("h × n × d/h = 2 × 5 × 2" in t for t in texts)
    assert not any("_" in t for t in texts)  # subscripts are drawn as subscripts


def test_the_lit_box_follows_the_guided_step_and_the_active_head(qtbot):
    view = open_view(qtbot, "projection-demo")
    d = view.document
    assert view.diagram.lit == set()
    for stage, key in ((1, "scores:0"), (2, "scaled:0"), (3, "masked:0"), (4, "weights:0"), (5, "heads:0")):
        d.set_stage(stage)
        assert {k for k, p in view.diagram.boxes().items() if p.lit} == {key}
    d.select(head=1)
    assert {k for k, p in view.diagram.boxes().items() if p.lit} == {"heads:1"}
    d.set_stage(None)
    assert not any(p.lit for p in view.diagram.boxes().values())


def inside(view, key, image):
    """The pixels of a box's padding left of its text (its fill, not its letters)."""
    r = view.diagram.boxes()[key].rect
    pad = view.diagram.fonts.pixels * 0.45
    return image[int(r.top() + r.height() * 0.3):int(r.bottom() - r.height() * 0.3),
                 int(r.left() + 3):int(r.left() + pad - 1)]


def test_the_lit_box_is_painted_in_the_lit_colour_and_the_others_are_not(qtbot):
    view = open_view(qtbot, "projection-demo")
    view.document.set_stage(4)
    image = rgb(view.diagram.grab().toImage())
    lit = inside(view, "weights:0", image)
    assert lit.size and near(lit, LIT).mean() > 0.9
    for key in ("weights:1", "scores:0", "x", "concat"):
        assert near(inside(view, key, image), LIT).mean() == 0, key


def test_a_click_on_a_box_shows_its_matrix_and_x_can_be_edited_there(qtbot):
    view = open_view(qtbot, "projection-demo")
    layer = compute(view.document.scenario).layer
    click(qtbot, view, "w_o")
    np.testing.assert_array_equal(shown(view), view.document.scenario.projection.w_o)
    assert "W<sub>o</sub>" in view.caption.text()
    click(qtbot, view, "concat")
    np.testing.assert_allclose(shown(view), layer.concat, atol=5e-4)
    click(qtbot, view, "weights:1")  # a head's box: that head becomes the active one
    assert view.document.active_head == 1
    np.testing.assert_allclose(shown(view), layer.heads.weights[1], atol=5e-4)
    assert view.diagram.selected == "weights:1"
    click(qtbot, view, "x")
    model = view.table.model()
    assert model.setData(model.index(2, 0), "1.5")
    assert view.document.scenario.projection.x[2, 0] == 1.5
    assert not model.setData(model.index(0, 0), "abc") and view.messages


def test_gqa_draws_one_arrow_from_each_group_to_each_head_that_shares_it(qtbot):
    view = open_view(qtbot, "gqa-demo")  # 4 heads, 2 K/V groups
    shares = [(a, b) for a, b in view.diagram.flow.arrows if a.startswith("kv:") and b.startswith("scores:")]
    assert sorted(shares) == [("kv:0", "scores:0"), ("kv:0", "scores:1"), ("kv:1", "scores:2"), ("kv:1", "scores:3")]
    image = rgb(view.diagram.grab().toImage())
    paper = view.diagram.palette().color(QPalette.Window)
    boxes = view.diagram.boxes()
    for a, b in shares:  # each arrow is drawn: its middle is ink, not the background
        start, end = view.diagram._ends(boxes[a].rect, boxes[b].rect)
        x, y = round((start.x() + end.x()) / 2), round((start.y() + end.y()) / 2)
        assert not near(image[y - 1:y + 2, x - 1:x + 2], paper, within=20).all(), (a, b)
    assert lines(view, "scores:1")[0] == "Q1K0ᵀ" and lines(view, "scores:2")[0] == "Q2K1ᵀ"
    assert any("K/V groups: 2, each shared by 2 heads" in t for t in view.diagram.texts())


@pytest.mark.parametrize("preset", ["position-nekoga", "position-suwatta"])
def test_position_presets_draw_their_positions(qtbot, preset):
    view = open_view(qtbot, preset)
    assert any("positions: none" in t for t in view.diagram.texts())
    view.positions.setCurrentIndex(2)
    view.positions.activated.emit(2)  # RoPE: a box of angles, q and k marked as rotated
    boxes = view.diagram.boxes()
    assert lines(view, "positions")[0] == "RoPE" and "↻" in " ".join(lines(view, "q:1") + lines(view, "kv:0"))
    assert len(view.diagram.flow.turns) == 4
    click(qtbot, view, "positions")
    np.testing.assert_allclose(shown(view), [[0.0], [1.0], [2.0]])  # p radians for the one pair of d/h = 2
    view.positions.setCurrentIndex(1)
    view.positions.activated.emit(1)  # sinusoidal: P added to X before everything
    boxes = view.diagram.boxes()
    assert lines(view, "positions")[0] == "P" and lines(view, "stream")[:2] == ["X + P", "3 × 4"]
    assert lines(view, "add")[0] == "+ (X + P)" and "↻" not in " ".join(lines(view, "q:1"))
    click(qtbot, view, "positions")
    np.testing.assert_allclose(shown(view), sinusoidal_positions(3, 4), atol=5e-4)
    assert boxes["positions"].rect.right() < boxes["stream"].rect.left()


def test_the_residual_arrows_are_x_y_prime_and_their_sum_for_the_selected_token(qtbot):
    view = open_view(qtbot, "gqa-demo")
    d = view.document
    d.select(query=2)
    view.dims[1].setCurrentIndex(5)
    view.dims[1].activated.emit(5)
    layer = compute(d.scenario).layer
    x, y, o = view.plane.vectors
    np.testing.assert_array_equal(x, d.scenario.projection.x[2, [0, 5]])
    np.testing.assert_array_equal(y, layer.projected[2, [0, 5]])
    np.testing.assert_allclose(o, x + y)
    np.testing.assert_array_equal(o, layer.output[2, [0, 5]])
    tips = view.plane.tips()
    unit = (tips["o"].x() - tips["origin"].x()) / o[0]  # pixels per unit (o[0] ≠ 0 here)
    assert abs(o[0]) > 0.1 and unit > 0
    assert tips["o"].x() - tips["x"].x() == pytest.approx(y[0] * unit)  # Y′ drawn from X's tip to O's
    assert tips["x"].y() - tips["o"].y() == pytest.approx(y[1] * unit)
    assert "魚" in view.plane_caption.text()


def visible_text_widgets(view):
    return [w for w in view.findChildren(QWidget) if w.isVisible() and isinstance(w, (QLabel, QAbstractButton,
                                                                                      QComboBox, QTableView))]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("preset, options", [("projection-demo", {}), ("gqa-demo", {}),
                                             ("gqa-demo", dict(positions="rope", layer_norm=True)),
                                             ("position-nekoga", dict(positions="sinusoidal", layer_norm=True))])
def test_presented_every_text_is_20_px_or_more_and_nothing_is_clipped(qtbot, lang, preset, options):
    install_language(lang)
    view = open_view(qtbot, with_projection_options(load_preset(preset), **options), size=(1920, 1080),
                     presenting=True)
    view.document.set_stage(4)
    diagram = view.diagram
    assert diagram.fonts.pixels >= 20 and diagram.horizontal
    for room, text in diagram.text_rects():
        assert room.contains(text), (room, text)
    boxes = [p.rect for p in diagram.boxes().values()]
    assert all(QRectF(diagram.rect()).contains(r) for r in boxes)
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    # The drawing fills its place: the boxes span most of the diagram's width and height.
    left, right = min(r.left() for r in boxes), max(r.right() for r in boxes)
    top, bottom = min(r.top() for r in boxes), max(r.bottom() for r in boxes)
    assert right - left > 0.9 * diagram.width() and bottom - top > 0.6 * diagram.height()
    for w in visible_text_widgets(view):
        assert QFontInfo(w.font()).pixelSize() >= 20, w.objectName() or type(w).__name__
        if isinstance(w, (QAbstractButton, QComboBox)):
            assert w.width() >= w.sizeHint().width() - 1, w.objectName()
        if isinstance(w, QLabel) and w.text():
            assert w.heightForWidth(w.width()) <= w.height() or \
                QFontMetrics(w.font()).horizontalAdvance(w.text()) <= w.width(), w.text()
    assert QFontInfo(view.plane.label_font()).pixelSize() >= 20
    view.set_presentation(False)
    assert diagram.most < 20 and QFontInfo(view.caption.font()).pixelSize() < 20


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_on_the_desk_the_narrow_dock_gets_the_flow_top_to_bottom_and_nothing_is_clipped(qtbot, lang):
    install_language(lang)
    view = open_view(qtbot, "gqa-demo", size=(420, 800))
    assert not view.diagram.horizontal and view.diagram.fonts.pixels >= 9
    for room, text in view.diagram.text_rects():
        assert room.contains(text), (room, text)
    assert not any("_" in t for t in view.diagram.texts())


def test_the_windows_layer_panel_is_the_diagram(qtbot):
    from attnviz.gui import MainWindow
    w = MainWindow("projection-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    assert isinstance(w.parts.pipeline, LayerView) and w.parts.pipeline_dock.widget() is w.parts.pipeline
    w.document.set_stage(2)
    assert w.parts.pipeline.diagram.lit == {"scaled:0"}


def test_the_desks_zoom_makes_the_diagrams_type_larger(qtbot):
    from PySide6.QtWidgets import QApplication
    view = open_view(qtbot, "projection-demo", size=(1400, 700))
    before = view.diagram.fonts.pixels
    font = QApplication.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    QApplication.setFont(font)  # Ctrl++ on the desk
    qtbot.waitUntil(lambda: view.diagram.fonts.pixels > before, timeout=2000)


def test_hovering_a_box_tells_what_it_holds(qtbot):
    view = open_view(qtbot, "gqa-demo")
    assert "read by heads 2, 3" in view.explain("kv:1") and "5 × 2" in view.explain("kv:1")
    assert "W<sub>o</sub> brings" in view.explain("w_o")


def presented_layer(qtbot, preset, lang="en"):
    """The layer view as key 9 presents it in the window, on the 1920 × 1080 screen."""
    from PySide6.QtWidgets import QApplication

    from presented import presenting
    w = presenting(qtbot, preset, lang)
    w.classroom.present_view("layer")
    for _ in range(3):
        QApplication.processEvents()
    return w.parts.pipeline.diagram


def painted_lines(diagram, monkeypatch):
    """Every line of text the diagram paints, with the rectangle it is painted in (read from its painter)."""
    from attnviz.gui.layer.diagram import LayerDiagram
    drawn, real = [], LayerDiagram._text

    def record(self, painter, text, rect, align):
        drawn.append((unmarked(text), QRectF(rect)))
        real(self, painter, text, rect, align)
    monkeypatch.setattr(LayerDiagram, "_text", record)
    diagram.grab()
    return drawn


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("preset", ["gqa-demo", "position-nekoga", "position-suwatta", "projection-demo"])
def test_presented_every_box_paints_its_shape_in_numbers_and_in_the_seeds_letters(qtbot, monkeypatch, preset, lang):
    diagram = presented_layer(qtbot, preset, lang)
    assert diagram.fonts.pixels >= 20
    drawn = painted_lines(diagram, monkeypatch)
    boxes = diagram.boxes()
    for column in diagram.flow.columns:
        for box in column:
            inside = " ".join(t for t, r in drawn if boxes[box.key].rect.contains(r.center()))
            assert f"{box.shape[0]} × {box.shape[1]}" in inside, (box.key, inside)
            assert box.symbols and box.symbols in inside, (box.key, inside)
    if preset == "gqa-demo":  # K and V are g·d/h wide, g said in the legend
        assert any("n × gd/h" in t for t, _ in drawn) and any("g = 2" in t for t, _ in drawn)


def painted_texts(widget, monkeypatch):
    """Every text a widget's painter draws, with where (a rectangle, or a point's empty rectangle)."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QPainter
    drawn, real = [], QPainter.drawText

    def record(painter, *args):
        where = args[0]
        text = next(a for a in args if isinstance(a, str))
        drawn.append((text, QRectF(where) if isinstance(where, QRectF) else QRectF(QPointF(where), QPointF(where))))
        return real(painter, *args)
    monkeypatch.setattr(QPainter, "drawText", record)
    widget.grab()
    monkeypatch.undo()
    return drawn


@pytest.mark.parametrize("lang, title", [("en", "dim {0}"), ("ja", "次元 {0}")])
def test_the_residual_planes_axes_are_titled_with_their_dimension_not_a_bare_number(qtbot, monkeypatch, lang, title):
    install_language(lang)
    view = open_view(qtbot, "gqa-demo", size=(1920, 1080), presenting=True)
    view.dims[1].setCurrentIndex(5)
    view.dims[1].activated.emit(5)
    texts = [t for t, _ in painted_texts(view.plane, monkeypatch)]
    assert title.format(0) in texts and title.format(5) in texts
    assert not any(t.strip() in ("0", "5") for t in texts)  # no bare number that reads as a value
    rects = dict(zip(view.plane.axes, view.plane.axis_title_rects()))
    plane = QRectF(view.plane.rect())
    tips = view.plane.tips()
    first, second = rects[title.format(0)], rects[title.format(5)]
    assert plane.contains(first) and plane.contains(second)
    assert first.left() > tips["origin"].x() and abs(first.center().y() - tips["origin"].y()) < 1  # at x's axis
    assert abs(second.left() - tips["origin"].x()) < second.height()  # at the other axis, above every tip
    assert second.bottom() <= min(t.y() for t in tips.values()) + 0.5


def crosses(a, b, rect) -> bool:
    """Whether the segment a → b passes through the inside of `rect` (sampled finely)."""
    inner = rect.adjusted(1, 1, -1, -1)
    steps = 200
    return any(inner.contains(a + (b - a) * (k / steps)) for k in range(steps + 1))


@pytest.mark.parametrize("preset", ["gqa-demo", "projection-demo"])
def test_presented_no_arrow_passes_through_a_box_and_each_group_fans_out_to_its_heads(qtbot, preset):
    diagram = presented_layer(qtbot, preset)
    boxes, routes = diagram.boxes(), diagram.routes()
    assert set(routes) == set(diagram.flow.arrows)
    for (a, b), path in routes.items():
        others = [p.rect for k, p in boxes.items() if k not in (a, b)]
        for start, end in zip(path, path[1:]):
            assert not any(crosses(start, end, r) for r in others), (a, b, start, end)
    fans = [(a, b) for a, b in diagram.flow.arrows if a.startswith("kv:") and b.startswith("scores:")]
    for a, b in fans:  # from the group's box to its head's first box
        start, end = routes[(a, b)][0], routes[(a, b)][-1]
        assert boxes[a].rect.adjusted(-1, -1, 1, 1).contains(start)
        assert boxes[b].rect.adjusted(-1, -1, 1, 1).contains(end)


def test_presented_gqas_q_k_v_fans_cross_each_other_only_at_right_angles(qtbot):
    """The tangle a teacher saw (many slanted lines crossing in one narrow gap) is gone: where two
    arrows from different sources cross, they cross square, so each can be followed."""
    from PySide6.QtCore import QLineF
    diagram = presented_layer(qtbot, "gqa-demo")
    segments = [(a, QLineF(s, e)) for (a, _), path in diagram.routes().items() for s, e in zip(path, path[1:])]
    crossings = 0
    for i, (a, one) in enumerate(segments):
        for b, other in segments[i + 1:]:
            kind, point = one.intersects(other)
            if a == b or kind != QLineF.BoundedIntersection:
                continue
            ends = [one.p1(), one.p2(), other.p1(), other.p2()]
            if any((point - e).manhattanLength() < 1 for e in ends):
                continue  # meeting at a box's edge (a fan's shared start or tip)
            u, v = one.unitVector(), other.unitVector()
            dot = abs(u.dx() * v.dx() + u.dy() * v.dy())
            assert dot < 0.02, (a, b, one, other)
            crossings += 1
    assert crossings > 0  # Q's lane does cross K's and V's: square
