"""Table cells shared by the views' tables (the overview's statistics, the workbench's head types)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidgetItem

from ...core.explain import fmt


class NumberItem(QTableWidgetItem):
    """A table cell shown with fixed decimals and sorted by its value."""

    def __init__(self, value: float, decimals: int = 3):
        super().__init__(fmt(value, decimals, fixed=True) if decimals else str(int(value)))
        self.value = float(value)
        self.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
        self.setFlags(Qt.ItemIsSelectable | Qt.ItemIsEnabled)

    def __lt__(self, other):
        return self.value < other.value if isinstance(other, NumberItem) else super().__lt__(other)
