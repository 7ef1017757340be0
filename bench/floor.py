"""The floor: the least program that shows what AttnViz's window shows after an edit.

A q table, one heatmap per head (one QImage of the cells, the values with drawText, the
token labels, hatched masked cells) and the selected query's step table, in plain PySide6
and numpy. An edit of one q cell recomputes only the edited head, marks only the edited
cell and the step table's changed rows, and repaints only the edited head's panel. It has
no undo, no autosave, no translation, no validation: nothing AttnViz could skip is in it,
so AttnViz's time over the floor's is the price of everything else.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QTableView, QVBoxLayout, QWidget

from attnviz.gui.look.colormaps import get as colormap

MINUS_INFINITY = "\u2212\u221e"
NO_PARENT = QModelIndex()  # the invalid index: a table's rows have no parent


def attention(q, k, v, temperature=1.0):
    n = q.shape[0]
    scores = q @ k.T / np.sqrt(q.shape[1]) / temperature
    scores = np.where(np.triu(np.ones((n, n), bool), 1), -np.inf, scores)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return scores, w, w @ v


def vector(v) -> str:
    """As AttnViz writes vectors: six numbers at most."""
    return "[" + ", ".join([f"{x:.3g}" for x in v[:6]] + ["…"] * (len(v) > 6)) + "]"


class QModel(QAbstractTableModel):
    def __init__(self, floor):
        super().__init__()
        self.floor = floor

    def rowCount(self, parent=NO_PARENT):
        return 0 if parent.isValid() else self.floor.q[0].shape[0]

    def columnCount(self, parent=NO_PARENT):
        return 0 if parent.isValid() else self.floor.q[0].shape[1]

    def data(self, index, role=Qt.DisplayRole):
        if role == Qt.DisplayRole:
            return f"{self.floor.q[0][index.row(), index.column()]:.3g}"
        return None

    def flags(self, index):
        return Qt.ItemIsSelectable | Qt.ItemIsEnabled | Qt.ItemIsEditable

    def setData(self, index, value, role=Qt.EditRole):
        self.floor.edit(index.row(), index.column(), float(value))
        self.dataChanged.emit(index, index)
        return True


class StepModel(QAbstractTableModel):
    """The same columns as AttnViz's step table: key, k, q·k written out, ÷√d_k, mask, eˣ and the
    weight on its colour, then Σ; the best key in bold."""

    HEADERS = ("key", "k", "1. score q·k", "2. ÷√d_k", "3. mask", "4. eˣ", "4. weight")

    def __init__(self, floor):
        super().__init__()
        self.floor = floor
        self.lut = colormap().lut
        self.bold = QFont()
        self.bold.setBold(True)
        self.rows = {}
        self.best = int(np.argmax(floor.weights[0][floor.query]))

    def rowCount(self, parent=NO_PARENT):
        return 0 if parent.isValid() else self.floor.n + 1

    def columnCount(self, parent=NO_PARENT):
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.DisplayRole):
        j, c = index.row(), index.column()
        if role == Qt.FontRole:
            return self.bold if j == self.floor.n or j == self.best else None
        if role == Qt.DisplayRole:
            return self.row(j)[0][c]
        if c == 6 and role == Qt.BackgroundRole:
            return self.row(j)[1]
        if c == 6 and role == Qt.ForegroundRole:
            return self.row(j)[2]
        return None

    def forget(self, rows):
        """After an edit: these rows are written out again when next shown."""
        self.best = int(np.argmax(self.floor.weights[0][self.floor.query]))
        for j in rows:
            self.rows.pop(int(j), None)
        self.rows.pop(self.floor.n, None)

    def row(self, j):
        """(texts, weight colour, text colour) of row j, written out once per change."""
        if j not in self.rows:
            self.rows[j] = self._written(j)
        return self.rows[j]

    def _written(self, j):
        f = self.floor
        i, w = f.query, f.weights[0][f.query]
        if j == f.n:
            total = np.exp(f.scores[0][i] - f.scores[0][i].max()).sum()
            return ("Σ", "", "", "", "", f"{total:.3g}", "1.000"), None, None
        q, k, score = f.q[0][i], f.k[0][j], f.scores[0][i, j]
        hidden = j > i
        texts = (f.tokens[j], vector(k),
                 " + ".join([f"{a:.3g}×{b:.3g}" for a, b in zip(q[:3], k[:3])] + ["…"] * (len(q) > 4))
                 + f" = {q @ k:.3g}",
                 f"{q @ k / np.sqrt(len(q)):.3g}", MINUS_INFINITY if hidden else "0",
                 "0" if hidden else f"{np.exp(score - f.scores[0][i].max()):.3g}", f"{w[j]:.3f}")
        r, g, b = self.lut[int(round(w[j] * 255))]
        light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 115
        return texts, QColor(int(r), int(g), int(b)), QColor(0, 0, 0) if light else QColor(255, 255, 255)


class Panel(QWidget):
    def __init__(self, floor, head):
        super().__init__()
        self.floor, self.head = floor, head
        self.lut = colormap().lut

    def paintEvent(self, event):
        f = self.floor
        w, n = f.weights[self.head], f.n
        side = min(self.width() - 60, self.height() - 30) / n
        p = QPainter(self)
        grid = QRectF(60, 30, side * n, side * n)
        rgb = self.lut[np.clip(np.rint(w * 255), 0, 255).astype(np.intp)].astype(np.uint32)
        argb = np.ascontiguousarray((0xFF << 24) | (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2])
        p.drawImage(grid, QImage(argb.data, n, n, 4 * n, QImage.Format_ARGB32))
        hidden = np.triu(np.ones((n, n), bool), 1)
        if side >= 6:
            path = QPainterPath()
            for i in range(n):
                path.addRect(QRectF(grid.left() + (i + 1) * side, grid.top() + i * side, (n - i - 1) * side, side))
            p.fillPath(path, QColor(240, 233, 222))
            p.setPen(QPen(QColor(160, 148, 134), 1))
            for c in range(0, int(grid.width() * 2), 8):
                p.drawLine(grid.left() + c, grid.top(), grid.left() + c - grid.height(), grid.bottom())
        if side >= 20:
            light = (rgb @ np.array([0.2126, 0.7152, 0.0722]) / 255) > 0.45
            for i in range(n):
                for j in range(n):
                    p.setPen(QColor(0, 0, 0) if light[i, j] or hidden[i, j] else QColor(255, 255, 255))
                    p.drawText(QRectF(grid.left() + j * side, grid.top() + i * side, side, side), Qt.AlignCenter,
                               MINUS_INFINITY if hidden[i, j] else f"{w[i, j]:.2f}")
        step = max(1, int(12 / side))
        for i in range(0, n, step):
            p.drawText(QRectF(0, grid.top() + i * side, 56, side), Qt.AlignRight | Qt.AlignVCenter, f.tokens[i])
            p.drawText(QRectF(grid.left() + i * side, 0, side, 28), Qt.AlignCenter, f.tokens[i])
        p.end()


class Floor(QWidget):
    def __init__(self, scenario):
        super().__init__()
        self.tokens = list(scenario.tokens)
        self.n = len(self.tokens)
        self.query = self.n - 1
        self.temperature = 1.0
        self.q = [np.array(h.q) for h in scenario.heads]
        self.k = [np.array(h.k) for h in scenario.heads]
        self.v = [np.array(h.v) for h in scenario.heads]
        self.scores, self.weights, self.outputs = zip(*(attention(q, k, v) for q, k, v in zip(self.q, self.k, self.v)))
        self.scores, self.weights, self.outputs = list(self.scores), list(self.weights), list(self.outputs)
        self.table = QTableView()
        self.q_model = QModel(self)
        self.table.setModel(self.q_model)
        self.steps = QTableView()
        self.step_model = StepModel(self)
        self.steps.setModel(self.step_model)
        self.panels = [Panel(self, h) for h in range(len(self.q))]
        grid = QGridLayout()
        columns = int(np.ceil(np.sqrt(len(self.panels))))
        for h, panel in enumerate(self.panels):
            grid.addWidget(panel, h // columns, h % columns)
        self.title, self.output = QLabel(), QLabel()
        for label, lines in ((self.title, 2), (self.output, 3)):
            label.setWordWrap(True)
            label.setAutoFillBackground(True)
            label.setFixedHeight(label.fontMetrics().height() * lines + 4)  # a new text never moves the table
        column = QVBoxLayout()  # as AttnViz's window: the heads above, the step table under them
        column.addLayout(grid, 3)
        for widget, stretch in ((self.title, 0), (self.steps, 2), (self.output, 0)):
            column.addWidget(widget, stretch)
        self.show_query()
        layout = QHBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(column, 4)

    def edit(self, row, col, value):
        """One q cell of head 0: head 0 recomputed, its panel and the step table's changed rows marked."""
        before = self.weights[0][self.query].copy()
        self.q[0][row, col] = value
        self.scores[0], self.weights[0], self.outputs[0] = attention(self.q[0], self.k[0], self.v[0],
                                                                     self.temperature)
        self.panels[0].update()
        changed = np.arange(self.n) if row == self.query else np.flatnonzero(self.weights[0][self.query] != before)
        self.show_query()
        self.step_model.forget(changed)
        if changed.size:
            top, bottom = int(changed.min()), int(changed.max())
            self.step_model.dataChanged.emit(self.step_model.index(top, 0), self.step_model.index(bottom, 6))
        self.step_model.dataChanged.emit(self.step_model.index(self.n, 0), self.step_model.index(self.n, 6))

    def set_query(self, i):
        self.query = i
        self.show_query()
        self.step_model.forget(range(self.n))
        self.step_model.dataChanged.emit(self.step_model.index(0, 0), self.step_model.index(self.n, 6))

    def show_query(self):
        """The step table's title (the query's q) and its output line (the largest terms, the vector)."""
        i, w = self.query, self.weights[0][self.query]
        self.title.setText(f"<b>Query {self.tokens[i]} in head 0: q = {vector(self.q[0][i])}</b>")
        terms = " + ".join(f"{w[j]:.3f}×{vector(self.v[0][j])}" for j in np.argsort(-w)[:3])
        self.output.setText(f"5. output of {self.tokens[i]} = {terms} + …\n= {vector(self.outputs[0][i])}")

    def set_temperature(self, temperature):
        """A slider step: every head recomputed, every panel and the whole step table repainted."""
        self.temperature = temperature
        for h in range(len(self.q)):
            self.scores[h], self.weights[h], self.outputs[h] = attention(self.q[h], self.k[h], self.v[h], temperature)
            self.panels[h].update()
        self.show_query()
        self.step_model.forget(range(self.n))
        self.step_model.dataChanged.emit(self.step_model.index(0, 0), self.step_model.index(self.n, 6))
