"""Undo and redo from every editor of the window.

A spin box, a line edit or an editable list takes Ctrl+Z (and Ctrl+Shift+Z, Ctrl+Y) as the undo
of its own text, and Qt then never triggers the window's Undo: with the sliding window's width
box focused, Ctrl+Z did nothing at all. The window's undo keys are kept for the window, whatever
has the focus; the one exception is a table's cell editor with typing of its own to take back
(as in a spreadsheet), and once that is undone the next Ctrl+Z undoes the scenario.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QWidget,
)


class UndoKeys(QObject):
    """Keeps `undo`'s and `redo`'s shortcuts for them in `window`: each widget given the focus
    there is watched for the question Qt asks before a shortcut fires ("is this key yours?")."""

    def __init__(self, window: QWidget, undo: QAction, redo: QAction):
        super().__init__(window)
        self.actions = ((undo, QLineEdit.isUndoAvailable), (redo, QLineEdit.isRedoAvailable))
        QApplication.instance().focusChanged.connect(self._watch)

    def _watch(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and QWidget.window(new) is self.parent():  # (a panel's `window` is its zoom)
            new.installEventFilter(self)  # once: installing it again only moves it first

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.ShortcutOverride:
            return False
        key = QKeySequence(event.keyCombination())
        for action, typing_to_take_back in self.actions:
            if key in action.shortcuts():
                if _cell_editor(watched) and typing_to_take_back(watched):
                    return False  # the editor's own typing first
                _close_cell_editor(watched)
                event.ignore()
                return True  # not the editor's: the window's shortcut fires
        return False


def _cell_editor(widget: QObject) -> bool:
    """A line edit of its own (a table's cell editor), not the text part of a spin box or a list."""
    return isinstance(widget, QLineEdit) and not isinstance(widget.parent(), (QAbstractSpinBox, QComboBox))


def _close_cell_editor(widget: QObject) -> None:
    """A cell editor is closed unsaved before the scenario changes under it: committed later, its
    text would silently redo what was undone."""
    view = widget.parent().parent() if _cell_editor(widget) and widget.parent() is not None else None
    if isinstance(view, QAbstractItemView):  # an editor lives on the view's viewport
        view.itemDelegateForIndex(view.currentIndex()).closeEditor.emit(widget,
                                                                        QAbstractItemDelegate.NoHint)
