"""The crash copy is written off the GUI thread, ends as the last scenario, and never replaces a
good copy with a broken one or outlives a save."""
import threading

import numpy as np
import pytest

from attnviz.core import load_preset, load_scenario, make_head, make_scenario
from attnviz.gui.state import autosave
from attnviz.gui.state.autosave import Autosave
from attnviz.gui.state.commands import SetCell
from attnviz.gui.state.document import ScenarioDocument


def big(n=300, heads=12, d_k=16):
    rng = np.random.default_rng(1)
    return make_scenario([f"t{i}" for i in range(n)],
                         [make_head(f"h{h}", *rng.normal(0, 1, (3, n, d_k))) for h in range(heads)])


@pytest.fixture
def saver(qapp, tmp_path):
    d = ScenarioDocument(big())
    a = Autosave(d, tmp_path, d)  # owned by the document, as by the window in the app
    yield d, a
    a.close()


def edit(d, i):
    d.push(SetCell(d, i % 12, "qkv"[i % 3], i % 300, i % 16, float(i) + 0.5))


def test_the_copy_is_written_on_another_thread_than_the_windows(saver, monkeypatch):
    d, a = saver
    threads = []
    real = autosave.save_scenario

    def save(*args, **kwargs):
        threads.append(threading.get_ident())
        return real(*args, **kwargs)
    monkeypatch.setattr(autosave, "save_scenario", save)
    edit(d, 1)
    a.write()
    a.flush()
    assert threads and threads[0] != threading.get_ident()
    assert a.path.suffix == ".npz" and a.path.exists()


def test_after_a_burst_of_edits_the_copy_is_the_last_scenario(saver, qtbot):
    d, a = saver
    for i in range(40):
        edit(d, i)
        a.write()  # as the timer would, while a copy is still being written
    qtbot.waitUntil(lambda: a._running is None and not a._again, timeout=20_000)
    copy = load_scenario(a.path)
    for mine, kept in zip(d.scenario.heads, copy.heads):
        for m in "qkv":
            np.testing.assert_array_equal(kept.matrix(m), mine.matrix(m))


def test_a_write_that_fails_at_the_rename_keeps_the_previous_copy(saver, monkeypatch):
    d, a = saver
    edit(d, 1)
    a.write_now()
    before = a.path.read_bytes()
    failures = []
    a.failed.connect(failures.append)

    def rename(tmp, target):
        raise OSError(5, "Input/output error")  # as if the machine died before the rename
    monkeypatch.setattr(autosave, "_rename", rename)
    edit(d, 2)
    a.write()
    a.flush()
    assert a.path.read_bytes() == before and len(failures) == 1
    assert load_scenario(a.path).heads[1].k[1, 1] == 1.5  # the first edit is in it
    assert not [p for p in a.folder.iterdir() if p.name.startswith(".attnviz-")]  # no temporary left


def test_a_copy_still_being_written_when_the_work_is_saved_never_appears(saver, monkeypatch):
    d, a = saver
    started, release = threading.Event(), threading.Event()
    real = autosave.save_scenario

    def slow(*args, **kwargs):
        started.set()
        release.wait(10)
        return real(*args, **kwargs)
    monkeypatch.setattr(autosave, "save_scenario", slow)
    edit(d, 1)
    a.write()
    assert started.wait(10)
    d.undo_stack.setClean()  # saved: the copy is discarded while the worker writes
    release.set()
    a.flush()
    assert not a.path.exists() and not list(a.folder.glob("session-*.npz"))


def test_a_small_scenarios_copy_is_readable_json(qapp, tmp_path):
    d = ScenarioDocument(load_preset("seed-demo"))
    a = Autosave(d, tmp_path, d)  # owned by the document, as by the window in the app
    d.push(SetCell(d, 0, "q", 0, 0, 3.0))
    a.write()
    a.flush()
    assert a.path.suffix == ".json" and load_scenario(a.path).heads[0].q[0, 0] == 3.0
    a.close()
