"""The demo's controls: hide the future, ÷√d_k, temperature, the query's q sliders, clicks."""
import numpy as np
from PySide6.QtCore import QPoint, Qt

from attnviz.core import compute
from attnviz.gui.steps.table import DOT, KEY, MASK, SCALED, WEIGHT, K
from attnviz.gui.tables.controls import temperature_to_position


def panel(window, i):
    return window.findChild(object, f"headPanel{i}")


def child(window, name):
    return window.findChild(object, name)


def upper(w):
    return w[np.triu_indices(len(w), k=1)]


def test_the_mask_toggle_fills_the_upper_triangle_and_empties_it_again(window, qtbot):
    toggle = child(window, "causalToggle")
    assert np.all(upper(panel(window, 0).weights()) == 0)
    qtbot.mouseClick(toggle, Qt.LeftButton)
    assert not window.document.scenario.settings.causal
    assert np.all(upper(panel(window, 0).weights()) > 0)
    assert not panel(window, 0).masked().any()
    qtbot.mouseClick(toggle, Qt.LeftButton)
    assert np.all(upper(panel(window, 0).weights()) == 0)


def test_with_the_mask_off_the_cat_sees_the_fish(window, qtbot):
    qtbot.mouseClick(child(window, "causalToggle"), Qt.LeftButton)
    tokens = window.document.scenario.tokens
    assert panel(window, 0).weights()[tokens.index("猫"), tokens.index("魚")] > 0.5


def test_turning_off_root_d_k_gives_the_unscaled_weights(window, qtbot):
    qtbot.mouseClick(child(window, "scaleToggle"), Qt.LeftButton)
    s = window.document.scenario
    assert not s.settings.scale
    q, k = s.heads[0].q, s.heads[0].k
    scores = q @ k.T + np.triu(np.full((10, 10), -np.inf), 1)
    expected = np.exp(scores - scores.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    np.testing.assert_allclose(panel(window, 0).weights(), expected, rtol=1e-12)


def row_peak(window, token="それ"):
    i = window.document.scenario.tokens.index(token)
    return panel(window, 0).weights()[i].max()


def test_the_temperature_slider_sharpens_and_flattens_rows(window):
    slider = child(window, "temperatureSlider")
    normal = row_peak(window)
    slider.setValue(temperature_to_position(0.1))  # sharp
    assert window.document.scenario.settings.temperature == 0.1
    assert row_peak(window) > 0.99
    slider.setValue(temperature_to_position(10))  # flat
    assert window.document.scenario.settings.temperature == 10.0
    assert row_peak(window) < normal / 2
    assert child(window, "temperatureValue").text() == "T = 10"
    slider.setValue(slider.maximum())  # the slider reaches every temperature a file may hold
    assert window.document.scenario.settings.temperature == 100.0


def test_a_temperature_from_a_file_beyond_the_usual_range_is_shown_as_it_is_and_kept(qtbot, tmp_path):
    from attnviz.core import load_preset, save_scenario
    from attnviz.core.scenario import with_settings
    from attnviz.gui import MainWindow
    save_scenario(with_settings(load_preset("seed-demo"), temperature=50.0), tmp_path / "hot.json")
    w = MainWindow(str(tmp_path / "hot.json"))
    qtbot.addWidget(w)
    slider = w.findChild(object, "temperatureSlider")
    assert slider.value() == temperature_to_position(50) and w.findChild(object, "temperatureValue").text() == "T = 50"
    assert w.document.scenario.settings.temperature == 50.0 and not w.document.modified


def test_a_drag_that_ends_where_it_started_leaves_no_undo_step(window):
    slider = child(window, "temperatureSlider")
    drag(slider, [10, 30, 10, 0])
    assert window.document.undo_stack.count() == 0 and not window.document.modified


def test_q_sliders_reach_values_beyond_five_without_jumping(window):
    doc = window.document
    window.findChild(object, "qTable").model().setData(
        window.findChild(object, "qTable").model().index(doc.query, 0), "7")
    slider = child(window, "qSlider0")
    assert slider.maximum() >= 70 and slider.value() == 70
    slider.setValue(69)
    assert doc.scenario.heads[0].q[doc.query, 0] == 6.9


def drag(slider, positions):
    slider.setSliderDown(True)  # what a mouse press on the handle does: sliderPressed
    for p in positions:
        slider.setValue(p)
    slider.setSliderDown(False)


def test_a_slider_drag_updates_continuously_and_is_one_undo_step(window):
    doc = window.document
    slider = child(window, "temperatureSlider")
    seen = []
    doc.changed.connect(lambda: seen.append(row_peak(window)))
    drag(slider, [10, 20, 30, 40, 50])
    assert len(seen) == 5 and seen == sorted(seen, reverse=True)  # flatter at every step
    assert doc.undo_stack.count() == 1
    window.menus.undo_action.trigger()
    assert doc.scenario.settings.temperature == 1.0


def test_the_tutorials_story_with_the_q_sliders(window):
    """それ looks at 魚; set 食べ物 to 0 and raise 動物, and it looks at 猫."""
    doc = window.document
    tokens = doc.scenario.tokens
    assert tokens[doc.query] == "それ"  # the tutorial's query is selected at start
    weights = panel(window, 0).weights()[doc.query]
    assert tokens[int(np.argmax(weights))] == "魚"
    animal, food = child(window, "qSlider0"), child(window, "qSlider1")
    drag(food, [15, 10, 5, 0])          # 食べ物 -> 0
    drag(animal, [5, 10, 15, 20])       # 動物 -> 2
    np.testing.assert_array_equal(doc.scenario.heads[0].q[doc.query], [2, 0, 0, 0])
    weights = panel(window, 0).weights()[doc.query]
    assert tokens[int(np.argmax(weights))] == "猫"
    np.testing.assert_array_equal(panel(window, 0).weights(), compute(doc.scenario).heads[0].weights)
    assert doc.undo_stack.count() == 2


def cell_center(panel_widget, row, col):
    data = panel_widget.data()
    g = panel_widget.painter.geometry(panel_widget._content_rect(), data)
    return QPoint(int(g.grid.left() + (col + 0.5) * g.cell_w), int(g.grid.top() + (row + 0.5) * g.cell_h))


def test_clicking_a_row_label_selects_that_row(window, qtbot):
    target = panel(window, 0)
    g = target.painter.geometry(target._content_rect(), target.data())
    qtbot.mouseClick(target, Qt.LeftButton, pos=QPoint(int(g.grid.left() - g.row_label_width / 2),
                                                        int(g.grid.top() + 2.5 * g.cell_h)))
    assert window.document.query == 2


def test_clicking_a_panel_makes_its_head_active_keeping_the_query_and_a_second_click_selects_the_row(window, qtbot):
    query = window.document.query
    target = panel(window, 1)
    qtbot.mouseClick(target, Qt.LeftButton, pos=cell_center(target, 3, 1))
    assert window.document.active_head == 1 and window.document.query == query  # the class's query stays
    assert child(window, "qTable").model().columnCount() == 2  # tables show head 1 now
    qtbot.mouseClick(target, Qt.LeftButton, pos=cell_center(target, 3, 1))
    assert window.document.query == 3
    assert target.data().selected_row == 3 and panel(window, 0).data().selected_row == 3
    assert child(window, "querySelector").currentText() == "を"


def test_the_step_table_shows_the_traces_numbers(window):
    doc = window.document
    model = child(window, "stepTable").model()
    trace = compute(doc.scenario).heads[0]
    i = doc.query
    assert model.rowCount() == 10 + 1  # a row per key, and Σ
    for j in range(10):
        text = [model.data(model.index(j, c)) for c in range(7)]
        if j > i:
            assert text[MASK] == "\u2212\u221e" and text[WEIGHT] == "0"
        else:
            assert text[MASK] == "0"
            assert abs(float(text[WEIGHT]) - trace.weights[i, j]) <= 5e-4
            assert abs(float(text[SCALED].replace("\u2212", "-")) - trace.scaled[i, j]) <= 5e-4
            assert text[DOT].endswith(f"= {trace.scores[i, j]:g}")
    assert model.headerData(3, Qt.Horizontal) == "2. ÷√4"  # numbered as the five guided steps


def test_the_step_table_writes_out_the_worked_example(qtbot):
    from attnviz.core.presets import open_named
    from attnviz.gui import MainWindow
    w = MainWindow(open_named("toy-3token", lang="ja"))  # the Japanese version (the window is English)
    qtbot.addWidget(w)
    model = w.findChild(object, "stepTable").model()
    rows = [[model.data(model.index(j, c)) for c in range(7)] for j in range(3)]
    assert [rows[0][c] for c in (KEY, K, DOT)] == ["猫", "[2, 0]", "0×2 + 2×0 = 0"]
    assert [rows[1][c] for c in (DOT, SCALED)] == ["0×0 + 2×2 = 4", "2.828"]
    assert [r[WEIGHT] for r in rows] == ["0.045", "0.768", "0.187"]
    assert w.findChild(object, "stepOutput").text().replace("\u00a0", " ").endswith("= [0.277, 1.723]")


# ---------------------------------------------------------------- the temperature a class can read

def move_handle(slider, value):
    """A real mouse drag of the slider's handle to `value`: press on the handle, move, release."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionSlider

    def at(v):
        option = QStyleOptionSlider()
        slider.initStyleOption(option)
        handle = slider.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderHandle, slider)
        groove = slider.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderGroove, slider)
        offset = QStyle.sliderPositionFromValue(slider.minimum(), slider.maximum(), v, groove.width() - handle.width())
        x = groove.x() + offset + handle.width() / 2
        return QPointF(x, handle.center().y())

    def send(kind, point, buttons):
        QApplication.sendEvent(slider, QMouseEvent(kind, point, slider.mapToGlobal(point), Qt.LeftButton, buttons,
                                                   Qt.NoModifier))
    start, end = at(slider.value()), at(value)
    send(QEvent.MouseButtonPress, start, Qt.LeftButton)
    for f in (0.3, 0.7, 1.0):
        send(QEvent.MouseMove, start + (end - start) * f, Qt.LeftButton)
    send(QEvent.MouseButtonRelease, end, Qt.NoButton)


def hold_shift(monkeypatch, shift=True):
    from PySide6.QtWidgets import QApplication
    held = Qt.ShiftModifier if shift else Qt.NoModifier
    monkeypatch.setattr(QApplication, "keyboardModifiers", staticmethod(lambda: held))


def test_a_drag_of_the_temperature_lands_on_10_and_on_0_1_exactly(window, monkeypatch):
    hold_shift(monkeypatch, False)
    slider, s = child(window, "temperatureSlider"), lambda: window.document.scenario.settings
    move_handle(slider, temperature_to_position(9.3))  # near 10: 10, not 9.3 or 38.90
    assert s().temperature == 10.0 and child(window, "temperatureValue").text() == "T = 10"
    move_handle(slider, temperature_to_position(0.12))
    assert s().temperature == 0.1 and child(window, "temperatureValue").text() == "T = 0.1"
    assert window.document.undo_stack.count() == 2  # one step per drag


def test_the_temperature_stops_at_round_values_and_steps_from_one_to_the_next(window, monkeypatch):
    from PySide6.QtWidgets import QAbstractSlider
    hold_shift(monkeypatch, False)
    slider, t = child(window, "temperatureSlider"), lambda: window.document.scenario.settings.temperature
    seen = []
    for _ in range(4):  # an arrow key, or a click beside the handle
        slider.triggerAction(QAbstractSlider.SliderSingleStepAdd)
        seen.append(t())
    assert seen == [2.0, 5.0, 10.0, 20.0]
    slider.triggerAction(QAbstractSlider.SliderPageStepSub)
    assert t() == 10.0
    slider.setSliderDown(True)  # dragged between two of them: the nearer on the log scale
    for position, expected in ((-5, 1.0), (-24, 0.5), (-66, 0.2), (-95, 0.1)):
        slider.setSliderPosition(position)
        assert t() == expected and slider.value() == temperature_to_position(expected), position
    slider.setSliderDown(False)


def test_shift_gives_the_temperatures_fine_steps_and_says_each_one_to_its_digits(window, monkeypatch):
    from PySide6.QtWidgets import QApplication

    from attnviz.gui.steps.table import SCALED
    hold_shift(monkeypatch)
    slider, d = child(window, "temperatureSlider"), window.document
    model = child(window, "stepTable").model()
    fish = d.scenario.tokens.index("魚")
    slider.setSliderDown(True)  # a drag, the handle at each position in turn
    for position, t, label in ((-130, 0.05, "T = 0.05"), (-131, 0.049, "T = 0.049"), (11, 1.3, "T = 1.3"),
                               (-130, 0.05, "T = 0.05")):
        slider.setSliderPosition(position)
        assert d.scenario.settings.temperature == t and child(window, "temperatureValue").text() == label
    slider.setSliderDown(False)
    QApplication.processEvents()  # the step table follows at the next turn of the event loop
    # 6 ÷ √4 ÷ 0.05 = 60, as the class computes it from what the screen says
    assert model.headerData(SCALED, Qt.Horizontal) == "2. ÷√4 ÷ 0.05"
    assert model.data(model.index(fish, SCALED)) == "60.000"


def test_presenting_the_temperature_slider_is_a_third_of_the_screen_wide(window):
    from attnviz.gui.classroom.classroom import SLIDER_SHARE
    window.classroom.set_presentation(True)
    slider = child(window, "presentationTemperatureSlider")
    assert slider.isVisible() and slider.width() >= window.screen().geometry().width() * SLIDER_SHARE - 1
    label = child(window, "presentationTemperatureValue")
    assert label.isVisible() and label.text() == "T = 1"
