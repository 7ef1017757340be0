"""LayerDiagram: the layer from X to O (core/layer.flow) drawn as boxes and arrows with QPainter,
every box with its shape; the guided step's boxes lit, a click on a box picks it.

The drawing fills the widget: the font is the largest that lets every box's text fit (never more
than `most` pixels), and the flow runs left to right when that gives larger type, else top to
bottom (the desk's dock is tall and narrow, a projector wide).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..common.markup import pieces, unmarked

LIT = QColor("#ffc83d")       # the guided step's boxes: amber, as the formula's lit part
LIT_TEXT = QColor("#1a1a1a")
RESIDUAL = QColor("#2e8b57")  # the skip connection, green as O in the residual plane
TURN = QColor("#8e44ad")      # RoPE's angles to the q and k they rotate
# A box's texts, from the richest: the first five with the shape in numbers and in the seed's
# letters ("mixed": the column of most boxes, GQA's heads and groups, "paired", the others
# "detailed"); the last two, numbers only, for the desk's narrow dock when letters make the type tiny.
MODES = ("detailed", "mixed", "paired", "joined", "one", "numbers", "brief")
LETTERED = MODES[:5]
TURNED = "↻"  # a q or k that RoPE turns
WIDE = 1.5     # the gap before the heads' split is this many gaps wider: Q's, K's and V's lanes




SUB_SHARE = 0.72  # a subscript's type, of the line's


class Fonts:
    """The base font at `pixels` and its subscript (smaller, but never below `least_sub` pixels: presented,
    a subscript is read from the back row too), with their metrics."""

    def __init__(self, base: QFont, pixels: float, least_sub: float = 0.0):
        self.pixels = pixels
        self.main = QFont(base)
        self.main.setPixelSize(max(1, round(pixels)))
        self.sub = QFont(base)
        self.sub.setPixelSize(max(1, round(pixels * SUB_SHARE), math.ceil(min(least_sub, pixels))))
        self.fm, self.sub_fm = QFontMetricsF(self.main), QFontMetricsF(self.sub)
        self.line = self.fm.height()

    def width(self, text: str) -> float:
        return sum((self.sub_fm if sub else self.fm).horizontalAdvance(t) for t, sub in pieces(text))


@dataclass
class Placed:
    key: str
    lines: list          # texts, subscripts marked with "_"
    rect: QRectF
    lit: bool = False


def arrow_head(painter, start: QPointF, end: QPointF, colour, size: float) -> None:
    """A filled head `size` long at `end`, pointing from `start` (the diagram's and the residual plane's arrows)."""
    angle = math.atan2(end.y() - start.y(), end.x() - start.x())
    left = QPointF(end.x() - size * math.cos(angle - 0.4), end.y() - size * math.sin(angle - 0.4))
    right = QPointF(end.x() - size * math.cos(angle + 0.4), end.y() - size * math.sin(angle + 0.4))
    painter.setPen(Qt.NoPen)
    painter.setBrush(colour)
    painter.drawPolygon(QPolygonF([end, left, right]))
    painter.setBrush(Qt.NoBrush)


class LayerDiagram(QWidget):
    picked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("layerDiagram")
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.flow, self.labels, self.legend = None, {}, []
        self.lit, self.selected = set(), None
        self.explain = None  # key -> a box's tooltip (rich text)
        self.least, self.most = 6.0, 15.0  # the type's pixel size: at least, at most
        self.least_sub = 0.0  # a subscript's least pixel size (presenting: the back row's)
        self.letters = False  # True: every box has its shape in letters too, whatever the type (presenting)
        self.mode = MODES[0]  # the shapes in letters too (n × d) when they fit
        self._horizontal = True
        self._room = (0.0, 0.0)
        self._fonts = None
        self.placed: dict[str, Placed] = {}
        self._size = None

    # ------------------------------------------------------------- what to draw

    def set_flow(self, flow, labels: dict, legend: list[str], lit: set, selected: str | None) -> None:
        """labels: box key -> its lines (the name first); legend: the sizes, one item each."""
        self.flow, self.labels, self.legend, self.lit, self.selected = flow, labels, legend, lit, selected
        self._size = None
        self.update()

    def set_type(self, least: float, most: float, letters: bool = False, least_sub: float = 0.0) -> None:
        self.least, self.most, self.letters, self.least_sub = least, most, letters, least_sub
        self._size = None
        self.update()

    def sizeHint(self):  # noqa: N802 (Qt's name)
        return QSize(600, 420)

    def minimumSizeHint(self):  # noqa: N802
        return QSize(120, 120)

    def resizeEvent(self, event):  # noqa: N802
        self._size = None
        super().resizeEvent(event)

    def changeEvent(self, event):  # noqa: N802
        if event.type() == QEvent.FontChange:  # presenting, zoom: the type's family and size come from here
            self._size = None
        super().changeEvent(event)

    # ------------------------------------------------------------- layout

    def lines_of(self, key: str, mode: str) -> list[str]:
        """A box's lines, each mode with its shape in numbers and in the seed's letters (5 × 4, n × d):
        "detailed" the name, the numbers, the letters; "paired" the name and its numbers, then the
        letters; "joined" the name, then numbers and letters on one line; "one" all on one line; any
        note last. "numbers" and "brief" are "detailed" and "one" without the letters."""
        name, numbers, letters, *note = self.labels.get(key, [key, "", ""])
        if mode in ("numbers", "brief"):
            letters = ""
        if mode == "detailed":
            return [name, numbers, letters] + note
        if note and note[0].endswith(TURNED):  # RoPE's mark beside the name, not a line of its own
            name, note = f"{name} {TURNED}", []
        if mode == "numbers":
            return [name, numbers] + note
        if mode == "paired":
            return [f"{name}  {numbers}", letters] + note
        shape = f"{numbers}  ({letters})" if letters else numbers
        if mode == "joined":
            return [name, shape] + note
        return [f"{name}  {shape}"] + note  # "one", "brief"

    def column_mode(self, column, mode: str) -> str:
        """The mode of one column's boxes: "mixed" is "paired" for the column of most boxes (when
        only it has that many), "detailed" for the others."""
        if mode != "mixed":
            return mode
        counts = sorted((len(c) for c in self.flow.columns), reverse=True)
        crowded = len(counts) > 1 and counts[0] > counts[1] and len(column) == counts[0]
        return "paired" if crowded else "detailed"

    def _measure(self, fonts: Fonts, horizontal: bool, mode: str):
        """Every box's (width, height) and the drawing's total (main, cross) extent at these fonts."""
        pad, gap = fonts.pixels * 0.45, fonts.pixels * (1.3 if horizontal else 0.9)
        sizes = {}
        for column in self.flow.columns:
            for box in column:
                lines = self.lines_of(box.key, self.column_mode(column, mode))
                sizes[box.key] = (max(fonts.width(t) for t in lines) + 2 * pad, len(lines) * fonts.line + pad)
        main_of = (lambda s: s[0]) if horizontal else (lambda s: s[1])
        cross_of = (lambda s: s[1]) if horizontal else (lambda s: s[0])
        mains = [max(main_of(sizes[b.key]) for b in column) for column in self.flow.columns]
        cross_gap = fonts.pixels * 0.5
        crosses = [sum(cross_of(sizes[b.key]) for b in column) + cross_gap * (len(column) - 1)
                   for column in self.flow.columns]
        band = fonts.line * 1.2 if self.flow.residual else 0.0  # room for the skip connection
        head = self._legend_size(fonts, horizontal)
        main, cross = sum(mains) + gap * (len(mains) - 1) + gap * WIDE * self._fanned(), max(crosses) + band
        return sizes, mains, gap, band, head, main, cross

    def legend_lines(self, fonts: Fonts, horizontal: bool) -> list[str]:
        """The legend's items on as few lines as the width allows."""
        lines, room = [], self._room[0]
        for item in self.legend:
            joined = f"{lines[-1]}   ·   {item}" if lines else item
            if lines and fonts.width(joined) <= room:
                lines[-1] = joined
            else:
                lines.append(item)
        return lines

    def _legend_size(self, fonts: Fonts, horizontal: bool) -> tuple[float, float]:
        lines = self.legend_lines(fonts, horizontal)
        if not lines:
            return 0.0, 0.0
        return max(fonts.width(t) for t in lines), fonts.line * (len(lines) + 0.3)

    def _extent(self, fonts, horizontal, mode) -> tuple[float, float]:
        *_, (legend_w, legend_h), main, cross = self._measure(fonts, horizontal, mode)
        w, h = (main, cross + legend_h) if horizontal else (cross, main + legend_h)
        return max(w, legend_w), h

    def _best(self, horizontal: bool, mode: str) -> float:
        """The largest pixel size (≤ most) at which everything fits (the least readable size is
        1 px: when not even `least` fits, smaller type is better than text cut off)."""
        width, height = self._room
        w, h = self._extent(Fonts(self.font(), 40, self.least_sub), horizontal, mode)
        pixels = math.floor(min(self.most, 40 * min(width / max(w, 1), height / max(h, 1))) * 2) / 2
        while pixels > 1:
            w, h = self._extent(Fonts(self.font(), pixels, self.least_sub), horizontal, mode)
            if w <= width and h <= height:
                return pixels
            pixels -= 0.5
        return 1.0

    def _layout(self) -> None:
        if self._size == (self.width(), self.height()) or self.flow is None:
            return
        self._size = (self.width(), self.height())
        margin = 4.0
        self._room = (self.width() - 2 * margin, self.height() - 2 * margin)
        # The richest texts whose type is nearly as large as the largest possible, and at least `least`;
        # presenting, the shapes in letters are left out rather than the type made smaller than `least`.
        options = self._options(LETTERED if self.letters else MODES)
        if self.letters and max(o[0] for o in options) < self.least:
            options = self._options(MODES)
        largest = max(o[0] for o in options)
        good = [o for o in options if o[0] >= min(self.least, largest) and o[0] >= largest * 0.8]
        pixels, _, horizontal, mode = max(good, key=lambda o: (o[1], o[0]))
        self._horizontal, self.mode = horizontal, mode
        self._fonts = fonts = Fonts(self.font(), pixels, self.least_sub)
        self._place(fonts, horizontal, mode, QRectF(margin, margin, *self._room))

    def _options(self, modes) -> list[tuple]:
        """(the largest type, -richness, across, mode) of each way to lay the boxes out."""
        return [(self._best(hz, mode), -rank, hz, mode) for rank, mode in enumerate(modes) for hz in (True, False)]

    def _place(self, fonts, horizontal, mode, area: QRectF) -> None:
        sizes, mains, gap, band, (_, legend_h), main, cross = self._measure(fonts, horizontal, mode)
        self.legend_rect = QRectF(area.left(), area.top(), area.width(), legend_h)
        body = QRectF(area.left(), area.top() + legend_h, area.width(), area.height() - legend_h)
        main_room = body.width() if horizontal else body.height()
        cross_room = (body.height() if horizontal else body.width()) - band
        # Extra room goes between the columns, so the drawing fills the space it is given.
        wide = gap * WIDE  # the lanes' extra room, at the base gap: the extra room is shared by all
        gap += max(0.0, main_room - main) / max(1, len(mains) - 1) if len(mains) > 1 else 0.0
        fanned = self._split_column() if self._fanned() else None
        self.band = band
        self.placed = {}
        at = 0.0
        for index, (column, length) in enumerate(zip(self.flow.columns, mains)):
            if index == fanned:
                at += wide  # the wider gap the Q, K, V fans are routed in
            slot = cross_room / len(column)
            for k, box in enumerate(column):
                w, h = sizes[box.key]
                centre_main = at + length / 2
                centre_cross = band + slot * (k + 0.5)
                if horizontal:
                    rect = QRectF(body.left() + centre_main - w / 2, body.top() + centre_cross - h / 2, w, h)
                else:
                    rect = QRectF(body.left() + centre_cross - w / 2, body.top() + centre_main - h / 2, w, h)
                lines = self.lines_of(box.key, self.column_mode(column, mode))
                self.placed[box.key] = Placed(box.key, lines, rect, box.key in self.lit)
            at += length + gap
        self.body = body

    def _split_column(self) -> int | None:
        """The column of Q_i and K_j V_j (the heads' split), if any."""
        return next((k for k, c in enumerate(self.flow.columns) if any(b.key.startswith("kv:") for b in c)), None)

    def _fanned(self) -> bool:
        """Whether Q, K and V fan out into the split along routed lanes (they do when it has them)."""
        return self._split_column() is not None

    def routes(self) -> dict[tuple[str, str], list[QPointF]]:
        """Every arrow's path, start to tip. Q, K and V fan out to the heads' split along lanes of
        their own (out, along the gap, in: each line can be followed; K enters a group's box above
        V); every other arrow, between neighbouring columns, is straight."""
        self._layout()
        hz, placed = self._horizontal, self.placed
        split = self._split_column()
        targets = {b.key for b in self.flow.columns[split]} if split is not None else set()
        fans = [a for a in ("q", "k", "v") if any(x == a and y in targets for x, y in self.flow.arrows)]
        out = {}
        for a, b in self.flow.arrows:
            ra, rb = placed[a].rect, placed[b].rect
            if a not in fans or b not in targets:
                out[(a, b)] = list(self._ends(ra, rb))
                continue
            sources = [placed[x].rect for x in fans]
            low = max((r.right() if hz else r.bottom()) for r in sources)
            high = min((r.left() if hz else r.top()) for r in (placed[t].rect for t in targets))
            lane = low + (high - low) * (fans.index(a) + 1) / (len(fans) + 1)
            at = {"k": 0.33, "v": 0.67}.get(a, 0.5) if b.startswith("kv:") else 0.5
            if hz:
                y_in = rb.top() + rb.height() * at
                out[(a, b)] = [QPointF(ra.right(), ra.center().y()), QPointF(lane, ra.center().y()),
                               QPointF(lane, y_in), QPointF(rb.left(), y_in)]
            else:
                x_in = rb.left() + rb.width() * at
                out[(a, b)] = [QPointF(ra.center().x(), ra.bottom()), QPointF(ra.center().x(), lane),
                               QPointF(x_in, lane), QPointF(x_in, rb.top())]
        return out

    # ------------------------------------------------------------- reading it (tests, clicks)

    @property
    def fonts(self) -> Fonts:
        """The type the boxes are drawn in, laid out for the widget's size."""
        self._layout()
        return self._fonts

    @property
    def horizontal(self) -> bool:
        """Whether the flow runs left to right (else top to bottom), for the widget's size."""
        self._layout()
        return self._horizontal

    def boxes(self) -> dict[str, Placed]:
        self._layout()
        return self.placed

    def texts(self) -> list[str]:
        """Every text drawn, as a reader sees it (subscripts inline)."""
        self._layout()
        legend = [unmarked(t) for t in self.legend_lines(self.fonts, self._horizontal)]
        return legend + [unmarked(t) for p in self.placed.values() for t in p.lines]

    def text_rects(self) -> list[tuple[QRectF, QRectF]]:
        """(the room, the text's own extent) for every line drawn: a line fits when inside its room."""
        self._layout()
        out = []
        r, line = self.legend_rect, self.fonts.line
        for k, text in enumerate(self.legend_lines(self.fonts, self._horizontal)):
            out.append((QRectF(self.rect()), QRectF(r.left(), r.top() + k * line, self.fonts.width(text), line)))
        for p in self.placed.values():
            for text, rect in self._line_rects(p):
                out.append((p.rect, QRectF(rect.center().x() - self.fonts.width(text) / 2, rect.top(),
                                           self.fonts.width(text), line)))
        return out

    def key_at(self, point: QPointF) -> str | None:
        self._layout()
        for key, p in self.placed.items():
            if p.rect.contains(point):
                return key
        return None

    def mousePressEvent(self, event):  # noqa: N802
        key = self.key_at(event.position())
        if key is not None and event.button() == Qt.LeftButton:
            self.picked.emit(key)
        super().mousePressEvent(event)

    def event(self, event):
        """A box's tooltip: what it holds (`explain`, given by the view, says it)."""
        if event.type() == QEvent.ToolTip:
            key = self.key_at(QPointF(event.pos()))
            text = self.toolTip() if key is None or self.explain is None else self.explain(key)
            QToolTip.showText(event.globalPos(), text, self) if text else QToolTip.hideText()
            return True
        return super().event(event)

    def mouseMoveEvent(self, event):  # noqa: N802
        self.setCursor(Qt.PointingHandCursor if self.key_at(event.position()) else Qt.ArrowCursor)
        super().mouseMoveEvent(event)

    # ------------------------------------------------------------- painting

    def paintEvent(self, event):  # noqa: N802
        if self.flow is None:
            return
        self._layout()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        pal = self.palette()
        self._paint_legend(painter, pal)
        self._paint_arrows(painter, pal)
        self._paint_residual(painter)
        for p in self.placed.values():
            self._paint_box(painter, pal, p)
        painter.end()

    def _paint_legend(self, painter, pal):
        painter.setPen(pal.color(QPalette.WindowText))
        r = self.legend_rect
        for k, t in enumerate(self.legend_lines(self.fonts, self._horizontal)):
            self._text(painter, t, QRectF(r.left(), r.top() + k * self.fonts.line, r.width(), self.fonts.line),
                       Qt.AlignLeft)

    def _ends(self, a: QRectF, b: QRectF) -> tuple[QPointF, QPointF]:
        if self._horizontal:
            return QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y())
        return QPointF(a.center().x(), a.bottom()), QPointF(b.center().x(), b.top())

    def _paint_arrows(self, painter, pal):
        colour = pal.color(QPalette.WindowText)
        colour.setAlpha(170)
        width = max(1.2, self.fonts.pixels / 11)
        halo = QPen(pal.color(QPalette.Window), width * 4)  # a line crossing another breaks it: which is which shows
        for path in self.routes().values():
            if len(path) > 2:
                painter.setPen(halo)
                painter.drawPolyline(QPolygonF(path[1:-1]))
            painter.setPen(QPen(colour, width))
            painter.drawPolyline(QPolygonF(path))
            self._head(painter, path[-2], path[-1], colour)
        for a, b in self.flow.turns:
            start, end = self._ends(self.placed[a].rect, self.placed[b].rect)
            painter.setPen(QPen(TURN, max(1.2, self.fonts.pixels / 12), Qt.DashLine))
            painter.drawLine(start, end)
            self._head(painter, start, end, TURN)

    def _arrow(self, painter, start: QPointF, end: QPointF, colour, width: float) -> None:
        painter.setPen(QPen(colour, width))
        painter.drawLine(start, end)
        self._head(painter, start, end, colour)

    def _head(self, painter, start, end, colour):
        arrow_head(painter, start, end, colour, max(5.0, self.fonts.pixels * 0.45))

    def _paint_residual(self, painter):
        """The skip connection: from X around everything to the + before O."""
        for a, b in self.flow.residual:
            ra, rb = self.placed[a].rect, self.placed[b].rect
            path = QPainterPath()
            if self._horizontal:
                y = self.body.top() + self.band * 0.5
                path.moveTo(ra.center().x(), ra.top())
                path.lineTo(ra.center().x(), y)
                path.lineTo(rb.center().x(), y)
                path.lineTo(rb.center().x(), rb.top())
                tip_from = QPointF(rb.center().x(), y)
                tip = QPointF(rb.center().x(), rb.top())
            else:
                x = self.body.left() + self.band * 0.5
                path.moveTo(ra.left(), ra.center().y())
                path.lineTo(x, ra.center().y())
                path.lineTo(x, rb.center().y())
                path.lineTo(rb.left(), rb.center().y())
                tip_from = QPointF(x, rb.center().y())
                tip = QPointF(rb.left(), rb.center().y())
            lit = 2.0 if self.placed[b].lit else 1.0  # + X's step: the residual it adds stands out too
            painter.setPen(QPen(RESIDUAL, lit * max(1.5, self.fonts.pixels / 8)))
            painter.drawPath(path)
            self._head(painter, tip_from, tip, RESIDUAL)

    def _line_rects(self, p: Placed) -> list[tuple[str, QRectF]]:
        pad = self.fonts.pixels * 0.45
        top = p.rect.top() + pad / 2
        return [(line, QRectF(p.rect.left(), top + k * self.fonts.line, p.rect.width(), self.fonts.line))
                for k, line in enumerate(p.lines)]

    def _paint_box(self, painter, pal, p: Placed):
        selected = p.key == self.selected
        fill = LIT if p.lit else pal.color(QPalette.Base)
        edge = pal.color(QPalette.Highlight) if selected else pal.color(QPalette.Mid)
        painter.setPen(QPen(edge, max(1.0, self.fonts.pixels / (5 if selected else 14))))
        painter.setBrush(fill)
        radius = self.fonts.pixels * 0.3
        painter.drawRoundedRect(p.rect, radius, radius)
        painter.setBrush(Qt.NoBrush)
        text = LIT_TEXT if p.lit else pal.color(QPalette.Text)
        for k, (line, rect) in enumerate(self._line_rects(p)):
            shade = QColor(text)
            if k > 0 and not p.lit:
                shade.setAlpha(200)  # the shapes a little quieter than the name
            painter.setPen(shade)
            self._text(painter, line, rect, Qt.AlignHCenter)

    def _text(self, painter, text: str, rect: QRectF, align) -> None:
        """One line with its subscripts set lower and smaller, as in the formula."""
        f = self.fonts
        x = rect.left() if align == Qt.AlignLeft else rect.center().x() - f.width(text) / 2
        baseline = rect.top() + f.fm.ascent()
        for t, sub in pieces(text):
            painter.setFont(f.sub if sub else f.main)
            y = baseline + (f.pixels * 0.25 if sub else 0.0)
            painter.drawText(QPointF(x, y), t)
            x += (f.sub_fm if sub else f.fm).horizontalAdvance(t)
