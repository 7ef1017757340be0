"""The research workbench in the window: each tab's numbers are the core's (checked against
PyTorch in tests/core/research), computed off the GUI thread with Cancel, bad input said in one
line, and a map's cell clicked puts that patch or ablation in the window, live."""
import csv

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from attnviz.core import lm
from attnviz.core.research import attribution, head_types, patch, sweep
from attnviz.core.scenario import Change, StreamPatch
from attnviz.gui.common.i18n import install_language

pytestmark = pytest.mark.real_model("smollm2")
CLEAN, CORRUPTED = "The Eiffel Tower is in the city of", "The Colosseum is in the city of"
TEXT = "When Mary and John went to the store, John gave a drink to"


@pytest.fixture(scope="module")
def model():
    return lm.load()


def workbench(window, qtbot, tab):
    window.menus.research_actions[tab].trigger()
    d = window.research.dialog
    qtbot.waitExposed(d)
    assert d.tabs.currentIndex() == ("patch", "lens", "attribute", "sweep", "heads", "explain").index(tab)
    return d


def ran(d, qtbot, tab):
    getattr(d, f"{tab}_run").click()
    qtbot.waitUntil(lambda: not d.working, timeout=120_000)
    return getattr(d, f"{tab}_view")


def click_cell(view, row, column):
    g = view._grid()
    rows, columns = view.values.shape
    point = QPointF(g.left() + (column + 0.5) * g.width() / columns, g.top() + (row + 0.5) * g.height() / rows)
    QTest.mouseClick(view, Qt.LeftButton, pos=point.toPoint())


def test_patching_maps_what_each_head_restores_and_a_click_shows_that_patch_live(window, qtbot, model):
    d = workbench(window, qtbot, "patch")
    view = ran(d, qtbot, "patch")
    clean, corrupted = (lm.run(model, lm.encode(model, t).ids) for t in (CLEAN, CORRUPTED))
    expect = patch.patch(model, clean, corrupted, 7042, 7268).restored
    # the map's work ran on the dialog's thread, this on the test's: restored is a ratio of float32 logit
    # differences (|logit| < 30, float32's step there 2e-6): another order of sums moves it by ~1e-6,
    # a thousandth of the 1 % the map shows
    assert view.values.shape == (30, 9)
    np.testing.assert_allclose(view.values, expect, rtol=0, atol=1e-5)
    assert "layer 23, head 4 (51%)" in d.patch_summary.text() and "·Paris − ·Rome" in d.patch_summary.text()
    click_cell(view, 23, 4)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None, timeout=60_000)
    live = window.document.scenario.live
    assert live.text == CORRUPTED and live.layer == 23 and window.document.active_head == 4
    assert [(layer, head) for layer, head, c in live.changes] == [(23, 4)] and live.changes[0][2].out is not None
    assert "patched" in window.parts.heads.panels[4].data().title  # its weights are its own; its output is not
    assert "patched" not in window.parts.heads.panels[3].data().title
    patched = lm.run(model, corrupted.ids, live.changes)
    items = window.findChild(object, "nextTokenView").items()
    assert items[0][0] == "·Rome" and abs(items[0][1] - patched.probs[7268]) < 1e-6  # patched now, corrupted before
    assert abs(items[0][2] - corrupted.probs[7268]) < 1e-6


def test_a_cell_of_the_residual_stream_map_applies_that_patch_live_and_edits_keep_it(window, qtbot, model):
    """By position, a cell clicked is the stream entering that layer at that token, patched from
    the clean run: the next token moves as the map says, the token's row is chosen, the panel
    names the patch, and a head switched off afterwards runs with the patch still in."""
    d = workbench(window, qtbot, "patch")
    d.by.setCurrentIndex(1)
    view = ran(d, qtbot, "patch")
    clean, corrupted = (lm.run(model, lm.encode(model, t).ids) for t in (CLEAN, CORRUPTED))
    found = patch.patch(model, clean, corrupted, 7042, 7268, by="position")
    np.testing.assert_allclose(view.values, found.restored, rtol=0, atol=1e-5)  # as the map by head, above
    position = int(np.argmax(found.restored[10]))
    click_cell(view, 10, position)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None, timeout=60_000)
    live = window.document.scenario.live
    assert live.layer == 10 and live.changes == () and (live.patch.layer, live.patch.position) == (10, position)
    assert window.document.query == position
    expect = lm.run(model, corrupted.ids, patch=StreamPatch(10, position, clean.streams[10][position]))
    restored = (patch.logit_difference(expect, 7042, 7268) - found.corrupted) / (found.clean - found.corrupted)
    assert abs(restored - found.restored[10, position]) < 1e-4 and restored > 0.5
    panel = window.findChild(object, "nextTokenView")
    paris = next(row for row in panel.items() if row[0] == "·Paris")
    assert abs(paris[1] - expect.probs[7042]) < 1e-6 and abs(paris[2] - corrupted.probs[7042]) < 1e-6
    said = panel.status.text()
    assert "layer 10" in said and window.document.scenario.tokens[position] in said and "patched" in said
    window.parts.heads.panels[3].set_off(True)
    qtbot.waitUntil(lambda: window.model.runner.current() is not None and not window.model.runner.busy,
                    timeout=60_000)
    latest = window.model.runner.latest
    assert latest.patch is live.patch and [(layer, h, c.off) for layer, h, c in latest.changes] == [(10, 3, True)]
    expect = lm.run(model, corrupted.ids, ((10, 3, Change(off=True)),), patch=live.patch)
    np.testing.assert_allclose(latest.probs, expect.probs, rtol=1e-5, atol=1e-9)  # the worker's pass, and this one


def test_the_sweep_maps_each_heads_delta_log_p_and_a_click_switches_that_head_off(window, qtbot, model):
    d = workbench(window, qtbot, "sweep")
    view = ran(d, qtbot, "sweep")
    result = lm.run(model, lm.encode(model, TEXT).ids)
    expect = sweep.sweep(model, result, 5099).delta_logp
    # Δ log p from float32 logits summed on another thread (see the patching map): ~1e-5 apart at most
    np.testing.assert_allclose(view.values, expect, rtol=0, atol=1e-4)
    assert "layer 1, head 5" in d.sweep_summary.text()
    click_cell(view, 29, 1)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None, timeout=60_000)
    live = window.document.scenario.live
    assert live.layer == 29 and [(layer, head, c.off) for layer, head, c in live.changes] == [(29, 1, True)]
    items = window.findChild(object, "nextTokenView").items()
    assert items[0][0] == "·Mary" and round(items[0][1], 2) == 0.72 and round(items[0][2], 2) == 0.92


def test_the_lens_shows_the_likeliest_token_after_each_layer_ending_in_the_models_prediction(window, qtbot):
    d = workbench(window, qtbot, "lens")
    table = ran(d, qtbot, "lens")
    assert table.rowCount() == 30 and table.columnCount() == 14
    assert table.horizontalHeaderItem(1).text() == "·Mary" and table.item(29, 13).text() == "·Mary\n0.92"
    assert "·Mary: rank 1" in table.item(29, 13).toolTip() and "1340" in d.lens_summary.text()


def test_head_types_sort_the_heads_by_the_type_asked_for_and_mark_the_strong_ones(window, qtbot):
    d = workbench(window, qtbot, "heads")
    QTest.keyClick(d, Qt.Key_Return)  # Enter runs the tab shown
    assert d.working
    table = ran(d, qtbot, "heads")
    assert table.rowCount() == 270
    d.pick.setCurrentIndex(head_types.TYPES.index("induction"))
    top = (table.item(0, 0).value, table.item(0, 1).value, table.item(0, 3).value)
    assert top[:2] == (18, 6) and top[2] > 0.9
    assert table.item(0, 0).background().color().alpha() == 255   # marked
    assert table.item(269, 0).background().color().alpha() == 0
    assert "the token after the current token's earlier copy" in d.definitions.text()


def test_a_token_that_is_not_one_token_is_said_in_one_line_and_nothing_changes(window, qtbot):
    before = window.document.scenario
    d = workbench(window, qtbot, "attribute")
    d.attribute_token.setText("Mary went")
    view = ran(d, qtbot, "attribute")
    assert "'Mary went' is 2 tokens" in d.attribute_summary.text() and view.values is None
    assert window.document.scenario is before
    d.attribute_text.setText("")
    d.attribute_run.click()
    assert "the text is empty" in d.attribute_summary.text() and not d.working


def test_cancel_stops_the_work_and_keeps_the_workbench_and_its_last_map(window, qtbot):
    d = workbench(window, qtbot, "attribute")
    view = ran(d, qtbot, "attribute")
    shown = view.values.copy()
    d.show_tab("sweep")
    d.sweep_run.click()
    assert d.working and d.cancel_button.isVisible()
    d.cancel_button.click()
    assert not d.working and d.isVisible() and np.array_equal(view.values, shown)
    qtbot.wait(300)
    assert d.sweep_view.values is None  # the cancelled sweep never arrives


def test_the_workbench_speaks_japanese(window, qtbot):
    d = workbench(window, qtbot, "patch")
    install_language("ja")
    assert d.windowTitle() == "研究ワークベンチ" and d.tabs.tabText(0) == "2 つのプロンプトを比べる"
    assert window.menus.research_menu.title() == "研究(&R)" and "直前のトークンへの重み。" in d.definitions.text()


def test_a_continuation_is_explained_token_by_token_with_its_probability_and_rank(window, qtbot):
    d = workbench(window, qtbot, "explain")
    table = ran(d, qtbot, "explain")
    assert table.rowCount() == 10 and table.item(0, 0).text() == "·Paris"
    assert table.item(0, 1).value == pytest.approx(0.773, abs=1e-3) and table.item(0, 2).value == 1
    assert table.item(1, 3).text().startswith(". 0.68  , 0.19")  # after "Paris" it expected a full stop
    assert "Least expected: ·Italy (6.7%, rank 4)" in d.explain_summary.text()
    d.target.setText("n't")  # "is" + "n't" is "·isn" "'t": the prompt's last token changes; refused
    ran(d, qtbot, "explain")
    assert "the continuation must add tokens after the prompt's own" in d.explain_summary.text()


def test_api_show_opens_the_window_on_a_run_with_its_changes(qtbot):
    from attnviz import api
    m = api.load()
    run = m.run(TEXT, off=[(29, 1)])
    window = api.show(run, layer=29, block=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    qtbot.waitUntil(lambda: bool(window.findChild(object, "nextTokenView").items()), timeout=30_000)
    live = window.document.scenario.live
    assert live.layer == 29 and [(c[0], c[1], c[2].off) for c in live.changes] == [(29, 1, True)]
    items = window.findChild(object, "nextTokenView").items()
    assert items[0][0] == "·Mary" and abs(items[0][1] - run.probs[5099]) < 1e-6 and round(items[0][2], 2) == 0.92


def test_the_input_may_be_token_ids_and_bos_may_be_left_out(window, qtbot):
    d = workbench(window, qtbot, "sweep")
    d.sweep_ids.setChecked(True)
    d.sweep_text.setText("504, 2365 3290")
    d.sweep_token.setText("#30")
    view = ran(d, qtbot, "sweep")
    assert view.values.shape == (30, 9) and d.last["sweep"][1].labels == ("The", "·quick", "·fost")
    d.sweep_text.setText("504, fox")
    d.sweep_run.click()
    assert "'504, fox' is not token ids" in d.sweep_summary.text() and not d.working
    d.sweep_text.setText("99999999")
    ran(d, qtbot, "sweep")
    assert "token id 99999999: the model's ids go from 0 to 49,151" in d.sweep_summary.text()
    d.lens_no_bos.setChecked(True)  # SmolLM2 puts no BOS first: the same tokens either way
    d.show_tab("lens")
    table = ran(d, qtbot, "lens")
    assert table.horizontalHeaderItem(0).text() == "When"


def test_a_tabs_result_saves_as_the_csv_the_command_line_prints(window, qtbot, tmp_path, monkeypatch, model):
    d = workbench(window, qtbot, "attribute")
    assert not d.attribute_save.isEnabled()  # nothing to save yet
    ran(d, qtbot, "attribute")
    assert d.attribute_save.isEnabled()
    path = tmp_path / "attribution.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    d.attribute_save.click()
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    encoded = lm.encode(model, TEXT)
    expect = attribution.head_attribution(model, lm.run(model, encoded.ids), 5099).columns()
    assert [r["part"] for r in rows] == list(expect["part"]) and len(rows) == 30 * 9 + 30 + 2
    np.testing.assert_allclose([float(r["contribution"]) for r in rows], expect["contribution"], atol=1e-4)
    assert str(path) in d.message.text()


def test_a_table_that_cannot_be_written_is_said_in_the_tab_and_leaves_what_stood_there(window, qtbot, tmp_path):
    d = workbench(window, qtbot, "heads")
    table = ran(d, qtbot, "heads")
    (tmp_path / "notes").write_text("kept", encoding="utf-8")
    d.save_table("heads", str(tmp_path / "notes" / "heads.csv"))
    assert "notes" in d.heads_summary.text() and table.rowCount() == 270
    assert (tmp_path / "notes").read_text(encoding="utf-8") == "kept"
    d.save_table("heads", str(tmp_path / "heads"))  # a name typed without its suffix gets it, as a save dialog's
    with open(tmp_path / "heads.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    best = max(rows, key=lambda r: float(r["induction"]))
    assert len(rows) == 270 and (int(best["layer"]), int(best["head"])) == (18, 6)


def test_a_saved_lens_names_each_positions_token(window, qtbot, tmp_path, model):
    d = workbench(window, qtbot, "lens")
    ran(d, qtbot, "lens")
    d.save_table("lens", str(tmp_path / "lens.csv"))
    with open(tmp_path / "lens.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    labels = lm.encode(model, TEXT).labels
    assert len(rows) == 30 * len(labels) * 5
    assert {(int(r["position"]), r["token"]) for r in rows} == set(enumerate(labels))
