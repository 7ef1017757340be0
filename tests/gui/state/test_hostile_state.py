"""AttnViz always starts and never loses work: damaged settings and crash copies, saving safely."""
import json
import math
import os
import stat
import threading
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

from attnviz.core import load_preset, load_scenario, make_head, make_scenario, save_scenario
from attnviz.core.files import FileProblem
from attnviz.core.formats.document import scenario_to_dict
from attnviz.gui import MainWindow
from attnviz.gui.state import autosave, settings


def new_window(qtbot, scenario="seed-demo"):
    w = MainWindow(scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    return w


# ---------------------------------------------------------------- settings, checked when read

@pytest.mark.parametrize("key, value", [
    ("window/geometry", "hello"), ("window/state", 42), ("zoom", "nan"), ("zoom", "1e300"),
    ("presentation/zoom", "-1"), ("language", "klingon"), ("theme", "neon"), ("colormap", "../../etc"),
    ("reopenLast", "perhaps"), ("lastScenario", "/tmp/a\0b.json"), ("recentFiles", ["ok.json", "bad\0.json", 7]),
])
def test_a_damaged_setting_is_forgotten_with_a_notice_and_the_window_opens(qtbot, key, value):
    from attnviz.gui.window.start import _start_scenario
    QSettings().setValue(key, value)
    QSettings().setValue("reopenLast", True) if key == "lastScenario" else None
    settings.notices()
    assert _start_scenario()[1] == "preset:seed-demo"  # what run() does first
    w = new_window(qtbot)
    w.show()
    settings.recent_files(), settings.language("en"), settings.zoom(True), settings.reopen_last()
    notices = settings.notices()
    assert len(notices) == 1 and key in notices[0]
    assert math.isfinite(w.font().pointSizeF()) and w.width() < 5000
    assert QSettings().value(key) != value  # forgotten (or replaced: the window notes what it opened)


def test_zoom_nan_leaves_the_text_at_its_usual_size(qtbot):
    QSettings().setValue("zoom", "nan")
    w = new_window(qtbot)
    assert w.classroom.zoom_factor == pytest.approx(1.0)


# ---------------------------------------------------------------- crash copies, checked when read

def crash_copy(folder, meta, name="session-dead.json", scenario="toy-3token"):
    (folder / "autosave").mkdir(exist_ok=True)
    doc = scenario_to_dict(load_preset(scenario))
    doc["autosave"] = meta
    (folder / "autosave" / name).write_text(json.dumps(doc), encoding="utf-8")
    return folder / "autosave" / name


@pytest.mark.parametrize("meta", [{"time": 1e20, "source": None}, {"time": "yesterday"}, {"time": float("nan")},
                                  {"source": 42, "time": 1}, {"source": "a\0b", "time": -5}, "not an object"])
def test_a_crash_copy_with_a_damaged_time_or_source_is_still_offered(qtbot, tmp_path, monkeypatch, meta):
    crash_copy(tmp_path, meta)
    w = new_window(qtbot)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    assert w.recovery.offer_restore(tmp_path)
    assert "untitled" in asked[0] and w.document.scenario.n == 3 and w.document.modified


@pytest.mark.parametrize("obstacle", ["file", "read-only"])
def test_a_copy_that_cannot_be_set_aside_is_kept_where_it_is(qtbot, tmp_path, monkeypatch, obstacle):
    copy = crash_copy(tmp_path, {})
    copy.write_text("{ broken")
    if obstacle == "file":
        (copy.parent / "unreadable").write_text("in the way")
    else:
        monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(PermissionError(13, "read-only")))
        monkeypatch.setattr(type(copy), "replace", lambda *a: (_ for _ in ()).throw(PermissionError(13, "read-only")))
    w = new_window(qtbot)
    told = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: told.append(a[2]))
    assert not w.recovery.offer_restore(tmp_path)
    assert copy.read_text() == "{ broken" and str(copy) in told[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_pipes_in_the_autosave_folder_do_not_hang_the_start(qtbot, tmp_path, monkeypatch):
    crash_copy(tmp_path, {"time": time.time()}, name="session-good.json")
    os.mkfifo(tmp_path / "autosave" / "session-good.lock")    # a pipe where a lock should be
    os.mkfifo(tmp_path / "autosave" / "session-pipe.json")    # a pipe where a copy should be
    w = new_window(qtbot)
    told, asked = [], []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: told.append(a[2]))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.No)
    done = []
    thread = threading.Thread(target=lambda: done.append(autosave.orphans(tmp_path)), daemon=True)
    thread.start()
    thread.join(10)
    assert done, "listing the crash copies blocked on a pipe"
    w.recovery.offer_restore(tmp_path)
    assert len(asked) == 1 and "not a regular file" in told[0]
    assert stat.S_ISFIFO(os.lstat(tmp_path / "autosave" / "unreadable" / "session-pipe.json").st_mode)


def big_model(heads=64, n=512, d=64):
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, heads, n, d)).astype(np.float32)
    return make_scenario([f"t{i}" for i in range(n)], [make_head(f"h{i}", q[i], k[i], v[i]) for i in range(heads)])


def test_a_big_models_crash_copy_is_compact_private_and_offered_back(qtbot, tmp_path, monkeypatch):
    s = big_model()
    np.savez(tmp_path / "model.npz", tokens=np.array(s.tokens), **{m: np.stack([h.matrix(m) for h in s.heads])
                                                                   for m in "qkv"})
    w = new_window(qtbot, str(tmp_path / "model.npz"))
    w.recovery.enable(tmp_path)
    assert w.tokens.rename(0, "猫")
    w.recovery.autosave.write_now()
    assert w.recovery.autosave.path.suffix == ".npz" and stat.S_IMODE(w.recovery.autosave.path.stat().st_mode) == 0o600
    w.recovery.autosave.lock.unlock()  # as after kill -9: the lock's process is gone
    later = new_window(qtbot, "toy-3token")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    assert later.recovery.offer_restore(tmp_path)
    assert later.document.scenario.tokens[0] == "猫" and len(later.document.scenario.heads) == 64
    w.recovery.errors.uninstall()


def test_autosave_failures_are_said_once_until_a_copy_succeeds_again(qtbot, tmp_path, monkeypatch):
    w = new_window(qtbot)
    w.recovery.enable(tmp_path)
    w.tokens.rename(0, "犬")
    full = [True]

    def save(*args, **kwargs):
        if full[0]:
            raise FileProblem("{0}: {1}", "copy", "could not be written (No space left on device)")
    monkeypatch.setattr(autosave, "save_scenario", save)
    shown = []
    monkeypatch.setattr(w.statusBar(), "showMessage", lambda text, *a: shown.append(text))
    def write():  # on the worker thread, as the timer does, and waited for
        w.recovery.autosave.write()
        w.recovery.autosave.flush()
    write()
    write()
    assert len(shown) == 1 and "No space left" in shown[0]
    full[0] = False
    write()
    full[0] = True
    write()
    assert len(shown) == 2
    w.recovery.errors.uninstall()


def test_the_error_log_is_private(tmp_path):
    from attnviz.gui.window.errors import write_log
    write_log("Traceback: /home/teacher/secret/lesson.json", tmp_path / "errors.log")
    assert stat.S_IMODE((tmp_path / "errors.log").stat().st_mode) == 0o600


# ---------------------------------------------------------------- saving from the window

def test_a_read_only_file_is_refused_from_the_window_and_left_as_it_was(window, tmp_path, monkeypatch):
    target = tmp_path / "lesson.json"
    save_scenario(load_preset("toy-3token"), target)
    target.chmod(0o444)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    assert not window.files.save_to(str(target))
    assert "read-only" in shown[0] and load_scenario(target).n == 3


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(qtbot, tmp_path, monkeypatch):
    path = tmp_path / "lesson.json"
    save_scenario(load_preset("toy-3token"), path)
    w = new_window(qtbot, str(path))
    w.tokens.rename(0, "犬")
    time.sleep(0.01)
    other = load_scenario(path)
    from attnviz.core.scenario import with_token_renamed
    save_scenario(with_token_renamed(other, 1, "鳥"), path)  # another AttnViz saves the same file
    answers = [QMessageBox.Cancel, QMessageBox.Save]
    asked = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: asked.append(a[2]) or answers.pop(0))
    assert not w.files.save()
    assert load_scenario(path).tokens[1] == "鳥" and "changed by another program" in asked[0]
    assert w.files.save()
    assert load_scenario(path).tokens == ("犬", "魚", "それ")
    assert w.files.save() and len(asked) == 2  # saved by this window now: no question


def test_save_as_offers_the_compact_format_for_a_large_scenario_and_never_the_models_own_file(
        qtbot, tmp_path, monkeypatch):
    s = big_model()
    layers = {m: np.stack([h.matrix(m) for h in s.heads])[None].repeat(2, 0) for m in "qkv"}  # two layers
    np.savez(tmp_path / "model.npz", tokens=np.array(s.tokens), **layers)
    w = new_window(qtbot, str(tmp_path / "model.npz"))
    w.tokens.rename(0, "猫")
    offered = []

    def dialog(parent, title, suggestion, filters, chosen):
        offered.append((suggestion, chosen))
        return suggestion, chosen
    monkeypatch.setattr("attnviz.gui.state.files.QFileDialog.getSaveFileName", dialog)
    assert w.files.save()
    assert offered == [(str(tmp_path / "model-layer0.npz"), "AttnViz compact (*.npz)")]
    assert load_scenario(tmp_path / "model-layer0.npz").tokens[0] == "猫"
    assert load_scenario(tmp_path / "model.npz", layer=1).tokens[0] == "t0"  # the model's file untouched


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_a_layer_saved_alone_opens_with_its_name_and_no_layer_to_choose(qtbot, tmp_path, suffix):
    """A scenario file holds the layer it was saved from: the window names it, and offers no
    other layer (each choice would show that same layer again)."""
    rng = np.random.default_rng(1)
    q = rng.normal(size=(3, 2, 4, 2))  # three layers, each its own
    np.savez(tmp_path / "model.npz", tokens=np.array(list("abcd")), q=q, k=q[::-1], v=q)
    w = new_window(qtbot, str(tmp_path / "model.npz"))
    assert not w.findChild(QWidget, "layerSelector").isHidden()
    assert w.open_layer(2) and w.document.scenario.layer == (2, 3)
    save_scenario(w.document.scenario, tmp_path / ("layer2" + suffix))
    w2 = new_window(qtbot, str(tmp_path / ("layer2" + suffix)))
    shown = w2.document.scenario
    assert shown.layer == (2, 3)  # where it came from, still said (the figure's caption too)
    assert w2.findChild(QWidget, "layerSelector").isHidden()
    name = w2.parts.selectors.layer_name
    assert not name.isHidden() and name.text() == "Layer 2 of 3" and "one layer" in name.toolTip()
    w2.compare.fill_menu(w2.menus.compare_menu)
    assert "Another layer of this model…" not in [a.text() for a in w2.menus.compare_menu.actions()]
    assert not w2.open_layer(0) and w2.document.scenario is shown  # the overview's click, say


@pytest.mark.parametrize("content, reason", [
    ('{"format": "attnviz-scenario", "version": ' + "9" * 5000 + "}", "digits"),
    (None, "from 0 to 4096"),
])
def test_files_that_used_to_go_wrong_inside_the_window_say_cannot_open(window, tmp_path, monkeypatch, content, reason):
    if content is None:
        doc = scenario_to_dict(load_preset("toy-3token"))
        doc["settings"]["mask"] = {"kind": "window", "window": 2 ** 31}
        content = json.dumps(doc)
    (tmp_path / "bad.json").write_text(content)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[1:3]))
    assert not window.files.open_scenario(str(tmp_path / "bad.json"))
    assert shown[0][0] == "Cannot open" and reason in shown[0][1]


def test_an_svg_of_a_model_with_control_character_tokens_is_well_formed(tmp_path):
    from attnviz.core import compute
    from attnviz.gui.export.figure import Figure, FigureOptions
    from attnviz.gui.export.files import export_figure
    np.savez(tmp_path / "m.npz", tokens=np.array(["\x00", "\x1b[2J", "\x07bell", "<&>"]),
             weights=np.tril(np.ones((1, 4, 4))) / np.arange(1, 5)[:, None])
    s = load_scenario(tmp_path / "m.npz")
    export_figure(Figure(s, compute(s), FigureOptions(kind="step", query=3)), tmp_path / "m.svg")
    texts = "".join(t.text or "" for t in ET.parse(tmp_path / "m.svg").getroot().iter("{http://www.w3.org/2000/svg}text"))
    assert "^[[2J" in texts and "<&>" in texts



def test_a_crash_copy_that_makes_the_reader_raise_anything_is_kept_and_said(qtbot, tmp_path, monkeypatch):
    import hostile
    (tmp_path / "autosave").mkdir()
    hostile.write_zip(tmp_path / "autosave" / "session-locked.npz", {"tokens.npy": hostile.tokens(2)}, flags=1)
    w = new_window(qtbot)
    told = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: told.append(a[2]))
    assert not w.recovery.offer_restore(tmp_path)
    assert "encrypted" in told[0] and (tmp_path / "autosave" / "unreadable" / "session-locked.npz").exists()


def test_restoring_a_copy_whose_source_is_a_hostile_file_works(qtbot, tmp_path, monkeypatch):
    import hostile
    hostile.write_zip(tmp_path / "locked.npz", {"tokens.npy": hostile.tokens(2)}, flags=1)
    crash_copy(tmp_path, {"source": str(tmp_path / "locked.npz"), "time": time.time()})
    w = new_window(qtbot)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    assert w.recovery.offer_restore(tmp_path) and w.document.scenario.n == 3 and not w.document.layers_in_file


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("device", ["/dev/zero", "pipe.json", "pipe.attnviz-model.json"])
def test_a_recent_file_that_is_now_a_device_or_a_pipe_says_cannot_open_and_changes_nothing(window, tmp_path,
                                                                                          monkeypatch, device):
    """File → Recent: the entry was a scenario once; a pipe or a device now is refused by name, at once."""
    from PySide6.QtWidgets import QMenu
    path = device if device.startswith("/dev") else str(tmp_path / device)
    if not device.startswith("/dev"):
        os.mkfifo(path)
    settings.remember_recent(path)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[1:3]))
    before = window.document.scenario
    menu = QMenu()
    window.files.fill_recent_menu(menu)
    next(a for a in menu.actions() if a.text() == path).trigger()
    assert shown and shown[0][0] == "Cannot open" and "is not a regular file" in shown[0][1], shown
    assert window.document.scenario is before
