"""ScenarioDocument: the one owner of the scenario, its undo history and its results.

Data flows one way: a view asks for a change -> a QUndoCommand -> the document
swaps in a new (immutable) Scenario -> `changed` fires -> every view redraws from
`document.result`, which the core recomputes once per change, on first read.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ...core import compute
from ...core.compute import Result
from ...core.files import stamp
from ...core.io import holds_layers
from ...core.numbers import NumberError
from ...core.scenario import Scenario, ScenarioError, same_scenario
from ..common.i18n import describe

UNDO_LIMIT = 1000  # steps kept; the oldest go first (a cell edit keeps two numbers, not a matrix)


class ScenarioDocument(QObject):
    changed = Signal()            # the scenario (and so every number) changed
    selectionChanged = Signal()   # the active head, the selected query or the guided step changed
    replaced = Signal()           # a different scenario was opened (new shape, new undo history)

    def __init__(self, scenario: Scenario, source: str | None = None, parent=None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(UNDO_LIMIT)
        self.undo_stack.indexChanged.connect(self._back_where_saved)
        self._scenario = scenario
        self._saved = scenario  # the scenario as opened or last saved: back to it is no unsaved work
        self._result: Result | None = None
        self._last: tuple[Scenario, Result] | None = None  # (scenario, result) last computed
        self.recomputes = 0  # counted for the "one recompute per edit" regression test
        self.source = source  # a file path, "preset:<id>", or None
        self._note_file()
        self.active_head = 0
        self.query = self._default_query(scenario)
        self.stage: int | None = None  # the guided step shown (1..5), or None for everything

    # ------------------------------------------------------------- reading

    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def result(self) -> Result:
        if self._result is None:
            self._result = compute(self._scenario, self._last)  # unchanged heads keep their traces
            self._last = (self._scenario, self._result)
            self.recomputes += 1
        return self._result

    @property
    def path(self) -> str | None:
        return None if self.source is None or self.source.startswith("preset:") else self.source

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    # ------------------------------------------------------------- changing

    def push(self, command) -> None:
        """The only way views change the scenario (undo takes the same path back)."""
        self.undo_stack.push(command)

    def attempt(self, make_command, report) -> bool:
        """An edit a view asks for: made, or refused with its reason told to `report` (a letter in a
        cell, a value out of range), the scenario unchanged. `make_command` builds the command (which
        computes its new scenario up front, so building is what fails); None: nothing to change."""
        try:
            command = make_command()
        except (NumberError, ScenarioError) as e:
            report(describe(e))
            return False
        if command is not None:
            self.push(command)
        return True

    def apply(self, scenario: Scenario) -> None:
        """Called by commands' redo() and undo(); nobody else sets the scenario."""
        self._scenario = scenario
        self._result = None
        self._clamp_selection()
        self.changed.emit()

    def show(self, scenario: Scenario) -> None:
        """Another view of the same work (a real model's other layer, with every change made so
        far): not an edit, so no undo step and no unsaved-changes mark; undoing an edit made in
        another layer shows that layer again."""
        self.apply(scenario)

    def replace(self, scenario: Scenario, source: str | None, known=None) -> None:
        """Open another scenario: a fresh history, head 0, the default query. `known`: its
        Result when it was worked out already (a real model's layer, by its pass)."""
        self._saved = scenario
        self.undo_stack.clear()
        self.source = source
        self._note_file()
        self.active_head = 0
        self.query = self._default_query(scenario)
        self.stage = None
        self._scenario = scenario
        self._result = None
        if known is not None:
            self._last = (scenario, known)  # compute() finds every head's trace there
        self.replaced.emit()
        self.changed.emit()
        self.selectionChanged.emit()

    def mark_saved(self, path: str) -> None:
        self.source = path
        self._note_file()
        self._saved = self._scenario
        self.undo_stack.setClean()

    def _back_where_saved(self, _index: int) -> None:
        """A net-zero change (a setting toggled off and on, an edit and its inverse, by hand rather
        than by undo) leaves the scenario as it was saved: that is no unsaved work, so the history's
        clean point moves here (no '*' in the title, no question on closing, no crash copy). Work
        that was never saved (a crash copy restored: resetClean) has no clean point to move."""
        stack = self.undo_stack
        if stack.isClean() or stack.cleanIndex() < 0:
            return
        if same_scenario(self._scenario, self._saved):
            stack.setClean()

    def _note_file(self) -> None:
        """What the file on disk is now: its stamp (to notice another program changing it) and
        whether it holds a model's other layers (a scenario file holds only the one shown)."""
        path = self.path
        self.disk_stamp = stamp(path) if path else None
        self.layers_in_file = bool(path) and holds_layers(path)

    def changed_on_disk(self, path: str) -> bool:
        """True when `path` is this document's file and something else wrote it since."""
        current = stamp(path)
        return path == self.path and current is not None and current != self.disk_stamp

    def select(self, head: int | None = None, query: int | None = None) -> None:
        head = self.active_head if head is None else head
        query = self.query if query is None else query
        if (head, query) == (self.active_head, self.query):
            return
        if not (0 <= head < len(self._scenario.heads) and 0 <= query < self._scenario.n):
            return
        self.active_head, self.query = head, query
        self.selectionChanged.emit()

    def set_stage(self, stage: int | None) -> None:
        """Show the selected query's arithmetic up to `stage` (None: show everything)."""
        if stage != self.stage:
            self.stage = stage
            self.selectionChanged.emit()

    def _clamp_selection(self) -> None:
        head = min(self.active_head, len(self._scenario.heads) - 1)
        query = min(self.query, self._scenario.n - 1)
        if (head, query) != (self.active_head, self.query):
            self.active_head, self.query = head, query
            self.selectionChanged.emit()

    @staticmethod
    def _default_query(scenario: Scenario) -> int:
        """The token the scenario's story is about; else the last, which sees the most keys."""
        return scenario.focus if scenario.focus is not None else scenario.n - 1
