"""q and k as arrows in a plane: drag a tip and the weights move (seed 003 §4.1, seed 002).

Two dimensions of the active head (動物 × 食べ物 in seed-demo), or its first two
principal components. The selected query's q stands out (select another query to move
its q); each key's arrow is labelled with its dot product with that q and drawn
thicker the more weight it gets. Every
arrow is drawn by one pyqtgraph item (many items would be slow and, with some PySide6
versions, crash); dragging a tip edits those two components, one undo step per drag.

Arrows pointing the same way (それ's q along 食べ物, with the k of 魚 and of 食べた) are drawn side
by side, a few pixels apart, so none hides under another; each label is placed where it covers no
other label, no tip and no arrow. While a lesson's question hides the weights, a click on a key's
arrow or label is the class's guess (`guessed`), marked as the heatmap marks it.
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
GRAB_PIXELS = 12         # how near a tip a press must be to grab it (a shaft, to click its key)
LANE_GAP = 5             # px between arrows drawn side by side (those pointing the same way)
QUERY_COLOR = QColor(230, 120, 0)
KEY_COLOR = QColor(49, 104, 142)


class ArrowsItem(pg.GraphicsObject):
    """All arrows in one item. Emits tipDragged(kind, token, x, y, finished) while a tip moves, and
    keyClicked(token) when a key's arrow or label is clicked."""

    tipDragged = Signal(str, int, float, float, bool)
    keyClicked = Signal(int)

    def __init__(self):
        super().__init__()
        # kind, token, tip, colour, width, label, masked (a key the query may not see: dashed)
        self.arrows: list[tuple[str, int, np.ndarray, QColor, float, str, bool]] = []
        self.placed: list[QRectF] = []  # the labels' boxes at the last paint, in screen pixels
        self.drawn: list[tuple] = []    # (arrow, start, tip, label box or None) at the last paint, in pixels
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
        # Keys by weight, thin under thick, and the query's q always on top.
        ordered = sorted(self.arrows, key=lambda a: (a[0] == "q", a[4]))
        tips = [a[2] / pixel * (1, -1) for a in ordered]  # in screen pixels, y downwards, from the origin
        query = next((i for i, a in enumerate(ordered) if a[0] == "q"), None)
        starts = side_by_side(tips, [a[4] * self.thickness for a in ordered], query)
        for arrow, start, tip in zip(ordered, starts, tips):
            self._paint_arrow(p, arrow, start * (1, -1) * pixel, (start + tip) * (1, -1) * pixel, pixel)
        labelled = list(reversed(range(len(ordered))))  # the query's q, then the heaviest keys, choose first
        boxes = place_labels([(starts[i] + tips[i], ordered[i][5]) for i in labelled], self.font,
                             [(starts[i], starts[i] + tips[i]) for i in labelled])
        self.placed = [box for box in boxes if box is not None]
        self.drawn = [None] * len(ordered)
        for i, box in zip(labelled, boxes):
            self.drawn[i] = (ordered[i], starts[i], starts[i] + tips[i], box)
            if box is not None:
                self._paint_label(p, ordered[i], (starts[i] + tips[i]) * (1, -1) * pixel, box, pixel)

    def _paint_arrow(self, p: QPainter, arrow, start: np.ndarray, tip: np.ndarray, pixel: float) -> None:
        """One arrow from `start` to `tip` (data units), dashed when its key is masked."""
        _kind, _, _, color, width, _label, masked = arrow
        width *= self.thickness
        pen = QPen(color, width, Qt.DashLine if masked else Qt.SolidLine)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.drawLine(QPointF(*start), QPointF(*tip))
        p.setBrush(color)
        outline = QPen(color, self.thickness)  # the head solid even when its arrow is dashed
        outline.setCosmetic(True)
        p.setPen(outline)
        p.drawPath(_head(tip, pixel * (6 + width), tip - start))

    def _paint_label(self, p: QPainter, arrow, tip: np.ndarray, box: QRectF, pixel: float) -> None:
        """A label in its box (screen pixels), a leader line to its tip when it was moved away."""
        color, label = arrow[3], arrow[5]
        p.save()
        p.translate(QPointF(*tip))
        p.scale(pixel, -pixel)  # text upright and a constant size whatever the zoom
        box = box.translated(-tip[0] / pixel, tip[1] / pixel)  # from screen pixels to the tip's own
        if np.hypot(box.center().x(), box.center().y()) > box.width() / 2 + box.height():  # moved away: a leader
            leader = QPen(color.lighter(130), 1)
            leader.setCosmetic(True)
            p.setPen(leader)
            p.drawLine(QPointF(0, 0), _nearest_point(box, QPointF(0, 0)))
        p.setFont(self.font)
        p.setPen(color.darker(130))
        p.drawText(box, Qt.AlignCenter, label)
        p.restore()

    def nearest(self, pos: QPointF):
        """The arrow whose drawn tip is within GRAB_PIXELS of `pos` (data units), as (kind, token)."""
        pixel = self.pixelLength(pg.Point(1, 0)) or 0.01
        best, best_distance = None, GRAB_PIXELS * pixel
        for arrow, tip in self._drawn_tips(pixel):
            distance = float(np.hypot(tip[0] - pos.x(), tip[1] - pos.y()))
            if distance <= best_distance:
                best, best_distance = (arrow[0], arrow[1]), distance
        return best

    def _drawn_tips(self, pixel: float):
        """(arrow, its tip as drawn, in data units): beside another's, a few pixels off its own."""
        if len(self.drawn) != len(self.arrows) or None in self.drawn:
            return [(a, a[2]) for a in self.arrows]  # not painted yet
        return [(arrow, tip * (1, -1) * pixel) for arrow, _start, tip, _box in self.drawn]

    def key_at(self, pos: QPointF) -> int | None:
        """The key whose arrow (its shaft, tip or label) is under `pos` (data units), or None."""
        pixel = self.pixelLength(pg.Point(1, 0)) or 0.01
        point = np.array([pos.x(), -pos.y()]) / pixel  # in the paint's screen pixels
        near = []
        for arrow, start, tip, box in filter(None, self.drawn):
            if arrow[0] != "k":
                continue
            if box is not None and box.adjusted(-2, -2, 2, 2).contains(QPointF(*point)):
                return arrow[1]
            near.append((_distance_to_segment(point, start, tip), arrow[1]))
        distance, token = min(near, default=(np.inf, None))
        return token if distance <= GRAB_PIXELS else None

    def mouseClickEvent(self, ev):
        token = self.key_at(ev.pos()) if ev.button() == Qt.LeftButton else None
        if token is None:
            ev.ignore()
            return
        ev.accept()
        self.keyClicked.emit(token)

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


def place_labels(labels, font, arrows=()) -> list[QRectF | None]:
    """Boxes for labels at arrow tips, in screen pixels ((tip, text) each, the tip in pixels with
    y downwards), that overlap neither each other nor any tip, nor any arrow of `arrows` ((start, tip)
    each, in the same pixels) but their own (label i's is arrows[i]). The first labels choose first (the
    query's q, then the heaviest keys): beyond the tip along its arrow if that is free, else
    around it, then further out (drawn with a leader line); where nothing is free, clear of the other
    labels and tips at least. None for an empty text."""
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
        shafts = [a for j, a in enumerate(arrows) if j != i]
        candidates = list(_candidates(tip, w, h))
        box = next((b for b in candidates if _free(b, others, shafts)), None) or \
            next((b for b in candidates if _free(b, others)), None) or _below(placed, tip, w, h)
        placed.append(box)
        boxes.append(box)
    return boxes


def _free(box: QRectF, others: list[QRectF], shafts=()) -> bool:
    """Whether `box` overlaps none of `others` and crosses none of the arrows `shafts`."""
    return not any(box.intersects(o) for o in others) and not any(_crosses(box, *shaft) for shaft in shafts)


def _crosses(box: QRectF, start, end) -> bool:
    """Whether the segment from `start` to `end` passes through `box` (Liang–Barsky clipping)."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box.left()), (dx, box.right() - x0), (-dy, y0 - box.top()), (dy, box.bottom() - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        low, high = (max(low, t), high) if p < 0 else (low, min(high, t))
        if low > high:
            return False
    return True


def _distance_to_segment(point, start, end) -> float:
    """How far `point` is from the segment `start`–`end` (pixels)."""
    along = end - start
    t = float(np.clip(np.dot(point - start, along) / max(float(np.dot(along, along)), 1e-9), 0.0, 1.0))
    return float(np.hypot(*(start + t * along - point)))


def side_by_side(tips: list[np.ndarray], widths: list[float], first: int | None = None) -> list[np.ndarray]:
    """Where each arrow starts (pixels from the origin): arrows pointing the same way (one would lie on
    the other) are moved apart sideways, each a lane a little wider than their widest, so every one
    shows: arrow `first` (the query's q) where it is, the others beside it, the widest nearest; any
    other arrow starts at the origin."""
    starts = [np.zeros(2) for _ in tips]
    groups: list[list[int]] = []
    for i, tip in enumerate(tips):
        group = next((g for g in groups if _along(tips[g[0]], tip, widths[g[0]] + widths[i])), None)
        group.append(i) if group is not None else groups.append([i])
    for group in groups:
        if len(group) < 2:
            continue
        lane = max(widths[i] for i in group) + LANE_GAP
        direction = tips[max(group, key=lambda i: np.hypot(*tips[i]))]
        normal = np.array([-direction[1], direction[0]]) / (np.hypot(*direction) or 1.0)
        for k, i in enumerate(sorted(group, key=lambda i: (i != first, -widths[i]))):
            side = (k + 1) // 2 * (1 if k % 2 else -1)
            starts[i] = normal * side * lane
    return starts


def _along(a: np.ndarray, b: np.ndarray, width: float) -> bool:
    """Whether arrows from the origin to `a` and to `b` would lie on each other: the same way, the
    shorter's tip within `width` pixels of the longer's line."""
    long, short = (a, b) if np.hypot(*a) >= np.hypot(*b) else (b, a)
    size = np.hypot(*long)
    if not size or not np.any(short) or np.dot(long, short) <= 0:
        return False
    return abs(long[0] * short[1] - long[1] * short[0]) / size <= width


def _candidates(tip, w, h):
    """Boxes around the tip, nearest first: along the arrow, then turned by 45° steps, then
    the same further out."""
    direction = np.arctan2(tip[1], tip[0]) if np.any(tip) else 0.0
    for radius in (8, 24, 48, 80, 120):
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


def _head(tip: np.ndarray, size: float, along: np.ndarray | None = None) -> QPainterPath:
    """A small triangle at the tip, pointing `along` (away from the origin by default)."""
    along = tip if along is None else along
    direction = along / (np.hypot(*along) or 1.0)
    normal = np.array([-direction[1], direction[0]])
    base = tip - direction * size
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(*tip), QPointF(*(base + normal * size * 0.5)),
                               QPointF(*(base - normal * size * 0.5))]))
    return path


class GeometryView(Presenting, MathView):
    guessed = Signal(int)  # a lesson's question: a key's arrow or label clicked, the class's guess

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
        self.plot.hideButtons()  # pyqtgraph's small "A" under a hovering mouse: Fit does it, in words
        follow_palette(self.plot, self.palette())
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.addLine(x=0, pen=pg.mkPen((150, 150, 150)))
        self.plot.addLine(y=0, pen=pg.mkPen((150, 150, 150)))
        self.arrows = ArrowsItem()
        self.plot.addItem(self.arrows)
        self.arrows.tipDragged.connect(self._dragged)
        self.arrows.keyClicked.connect(self._clicked)
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
        empty = self._nothing_to_draw(s)
        if empty:
            self.note.setText(empty)
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
        hiding = self.asked is not None and self.asked.hides(d.active_head, i)
        arrows, at_origin = self._key_arrows(k2, hiding)
        arrows.append(("q", i, q2[i], QColor(QUERY_COLOR), 4.0, f"q {s.tokens[i]}", False))
        self.arrows.set_arrows(arrows, draggable)
        self.plot.setLabel("bottom", names[0])
        self.plot.setLabel("left", names[1])
        self.note.setText(self._note(s.tokens[i], draggable, hiding, at_origin))
        edited, self._seen = self._seen is not s, s  # an edit makes a new scenario; a new query does not
        if fit or (edited and self._drag_id is None and not self._all_in_view()):
            self.fit()  # after an edit moved a tip out of sight; not while dragged here, not on a new query

    def _nothing_to_draw(self, s) -> str:
        """Why there are no arrows to draw ("" when there are)."""
        if s.weights_only:
            return tr("This file holds the model's weights only: there are no q and k to draw.")
        if s.n > MAX_TOKENS:
            return tr("{0} tokens are too many arrows to read; the geometry view shows up to {1}.").format(
                s.n, MAX_TOKENS)
        return ""

    def _key_arrows(self, k2: np.ndarray, hiding: bool) -> tuple[list, list]:
        """(an arrow per group of keys at one point, split into those the query sees and those it may not;
        the tokens whose k sits at the origin)."""
        d = self.document
        s, i = d.scenario, d.query
        arrows, at_origin = [], []
        for tip, keys in _grouped(k2):  # keys at the same point share one arrow and one label
            if not np.any(tip):
                at_origin += [s.tokens[j] for j in keys]
                continue
            masked = d.result.heads[d.active_head].masked[i]
            for seen, group in ((True, [j for j in keys if not np.isneginf(masked[j])]),
                                (False, [j for j in keys if np.isneginf(masked[j])])):
                if group:  # keys the query sees and keys it may not: one arrow each, never one sum
                    arrows.append(self._key_arrow(group, tip, seen, hiding))
        return arrows, at_origin

    def _key_arrow(self, group: list, tip, seen: bool, hiding: bool) -> tuple:
        d = self.document
        s, i = d.scenario, d.query
        head, trace = s.heads[d.active_head], d.result.heads[d.active_head]
        dot = head.q[i] @ head.k[group[0]]  # the full q·k, over every dimension
        weight = float(sum(trace.weights[i, j] for j in group))
        who = tr(", ").join(s.tokens[j] for j in group)
        label = f"k {who}  q·k = {fmt(dot, 2, fixed=True)}" + (f"  w = {weight:.3f}" if seen else "")
        if hiding:  # a lesson's question: which k is nearest is the class's to see, not a label's
            label, weight = f"k {who}", 0.0
        color = QColor(KEY_COLOR) if seen else QColor(170, 170, 170)
        asked = self.asked
        if asked is not None and (asked.head, asked.row) == (d.active_head, i) and asked.guess in group:
            color, label = QColor(*asked.colour()), f"{label} {asked.mark()}".rstrip()  # as the heatmap marks it
        return ("k", group[0], tip, color, 1.0 + 5.0 * weight if seen else 1.0, label, not seen)

    def _note(self, query: str, draggable: bool, hiding: bool, at_origin: list) -> str:
        if hiding:
            note = tr("Every k is drawn as thin, with no weight, until the answer is shown: which k is closest "
                      "to q is for the class to see.")
        elif self.pca.isChecked():
            note = tr("PCA projection: the plane in which q and k vary most. To drag arrows, choose a plane of "
                      "two dimensions.")
        elif not draggable:
            note = tr("Here q and k are derived from X and the W matrices: change those in “The layer: X to O”. "
                      "The thicker a key's arrow, the more weight the query {0} gives it.").format(query)
        else:
            note = tr("Drag an arrow's tip to change q or k in these two dimensions; the thicker a key's arrow, "
                      "the more weight the query {0} gives it.").format(query)
        if at_origin:
            note += " " + tr("At the origin in this plane: {0}.").format(tr("“{0}”").format(tr("”, “").join(at_origin)))
        return note

    def fit(self):
        self.plot.getViewBox().autoRange(items=[self.arrows])

    def _clicked(self, token: int) -> None:
        """A key's arrow clicked: while a question hides this row's weights, the class's guess."""
        d = self.document
        if self.asked is not None and self.asked.hides(d.active_head, d.query):
            self.guessed.emit(token)

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
