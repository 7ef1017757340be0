"""The arithmetic of the selected query, as the tutorial's table: k, q·k, ÷√d_k, mask, softmax, Σ weight·v."""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from ..core.explain import divisor_text, fmt_vector, output_text, step_rows
from . import colormaps


def tr(text: str) -> str:
    return QCoreApplication.translate("step_table", text)


KEY, K, DOT, SCALED, MASK, WEIGHT = range(6)


class StepTableModel(QAbstractTableModel):
    """One row per key of the selected query; reads everything from the document."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.colormap = colormaps.get()
        self._rows = []
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.refresh()

    def refresh(self):
        # The rows are derived text, rebuilt from the document on every change.
        self.beginResetModel()
        d = self.document
        head = d.scenario.heads[d.active_head]
        trace = d.result.heads[d.active_head]
        self._rows = step_rows(d.scenario.tokens, head.q[d.query], head.k, trace, d.query)
        self._best = max(range(len(self._rows)), key=lambda j: self._rows[j].weight_value)
        self.endResetModel()

    def headers(self):
        s = self.document.scenario
        d_k = s.heads[self.document.active_head].d_k
        return [tr("key"), "k", tr("1. score q·k"),
                divisor_text(d_k, s.settings.scale, s.settings.temperature),
                tr("mask"), tr("2. weight (softmax)")]

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 6

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.DisplayRole:
            return (row.key, row.k, row.dot, row.scaled, row.mask, row.weight)[column]
        if role == Qt.TextAlignmentRole:
            left = column in (KEY, DOT)
            return int((Qt.AlignLeft if left else Qt.AlignRight) | Qt.AlignVCenter)
        if role == Qt.ForegroundRole and row.masked:
            return QBrush(colormaps.MASK_TEXT)
        if role == Qt.BackgroundRole and column == WEIGHT and not row.masked:
            return QBrush(self.colormap.color(row.weight_value))
        if role == Qt.ForegroundRole and column == WEIGHT and not row.masked:
            return QBrush(self.colormap.text_color(row.weight_value))
        if role == Qt.FontRole and index.row() == self._best:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.headers()[section]
        return None


class StepView(QWidget):
    """Title (which query, which head), the step table, and the output as Σ weight × v."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.title = QLabel(objectName="stepTitle")
        self.title.setWordWrap(True)
        self.model = StepTableModel(document, self)
        self.table = QTableView(objectName="stepTable")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableView.NoEditTriggers)
        self.table.setSelectionMode(QTableView.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeToContents)
        header.setSectionResizeMode(DOT, QHeaderView.Stretch)  # the written-out sums need the room
        self.output = QLabel(objectName="stepOutput")
        self.output.setWordWrap(True)
        self.output.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.output)
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.refresh()

    def refresh(self):
        d = self.document
        s = d.scenario
        head = s.heads[d.active_head]
        token = s.tokens[d.query]
        trace = d.result.heads[d.active_head]
        self.title.setText(tr("Query <b>{0}</b> in head {1} ({2}): q = {3}").format(
            _html(token), d.active_head, _html(head.name), fmt_vector(head.q[d.query])))
        self.output.setText(tr("3. output of {0} = {1}").format(
            token, output_text(trace.weights[d.query], head.v, trace.output[d.query])))


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
