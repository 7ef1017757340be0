"""The last line of defence: an unexpected error is logged, reported, and the app goes on.

Qt calls sys.excepthook for an exception escaping a slot or an event handler and
then carries on; this hook writes the traceback to a log, tells the user in plain
words, and offers to save the work before anything else happens.
"""
from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from .autosave import data_folder
from .i18n import tr

LOG_NAME = "errors.log"
MAX_LOG_BYTES = 1_000_000


def log_path() -> Path:
    return data_folder() / LOG_NAME


def write_log(text: str, path: Path | None = None) -> Path | None:
    path = path or log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > MAX_LOG_BYTES:
            path.replace(path.with_suffix(".old.log"))  # keep one old log, not an ever-growing one
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{text}\n")
        return path
    except OSError:
        return None


class ErrorReporter:
    """Installed as sys.excepthook for the life of the window."""

    def __init__(self, window):
        self.window = window
        self.reporting = False
        self.count = 0

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
        if self.reporting:  # an error while reporting one: logged, not shown twice
            return
        self.reporting = True
        try:
            self.report(error, details, logged)
        finally:
            self.reporting = False

    def report(self, error, details: str, logged: Path | None) -> None:
        box = QMessageBox(QMessageBox.Critical, tr("Something went wrong"), tr(
            "AttnViz met an unexpected error ({0}). Your work is still open and nothing has been "
            "lost; you can save a copy now and carry on.").format(type(error).__name__), parent=self.window)
        box.setObjectName("errorDialog")
        if logged is not None:
            box.setInformativeText(tr("The details were written to {0}.").format(logged))
        box.setDetailedText(details)
        save = box.addButton(tr("Save a copy…"), QMessageBox.AcceptRole)
        box.addButton(tr("Continue"), QMessageBox.RejectRole)
        box.exec()
        if box.clickedButton() is save:
            self.window.save_as()
