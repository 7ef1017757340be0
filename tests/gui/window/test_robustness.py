"""Nothing lost, nothing crashes: bad input refused with a reason, unsaved work survives a crash."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox, QTableView, QWidget

from attnviz.core import compute, load_preset, load_scenario, save_scenario
from attnviz.core.formats.document import scenario_to_dict
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language
from attnviz.gui.state.commands import SetRow

# Autosave writes DELAY_MS (2 s) after an edit; a loaded machine may take longer. This waits for
# the copy, it does not time it (speed is for benchmarks).
AUTOSAVE_WAIT_MS = 15_000


def model(window, matrix="q"):
    return window.findChild(QTableView, f"{matrix}Table").model()


def panel_weights(window):
    return [p.weights() for p in window.parts.heads.panels]


def assert_panels_match_the_core(window):
    expected = compute(window.document.scenario).weights()
    for drawn, computed in zip(panel_weights(window), expected):
        np.testing.assert_array_equal(drawn, computed)
        assert np.all(np.isfinite(drawn))


@pytest.mark.parametrize("text, value", [("２.５", 2.5), ("－１", -1.0), ("  3  ", 3.0), ("1e6", 1e6),
                                         ("-1e6", -1e6), ("−0.5", -0.5), ("+7", 7.0)])
def test_numbers_in_any_form_a_keyboard_produces_are_accepted(window, text, value):
    assert model(window).setData(model(window).index(6, 1), text)
    assert window.document.scenario.heads[0].q[6, 1] == value
    assert_panels_match_the_core(window)


@pytest.mark.parametrize("text", ["abc", "", " ", "nan", "NaN", "inf", "-inf", "1e400", "-", "1,5", "２Ａ", "0x10"])
def test_anything_else_typed_in_a_cell_is_refused_and_changes_nothing(window, text):
    before = window.document.scenario
    assert not model(window).setData(model(window).index(6, 1), text)
    assert window.document.scenario is before and not window.document.modified
    assert window.findChild(QWidget, "messageLabel").text()


def test_a_letter_typed_in_a_cell_is_refused_in_the_interface_language(window):
    window.classroom.set_language("ja")
    assert not model(window).setData(model(window).index(6, 1), "abc")
    assert window.findChild(QWidget, "messageLabel").text() == \
        "「abc」は数ではありません。0.5 や -2 のような数を入力してください"


def test_a_million_in_every_cell_keeps_every_weight_exact_and_finite(window):
    d = window.document
    rng = np.random.default_rng(0)
    for matrix in "qkv":
        for row in range(d.scenario.n):
            width = d.scenario.heads[0].matrix(matrix).shape[1]
            d.push(SetRow(d, 0, matrix, row, rng.choice([-1e6, 1e6], size=width)))
    assert_panels_match_the_core(window)
    np.testing.assert_allclose(panel_weights(window)[0].sum(axis=1), 1.0)
    step = window.findChild(QTableView, "stepTable").model()
    cells = [str(step.data(step.index(r, c))) for r in range(step.rowCount()) for c in range(6)]
    assert not any("nan" in c.lower() or c in ("inf", "∞") for c in cells)


@pytest.mark.parametrize("name", ["🐱", "ねこ🐟", "a" * 40, "を"])
def test_emoji_long_and_duplicate_token_names_are_accepted_and_drawn(window, name):
    assert window.tokens.rename(0, name)
    window.parts.heads.panels[0].grab()  # draws without error
    assert window.document.scenario.tokens[0] == name


@pytest.mark.parametrize("name, reason", [("", "empty"), ("   ", "empty"), ("a" * 41, "characters long")])
def test_empty_and_overlong_token_names_are_refused_with_a_reason(window, name, reason):
    assert not window.tokens.rename(0, name)
    assert reason in window.findChild(QWidget, "messageLabel").text()
    assert window.document.scenario.tokens[0] == "猫"


def hostile_files(tmp_path):
    good = scenario_to_dict(load_preset("toy-3token"))
    files = {
        "truncated.json": (json.dumps(good)[:120], "broken JSON"),
        "newer.json": (json.dumps({**good, "version": 99}), "newer AttnViz"),
        "shapes.json": (json.dumps({**good, "tokens": ["a", "b"]}), "needs 2 rows"),
        "nan.json": (json.dumps(good).replace("[0.0, 2.0]", "[NaN, 2.0]", 1), "nan"),
    }
    made = {}
    for name, (text, reason) in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        made[name] = reason
    with open(tmp_path / "huge.json", "wb") as f:
        f.truncate(200 * 1024 * 1024)
    made["huge.json"] = "too large"
    np.savez(tmp_path / "pickle.npz", tokens=np.array([object()], dtype=object), q=np.zeros((1, 1)),
             k=np.zeros((1, 1)), v=np.zeros((1, 1)))
    made["pickle.npz"] = "pickles"
    (tmp_path / "folder.json").mkdir()
    made["folder.json"] = "is a folder"
    return made


def test_hostile_files_are_refused_with_a_message_and_what_was_open_stays(window, tmp_path, monkeypatch):
    assert window.tokens.rename(0, "犬")  # unsaved work that must survive every refusal
    monkeypatch.setattr(window.files, "ask_unsaved", lambda: QMessageBox.Discard)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    for name, reason in hostile_files(tmp_path).items():
        before = window.document.scenario
        assert not window.files.open_scenario(str(tmp_path / name)), name
        assert reason in shown[-1], (name, shown[-1])
        assert window.document.scenario is before and window.document.scenario.tokens[0] == "犬"


JAPANESE_REASONS = {"truncated.json": "JSON が", "newer.json": "新しい AttnViz", "shapes.json": "行必要です",
                    "nan.json": "使えない数", "huge.json": "大きすぎます", "pickle.npz": "pickle",
                    "folder.json": "フォルダー"}


def test_a_japanese_teacher_reads_why_a_file_was_refused_in_japanese(window, tmp_path, monkeypatch):
    install_language("ja")
    monkeypatch.setattr(window.files, "ask_unsaved", lambda: QMessageBox.Discard)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    for name, english in hostile_files(tmp_path).items():
        assert not window.files.open_scenario(str(tmp_path / name)), name
        said = shown[-1].replace(str(tmp_path / name), "")  # the file's name stays as it is
        english = set(re.findall(r"[A-Za-z]{3,}", said)) - {"JSON", "AttnViz", "pickle", "nan", "float", "tokens",
                                                               "Python"}
        assert JAPANESE_REASONS[name] in said and not english and said.startswith("："), (name, shown[-1])


def test_an_unreadable_file_is_refused_too(window, tmp_path, monkeypatch):
    save_scenario(load_preset("toy-3token"), tmp_path / "locked.json")
    real_open = os.open  # chmod 000 does not stop root, which CI may run as

    def denied(path, *args, **kwargs):
        if str(path).endswith("locked.json"):
            raise PermissionError(13, "no")
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    assert not window.files.open_scenario(str(tmp_path / "locked.json"))
    assert "permission denied" in shown[0] and window.document.scenario.n == 10


# ---------------------------------------------------------------- autosave and crash recovery

@pytest.fixture
def recovering(qtbot, tmp_path):
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.recovery.enable(tmp_path)
    w.recovery.autosave.timer.setInterval(10)
    w.show()
    return w


def test_unsaved_work_is_autosaved_and_the_copy_goes_when_it_is_saved(recovering, qtbot, tmp_path):
    w = recovering
    w.tokens.rename(0, "犬")
    qtbot.waitUntil(w.recovery.autosave.path.exists, timeout=AUTOSAVE_WAIT_MS)
    assert load_scenario(w.recovery.autosave.path).tokens[0] == "犬"
    assert w.files.save_to(str(tmp_path / "saved.json"))
    assert not w.recovery.autosave.path.exists()  # saved: nothing left to recover


def test_a_clean_close_leaves_nothing_to_restore(recovering, qtbot, tmp_path, monkeypatch):
    from attnviz.gui.state.autosave import orphans
    w = recovering
    w.tokens.rename(0, "犬")
    qtbot.waitUntil(w.recovery.autosave.path.exists, timeout=AUTOSAVE_WAIT_MS)
    assert orphans(tmp_path) == []  # this session is alive: its copy is not an orphan
    monkeypatch.setattr(w.files, "ask_unsaved", lambda: QMessageBox.Discard)
    assert w.close()
    assert orphans(tmp_path) == [] and not w.recovery.autosave.path.exists()


CRASHING_SESSION = """
import sys, time
from attnviz.gui.window.app import create_app
app = create_app()
from PySide6.QtWidgets import QTableView
from attnviz.gui import MainWindow
from attnviz.core.presets import open_named
w = MainWindow(open_named("seed-demo", lang="ja"))  # the Japanese version, whatever the language
w.recovery.enable()
w.show()
table = w.findChild(QTableView, "qTable").model()
table.setData(table.index(6, 0), "2")   # それ: 動物 2 ...
table.setData(table.index(6, 1), "0")   # ... 食べ物 0: it now looks at 猫
while not w.recovery.autosave.path.exists():
    app.processEvents()
    time.sleep(0.05)
print("autosaved", flush=True)
time.sleep(600)  # killed here, as a crash or a power cut would
"""


def test_after_a_kill_the_next_start_offers_the_unsaved_work_back(qtbot, tmp_path, monkeypatch):
    env = {**os.environ, "ATTNVIZ_DATA_DIR": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    session = subprocess.Popen([sys.executable, "-c", CRASHING_SESSION], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert session.stdout.readline().strip() == "autosaved"
    finally:
        session.send_signal(signal.SIGKILL)
        session.wait(timeout=10)
    w = MainWindow("toy-3token")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.recovery.enable(tmp_path)
    asked = []
    monkeypatch.setattr(w.recovery, "ask_restore", lambda *a: asked.append(a) or QMessageBox.Yes)
    assert w.recovery.offer_restore(tmp_path)
    s = w.document.scenario
    assert asked and asked[0][1] == "preset:seed-demo"
    assert s.heads[0].q[6].tolist() == [2, 0, 0, 0] and w.document.modified
    weights = w.findChild(QWidget, "headPanel0").weights()
    assert s.tokens[int(np.argmax(weights[6]))] == "猫"
    assert not w.recovery.offer_restore(tmp_path)  # offered once, then gone


def test_refusing_the_restore_discards_the_copy(qtbot, tmp_path, monkeypatch):
    from attnviz.gui.state.autosave import orphans
    folder = tmp_path / "autosave"
    folder.mkdir()
    doc = scenario_to_dict(load_preset("toy-3token"))
    doc["autosave"] = {"source": None, "time": time.time()}
    (folder / "session-dead.json").write_text(json.dumps(doc), encoding="utf-8")
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    monkeypatch.setattr(w.recovery, "ask_restore", lambda *a: QMessageBox.No)
    assert not w.recovery.offer_restore(tmp_path)
    assert orphans(tmp_path) == [] and w.document.scenario.n == 10


# ---------------------------------------------------------------- unexpected errors

@pytest.mark.qt_no_exception_capture
def test_an_unexpected_error_is_logged_reported_and_the_app_goes_on(recovering, qtbot, tmp_path, monkeypatch):
    from attnviz.gui.window import errors
    w = recovering
    reported = []
    monkeypatch.setattr(errors.ErrorReporter, "report", lambda self, e, details, logged: reported.append((e, logged)))
    monkeypatch.setattr(errors, "log_path", lambda: tmp_path / "errors.log")

    def broken_slot():
        raise RuntimeError("a bug in a view")
    QTimer.singleShot(0, broken_slot)
    qtbot.waitUntil(lambda: bool(reported), timeout=2000)
    error, logged = reported[0]
    assert isinstance(error, RuntimeError) and "a bug in a view" in logged.read_text(encoding="utf-8")
    assert w.isVisible() and w.tokens.rename(0, "犬")  # still working
    w.recovery.errors.uninstall()


def test_the_error_dialog_offers_to_save_a_copy(recovering, tmp_path, monkeypatch):
    from attnviz.gui.window.errors import ErrorReporter
    saved = []
    monkeypatch.setattr(recovering.files, "save_as", lambda: saved.append(True))  # what "Save a copy…" calls

    def click_save(box):
        assert "nothing has been lost" in box.text() and "RuntimeError" in box.detailedText()
        box.buttons()[0].click()
    monkeypatch.setattr(QMessageBox, "exec", click_save)
    try:
        raise RuntimeError("boom")
    except RuntimeError as e:
        reporter = ErrorReporter(recovering, recovering.recovery.keep_copy, lambda: recovering.files.save_as())
        reporter.report(e, "Traceback ... RuntimeError: boom", tmp_path / "errors.log")
    assert saved == [True]
    recovering.recovery.errors.uninstall()


def test_a_steady_stream_of_edits_is_still_autosaved(recovering, qtbot):
    w = recovering
    w.recovery.autosave.timer.setInterval(200)
    model = w.findChild(QTableView, "qTable").model()
    start = time.monotonic()
    r = 0
    while not w.recovery.autosave.path.exists() and time.monotonic() - start < 3:
        model.setData(model.index(0, 0), str(r % 5 + 1))  # an edit every 50 ms, never a pause
        r += 1
        qtbot.wait(50)
    assert w.recovery.autosave.path.exists() and time.monotonic() - start < 1.5


def test_a_read_only_data_folder_lets_the_window_work_without_autosave(qtbot, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    w = MainWindow("toy-3token")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.recovery.enable(blocked)
    assert w.recovery.autosave is None and "cannot be kept safe" in w.findChild(QWidget, "messageLabel").text()
    assert w.tokens.rename(0, "犬")
    w.recovery.errors.uninstall()


def test_an_unreadable_copy_is_set_aside_not_deleted_and_the_user_is_told_where(qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "autosave"
    folder.mkdir()
    (folder / "session-broken.json").write_text("{ broken", encoding="utf-8")
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    told = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: told.append(a[2]))
    assert not w.recovery.offer_restore(tmp_path)
    kept = folder / "unreadable" / "session-broken.json"
    assert kept.read_text() == "{ broken"
    assert len(told) == 1 and str(kept) in told[0] and "broken JSON" in told[0]


@pytest.mark.qt_no_exception_capture
def test_an_error_that_repeats_on_every_repaint_is_shown_once_and_after_the_paint(recovering, qtbot,
                                                                                   tmp_path, monkeypatch):
    from attnviz.gui.window import errors
    w = recovering
    shown = []
    monkeypatch.setattr(errors.ErrorReporter, "report", lambda self, e, d, logged: shown.append(e))
    monkeypatch.setattr(errors, "log_path", lambda: tmp_path / "errors.log")
    w.tokens.rename(0, "犬")

    def broken():
        raise ValueError("the same bug")
    for _ in range(5):
        try:
            broken()
        except ValueError:
            w.recovery.errors(*sys.exc_info())
    assert shown == []  # not inside the failing code
    qtbot.waitUntil(lambda: bool(shown), timeout=2000)
    qtbot.wait(50)
    assert len(shown) == 1 and w.recovery.errors.count == 5
    assert load_scenario(w.recovery.autosave.path).tokens[0] == "犬"  # the work was copied at once
    w.recovery.errors.uninstall()
