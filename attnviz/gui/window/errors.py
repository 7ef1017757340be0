"""The last line of defence: an unexpected error is logged, reported, and the app goes on.

Qt calls sys.excepthook for an exception escaping a slot or an event handler and
then carries on; this hook writes the traceback to a log, tells the user in plain
words, and offers to save the work before anything else happens.
"""
from __future__ import annotations

import os
import stat
import sys
import time
import traceback
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from ...core.paths import data_folder
from ..common.i18n import tr

LOG_NAME = "errors.log"
MAX_LOG_BYTES = 1_000_000


def log_path() -> Path:
    return data_folder() / LOG_NAME


def write_log(text: str, path: Path | None = None) -> Path | None:
    """Append to the log, which only its owner may read (tracebacks name files and folders)."""
    path = path or log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                return None  # a pipe or a link where the log should be: never written through
            if info.st_size > MAX_LOG_BYTES:
                path.replace(path.with_suffix(".old.log"))  # keep one old log, not an ever-growing one
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        os.fchmod(fd, 0o600) if hasattr(os, "fchmod") else None
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{text}\n")
        return path
    except OSError:
        return None


class ErrorReporter:
    """Installed as sys.excepthook for the life of the window.

    The dialog opens at the next event-loop turn, not inside whatever raised (a paint
    event, a drag); the same error is shown once per session, so an error that recurs on
    every repaint cannot trap the user in dialogs."""

    def __init__(self, parent, keep_copy, save_as):
        self.parent = parent        # what the dialog opens over
        self.keep_copy = keep_copy  # the autosave copy, written now
        self.save_as = save_as
        self.reporting = False
        self.count = 0
        self.shown: set[str] = set()

    def install(self) -> None:
        self.previous = sys.excepthook
        sys.excepthook = self

    def uninstall(self) -> None:
        if sys.excepthook is self:
            sys.excepthook = self.previous

    def __call__(self, kind, error, tb):
        if issubclass(kind, KeyboardInterrupt):
            QApplication.quit()
            return
        self.count += 1
        details = "".join(traceback.format_exception(kind, error, tb))
        logged = write_log(details)
        print(details, file=sys.stderr)
        self.keep_copy()  # first of all, a copy of the work
        where = "".join(traceback.format_exception_only(kind, error)) + "".join(traceback.format_tb(tb)[-1:])
        if self.reporting or where in self.shown:  # shown already, or an error while showing one
            return
        self.shown.add(where)
        QTimer.singleShot(0, self.parent, lambda: self._show(error, details, logged))

    def _show(self, error, details, logged):
        self.reporting = True
        try:
            self.report(error, details, logged)
        finally:
            self.reporting = False

    def report(self, error, details: str, logged: Path | None) -> None:
        box = QMessageBox(QMessageBox.Critical, tr("Something went wrong"), tr(
            "AttnViz met an unexpected error ({0}). Your work is still open and nothing has been "
            "lost; you can save a copy now and carry on.").format(type(error).__name__), parent=self.parent)
        box.setObjectName("errorDialog")
        if logged is not None:
            box.setInformativeText(tr("The details were written to {0}.").format(logged))
        box.setDetailedText(details)
        save = box.addButton(tr("Save a copy…"), QMessageBox.AcceptRole)
        box.addButton(tr("Continue"), QMessageBox.RejectRole)
        quit_button = box.addButton(tr("Quit"), QMessageBox.DestructiveRole)
        box.exec()
        if box.clickedButton() is save:
            self.save_as()
        elif box.clickedButton() is quit_button:
            QApplication.quit()  # unsaved work is in the autosave copy: offered at the next start
