"""The q, k and v tables of the active head, each with what it means in the tutorial's words."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from .table_model import VectorTableModel
from .i18n import tr


def captions():
    return {
        "q": (tr("Query q"), tr("what this token is looking for")),
        "k": (tr("Key k"), tr("what this token offers")),
        "v": (tr("Value v"), tr("what this token passes on")),
    }


class VectorTables(QWidget):
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

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:
            self.refresh()
        elif event.type() in (QEvent.FontChange, QEvent.ApplicationFontChange):
            self._fit_rows()
        super().changeEvent(event)

    def _fit_rows(self):
        """Row height from the font (zoom), set once: resizing to contents is slow for big tables."""
        for view in self.views.values():
            view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)

    def _token_menu(self, view, pos):
        row = view.verticalHeader().logicalIndexAt(pos)
        if row >= 0:
            self.tokenMenuRequested.emit(row, view.verticalHeader().mapToGlobal(pos))

    def refresh(self):
        d = self.document
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
