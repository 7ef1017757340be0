"""VectorTableModel: one matrix (q, k or v) of the active head, read straight from the document.

It holds no data of its own: every call reads document.scenario, and every edit
goes through a command on the undo stack.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from ...core.explain import decimals_for, fmt
from ...core.numbers import parse_number
from ..common import roles
from ..state.commands import SetCell

_SHOWN = Qt.ItemIsSelectable | Qt.ItemIsEnabled  # made once: combining Qt's flags is slow in Python
_EDITABLE = _SHOWN | Qt.ItemIsEditable


class VectorTableModel(QAbstractTableModel):
    rejected = Signal(str)  # a refused edit: the message to show the user

    def __init__(self, document, matrix: str, parent=None):
        super().__init__(parent)
        self.document = document
        self.matrix = matrix  # "q", "k" or "v"
        self._shape = self._current_shape()
        self._seen = (self._values(), self._headers())  # last shown: unchanged ones repaint nothing
        self._decimals = decimals_for(self._seen[0])  # one format for the whole matrix
        document.changed.connect(self._refresh)
        document.selectionChanged.connect(self._refresh)

    # ------------------------------------------------------------- reading

    def _head(self):
        return self.document.scenario.heads[self.document.active_head]

    def _values(self):
        return self._head().matrix(self.matrix)

    def _headers(self):
        return self.document.scenario.tokens, self._head().dim_labels(self.matrix)

    def _current_shape(self):
        return self._values().shape

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else self._shape[0]

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else self._shape[1]

    def data(self, index, role=roles.DISPLAY):
        if role == roles.DISPLAY:
            return fmt(float(self._values()[index.row(), index.column()]), self._decimals, fixed=True)
        if role == roles.ALIGNMENT:
            return roles.RIGHT
        if role in (roles.EDIT, roles.TOOLTIP):
            value = float(self._values()[index.row(), index.column()])
            if role == roles.EDIT and value == int(value):
                return str(int(value))
            return np.format_float_positional(value, trim="-")  # exact, and never 1e-05
        return None

    def headerData(self, section, orientation, role=roles.DISPLAY):
        if role != roles.DISPLAY and role != roles.TOOLTIP:
            return None
        if orientation == Qt.Vertical:
            tokens = self.document.scenario.tokens
            return tokens[section] if section < len(tokens) else None
        labels = self._head().dim_labels(self.matrix)
        return labels[section] if section < len(labels) else None

    def flags(self, index):
        if not index.isValid():
            return Qt.NoItemFlags
        return _SHOWN if self.read_only else _EDITABLE

    @property
    def read_only(self) -> bool:
        """In projection mode q, k and v are derived from X and W: shown, not edited."""
        return self.document.scenario.projection is not None

    # ------------------------------------------------------------- editing

    def setData(self, index, value, role=Qt.EditRole):
        if role != Qt.EditRole or not index.isValid() or self.read_only:
            return False
        def cell():
            number = parse_number(value)
            if number == float(self._values()[index.row(), index.column()]):
                return None  # same value: no undo step
            return SetCell(self.document, self.document.active_head, self.matrix, index.row(), index.column(), number)
        return self.document.attempt(cell, self.rejected.emit)

    # ------------------------------------------------------------- following the document

    def _refresh(self):
        """Tell the view only what changed: edits share unchanged arrays between scenarios,
        so an edit of q repaints the q table and leaves k and v alone."""
        values, headers = self._values(), self._headers()
        shape = values.shape
        if shape != self._shape:
            self.beginResetModel()
            self._shape = shape
            self._seen = (values, headers)
            self._decimals = decimals_for(values)
            self.endResetModel()
            return
        old_values, old_headers = self._seen
        self._seen = (values, headers)
        decimals = decimals_for(values) if values is not old_values else self._decimals
        if decimals != self._decimals:  # 2 became 2.5: every cell is written anew
            self._decimals = decimals
            self.dataChanged.emit(self.index(0, 0), self.index(shape[0] - 1, shape[1] - 1))
        elif values is not old_values and shape[0] and shape[1]:
            # Only the cells whose numbers differ (one, after a typed edit): the view repaints them
            # and asks data() for them alone, not for the whole matrix.
            changed = np.nonzero(values != old_values)
            if changed[0].size:
                self.dataChanged.emit(self.index(int(changed[0].min()), int(changed[1].min())),
                                      self.index(int(changed[0].max()), int(changed[1].max())))
        if headers != old_headers:
            self.headerDataChanged.emit(Qt.Vertical, 0, shape[0] - 1)
            self.headerDataChanged.emit(Qt.Horizontal, 0, shape[1] - 1)
