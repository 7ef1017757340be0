"""q and k as arrows in a plane: drag a tip and the weights move (seed 003 §4.1, seed 002).

Two dimensions of the active head (動物 × 食べ物 in seed-demo), or its first two
principal components. The selected query's q stands out (select another query to move
its q); each key's arrow is labelled with its dot product with that q and drawn
thicker the more weight it gets. Every
arrow is drawn by one pyqtgraph item (many items would be slow and, with some PySide6
versions, crash); dragging a tip edits those two components, one undo step per drag.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from ...core.explain import fmt
from ..common.i18n import tr
from ..common.lazy import MathView
from ..common.markup import MathLabel
from ..look.fonts import figure_font, figure_font_like
from ..state.commands import SetRow, new_drag_id
from .sizing import Presenting, pixels, style_plot

MAX_TOKENS = 64          # beyond this, arrows are a hairball: the view says so instead
GRAB_PIXELS = 12         # how near a tip a press must be to grab it
QUERY_COLOR = QColor(230, 120, 0)
KEY_COLOR = QColor(49, 104, 142)


class ArrowsItem(pg.GraphicsObject):
    """All arrows in one item. Emits tipDragged(kind, token, x, y, finished) while a tip moves."""

    tipDragged = Signal(str, int, float, float, bool)

    def __init__(self):
        super().__init__()
        # kind, token, tip, colour, width, label, masked (a key the query may not see: dashed)
        self.arrows: list[tuple[str, int, np.ndarray, QColor, float, str, bool]] = []
        self.placed: list[QRectF] = []  # the labels' boxes at the last paint, in screen pixels
        self.draggable = True
        self._grabbed = None
        self._bounds = QRectF(-1, -1, 2, 2)
        self.font = figure_font()  # the view's type: the application's, or presentation-sized
        self.thickness = 1.0       # lines and heads, thicker with larger type (a projector's)

    def set_arrows(self, arrows, draggable: bool):
        self.prepareGeometryChange()
        self.arrows, self.draggable = arrows, draggable
        tips = np.array([a[2] for a in arrows] + [[0.0, 0.0]])
        low, high = tips.min(axis=0), tips.max(axis=0)
        pad = max(float((high - low).max()) * 0.15, 0.5)
        self._bounds = QRectF(low[0] - pad, low[1] - pad, high[0] - low[0] + 2 * pad, high[1] - low[1] + 2 * pad)
        self.update()

    def boundingRect(self):
        return self._bounds

    def paint(self, p: QPainter, *args):
        p.setRenderHint(QPainter.Antialiasing)
        pixel = self.pixelLength(pg.Point(1, 0)) or 0.01  # data units per screen pixel
        font = self.font
        # Keys by weight, thin under thick, and the query's q always on top.
        ordered = sorted(self.arrows, key=lambda a: (a[0] == "q", a[4]))
        for _kind, _, tip, color, width, _label, masked in ordered:
            width *= self.thickness
            pen = QPen(color, width, Qt.DashLine if masked else Qt.SolidLine)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.drawLine(QPointF(0, 0), QPointF(*tip))
            p.setBrush(color)
            outline = QPen(color, self.thickness)  # the head solid even when its arrow is dashed
            outline.setCosmetic(True)
            p.setPen(outline)
            p.drawPath(_head(tip, pixel * (6 + width)))
        boxes = place_labels([(a[2] / pixel * (1, -1), a[5]) for a in reversed(ordered)], font)
        self.placed = [box for box in boxes if box is not None]
        for (_kind, _, tip, color, _width, label, _masked), box in zip(reversed(ordered), boxes):
            if box is None:
                continue
            p.save()
            p.translate(QPointF(*tip))
            p.scale(pixel, -pixel)  # text upright and a constant size whatever the zoom
            box = box.translated(-tip[0] / pixel, tip[1] / pixel)  # from screen pixels to the tip's own
            if np.hypot(box.center().x(), box.center().y()) > box.width() / 2 + box.height():  # moved away: a leader
                leader = QPen(color.lighter(130), 1)
                leader.setCosmetic(True)
                p.setPen(leader)
                p.drawLine(QPointF(0, 0), _nearest_point(box, QPointF(0, 0)))
            p.setFont(font)
            p.setPen(color.darker(130))
            p.drawText(box, Qt.AlignCenter, label)
            p.restore()

    def nearest(self, pos: QPointF):
        pixel = self.pixelLength(pg.Point(1, 0)) or 0.01
        best, best_distance = None, GRAB_PIXELS * pixel
        for kind, token, tip, *_ in self.arrows:
            distance = float(np.hypot(tip[0] - pos.x(), tip[1] - pos.y()))
            if distance <= best_distance:
                best, best_distance = (kind, token), distance
        return best

    def mouseDragEvent(self, ev):
        if ev.button() != Qt.LeftButton or not self.draggable:
            ev.ignore()
            return
        if ev.isStart():
            self._grabbed = self.nearest(ev.buttonDownPos())
            if self._grabbed is None:
                ev.ignore()  # not on a tip: let the view pan
                return
        if self._grabbed is None:
            ev.ignore()
            return
        ev.accept()
        pos = ev.pos()
        self.tipDragged.emit(self._grabbed[0], self._grabbed[1], pos.x(), pos.y(), ev.isFinish())
        if ev.isFinish():
            self._grabbed = None


def quiet_plot(pg):
    """A PlotWidget without pyqtgraph's own right-click menus: they are English only and
    their exporter fails with recent PySide6 (File → Export image does it properly)."""
    plot = pg.PlotWidget()
    plot.setMenuEnabled(False)
    for action in plot.scene().contextMenu:
        action.setParent(None)  # gone, not merely hidden
    plot.scene().contextMenu = []
    return plot


def follow_palette(plot, palette) -> None:
    """The window's light or dark look on a pyqtgraph plot, not pyqtgraph's black."""
    plot.setBackground(palette.base().color())
    for axis in ("left", "bottom"):
        plot.getAxis(axis).setTextPen(palette.text().color())


def place_labels(labels, font) -> list[QRectF | None]:
    """Boxes for labels at arrow tips, in screen pixels ((tip, text) each, the tip in pixels with
    y downwards), that overlap neither each other nor any tip. The first labels choose first (the
    query's q, then the heaviest keys): beyond the tip along its arrow if that is free, else
    around it, then further out (drawn with a leader line). None for an empty text."""
    fm = QFontMetricsF(font)
    placed: list[QRectF] = []
    tips = [QRectF(t[0] - 4, t[1] - 4, 8, 8) for t, _ in labels]
    boxes = []
    for i, (tip, text) in enumerate(labels):
        if not text:
            boxes.append(None)
            continue
        w, h = fm.horizontalAdvance(text) + 6, fm.height()
        others = placed + tips[:i] + tips[i + 1:]  # its own tip may touch it: the label belongs there
        box = next((b for b in _candidates(tip, w, h) if not any(b.intersects(o) for o in others)), None)
        box = box if box is not None else _below(placed, tip, w, h)
        placed.append(box)
        boxes.append(box)
    return boxes


def _candidates(tip, w, h):
    """Boxes around the tip, nearest first: along the arrow, then turned by 45° steps, then
    the same further out."""
    direction = np.arctan2(tip[1], tip[0]) if np.any(tip) else 0.0
    for radius in (8, 24, 48, 80):
        for turn in (0, 1, -1, 2, -2, 3, -3, 4):
            angle = direction + turn * np.pi / 4
            dx, dy = np.cos(angle), np.sin(angle)
            cx = tip[0] + dx * (w / 2 + radius)
            cy = tip[1] + dy * (h / 2 + radius)
            yield QRectF(cx - w / 2, cy - h / 2, w, h)


def _below(placed, tip, w, h) -> QRectF:
    """Below everything placed so far: never on top of another label."""
    bottom = max((b.bottom() for b in placed), default=tip[1])
    return QRectF(tip[0] - w / 2, bottom + 2, w, h)


def _nearest_point(box: QRectF, point: QPointF) -> QPointF:
    return QPointF(min(max(point.x(), box.left()), box.right()), min(max(point.y(), box.top()), box.bottom()))


def _snap(value: float) -> float:
    """Dragged values land on tenths: q = [2, 0] reads as 2 and 0, and q·k as a round 6."""
    return round(round(value * 10) / 10, 1)


def _grouped(points: np.ndarray):
    """(point, [indices]) for each distinct point, in order of first appearance."""
    groups: dict[tuple, list[int]] = {}
    for j, point in enumerate(points):
        groups.setdefault((round(float(point[0]), 9), round(float(point[1]), 9)), []).append(j)
    return [(points[js[0]], js) for js in groups.values()]


def _head(tip: np.ndarray, size: float) -> QPainterPath:
    """A small triangle at the tip, pointing away from the origin."""
    direction = tip / (np.hypot(*tip) or 1.0)
    normal = np.array([-direction[1], direction[0]])
    base = tip - direction * size
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(*tip), QPointF(*(base + normal * size * 0.5)),
                               QPointF(*(base - normal * size * 0.5))]))
    return path


class GeometryView(Presenting, MathView):
    def __init__(self, document, report, parent=None):
        super().__init__(document, parent)
        self.setObjectName("geometryView")
        self.report = report
        self.x_dim, self.y_dim = QComboBox(objectName="geometryX"), QComboBox(objectName="geometryY")
        self.pca = QCheckBox(objectName="geometryPca")
        self.axes_name = QLabel()
        self.note = MathLabel(objectName="geometryNote")
        self.plot = quiet_plot(pg)
        self.plot.setAspectLocked(True)
        follow_palette(self.plot, self.palette())
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.addLine(x=0, pen=pg.mkPen((150, 150, 150)))
        self.plot.addLine(y=0, pen=pg.mkPen((150, 150, 150)))
        self.arrows = ArrowsItem()
        self.plot.addItem(self.arrows)
        self.arrows.tipDragged.connect(self._dragged)
        self._drag_id = None
        self._seen = None  # the scenario at the last refresh: refit after edits, keep a zoom on a new query
        self.asked = None  # a lesson's question (common/asked.py): no weights shown until revealed
        for axis in ("left", "bottom"):  # plain numbers: no "(×0.001)" the class has to decode
            self.plot.getAxis(axis).enableAutoSIPrefix(False)
        self.fit_button = QPushButton(objectName="geometryFit")
        self.fit_button.clicked.connect(self.fit)
        controls = QHBoxLayout()
        for widget in (self.axes_name, self.x_dim, self.y_dim, self.pca, self.fit_button):
            controls.addWidget(widget)
        for box in (self.x_dim, self.y_dim):
            box.setSizeAdjustPolicy(QComboBox.AdjustToContents)  # a dimension's name is never cut
        controls.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(self.note)
        layout.addWidget(self.plot, 1)
        for box in (self.x_dim, self.y_dim):
            box.activated.connect(lambda _: self.refresh(fit=True))
        self.pca.toggled.connect(lambda _: self.refresh(fit=True))
        document.replaced.connect(lambda: self._fill_dims(reset=True))
        self.retranslate()
        self._fill_dims(reset=True)

    def set_asked(self, asked) -> None:
        self.asked = asked
        self.refresh()

    def retranslate(self):
        self.axes_name.setText(tr("Plane:"))
        self.pca.setText(tr("PCA projection"))
        self.fit_button.setText(tr("Fit"))
        self.fit_button.setToolTip(tr("Show every arrow"))
        self.pca.setToolTip(tr("Show the two directions along which the q and k vectors vary most "
                               "(principal components) instead of two dimensions"))
        self.plot.setToolTip(tr("Drag the tip of an arrow to change those two components of that q or k"))

    def changeEvent(self, event):
        if event.type() == QEvent.PaletteChange:
            follow_palette(self.plot, self.palette())
        super().changeEvent(event)

    def _fill_dims(self, reset=False):
        head = self.document.scenario.heads[self.document.active_head]
        labels = list(head.dim_labels("q"))
        for box, default in ((self.x_dim, 0), (self.y_dim, min(1, len(labels) - 1))):
            current = box.currentIndex()
            box.clear()
            box.addItems(labels)
            box.setCurrentIndex(default if reset or not 0 <= current < len(labels) else current)
        self.refresh(fit=True)

    # ------------------------------------------------------------- drawing

    def plane(self):
        """(q, k projected to 2-D [n, 2] each, axis names, draggable)."""
        head = self.document.scenario.heads[self.document.active_head]
        if self.pca.isChecked() and head.d_k > 2:
            both = np.vstack([head.q, head.k])                  # [2n, d_k]
            centred = both - both.mean(axis=0)
            _, _, vt = np.linalg.svd(centred, full_matrices=False)
            basis = vt[:2].T                                     # [d_k, 2]
            return head.q @ basis, head.k @ basis, (tr("PC 1"), tr("PC 2")), False
        x, y = self.x_dim.currentIndex(), self.y_dim.currentIndex()
        labels = head.dim_labels("q")
        return head.q[:, [x, y]], head.k[:, [x, y]], (labels[x], labels[y]), \
            self.document.scenario.projection is None

    def refresh(self, fit=False):
        self._stale = False
        d = self.document
        s, i = d.scenario, d.query
        if s.weights_only:
            self.note.setText(tr("This file holds the model's weights only: there are no q and k to draw."))
            self.arrows.set_arrows([], False)
            return
        if s.n > MAX_TOKENS:
            self.note.setText(tr("{0} tokens are too many arrows to read; the geometry view shows up to {1}.")
                              .format(s.n, MAX_TOKENS))
            self.arrows.set_arrows([], False)
            return
        labels = list(s.heads[d.active_head].dim_labels("q"))
        if [self.x_dim.itemText(c) for c in range(self.x_dim.count())] != labels:
            self._fill_dims(reset=True)  # another head: its own dimensions
            return
        q2, k2, names, draggable = self.plane()
        self.arrows.font = figure_font_like(self.font())
        self.arrows.thickness = max(1.0, pixels(self.font()) / 16)
        style_plot(self.plot, self.font())
        head, trace = s.heads[d.active_head], d.result.heads[d.active_head]
        dots = head.q[i] @ head.k.T  # the full q·k, over every dimension
        hiding = self.asked is not None and self.asked.hides(d.active_head, i)
        arrows, at_origin = [], []
        for tip, keys in _grouped(k2):  # keys at the same point share one arrow and one label
            if not np.any(tip):
                at_origin += [s.tokens[j] for j in keys]
                continue
            for seen, group in ((True, [j for j in keys if not np.isneginf(trace.masked[i, j])]),
                                (False, [j for j in keys if np.isneginf(trace.masked[i, j])])):
                if not group:
                    continue  # keys the query sees and keys it may not: one arrow each, never one sum
                weight = float(sum(trace.weights[i, j] for j in group))
                who = tr(", ").join(s.tokens[j] for j in group)
                label = f"k {who}  q·k = {fmt(dots[group[0]], 2, fixed=True)}" + (f"  w = {weight:.3f}" if seen else "")
                if hiding:  # a lesson's question: which k is nearest is the class's to see, not a label's
                    label, weight = f"k {who}", 0.0
                color = QColor(KEY_COLOR) if seen else QColor(170, 170, 170)
                arrows.append(("k", group[0], tip, color, 1.0 + 5.0 * weight if seen else 1.0, label, not seen))
        arrows.append(("q", i, q2[i], QColor(QUERY_COLOR), 4.0, f"q {s.tokens[i]}", False))
        self.arrows.set_arrows(arrows, draggable)
        self.plot.setLabel("bottom", names[0])
        self.plot.setLabel("left", names[1])
        if self.pca.isChecked():
            note = tr("PCA projection: the plane in which q and k vary most. To drag arrows, choose a plane of "
                      "two dimensions.")
        elif not draggable:
            note = tr("Here q and k are derived from X and the W matrices: change those in “The layer: X to O”. "
                      "The thicker a key's arrow, the more weight the query {0} gives it.").format(s.tokens[i])
        else:
            note = tr("Drag an arrow's tip to change q or k in these two dimensions; the thicker a key's arrow, "
                      "the more weight the query {0} gives it.").format(s.tokens[i])
        if hiding:
            note = tr("Every k is drawn as thin, with no weight, until the answer is shown: which k is closest "
                      "to q is for the class to see.")
        if at_origin:
            note += " " + tr("At the origin in this plane: {0}.").format(tr("“{0}”").format(tr("”, “").join(at_origin)))
        self.note.setText(note)
        edited, self._seen = self._seen is not s, s  # an edit makes a new scenario; a new query does not
        if fit or (edited and self._drag_id is None and not self._all_in_view()):
            self.fit()  # after an edit moved a tip out of sight; not while dragged here, not on a new query

    def fit(self):
        self.plot.getViewBox().autoRange(items=[self.arrows])

    def _all_in_view(self) -> bool:
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        return all(x0 <= a[2][0] <= x1 and y0 <= a[2][1] <= y1 for a in self.arrows.arrows)

    # ------------------------------------------------------------- dragging

    def _dragged(self, kind: str, token: int, x: float, y: float, finished: bool):
        d = self.document
        if self._drag_id is None:
            self._drag_id = new_drag_id()
        current = d.scenario.heads[d.active_head].matrix(kind)[token]
        row = np.array(current)
        row[[self.x_dim.currentIndex(), self.y_dim.currentIndex()]] = [_snap(x), _snap(y)]
        if not np.array_equal(row, current):
            d.attempt(lambda: SetRow(d, d.active_head, kind, token, row, self._drag_id), self.report)
        if finished:
            self._drag_id = None
