"""View → Overview: one overview open at a time, of what the window shows (a model's file, the
real model's run, or one layer); it says when an edit makes its numbers stale, and closes when
another file or text is opened."""
from __future__ import annotations

from shiboken6 import isValid

from ...core import lm
from ...core.files import stamp
from ...core.io import holds_layers, load_scenario
from ...core.lm import same_edits
from ...core.messages import QT_TR_NOOP
from ...core.scenario import ScenarioError, same_scenario
from ...core.summary import kv_groups
from .dialog import OverviewDialog


class OverviewController:
    def __init__(self, document, shell, view, runner, show_head):
        self.document, self.shell, self.view, self.runner = document, shell, view, runner
        self.show_head = show_head  # (layer, head): the overview's click
        self.dialog = None
        self._of, self._basis = None, (None, False)  # what the open overview was made from
        document.changed.connect(self._follow)
        document.undo_stack.indexChanged.connect(self._follow)  # after a push: whether the file's numbers are shown
        document.replaced.connect(self._close_stale)

    def open(self) -> None:
        """Every layer × head of what is open: a model's file (each layer read from the file, the
        one shown with its edits), the real model's run, or the one layer of a scenario."""
        d, s = self.document, self.document.scenario
        if s.live is not None:
            self.runner.when_ready(lambda result: self._open(
                s, s.layer[1], lambda layer: s if layer == s.layer[0] else lm.another_layer(s, result, layer)))
            return
        path, count = d.path, s.layer[1] if s.layer and d.path and holds_layers(d.path) else 1
        opened = d.disk_stamp

        def scenario_of(layer):
            if count == 1 or layer == s.layer[0]:
                return s  # the layer shown, with its edits
            if stamp(path) != opened:
                raise ScenarioError(QT_TR_NOOP("the model's file changed on disk since it was opened: open it "
                                               "again to see every layer"))
            other = load_scenario(path, layer)
            if other.tokens != s.tokens:
                raise ScenarioError(QT_TR_NOOP("the tokens shown were edited ({0} now, {1} in the file's other "
                                               "layers): open the file again to see every layer"), s.n, other.n)
            return other
        self._open(s, count, scenario_of)

    def _open(self, s, count: int, scenario_of):
        dialog = self.dialog
        if dialog is not None:  # one overview at a time: the open one gathers again (Refresh)
            dialog.gather(s, count, scenario_of, kv_groups(s))
        else:
            dialog = OverviewDialog(s, count, scenario_of, self.view, self.shell.display_name(), kv_groups(s),
                                    self.shell.dialog_parent(), query=self.document.query)
            dialog.chosen.connect(self.show_head)
            dialog.refresh_requested.connect(self.open)
            dialog.finished.connect(lambda *_: self._forget(dialog))
            dialog.destroyed.connect(lambda: self._forget(dialog))
            self.dialog = dialog
        self._of, self._basis = self._model_key(), self._numbers()
        dialog.show()
        dialog.raise_()

    def _forget(self, dialog) -> None:
        if self.dialog is dialog:
            self.dialog = None

    def _model_key(self):
        """What an overview shows: this file, or the real model on this text (not a layer of it)."""
        live = self.document.scenario.live
        return (self.document.path, live.text if live is not None else None)

    def _numbers(self) -> tuple:
        """(the scenario shown, whether it is a model file's layer as the file has it): with the
        changes a real model's scenario carries, what an overview's numbers depend on."""
        d = self.document
        return d.scenario, d.layers_in_file and not d.modified

    def _close_stale(self, *_):
        """Another file or text opened: its overview no longer describes what the window shows."""
        if self.dialog is not None and self._model_key() != self._of:
            self.dialog.close()

    def _follow(self, *_) -> None:
        """An edit, or a head switched off: the open overview says that its numbers are from before,
        with a button to gather them again (gathering every layer at each edit would take seconds);
        undone, they are current again."""
        if self.dialog is None or not isValid(self.document.undo_stack):  # a window being deleted clears its stack
            return
        (then, then_file), (now, now_file) = self._basis, self._numbers()
        if now.live is not None:  # any layer shown, with the same changes to the model
            current = then.live is not None and same_edits(then.live, now.live)
        else:  # any layer of the file as it is, or the very numbers the overview was made with
            current = (then_file and now_file) or same_scenario(then, now)
        self.dialog.set_stale(not current)
