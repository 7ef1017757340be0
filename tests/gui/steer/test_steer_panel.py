"""Research → Steer the model…: a direction from two prompts (or a .npy file) added with α at a layer and a
span of tokens, in the window without code: its numbers are the API's add() at blocks.L.resid_pre, the
next-token panel shows before → after, the layer shown follows, Undo takes it back, a session keeps it."""
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QLabel

from attnviz import api
from attnviz.core import lm
from attnviz.core import session as sessions

pytestmark = pytest.mark.real_model("smollm2")
TEXT = "I think that you are so"


@pytest.fixture(scope="module")
def m():
    return api.load()


def settled(window, qtbot):
    qtbot.waitUntil(lambda: not window.model.runner.busy and window.model.runner.current() is not None, timeout=60_000)
    return window.model.runner.current()


def steer_panel(window, qtbot, text=TEXT):
    window.model.run(text)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None, timeout=120_000)
    settled(window, qtbot)
    window.menus.steer_action.trigger()
    d = window.steer.dialog
    qtbot.waitExposed(d)
    return d


def steered(window, qtbot, d, press):
    before = window.document.scenario
    press()
    qtbot.waitUntil(lambda: window.document.scenario is not before or not d.working and d.said.text(), timeout=60_000)
    qtbot.waitUntil(lambda: not d.working, timeout=60_000)
    return settled(window, qtbot)


def love(m, layer=6):
    def mean_stream(text):
        run = m.run(text, keep=[f"blocks.{layer}.resid_pre"])
        first = 1 if run.ids[0] == m.lm.tokenizer.bos else 0  # a BOS token left out (SmolLM2 puts none)
        return run.cache[f"blocks.{layer}.resid_pre"][first:].mean(axis=0)
    return mean_stream(" love") - mean_stream(" hate")


def test_steering_from_two_prompts_is_the_apis_add_and_the_next_token_moves(window, qtbot, m):
    d = steer_panel(window, qtbot)
    assert d.layer.value() == 6 and d.plus.text() == " love" and d.minus.text() == " hate" and d.alpha.value() == 4.0
    run = steered(window, qtbot, d, d.apply_button.click)
    expect = m.run(TEXT, hooks={"blocks.6.resid_pre": api.add(love(m), 4.0)})
    np.testing.assert_allclose(run.logits, expect.logits, rtol=0, atol=1e-4)
    live = window.document.scenario.live
    assert live.steer is not None and live.steer.alpha == 4.0 and live.steer.layer == 6
    items = window.findChild(object, "nextTokenView").items()
    top = expect.next_tokens(1)[0]
    assert items[0][0] == top[0].replace(" ", "·") and abs(items[0][1] - top[2]) < 1e-5  # bar = steered
    own = m.run(TEXT).probs[top[1]]
    assert abs(items[0][2] - own) < 1e-5 and own < top[2]                                # outline = before
    status = window.findChild(QLabel, "nextTokenStatus")
    assert "Steered: +4 × the direction added entering layer 6" in status.text()
    assert "Steered: +4 × a direction of length" in d.said.text()


def test_the_slider_moves_alpha_and_undo_takes_the_steer_back(window, qtbot, m):
    d = steer_panel(window, qtbot)
    steered(window, qtbot, d, d.apply_button.click)
    run = steered(window, qtbot, d, lambda: d.alpha_slider.setValue(-12))   # -12 steps of 0.5
    assert d.alpha.value() == -6.0 and window.document.scenario.live.steer.alpha == -6.0
    expect = m.run(TEXT, hooks={"blocks.6.resid_pre": api.add(love(m), -6.0)})
    np.testing.assert_allclose(run.logits, expect.logits, rtol=0, atol=1e-4)
    d.alpha_slider.setFocus()
    QTest.keyClick(d.alpha_slider, Qt.Key_Z, Qt.ControlModifier)   # in the panel, as it says: Ctrl+Z
    assert window.document.scenario.live.steer.alpha == 4.0
    d.layer.setFocus()                                              # a number box's Ctrl+Z is the window's too
    QTest.keyClick(d.layer, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.scenario.live.steer is None
    np.testing.assert_allclose(settled(window, qtbot).logits, m.run(TEXT).logits, rtol=0, atol=1e-6)
    assert "Not steered" in d.said.text() and not d.remove_button.isEnabled()


def test_a_span_of_tokens_and_the_layer_shown_follow_the_steer(window, qtbot, m):
    d = steer_panel(window, qtbot)
    window.open_layer(10)
    qtbot.waitUntil(lambda: window.document.scenario.live.layer == 10, timeout=30_000)
    d.start_token.setCurrentIndex(3)
    d.stop_token.setCurrentIndex(4)
    run = steered(window, qtbot, d, d.apply_button.click)
    assert window.document.scenario.live.steer.start == 3 and window.document.scenario.live.steer.stop == 5
    expect = m.run(TEXT, hooks={"blocks.6.resid_pre": api.add(love(m), 4.0, positions=slice(3, 5))},
                   keep=["blocks.10.attn.q"])
    np.testing.assert_allclose(run.logits, expect.logits, rtol=0, atol=1e-4)
    shown = window.document.scenario.heads[2].q          # layer 10's q: the steered run's, not the model's own
    np.testing.assert_allclose(shown, expect.cache["blocks.10.attn.q"][2], rtol=0, atol=1e-4)
    assert not np.allclose(shown, m.run(TEXT, keep=["blocks.10.attn.q"]).cache["blocks.10.attn.q"][2], atol=1e-3)


def test_a_direction_from_a_npy_file_and_a_bad_file_said_in_one_line(window, qtbot, m, tmp_path, monkeypatch):
    d = steer_panel(window, qtbot)
    good, bad = tmp_path / "love.npy", tmp_path / "short.npy"
    np.save(good, love(m, 6))
    np.save(bad, np.ones(3))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    d.load_button.click()
    assert "a direction must be a .npy file of 576 numbers (the model's width), not (3,) of float64" in d.said.text()
    assert d.loaded is None and window.document.scenario.live.steer is None
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(good), ""))
    d.load_button.click()
    assert d.from_file.isChecked() and d.loaded is not None
    d.alpha.setValue(2.5)  # not steered yet: α alone does not run
    run = steered(window, qtbot, d, d.apply_button.click)
    expect = m.run(TEXT, hooks={"blocks.6.resid_pre": api.add(love(m, 6), 2.5)})
    np.testing.assert_allclose(run.logits, expect.logits, rtol=0, atol=1e-4)


def test_a_saved_session_keeps_the_steer_and_runs_it_again(window, qtbot, m, tmp_path):
    d = steer_panel(window, qtbot)
    run = steered(window, qtbot, d, d.apply_button.click)
    assert window.files.save_as(str(tmp_path / "steered"))
    session, _ = sessions.read_session(tmp_path / "steered.attnviz-model.json")
    assert session.steer.layer == 6 and session.steer.alpha == 4.0
    np.testing.assert_array_equal(session.steer.direction, window.document.scenario.live.steer.direction)
    _, _, baseline, restored = sessions.restore(session, lm.load)
    np.testing.assert_array_equal(restored.logits, run.logits)
    assert not np.array_equal(restored.logits, baseline.logits)


def test_without_a_real_model_the_panel_says_how_to_get_one(window, qtbot):
    window.menus.steer_action.trigger()
    d = window.steer.dialog
    assert "open one with File → Real model…" in d.said.text()
    assert not d.apply_button.isEnabled() and not d.alpha_slider.isEnabled()


def test_a_reopened_sessions_steer_keeps_its_own_direction_and_exact_alpha_when_moved(window, qtbot, m, tmp_path,
                                                                                       monkeypatch):
    """A session's direction is the panel's to keep, not to swap for the default prompts' (nor its α rounded)."""
    d = steer_panel(window, qtbot)
    direction = np.random.default_rng(0).normal(size=576).astype(np.float32)
    np.save(tmp_path / "u.npy", direction)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "u.npy"), ""))
    d.load_button.click()
    d.alpha.blockSignals(True)
    d.alpha.setValue(0.0625)
    d.alpha.blockSignals(False)
    steered(window, qtbot, d, d.apply_button.click)
    assert window.files.save_as(str(tmp_path / "s"))
    d.loaded = None                       # the panel as a fresh start leaves it: "From two prompts" chosen
    d.from_prompts.setChecked(True)
    assert window.model.open_session(str(tmp_path / "s.attnviz-model.json"))
    d_ = window.document
    qtbot.waitUntil(lambda: d_.scenario.live is not None and d_.scenario.live.steer is not None
                    and d_.source and d_.source.endswith("s.attnviz-model.json"), timeout=60_000)
    settled(window, qtbot)
    assert d.from_file.isChecked() and d.loaded is not None
    run = steered(window, qtbot, d, lambda: d.layer.setValue(7))   # a steer on: moving its layer re-steers
    steer = window.document.scenario.live.steer
    assert steer.layer == 7 and steer.alpha == 0.0625
    np.testing.assert_array_equal(steer.direction, direction)
    expect = m.run(TEXT, hooks={"blocks.7.resid_pre": api.add(direction, 0.0625)})
    np.testing.assert_allclose(run.logits, expect.logits, rtol=0, atol=1e-4)


def test_another_model_shown_drops_the_direction_made_or_loaded_for_the_first(window, qtbot, m, tmp_path, monkeypatch):
    d = steer_panel(window, qtbot)
    np.save(tmp_path / "u.npy", np.ones(576, np.float32))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "u.npy"), ""))
    d.load_button.click()
    assert d.loaded is not None
    llama = str(Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "hf")
    window.model.run("hi there", source=llama)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None and
                    window.document.scenario.live.model is not m.lm and window.model.runner.model is not m.lm,
                    timeout=60_000)
    settled(window, qtbot)
    assert d.loaded is None and d.from_prompts.isChecked()          # SmolLM2's direction is not this model's
    d.plus.setText("hi")
    d.minus.setText("there")
    d.layer.setValue(1)
    steered(window, qtbot, d, d.apply_button.click)
    steer = window.document.scenario.live.steer
    assert steer is not None and steer.direction.shape == (64,)     # made on this model
