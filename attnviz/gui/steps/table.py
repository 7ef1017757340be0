"""The arithmetic of the selected query, as the tutorial's table: k, q·k, ÷√d_k, mask, eˣ, softmax,
and the output as the weighted sum of v, under the formula softmax(QKᵀ/√d_k + M)V."""
from __future__ import annotations

import re

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt
from PySide6.QtGui import QBrush, QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QBoxLayout, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from ...core.explain import StepNumbers, StepRow, divisor_text, exponentials, fmt_vector, input_decimals, output_text
from ...core.scenario import head_is_off
from ..common import roles
from ..common.i18n import Retranslated, head_label, tr
from ..common.lazy import NextTurn
from ..common.markup import rich
from ..look import colormaps
from ..look.fonts import presented, readable_pixels, weighted
from .formula import FormulaView
from .stages import COLUMNS as COLUMN_NAMES
from .stages import shown

KEY, K, DOT, SCALED, MASK, EXP, WEIGHT = range(len(COLUMN_NAMES))
COLUMNS = len(COLUMN_NAMES)
ROW_EMS = 1.15      # presenting: a row's height in ems (Japanese glyphs fill 1.1 em)
HEADER_SHARE = 0.85  # presenting: the headers' type, of the cells' (two lines of them sit above the rows)
SHRINK_CHARACTERS = 4  # the columns are sized again when their longest text shrinks by this much
_NONE = [None] * COLUMNS


def step_headers(scenario, head: int, query: int | None = None, result=None, short: bool = False) -> list[str]:
    """Numbered as the five guided steps: 1 q·k, 2 ÷√d_k, 3 mask, 4 softmax (eˣ, then eˣ/Σ), 5 output.
    Short headers (a projector's narrow column) put the number on a line of its own."""
    if scenario.weights_only:  # a model's weights: no scores, no eˣ, nothing to number as steps
        return [tr("key"), "k", "q·k", "", tr("mask"), "", tr("weight")]
    d_k = scenario.heads[head].d_k
    divisor = divisor_text(d_k, scenario.settings.scale, scenario.settings.temperature)
    shifted = result is not None and query is not None and exponentials(result.heads[head].masked[query])[1]
    exp = "e^(x−max)" if shifted else "eˣ"
    if short:
        return [tr("key"), "k", "1.\nq·k", "2.\n" + divisor, "3.\n" + tr("mask"), "4.\n" + exp, "4.\n" + tr("weight")]
    return [tr("key"), "k", tr("1. score q·k"), "2. " + divisor, tr("3. mask"), "4. " + exp,
            tr("4. weight = {0} / Σ").format(exp)]


def step_title(scenario, head: int, query: int, decimals: int | None = None) -> str:
    """`decimals`: those of the step table's q and k (StepNumbers.decimals), when it has them."""
    if scenario.weights_only:
        return tr("Query {0} in {1}: the model's weights").format(scenario.tokens[query], head_label(scenario, head))
    q, k = scenario.heads[head].q[query], scenario.heads[head].k
    decimals = input_decimals(q, k) if decimals is None else decimals
    return tr("Query {0} in {1}: q = {2}").format(
        scenario.tokens[query], head_label(scenario, head), fmt_vector(q, decimals, fixed=True))


def step_output(scenario, result, head: int, query: int, short: bool = False) -> str:
    """'5. output of それ = 0.045×[2, 0] + …' and, on a line of its own, '= [0.277, 1.723]';
    `short` (presenting): the two largest terms only."""
    trace = result.heads[head]
    text = output_text(trace.weights[query], scenario.heads[head].v, trace.output[query], most=3 if short else None)
    terms, _, vector = text.rpartition(" = ")
    out = tr("5. output of {0} = {1}").format(scenario.tokens[query], terms) + "\n= " + vector
    if head_is_off(scenario, head):
        out += "\n" + tr("Switched off: the head still computes this, but the model gets zeros from it instead.")
    return out


def unbroken_vectors(text: str) -> str:
    """No line break inside [a, b, c]: its spaces become non-breaking ones."""
    return re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", "\u00a0"), text)


class StepTableModel(QAbstractTableModel):
    """One row per key of the selected query, then the Σ row; reads everything from the document.

    After a change it tells the view only which rows now read differently (none, when the edit
    did not touch this query's numbers), and writes out a row only when the view asks for it."""

    def __init__(self, document, view, parent=None):
        super().__init__(parent)
        self.document = document
        self.view = view
        self.colormap = colormaps.get(view.colormap, view.scale)
        self.compact = False  # presenting: the sums' results only, so every column fits
        self.font = None      # the table's type when it is not the application's (presenting)
        self._numbers: StepNumbers | None = None
        self._cache: dict = {}
        self._headers: list[str] = []
        self.resets = 0       # counted by the tests: an unrelated edit must not reset the table
        view.subscribe(("colormap", "scale"), lambda _: self._recolour())
        self.refresh()

    def set_font(self, font: QFont | None):
        """The type of the bold rows (the best key, Σ): the view's own when presenting."""
        if font != self.font:
            self.font = font
            self._cache = {}
            if self._numbers is not None:
                self.dataChanged.emit(self.index(0, 0), self.index(self.sum_row, COLUMNS - 1))

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
        return step_headers(d.scenario, d.active_head, d.query, d.result, short=self.compact)

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
        cells = list(row.cells)
        if self.compact:
            cells[DOT] = row.dot.rsplit(" = ", 1)[-1]  # the sum's result only
        out = {roles.DISPLAY: cells,
               roles.ALIGNMENT: [roles.LEFT if c in (KEY, DOT) and not total else roles.RIGHT for c in range(COLUMNS)]}
        coloured = not row.masked and not total
        dimmed = QBrush(colormaps.mask_look(QApplication.palette().base().color()).dimmed) if row.masked else None
        out[roles.FOREGROUND] = [dimmed] * COLUMNS
        if coloured:
            place = float(self.colormap.places(row.weight_value, row_max=self._row_max()))  # as the heatmap colours it
            out[roles.FOREGROUND][WEIGHT] = QBrush(self.colormap.text_color(place))
            out[roles.BACKGROUND] = [None] * WEIGHT + [QBrush(self.colormap.color(place))]
        if j == self._best or total:
            out[roles.FONT] = [weighted(self.font or QApplication.font(), bold=True)] * COLUMNS
        if total:
            out[roles.TOOLTIP] = [None] * EXP + [tr("Σ: the sum of the column. Each weight is its row's eˣ divided "
                                                    "by this sum, so the weights add up to 1.")] * 2
        self._cache[j] = out
        return out

    def headerData(self, section, orientation, role=roles.DISPLAY):
        if role == roles.DISPLAY and orientation == Qt.Horizontal:
            return self._headers[section] if section < len(self._headers) else None
        return None


class StepView(Retranslated, QWidget):
    """The formula, the title (which query, which head), the step table, and the output as Σ weight × v."""

    def __init__(self, document, view, parent=None):
        super().__init__(parent)
        self.document = document
        self.formula = FormulaView(document)
        self.title = QLabel(objectName="stepTitle", textFormat=Qt.RichText)
        self.title.setWordWrap(True)
        self.model = StepTableModel(document, view, self)
        self.table = QTableView(objectName="stepTable")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableView.NoEditTriggers)
        self.table.setSelectionMode(QTableView.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setSectionResizeMode(DOT, QHeaderView.Stretch)  # the written-out sums need the room
        self._layout = None
        self._widest = None           # the longest texts the columns were sized for
        self.presentation_pixels = 0  # presenting: the heatmap's value size, which the table matches
        self._pixels = 0              # ... the type's size in fact: smaller if the columns would not fit
        self.output = QLabel(objectName="stepOutput")
        self.output.setWordWrap(True)
        self.output.setTextFormat(Qt.PlainText)
        self.output.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.note = QLabel(objectName="stepNote")  # a preset's word about its numbers (the tutorial's rounding)
        self.note.setWordWrap(True)
        for label in (self.title, self.output):  # opaque: a new text repaints the label, not the window under it
            label.setAutoFillBackground(True)
        self.table.setFocusPolicy(Qt.NoFocus)  # nothing to edit or select; a clicker's keys go to the window
        self.top = QBoxLayout(QBoxLayout.LeftToRight)  # the formula and which query of which head:
        self.top.addWidget(self.formula)               # side by side on the desk, one above the other
        self.top.addWidget(self.title, 1)              # in a projector's narrow column
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.top)
        for widget, stretch in ((self.table, 1), (self.output, 0), (self.note, 0)):
            layout.addWidget(widget, stretch)
        self.schedule = NextTurn(self, self.sync)  # many changes in one turn, one rebuild
        document.changed.connect(self.schedule)
        document.selectionChanged.connect(self.schedule)
        self._fit_rows()
        self.refresh()

    def sync(self):
        self.model.refresh()
        self.refresh()

    def refresh(self):
        from ..common.i18n import current_language
        d = self.document
        decimals = self.model.numbers().decimals  # the table's own: worked out once per edit
        self.title.setText(f"<b>{rich(step_title(d.scenario, d.active_head, d.query, decimals))}</b>")
        self.output.setText(unbroken_vectors(step_output(d.scenario, d.result, d.active_head, d.query,
                                                         short=self.model.compact)))
        on_screen = shown(d.stage)
        self.output.setVisible("output" in on_screen and not d.scenario.weights_only)
        note = d.scenario.text("note", current_language())
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.formula.setVisible(not d.scenario.weights_only)  # a model's weights: no Q, K, V to speak of
        columns = {COLUMN_NAMES.index(name) for name in on_screen if name in COLUMN_NAMES} \
            - ({K} if self.model.compact else set()) \
            - ({K, DOT, SCALED, EXP} if d.scenario.weights_only else set())  # a model's weights: no q, k
        for column in range(self.model.columnCount()):
            if self.table.isColumnHidden(column) != (column not in columns):
                self.table.setColumnHidden(column, column not in columns)
        sum_hidden = "sum" not in on_screen
        if self.table.isRowHidden(self.model.sum_row) != sum_hidden:
            self.table.setRowHidden(self.model.sum_row, sum_hidden)
        widest = self._widest_texts()
        layout = (d.active_head, d.scenario.n, self.model.compact, tuple(self.model.headers()),
                  self.presentation_pixels)
        if layout != self._layout or self._outgrown(widest):  # sizing columns measures texts: not every edit
            self._layout, self._widest = layout, widest
            self._fit_columns()
        self.table.setToolTip(tr("How the selected query's weights are computed, one key per row"))

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
        """For a projector: no k column, only the results of q·k, and type as large as the heatmap's
        values (`pixels`), rows filling the height there is."""
        self.model.compact = on
        self.presentation_pixels = pixels if on else 0
        self._pixels = self.presentation_pixels
        self.top.setDirection(QBoxLayout.TopToBottom if on else QBoxLayout.LeftToRight)
        self.formula.set_most_pixels(pixels if on else 0)
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
        """Presenting: the title, the output and the note as large as the back row can read."""
        for label in (self.title, self.output, self.note):
            label.setFont(presented(QApplication.font(), label) if self.model.compact else QFont())

    def _apply_fonts(self):
        """The table's type: the application's on the desk, `self._pixels` presenting."""
        pixels = self._pixels
        font = QFont()  # on the desk: the application's font, zoom included
        if pixels:
            font = QFont(QApplication.font())
            font.setPixelSize(pixels)
        self.table.setFont(font)
        self.model.set_font(font if pixels else None)
        header_font = QFont()
        if pixels:  # headers a little smaller: two lines of them sit above ten rows
            header_font = weighted(font, bold=True)
            header_font.setPixelSize(round(pixels * HEADER_SHARE))
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
        (Noto CJK's is 1.45 em); on the desk, from the font at every zoom."""
        rows = self.table.verticalHeader()
        line = self._row_pixels(self._pixels) if self._pixels else QFontMetrics(self.table.font()).height() + 8
        rows.setMinimumSectionSize(line)
        rows.setDefaultSectionSize(line)
        if not self._pixels:
            for row in range(self.model.rowCount()):
                rows.resizeSection(row, line)

    @staticmethod
    def _row_pixels(pixels: int) -> int:
        return round(pixels * ROW_EMS) + 4

    def _fit_columns(self):
        """Columns as wide as their contents and their headers (every line of them), k at most a
        quarter of the table on the desk (q·k needs the room). Measured from the few longest texts,
        not by asking the view to read every row (that takes a third of a second at 512 tokens)."""
        if self.model.compact and self.presentation_pixels:
            self._fit_presented()
        for column, width in self._column_widths().items():
            if width != self.table.columnWidth(column):
                self.table.setColumnWidth(column, width)

    def _fit_presented(self):
        """Presenting: the type as large as the heatmap's values if every shown column and row fits
        at that size, smaller until they do, but never below what the back row can read (a long
        sentence's rows then scroll; no column is ever out of view)."""
        least = readable_pixels(self)
        most = max(self.presentation_pixels, least)
        pixels = most
        for _ in range(3):  # widths grow with the type: two measures find the size that fits
            self._set_pixels(pixels)
            shown = sum(w for c, w in self._column_widths().items() if not self.table.isColumnHidden(c))
            room = self.table.viewport().width()
            by_width = pixels * room / shown if shown > 0 and room > 0 else pixels
            pixels = max(least, min(most, int(by_width * 0.98), self._pixels_for_height()))
            if pixels == self._pixels:
                break
        self._set_pixels(pixels)
        fits = self._pixels_for_height() >= pixels
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Stretch if fits else QHeaderView.Fixed)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded if not fits else Qt.ScrollBarAlwaysOff)

    def _pixels_for_height(self) -> int:
        """The largest type at which the header and every shown row fit the table's height."""
        rows = sum(not self.table.isRowHidden(r) for r in range(min(self.model.rowCount(), 200)))
        lines = max(h.count("\n") + 1 for h in self.model.headers())
        height = self.table.height() - 2 * self.table.frameWidth() - 8
        # header: `lines` lines of type HEADER_SHARE as large, each 1.3 em; rows: _row_pixels each
        per_pixel = lines * HEADER_SHARE * 1.3 + rows * ROW_EMS
        return int((height - rows * 4) / per_pixel) if height > 0 else self.presentation_pixels

    def _set_pixels(self, pixels: int):
        if pixels != self._pixels:
            self._pixels = pixels
            self._apply_fonts()

    def _column_widths(self) -> dict[int, int]:
        cells = QFontMetrics(weighted(self.table.font(), bold=True))  # the best row and Σ are bold
        heads = QFontMetrics(self.table.horizontalHeader().font())
        headers = self.model.headers()
        widths = {}
        for column, texts in zip(self.model.FITTED, self.model.columns_text(self._sample())):
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
