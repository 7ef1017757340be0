"""Menu actions, made the same way by the window and the classroom features."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence


def make_action(window, slot, shortcuts=(), checkable: bool = False) -> QAction:
    action = QAction(window)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    window.addAction(action)  # shortcuts keep working with the menu bar hidden (presentation)
    return action


def name_actions(texts: dict, tips: dict) -> None:
    """Set each action's text, and its tooltip and status-bar tip, in the current language."""
    for action, text in texts.items():
        action.setText(text)
    for action, tip in tips.items():
        action.setToolTip(tip)
        action.setStatusTip(tip)
