"""Every change to a scenario is one of these QUndoCommands.

Each command computes its new Scenario with the core's pure edit functions when
it is made, so an invalid edit raises before anything is pushed and nothing
changes. QUndoStack.push() then calls redo(), which applies it.
"""
from __future__ import annotations

import dataclasses
from itertools import count

import numpy as np
from PySide6.QtGui import QUndoCommand

from ...core import scenario as edits
from ...core.scenario import Scenario, same_scenario
from ..common.i18n import tr

_drags = count(1)


def new_drag_id() -> int:
    """A fresh id for one slider drag: every step of that drag merges into one undo step."""
    return next(_drags)


class ScenarioCommand(QUndoCommand):
    """Swap the document's scenario from `before` to `after`, and back on undo."""

    merge_kind = -1  # QUndoCommand.id(): -1 never merges

    def __init__(self, document, after, text: str, drag_id: int | None = None):
        super().__init__(text)
        self.document = document
        self.before: Scenario | None = document.scenario  # None: rebuilt from what changed (EntriesCommand)
        self.after: Scenario | None = after
        self.drag_id = drag_id

    def redo(self):
        self.document.apply(self.after)

    def undo(self):
        self.document.apply(self.before)

    def id(self):
        return self.merge_kind if self.drag_id is not None else -1

    def mergeWith(self, other):
        if other.drag_id != self.drag_id:
            return False
        self.after = other.after  # keep the first `before`: one undo step per drag
        # A drag that ends where it started leaves no undo step and no "modified" mark.
        self.setObsolete(self.before is not None and self.after is not None and same_scenario(self.before, self.after))
        return True


class EntriesCommand(ScenarioCommand):
    """Some entries of one head's q, k or v set: it keeps the entries' old and new values, not
    two scenarios, so ten thousand edits of a 512-token text hold ten thousand cells, not ten
    thousand copies of a matrix. A real model's scenario keeps both scenarios: its layer on screen
    may change between the edit and its undo, and the edit belongs to its own layer."""

    def __init__(self, document, head, matrix, index, values, text, drag_id=None):
        s = document.scenario
        after = edits.with_entries(s, head, matrix, index, values)  # refused here, before anything changes
        super().__init__(document, after, text, drag_id)
        self.place = (head, matrix, index)
        self.old = np.array(s.heads[head].matrix(matrix)[index], copy=True)
        self.new = np.array(after.heads[head].matrix(matrix)[index], copy=True)
        self._first: Scenario | None = None
        if s.live is None:  # both rebuilt from the document's scenario and the entries
            self.before = self.after = None
            self._first = after  # the first redo (on push) applies it, then lets it go

    def redo(self):
        if self.before is not None:
            return super().redo()
        first, self._first = self._first, None
        self.document.apply(first if first is not None else self._with(self.new))

    def undo(self):
        if self.before is not None:
            return super().undo()
        self.document.apply(self._with(self.old))

    def _with(self, values):
        head, matrix, index = self.place
        return edits.with_entries(self.document.scenario, head, matrix, index, values)

    def mergeWith(self, other):
        if other.drag_id != self.drag_id or other.place[:2] != self.place[:2] or \
                not np.array_equal(np.asarray(other.place[2]), np.asarray(self.place[2])):
            return False
        self.new, self.after = other.new, other.after  # one undo step per drag: the first old values
        if self.before is None:
            self.after = None
        self.setObsolete(np.array_equal(self.old, self.new))  # back where it started: no step
        return True


class SetCell(EntriesCommand):
    def __init__(self, document, head, matrix, row, col, value):
        token = document.scenario.tokens[row]
        super().__init__(document, head, matrix, (row, col), value, tr("Set {0} of {1}").format(matrix, token))


class SetRow(EntriesCommand):
    """One token's whole vector, as the q sliders set it; a drag merges into one step."""

    merge_kind = 1

    def __init__(self, document, head, matrix, row, values, drag_id=None):
        token = document.scenario.tokens[row]
        super().__init__(document, head, matrix, row, values, tr("Move {0} of {1}").format(matrix, token), drag_id)


class SetSettings(ScenarioCommand):
    """The mask, ÷√d_k or the temperature. Keeps the settings before and after, not scenarios: a
    scenario kept in the undo history would hold every q, k, v array as they were then."""

    merge_kind = 2

    def __init__(self, document, text, drag_id=None, **changes):
        after = edits.with_settings(document.scenario, **changes)  # refused here, before anything changes
        super().__init__(document, after, text, drag_id)
        self.old, self.new = document.scenario.settings, after.settings
        self.before, self.after = None, None
        self._first: Scenario | None = after  # the first redo (on push) applies it, then lets it go

    def redo(self):
        first, self._first = self._first, None
        self.document.apply(first if first is not None else self._with(self.new))

    def undo(self):
        self.document.apply(self._with(self.old))

    def _with(self, settings):
        return edits.with_settings(self.document.scenario, **{f.name: getattr(settings, f.name)
                                                               for f in dataclasses.fields(settings)})

    def mergeWith(self, other):
        if other.drag_id != self.drag_id:
            return False
        self.new = other.new  # the first old settings: one undo step per drag
        self.setObsolete(self.old == self.new)  # a drag back to where it started leaves no step
        return True


class RenameToken(ScenarioCommand):
    def __init__(self, document, index, name):
        after = edits.with_token_renamed(document.scenario, index, name)
        super().__init__(document, after, tr("Rename token to {0}").format(name))


class TokenCommand(ScenarioCommand):
    """A token inserted or removed: undo brings back the query that was selected too (the
    document moves the selection when rows come and go)."""

    def __init__(self, document, after, text):
        super().__init__(document, after, text)
        self.query = document.query

    def undo(self):
        super().undo()
        self.document.select(query=self.query)


class InsertToken(TokenCommand):
    def __init__(self, document, index, name):
        after = edits.with_token_inserted(document.scenario, index, name)
        super().__init__(document, after, tr("Insert token {0}").format(name))


class RemoveToken(TokenCommand):
    def __init__(self, document, index):
        token = document.scenario.tokens[index]
        after = edits.with_token_removed(document.scenario, index)
        super().__init__(document, after, tr("Remove token {0}").format(token))


class SetProjectionCell(ScenarioCommand):
    """One cell of X or of a W matrix; the derived q, k and v follow."""

    def __init__(self, document, name, row, col, value):
        after = edits.with_projection_value(document.scenario, name, row, col, value)
        super().__init__(document, after, tr("Set {0}").format(name.replace("w_", "W_").replace("x", "X")))


class SetProjectionOptions(ScenarioCommand):
    """LayerNorm, positions, K/V groups."""

    def __init__(self, document, text, **changes):
        after = edits.with_projection_options(document.scenario, **changes)
        super().__init__(document, after, text)


class SetHeadOff(ScenarioCommand):
    """A real model's head switched off (its output zeroed before W_o), or on again."""

    def __init__(self, document, head, off):
        after = edits.with_head_off(document.scenario, head, off)
        text = tr("Switch head {0} off") if off else tr("Switch head {0} on")
        super().__init__(document, after, text.format(head))
