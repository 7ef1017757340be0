"""The whole layer of seed 002, stage by stage, with shapes: X → Q, K, V → heads → weights →
Y_i → concat → W_o → O = X + Y'. Click a stage to see its matrix; X and the W matrices
can be edited there (in projection scenarios the q, k, v tables are derived)."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...core.attention import POSITIONS, merge_heads
from ...core.explain import decimals_for, fmt
from ...core.numbers import parse_number
from ...core.scenario import PROJECTION_MATRICES as EDITABLE
from ..common.i18n import Retranslated, tr
from ..common.markup import rich
from ..state.commands import SetProjectionCell, SetProjectionOptions


def stages(scenario, result, head: int):
    """[(key, title, matrix, row labels, column labels)] of the layer as it is now."""
    p, layer = scenario.projection, result.layer
    n, d = p.x.shape
    h, d_head = p.n_heads, d // p.n_heads
    tokens = list(scenario.tokens)
    dims = [str(c) for c in range(d)]
    by_head = [f"h{c // d_head}·{c % d_head}" for c in range(d)]
    kv_cols = [f"g{c // d_head}·{c % d_head}" for c in range(p.w_k.shape[1])]
    trace = layer.heads
    out = [("x", tr("X: the input ({0} × {1})").format(n, d), p.x, tokens, dims)]
    if p.positions == "sinusoidal":
        out.append(("stream", tr("X + positions ({0} × {1})").format(n, d), layer.x, tokens, dims))
    if p.layer_norm:
        out.append(("normed", tr("LayerNorm(X) ({0} × {1})").format(n, d), layer.normed, tokens, dims))
    for key, name in (("w_q", "W_q"), ("w_k", "Wₖ"), ("w_v", "Wᵥ")):  # Unicode has no subscript q
        m = getattr(p, key)
        out.append((key, f"{name} ({m.shape[0]} × {m.shape[1]})", m, dims, by_head if key == "w_q" else kv_cols))
    for key, name in (("q", "Q"), ("k", "K"), ("v", "V")):
        merged = merge_heads(getattr(layer, key))  # [h, n, d_head] -> [n, h · d_head]
        out.append((key, tr("{0}: split into {1} heads of {2} × {3}").format(name, h, n, d_head), merged,
                    tokens, by_head))
    out += [
        ("scores", tr("scores Q_i K_iᵀ / √d_k of head {0} ({1} × {1}; {2} heads)").format(head, n, h),
         trace.scaled[head], tokens, tokens),
        ("weights", tr("weights softmax of head {0} ({1} × {1}; {2} heads)").format(head, n, h),
         trace.weights[head], tokens, tokens),
        ("heads", tr("Y_i = weights V_i of head {0} ({1} × {2}; {3} heads)").format(head, n, d_head, h),
         trace.output[head], tokens, [str(c) for c in range(d_head)]),
        ("concat", tr("Y = concat(Y_0, …) ({0} × {1})").format(n, d), layer.concat, tokens, by_head),
        ("w_o", f"Wₒ ({d} × {d})", p.w_o, by_head, dims),
        ("projected", tr("Y' = Y W_o ({0} × {1})").format(n, d), layer.projected, tokens, dims),
        ("output", (tr("O = X + Y' ({0} × {1})") if p.residual else tr("O = Y' ({0} × {1})")).format(n, d),
         layer.output, tokens, dims),
    ]
    return out


class StageModel(QAbstractTableModel):
    """The matrix of one stage; cells of X and the W matrices are editable."""

    rejected = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.key, self.matrix, self.rows, self.columns = "x", np.zeros((0, 0)), [], []
        self.decimals = 0

    def show(self, key, matrix, rows, columns):
        self.beginResetModel()
        self.key, self.matrix, self.rows, self.columns = key, matrix, rows, columns
        self.decimals = decimals_for(matrix)  # one format per stage's table
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else self.matrix.shape[0]

    def columnCount(self, parent=QModelIndex()):
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

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role != Qt.DisplayRole:
            return None
        labels = self.rows if orientation == Qt.Vertical else self.columns
        return labels[section] if section < len(labels) else None

    def flags(self, index):
        base = Qt.ItemIsSelectable | Qt.ItemIsEnabled
        return base | Qt.ItemIsEditable if self.key in EDITABLE else base

    def setData(self, index, value, role=Qt.EditRole):
        if role != Qt.EditRole or self.key not in EDITABLE:
            return False
        d = self.document
        return d.attempt(lambda: SetProjectionCell(d, self.key, index.row(), index.column(), parse_number(value)),
                         self.rejected.emit)


class PipelineView(Retranslated, QWidget):
    def __init__(self, document, report, parent=None):
        super().__init__(parent)
        self.setObjectName("pipelineView")
        self.document = document
        self.report = report
        self.layer_norm = QCheckBox(objectName="layerNormToggle")
        self.positions_name = QLabel()
        self.positions = QComboBox(objectName="positionsSelector")
        self.positions.addItems([""] * len(POSITIONS))
        self.groups_name = QLabel()
        self.groups = QSpinBox(objectName="kvGroups")
        self.stage_list = QListWidget(objectName="pipelineStages")
        self.caption = QLabel(objectName="pipelineCaption", wordWrap=True, textFormat=Qt.RichText)
        self.model = StageModel(document, self)
        self.model.rejected.connect(report)
        self.table = QTableView(objectName="pipelineMatrix")
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self._build_layout()
        self.layer_norm.toggled.connect(lambda on: self._options(tr("LayerNorm"), layer_norm=on))
        self.positions.activated.connect(lambda i: self._options(tr("Positions"), positions=POSITIONS[i]))
        self.groups.valueChanged.connect(lambda g: self._options(tr("K/V groups"), n_kv_heads=g))
        self.stage_list.currentRowChanged.connect(lambda _: self.show_stage())
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.retranslate()

    def _build_layout(self):
        controls = QHBoxLayout()
        for widget in (self.layer_norm, self.positions_name, self.positions, self.groups_name, self.groups):
            controls.addWidget(widget)
        controls.addStretch(1)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.caption)
        column.addWidget(self.table, 1)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.stage_list)
        split.addWidget(right)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(split, 1)

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
        self.stage_list.setToolTip(tr("Every stage of the layer with its shape: click one to see its matrix"))
        self.refresh()  # the stages' names and captions are texts too

    def _options(self, text, **changes):
        d = self.document
        if not d.attempt(lambda: SetProjectionOptions(d, text, **changes), self.report):
            self.refresh()

    def refresh(self):
        p = self.document.scenario.projection
        if p is None:
            return
        with QSignalBlocker(self.layer_norm), QSignalBlocker(self.positions), QSignalBlocker(self.groups):
            self.layer_norm.setChecked(p.layer_norm)
            self.positions.setCurrentIndex(POSITIONS.index(p.positions))
            self.groups.setRange(1, p.n_heads)
            self.groups.setValue(p.kv_heads)
        current = self.current_key()
        self._stages = stages(self.document.scenario, self.document.result, self.document.active_head)
        with QSignalBlocker(self.stage_list):
            self.stage_list.clear()
            self.stage_list.addItems([title for _, title, *_ in self._stages])
            keys = [key for key, *_ in self._stages]
            self.stage_list.setCurrentRow(keys.index(current) if current in keys else 0)
        self.show_stage()

    def current_key(self):
        row = self.stage_list.currentRow()
        return self._stages[row][0] if getattr(self, "_stages", None) and 0 <= row < len(self._stages) else "x"

    def select(self, key: str):
        keys = [k for k, *_ in self._stages]
        self.stage_list.setCurrentRow(keys.index(key))

    def show_stage(self):
        row = max(0, self.stage_list.currentRow())
        key, title, matrix, rows, columns = self._stages[row]
        self.model.show(key, matrix, rows, columns)
        note = tr("edit the numbers: everything after it follows") if key in EDITABLE else tr("computed")
        self.caption.setText(f"<b>{rich(title)}</b> — {rich(note)}")
