"""File → Compare two prompts… and the Research menu: one workbench a window, on the real model
shown (the built-in one when none is); a patch or an ablation chosen in it opens in the window."""
from __future__ import annotations

from shiboken6 import isValid

from ...core import lm
from .dialog import WorkbenchDialog


class ResearchController:
    def __init__(self, document, shell, runner, maybe_save):
        self.document, self.shell, self.runner, self.maybe_save = document, shell, runner, maybe_save
        self.dialog = None

    def open(self, tab: str = "patch") -> None:
        if self.dialog is None or not isValid(self.dialog):
            live = self.document.scenario.live
            self.dialog = WorkbenchDialog(self._model, live.text if live is not None else None,
                                          self.shell.dialog_parent())
            self.dialog.applied.connect(self._show)
        self.dialog.show_tab(tab)
        self.dialog.show()
        self.dialog.raise_()

    def _model(self, cancelled):
        """The model shown in the window, else the built-in one (on the workbench's worker thread)."""
        return self.runner.model if self.runner.model is not None else self.runner.builtin_model(cancelled)

    def _show(self, model, encoded, result, baseline, layer: int, head: int) -> None:
        """A patch or an ablation (or a head to look at) from the workbench, live in the window:
        its layer's heads, the next token before → after; edits go on from there."""
        if not self.maybe_save():
            return
        source = self.runner.source if model is self.runner.model else None
        self.document.replace(lm.scenario(model, encoded, result, layer), None)
        self.runner.adopt(model, baseline, result)
        self.runner.source = source
        # a patch of the stream at one position: that token's row
        self.document.select(head=head, query=None if result.patch is None else result.patch.position)
        self.shell.update_title()
