"""Work kept safe: unsaved work copied aside as it changes, unexpected errors caught and said, and
after a crash the work that was left behind offered back."""
from __future__ import annotations

import time

from PySide6.QtWidgets import QMessageBox

from ...core import session as sessions
from ..common.i18n import describe, tr
from ..state import autosave
from ..state.files import source_name
from .errors import ErrorReporter


class Recovery:
    def __init__(self, document, shell, open_session, save_as):
        self.document, self.shell = document, shell
        self.open_session = open_session  # (path, crash_copy): a real model's session run again
        self.save_as = save_as            # the error dialog's "Save a copy…"
        self.autosave = self.errors = None

    def enable(self, folder=None) -> None:
        """Autosave unsaved work and catch unexpected errors (the app does this; tests may)."""
        try:
            self.autosave = autosave.Autosave(self.document, folder, self.shell.dialog_parent())
        except OSError as e:  # a read-only profile: work on, without the safety net, and say so
            self.shell.report(tr("Unsaved work cannot be kept safe: the data folder cannot be written ({0})")
                              .format(e.strerror or e))
        else:
            self.autosave.failed.connect(self._autosave_failed)
        self.errors = ErrorReporter(self.shell.dialog_parent(), self.keep_copy, self.save_as)
        self.errors.install()

    def keep_copy(self) -> None:
        """A copy of the work now (an unexpected error: first of all)."""
        if self.autosave is not None:
            self.autosave.write_now()

    def _autosave_failed(self, reason: str) -> None:
        """Said once, in the status bar: editing goes on, the copy is only older."""
        self.shell.show_status(tr("Unsaved work could not be copied to safety: {0}").format(reason), 15000)

    def offer_restore(self, folder=None) -> bool:
        """After a crash: offer the newest unsaved work a session left behind."""
        for copy in autosave.orphans(folder):
            if autosave.holds_session(copy):
                if self._offer_session(copy):
                    return True
                continue
            try:
                scenario, source, saved = autosave.read(copy)
            except Exception as e:  # noqa: BLE001 (unreadable, however: kept aside, never deleted, and said)
                self.tell_kept(autosave.set_aside(copy), e)
                continue
            if self.ask_restore(scenario, source, saved) != QMessageBox.Yes:
                autosave.remove(copy)
                continue
            self.document.replace(scenario, source)
            self.document.undo_stack.resetClean()  # restored work is unsaved work
            self.shell.update_title()
            autosave.remove(copy)
            self.keep_copy()
            return True
        return False

    def _offer_session(self, copy) -> bool:
        """A real model's session left by a crash: run it again with every change, if wanted."""
        try:
            _, meta = sessions.read_session(copy)
        except Exception as e:  # noqa: BLE001 (unreadable, however: kept aside, never deleted, and said)
            self.tell_kept(autosave.set_aside(copy), e)
            return False
        if self.ask_restore(None, autosave.original_source(meta), autosave.saved_time(meta)) != QMessageBox.Yes:
            autosave.remove(copy)
            return False
        return self.open_session(str(copy), crash_copy=copy)

    def restored(self, copy) -> None:
        """A crash copy's session is back on screen: unsaved work again, copied anew, the old copy gone."""
        self.document.undo_stack.resetClean()
        autosave.remove(copy)
        self.keep_copy()

    def tell_kept(self, kept, error) -> None:
        """`error`: what went wrong, an exception or the words a worker already said."""
        QMessageBox.warning(self.shell.dialog_parent(), tr("Unsaved work could not be restored"), tr(
            "AttnViz found a copy of unsaved work from a session that did not close properly, but cannot "
            "open it ({0}). It was not deleted: it is kept in {1}").format(
                error if isinstance(error, str) else describe(error), kept))

    def ask_restore(self, scenario, source, saved):
        name = source_name(source)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(saved)) if saved else "?"
        return QMessageBox.question(
            self.shell.dialog_parent(), tr("Restore unsaved work?"),
            tr("AttnViz did not close properly last time. Unsaved changes to {0} from {1} were kept. "
               "Restore them?").format(name, when), QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)

    def close_autosave(self) -> None:
        """The window closes: the last copy written, or removed when the work was saved."""
        if self.autosave is not None:
            self.autosave.close()

    def stop_catching(self) -> None:
        """Last of all: unexpected errors go back to Python's own hook."""
        if self.errors is not None:
            self.errors.uninstall()
