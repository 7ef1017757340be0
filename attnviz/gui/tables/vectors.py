"""The q, k and v tables of the active head, each with what it means in the tutorial's words."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from ...core.explain import MINUS
from ..common.i18n import Retranslated, tr
from .model import VectorTableModel


def captions():
    return {
        "q": (tr("Query q"), tr("what this token is looking for")),
        "k": (tr("Key k"), tr("what this token offers")),
        "v": (tr("Value v"), tr("what this token passes on")),
    }


def widest_number(values) -> str:
    """A text at least as wide as fmt() writes any of `values`: the sign, the integer digits of
    the largest magnitude and three decimals (or the exponent form from 1e5 up)."""
    values = np.asarray(values)
    if values.size == 0:
        return "0"
    sign = MINUS if values.min() < 0 else ""
    largest = float(np.abs(values).max())
    if largest >= 1e5:
        return sign + "8.888e+88"
    return sign + "8" * len(str(int(largest))) + ".888"


class VectorTables(Retranslated, QWidget):
    """qTable, kTable and vTable stacked, sharing one row (token) selection."""

    tokenMenuRequested = Signal(int, object)  # token index, global position

    def __init__(self, document, report, parent=None):
        super().__init__(parent)
        self.document = document
        self.models, self.views, self.labels = {}, {}, {}
        splitter = QSplitter(Qt.Vertical)
        for matrix in "qkv":
            box = QWidget()
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 2, 0, 2)
            label = QLabel(objectName=f"{matrix}Caption")
            model = VectorTableModel(document, matrix, self)
            model.rejected.connect(report)
            view = QTableView(objectName=f"{matrix}Table")
            view.setModel(model)
            view.setSelectionBehavior(QAbstractItemView.SelectItems)
            view.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed
                                 | QAbstractItemView.AnyKeyPressed)
            view.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
            view.horizontalHeader().setMinimumSectionSize(44)
            view.verticalHeader().setContextMenuPolicy(Qt.CustomContextMenu)
            view.verticalHeader().customContextMenuRequested.connect(
                lambda pos, v=view: self._token_menu(v, pos))
            view.verticalHeader().sectionClicked.connect(lambda row: document.select(query=row))
            layout.addWidget(label)
            layout.addWidget(view)
            splitter.addWidget(box)
            self.models[matrix], self.views[matrix], self.labels[matrix] = model, view, label
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(splitter)
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self._fit_rows()
        self.refresh()

    def retranslate(self):
        self.refresh()  # the labels are written by refresh

    def changeEvent(self, event):
        if event.type() in (QEvent.FontChange, QEvent.ApplicationFontChange):
            self._fit_rows()
        super().changeEvent(event)

    def _fit_rows(self):
        """Row height from the font (zoom), set once: resizing to contents is slow for big tables."""
        for view in self.views.values():
            view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        self._widest = {}
        self._fit_columns()

    def _fit_columns(self):
        """No number is ever cut (a cut −3.49… would read as a thousand times the value): every
        column at least as wide as the widest number its matrix can show, worked out from its
        largest magnitude and sign, not by formatting every cell."""
        head = self.document.scenario.heads[self.document.active_head]
        for matrix, view in self.views.items():
            widest = widest_number(head.matrix(matrix))
            if self._widest.get(matrix) != widest:
                self._widest[matrix] = widest
                width = view.fontMetrics().horizontalAdvance(widest) + view.fontMetrics().height()
                view.horizontalHeader().setMinimumSectionSize(max(44, width))

    def _token_menu(self, view, pos):
        row = view.verticalHeader().logicalIndexAt(pos)
        if row >= 0:
            self.tokenMenuRequested.emit(row, view.verticalHeader().mapToGlobal(pos))

    def refresh(self):
        d = self.document
        self._fit_columns()
        head = d.scenario.heads[d.active_head]
        derived = d.scenario.projection is not None
        for matrix, (name, meaning) in captions().items():
            width = head.matrix(matrix).shape[1]
            suffix = (tr(" — this file holds the weights only, no q, k, v") if d.scenario.weights_only else
                      tr(" — derived from X, read-only") if derived else "")
            self.labels[matrix].setText(tr("{0} ({1} × {2}): {3}").format(f"<b>{name}</b>", d.scenario.n, width,
                                                                       meaning + suffix))
            self.labels[matrix].setToolTip(meaning)
            self.views[matrix].setAccessibleName(f"{name}: {meaning}")
            self.views[matrix].setToolTip(tr("Double-click a cell or start typing to change it; right-click "
                                             "a token to rename, insert or remove it"))
