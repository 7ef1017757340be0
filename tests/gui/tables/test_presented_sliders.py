"""The presented sliders as a teacher uses them in front of a class (seed-demo, F5, 1920 × 1080):
a click gives a slider the arrow keys, and one press … release of the mouse is one undo step."""
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QSlider, QStyle, QStyleOptionSlider

from attnviz.gui.tables.controls import temperature_to_position


@pytest.fixture
def presenting(window, monkeypatch):
    # No key held (another test's key clicks may leave Qt's idea of the modifiers behind).
    monkeypatch.setattr(QApplication, "keyboardModifiers", staticmethod(lambda: Qt.NoModifier))
    window.classroom.set_presentation(True)
    QApplication.processEvents()
    return window


def slider(window, name) -> QSlider:
    return window.findChild(QSlider, name)


def at(s: QSlider, value: int) -> QPoint:
    """Where the handle's centre is when the slider shows `value`."""
    option = QStyleOptionSlider()
    s.initStyleOption(option)
    handle = s.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderHandle, s)
    groove = s.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderGroove, s)
    offset = QStyle.sliderPositionFromValue(s.minimum(), s.maximum(), value, groove.width() - handle.width())
    return QPoint(groove.x() + offset + handle.width() // 2, handle.center().y())


def temperature(window) -> float:
    return window.document.scenario.settings.temperature


# ---------------------------------------------------------------- the arrow keys

def test_a_click_on_the_temperature_then_the_arrows_move_it_through_the_round_values_not_the_lesson(presenting,
                                                                                                    qtbot):
    w, d = presenting, presenting.document
    t = slider(w, "presentationTemperatureSlider")
    qtbot.mouseClick(t, Qt.LeftButton, pos=at(t, t.value()))  # on the handle: T stays 1
    assert t.hasFocus() and temperature(w) == 1.0
    stage, steps = d.stage, d.undo_stack.count()
    seen = []
    for key in (Qt.Key_Right, Qt.Key_Right, Qt.Key_Left, Qt.Key_Left, Qt.Key_Left):
        qtbot.keyClick(t, key)
        seen.append(temperature(w))
    assert seen == [2.0, 5.0, 2.0, 1.0, 0.5]
    assert d.stage == stage and w.classroom.presenting
    assert d.undo_stack.count() == steps + 5  # each key press is one step


def test_with_the_slider_focused_a_clickers_page_keys_still_step_the_lesson_and_esc_gives_the_arrows_back(
        presenting, qtbot):
    w, d = presenting, presenting.document
    t = slider(w, "presentationTemperatureSlider")
    qtbot.mouseClick(t, Qt.LeftButton, pos=at(t, t.value()))
    qtbot.keyClick(t, Qt.Key_PageDown)  # the clicker's "next"
    assert d.stage == 1 and temperature(w) == 1.0
    qtbot.keyClick(t, Qt.Key_Escape)
    assert not t.hasFocus() and w.classroom.presenting  # the first Esc only lets go of the slider
    qtbot.keyClick(w, Qt.Key_Right)
    assert d.stage == 2 and temperature(w) == 1.0


def test_a_click_on_a_q_slider_gives_it_the_arrows_too(presenting, qtbot):
    w, d = presenting, presenting.document
    food = slider(w, "presentationQSlider1")  # それ's 食べ物 is 2
    qtbot.mouseClick(food, Qt.LeftButton, pos=at(food, food.value()))
    assert food.hasFocus()
    qtbot.keyClick(food, Qt.Key_Left)
    assert d.scenario.heads[0].q[d.query][1] == 1.9 and d.stage is None


def test_the_focused_slider_is_framed_in_the_highlight_colour(presenting, qtbot):
    t = slider(presenting, "presentationTemperatureSlider")
    highlight = t.palette().color(QPalette.Highlight)
    edge = QPoint(1, t.height() // 2)  # the frame's left side, away from the groove's ends
    assert t.grab().toImage().pixelColor(edge) != highlight
    qtbot.mouseClick(t, Qt.LeftButton, pos=at(t, t.value()))
    assert t.grab().toImage().pixelColor(edge) == highlight


# ---------------------------------------------------------------- one press … release, one undo step

def test_a_drag_of_the_handle_from_1_to_10_is_one_undo_step(presenting, qtbot):
    w, d = presenting, presenting.document
    t = slider(w, "presentationTemperatureSlider")
    steps = d.undo_stack.count()
    start, end = at(t, t.value()), at(t, temperature_to_position(10))
    qtbot.mousePress(t, Qt.LeftButton, pos=start)
    for f in (0.2, 0.4, 0.6, 0.8, 1.0):  # across 2 and 5
        qtbot.mouseMove(t, start + (end - start) * f)
    qtbot.mouseRelease(t, Qt.LeftButton, pos=end)
    assert temperature(w) == 10.0 and d.undo_stack.count() == steps + 1
    w.menus.undo_action.trigger()
    assert temperature(w) == 1.0


def test_a_press_held_beside_the_handle_from_1_to_10_is_one_undo_step(presenting, qtbot):
    """Missing the handle and holding the button, Qt steps 2, 5, 10 towards the pointer."""
    w, d = presenting, presenting.document
    t = slider(w, "presentationTemperatureSlider")
    steps = d.undo_stack.count()
    ten = at(t, temperature_to_position(10))
    qtbot.mousePress(t, Qt.LeftButton, pos=ten)
    qtbot.waitUntil(lambda: temperature(w) == 10.0, timeout=20000)  # Qt's auto-repeat: slow on a busy machine
    qtbot.mouseRelease(t, Qt.LeftButton, pos=ten)
    assert d.undo_stack.count() == steps + 1
    w.menus.undo_action.trigger()
    assert temperature(w) == 1.0 and not d.modified


def test_a_press_held_beside_a_q_handle_is_one_undo_step(presenting, qtbot):
    w, d = presenting, presenting.document
    animal = slider(w, "presentationQSlider0")  # それ's 動物 is 0
    far = at(animal, 20)
    qtbot.mousePress(animal, Qt.LeftButton, pos=far)
    qtbot.waitUntil(lambda: d.scenario.heads[0].q[d.query][0] >= 1.5, timeout=5000)
    qtbot.mouseRelease(animal, Qt.LeftButton, pos=far)
    assert d.undo_stack.count() == 1
    w.menus.undo_action.trigger()
    assert d.scenario.heads[0].q[d.query][0] == 0


def test_the_keys_list_says_a_clicked_slider_takes_the_arrows_in_japanese_and_cuts_nothing(presenting):
    presenting.classroom.set_language("ja")
    presenting.classroom.toggle_keys()
    QApplication.processEvents()
    keys = presenting.classroom.keys
    labels = [label for label in keys.findChildren(type(keys.title)) if label.isVisible()]
    texts = [label.text() for label in labels]
    assert "スライダー：← / →" in texts and "クリックして動かす（Esc で解除）" in texts
    for label in labels:  # every row whole on the screen
        right = label.mapTo(keys, label.rect().topRight()).x()
        assert label.width() >= label.sizeHint().width() and right < keys.width(), label.text()
