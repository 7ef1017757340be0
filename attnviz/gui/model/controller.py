"""The real model in the window: File → Real model…, a text read off the GUI thread with progress
and Cancel, a saved session run again, and another layer of the run shown."""
from __future__ import annotations

import os

from PySide6.QtWidgets import QDialog, QMessageBox, QProgressBar, QPushButton

from ...core import lm
from ...core import session as sessions
from ...core.scenario import ScenarioError
from ..common.i18n import describe, tr
from ..state import autosave, settings
from .dialog import ModelDialog
from .runner import ModelRunner
from .terms import terms_accepted


class ModelController:
    def __init__(self, document, shell, maybe_save, recovery):
        self.document, self.shell = document, shell
        self.maybe_save = maybe_save  # asked before the run replaces what is open
        self._opened_over = None      # the scenario open when a session was asked for
        self.recovery = recovery      # a crash copy's session: restored or kept aside there
        self.restoring = None         # that crash copy, while its session runs again
        self._before = None           # what was open before a new text's layer 0 was shown
        self.runner = runner = ModelRunner(document, shell.dialog_parent())
        runner.first.connect(self._first)
        runner.loaded.connect(self._ran)
        runner.failed.connect(self._failed)
        runner.cancelled.connect(self._cancelled)
        runner.restored.connect(self._session_restored)
        runner.mismatch.connect(self._session_mismatch)
        runner.progress.connect(self._progress)
        runner.ran.connect(lambda _: self._show_progress())
        self.progress = QProgressBar(objectName="modelProgress", minimumWidth=320)
        self.progress.hide()
        self.cancel = QPushButton(objectName="modelCancel")  # a new text: loading, tokenising, running
        self.cancel.clicked.connect(runner.cancel)
        self.cancel.hide()

    def retranslate(self) -> None:
        self.cancel.setText(tr("Cancel"))
        self.cancel.setToolTip(tr("Stop reading this text; the window stays as it is"))

    # ------------------------------------------------------------- a text

    def dialog(self):
        live = self.document.scenario.live
        dialog = ModelDialog(self.shell.dialog_parent(), live.text if live else None, self.runner.source,
                             live.chat if live else False)
        if dialog.exec() == QDialog.Accepted:
            settings.set_model_memory(dialog.chosen_memory())  # the runner loads the model the way chosen
            self.run(dialog.chosen_text(), dialog.source, dialog.chosen_chat())

    def run(self, text: str, source=None, chat: bool = False) -> bool:
        """Read `text` with a real model (None: the built-in one; an id or a path), in its chat
        template with `chat`; loaded once, off the GUI thread, it opens when it has run. A model
        with terms of use shows them first, and runs only when they are accepted."""
        if not terms_accepted(self.shell.dialog_parent(), source) or not self.maybe_save():
            return False
        self.runner.start(text, source, chat)
        return True

    def _progress(self, what: str, done: int, total: int):
        self._show_progress()
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.setFormat({"load": tr("Loading the model: %v of %m layers"),
                                 "assemble": tr("Joining Gemma 3's files (first use): %v of %m MB"),
                                 "tokens": tr("Reading the text…"),
                                 "run": tr("Running the model: layer %v of %m") if total > 1 else
                                 tr("Running the model…")}.get(what, tr("Running the model…")))
        self.progress.setToolTip(self.progress.format())

    def _show_progress(self):
        """The progress while the model works; Cancel while a new text is read."""
        self.progress.setVisible(self.runner.busy)
        self.cancel.setVisible(self.runner.reading())

    def _first(self, model, encoded, shown):
        """A new text's layer 0, on screen while the pass goes on through the other layers (the
        next-token panel fills in when it ends). Until it ends, Cancel brings back what was open."""
        self._show_progress()
        d = self.document
        if self._before is None:  # (a text replacing one still being read: what was open before both)
            self._before = (d.scenario, d.source, d.active_head, d.query)
        scenario, result = shown
        d.replace(scenario, None, known=result)
        self.shell.update_title()

    def _put_back(self) -> None:
        """What was open before a new text's layer 0 was shown (its pass cancelled or failed)."""
        before, self._before = self._before, None
        if before is not None:
            scenario, source, head, query = before
            self.document.replace(scenario, source)
            self.document.select(head=head, query=query)
            self.shell.update_title()

    def _ran(self, model, encoded, result, shown: bool):
        self._show_progress()
        self._before = None
        if shown:  # layer 0 is on screen already, perhaps edited meanwhile
            return
        try:
            scenario = lm.scenario(model, encoded, result, 0)
        except ScenarioError as e:  # said every time, not once a session as an unexpected error is
            self.shell.warn(tr("Cannot run the model"), describe(e))
            return
        self.document.replace(scenario, None)
        self.shell.update_title()

    def _failed(self, message: str):
        self._show_progress()
        self._put_back()
        copy, self.restoring = self.restoring, None
        if copy is not None:  # a crash copy whose session cannot run: set aside, not offered again at every start
            self.recovery.tell_kept(autosave.set_aside(copy), message)
            return
        self.shell.warn(tr("Cannot run the model"), message)

    def _cancelled(self):
        self._show_progress()
        self._put_back()
        self.shell.report(tr("Cancelled: the window is as it was"))

    # ------------------------------------------------------------- another layer

    def show_layer(self, layer: int, refused) -> None:
        """Another layer of the run, with every change made so far (a view, not an undo step),
        keeping the head and the query; `refused()` when the window moved on meanwhile."""
        d = self.document
        head, query, scenario = d.active_head, d.query, d.scenario
        self.runner.when_ready(lambda result: self._show_layer(scenario, result, layer, head, query, refused))

    def _show_layer(self, scenario, result, layer, head, query, refused):
        d = self.document
        if d.scenario is not scenario or scenario.live.layer == layer:
            refused()
            return
        d.show(lm.another_layer(scenario, result, layer))
        d.select(head=head, query=query)

    # ------------------------------------------------------------- a saved session

    def open_session(self, path: str, crash_copy=None) -> bool:
        """Open a saved real-model session: the model runs again with every change (off the GUI
        thread), and the layer, head and query come back as they were."""
        try:
            session, meta = sessions.read_session(path)
        except ScenarioError as e:
            self.shell.warn(tr("Cannot open"), describe(e))
            return False
        source = autosave.original_source(meta) if crash_copy else os.path.abspath(path)
        self.restoring = crash_copy  # a crash copy is kept until its session is back on screen
        self._opened_over = self.document.scenario  # what the user agreed to replace
        self.runner.start_session(session, source)
        return True

    def _may_replace(self) -> bool:
        """Whether the restored session may replace what is open: what the user opened or edited while the
        session's model loaded (seconds for a large one) is asked about first, as any replacement asks."""
        if self.document.scenario is self._opened_over or self.maybe_save():
            return True
        self.restoring = None  # a crash copy stays where it is, offered again at the next start
        return False

    def _session_restored(self, model, encoded, result, session, source):
        self._show_progress()
        if not self._may_replace():
            return
        self.document.replace(lm.scenario(model, encoded, result, session.view.layer), source)
        self.document.select(head=session.view.head, query=session.view.query)
        if source and not self.restoring:
            settings.remember_recent(source)
        copy, self.restoring = self.restoring, None
        if copy is not None:
            self.recovery.restored(copy)
        self.shell.update_title()

    def _session_mismatch(self, session, error, source):
        self._show_progress()
        answer = QMessageBox.question(
            self.shell.dialog_parent(), tr("The session's model cannot be had"),
            tr("{0}. Open the layer that was shown as a plain scenario instead (its numbers, without the "
               "model)?").format(describe(error)), QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
        copy, self.restoring = self.restoring, None
        if copy is not None:  # the changes in other layers live on in the copy, set aside
            self.recovery.tell_kept(autosave.set_aside(copy), error)
        if answer != QMessageBox.Yes or not self._may_replace():
            return
        try:
            scenario = sessions.shown_scenario(session)
        except ScenarioError as e:
            self.shell.warn(tr("Cannot open"), describe(e))
            return
        self.document.replace(scenario, None)
        if copy is not None:
            self.document.undo_stack.resetClean()  # restored work is unsaved work
        self.shell.update_title()
