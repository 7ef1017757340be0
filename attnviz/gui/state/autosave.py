"""Unsaved work survives a crash: a copy is kept in the user's data folder while it is unsaved.

Each running window writes `session-<id>.json` (or `.npz` when the scenario is too large
for JSON) a few seconds after every change and holds `session-<id>.lock`. A copy whose
lock nobody holds belongs to a session that did not end cleanly (crash, kill, power cut):
the next start offers to restore it. A copy that cannot be read is never deleted: it is
moved to `autosave/unreadable/` (or left where it is) and the user is told where.
"""
from __future__ import annotations

import math
import os
import stat
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QTimer, Signal

from ...core import session as sessions
from ...core.io import load_with_meta, save_scenario
from ...core.paths import data_folder
from ...core.scenario import ScenarioError, count_values
from ...core.text import first_control

DELAY_MS = 2000  # after the last change: a crash loses at most a couple of seconds
WATCH_MS = 50  # how often the window looks whether a copy has been written
JSON_AUTOSAVE_VALUES = 20_000  # up to this many numbers a copy is JSON (a millisecond); beyond, .npz
SUFFIXES = (".json", ".npz")


class Superseded(Exception):
    """A copy finished writing after the work was saved or another copy was asked for: dropped."""


class Autosave(QObject):
    """Raises OSError when the data folder cannot be made (a read-only profile): the window
    then runs without autosave and says so.

    The copy is written on a worker thread from the scenario of the moment (immutable, so
    taking it costs nothing), as compact .npz unless it is small: zlib lets the window run while
    it compresses, where writing JSON would hold Python's lock, and so the window, for seconds
    at 1,024 tokens. One write at a time; edits made meanwhile are copied when it ends."""

    failed = Signal(str)  # a copy could not be written: said once, until a copy succeeds again

    def __init__(self, document, folder: Path | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        self.folder = Path(folder or data_folder()) / "autosave"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.name = f"session-{uuid.uuid4().hex[:12]}"
        self.path = self.folder / f"{self.name}.json"
        self.lock = QLockFile(str(self.folder / f"{self.name}.lock"))
        self.lock.setStaleLockTime(0)  # a lock is stale only when its process is gone
        self.lock.tryLock(0)
        self.failing = False
        self.writes = 0  # copies written (counted by the tests)
        self._generation = 0        # raised by discard(): a write still running is then dropped
        self._commit = threading.Lock()  # a copy's rename and discard()'s removal, one at a time
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attnviz-autosave")
        self._running: Future | None = None  # the write in progress, or None
        self._count = 0             # writes asked for; the last one taken in
        self._taken = 0
        self._again = False         # changed while writing: write again when it ends
        self._closed = False
        self._watch = QTimer(self, interval=WATCH_MS)  # the GUI thread looks for the write's end
        self._watch.timeout.connect(self._look)
        self.timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self.timer.timeout.connect(self.write)
        document.changed.connect(self._changed)
        document.undo_stack.cleanChanged.connect(self._clean_changed)  # a method: let go when this ends

    def _clean_changed(self, clean: bool) -> None:
        if clean:
            self.discard()

    def _changed(self) -> None:
        # Started by the first change and not restarted by the next ones: however fast the
        # edits come, a copy is written at most DELAY_MS after the oldest unsaved one.
        if not self.timer.isActive():
            self.timer.start()

    def write(self) -> None:
        """Copy the unsaved work, off the GUI thread; a failure here never disturbs the editing."""
        if not self.document.modified:
            self.discard()
            return
        if self._running is not None:
            self._again = True
            return
        save, path, meta = self._snapshot()
        self._count += 1
        self._running = self._pool.submit(self._write_copy, save, path, meta, self._generation, self._count)
        self._watch.start()

    @property
    def busy(self) -> bool:
        """A copy is being written on the worker thread now."""
        return self._running is not None

    def write_now(self) -> None:
        """Copy the work in this thread, at once (an unexpected error: the process may end soon)."""
        self.flush()
        if not self.document.modified:
            return
        save, path, meta = self._snapshot()
        self._count += 1
        written, error, generation = self._copy(save, path, meta, self._generation)
        self._done(written, error, generation, self._count)

    def flush(self) -> None:
        """Wait for the write in progress, and take in its result."""
        if self._running is not None:
            self._done(*self._running.result())

    def _snapshot(self):
        """(how to write the copy, where, its meta): taken on the GUI thread, written on the worker.
        A real model's session is copied as a session (its text, model and every change)."""
        d = self.document
        scenario, meta = d.scenario, {"source": d.source, "time": time.time()}
        if scenario.live is not None:
            head, query = d.active_head, d.query
            def save(path, meta, **options):
                identity = sessions.identity(scenario.live.model)
                sessions.save_session(sessions.session_of(scenario, head, query, identity), path, meta, **options)
            return save, self.folder / (self.name + ".json"), meta
        small = count_values(scenario) <= JSON_AUTOSAVE_VALUES
        path = self.folder / (self.name + (".json" if small else ".npz"))
        return (lambda path, meta, **options: save_scenario(scenario, path, meta, **options)), path, meta

    def _write_copy(self, save, path, meta, generation, count):
        """On the worker thread."""
        return (*self._copy(save, path, meta, generation), count)

    def _look(self) -> None:
        if self._running is None:
            self._watch.stop()
        elif self._running.done():
            self._done(*self._running.result())

    def _copy(self, save, path, meta, generation):
        try:
            save(path, meta, private=True, replace=lambda tmp, target: self._replace(tmp, target, generation))
        except Superseded:
            return path, Superseded(), generation
        except ScenarioError as e:
            return path, e, generation
        return path, None, generation

    def _replace(self, tmp, target, generation) -> None:
        with self._commit:
            if generation != self._generation:
                raise Superseded()  # saved or discarded meanwhile: this copy must not appear
            _rename(tmp, target)

    def _done(self, path, error, generation, count) -> None:
        """On the GUI thread: a write ended."""
        if count <= self._taken:
            return  # taken in already
        self._taken = count
        if count == self._count:
            self._running = None
            self._watch.stop()
        if isinstance(error, Superseded) or generation != self._generation:
            pass
        elif error is not None:  # a full disk or a read-only home: editing goes on, the copy is older
            if not self.failing:
                self.failing = True
                self.failed.emit(str(error))
        else:
            self.failing = False
            self.writes += 1
            if path != self.path:  # the scenario changed format: one copy, not two
                _unlink_quietly(self.path)
                self.path = path
        if self._again and self._running is None:
            self._again = False
            self.write()

    def discard(self) -> None:
        self.timer.stop()
        self._again = False
        with self._commit:
            self._generation += 1  # a write still running ends without its rename
            _unlink_quietly(self.path)

    def close(self) -> None:
        """A clean end: nothing to restore next time."""
        if self._closed:
            return
        self._closed = True
        self.discard()
        self._pool.shutdown(wait=True)  # a write running now ends first (and is dropped)
        self.lock.unlock()
        self.document.changed.disconnect(self._changed)  # the document may outlive it (and
        self.document.undo_stack.cleanChanged.disconnect(self._clean_changed)  # tell it of its end)


def _rename(tmp, target) -> None:
    os.replace(tmp, target)


def orphans(folder: Path | None = None) -> list[Path]:
    """Copies left by sessions that ended without closing, newest first. Only regular files
    are looked at (a pipe here would block the start for ever)."""
    folder = Path(folder or data_folder()) / "autosave"
    found = []
    for copy in _entries(folder):
        if _abandoned(copy):
            found.append(copy)
    return sorted(found, key=_mtime, reverse=True)


def _entries(folder: Path) -> list[Path]:
    try:
        return [Path(e.path) for e in os.scandir(folder)
                if e.name.startswith("session-") and e.name.endswith(SUFFIXES)]
    except OSError:
        return []


def _abandoned(copy: Path) -> bool:
    """True when nobody holds the copy's lock (its session is over)."""
    lock_path = copy.with_suffix(".lock")
    try:
        info = os.lstat(lock_path)
    except FileNotFoundError:
        info = None
    except OSError:
        return False
    if info is not None and not stat.S_ISREG(info.st_mode):
        _unlink_quietly(lock_path)  # not a lock AttnViz made (QLockFile would block on a pipe)
    lock = QLockFile(str(lock_path))
    lock.setStaleLockTime(0)
    if lock.tryLock(0):
        lock.unlock()
        return True
    return False


def _mtime(path: Path) -> float:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return 0.0


def read(copy: Path):
    """(scenario, original source, time saved) of an autosaved copy; ScenarioError if unreadable.
    The source and time are checked: a damaged one is reported as unknown, never raised."""
    scenario, meta = load_with_meta(copy)
    return scenario, original_source(meta), saved_time(meta)


def holds_session(copy: Path) -> bool:
    """True for the copy of a real model's session (run again to restore, not loaded)."""
    return sessions.looks_like_session(copy)


def original_source(meta: dict) -> str | None:
    return _source(meta.get("source"))


def saved_time(meta: dict) -> float | None:
    return _time(meta.get("time"))


def _source(value) -> str | None:
    ok = isinstance(value, str) and 0 < len(value) <= 4096 and first_control(value) is None
    return value if ok else None


def _time(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) and 0 < value < time.time() + 86400 else None


def set_aside(copy: Path) -> Path:
    """A copy that cannot be read (a newer AttnViz, a damaged disk) is kept, never deleted:
    moved to autosave/unreadable/ where a person can still rescue it, or, when that is not
    possible, left where it is. Returns where it is now."""
    aside = copy.parent / "unreadable"
    try:
        aside.mkdir(exist_ok=True)
        target = aside / copy.name
        if os.path.lexists(target):
            target = aside / f"{copy.stem}-{int(time.time())}{copy.suffix}"
        copy.replace(target)
    except OSError:
        return copy
    _unlink_quietly(copy.with_suffix(".lock"))
    return target


def remove(copy: Path) -> None:
    for path in (copy, copy.with_suffix(".lock")):
        _unlink_quietly(path)


def _unlink_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
