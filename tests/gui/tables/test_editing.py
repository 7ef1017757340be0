"""Editing q, k, v in the tables: every panel follows, exactly as the core computes."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from attnviz.core import compute


def panel(window, i):
    return window.findChild(object, f"headPanel{i}")


def table(window, matrix):
    return window.findChild(object, f"{matrix}Table")


def type_into(window, matrix, row, col, text):
    model = table(window, matrix).model()
    return model.setData(model.index(row, col), text, Qt.EditRole)


def expected(doc, head):
    return compute(doc.scenario).heads[head].weights


@pytest.mark.parametrize("matrix", ["q", "k"])
def test_typing_a_number_changes_the_active_heads_heatmap_to_what_the_core_computes(window, doc, matrix):
    other_before = panel(window, 1).weights()
    before = panel(window, 0).weights()
    assert type_into(window, matrix, 6, 0, "2.5")
    assert doc.scenario.heads[0].matrix(matrix)[6, 0] == 2.5
    np.testing.assert_array_equal(panel(window, 0).weights(), expected(doc, 0))
    assert not np.array_equal(panel(window, 0).weights(), before)
    np.testing.assert_array_equal(panel(window, 1).weights(), other_before)  # other head untouched


def test_typing_a_v_value_changes_the_output_line_not_the_weights(window, doc):
    before = panel(window, 0).weights()
    output = window.findChild(object, "stepOutput")
    text_before = output.text()
    assert type_into(window, "v", 2, 1, "10")  # 魚's value, which それ reads most
    np.testing.assert_array_equal(panel(window, 0).weights(), before)
    QApplication.processEvents()  # the step table follows at the next event-loop turn
    assert output.text() != text_before
    out = compute(doc.scenario).heads[0].output[doc.query]
    shown = output.text().replace("\u00a0", " ")  # vectors are kept whole with non-breaking spaces
    assert shown.endswith("= [" + ", ".join(f"{x:.3f}" for x in out) + "]")


def test_the_table_shows_the_new_value_after_an_edit(window):
    assert type_into(window, "q", 0, 1, "-1.25")
    model = table(window, "q").model()
    assert model.data(model.index(0, 1), Qt.DisplayRole) == "\u22121.25"


def test_full_width_digits_from_a_japanese_keyboard_are_accepted(window, doc):
    assert type_into(window, "q", 6, 0, "２.５")
    assert doc.scenario.heads[0].q[6, 0] == 2.5


@pytest.mark.parametrize("text", ["abc", "", "nan", "1e400", "-"])
def test_text_that_is_not_a_number_is_refused_with_a_message_and_changes_nothing(window, doc, text):
    scenario = doc.scenario
    assert not type_into(window, "q", 6, 1, text)
    assert doc.scenario is scenario
    assert doc.undo_stack.count() == 0
    message = window.findChild(object, "messageLabel").text()
    assert message and ("number" in message or "empty" in message or "large" in message)
    model = table(window, "q").model()
    assert model.data(model.index(6, 1), Qt.DisplayRole) == "2"  # the cell keeps its value


def test_undo_and_redo_restore_the_exact_arrays(window, doc):
    original = doc.scenario.heads[0].k.copy()
    type_into(window, "k", 2, 1, "0.1")
    type_into(window, "k", 3, 0, "7")
    edited = doc.scenario.heads[0].k.copy()
    window.menus.undo_action.trigger()
    window.menus.undo_action.trigger()
    np.testing.assert_array_equal(doc.scenario.heads[0].k, original)
    np.testing.assert_array_equal(panel(window, 0).weights(), expected(doc, 0))
    window.menus.redo_action.trigger()
    window.menus.redo_action.trigger()
    np.testing.assert_array_equal(doc.scenario.heads[0].k, edited)


def test_one_edit_is_one_recompute(window, doc):
    QApplication.processEvents()  # settle
    before = doc.recomputes
    type_into(window, "q", 1, 1, "3")
    QApplication.processEvents()
    window.grab()  # every panel and the step table drawn
    assert doc.recomputes == before + 1


def test_many_edits_in_one_event_loop_turn_are_one_recompute(window, doc):
    QApplication.processEvents()
    before = doc.recomputes
    for value in ("1", "2", "3", "4", "5"):  # as fast as a script or a pasted block can type
        type_into(window, "q", 1, 1, value)
    QApplication.processEvents()
    window.grab()
    assert doc.recomputes == before + 1
    np.testing.assert_array_equal(panel(window, 0).weights(), expected(doc, 0))


def test_a_panel_is_one_widget_however_many_cells_it_draws(qtbot):
    from attnviz.gui import MainWindow
    w = MainWindow("gpt2-small-shape")
    qtbot.addWidget(w)
    for i in range(12):
        assert w.findChild(QWidget, f"headPanel{i}").findChildren(QWidget) == []


def test_the_vector_tables_pass_qt_model_tester(window, qtmodeltester):
    for matrix in "qkv":
        qtmodeltester.check(table(window, matrix).model(), force_py=True)


def test_the_step_table_passes_qt_model_tester(window, qtmodeltester):
    qtmodeltester.check(window.findChild(object, "stepTable").model(), force_py=True)


def test_headers_carry_the_dimension_labels_and_the_tokens(window):
    model = table(window, "q").model()
    assert [model.headerData(c, Qt.Horizontal) for c in range(4)] == ["動物", "食べ物", "動作", "文法"]
    assert model.headerData(6, Qt.Vertical) == "それ"


def test_the_tables_follow_the_active_head(window, doc):
    doc.select(head=1)
    model = table(window, "k").model()
    assert model.columnCount() == 2
    assert model.data(model.index(1, 0), Qt.EditRole) == repr(float(doc.scenario.heads[1].k[1, 0]))


def test_inserted_and_removed_tokens_reach_every_head_table_and_panel(window, doc):
    assert window.tokens.insert(2, "とても")
    assert doc.scenario.tokens[2] == "とても"
    for matrix in "qkv":
        assert table(window, matrix).model().rowCount() == 11
    for i in range(2):
        assert panel(window, i).weights().shape == (11, 11)
        np.testing.assert_array_equal(panel(window, i).weights(), expected(doc, i))
    assert window.tokens.remove(2)
    assert len(doc.scenario.tokens) == 10 and panel(window, 1).weights().shape == (10, 10)


def test_renaming_a_token_changes_the_row_header(window):
    assert window.tokens.rename(2, "鮭")
    assert table(window, "v").model().headerData(2, Qt.Vertical) == "鮭"
    assert panel(window, 0).data().tokens[2] == "鮭"


def test_an_empty_token_name_is_refused_with_a_message(window, doc):
    assert not window.tokens.rename(2, "  ")
    assert doc.scenario.tokens[2] == "魚"
    assert "empty" in window.findChild(object, "messageLabel").text()


def test_the_last_token_cannot_be_removed(window, doc):
    for _ in range(9):
        assert window.tokens.remove(0)
    assert not window.tokens.remove(0)
    assert len(doc.scenario.tokens) == 1


def shown(window, matrix):
    model = table(window, matrix).model()
    return [[model.data(model.index(r, c), Qt.DisplayRole) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def test_a_table_writes_all_its_numbers_with_as_many_decimals_as_its_most_precise_one(window, doc):
    k_before = shown(window, "k")
    assert type_into(window, "q", 0, 0, "0.125")
    cells = [text for row in shown(window, "q") for text in row]
    assert all(len(text.split(".")[-1]) == 3 and "." in text for text in cells), cells
    assert shown(window, "k") == k_before  # another table keeps its own format
    doc.undo_stack.undo()
    assert not any(text.endswith("0.125") for row in shown(window, "q") for text in row)
    assert len({len(text.partition(".")[2]) for row in shown(window, "q") for text in row}) == 1


def test_a_tiny_value_is_shown_as_zero_point_zero_never_cut_to_a_larger_looking_number(window):
    from PySide6.QtGui import QFontMetrics
    assert type_into(window, "v", 2, 1, "-0.0003493")
    assert type_into(window, "v", 3, 1, "-12345.5")
    view = table(window, "v")
    model = view.model()
    assert model.data(model.index(2, 1), Qt.DisplayRole) == "0.000"  # never a minus zero
    assert model.data(model.index(2, 1), Qt.ToolTipRole) == "-0.0003493"  # the exact value
    for row in (2, 3):
        text = model.data(model.index(row, 1), Qt.DisplayRole)
        assert QFontMetrics(view.font()).horizontalAdvance(text) < view.columnWidth(1)  # nothing elided


def test_undoing_a_token_removal_brings_back_the_selected_query(window, doc):
    doc.select(query=9)
    assert window.tokens.remove(9)  # the selected token goes: the selection moves to 8
    assert doc.query == 8
    doc.undo_stack.undo()
    assert doc.scenario.tokens[9] == "だった" and doc.query == 9


def test_stepping_the_mask_width_is_one_undo_step_until_the_box_is_left(window, doc):
    from PySide6.QtWidgets import QComboBox, QSpinBox
    box = window.findChild(QComboBox, "maskSelector")
    box.setCurrentIndex(2)  # sliding window
    box.activated.emit(2)
    steps = doc.undo_stack.count()
    size = window.findChild(QSpinBox, "maskSize")
    for width in (3, 4, 5, 6):
        size.setValue(width)
    assert doc.undo_stack.count() == steps + 1 and doc.scenario.settings.mask.window == 6
    doc.undo_stack.undo()
    assert doc.scenario.settings.mask.window != 6 and doc.undo_stack.count() == steps + 1
    size.editingFinished.emit()
    size.setValue(2)
    size.setValue(3)
    assert doc.undo_stack.index() == steps + 1  # the undone steps are gone, a new one took their place


def test_a_cells_exact_value_is_never_written_in_e_notation(window):
    assert type_into(window, "k", 1, 0, "0.00001")
    model = table(window, "k").model()
    index = model.index(1, 0)
    assert model.data(index, Qt.ToolTipRole) == "0.00001" and model.data(index, Qt.EditRole) == "0.00001"
    assert model.data(index, Qt.DisplayRole) == "0.000"
