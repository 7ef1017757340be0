"""VectorTableModel: one matrix (q, k or v) of the active head, read straight from the document.

It holds no data of its own: every call reads document.scenario, and every edit
goes through a command on the undo stack.
"""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from ..core.explain import fmt
from ..core.numbers import NumberError, parse_number
from ..core.scenario import ScenarioError
from .commands import SetCell
from .i18n import describe


class VectorTableModel(QAbstractTableModel):
    rejected = Signal(str)  # a refused edit: the message to show the user

    def __init__(self, document, matrix: str, parent=None):
        super().__init__(parent)
        self.document = document
        self.matrix = matrix  # "q", "k" or "v"
        self._shape = self._current_shape()
        self._seen = (None, None)  # the array and the headers last shown: unchanged ones repaint nothing
        document.changed.connect(self._refresh)
        document.selectionChanged.connect(self._refresh)

    # ------------------------------------------------------------- reading

    def _head(self):
        return self.document.scenario.heads[self.document.active_head]

    def _values(self):
        return self._head().matrix(self.matrix)

    def _current_shape(self):
        return self._values().shape

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else self._shape[0]

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else self._shape[1]

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        value = float(self._values()[index.row(), index.column()])
        if role == Qt.DisplayRole:
            return fmt(value)
        if role == Qt.EditRole:
            return repr(value) if value != int(value) else str(int(value))
        if role == Qt.TextAlignmentRole:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole:
            return repr(value)
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role not in (Qt.DisplayRole, Qt.ToolTipRole):
            return None
        if orientation == Qt.Vertical:
            tokens = self.document.scenario.tokens
            return tokens[section] if section < len(tokens) else None
        labels = self._head().dim_labels(self.matrix)
        return labels[section] if section < len(labels) else None

    def flags(self, index):
        if not index.isValid():
            return Qt.NoItemFlags
        base = Qt.ItemIsSelectable | Qt.ItemIsEnabled
        return base if self.read_only else base | Qt.ItemIsEditable

    @property
    def read_only(self) -> bool:
        """In projection mode q, k and v are derived from X and W: shown, not edited."""
        return self.document.scenario.projection is not None

    # ------------------------------------------------------------- editing

    def setData(self, index, value, role=Qt.EditRole):
        if role != Qt.EditRole or not index.isValid() or self.read_only:
            return False
        try:
            number = parse_number(value)
            if number == float(self._values()[index.row(), index.column()]):
                return True  # same value: no undo step
            self.document.push(SetCell(self.document, self.document.active_head, self.matrix,
                                       index.row(), index.column(), number))
        except (NumberError, ScenarioError) as e:
            self.rejected.emit(describe(e))
            return False
        return True

    # ------------------------------------------------------------- following the document

    def _refresh(self):
        """Tell the view only what changed: edits share unchanged arrays between scenarios,
        so an edit of q repaints the q table and leaves k and v alone."""
        values = self._values()
        headers = (self.document.scenario.tokens, self._head().dim_labels(self.matrix))
        shape = values.shape
        if shape != self._shape:
            self.beginResetModel()
            self._shape = shape
            self._seen = (values, headers)
            self.endResetModel()
            return
        old_values, old_headers = self._seen
        self._seen = (values, headers)
        if values is not old_values and shape[0] and shape[1]:
            self.dataChanged.emit(self.index(0, 0), self.index(shape[0] - 1, shape[1] - 1))
        if headers != old_headers:
            self.headerDataChanged.emit(Qt.Vertical, 0, shape[0] - 1)
            self.headerDataChanged.emit(Qt.Horizontal, 0, shape[1] - 1)
