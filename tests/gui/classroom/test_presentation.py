"""The whole lesson without leaving full screen, readable from the back row (a 1920 × 1080 projector)."""
import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QFontInfo, QFontMetrics, QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QSlider, QStyle, QTableView, QWidget

from attnviz.core import compute, list_presets
from attnviz.core.explain import MINUS_INFINITY, exponentials
from attnviz.core.presets import open_named
from attnviz.gui import MainWindow
from attnviz.gui.classroom.classroom import PRESENTATION_ZOOM, SLIDER_SHARE
from attnviz.gui.look.fonts import readable_pixels
from attnviz.gui.steps.stages import NUMBERS, STAGES
from attnviz.gui.steps.table import EXP, KEY, WEIGHT

SCORE, SCALE, MASKING, SOFTMAX, OUTPUT = NUMBERS  # the guided steps, in order



def present(window, qtbot=None):
    window.classroom.set_presentation(True)
    QApplication.processEvents()
    return window


def child(window, name, kind=QWidget):
    return window.findChild(kind, name)


def drag(slider, positions):
    slider.setSliderDown(True)  # what a mouse press on the handle does
    for p in positions:
        slider.setValue(p)
    slider.setSliderDown(False)


def row_weights(window):
    return child(window, "headPanel0").weights()[window.document.query]


# ---------------------------------------------------------------- the experiment, in full screen

def test_the_tutorials_experiment_is_done_entirely_in_presentation(window, monkeypatch):
    # No key held (another test's key clicks may leave Qt's idea of the modifiers behind).
    monkeypatch.setattr(QApplication, "keyboardModifiers", staticmethod(lambda: Qt.NoModifier))
    present(window)
    d = window.document
    assert window.isFullScreen() and child(window, "presentationControls").isVisible()
    assert child(window, "presentationQuery", QComboBox).currentText() == "それ"
    tokens = d.scenario.tokens
    assert tokens[int(np.argmax(row_weights(window)))] == "魚"
    before = row_weights(window)
    food, animal = child(window, "presentationQSlider1", QSlider), child(window, "presentationQSlider0", QSlider)
    drag(food, [15, 10, 4, 1])   # 食べ物 to 0: a drag snaps to steps of 0.5, so "to 0" lands on 0
    drag(animal, [6, 13, 19])    # 動物 up to 2
    np.testing.assert_array_equal(d.scenario.heads[0].q[d.query], [2, 0, 0, 0])
    assert tokens[int(np.argmax(row_weights(window)))] == "猫"
    np.testing.assert_array_equal(child(window, "headPanel0").weights(), compute(d.scenario).heads[0].weights)
    assert d.undo_stack.count() == 2  # one undo step per drag
    d.undo_stack.undo()
    d.undo_stack.undo()
    np.testing.assert_array_equal(row_weights(window), before)


def test_shift_drags_the_q_sliders_in_fine_steps(window, monkeypatch):
    present(window)
    monkeypatch.setattr(QApplication, "keyboardModifiers", staticmethod(lambda: Qt.ShiftModifier))
    drag(child(window, "presentationQSlider0", QSlider), [13])
    assert window.document.scenario.heads[0].q[window.document.query][0] == 1.3


def test_the_presentation_sliders_are_a_third_of_the_screen_wide_and_take_the_keyboard_only_when_clicked(window):
    present(window)
    for i in range(4):
        slider = child(window, f"presentationQSlider{i}", QSlider)
        assert slider.width() >= window.screen().geometry().width() * SLIDER_SHARE - 1
        assert slider.focusPolicy() == Qt.ClickFocus  # never by Tab: that is the next view
    assert child(window, "presentationQuery", QComboBox).focusPolicy() == Qt.NoFocus
    assert child(window, "presentationCausalToggle").focusPolicy() == Qt.NoFocus


@pytest.mark.parametrize("name, check", [
    ("presentationCausalToggle", lambda s: not s.settings.causal),
    ("presentationScaleToggle", lambda s: not s.settings.scale),
])
def test_the_toggles_in_presentation_change_the_heatmap_as_the_core_computes(window, name, check):
    present(window)
    child(window, name).click()
    d = window.document
    assert check(d.scenario) and d.undo_stack.count() == 1
    for i in range(2):
        np.testing.assert_array_equal(child(window, f"headPanel{i}").weights(), compute(d.scenario).heads[i].weights)
    window.menus.undo_action.trigger()
    assert d.scenario.settings.causal and d.scenario.settings.scale


def test_the_temperature_in_presentation_is_one_undo_step_per_drag(window):
    present(window)
    drag(child(window, "presentationTemperatureSlider", QSlider), [20, 60, 100])  # T = 10: flat
    d = window.document
    assert d.scenario.settings.temperature == 10 and d.undo_stack.count() == 1
    np.testing.assert_array_equal(child(window, "headPanel0").weights(), compute(d.scenario).heads[0].weights)


def test_h_hides_and_shows_the_controls_and_a_clickers_keys_keep_working(window, qtbot):
    present(window)
    body = child(window, "presentationControlsBody")
    assert body.isVisible()
    qtbot.keyClick(window, Qt.Key_H)
    assert not body.isVisible() and child(window, "presentationControlsToggle").isVisible()
    child(window, "presentationControlsToggle").click()  # and back with the mouse
    assert body.isVisible()
    child(window, "presentationQSlider0", QSlider).setSliderDown(False)
    qtbot.keyClick(window, Qt.Key_PageDown)  # a clicker's "next"
    assert window.document.stage == 1
    qtbot.keyClick(window, Qt.Key_Down)
    assert window.document.query == 7 and child(window, "presentationQuery", QComboBox).currentText() == "は"


def test_h_is_a_letter_on_the_desk(window, qtbot):
    assert not window.classroom.controls_action.isEnabled()


def test_leaving_presentation_gives_the_desk_its_step_table_back(window):
    table = child(window, "stepTable", QTableView)
    rows, font = table.rowHeight(0), QFontInfo(table.font()).pixelSize()
    present(window)
    assert table.rowHeight(0) > rows and child(window, "presentationControls").isVisible()
    window.classroom.set_presentation(False)
    QApplication.processEvents()
    assert (table.rowHeight(0), QFontInfo(table.font()).pixelSize()) == (rows, font)
    assert not child(window, "presentationControls").isVisible() and child(window, "qSliders").isVisible()


def test_the_controls_stay_hidden_after_a_restart_when_hidden(qtbot):
    first = MainWindow("seed-demo")
    qtbot.addWidget(first)
    first.show()
    present(first)
    first.classroom.toggle_controls()
    first.classroom.set_presentation(False)
    second = MainWindow("seed-demo")
    qtbot.addWidget(second)
    second.show()
    present(second)
    assert not child(second, "presentationControlsBody").isVisible()


# ---------------------------------------------------------------- a step table readable from the back

def value_pixels(window):
    return window.parts.heads.value_pixels()


def step_pixels(window):
    return QFontInfo(child(window, "stepTable", QTableView).font()).pixelSize()


def test_the_step_tables_type_is_the_heatmaps_value_type_at_24_points(window):
    present(window)
    # seed-demo's k and q·k written out ([3, 0, 0, 0], 0×3 + 2×0 + 0×0 + 0×0 = 0) are wider: a little
    # smaller type, still readable
    assert window.parts.steps.model.arithmetic
    assert step_pixels(window) >= max(0.75 * value_pixels(window), readable_pixels(window))
    assert value_pixels(window) * 72 / window.logicalDpiY() >= 24  # 10 tokens at 1920 × 1080


def test_the_step_table_uses_the_height_it_has_and_shows_every_row(window):
    present(window)
    window.classroom.toggle_controls()  # hidden: the table has the column's height
    QApplication.processEvents()
    table = child(window, "stepTable", QTableView)
    rows = table.model().rowCount()
    bottom = table.rowViewportPosition(rows - 1) + table.rowHeight(rows - 1)
    assert bottom <= table.viewport().height() and table.rowHeight(0) >= step_pixels(window)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_header_of_the_step_table_is_clipped_at_any_zoom(window, lang):
    window.classroom.set_language(lang)
    present(window)
    table = child(window, "stepTable", QTableView)
    for zoom in window.classroom.zoom_range():  # the smallest and the largest
        window.classroom.set_zoom(zoom)
        QApplication.processEvents()
        fm = QFontMetrics(table.horizontalHeader().font())
        for column in range(table.model().columnCount()):
            if table.isColumnHidden(column):
                continue
            header = table.model().headerData(column, Qt.Horizontal)
            widest = max(fm.horizontalAdvance(line) for line in header.split("\n"))
            assert widest <= table.columnWidth(column), (lang, zoom, header)


def test_the_output_line_never_breaks_inside_a_vector(window):
    present(window)
    label = child(window, "stepOutput", QLabel)
    layout = QTextLayout(label.text(), label.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(label.width() * 0.5)  # narrower than it is: breaks must still fall between terms
        lines.append(label.text()[line.textStart():line.textStart() + line.textLength()])
    layout.endLayout()
    assert len(lines) > 2
    for text in lines:
        assert text.count("[") == text.count("]"), lines


def shown_columns_width(table):
    return sum(table.columnWidth(c) for c in range(table.model().columnCount()) if not table.isColumnHidden(c))


def last_row_bottom(table):
    rows = table.model().rowCount()
    return table.rowViewportPosition(rows - 1) + table.rowHeight(rows - 1)


@pytest.mark.parametrize("preset", ["toy-3token", "seed-demo"])
@pytest.mark.parametrize("stage", [None, SOFTMAX])
def test_every_column_of_the_step_table_is_in_view_when_presenting(qtbot, preset, stage):
    w = MainWindow(preset)
    qtbot.addWidget(w)
    w.show()
    present(w)
    w.document.set_stage(stage)
    qtbot.wait(20)
    table = child(w, "stepTable", QTableView)
    assert shown_columns_width(table) <= table.viewport().width()
    assert step_pixels(w) >= readable_pixels(table)


def test_zooming_in_while_presenting_keeps_every_row_in_view(window, qtbot):
    present(window)
    for _ in range(6):
        window.classroom.zoom_in_action.trigger()
    qtbot.wait(20)
    table = child(window, "stepTable", QTableView)
    assert last_row_bottom(table) <= table.viewport().height()
    assert shown_columns_width(table) <= table.viewport().width()


def test_a_long_sentences_step_table_stays_readable_and_scrolls(qtbot):
    from attnviz.core import make_head, make_scenario
    rng = np.random.default_rng(3)
    n = 40
    w = MainWindow(make_scenario([f"t{i}" for i in range(n)], [make_head("h", *rng.normal(0, 1, (3, n, 8)))]))
    qtbot.addWidget(w)
    w.show()
    present(w)
    qtbot.wait(20)
    table = child(w, "stepTable", QTableView)
    assert step_pixels(w) >= readable_pixels(table) >= 24  # not the heatmap's small values
    assert last_row_bottom(table) > table.viewport().height()  # the rest is a scroll away
    assert table.verticalScrollBar().maximum() > 0


# ---------------------------------------------------------------- zoom per mode

def test_presentation_has_its_own_zoom_and_ctrl_0_returns_to_it(qtbot):
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    w.show()
    desk = QFontInfo(QApplication.font()).pixelSize()
    present(w)
    qtbot.wait(20)
    step = step_pixels(w)
    w.classroom.zoom_in_action.trigger()
    qtbot.wait(20)
    font = QFontInfo(QApplication.font()).pixelSize()
    w.classroom.zoom_reset_action.trigger()  # Ctrl+0
    qtbot.wait(20)
    assert w.classroom.zoom_factor == pytest.approx(PRESENTATION_ZOOM) and step_pixels(w) == step
    for _ in range(10):
        w.classroom.zoom_out_action.trigger()
    assert QFontInfo(QApplication.font()).pixelSize() >= desk  # never smaller than the desk's text
    w.classroom.zoom_reset_action.trigger()
    w.classroom.set_presentation(False)
    assert w.classroom.zoom_factor == pytest.approx(1.0)
    again = MainWindow("seed-demo")  # after a restart: the presentation's size is still its own
    qtbot.addWidget(again)
    again.show()
    present(again)
    qtbot.wait(20)  # as for the first window: the step table fits its type to the room at the next turns
    assert again.classroom.zoom_factor == pytest.approx(PRESENTATION_ZOOM) and step_pixels(again) == step
    assert QFontInfo(QApplication.font()).pixelSize() < font  # the presentation's own size, not the zoomed-in one


# ---------------------------------------------------------------- eˣ, Σ and the formula

def test_the_worked_examples_exponentials_and_their_sum_are_on_screen(qtbot):
    w = MainWindow("toy-3token")
    qtbot.addWidget(w)
    model = child(w, "stepTable", QTableView).model()
    assert [model.data(model.index(j, EXP)) for j in range(3)] == ["1.00", "16.92", "4.11"]
    assert model.data(model.index(3, KEY)) == "Σ" and model.data(model.index(3, EXP)) == "22.03"
    trace = compute(w.document.scenario).heads[0]
    exps, shifted = exponentials(trace.masked[2])
    assert not shifted
    np.testing.assert_allclose(exps / exps.sum(), trace.weights[2])  # weight = eˣ / Σ, row by row
    assert [model.data(model.index(j, WEIGHT)) for j in range(3)] == ["0.045", "0.768", "0.187"]


def test_masked_keys_have_no_exponential_and_no_weight(window):
    model = child(window, "stepTable", QTableView).model()
    for j in (7, 8, 9):  # は, 新鮮, だった: after それ
        assert model.data(model.index(j, EXP)) == "0" and model.data(model.index(j, WEIGHT)) == "0"


def test_guided_steps_show_the_exponentials_at_the_softmax_step(window):
    table = child(window, "stepTable", QTableView)
    for stage, shown in ((MASKING, False), (SOFTMAX, True), (OUTPUT, True)):
        window.document.set_stage(stage)
        QApplication.processEvents()
        assert table.isColumnHidden(EXP) != shown and child(window, "stepSum").isHidden() != shown


def test_the_formula_is_above_the_step_table_as_mathematics(window):
    from attnviz.gui.steps.formula import FormulaOptions, Fraction, Root, Text, layout
    view = child(window, "formulaView")
    assert view.isVisible() and view.geometry().bottom() <= child(window, "stepTable").geometry().top()

    def parts(options):
        found, todo = [], [layout(options, view.font_used())]
        while todo:
            box = todo.pop()
            found.append(box)
            todo += [child for _, _, child in box.children]
        return found
    plain = parts(FormulaOptions(d_k=4))
    assert any(isinstance(b, Root) for b in plain) and any(isinstance(b, Fraction) for b in plain)
    assert not any(isinstance(b, Text) and "_" in b.text for b in plain)  # d with a real subscript k
    assert {b.part for b in plain} >= {s.part for s in STAGES}  # each guided step has its part to light up
    hot = parts(FormulaOptions(scale=False, temperature=0.5, masked=False))
    texts = [b.text for b in hot if isinstance(b, Text)]
    assert "T" in texts and "M" not in texts and not any(isinstance(b, Root) for b in hot)


def test_the_formula_lights_up_the_part_of_the_guided_step(window, monkeypatch):
    from attnviz.gui.steps import formula
    lit = []
    monkeypatch.setattr(QPainter, "drawRoundedRect", lambda self, *a: lit.append(window.document.stage))
    for stage in (1, 2, 3, 4, 5):
        window.document.set_stage(stage)
        child(window, "formulaView").grab()
    assert lit == [1, 2, 3, 4, 5]
    assert formula.HIGHLIGHT.alpha() < 255  # the part stays readable under the marker


# ---------------------------------------------------------------- masked cells, one story

def test_masked_cells_show_their_score_at_the_mask_step_and_their_weight_0_after(window):
    panel = child(window, "headPanel0")
    assert panel.data().masked_text == "0"
    for stage, text in ((MASKING, MINUS_INFINITY), (SOFTMAX, "0"), (OUTPUT, "0")):
        window.document.set_stage(stage)
        assert panel.data().masked_text == text
        assert panel.data().masked.any()
    window.document.set_stage(SOFTMAX)
    guide = child(window, "guideLabel", QLabel).text()
    assert "eˣ = 0" in guide and "all positive" not in guide


@pytest.mark.parametrize("lang, says", [("en", "0.769"), ("ja", "0.769")])
def test_the_worked_example_says_where_the_tutorial_rounds(qtbot, lang, says):
    w = MainWindow("toy-3token")
    qtbot.addWidget(w)
    w.classroom.set_language(lang)
    w.show()
    note = child(w, "stepNote", QLabel)
    assert note.isVisible() and says in note.text() and "0.768" in note.text()
    description = w.document.scenario.text("description", lang)
    assert "0.769" not in description and "0.768" in description  # no caption contradicts the table


STORIES = {"seed-demo": "それ", "toy-3token": "それ", "taro-hanako": "彼女", "hashi-chopsticks": "はし",
           "hashi-bridge": "はし", "position-nekoga": "猫", "position-suwatta": "猫", "projection-demo": "食べた",
           "gqa-demo": "食べた", "gpt2-small-shape": "だった"}


@pytest.mark.parametrize("preset", [p.id for p in list_presets()])
def test_every_preset_opens_on_its_storys_query(qtbot, preset):
    w = MainWindow(open_named(preset, lang="ja"))  # the Japanese version (tests/gui/state: the English one)
    qtbot.addWidget(w)
    assert w.document.scenario.tokens[w.document.query] == STORIES[preset]
    assert child(w, "querySelector", QComboBox).currentText() == STORIES[preset]


# ---------------------------------------------------------------- the first window fits the lesson

def test_the_first_window_is_maximised_with_every_row_of_q_k_v_in_view(qtbot):
    QSettings().clear()
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    assert w.classroom.first_start
    w.showMaximized()
    qtbot.waitExposed(w)
    QApplication.processEvents()
    assert w.width() >= 1900
    for matrix in "qkv":
        table = child(w, f"{matrix}Table", QTableView)
        last = table.rowViewportPosition(9) + table.rowHeight(9)
        assert 0 <= table.rowViewportPosition(0) and last <= table.viewport().height(), matrix


def test_the_view_menus_panel_toggles_are_enabled_and_work(window):
    for dock in (window.parts.vectors_dock, window.parts.steps_dock, window.parts.maths_dock):
        toggle = dock.toggleViewAction()
        assert toggle.isEnabled()
        toggle.trigger()
        assert dock.isHidden()
        toggle.trigger()
        assert not dock.isHidden()
    assert not window.parts.pipeline_dock.toggleViewAction().isEnabled()  # seed-demo has no layer to show


# ---------------------------------------------------------------- labels never stacked

class Recorder:
    """A QPainter that writes down every text drawn."""

    def __init__(self, painter):
        self.painter, self.texts = painter, []

    def drawText(self, *args):  # noqa: N802
        self.texts.append(next(a for a in args if isinstance(a, str)))
        return self.painter.drawText(*args)

    def __getattr__(self, name):
        return getattr(self.painter, name)


@pytest.mark.parametrize("zoom", [1.0, 2.0])
def test_column_labels_are_never_drawn_a_character_a_line(window, zoom):
    present(window)
    window.classroom.set_zoom(zoom)
    panel = child(window, "headPanel0")
    image = panel.grab().toImage()
    painter = QPainter(image)
    recorder = Recorder(painter)
    panel.painter.paint(recorder, panel._content_rect(), panel.data())
    painter.end()
    for token in window.document.scenario.tokens:
        assert recorder.texts.count(token) >= 2 or any(t.startswith(token[0]) and t.endswith("…")
                                                       for t in recorder.texts), token  # row and column
    assert not any(len(t) == 1 and t in "食べたっ新鮮" and t not in window.document.scenario.tokens
                   for t in recorder.texts)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("preset", ["toy-3token", "seed-demo", "hashi-chopsticks", "hashi-bridge", "gqa-demo",
                                    "position-nekoga"])
def test_every_small_example_presented_writes_out_k_and_q_dot_k_beside_the_big_head(qtbot, preset, lang):
    from attnviz.gui.steps.table import DOT, K
    w = MainWindow(open_named(preset, lang=lang))
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    present(w)
    w.document.set_stage(SOFTMAX)  # the guide's words above the heads: the step table keeps its room
    for _ in range(3):
        QApplication.processEvents()
    table, model = child(w, "stepTable", QTableView), w.parts.steps.model
    assert model.arithmetic and not table.isColumnHidden(K) and not table.isColumnHidden(DOT)
    d = w.document
    head = d.scenario.heads[d.active_head]
    first = model.data(model.index(0, DOT))
    assert first.count("×") == head.d_k and first.count("+") == head.d_k - 1  # written out, every product
    assert shown_columns_width(table) <= table.viewport().width()
    assert step_pixels(w) >= readable_pixels(table)
    assert w.parts.heads.value_pixels() >= readable_pixels(table)  # the big head still readable beside it


@pytest.mark.parametrize("preset, added", [("seed-demo", "29.53"), ("toy-3token", None)])
def test_the_step_table_says_when_the_ex_shown_do_not_add_up_to_the_sum_shown(qtbot, preset, added):
    w = MainWindow(open_named(preset, lang="ja"))
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    present(w)
    w.document.set_stage(SOFTMAX)
    QApplication.processEvents()
    model, words = w.parts.steps.model, child(w, "stepShifted", QLabel)
    shown = [model.data(model.index(j, EXP)) for j in range(model.rowCount() - 1)]
    by_hand = sum(float(t) for t in shown if t != "0")
    total = model.data(model.index(model.sum_row, EXP))
    if added is None:
        assert f"{by_hand:.2f}" == total and not words.isVisible()
    else:
        assert f"{by_hand:.2f}" == added != total and words.isVisible() and added in words.text()


def test_the_remembered_dock_layout_comes_back_once_the_window_is_shown(qtbot):
    QSettings().clear()
    first = MainWindow("seed-demo")
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    first.resizeDocks([first.parts.vectors_dock], [620], Qt.Horizontal)
    first.parts.maths_dock.hide()
    QApplication.processEvents()
    first.classroom.save()  # what closing the window remembers
    width = first.parts.vectors_dock.width()
    again = MainWindow("seed-demo")
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    QApplication.processEvents()
    assert again.parts.vectors_dock.width() == width != 380  # 380: the width a first start gives it
    assert again.parts.maths_dock.isHidden()


def test_presenting_the_check_boxes_and_slider_handles_are_as_large_as_the_type(window, qtbot):
    from PySide6.QtWidgets import QCheckBox, QStyleOptionButton, QStyleOptionSlider

    def marks():
        controls = child(window, "presentationControls")
        boxes = [b for b in controls.findChildren(QCheckBox) if b.isVisible()]
        sliders = [s for s in controls.findChildren(QSlider) if s.isVisible()]
        sizes = []
        for box in boxes:
            option = QStyleOptionButton()
            option.initFrom(box)
            sizes.append(box.style().subElementRect(QStyle.SE_CheckBoxIndicator, option, box).height())
        for slider in sliders:
            option = QStyleOptionSlider()
            slider.initStyleOption(option)
            sizes.append(slider.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderHandle,
                                                       slider).width())
        return boxes, sliders, sizes

    window.classroom.set_presentation(True)
    QApplication.processEvents()
    boxes, sliders, sizes = marks()
    assert len(boxes) >= 2 and len(sliders) >= 2 and min(sizes) >= 20  # the style's own: 13 px, 15 px
    window.classroom.set_presentation(False)
    QApplication.processEvents()
    assert all(box.style() is QApplication.style() for box in boxes)  # the desk's as before
