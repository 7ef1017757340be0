"""Tokens renamed, inserted and removed (Edit menu, F2, a row header's context menu): each an
undoable edit of every head at once."""
from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QMenu

from ..common.i18n import tr
from ..state.commands import InsertToken, RemoveToken, RenameToken


class TokenEditing:
    def __init__(self, document, shell):
        self.document, self.shell = document, shell

    def rename(self, index: int, name: str) -> bool:
        return self.document.attempt(lambda: RenameToken(self.document, index, name), self.shell.report)

    def insert(self, index: int, name: str) -> bool:
        ok = self.document.attempt(lambda: InsertToken(self.document, index, name), self.shell.report)
        if ok:
            self.document.select(query=index)
        return ok

    def remove(self, index: int | None = None) -> bool:
        index = self.document.query if index is None or index is False else index
        return self.document.attempt(lambda: RemoveToken(self.document, index), self.shell.report)

    def rename_dialog(self, index=None):
        index = self.document.query if index is None or index is False else index
        old = self.document.scenario.tokens[index]
        name, ok = QInputDialog.getText(self.shell.dialog_parent(), tr("Rename token"),
                                        tr("New name for {0}:").format(old), text=old)
        if ok and name != old:
            self.rename(index, name)

    def insert_dialog(self, after: bool, index=None):
        index = self.document.query if index is None else index
        name, ok = QInputDialog.getText(self.shell.dialog_parent(), tr("Insert token"),
                                        tr("Token to insert (its q, k and v start at 0):"))
        if ok:
            self.insert(index + 1 if after else index, name)

    def menu(self, index: int, position):
        """A row header's context menu: the same edits, for that token."""
        self.document.select(query=index)
        menu = QMenu(self.shell.dialog_parent())
        menu.addAction(tr("Rename…"), lambda: self.rename_dialog(index))
        menu.addAction(tr("Insert before…"), lambda: self.insert_dialog(False, index))
        menu.addAction(tr("Insert after…"), lambda: self.insert_dialog(True, index))
        menu.addAction(tr("Remove"), lambda: self.remove(index))
        menu.popup(position)
