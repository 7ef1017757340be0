"""The arithmetic of the selected query, as the tutorial's table: k, q·k, ÷√dₖ, mask, eˣ, softmax,
and the output as the weighted sum of v, under the formula softmax(QKᵀ/√dₖ + M)V. The Σ row is
pinned under the table, in view however many keys scroll above it."""
from __future__ import annotations

import html
import re

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QFontMetricsF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...core.explain import (
    StepNumbers,
    StepRow,
    divisor_text,
    dot_text,
    exponentials,
    fmt,
    fmt_vector,
    input_decimals,
    output_text,
)
from ...core.scenario import head_is_given, head_is_off
from ..common import roles
from ..common.asked import Asked
from ..common.i18n import Retranslated, current_language, head_label, tr
from ..common.lazy import NextTurn
from ..common.markup import rich
from ..look import colormaps
from ..look.fonts import LEAST_SHARE, presented, readable_pixels, weighted
from .formula import FormulaView
from .stages import COLUMNS as COLUMN_NAMES
from .stages import shown

KEY, K, DOT, SCALED, MASK, EXP, WEIGHT = range(len(COLUMN_NAMES))
HIDDEN_COLUMNS = (DOT, SCALED, EXP, WEIGHT)  # a question's unrevealed row: its scores shown as "?"
COLUMNS = len(COLUMN_NAMES)
ROW_EMS = 1.15      # presenting: a row's height in ems (Japanese glyphs fill 1.1 em) ...
LEAST_ROW_EMS = 1.1  # ... or, rather than scroll, down to the glyphs' own height
HEADER_SHARE = 0.85  # presenting: the headers' type, of the cells' (two lines of them sit above the rows)
HEADER_MARGINS = 8  # pixels above and below a header's text
SHRINK_CHARACTERS = 4  # the columns are sized again when their longest text shrinks by this much
ARITHMETIC_TOKENS = 10  # presenting, examples this small (tokens, and dₖ below) show k and q·k written
ARITHMETIC_D_K = 4      # out (0×2 + 2×0 = 0), as the tutorial's table does, when they fit the screen
PRESENTED_TERMS = 2  # presenting a larger example, the output's Σ weight × v: the terms of the largest weights
PRESENTED_ITEMS = 3  # ... and the numbers of each vector written
# Presenting, the table's layouts from the richest: (q·k written out, k shown): k and q·k written out as the
# tutorial does, q·k alone written out (its second factors are k), q·k's results only (any larger example).
PRESENTED_LAYOUTS = ((True, True), (True, False), (False, False))
WIDTH_SHARE = 0.98  # presenting: of the table's width, what its columns may take (the rest: rounding's room)
TIGHTEST = 3    # presenting, the most the formula and the output give way to the rows (StepView._set_tight)
TITLE_GAP = 40  # px: the layout's margins and spacing between the formula and the title beside it
CELL_PADDING_EMS = 0.35 # presenting: room beside a cell's text, in ems of the table's type, and 2 px (Qt keeps 3 px
                        # each side; a bold row measured in whole pixels may take one more)
_NONE = [None] * COLUMNS


def step_headers(scenario, head: int, query: int | None = None, result=None, short: bool = False,
                 one_line: bool = False) -> list[str]:
    """Numbered as the five guided steps: 1 q·k, 2 ÷√d_k, 3 mask, 4 softmax (eˣ, then eˣ/Σ), 5 output.
    Short headers (a projector's narrow column) put the number on a line of its own, or with `one_line`
    before the name (the rows need the height more than the columns the width)."""
    if short and one_line:
        return [h.replace("\n", " ") for h in step_headers(scenario, head, query, result, short=True)]
    if scenario.weights_only:  # a model's weights: no scores, no eˣ, nothing to number as steps
        return [tr("key"), "k", "q·k", "", tr("mask"), "", tr("weight")]
    d_k = scenario.heads[head].d_k
    divisor = divisor_text(d_k, scenario.settings.scale, scenario.settings.temperature)
    shifted = result is not None and query is not None and exponentials(result.heads[head].masked[query])[1]
    if short:  # the shifted eˣ says so in words: max-subtraction comes later in the lesson
        exp = tr("4. eˣ after\nsubtracting the max") if shifted else "4.\neˣ"
        return [tr("key"), "k", "1.\nq·k", "2.\n" + divisor, "3.\n" + tr("mask"), exp, "4.\n" + tr("weight")]
    exp = tr("4. eˣ after subtracting the max") if shifted else "4. eˣ"
    return [tr("key"), "k", tr("1. score q·k"), "2. " + divisor, tr("3. mask"), exp,
            tr("4. weight = {0} / Σ").format("eˣ")]


def exp_words(numbers: StepNumbers, presenting: bool) -> str:
    """What the eˣ column needs said in words: why it holds e to the (x − max), and (presenting, where
    a class adds it up by hand) why its rows shown do not add up to Σ exactly. On the desk the line
    would come and go between edits, each time laying out the table again."""
    added = numbers.shown_sum() if presenting else None
    rounding = tr("Σ adds the eˣ before they are rounded: the values shown add up to {0}.").format(added) \
        if added else ""
    return " ".join(filter(None, (shifted_text(numbers), rounding)))


def shifted_text(numbers: StepNumbers) -> str:
    """In words, why the eˣ column holds e to the (x − max): the scores are too large for eˣ."""
    if not numbers.shifted:
        return ""
    return tr("These scores are too large for eˣ, so the largest one, {0}, is first subtracted from every "
              "score: the column shows e to the (x − {0}). The weights are the same (the Softmax tab "
              "shows why).").format(fmt(numbers.peak, 3, fixed=True))


def step_title(scenario, head: int, query: int, decimals: int | None = None) -> str:
    """`decimals`: those of the step table's q and k (StepNumbers.decimals), when it has them."""
    if scenario.weights_only:
        return tr("Query {0} in {1}: the model's weights").format(scenario.tokens[query], head_label(scenario, head))
    q, k = scenario.heads[head].q[query], scenario.heads[head].k
    decimals = input_decimals(q, k) if decimals is None else decimals
    return tr("Query {0} in {1}: q = {2}").format(
        scenario.tokens[query], head_label(scenario, head), fmt_vector(q, decimals, fixed=True))


def step_output(scenario, result, head: int, query: int, presenting: bool = False, terms: bool = True) -> str:
    """'5. output of それ = 0.045×[2, 0] + …' (the keys in the sentence's order, as the tutorial
    writes it) and, on a line of its own, '= [0.277, 1.723]'. Presenting a larger example: the two
    largest weights' terms and three numbers of each vector, so the table above keeps its rows;
    without `terms` (its rows need the room), the output's vector alone on one line."""
    trace = result.heads[head]
    short = presenting and not small_example(scenario, head)
    text = output_text(trace.weights[query], scenario.heads[head].v, trace.output[query],
                       **({"most": PRESENTED_TERMS, "max_items": PRESENTED_ITEMS} if short else {}))
    added, _, vector = text.rpartition(" = ")
    out = tr("5. output of {0} = {1}").format(scenario.tokens[query], added) + "\n= " + vector if terms else \
        tr("5. output of {0} = {1}").format(scenario.tokens[query], vector)
    if head_is_off(scenario, head) and not presenting:  # presenting, the head's title and its label say it
        out += "\n" + tr("Switched off: the head still computes this, but the model gets zeros from it instead.")
    elif head_is_given(scenario, head) and not presenting:
        out += "\n" + tr("Patched: the head still computes this, but the model gets another output from it instead "
                         "(another run's, or its mean over the positions).")
    return out


def unbroken_vectors(text: str) -> str:
    """No line break inside [a, b, c]: its spaces become non-breaking ones."""
    return re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", "\u00a0"), text)


POWER = re.compile(r"e\^(\([^)]*\)|[−\-]?[0-9.]*[0-9∞x])")


def with_powers(text: str) -> str:
    """Plain text as rich text, e^2.83 and e^(x−max) written as powers, the way the table's eˣ is."""
    return POWER.sub(lambda m: f"e<sup>{m.group(1).strip('()')}</sup>", html.escape(text, quote=False))


def small_example(scenario, head: int) -> bool:
    """Small enough to write out every k and q·k in front of a class (the tutorial's three tokens,
    the demo's ten)."""
    return (not scenario.weights_only and scenario.n <= ARITHMETIC_TOKENS
            and scenario.heads[head].d_k <= ARITHMETIC_D_K)


class StepTableModel(QAbstractTableModel):
    """One row per key of the selected query, then the Σ row; reads everything from the document.

    After a change it tells the view only which rows now read differently (none, when the edit
    did not touch this query's numbers), and writes out a row only when the view asks for it."""

    def __init__(self, document, view, parent=None):
        super().__init__(parent)
        self.document = document
        self.view = view
        self.colormap = colormaps.get(view.colormap, view.scale)
        self.compact = False  # presenting: short headers, and the sums' results only ...
        self.arithmetic = False  # ... unless a small example's k and q·k are written out in full
        self.one_line = False    # presenting: each header on one line (the rows need the height)
        self.font = None      # the table's type when it is not the application's (presenting)
        self._numbers: StepNumbers | None = None
        self._cache: dict = {}
        self._headers: list[str] = []
        self.resets = 0       # counted by the tests: an unrelated edit must not reset the table
        self.asked: Asked | None = None  # a lesson's question: its best key not bold, its guess marked
        view.subscribe(("colormap", "scale"), lambda _: self._recolour())
        self.refresh()

    def set_font(self, font: QFont | None):
        """The type of the bold rows (the best key, Σ): the view's own when presenting."""
        if font != self.font:
            self.font = font
            self._cache = {}
            if self._numbers is not None:
                self.dataChanged.emit(self.index(0, 0), self.index(self.sum_row, COLUMNS - 1))

    def set_asked(self, asked: Asked | None) -> None:
        self.asked = asked
        self._cache = {}
        if self._numbers is not None:
            self.dataChanged.emit(self.index(0, 0), self.index(self.sum_row, COLUMNS - 1))

    def asked_here(self) -> Asked | None:
        """The question, if it is about the row this table shows (the selected query of its head)."""
        d, a = self.document, self.asked
        return a if a is not None and (a.head, a.row) == (d.active_head, d.query) else None

    def _recolour(self) -> None:
        self.colormap = colormaps.get(self.view.colormap, self.view.scale)
        self.refresh(everything=True)

    def refresh(self, everything: bool = False):
        d = self.document
        head = d.scenario.heads[d.active_head]
        trace = d.result.heads[d.active_head]
        new = StepNumbers(d.scenario.tokens, head.q[d.query], head.k, trace, d.query)
        old = self._numbers
        changed = None if old is None or everything else new.changed_rows(old)
        if changed is None:
            self.beginResetModel()
            self._numbers = new
            self._best = new.best()
            self._cache = {}
            self.endResetModel()
            self.resets += 1
        else:
            self._numbers = new
            if changed.size:
                best, self._best = self._best, new.best()
                rows = [int(changed.min()), int(changed.max()), best, self._best, self.sum_row]
                if self.colormap.scale == "row" and old.weights.max() != new.weights.max():
                    rows = [0, self.sum_row]  # every colour is relative to the row's largest weight
                self._cache = {}
                self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), COLUMNS - 1))
        headers = self.headers()
        if headers != self._headers:
            self._headers = headers
            self.headerDataChanged.emit(Qt.Horizontal, 0, COLUMNS - 1)

    def numbers(self) -> StepNumbers:
        return self._numbers

    def _row_max(self) -> float:
        return float(self._numbers.weights.max()) if len(self._numbers) else 1.0

    @property
    def sum_row(self) -> int:
        return len(self._numbers)

    def step_row(self, j: int) -> StepRow:
        return self._numbers.total() if j == self.sum_row else self._numbers.row(j)

    def headers(self):
        d = self.document
        return step_headers(d.scenario, d.active_head, d.query, d.result, short=self.compact,
                            one_line=self.one_line)

    FITTED = (KEY, K, DOT, SCALED, MASK, EXP, WEIGHT)

    def columns_text(self, rows=None):
        """The texts of each column for `rows` (all of them by default), one list per column."""
        rows = range(self.rowCount()) if rows is None else rows
        texts = [self._cell_roles(r)[roles.DISPLAY] for r in rows]
        return [[cells[c] for cells in texts] for c in self.FITTED]

    def telling_rows(self) -> list[int]:
        """Rows whose texts are the widest a column may need, and Σ."""
        return self._numbers.telling_rows() + [self.sum_row]

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self._numbers) + 1

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else COLUMNS

    def data(self, index, role=roles.DISPLAY):
        roles_of = self._cell_roles(index.row())
        return roles_of.get(role, _NONE)[index.column()] if roles_of is not None else None

    def _cell_roles(self, j: int):
        """role -> the values of row j's seven cells, worked out once per row and change."""
        if j in self._cache:
            return self._cache[j]
        if not 0 <= j <= self.sum_row:
            return None
        row, total = self.step_row(j), j == self.sum_row
        asked = self.asked_here()
        hidden = asked is not None and not asked.revealed and not row.masked
        cells = self._cells(j, row, total, hidden)
        out = {roles.DISPLAY: cells,
               roles.ALIGNMENT: [roles.LEFT if c in (KEY, DOT) and not total else roles.RIGHT for c in range(COLUMNS)]}
        self._colour(out, row, coloured=not row.masked and not total and not hidden)
        if asked is not None and j == asked.guess:  # the class's guess: its key lit, ✓ or ✗ once revealed
            out[roles.DISPLAY] = [f"{cells[KEY]} {asked.mark()}".strip()] + cells[1:]
            out.setdefault(roles.BACKGROUND, [None] * COLUMNS)[KEY] = QBrush(QColor(*asked.colour()))
            out[roles.FOREGROUND][KEY] = QBrush(QColor(255, 255, 255))
        if (j == self._best and not (asked and not asked.revealed)) or total:  # bold would tell the answer
            out[roles.FONT] = [weighted(self.font or QApplication.font(), bold=True)] * COLUMNS
        if total:
            out[roles.TOOLTIP] = [None] * EXP + [tr("Σ: the sum of the column. Each weight is its row's eˣ divided "
                                                    "by this sum, so the weights add up to 1.")] * 2
        self._cache[j] = out
        return out

    def _cells(self, j: int, row, total: bool, hidden: bool) -> list[str]:
        """Row j's texts: q·k's result only, or written out for a projector; "?" where the class predicts."""
        cells = list(row.cells)
        if self.compact and not self.arithmetic:
            cells[DOT] = row.dot.rsplit(" = ", 1)[-1]  # the sum's result only
        elif self.compact and not total:  # written out for a projector: no more digits than each number needs
            n = self._numbers
            cells[K] = fmt_vector(n.k[j], n.decimals)
            cells[DOT] = dot_text(n.q, n.k[j], n.decimals, shortest=True)
        if hidden:  # the class predicts: every score tells the answer (the largest q·k is the largest weight)
            for c in HIDDEN_COLUMNS:
                cells[c] = "?"
        return cells

    def _colour(self, out: dict, row, coloured: bool) -> None:
        """A masked row dimmed; a seen row's weight coloured as the heatmap colours it."""
        dimmed = QBrush(colormaps.mask_look(QApplication.palette().base().color()).dimmed) if row.masked else None
        out[roles.FOREGROUND] = [dimmed] * COLUMNS
        if coloured:
            place = float(self.colormap.places(row.weight_value, row_max=self._row_max()))
            out[roles.FOREGROUND][WEIGHT] = QBrush(self.colormap.text_color(place))
            out[roles.BACKGROUND] = [None] * WEIGHT + [QBrush(self.colormap.color(place))]

    def headerData(self, section, orientation, role=roles.DISPLAY):
        if role == roles.DISPLAY and orientation == Qt.Horizontal:
            return self._headers[section] if section < len(self._headers) else None
        return None

    def set_arithmetic(self, on: bool) -> None:
        """k and q·k written out in full (0×2 + 2×0 = 0) while presenting, or only q·k's result."""
        if on != self.arithmetic:
            self.arithmetic = on
            self._cache = {}
            if self._numbers is not None:
                self.dataChanged.emit(self.index(0, K), self.index(self.sum_row, DOT))  # k and q·k written anew


class SumRowModel(QAbstractTableModel):
    """The step table's Σ row alone, for the one-row table pinned under it: the sum each eˣ is
    divided by stays in view however many keys scroll above it."""

    def __init__(self, source: StepTableModel, parent=None):
        super().__init__(parent)
        self.source = source
        source.modelAboutToBeReset.connect(self.beginResetModel)
        source.modelReset.connect(self.endResetModel)
        source.dataChanged.connect(self._source_changed)

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 1

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else COLUMNS

    def data(self, index, role=roles.DISPLAY):
        if not index.isValid():
            return None
        return self.source.data(self.source.index(self.source.sum_row, index.column()), role)

    def _source_changed(self, top_left, bottom_right, changed_roles=()):
        if top_left.row() <= self.source.sum_row <= bottom_right.row():
            self.dataChanged.emit(self.index(0, 0), self.index(0, COLUMNS - 1))


class StepView(Retranslated, QWidget):
    """The formula, the title (which query, which head), the step table with its Σ row pinned under
    it, and the output as Σ weight × v."""

    guessed = Signal(int)  # a lesson's question: a key's row clicked, the class's guess
    spare = Signal(int)  # presenting: the height its rows have to spare in readable type (below 0: they scroll)

    def __init__(self, document, view, parent=None):
        super().__init__(parent)
        self.document = document
        self.formula = FormulaView(document)
        self.title = QLabel(objectName="stepTitle", textFormat=Qt.RichText)
        self.title.setWordWrap(True)
        self.model = StepTableModel(document, view, self)
        self.table = QTableView(objectName="stepTable")
        self.table.setModel(self.model)
        self.sum_model = SumRowModel(self.model, self)
        self.sum_table = QTableView(objectName="stepSum")  # the Σ row, never scrolled out of view
        self.sum_table.setModel(self.sum_model)
        for table in (self.table, self.sum_table):
            table.verticalHeader().hide()
            table.setEditTriggers(QTableView.NoEditTriggers)
            table.setSelectionMode(QTableView.NoSelection)
            table.setFocusPolicy(Qt.NoFocus)  # nothing to edit or select; a clicker's keys go to the window
        self.sum_table.horizontalHeader().hide()
        self.sum_table.horizontalHeader().setSectionResizeMode(QHeaderView.Fixed)  # the table's widths, below
        self.sum_table.horizontalHeader().setMinimumSectionSize(1)  # else its large type's minimum widens them
        self.sum_table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.sum_table.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.sum_table.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setSectionResizeMode(DOT, QHeaderView.Stretch)  # the written-out sums need the room
        header.setMinimumSectionSize(1)  # the widths fitted to the texts: Qt's minimum (from the type) widened
        #                                  narrow columns (eˣ of "?") and pushed the last out of view
        header.sectionResized.connect(lambda column, _old, new: self.sum_table.setColumnWidth(column, new))
        self.table.horizontalScrollBar().valueChanged.connect(self.sum_table.horizontalScrollBar().setValue)
        self.model.modelReset.connect(self._hide_sum_row)  # a reset shows every row again
        self._hidden_row = None     # the table's row hidden for Σ (its last)
        self._k_presented = False  # presenting: the k column beside the written-out q·k (room permitting)
        self._layout = None
        self._widest = None           # the longest texts the columns were sized for
        self.presentation_pixels = 0  # presenting: the heatmap's value size, which the table matches
        self.least_pixels = 0         # presenting: the least type, when not the screen's readable_pixels
        self._pixels = 0              # ... the type's size in fact: smaller if the columns would not fit
        self.output = QLabel(objectName="stepOutput")
        self.output.setWordWrap(True)
        self.output.setTextFormat(Qt.PlainText)
        self.output.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.note = QLabel(objectName="stepNote", textFormat=Qt.RichText)  # a preset's word about its numbers
        self.note.setWordWrap(True)                                         # (the tutorial's rounding)
        self.shifted = QLabel(objectName="stepShifted")  # in words: eˣ had the largest score subtracted,
                                                         # Σ was added before rounding
        self.shifted.setWordWrap(True)
        for label in (self.title, self.output):  # opaque: a new text repaints the label, not the window under it
            label.setAutoFillBackground(True)
        self.top = QBoxLayout(QBoxLayout.LeftToRight)  # the formula and which query of which head:
        self.top.addWidget(self.formula)               # side by side on the desk, one above the other
        self.top.addWidget(self.title, 1)              # in a projector's narrow column
        self.tables = tables = QVBoxLayout()
        tables.setSpacing(0)  # the Σ row right under the last key's
        tables.addWidget(self.table, 1)
        tables.addWidget(self.sum_table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.top)
        layout.addLayout(tables, 1)
        for widget in (self.output, self.shifted, self.note):
            layout.addWidget(widget)
        self.schedule = NextTurn(self, self.sync)  # many changes in one turn, one rebuild
        self._relayout = NextTurn(self, layout.invalidate)
        self._fitted_height = 0  # presenting: the table's height the type was fitted to
        self._fitting = False    # ... while it is fitted (the table's height changes under it)
        self._tight = 0          # ... with the formula and the output made smaller for the rows (_set_tight)
        self.table.clicked.connect(self._clicked)
        self.table.installEventFilter(self)  # presenting: the table's height changes with the labels under it
        document.changed.connect(self.schedule)
        document.selectionChanged.connect(self.schedule)
        self._fit_rows()
        self.refresh()

    def sync(self):
        self.model.refresh()
        self.refresh()

    def refresh(self):
        d = self.document
        numbers = self.model.numbers()
        decimals = numbers.decimals  # the table's own: worked out once per edit
        self.title.setText(f"<b>{rich(step_title(d.scenario, d.active_head, d.query, decimals))}</b>")
        self.refresh_output()
        on_screen = shown(d.stage)
        hiding = self.hiding()  # a question's answer: no eˣ, weight, output, nor a note that states them
        self.output.setVisible("output" in on_screen and not d.scenario.weights_only and not hiding)
        note = d.scenario.text("note", current_language())
        self.note.setText(with_powers(note))
        # a preset's note states the weights (the tutorial's rounding): not before the step that computes them
        self.note.setVisible(bool(note) and not hiding and "weight" in on_screen)
        by_hand = self.model.compact and small_example(d.scenario, d.active_head)  # a class adds these up
        words = exp_words(numbers, by_hand) if "exp" in on_screen and not d.scenario.weights_only \
            and not hiding else ""
        self.shifted.setText(words)
        self.shifted.setVisible(bool(words))
        self.formula.setVisible(self._formula_shown())
        self._show_columns()
        self._hide_sum_row()
        self.sum_table.setHidden("sum" not in on_screen or hiding)
        layout = (d.active_head, d.scenario.n, self.model.compact, tuple(self.model.headers()),
                  self.presentation_pixels, on_screen, small_example(d.scenario, d.active_head), decimals, hiding)
        widest = self._widest_texts()
        if layout != self._layout or self._outgrown(widest):  # sizing columns measures texts: not every edit
            self._layout = layout
            self._fit_columns()
            self._widest = self._widest_texts()  # after _fit_columns: presenting, it may write q·k out or not
            if self.model.compact and not hiding:
                self._show_largest_weight()
        self.table.setToolTip(tr("How the selected query's weights are computed, one key per row"))
        self.sum_table.setToolTip(tr("Σ: the sum of the column. Each weight is its row's eˣ divided "
                                     "by this sum, so the weights add up to 1."))

    def _formula_shown(self) -> bool:
        """Not for a model's weights (no Q, K, V to speak of), nor when a long sentence's rows need its room."""
        return not self.document.scenario.weights_only and self._tight < TIGHTEST

    def refresh_output(self) -> None:
        d = self.document
        self.output.setText(unbroken_vectors(step_output(d.scenario, d.result, d.active_head, d.query,
                                                         self.model.compact, terms=self._tight < 2)))

    def _show_largest_weight(self) -> None:
        """Presenting a sentence whose rows scroll: the row the class looks for (the largest weight)
        in view, not the first ones only."""
        weights = self.model.numbers().weights
        if len(weights):
            self.table.scrollTo(self.model.index(int(np.argmax(weights)), 0), QAbstractItemView.EnsureVisible)

    def _shown_columns(self) -> set[int]:
        d = self.document
        columns = {COLUMN_NAMES.index(name) for name in shown(d.stage) if name in COLUMN_NAMES}
        if self.model.compact and not (self.model.arithmetic and self._k_presented):
            columns.discard(K)  # presenting a larger example: no room for every k
        if d.scenario.weights_only:
            columns -= {K, DOT, SCALED, EXP}  # a model's weights: no q, k
        return columns

    def set_asked(self, asked: Asked | None) -> None:
        """A lesson's question (or None): while it is unrevealed, its row's answer is not shown."""
        self.model.set_asked(asked)
        self.refresh()

    def hiding(self) -> bool:
        asked = self.model.asked_here()
        return asked is not None and not asked.revealed

    def _clicked(self, index) -> None:
        if self.hiding() and 0 <= index.row() < self.model.sum_row:
            self.guessed.emit(index.row())

    def _show_columns(self):
        """The columns computed so far (the guided step's), in the table and the Σ row alike."""
        columns = self._shown_columns()
        for column in range(COLUMNS):
            hidden = column not in columns
            for table in (self.table, self.sum_table):
                if table.isColumnHidden(column) != hidden:
                    table.setColumnHidden(column, hidden)

    def _hide_sum_row(self):
        """The Σ row is shown pinned under the table (self.sum_table), not as the table's last row.
        Qt keeps a hidden row hidden when the rows change: the old Σ row, now a key's, is shown again."""
        row, old = self.model.sum_row, self._hidden_row
        if old != row and old is not None and old < self.model.rowCount():
            self.table.setRowHidden(old, False)
        self._hidden_row = row
        if not self.table.isRowHidden(row):
            self.table.setRowHidden(row, True)

    def _widest_texts(self) -> tuple[int, ...]:
        """The longest text of each fitted column, in characters (the stretched q·k column's
        are left out: it takes the room left, whatever its texts)."""
        stretched = None if self.model.compact else self.model.FITTED.index(DOT)
        return tuple(0 if c == stretched else max((len(t) for t in texts), default=0)
                     for c, texts in enumerate(self.model.columns_text(self._sample())))

    def _outgrown(self, widest) -> bool:
        """A column's texts longer than it was sized for, or much shorter (0.5 → 0.75 is no reason
        to resize every column and repaint the header)."""
        return self._widest is None or any(w > f or w < f - SHRINK_CHARACTERS for w, f in zip(widest, self._widest))

    def set_compact(self, on: bool, pixels: int = 0):
        """For a projector: type as large as the heatmap's values (`pixels`), rows filling the height
        there is; a small example's k and q·k written out when they fit, else q·k's results only."""
        self.model.compact = on
        self.model.set_arithmetic(False)  # decided when the columns are fitted
        self.model.one_line, self._tight = False, 0  # ... and these
        self.presentation_pixels = pixels if on else 0
        self._pixels = self.presentation_pixels
        self.top.setDirection(QBoxLayout.TopToBottom if on else QBoxLayout.LeftToRight)
        self.formula.set_most_pixels(pixels if on else 0, self._least_header_pixels() if on else 0)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Stretch if on else QHeaderView.Interactive)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff if on else Qt.ScrollBarAsNeeded)
        self._apply_fonts()
        self._label_fonts()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Interactive)
        if not on:
            header.setSectionResizeMode(DOT, QHeaderView.Stretch)
        header.setStretchLastSection(on)  # the softmax column takes what is left, nothing is cut
        self.model.refresh(everything=True)
        self._layout = None
        self.refresh()

    def _label_fonts(self):
        """Presenting: the title, the output and the notes as large as the back row can read."""
        for label in (self.title, self.output, self.shifted, self.note):
            label.setFont(presented(QApplication.font(), label) if self.model.compact else QFont())

    def _apply_fonts(self):
        """The table's type: the application's on the desk, `self._pixels` presenting."""
        pixels = self._pixels
        font = QFont()  # on the desk: the application's font, zoom included
        if pixels:
            font = QFont(QApplication.font())
            font.setPixelSize(pixels)
        self.table.setFont(font)
        self.sum_table.setFont(font)
        self.model.set_font(font if pixels else None)
        header_font = QFont()
        if pixels:  # headers a little smaller (two lines of them sit above ten rows), but read from the back
            header_font = weighted(font, bold=True)
            header_font.setPixelSize(max(self._least_header_pixels(), round(pixels * HEADER_SHARE)))
        self.table.horizontalHeader().setFont(header_font)
        self._fit_rows()

    def _sample(self) -> list[int]:
        """The rows that say how wide the columns must be: those in view and the extremes of each
        number (formatting all 512 rows of a long text to size its columns would cost more than
        the edit)."""
        top = max(0, self.table.rowAt(0))
        bottom = self.table.rowAt(self.table.viewport().height() - 1)
        bottom = self.model.rowCount() - 1 if bottom < 0 else bottom
        return sorted(set(range(top, min(bottom, top + 60) + 1)) | set(self.model.telling_rows()))

    def _fit_rows(self):
        """Rows as tall as the type: presenting, not as tall as the font's generous line height
        (Noto CJK's is 1.45 em); on the desk, from the font at every zoom. The Σ row's alike."""
        rows = self.table.verticalHeader()
        line = self._row_pixels(self._pixels) if self._pixels else QFontMetrics(self.table.font()).height() + 8
        rows.setMinimumSectionSize(self._least_row_pixels(self._pixels) if self._pixels else line)
        rows.setDefaultSectionSize(line)
        if not self._pixels:
            for row in range(self.model.rowCount()):
                rows.resizeSection(row, line)
        pinned = self.sum_table.verticalHeader()
        pinned.setMinimumSectionSize(line)
        pinned.setDefaultSectionSize(line)
        pinned.resizeSection(0, line)
        self.sum_table.setFixedHeight(line + 2 * self.sum_table.frameWidth())

    @staticmethod
    def _row_pixels(pixels: int) -> int:
        return round(pixels * ROW_EMS) + 4

    @staticmethod
    def _least_row_pixels(pixels: int) -> int:
        return round(pixels * LEAST_ROW_EMS) + 2

    def _fit_columns(self):
        """Columns as wide as their contents and their headers (every line of them), k at most a
        quarter of the table on the desk (q·k needs the room). Measured from the few longest texts,
        not by asking the view to read every row (that takes a third of a second at 512 tokens)."""
        if self.model.compact and self.presentation_pixels:
            self._fit_presented()
            self._fitted_height = self.table.height()
        for column, width in self._column_widths().items():
            if width != self.table.columnWidth(column):
                self.table.setColumnWidth(column, width)
            self.sum_table.setColumnWidth(column, self.table.columnWidth(column))

    def _fit_presented(self):
        """Presenting: the type as large as the heatmap's values if every shown column and row fits
        at that size, smaller until they do, but never below what the back row can read; the columns
        shrink first, never the digits. In turn, until every row, the Σ row and every column fit: a
        small example's k and q·k written out, then q·k alone written out (its second factors are k),
        then q·k's results only; each with the headers on two lines (narrow) or on one (low). Still too
        tall, the formula and the output around the table take less room, then the formula none
        (`_set_tight`); only a sentence too long for even that scrolls (no column is ever out of view)."""
        self._fitting = True
        try:
            for level in range(TIGHTEST + 1):
                self._set_tight(level)
                if self._fit_layouts():
                    break
        finally:
            self._fitting = False
        fits = self._pixels_for_height() >= self._pixels
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Stretch if fits else QHeaderView.Fixed)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded if not fits else Qt.ScrollBarAlwaysOff)
        if not fits:  # the rows scroll, each as low as it may be: as few out of view as can be
            self.table.verticalHeader().setDefaultSectionSize(self._least_row_pixels(self._pixels))
        if self.isVisible():  # the controls below may give their room, or take it back (PresentationControls)
            self.spare.emit(self._spare_height(self.least_pixels or readable_pixels(self)))

    def _fit_layouts(self) -> bool:
        """The richest of the tables' layouts (PRESENTED_LAYOUTS) whose columns and rows fit at a readable
        size, its headers' lines giving the larger type; False (and the leanest laid out) when none fits."""
        least = self.least_pixels or readable_pixels(self)
        most = max(self.presentation_pixels, least)
        small = small_example(self.document.scenario, self.document.active_head)
        for arithmetic, with_k in PRESENTED_LAYOUTS if small else PRESENTED_LAYOUTS[-1:]:
            fitted = [(self._try(arithmetic, with_k, one_line, least, most), one_line) for one_line in (False, True)]
            fitted = [(pixels, one_line) for (pixels, fits), one_line in fitted if fits]
            if fitted:
                self._try(arithmetic, with_k, max(fitted)[1], least, most)
                return True
        return False  # the leanest, headers on one line, is laid out: it has the most room for rows

    def _try(self, arithmetic: bool, with_k: bool, one_line: bool, least: int, most: int) -> tuple[int, bool]:
        """This layout at the largest type that fits: (its size, whether its columns and rows fit)."""
        self._k_presented = with_k
        self._set_arithmetic(arithmetic)
        self._set_one_line(one_line)
        wide, high = self._fit_type(least, most)
        return self._pixels, wide and high

    def _set_arithmetic(self, on: bool):
        self.model.set_arithmetic(on)
        self._show_columns()

    def _set_one_line(self, on: bool) -> None:
        if on != self.model.one_line:
            self.model.one_line = on
            self.model.refresh()  # the headers change: the model tells the view

    def _set_tight(self, level: int) -> None:
        """Presenting a sentence whose rows need the room, from level 1: the formula on one line in the
        least type and the title beside it when they fit; 2: the output's sum without its terms too (its
        vector stays); 3 (TIGHTEST): no formula (the headers number its steps). 0: as they were."""
        if level == self._tight:
            return
        self._tight = level
        least = self.least_pixels or readable_pixels(self)
        self.formula.set_most_pixels(least if level else self.presentation_pixels, self._least_header_pixels(),
                                     inline=bool(level))
        self.formula.setVisible(self._formula_shown())
        font = presented(QApplication.font(), self.title)
        if level:  # the title in the least type, to fit beside the formula
            font.setPixelSize(self._least_header_pixels())
        self.title.setFont(font)
        title = QFontMetrics(weighted(font, bold=True)).horizontalAdvance(
            html.unescape(re.sub("<[^>]+>", "", self.title.text())))
        room = self.contentsRect().width() - TITLE_GAP
        beside = level < TIGHTEST and self.formula.sizeHint().width() + title <= room
        self.top.setDirection(QBoxLayout.LeftToRight if beside else QBoxLayout.TopToBottom)
        self.refresh_output()
        self.layout().invalidate()  # the formula's and the output's new heights ...
        self.layout().activate()    # ... give the table its new height now, before its type is fitted to it

    def _fit_type(self, least: int, most: int) -> tuple[bool, bool]:
        """The largest type's size between `least` and `most` at which the shown columns fit the width
        and the rows the height: (whether the columns fit at it, whether the rows do). The same sizes give
        the same type, whatever type the table had before."""
        self._set_pixels(most)
        top = max(least, min(most, self._pixels_for_height()))
        pixels = max(least, min(top, self._width_estimate(most)))  # widths grow nearly as the type
        while pixels > least and not self._fits_width(pixels):
            pixels -= 1
        while pixels < top and self._fits_width(pixels + 1):
            pixels += 1
        wide = self._fits_width(pixels)
        by_height = self._pixels_for_height()  # at this type: the pinned Σ row's height follows it
        if least <= by_height < pixels:
            pixels = by_height
        self._set_pixels(pixels)
        return wide, by_height >= least

    def _width_estimate(self, pixels: int) -> int:
        """The type at which the shown columns would just fit, from their widths at `pixels`."""
        self._set_pixels(pixels)
        shown, room = self._shown_width(), self.table.viewport().width()
        return int(pixels * room * WIDTH_SHARE / shown) if shown > 0 and room > 0 else pixels

    def _fits_width(self, pixels: int) -> bool:
        self._set_pixels(pixels)
        return self._shown_width() <= self.table.viewport().width() * WIDTH_SHARE

    def _shown_width(self) -> int:
        return sum(w for c, w in self._column_widths().items() if not self.table.isColumnHidden(c))

    def _rows_room(self) -> tuple[int, int, float]:
        """(the height the header, the keys' rows and the pinned Σ row share; how many rows; how tall the
        header's lines are, in ems of its type)."""
        rows = sum(not self.table.isRowHidden(r) for r in range(min(self.model.rowCount(), 200)))
        pinned = not self.sum_table.isHidden()
        # The table's and the pinned Σ row's room together, as the layout gave it: the Σ row's height
        # follows the type, the room they share does not (measured once the layout is done, whatever type
        # the table had before).
        shared = self.tables.geometry().height() or self.table.height() + pinned * self.sum_table.height()
        height = shared - 2 * self.table.frameWidth() - 8 - pinned * 2 * self.sum_table.frameWidth()
        rows += pinned
        lines = max(h.count("\n") + 1 for h in self.model.headers())
        probe = QFont(self.table.horizontalHeader().font())
        probe.setPixelSize(100)  # as tall as the font's lines: Noto CJK's are 1.45 em
        return height, rows, lines * QFontMetricsF(probe).height() / 100

    def _pixels_for_height(self) -> int:
        """The largest type at which the header, every shown row and the pinned Σ row fit the height:
        the header's lines HEADER_SHARE as large (never under the least type) and its margins, the rows
        _least_row_pixels each (stretched, they share what is left)."""
        height, rows, header_ems = self._rows_room()
        if height <= 0:
            return self.presentation_pixels
        room = height - rows * 2 - HEADER_MARGINS
        floor = self._least_header_pixels()
        pixels = (room - header_ems * floor) / (rows * LEAST_ROW_EMS)  # the header at its least ...
        if pixels * HEADER_SHARE > floor:  # ... or a share of the rows' type
            pixels = room / (header_ems * HEADER_SHARE + rows * LEAST_ROW_EMS)
        return int(pixels)

    def _spare_height(self, pixels: int) -> int:
        """How much more height the table has than its header and rows need at `pixels` (below 0: lacks)."""
        height, rows, header_ems = self._rows_room()
        needed = header_ems * max(self._least_header_pixels(), pixels * HEADER_SHARE) + HEADER_MARGINS + \
            rows * (pixels * LEAST_ROW_EMS + 2)
        return int(height - needed)

    def _least_header_pixels(self) -> int:
        """Presenting: the headers' least type, the least any text may be (20 px at 1080 lines)."""
        return readable_pixels(self, LEAST_SHARE)

    def _set_pixels(self, pixels: int):
        if pixels != self._pixels:
            self._pixels = pixels
            self._apply_fonts()

    def _column_widths(self) -> dict[int, int]:
        cells = QFontMetrics(weighted(self.table.font(), bold=True))  # the best row and Σ are bold
        heads = QFontMetrics(self.table.horizontalHeader().font())
        headers = self.model.headers()
        padding = round(self._pixels * CELL_PADDING_EMS) + 2 if self.model.compact and self._pixels else cells.height()
        widths = {}
        for column, texts in zip(self.model.FITTED, self.model.columns_text(self._sample())):
            if column == DOT and not self.model.compact:
                continue  # stretched: the sums written out take the room that is left
            longest = sorted(texts, key=len)[-3:]
            width = max([cells.horizontalAdvance(t) for t in longest] +
                        [heads.horizontalAdvance(line) for line in headers[column].split("\n")])
            width += padding
            if column == K and not self.model.compact:
                width = min(width, max(60, self.table.viewport().width() // 4))
            widths[column] = width
        return widths

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit_columns()

    def eventFilter(self, watched, event):
        """Presenting, a label above or below the table that comes or goes (the output at step 5,
        the words about a shifted eˣ) changes the table's height after the type was fitted to it:
        fit again (the same room gives the same type: a fit that moves the pinned Σ row alone ends there)."""
        if watched is self.table and event.type() == QEvent.Resize and self.model.compact and not self._fitting \
                and self.table.height() != self._fitted_height:
            self._fit_columns()
            self._relayout()  # the fit laid the labels out anew inside this layout pass, which then placed
        return False        # the formula and the title where they were: their places again, next turn

    def retranslate(self):
        self.model.refresh(everything=True)
        self.refresh()

    def changeEvent(self, event):
        if event.type() == QEvent.FontChange and self.model.compact:
            self._label_fonts()  # zoomed while presenting
        elif event.type() == QEvent.FontChange:
            self._layout = None
            self._fit_rows()
            self.model.refresh(everything=True)  # the best row's bold type follows the zoom
            self.refresh()
        elif event.type() == QEvent.PaletteChange:
            self.model.refresh(everything=True)  # masked rows are dimmed for the look in use
        super().changeEvent(event)
