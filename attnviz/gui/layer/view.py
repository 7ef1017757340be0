"""LayerView: the layer from X to O of seed 002 as one picture (LayerDiagram), each box's matrix a
click away in the table below (X and the W matrices editable there: the q, k, v tables of a
projection scenario are derived), and O = X + Y′ of the selected token as arrows in a plane."""
from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...core import layer as flows
from ...core.attention import POSITIONS, kv_group
from ...core.explain import decimals_for, fmt
from ...core.numbers import parse_number
from ...core.scenario import PROJECTION_MATRICES as EDITABLE
from ..common.i18n import Retranslated, tr
from ..common.markup import pieces, rich
from ..state.commands import SetProjectionCell, SetProjectionOptions
from .diagram import TURNED, LayerDiagram
from .residual import ResidualPlane

PRESENTED = 22   # presenting: the pixel size of every text but the diagram's (≥ 20 at 1920 × 1080)
PRESENTED_MOST = 34  # presenting: the diagram's largest type; it fills the space it is given
LEAST_PRESENTED = 20.0  # presenting: the diagram's least type, its subscripts' too


def marked_html(text: str) -> str:
    """"W_q" as rich text: W with a subscript q."""
    return "".join(f"<sub>{html.escape(t)}</sub>" if sub else html.escape(t) for t, sub in pieces(text))


class StageModel(QAbstractTableModel):
    """The matrix of one box; cells of X and the W matrices are editable."""

    rejected = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.key, self.matrix, self.rows, self.columns = "x", np.zeros((0, 0)), [], []
        self.decimals = 0

    def show(self, key, matrix, rows, columns):
        self.beginResetModel()
        self.key, self.matrix, self.rows, self.columns = key, matrix, rows, columns
        finite = matrix[np.isfinite(matrix)]
        self.decimals = decimals_for(finite)  # one format per box's table
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else self.matrix.shape[0]

    def columnCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() or self.matrix.ndim < 2 else self.matrix.shape[1]

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        value = float(self.matrix[index.row(), index.column()])
        if role == Qt.DisplayRole:
            return fmt(value, self.decimals, fixed=True)
        if role == Qt.EditRole:
            return repr(value)
        if role == Qt.TextAlignmentRole:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):  # noqa: N802
        if role != Qt.DisplayRole:
            return None
        labels = self.rows if orientation == Qt.Vertical else self.columns
        return labels[section] if section < len(labels) else None

    def flags(self, index):
        base = Qt.ItemIsSelectable | Qt.ItemIsEnabled
        return base | Qt.ItemIsEditable if self.key in EDITABLE else base

    def setData(self, index, value, role=Qt.EditRole):  # noqa: N802
        if role != Qt.EditRole or self.key not in EDITABLE:
            return False
        d = self.document
        return d.attempt(lambda: SetProjectionCell(d, self.key, index.row(), index.column(), parse_number(value)),
                         self.rejected.emit)


def rotated(p) -> str:
    """What RoPE did to the q and k shown (nothing to say without it)."""
    return tr(" (q and k as RoPE turned them)") if p.positions == "rope" else ""


def meaning(key: str, p, head_names) -> str:
    """What box `key` holds, in a teacher's words (its caption under the diagram)."""
    name, _, index = key.partition(":")
    if name == "kv":
        j = int(index)
        readers = ", ".join(str(i) for i in range(p.n_heads) if kv_group(i, p.n_heads, p.kv_heads)[0] == j)
        text = tr("K/V group {0}: its K (left) and V (right) columns, read by heads {1}").format(j, readers)
        return text + rotated(p)
    i = int(index) if index else 0
    texts = {
        "x": lambda: tr("the input X: one row per token"),
        "positions": lambda: (tr("sinusoidal positions P, added to X: row p holds sin and cos of p at "
                                 "different frequencies") if p.positions == "sinusoidal" else
                              tr("RoPE: the angle (in radians) by which position p turns each pair of "
                                 "dimensions of q and k; q·k then depends on how far apart two tokens are")),
        "stream": lambda: tr("X + P: the input with its positions; the residual adds this"),
        "normed": lambda: tr("LayerNorm: each row of X to mean 0 and variance 1"),
        "w_q": lambda: tr("a weight matrix: Q = X W_q looks at X from another angle"),
        "w_k": lambda: tr("a weight matrix: K = X W_k"),
        "w_v": lambda: tr("a weight matrix: V = X W_v"),
        "q": lambda: tr("Q = X W_q, before it is split into heads"),
        "k": lambda: tr("K = X W_k, before it is split into groups"),
        "v": lambda: tr("V = X W_v, before it is split into groups"),
        "scores": lambda: tr("{0}: every q·k, one row per query"),
        "scaled": lambda: tr("{0}: each score ÷ √d_k (and ÷ T)"),
        "masked": lambda: tr("{0}: the mask added, −∞ where a key is hidden"),
        "weights": lambda: tr("{0}: softmax, each row adds up to 1"),
        "heads": lambda: tr("{0}: the output, the weighted sum of the v rows"),
        "concat": lambda: tr("Y = concat(Y₀, Y₁, …): the heads' outputs side by side"),
        "w_o": lambda: tr("W_o brings the heads' outputs back into the space of X"),
        "projected": lambda: tr("Y′ = Y W_o: what attention adds to each token"),
        "add": lambda: tr("X, added back (the residual): the original is kept"),
        "output": lambda: tr("O = X + Y′: each token, moved by what attention found") if p.residual
        else tr("O = Y′ (without the residual)"),
    }
    if name == "q" and index:
        text = tr("{0}: the columns of Q this head reads").format(head_names[i])
        return text + rotated(p)
    text = texts[name]()
    return text.format(head_names[i]) if "{0}" in text else text


class LayerView(Retranslated, QWidget):
    def __init__(self, document, report, parent=None):
        super().__init__(parent)
        self.setObjectName("pipelineView")
        self.document = document
        self.report = report
        self.presenting = False
        self.key = "x"
        self._stage = None  # the guided step the shown matrix was last chosen for
        self.layer_norm = QCheckBox(objectName="layerNormToggle")
        self.positions_name = QLabel()
        self.positions = QComboBox(objectName="positionsSelector")
        self.positions.addItems([""] * len(POSITIONS))
        self.groups_name = QLabel()
        self.groups = QSpinBox(objectName="kvGroups")
        self.diagram = LayerDiagram()
        self.caption = QLabel(objectName="pipelineCaption", wordWrap=True, textFormat=Qt.RichText)
        self.model = StageModel(document, self)
        self.model.rejected.connect(report)
        self.table = QTableView(objectName="pipelineMatrix")
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.plane = ResidualPlane()
        self.plane_caption = QLabel(objectName="residualCaption", wordWrap=True, textFormat=Qt.RichText)
        self.dims_name = QLabel()
        self.dims = (QComboBox(objectName="residualDimA"), QComboBox(objectName="residualDimB"))
        self._build_layout()
        self.layer_norm.toggled.connect(lambda on: self._options(tr("LayerNorm"), layer_norm=on))
        self.positions.activated.connect(lambda i: self._options(tr("Positions"), positions=POSITIONS[i]))
        self.groups.valueChanged.connect(lambda g: self._options(tr("K/V groups"), n_kv_heads=g))
        self.diagram.picked.connect(self.select)
        self.diagram.explain = self.explain
        for box in self.dims:
            box.activated.connect(lambda _: self.show_residual())
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.retranslate()

    def _build_layout(self):
        controls = QHBoxLayout()
        for widget in (self.layer_norm, self.positions_name, self.positions, self.groups_name, self.groups):
            controls.addWidget(widget)
        controls.addStretch(1)
        numbers = QWidget()
        column = QVBoxLayout(numbers)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.caption)
        column.addWidget(self.table, 1)
        residual = QWidget()
        grid = QGridLayout(residual)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.plane_caption, 0, 0, 1, 3)
        grid.addWidget(self.dims_name, 1, 0)
        grid.addWidget(self.dims[0], 1, 1)
        grid.addWidget(self.dims[1], 1, 2)
        grid.addWidget(self.plane, 2, 0, 1, 3)
        grid.setRowStretch(2, 1)
        self.below = QSplitter(Qt.Horizontal, objectName="layerBelow")
        self.below.addWidget(numbers)
        self.below.addWidget(residual)
        self.below.setStretchFactor(0, 3)
        self.below.setStretchFactor(1, 2)
        self.split = QSplitter(Qt.Vertical, objectName="layerSplit")
        self.split.addWidget(self.diagram)
        self.split.addWidget(self.below)
        self.split.setStretchFactor(0, 3)  # the picture first; its numbers and the residual below
        self.split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(self.split, 1)

    def retranslate(self):
        self.layer_norm.setText(tr("LayerNorm first"))
        self.layer_norm.setToolTip(tr("Normalise each row of X (mean 0, variance 1) before the projections, "
                                      "as a Transformer block does; the residual still adds X"))
        self.positions_name.setText(tr("Positions"))
        for i, text in enumerate((tr("none"), tr("sinusoidal, added to X"), tr("RoPE, rotating q and k"))):
            self.positions.setItemText(i, text)
        self.positions.setToolTip(tr("Without positions attention cannot tell the order of the words"))
        self.groups_name.setText(tr("K/V groups"))
        self.groups.setToolTip(tr("Grouped-query attention: fewer groups of K and V than heads, each group "
                                  "shared by several heads (Q stays per head)"))
        self.diagram.setToolTip(tr("The whole layer, every matrix with its shape: click a box to see its numbers"))
        self.dims_name.setText(tr("Dimensions"))
        self.refresh()  # the boxes' texts and the captions are texts too

    def set_presentation(self, on: bool) -> None:
        """Type for the back of a classroom (≥ 20 px at 1920 × 1080); the diagram fills its place."""
        self.presenting = on
        font = QFont()  # nothing set: the application's font, as on the desk
        if on:
            font.setPixelSize(PRESENTED)
        self.setFont(font)
        # Presenting, every box has its shape in the seed's letters too (n × d/h), as the lesson writes it.
        least = LEAST_PRESENTED if on else 6.0  # subscripts too: W_o's o is read from the back row
        self.diagram.set_type(least, PRESENTED_MOST if on else self._desk_most(), letters=on,
                              least_sub=least if on else 0.0)
        self.plane.pixels = PRESENTED if on else 0.0
        self.plane.update()

    def changeEvent(self, event):  # noqa: N802 (Qt's name)
        if event.type() == QEvent.FontChange and not self.presenting:  # the desk's zoom: the diagram follows
            self.diagram.set_type(6.0, self._desk_most())
        super().changeEvent(event)

    def _desk_most(self) -> float:
        info = self.fontInfo()
        return max(12.0, info.pixelSize() * 1.15)

    def _options(self, text, **changes):
        d = self.document
        if not d.attempt(lambda: SetProjectionOptions(d, text, **changes), self.report):
            self.refresh()

    # ------------------------------------------------------------- what is shown

    def refresh(self):
        p = self.document.scenario.projection
        if p is None:
            return
        with QSignalBlocker(self.layer_norm), QSignalBlocker(self.positions), QSignalBlocker(self.groups):
            self.layer_norm.setChecked(p.layer_norm)
            self.positions.setCurrentIndex(POSITIONS.index(p.positions))
            self.groups.setRange(1, p.n_heads)
            self.groups.setValue(p.kv_heads)
        self.flow = flows.flow(p, self.document.scenario.n)
        keys = [b.key for column in self.flow.columns for b in column]
        if self.key not in keys:
            self.key = "x"
        if self.document.stage != self._stage:  # a layer's step comes: its result's numbers below
            self._stage = self.document.stage
            self.key = self._stage_key() or self.key
        if not self.presenting:
            self.diagram.set_type(6.0, self._desk_most())
        self.diagram.set_flow(self.flow, self._labels(), self._legend(p), self.lit(), self.key)
        self.show_stage()
        self.show_residual()

    def _labels(self) -> dict:
        notes = {"RoPE": f"RoPE {TURNED}", "θ": tr("angles θ"), "sin, cos": "sin, cos"}
        out = {}
        for column in self.flow.columns:
            for b in column:
                lines = [tr("concat") if b.name == "concat" else b.name, f"{b.shape[0]} × {b.shape[1]}", b.symbols]
                out[b.key] = lines + ([notes.get(b.note, b.note)] if b.note else [])
        return out

    def _legend(self, p) -> list[str]:
        s = self.flow.sizes
        items = [tr("n = {0} tokens").format(s["n"]), f"d = {s['d']}", tr("h = {0} heads").format(s["h"]),
                 f"d/h = d_k = {s['d_head']}",
                 tr("Q, K, V split: h × n × d/h = {0} × {1} × {2}").format(s["h"], s["n"], s["d_head"])]
        if s["groups"] < s["h"]:  # g: the letter of K's and V's shapes (n × gd/h)
            items.append(f"g = {s['groups']}")
            items.append(tr("K/V groups: {0}, each shared by {1} heads").format(s["groups"], s["h"] // s["groups"]))
        items.append({"none": tr("positions: none"), "sinusoidal": tr("positions: sinusoidal P added to X"),
                      "rope": tr("positions: RoPE rotates q and k")}[p.positions])
        return items

    def lit(self) -> set:
        """The boxes of the guided step (document.stage): a head's five in the active head's row, the
        layer's own (split, concat, W_o, + X, LayerNorm) wherever they compute."""
        return flows.lit(self.flow, self.document.stage, self.document.active_head)

    def _stage_key(self) -> str | None:
        """The box the guided step computes last: LayerNorm's, the active head's Q_i at the split, its
        scores, weights or Y_i at a head's five, concat, Y′, O; None with no step."""
        lit, head = self.lit(), self.document.active_head
        boxes = [b for column in self.flow.columns for b in column if b.key in lit]
        own = [b for b in boxes if b.head == head]  # the split: the active head's Q_i, not a shared K_j V_j
        return (own or boxes)[-1].key if boxes else None

    def select(self, key: str):
        """Show box `key`'s matrix; a box of one head's attention makes that head active."""
        self.key = key
        head = next((b.head for column in self.flow.columns for b in column if b.key == key), None)
        if head is not None and head != self.document.active_head:
            self.document.select(head=head)  # refreshes everything, this view too
        else:
            self.refresh()

    def explain(self, key: str) -> str:
        """A box's tooltip: its name, its shape and what it holds."""
        s = self.document.scenario
        box = next(b for column in self.flow.columns for b in column if b.key == key)
        title = f"{marked_html(box.name)} ({box.shape[0]} × {box.shape[1]}, {html.escape(box.symbols)})"
        return f"<qt><b>{title}</b><br>{rich(meaning(key, s.projection, [h.name for h in s.heads]))}</qt>"

    def current_key(self) -> str:
        return self.key

    def show_stage(self):
        s, layer = self.document.scenario, self.document.result.layer
        p, key = s.projection, self.key
        box = next(b for column in self.flow.columns for b in column if b.key == key)
        matrix = flows.matrix(p, layer, key)
        rows, columns = self._headers(key, matrix)
        self.model.show(key, matrix, rows, columns)
        names = [h.name for h in s.heads]
        note = tr("edit the numbers: everything after it follows") if key in EDITABLE else tr("computed")
        title = f"{marked_html(box.name)} ({box.shape[0]} × {box.shape[1]}, {html.escape(box.symbols)})"
        self.caption.setText(f"<b>{title}</b> — {rich(meaning(key, p, names))}<br><i>{rich(note)}</i>")

    def _headers(self, key, matrix):
        s = self.document.scenario
        p, tokens = s.projection, list(s.tokens)
        d, dh = p.x.shape[1], p.x.shape[1] // p.n_heads
        name = key.partition(":")[0]
        dims = [str(c) for c in range(d)]
        by_head = [f"h{c // dh}·{c % dh}" for c in range(d)]
        by_group = [f"g{c // dh}·{c % dh}" for c in range(p.w_k.shape[1])]
        columns = {"w_q": by_head, "w_k": by_group, "w_v": by_group, "q": by_head, "k": by_group, "v": by_group,
                   "concat": by_head, "kv": [f"k{c}" for c in range(dh)] + [f"v{c}" for c in range(dh)],
                   "scores": tokens, "scaled": tokens, "masked": tokens, "weights": tokens,
                   "q:": [str(c) for c in range(dh)], "heads": [str(c) for c in range(dh)],
                   "positions": [str(c) for c in range(matrix.shape[1])]}
        rows = by_head if name == "w_o" else dims if name.startswith("w_") else tokens
        column = columns.get("q:" if key.startswith("q:") else name, dims)
        return rows, column

    def show_residual(self):
        s, layer = self.document.scenario, self.document.result.layer
        p = s.projection
        d = p.x.shape[1]
        for k, box in enumerate(self.dims):
            if box.count() != d:
                with QSignalBlocker(box):
                    box.clear()
                    box.addItems([str(c) for c in range(d)])
                    box.setCurrentIndex(min(k, d - 1))
        dims = self.residual_dims()
        x, y, o = flows.residual(layer, self.document.query, dims)
        added = "X" if p.positions != "sinusoidal" else "X + P"
        names = (added, "Y′", f"O = {added} + Y′" if p.residual else "O = Y′")
        # The axes are dimensions of X (dimension numbers, not values): titled so.
        self.plane.set_vectors(x, y, o, names, tuple(tr("dim {0}").format(c) for c in dims))
        token = s.tokens[self.document.query]
        self.plane_caption.setText(rich(tr("O = X + Y′ for {0}: Y′ moves the token, X is kept").format(token)))

    def residual_dims(self) -> tuple[int, int]:
        return self.dims[0].currentIndex(), self.dims[1].currentIndex()
