"""The real model in the window: a sentence in, every layer's heads out, and a head's effect on the prediction."""
import numpy as np
import pytest
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLabel, QTableView

from attnviz.core import compute, llama
from attnviz.core.scenario import head_is_off

pytestmark = pytest.mark.skipif(llama.bundled_model() is None, reason="the built-in model is not installed")
TEXT = "The cat ate the fish. It was fresh."


def open_model(window, qtbot, text=TEXT):
    window.run_model(text)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None, timeout=120_000)
    return window.document


def settled(window, qtbot):
    qtbot.waitUntil(lambda: not window.runner.busy and window.runner.current() is not None, timeout=60_000)
    return window.runner.current()


def next_tokens(window):
    return window.findChild(object, "nextTokenView").items()


def test_a_sentence_opens_as_layer_0_with_nine_heads_and_their_kv_groups(window, qtbot):
    d = open_model(window, qtbot)
    s = d.scenario
    assert s.layer == (0, 30) and len(window.heads.panels) == 9 and s.tokens[1] == "·cat"
    assert "K/V group 1, shared with head 3, 5" in window.heads.panels[4].data().title
    for panel in window.heads.panels:
        w = panel.weights()
        np.testing.assert_allclose(w.sum(axis=1), 1.0)
        assert np.all(w[np.triu_indices(s.n, 1)] == 0)  # the causal mask: exactly 0
    assert window.findChild(QComboBox, "layerSelector").isEnabled()


def test_the_next_token_panel_lists_the_models_ten_most_likely_tokens(window, qtbot):
    open_model(window, qtbot)
    result = settled(window, qtbot)
    rows = next_tokens(window)
    expected = llama.top(window.runner.model, result.probs, 10)
    assert len(rows) == 10 and [p for _, p, _ in rows] == [p for _, _, p in expected]
    assert rows[0][0] == "·The" and rows[0][2] is None  # nothing changed: no "before"


def test_the_layer_chooser_switches_layers_keeping_head_and_query(window, qtbot):
    d = open_model(window, qtbot)
    d.select(head=4, query=6)
    window.open_layer(15)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 15, timeout=30_000)
    result = window.runner.current()
    np.testing.assert_array_equal(d.scenario.heads[4].q, result.q[15][4])
    assert (d.active_head, d.query) == (4, 6) and d.scenario.layer == (15, 30)
    np.testing.assert_allclose(window.heads.panels[4].weights(), compute(d.scenario).heads[4].weights)


def test_changing_layer_is_not_an_edit_and_undo_goes_back_to_the_layer_of_the_edit(window, qtbot):
    d = open_model(window, qtbot)
    settled(window, qtbot)
    window.open_layer(5)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 5, timeout=30_000)
    assert not d.modified and d.undo_stack.count() == 0 and not window.isWindowModified()
    window.heads.panels[1].set_off(True)
    settled(window, qtbot)
    window.open_layer(9)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 9, timeout=30_000)
    assert d.undo_stack.count() == 1 and head_is_off(d.scenario, 1) is False  # layer 9's head 1 is on
    assert d.scenario.live.change(5, 1).off  # layer 5's is still off: the model runs with it
    window.undo_action.trigger()  # undoes the switch-off, and shows where it was
    assert d.scenario.live.layer == 5 and not head_is_off(d.scenario, 1) and not d.scenario.live.changes
    assert not d.modified


def test_switching_a_head_off_moves_the_prediction_and_undo_brings_it_back_exactly(window, qtbot):
    d = open_model(window, qtbot)
    before = settled(window, qtbot).probs.copy()
    window.open_layer(3)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 3, timeout=30_000)
    window.heads.panels[2].set_off(True)
    assert head_is_off(d.scenario, 2) and "switched off" in window.heads.panels[2].data().title
    after = settled(window, qtbot)
    assert after.computed[0] == 3  # layers 0 to 2 were not run again
    assert not np.array_equal(after.probs, before)
    assert any(old is not None and abs(now - old) > 1e-6 for _, now, old in next_tokens(window))
    window.undo_action.trigger()
    np.testing.assert_array_equal(settled(window, qtbot).probs, before)


def test_editing_a_real_heads_q_reruns_the_model_from_that_layer(window, qtbot):
    d = open_model(window, qtbot)
    settled(window, qtbot)
    window.open_layer(20)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 20, timeout=30_000)
    table = window.findChild(QTableView, "qTable").model()
    assert table.setData(table.index(d.scenario.n - 1, 0), "25")
    result = settled(window, qtbot)
    assert result.computed[0] == 20 and result.changes[0][:2] == (20, 0)
    np.testing.assert_array_equal(result.q[20][0][-1, 0], 25.0)


def test_the_real_model_dialog_offers_the_tutorials_sentence(window, qtbot, monkeypatch):
    from attnviz.gui.model_dialog import ModelDialog
    ran = []
    monkeypatch.setattr(window, "run_model", lambda text, path=None: ran.append((text, path)))
    monkeypatch.setattr(ModelDialog, "exec", lambda self: QDialog.Accepted)
    window.real_model_action.trigger()
    assert ran == [(TEXT, None)]


def test_the_next_token_panel_follows_a_language_switch(window, qtbot):
    open_model(window, qtbot)
    settled(window, qtbot)
    title = window.findChild(QLabel, "nextTokenTitle")
    window.classroom.set_language("ja")
    assert "次のトークン" in title.text()
    window.classroom.set_language("en")
    assert "Next token" in title.text() and "次" not in title.text()


def test_a_switched_off_head_says_the_model_gets_zeros_from_it(window, qtbot):
    open_model(window, qtbot)
    window.heads.panels[0].set_off(True)
    settled(window, qtbot)
    QApplication.processEvents()
    assert "zeros" in window.findChild(QLabel, "stepOutput").text()
    window.undo_action.trigger()
    QApplication.processEvents()
    assert "zeros" not in window.findChild(QLabel, "stepOutput").text()


def test_ctrl_enter_runs_the_text_typed_in_the_dialog(qtbot):
    from PySide6.QtCore import Qt
    from attnviz.gui.model_dialog import ModelDialog
    dialog = ModelDialog(None, "A")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitActive(dialog)
    dialog.text.setFocus()
    qtbot.keyClicks(dialog.text, "The dog")  # replaces the text shown
    qtbot.keyClick(dialog.text, Qt.Key_Return)  # a new line, not a run
    assert dialog.result() == 0 and dialog.isVisible()
    qtbot.keyClick(dialog.text, Qt.Key_Return, Qt.ControlModifier)
    assert dialog.result() == QDialog.Accepted and dialog.chosen_text() == "The dog\n"


def test_settings_and_tokens_of_a_real_model_are_its_own(window, qtbot):
    d = open_model(window, qtbot)
    assert not window.settings_bar.isEnabled()
    assert not window.rename_token(0, "A")
    assert not window.insert_token(0, "A")
