"""What the main window offers its features' controllers (files, the real model, the overview,
compare, exports, token editing, recovery): the one interface they talk to it through. They are
given it; they never reach into the window's widgets."""
from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QWidget


class Shell(Protocol):
    def dialog_parent(self) -> QWidget:
        """What a feature's dialogs and message boxes open over."""

    def report(self, message: str) -> None:
        """A refused input, said where the user is looking; nothing else changes."""

    def warn(self, title: str, message: str) -> None:
        """A failure that needs a reply: a message box (and the report line)."""

    def show_status(self, message: str, milliseconds: int = 5000) -> None:
        """A passing note in the status bar (exported, copied)."""

    def display_name(self) -> str:
        """What the title bar calls what is open."""

    def update_title(self) -> None:
        """The title bar again: another name, or saved / unsaved."""
