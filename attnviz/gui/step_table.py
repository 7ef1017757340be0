"""The arithmetic of the selected query, as the tutorial's table: k, q·k, ÷√d_k, mask, eˣ, softmax,
and the output as the weighted sum of v, under the formula softmax(QKᵀ/√d_k + M)V."""
from __future__ import annotations

import html
import re

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt, QTimer
from PySide6.QtGui import QBrush, QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QBoxLayout, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from ..core.explain import divisor_text, exponentials, fmt_vector, output_text, step_rows, sum_row
from . import colormaps
from .fonts import weighted
from .formula import FormulaView
from .i18n import head_label, tr

KEY, K, DOT, SCALED, MASK, EXP, WEIGHT = range(7)
COLUMNS = 7


def step_headers(scenario, head: int, query: int | None = None, result=None, short: bool = False) -> list[str]:
    """Numbered as the five guided steps: 1 q·k, 2 ÷√d_k, 3 mask, 4 softmax (eˣ, then eˣ/Σ), 5 output.
    Short headers (a projector's narrow column) put the number on a line of its own."""
    d_k = scenario.heads[head].d_k
    divisor = divisor_text(d_k, scenario.settings.scale, scenario.settings.temperature)
    shifted = result is not None and query is not None and exponentials(result.heads[head].masked[query])[1]
    exp = "e^(x−max)" if shifted else "eˣ"
    if short:
        return [tr("key"), "k", "1.\nq·k", "2.\n" + divisor, "3.\n" + tr("mask"), "4.\n" + exp, "4.\n" + tr("weight")]
    return [tr("key"), "k", tr("1. score q·k"), "2. " + divisor, tr("3. mask"), "4. " + exp,
            tr("4. weight = {0} / Σ").format(exp)]


def step_title(scenario, head: int, query: int) -> str:
    if scenario.weights_only:
        return tr("Query {0} in {1}: the model's weights").format(scenario.tokens[query], head_label(scenario, head))
    return tr("Query {0} in {1}: q = {2}").format(
        scenario.tokens[query], head_label(scenario, head), fmt_vector(scenario.heads[head].q[query]))


def step_output(scenario, result, head: int, query: int) -> str:
    """'5. output of それ = 0.045×[2, 0] + …' and, on a line of its own, '= [0.277, 1.723]'."""
    trace = result.heads[head]
    text = output_text(trace.weights[query], scenario.heads[head].v, trace.output[query])
    terms, _, vector = text.rpartition(" = ")
    return tr("5. output of {0} = {1}").format(scenario.tokens[query], terms) + "\n= " + vector


def unbroken_vectors(text: str) -> str:
    """No line break inside [a, b, c]: its spaces become non-breaking ones."""
    return re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", "\u00a0"), text)


class StepTableModel(QAbstractTableModel):
    """One row per key of the selected query, then the Σ row; reads everything from the document."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.colormap = colormaps.get()
        self.compact = False  # presenting: the sums' results only, so every column fits
        self.font = None      # the table's type when it is not the application's (presenting)
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
        self._rows.append(sum_row(trace, d.query))
        keys = range(len(self._rows) - 1)
        self._best = max(keys, key=lambda j: self._rows[j].weight_value)
        self.endResetModel()

    @property
    def sum_row(self) -> int:
        return len(self._rows) - 1

    def headers(self):
        d = self.document
        return step_headers(d.scenario, d.active_head, d.query, d.result, short=self.compact)

    FITTED = (KEY, K, DOT, SCALED, MASK, EXP, WEIGHT)

    def columns_text(self):
        """The texts of each column, one list per column (the compact q·k shows its result only)."""
        return [[self.data(self.index(r, c)) for r in range(len(self._rows))] for c in self.FITTED]

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else COLUMNS

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        total = index.row() == self.sum_row
        if role == Qt.DisplayRole:
            if column == DOT and self.compact:
                return row.dot.rsplit(" = ", 1)[-1]  # the sum's result only
            return row.cells[column]
        if role == Qt.TextAlignmentRole:
            left = column in (KEY, DOT) and not total
            return int((Qt.AlignLeft if left else Qt.AlignRight) | Qt.AlignVCenter)
        if role == Qt.ForegroundRole and row.masked:
            return QBrush(colormaps.mask_look(QApplication.palette().base().color()).dimmed)
        if role == Qt.BackgroundRole and column == WEIGHT and not row.masked and not total:
            return QBrush(self.colormap.color(row.weight_value))
        if role == Qt.ForegroundRole and column == WEIGHT and not row.masked and not total:
            return QBrush(self.colormap.text_color(row.weight_value))
        if role == Qt.FontRole and (index.row() == self._best or total):
            return weighted(self.font or QApplication.font(), bold=True)
        if role == Qt.ToolTipRole and total and column in (EXP, WEIGHT):
            return tr("Σ: the sum of the column. Each weight is its row's eˣ divided by this sum, "
                      "so the weights add up to 1.")
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.headers()[section]
        return None


class StepView(QWidget):
    """The formula, the title (which query, which head), the step table, and the output as Σ weight × v."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.formula = FormulaView(document)
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
        self.presentation_pixels = 0  # presenting: the heatmap's value size, which the table matches
        self._shrink = 1.0            # ... times this, when its columns would not fit otherwise
        self.output = QLabel(objectName="stepOutput")
        self.output.setWordWrap(True)
        self.output.setTextFormat(Qt.PlainText)
        self.output.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.note = QLabel(objectName="stepNote")  # a preset's word about its numbers (the tutorial's rounding)
        self.note.setWordWrap(True)
        self.table.setFocusPolicy(Qt.NoFocus)  # nothing to edit or select; a clicker's keys go to the window
        self.top = QBoxLayout(QBoxLayout.LeftToRight)  # the formula and which query of which head:
        self.top.addWidget(self.formula)               # side by side on the desk, one above the other
        self.top.addWidget(self.title, 1)              # in a projector's narrow column
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.top)
        for widget, stretch in ((self.table, 1), (self.output, 0), (self.note, 0)):
            layout.addWidget(widget, stretch)
        self._pending = False
        document.changed.connect(self.schedule)
        document.selectionChanged.connect(self.schedule)
        self._fit_rows()
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
        from .guided import OUTPUT, SOFTMAX, visible_columns  # guided imports this module
        from .i18n import current_language
        d = self.document
        self.title.setText(f"<b>{html.escape(step_title(d.scenario, d.active_head, d.query))}</b>")
        self.output.setText(unbroken_vectors(step_output(d.scenario, d.result, d.active_head, d.query)))
        self.output.setVisible((d.stage is None or d.stage >= OUTPUT) and not d.scenario.weights_only)
        note = d.scenario.text("note", current_language())
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.formula.setVisible(not d.scenario.weights_only)  # a model's weights: no Q, K, V to speak of
        shown = visible_columns(d.stage) - ({K} if self.model.compact else set()) \
            - ({K, DOT, SCALED, EXP} if d.scenario.weights_only else set())  # a model's weights: no q, k
        for column in range(self.model.columnCount()):
            self.table.setColumnHidden(column, column not in shown)
        self.table.setRowHidden(self.model.sum_row, d.stage is not None and d.stage < SOFTMAX)
        widest = tuple(max((len(t) for t in texts), default=0) for texts in self.model.columns_text())
        layout = (d.active_head, d.scenario.n, self.model.compact, tuple(self.model.headers()), widest,
                  self.presentation_pixels)
        if layout != self._layout:  # sizing columns reads every row: only when their kind changes
            self._layout = layout
            self._fit_columns()
        self.table.setToolTip(tr("How the selected query's weights are computed, one key per row"))

    def set_compact(self, on: bool, pixels: int = 0):
        """For a projector: no k column, only the results of q·k, and type as large as the heatmap's
        values (`pixels`), rows filling the height there is."""
        self.model.compact = on
        self.presentation_pixels = pixels if on else 0
        self._shrink = 1.0
        self.top.setDirection(QBoxLayout.TopToBottom if on else QBoxLayout.LeftToRight)
        self.formula.set_most_pixels(pixels if on else 0)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Stretch if on else QHeaderView.Interactive)
        self._apply_fonts()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Interactive)
        if not on:
            header.setSectionResizeMode(DOT, QHeaderView.Stretch)
        header.setStretchLastSection(on)  # the softmax column takes what is left, nothing is cut
        self.model.refresh()
        self._layout = None
        self.refresh()

    def _apply_fonts(self):
        """The table's type: the application's on the desk; presenting, the heatmap's values (a
        little smaller only when the columns would not fit the column otherwise)."""
        pixels = round(self.presentation_pixels * self._shrink)
        font = QFont()  # on the desk: the application's font, zoom included
        if pixels:
            font = QFont(QApplication.font())
            font.setPixelSize(pixels)
        self.table.setFont(font)
        self.model.font = font if pixels else None
        header_font = QFont()
        if pixels:  # headers a little smaller: two lines of them sit above ten rows
            header_font = weighted(font, bold=True)
            header_font.setPixelSize(round(pixels * 0.85))
        self.table.horizontalHeader().setFont(header_font)
        self._fit_rows()

    def _fit_rows(self):
        """Rows as tall as the type: presenting, not as tall as the font's generous line height
        (Noto CJK's is 1.45 em); on the desk, from the font at every zoom."""
        rows = self.table.verticalHeader()
        pixels = round(self.presentation_pixels * self._shrink)
        line = round(pixels * 1.2) if pixels else QFontMetrics(self.table.font()).height() + 4
        rows.setMinimumSectionSize(line)
        rows.setDefaultSectionSize(line + 4)
        if not pixels:
            for row in range(self.model.rowCount()):
                rows.resizeSection(row, line + 4)

    def _fit_columns(self):
        """Columns as wide as their contents and their headers (every line of them), k at most a
        quarter of the table on the desk (q·k needs the room). Measured from the few longest texts,
        not by asking the view to read every row (that takes a third of a second at 512 tokens)."""
        widths = self._column_widths()
        for _ in range(4):  # long numbers (a real model's): smaller type, but every column in view
            if not (self.model.compact and self.presentation_pixels):
                break
            shown = sum(w for c, w in widths.items() if not self.table.isColumnHidden(c))
            room = self.table.viewport().width() - self.table.verticalScrollBar().sizeHint().width()
            if not shown > room > 0 or self._shrink <= 0.7:
                break
            self._shrink = max(0.7, self._shrink * room / shown * 0.98)
            self._apply_fonts()
            widths = self._column_widths()
        for column, width in widths.items():
            self.table.setColumnWidth(column, width)

    def _column_widths(self) -> dict[int, int]:
        cells = QFontMetrics(weighted(self.table.font(), bold=True))  # the best row and Σ are bold
        heads = QFontMetrics(self.table.horizontalHeader().font())
        headers = self.model.headers()
        widths = {}
        for column, texts in zip(self.model.FITTED, self.model.columns_text()):
            if column == DOT and not self.model.compact:
                continue  # stretched: the sums written out take the room that is left
            longest = sorted(texts, key=len)[-3:]
            width = max([cells.horizontalAdvance(t) for t in longest] +
                        [heads.horizontalAdvance(line) for line in headers[column].split("\n")])
            width += cells.height()
            if column == K:
                width = min(width, max(60, self.table.viewport().width() // 4))
            widths[column] = width
        return widths

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit_columns()

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:
            self.model.refresh()
            self.refresh()
        elif event.type() == QEvent.FontChange and not self.model.compact:
            self._layout = None
            self._fit_rows()
            self.refresh()
        super().changeEvent(event)
