"""A change that ends where it began is no unsaved work: a setting toggled off and on again, an
edit and its inverse leave the scenario unmodified (no '*' in the title, no question on closing)."""
import pytest
from PySide6.QtWidgets import QMessageBox

from attnviz.gui import MainWindow


def unmodified(window):
    return not window.document.modified and not window.isWindowModified()


@pytest.mark.parametrize("name", ["causalToggle", "scaleToggle"])
def test_a_setting_toggled_off_and_on_again_leaves_the_scenario_unmodified(window, name):
    toggle = window.findChild(object, name)
    toggle.click()
    assert not unmodified(window)  # off: that is a change
    toggle.click()
    assert unmodified(window) and window.document.undo_stack.count() == 2  # on again: none; undo still has both
    window.menus.undo_action.trigger()
    assert not unmodified(window)  # undone once: off again
    window.menus.undo_action.trigger()
    assert unmodified(window)


def test_an_edit_and_its_inverse_leave_the_scenario_unmodified(window):
    model = window.findChild(object, "qTable").model()
    index = model.index(window.document.query, 0)
    before = model.data(index)
    model.setData(index, "3")
    assert not unmodified(window)
    model.setData(index, before)
    assert unmodified(window)


def test_temperature_there_and_back_by_two_drags_is_unmodified(window):
    slider = window.findChild(object, "temperatureSlider")
    for position in (100, 0):  # to 10, then back to 1: two drags
        slider.setSliderDown(True)
        slider.setValue(position)
        slider.setSliderDown(False)
    assert window.document.undo_stack.count() == 2 and unmodified(window)


def test_closing_after_a_net_zero_change_asks_nothing(qtbot, monkeypatch):
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    w.show()
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.Discard)
    toggle = w.findChild(object, "causalToggle")
    toggle.click()
    toggle.click()
    assert w.close() and asked == []


def test_back_to_the_saved_file_after_a_save_is_unmodified(window, tmp_path):
    toggle = window.findChild(object, "causalToggle")
    toggle.click()
    assert window.files.save_to(str(tmp_path / "off.json")) and unmodified(window)
    toggle.click()  # on: different from the file
    assert not unmodified(window)
    toggle.click()  # off: as saved
    assert unmodified(window)


def test_restored_work_stays_unsaved_work_even_when_toggled_back(window):
    """A crash copy brought back has never been saved: nothing makes it 'unmodified' but a save."""
    d = window.document
    d.undo_stack.resetClean()
    toggle = window.findChild(object, "causalToggle")
    toggle.click()
    toggle.click()
    assert d.modified
