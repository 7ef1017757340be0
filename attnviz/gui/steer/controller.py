"""Research → Steer the model…: one Steer panel a window, on the real model shown; a steered run it
makes becomes the window's scenario as one undo step."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from shiboken6 import isValid

from ...core import lm
from ..common.i18n import tr
from ..common.undo_keys import UndoKeys
from ..state.commands import ScenarioCommand
from .dialog import SteerDialog


class SteerController:
    def __init__(self, document, shell, runner):
        self.document, self.shell, self.runner = document, shell, runner
        self.dialog = None
        document.changed.connect(self._follow)
        runner.loaded.connect(self._follow)  # a new text's layer 0 is shown before its model is the runner's

    def open(self) -> None:
        if self.dialog is None or not isValid(self.dialog):
            self.dialog = SteerDialog(self.runner, self.shell.dialog_parent())
            self.dialog.steered.connect(self._steered)
            self._undo_keys(self.dialog)
            self._follow()
        self.dialog.show()
        self.dialog.raise_()

    def _undo_keys(self, dialog) -> None:
        """Ctrl+Z and Ctrl+Shift+Z in the panel (a window of its own) undo and redo the window's steps, as
        the panel says, from its number boxes too; a prompt being typed undoes its own typing first."""
        stack, actions = self.document.undo_stack, []
        for keys, slot in (((QKeySequence.Undo,), stack.undo),
                           ((QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")), stack.redo)):
            action = QAction(dialog)
            action.setShortcuts(list(keys))
            action.triggered.connect(slot)
            dialog.addAction(action)
            actions.append(action)
        UndoKeys(dialog, *actions)

    def _follow(self, *_) -> None:
        if self.dialog is not None and isValid(self.dialog):
            s = self.document.scenario
            self.dialog.follow(s.live if s.live is not None and s.live.model is self.runner.model else None,
                               s.tokens)

    def _steered(self, live, steer, result) -> None:
        """The steered run of `live` in the window: its layer's heads as the run computed them, the next
        token before → after; dropped (and said) when the window moved on meanwhile."""
        d = self.document
        if d.scenario.live is not live:
            self.dialog.said.setText(tr("The window changed while the model ran: press Steer again."))
            return
        encoded = lm.Encoded(live.text, live.ids, d.scenario.tokens, live.chat)
        steered = lm.scenario(live.model, encoded, result, live.layer, live.changes)
        head, query = d.active_head, d.query
        self.runner.known(result)  # the run of the new scenario: not run again
        d.push(ScenarioCommand(d, steered, tr("Steer") if steer is not None else tr("Remove the steer")))
        d.select(head=head, query=query)
