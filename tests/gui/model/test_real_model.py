"""The real model in the window: a sentence in, every layer's heads out, and a head's effect on the prediction."""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLabel, QMessageBox, QTableView

from attnviz.core import compute, lm
from attnviz.core.lm import Cancelled
from attnviz.core.lm.families import llama
from attnviz.core.lm.tokens import Tokenizer
from attnviz.core.scenario import ScenarioError, head_is_off
from attnviz.core.text import first_control

pytestmark = pytest.mark.real_model("smollm2")
TEXT = "The cat ate the fish. It was fresh."


def open_model(window, qtbot, text=TEXT):
    """The model read `text` to its last layer (layer 0 shows before that)."""
    window.model.run(text)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None and not window.model.runner.busy,
                    timeout=120_000)
    return window.document


def settled(window, qtbot):
    qtbot.waitUntil(lambda: not window.model.runner.busy and window.model.runner.current() is not None, timeout=60_000)
    return window.model.runner.current()


def next_tokens(window):
    return window.findChild(object, "nextTokenView").items()


def test_a_sentence_opens_as_layer_0_with_nine_heads_and_their_kv_groups(window, qtbot):
    d = open_model(window, qtbot)
    s = d.scenario
    assert s.layer == (0, 30) and len(window.parts.heads.panels) == 9 and s.tokens[1] == "·cat"
    assert "K/V group 1, shared with head 3, 5" in window.parts.heads.panels[4].data().title
    for panel in window.parts.heads.panels:
        w = panel.weights()
        np.testing.assert_allclose(w.sum(axis=1), 1.0)
        assert np.all(w[np.triu_indices(s.n, 1)] == 0)  # the causal mask: exactly 0
    assert window.findChild(QComboBox, "layerSelector").isEnabled()


def test_the_next_token_panel_lists_the_models_ten_most_likely_tokens(window, qtbot):
    open_model(window, qtbot)
    result = settled(window, qtbot)
    rows = next_tokens(window)
    expected = lm.top(window.model.runner.model, result.probs, 10)
    assert len(rows) == 10 and [p for _, p, _ in rows] == [p for _, _, p in expected]
    assert rows[0][0] == "·The" and rows[0][2] is None  # nothing changed: no "before"


def test_the_layer_chooser_switches_layers_keeping_head_and_query(window, qtbot):
    d = open_model(window, qtbot)
    d.select(head=4, query=6)
    window.open_layer(15)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 15, timeout=30_000)
    result = window.model.runner.current()
    np.testing.assert_array_equal(d.scenario.heads[4].q, result.q[15][4])
    assert (d.active_head, d.query) == (4, 6) and d.scenario.layer == (15, 30)
    np.testing.assert_allclose(window.parts.heads.panels[4].weights(), compute(d.scenario).heads[4].weights)


def test_changing_layer_is_not_an_edit_and_undo_goes_back_to_the_layer_of_the_edit(window, qtbot):
    d = open_model(window, qtbot)
    settled(window, qtbot)
    window.open_layer(5)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 5, timeout=30_000)
    assert not d.modified and d.undo_stack.count() == 0 and not window.isWindowModified()
    window.parts.heads.panels[1].set_off(True)
    settled(window, qtbot)
    window.document.select(head=0)  # head 1 under the big head 0
    window.open_layer(9)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 9, timeout=30_000)
    assert d.undo_stack.count() == 1 and head_is_off(d.scenario, 1) is False  # layer 9's head 1 is on
    assert d.scenario.live.change(5, 1).off  # layer 5's is still off: the model runs with it
    window.menus.undo_action.trigger()  # undoes the switch-off, and shows where it was
    assert d.scenario.live.layer == 5 and not head_is_off(d.scenario, 1) and not d.scenario.live.changes
    assert not d.modified


def test_switching_a_head_off_moves_the_prediction_and_undo_brings_it_back_exactly(window, qtbot):
    d = open_model(window, qtbot)
    before = settled(window, qtbot).probs.copy()
    window.open_layer(3)
    qtbot.waitUntil(lambda: d.scenario.live.layer == 3, timeout=30_000)
    window.parts.heads.panels[2].set_off(True)
    assert head_is_off(d.scenario, 2) and "switched off" in window.parts.heads.panels[2].data().title
    after = settled(window, qtbot)
    assert after.computed[0] == 3  # layers 0 to 2 were not run again
    assert not np.array_equal(after.probs, before)
    assert any(old is not None and abs(now - old) > 1e-6 for _, now, old in next_tokens(window))
    window.menus.undo_action.trigger()
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
    np.testing.assert_array_equal(result.matrix(20, "q", 0)[-1, 0], 25.0)


def test_the_real_model_dialog_offers_the_tutorials_sentence(window, qtbot, monkeypatch):
    from attnviz.gui.model.dialog import ModelDialog
    ran = []
    monkeypatch.setattr(window.model, "run", lambda text, source=None, chat=False: ran.append((text, source, chat)))
    monkeypatch.setattr(ModelDialog, "exec", lambda self: QDialog.Accepted)
    window.menus.real_model_action.trigger()
    assert ran == [(TEXT, None, False)]


def test_the_next_token_panel_follows_a_language_switch(window, qtbot):
    open_model(window, qtbot)
    settled(window, qtbot)
    title = window.findChild(QLabel, "nextTokenTitle")
    window.classroom.set_language("ja")
    assert "次のトークン" in title.text()
    window.classroom.set_language("en")
    assert "Next token" in title.text() and "次" not in title.text()


def test_a_head_switched_off_from_its_menu_becomes_the_selected_head(window, qtbot):
    d = open_model(window, qtbot)
    assert d.active_head == 0
    window.parts.heads.panels[4].set_off(True)
    settled(window, qtbot)
    assert head_is_off(d.scenario, 4) and d.active_head == 4  # the step table and a captured scene: head 4


def test_a_switched_off_head_says_the_model_gets_zeros_from_it(window, qtbot):
    open_model(window, qtbot)
    window.parts.heads.panels[0].set_off(True)
    settled(window, qtbot)
    QApplication.processEvents()
    assert "zeros" in window.findChild(QLabel, "stepOutput").text()
    window.menus.undo_action.trigger()
    QApplication.processEvents()
    assert "zeros" not in window.findChild(QLabel, "stepOutput").text()


def _ink_runs(image, rows, columns, ink) -> int:
    """The longest run of the text colour along any of `rows` within `columns` (a label's fill is
    wide; strokes of letters are a few pixels)."""
    longest = 0
    for y in rows:
        run = 0
        for x in columns:
            near = max(abs(a - b) for a, b in zip(image.pixelColor(x, y).getRgb()[:3], ink)) < 40
            run = run + 1 if near else 0
            longest = max(longest, run)
    return longest


def test_a_switched_off_heads_label_sits_inside_its_grid_and_a_thumbnail_gets_the_sign(window, qtbot):
    open_model(window, qtbot)
    window.resize(1800, 1000)
    panel = window.parts.heads.panels[0]
    panel.set_off(True)
    settled(window, qtbot)
    QApplication.processEvents()
    g = panel.painter.geometry(panel._content_rect(), panel.shown())
    image = panel.grab().toImage()
    ink = panel.palette().windowText().color().getRgb()[:3]
    right = range(int(g.grid.center().x()), int(g.grid.right()) - 1)
    inside = range(int(g.grid.top()) + 2, int(g.grid.top() + g.cell_h * 1.5))
    above = range(int(g.grid.top() - g.column_label_height), int(g.grid.top()) - 1)
    assert _ink_runs(image, inside, right, ink) > 30  # "switched off", on the hidden future's cells
    assert _ink_runs(image, above, right, ink) < 15   # the column labels left readable
    window.parts.heads.panels[1].set_off(True)
    settled(window, qtbot)
    window.document.select(head=0)  # head 1 under the big head 0
    window.classroom.set_presentation(True)  # the other heads as thumbnails under the big one
    QApplication.processEvents()
    thumb = window.parts.heads.panels[1]
    g = thumb.painter.geometry(thumb._content_rect(), thumb.shown())
    assert g.grid.width() < 80  # a thumbnail: no word could be read on it
    image = thumb.grab().toImage()
    c = g.grid.center()
    diagonal = [image.pixelColor(int(c.x() + t), int(c.y() + t)).getRgb()[:3] for t in (-6, -3, 0, 3, 6)]
    assert all(max(abs(a - b) for a, b in zip(px, ink)) < 60 for px in diagonal), diagonal  # the sign's bar
    window.classroom.set_presentation(False)


def test_ctrl_enter_runs_the_text_typed_in_the_dialog(qtbot):
    from PySide6.QtCore import Qt

    from attnviz.gui.model.dialog import ModelDialog
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
    open_model(window, qtbot)
    assert not window.parts.settings_bar.isEnabled()
    assert not window.tokens.rename(0, "A")
    assert not window.tokens.insert(0, "A")


# ---------------------------------------------------------------- any text a user can paste

LONG = "=" * 9_995 + "\nThe end.\t"  # 10,005 characters (more than a title may hold), 163 tokens


@pytest.mark.parametrize("text, shown", [
    ("def f(x):\n  return x", "def f(x):↵  return x"), ("a\tb\r\nc", "a⇥b^M↵c"),
    ("It was \u202efresh", "It was <U+202E>fresh"), ("zero\u200bwidth", "zero\u200bwidth"),
    ("猫🐱👨\u200d👩\u200d👧", "猫🐱👨\u200d👩\u200d👧"), (" ", "␣"), ("\n", "↵"), (LONG, "=" * 100)],
    ids=["code", "tab and CRLF", "bidi override", "zero width", "emoji", "a space", "a line break",
         "10,005 characters"])
def test_any_text_a_user_can_paste_opens_with_its_controls_shown(window, qtbot, text, shown):
    d = open_model(window, qtbot, text)
    assert d.scenario.live.text == text and shown in d.scenario.title["en"]
    assert not any(first_control(t) for t in (*d.scenario.title.values(), *d.scenario.tokens))
    assert len(window.parts.heads.panels) == 9 and window.parts.heads.panels[0].grab().width() > 0


def test_a_zero_width_token_is_shown(window, qtbot):
    d = open_model(window, qtbot, "It\u200bwas")
    assert d.scenario.tokens[1:3] == ("<U+200B> 1/2", "<U+200B> 2/2")


@pytest.mark.parametrize("text, said, tokenised", [("a" * 300_000, "is 75,000 tokens long", True),
                                                   ("The cat ate the fish. " * 50_000, "characters long", False)],
                         ids=["300,000 letters", "1 MB"])
def test_a_paste_too_long_is_refused_and_a_paste_too_long_to_read_is_not_tokenised(window, qtbot, monkeypatch,
                                                                                    text, said, tokenised):
    open_model(window, qtbot)
    before, warnings, calls = window.document.scenario, [], []
    real = Tokenizer.encode
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a[2]))
    monkeypatch.setattr(Tokenizer, "encode", lambda *a, **k: calls.append(1) or real(*a, **k))
    window.model.run(text)
    qtbot.waitUntil(lambda: len(warnings) == 1, timeout=60_000)
    assert said in warnings[0] and "the model reads at most 4,096" in warnings[0]
    assert bool(calls) == tokenised and window.document.scenario is before and not window.model.progress.isVisible()


def test_every_failure_says_why_and_the_next_try_opens(window, qtbot, monkeypatch):
    """Once a failure was an unexpected error, shown once a session: a second try showed nothing."""
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a[2]))
    window.model.run("word " * 5000)  # refused in the worker
    qtbot.waitUntil(lambda: len(warnings) == 1, timeout=120_000)
    real = lm.first_layer
    monkeypatch.setattr(lm, "first_layer", lambda *a, **k: (_ for _ in ()).throw(ScenarioError("refused")))
    for attempt in (2, 3):  # refused when the run is shown, twice: said twice
        window.model.run(TEXT)
        qtbot.waitUntil(lambda attempt=attempt: len(warnings) == attempt, timeout=60_000)
        assert warnings[-1] == "refused" and window.document.scenario.live is None
    monkeypatch.setattr(lm, "first_layer", real)
    d = open_model(window, qtbot)
    assert d.scenario.live.text == TEXT and not window.model.progress.isVisible() and len(warnings) == 3


# ---------------------------------------------------------------- cancel

def test_cancel_while_the_text_is_tokenised_leaves_the_window_as_it_was(window, qtbot, monkeypatch):
    d = open_model(window, qtbot)
    before = d.scenario
    settled(window, qtbot)
    tokenising = threading.Event()

    def slow(self, text, bos=True, cancelled=None, most=None):  # asks to stop, as the real one does before it starts
        tokenising.set()
        while not cancelled():
            time.sleep(0.005)
        raise Cancelled()
    monkeypatch.setattr(Tokenizer, "encode", slow)
    window.model.run("Another text, long to read")
    qtbot.waitUntil(lambda: tokenising.is_set() and window.model.cancel.isVisible(), timeout=60_000)
    assert window.model.progress.isVisible() and window.model.progress.format() == "Reading the text…"
    window.parts.heads.panels[2].set_off(True)  # an edit meanwhile: its run waits for the worker
    edited = d.scenario
    qtbot.mouseClick(window.model.cancel, Qt.LeftButton)
    qtbot.waitUntil(lambda: "Cancelled" in window.message.text(), timeout=10_000)
    assert d.scenario is edited and d.undo_stack.count() == 1
    assert settled(window, qtbot).changes[0][:2] == (0, 2)  # the model runs the edit of what is shown
    assert not window.model.progress.isVisible() and not window.model.cancel.isVisible()
    window.menus.undo_action.trigger()
    assert d.scenario.live.changes == before.live.changes and d.scenario.tokens == before.tokens


def test_cancel_during_a_chat_template_that_would_run_its_whole_budget_stops_it(window, qtbot, monkeypatch):
    """Issue 45: a template of nested loops, given all the time and steps in the world here, is stopped by
    Cancel as it runs (its child process killed), and the window is as it was."""
    import subprocess

    from attnviz.core.lm import template
    d = open_model(window, qtbot)
    before = d.scenario
    settled(window, qtbot)
    monkeypatch.setattr(template, "STEPS", 10**12)
    monkeypatch.setattr(template, "SECONDS", 10.0**6)
    monkeypatch.setattr(window.model.runner.model.tokenizer, "chat_template",
                        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    children, popen = [], subprocess.Popen
    monkeypatch.setattr(template.subprocess, "Popen", lambda *a, **k: children.append(popen(*a, **k)) or children[-1])
    window.model.run("Another text", chat=True)
    qtbot.waitUntil(lambda: bool(children) and window.model.cancel.isVisible(), timeout=60_000)
    qtbot.wait(300)  # the child is rendering by now
    qtbot.mouseClick(window.model.cancel, Qt.LeftButton)
    qtbot.waitUntil(lambda: "Cancelled" in window.message.text(), timeout=10_000)
    assert d.scenario is before and not window.model.cancel.isVisible()
    assert children[0].wait(5) < 0  # killed as it ran: its 10¹² steps would have taken days


def test_cancel_during_the_forward_pass_stops_between_layers(window, qtbot, monkeypatch):
    d = open_model(window, qtbot)
    before = d.scenario
    settled(window, qtbot)
    layers, running, cancelled = [], threading.Event(), threading.Event()
    forward = llama.block

    def watched(*args):
        layers.append(1)
        if len(layers) == 3:
            running.set()
            cancelled.wait(30)
        return forward(*args)
    monkeypatch.setattr(llama, "block", watched)
    window.model.run("The dog ate the bone.")
    qtbot.waitUntil(running.is_set, timeout=60_000)
    window.model.cancel.click()
    cancelled.set()
    qtbot.waitUntil(lambda: not window.model.runner.busy, timeout=30_000)
    assert len(layers) == 3 and d.scenario is before and d.scenario.live.text == TEXT


# ---------------------------------------------------------------- the real program

WATCHED_START = """
import sys, threading
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from attnviz.cli import main
from attnviz.core.lm import tokens
from attnviz.gui.window.main_window import MainWindow

watchdog = threading.Timer(120, lambda: __import__("os")._exit(3))  # never left behind, whatever happens
watchdog.daemon = True
watchdog.start()
tokenising = threading.Event()
if sys.argv[1] == "endless":  # a tokenisation that never ends and never asks whether to stop
    def endless(self, text, bos=True, cancelled=None, most=None):
        tokenising.set()
        while True:
            sum(range(1000))
    tokens.Tokenizer.encode = endless

def watch():
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    if found and (tokenising.is_set() if sys.argv[1] == "endless" else found[0].document.scenario.live):
        print(found[0].document.scenario.title["en"].replace("\\n", "\\\\n"), flush=True)
        found[0].close()
    else:
        QTimer.singleShot(20, watch)
QTimer.singleShot(0, watch)
sys.exit(main(sys.argv[2:]))
"""


def start_attnviz(tmp_path, how, *argv):
    env = {**os.environ, "ATTNVIZ_DATA_DIR": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.Popen([sys.executable, "-c", WATCHED_START, how, "--lang", "en", *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def test_model_text_with_a_line_break_opens_from_the_command_line(tmp_path):
    session = start_attnviz(tmp_path, "open", "--model-text", "def f(x):\n  return x")
    try:
        out, err = session.communicate(timeout=120)
    finally:
        session.kill()
    assert session.returncode == 0, err
    assert out.strip() == "SmolLM2-135M-Instruct: def f(x):↵  return x"


def test_closing_the_window_during_a_long_tokenisation_ends_the_process(tmp_path):
    """The worker thread must not keep Python alive (a ThreadPoolExecutor's threads are joined at
    exit). 20 s is a hang check, not a measure of speed: it exits as the window closes."""
    session = start_attnviz(tmp_path, "endless", "--model-text", "The cat ate the fish.")
    try:
        assert session.stdout.readline()  # tokenising: the window closes now
        assert session.wait(timeout=20) == 0, session.stderr.read()
    finally:
        session.kill()


def test_a_new_texts_layer_0_is_shown_while_the_pass_goes_on_and_stays_when_it_ends(window, qtbot, monkeypatch):
    d = window.document
    layers, held, release = [], threading.Event(), threading.Event()
    forward = llama.block

    def watched(model, layer, *args):
        layers.append(layer)
        if layer == 5:
            held.set()
            release.wait(30)
        return forward(model, layer, *args)
    monkeypatch.setattr(llama, "block", watched)
    window.model.run(TEXT)
    qtbot.waitUntil(lambda: held.is_set() and d.scenario.live is not None, timeout=60_000)
    early = d.scenario
    assert early.layer == (0, 30) and early.tokens[1] == "·cat" and window.model.runner.current() is None
    assert window.model.cancel.isVisible() and next_tokens(window) == []  # the prediction is still to come
    window.parts.heads.panels[2].set_off(True)  # an edit while the pass goes on
    window.model.show_layer(7, lambda: pytest.fail("refused"))  # another layer asked for meanwhile
    release.set()
    qtbot.waitUntil(lambda: d.scenario.live.layer == 7, timeout=60_000)
    result = settled(window, qtbot)
    assert result.changes[0][:2] == (0, 2) and len(next_tokens(window)) == 10  # the edit ran, then the layer
    assert layers[:6] == [0, 1, 2, 3, 4, 5]


def test_cancel_after_layer_0_is_shown_puts_back_what_was_open(window, qtbot, monkeypatch):
    d = window.document
    before, path = d.scenario, d.source
    held, release = threading.Event(), threading.Event()
    forward = llama.block

    def watched(model, layer, *args):
        if layer == 3:
            held.set()
            release.wait(30)
        return forward(model, layer, *args)
    monkeypatch.setattr(llama, "block", watched)
    window.model.run(TEXT)
    qtbot.waitUntil(lambda: held.is_set() and d.scenario.live is not None, timeout=60_000)
    window.model.cancel.click()
    release.set()
    qtbot.waitUntil(lambda: not window.model.runner.busy, timeout=30_000)
    assert d.scenario is before and d.source == path and "Cancelled" in window.message.text()
