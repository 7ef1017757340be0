"""Unsaved work survives a crash: a copy is kept in the user's data folder while it is unsaved.

Each running window writes `session-<id>.json` a few seconds after every change and
holds `session-<id>.lock`. A copy whose lock nobody holds belongs to a session that
did not end cleanly (crash, kill, power cut): the next start offers to restore it.
"""
from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer

from ..core.io import atomic_write, load_scenario, scenario_to_dict, to_json_text
from ..core.scenario import ScenarioError

DELAY_MS = 2000  # after the last change: a crash loses at most a couple of seconds


def data_folder() -> Path:
    """Where autosaves and the error log live (e.g. ~/.local/share/AttnViz/AttnViz)."""
    override = os.environ.get("ATTNVIZ_DATA_DIR")
    return Path(override or QStandardPaths.writableLocation(QStandardPaths.AppDataLocation))


class Autosave(QObject):
    """Raises OSError when the data folder cannot be made (a read-only profile): the window
    then runs without autosave and says so."""

    def __init__(self, document, folder: Path | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        self.folder = Path(folder or data_folder()) / "autosave"
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"session-{uuid.uuid4().hex[:12]}"
        self.path = self.folder / f"{name}.json"
        self.lock = QLockFile(str(self.folder / f"{name}.lock"))
        self.lock.setStaleLockTime(0)  # a lock is stale only when its process is gone
        self.lock.tryLock(0)
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
        copy = scenario_to_dict(self.document.scenario)
        copy["autosave"] = {"source": self.document.source, "time": time.time()}
        try:
            atomic_write(self.path, to_json_text(copy).encode("utf-8"))
        except ScenarioError:
            pass  # a full disk or a read-only home: editing goes on, the copy is just older

    def discard(self) -> None:
        self.timer.stop()
        try:
            self.path.unlink()
        except OSError:
            pass

    def close(self) -> None:
        """A clean end: nothing to restore next time."""
        self.discard()
        self.lock.unlock()


def orphans(folder: Path | None = None) -> list[Path]:
    """Copies left by sessions that ended without closing, newest first."""
    folder = Path(folder or data_folder()) / "autosave"
    found = []
    for copy in folder.glob("session-*.json") if folder.is_dir() else []:
        lock = QLockFile(str(copy.with_suffix(".lock")))
        lock.setStaleLockTime(0)
        if lock.tryLock(0):  # nobody holds it: that session is over
            lock.unlock()
            found.append(copy)
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def read(copy: Path):
    """(scenario, original source, time saved) of an autosaved copy; ScenarioError if unreadable."""
    scenario = load_scenario(copy)
    try:
        meta = json.loads(copy.read_text(encoding="utf-8")).get("autosave", {})
    except (OSError, ValueError):
        meta = {}
    return scenario, meta.get("source"), meta.get("time")


def set_aside(copy: Path) -> None:
    """A copy that cannot be read (a newer AttnViz, a damaged disk) is kept, not deleted:
    moved to autosave/unreadable/ where a person can still rescue it."""
    aside = copy.parent / "unreadable"
    try:
        aside.mkdir(exist_ok=True)
        copy.replace(aside / copy.name)
    except OSError:
        pass
    remove(copy)


def remove(copy: Path) -> None:
    for path in (copy, copy.with_suffix(".lock")):
        try:
            path.unlink()
        except OSError:
            pass
