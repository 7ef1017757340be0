"""Ctrl+Z and Ctrl+Shift+Z undo and redo the scenario from wherever the keyboard focus is: an editor
(a spin box, a slider, a drop-down list, a table and its cell editor) never keeps them as its own."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QTableView

from attnviz.core.masks import MaskSpec
from attnviz.core.scenario import same_scenario
from attnviz.gui.state.commands import SetSettings


def focused(window, qtbot, widget):
    window.activateWindow()
    qtbot.waitActive(window)
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)
    return widget


def undo_keys(qtbot, widget):
    qtbot.keyClick(widget, Qt.Key_Z, Qt.ControlModifier)


def redo_keys(qtbot, widget):
    qtbot.keyClick(widget, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)


def test_ctrl_z_in_the_sliding_window_width_box_undoes_its_change(window, qtbot):
    d = window.document
    d.push(SetSettings(d, "window", mask=MaskSpec("window", window=3)))
    box = focused(window, qtbot, window.findChild(object, "maskSize"))
    qtbot.keyClick(box, Qt.Key_Up)
    assert d.scenario.settings.mask.window == 4
    undo_keys(qtbot, box)
    assert d.scenario.settings.mask.window == 3 and box.value() == 3
    redo_keys(qtbot, box)
    assert d.scenario.settings.mask.window == 4 and box.value() == 4


@pytest.mark.parametrize("name, key", [
    ("maskSize", Qt.Key_Up),              # a spin box
    ("temperatureSlider", Qt.Key_Right),  # a slider
    ("qSlider0", Qt.Key_Left),            # a q slider
    ("maskSelector", Qt.Key_Down),        # a drop-down list
    ("causalToggle", Qt.Key_Space),       # a check box
])
def test_every_kind_of_editor_lets_ctrl_z_undo_the_change_it_made_and_ctrl_shift_z_redo_it(window, qtbot, name, key):
    d = window.document
    d.push(SetSettings(d, "window", mask=MaskSpec("window", window=3)))
    editor = focused(window, qtbot, window.findChild(object, name))
    stack = d.undo_stack
    before, scenario = stack.index(), d.scenario
    qtbot.keyClick(editor, key)
    assert stack.index() == before + 1 and d.scenario is not scenario  # the editor changed the scenario
    changed = d.scenario
    undo_keys(qtbot, editor)
    assert stack.index() == before and same_scenario(d.scenario, scenario)
    redo_keys(qtbot, editor)
    assert stack.index() == before + 1 and same_scenario(d.scenario, changed)
    qtbot.keyClick(editor, Qt.Key_Y, Qt.ControlModifier)  # the other redo: nothing left to redo
    assert stack.index() == before + 1 and editor.hasFocus()


def test_ctrl_z_in_a_table_undoes_and_in_its_cell_editor_first_takes_back_the_typing(window, qtbot):
    d = window.document
    table = window.findChild(QTableView, "qTable")
    model = table.model()
    assert model.setData(model.index(0, 0), "5")  # an edit made earlier
    focused(window, qtbot, table)
    undo_keys(qtbot, table)
    assert d.scenario.heads[0].q[0, 0] == 0  # seed-demo's value again
    redo_keys(qtbot, table)
    assert d.scenario.heads[0].q[0, 0] == 5
    table.setCurrentIndex(model.index(0, 0))
    table.edit(model.index(0, 0))
    editor = table.viewport().findChild(QLineEdit)
    qtbot.waitUntil(editor.hasFocus)
    qtbot.keyClicks(editor, "7")
    undo_keys(qtbot, editor)  # the typing first, as in a spreadsheet
    assert editor.text() == "5" and d.scenario.heads[0].q[0, 0] == 5
    undo_keys(qtbot, editor)  # then the scenario, the editor closed unsaved
    assert d.scenario.heads[0].q[0, 0] == 0
    qtbot.waitUntil(lambda: not editor.isVisible())
    QApplication.processEvents()
    assert d.scenario.heads[0].q[0, 0] == 0 and d.undo_stack.canRedo()  # its stale "5" never written back
