"""The arithmetic of the selected query, as the tutorial's table: k, q·k, ÷√d_k, mask, softmax, Σ weight·v."""
from __future__ import annotations

import html

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt, QTimer
from PySide6.QtGui import QBrush, QFontMetrics
from PySide6.QtWidgets import QApplication, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from ..core.explain import divisor_text, fmt_vector, output_text, step_rows
from . import colormaps
from .fonts import weighted
from .i18n import head_label, tr


KEY, K, DOT, SCALED, MASK, WEIGHT = range(6)


def step_headers(scenario, head: int, short: bool = False) -> list[str]:
    """Numbered as the five guided steps: 1 q·k, 2 ÷√d_k, 3 mask, 4 softmax, 5 output."""
    d_k = scenario.heads[head].d_k
    divisor = "2. " + divisor_text(d_k, scenario.settings.scale, scenario.settings.temperature)
    if short:  # a narrow table on a projector
        return [tr("key"), "k", "1. q·k", divisor, tr("3. mask"), "4. softmax"]
    return [tr("key"), "k", tr("1. score q·k"), divisor, tr("3. mask"), tr("4. weight (softmax)")]


def step_title(scenario, head: int, query: int) -> str:
    if scenario.weights_only:
        return tr("Query {0} in {1}: the model's weights").format(scenario.tokens[query], head_label(scenario, head))
    return tr("Query {0} in {1}: q = {2}").format(
        scenario.tokens[query], head_label(scenario, head), fmt_vector(scenario.heads[head].q[query]))


def step_output(scenario, result, head: int, query: int) -> str:
    trace = result.heads[head]
    return tr("5. output of {0} = {1}").format(
        scenario.tokens[query],
        output_text(trace.weights[query], scenario.heads[head].v, trace.output[query]))


class StepTableModel(QAbstractTableModel):
    """One row per key of the selected query; reads everything from the document."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.colormap = colormaps.get()
        self.compact = False  # presenting: the sums' results only, so every column fits
        self._rows = []
        self.refresh()

    def set_colormap(self, name: str):
        self.colormap = colormaps.get(name)
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
        return step_headers(self.document.scenario, self.document.active_head, short=self.compact)

    FITTED = (KEY, K, SCALED, MASK, WEIGHT)  # the columns sized to their contents

    def columns_text(self):
        """The texts of the FITTED columns, one list per column."""
        return [[r.cells[column] for r in self._rows] for column in self.FITTED]

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
            if column == DOT and self.compact:
                return row.dot.rsplit(" = ", 1)[-1]  # the sum's result only
            return row.cells[column]
        if role == Qt.TextAlignmentRole:
            left = column in (KEY, DOT)
            return int((Qt.AlignLeft if left else Qt.AlignRight) | Qt.AlignVCenter)
        if role == Qt.ForegroundRole and row.masked:
            return QBrush(colormaps.mask_look(QApplication.palette().base().color()).dimmed)
        if role == Qt.BackgroundRole and column == WEIGHT and not row.masked:
            return QBrush(self.colormap.color(row.weight_value))
        if role == Qt.ForegroundRole and column == WEIGHT and not row.masked:
            return QBrush(self.colormap.text_color(row.weight_value))
        if role == Qt.FontRole and index.row() == self._best:
            return weighted(QApplication.font(), bold=True)
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
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setSectionResizeMode(DOT, QHeaderView.Stretch)  # the written-out sums need the room
        self._layout = None
        self.output = QLabel(objectName="stepOutput")
        self.output.setWordWrap(True)
        self.output.setTextFormat(Qt.PlainText)
        self.output.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.output)
        self._pending = False
        document.changed.connect(self.schedule)
        document.selectionChanged.connect(self.schedule)
        self.refresh()

    def schedule(self):
        """Rebuild at the next event-loop turn: many changes in one turn, one rebuild."""
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self.sync)

    def sync(self):
        self._pending = False
        self.model.refresh()
        self.refresh()

    def refresh(self):
        from .guided import OUTPUT, visible_columns  # guided imports this module
        d = self.document
        self.title.setText(f"<b>{html.escape(step_title(d.scenario, d.active_head, d.query))}</b>")
        self.output.setText(step_output(d.scenario, d.result, d.active_head, d.query))
        self.output.setVisible((d.stage is None or d.stage >= OUTPUT) and not d.scenario.weights_only)
        shown = visible_columns(d.stage) - ({K} if self.model.compact else set()) \
            - ({K, DOT, SCALED} if d.scenario.weights_only else set())  # a model's weights: no q, k
        for column in range(self.model.columnCount()):
            self.table.setColumnHidden(column, column not in shown)
        widest = tuple(max((len(t) for t in texts), default=0) for texts in self.model.columns_text())
        layout = (d.active_head, d.scenario.n, self.model.compact, tuple(self.model.headers()), widest)
        if layout != self._layout:  # sizing columns reads every row: only when their kind changes
            self._layout = layout
            self._fit_columns()
        self.table.setToolTip(tr("How the selected query's weights are computed, one key per row"))

    def set_compact(self, on: bool):
        """For a projector: no k column and only the results of q·k, so the weights stay in view."""
        self.model.compact = on
        self.model.refresh()
        header = self.table.horizontalHeader()
        if on:  # every column an equal share: nothing scrolls out of a projector's view
            header.setSectionResizeMode(QHeaderView.Stretch)
        else:
            header.setSectionResizeMode(QHeaderView.Interactive)
            header.setSectionResizeMode(DOT, QHeaderView.Stretch)
        self._layout = None
        self.refresh()

    def _fit_columns(self):
        """Columns as wide as their contents, k at most a quarter of the table (q·k needs the
        room). Measured from the few longest texts, not by asking the view to read every row
        (resizeColumnToContents takes a third of a second at 512 tokens)."""
        if self.model.compact:
            return
        fm = QFontMetrics(weighted(self.table.font(), bold=True))  # the best row is bold
        headers = self.model.headers()
        for column, texts in zip(self.model.FITTED, self.model.columns_text()):
            longest = sorted(texts, key=len)[-3:] + [headers[column]]
            width = max(fm.horizontalAdvance(t) for t in longest) + fm.height()
            if column == K:
                width = min(width, max(60, self.table.viewport().width() // 4))
            self.table.setColumnWidth(column, width)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit_columns()

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:
            self.model.refresh()
            self.refresh()
        super().changeEvent(event)
