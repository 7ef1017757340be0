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
import time
import uuid
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal

from ..core.io import load_with_meta, save_scenario, too_large_for_json
from ..core.scenario import ScenarioError
from ..core.text import first_control

DELAY_MS = 2000  # after the last change: a crash loses at most a couple of seconds
SUFFIXES = (".json", ".npz")


def data_folder() -> Path:
    """Where autosaves and the error log live (e.g. ~/.local/share/AttnViz/AttnViz)."""
    override = os.environ.get("ATTNVIZ_DATA_DIR")
    return Path(override or QStandardPaths.writableLocation(QStandardPaths.AppDataLocation))


class Autosave(QObject):
    """Raises OSError when the data folder cannot be made (a read-only profile): the window
    then runs without autosave and says so."""

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
        self.timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self.timer.timeout.connect(self.write)
        document.changed.connect(self._changed)
        document.undo_stack.cleanChanged.connect(lambda clean: self.discard() if clean else None)

    def _changed(self) -> None:
        # Started by the first change and not restarted by the next ones: however fast the
        # edits come, a copy is written at most DELAY_MS after the oldest unsaved one.
        if not self.timer.isActive():
            self.timer.start()

    def write(self) -> None:
        """Save a copy of unsaved work; a failure here must never disturb the user's editing."""
        if not self.document.modified:
            self.discard()
            return
        scenario = self.document.scenario
        path = self.folder / (self.name + (".npz" if too_large_for_json(scenario) else ".json"))
        meta = {"source": self.document.source, "time": time.time()}
        try:
            save_scenario(scenario, path, meta, private=True)
        except ScenarioError as e:  # a full disk or a read-only home: editing goes on, the copy is older
            if not self.failing:
                self.failing = True
                self.failed.emit(str(e))
            return
        self.failing = False
        if path != self.path:  # the scenario changed format: one copy, not two
            _unlink_quietly(self.path)
            self.path = path

    def discard(self) -> None:
        self.timer.stop()
        _unlink_quietly(self.path)

    def close(self) -> None:
        """A clean end: nothing to restore next time."""
        self.discard()
        self.lock.unlock()


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
    return scenario, _source(meta.get("source")), _time(meta.get("time"))


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
