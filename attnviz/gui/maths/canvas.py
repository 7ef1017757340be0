"""What the painted maths views share (x·W, softmax in three places): the drawing is laid out first, as
blocks put in grids, rows and columns, and only then painted, so what is painted is what the tests measure
(every text's rectangle). The maths' subscripts are set smaller and lower (W with a subscript q), never
below the back row's type while presenting; the type is the largest that lets the whole drawing fit.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QEvent, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ..common.markup import pieces, unmarked
from ..look.fonts import LEAST_SHARE, figure_font, readable_pixels, weighted
from .sizing import pixels

SUB_SHARE = 0.72   # a subscript's type, of its line's (as the layer diagram's)
SUB_DROP = 0.25    # a subscript's baseline below its line's, in the line's pixels
TRACK = 80         # a bar's track: the alpha of the palette's mid tone
DESK_SHARE = 0.7   # on the desk the type may shrink to this share of the window's to fit the dock,
DESK_LEAST = 9     # but never below these pixels
MOST = 2.5         # the type grows up to this many times the view's own while the drawing still fits
WRAP = Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap




class Type:
    """One size of type: its font and its subscripts' (never below `least_sub` pixels), with their metrics."""

    def __init__(self, size: float, least_sub: int = 0, bold: bool = False):
        self.pixels = round(size)
        self.main = weighted(figure_font(pixel_size=self.pixels), bold)
        self.sub = weighted(figure_font(pixel_size=max(1, round(size * SUB_SHARE), least_sub)), bold)
        self.fm, self.sub_fm = QFontMetricsF(self.main), QFontMetricsF(self.sub)
        self.line = self.fm.height()

    def width(self, text: str) -> float:
        return sum((self.sub_fm if sub else self.fm).horizontalAdvance(t) for t, sub in pieces(text))

    def height(self, text: str) -> float:
        """One line's height; a subscript set lower reaches further down."""
        if not any(sub for _, sub in pieces(text)):
            return self.line
        return max(self.line, self.fm.ascent() + SUB_DROP * self.pixels + self.sub_fm.descent())


@dataclass(frozen=True)
class Text:
    text: str                     # subscripts marked with "_"
    rect: QRectF                  # all of it: the tests check that no two overlap
    type: Type
    colour: QColor | None = None  # None: the palette's text colour
    wrap: bool = False            # word-wrapped in its rectangle (no subscripts), else one line


@dataclass(frozen=True)
class Shape:
    rect: QRectF                  # a bar, its track or a tint behind a matrix's column (filled)
    colour: QColor | None = None  # None: the palette's mid tone (a bar's track)
    bracket: int = 0              # a matrix's bracket instead: −1 the left one, +1 the right one


@dataclass
class Drawing:
    texts: list[Text] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)


@dataclass(frozen=True)
class Block:
    """Something of a known size that puts its texts and shapes into a drawing at (x, y), its top left."""

    width: float
    height: float
    emit: Callable[[float, float, Drawing], None] = lambda x, y, drawing: None


def text(t: Type, s: str, colour: QColor | None = None, most: float | None = None) -> Block:
    """One line; longer than `most` pixels (a real model's long token), shortened with … (no subscripts then)."""
    if not s:
        return space(0.0, t.line)  # a column with no heading: nothing to draw, nothing to measure
    if most is not None and t.width(s) > most:
        s = t.fm.elidedText(unmarked(s), Qt.ElideRight, most)
    w, h = t.width(s), t.height(s)
    return Block(w, h, lambda x, y, d: d.texts.append(Text(s, QRectF(x, y, w, h), t, colour)))


def wrapped(t: Type, s: str, width: float, colour: QColor | None = None) -> Block:
    """Words wrapped to `width` (Japanese between characters, as Qt breaks it)."""
    room = t.fm.boundingRect(QRectF(0, 0, width, 100_000), WRAP, s)
    w, h = min(width, room.width() + 1), room.height()
    return Block(w, h, lambda x, y, d: d.texts.append(Text(s, QRectF(x, y, w, h), t, colour, wrap=True)))


def space(width: float = 0.0, height: float = 0.0) -> Block:
    return Block(width, height)


def grid(rows: list[list[Block | None]], gap_x: float = 0.0, gap_y: float = 0.0, align: str = "",
         widths: list[float] | None = None) -> Block:
    """Blocks in rows and columns, each centred in its cell upright; across, `align` gives each column's
    "l", "c" or "r" (centred where not given). `widths`: the columns' least widths (grids kept in line)."""
    columns = max(len(r) for r in rows)
    col_w = [max([b.width for r in rows for b in r[c:c + 1] if b is not None] + [0.0]) for c in range(columns)]
    if widths:
        col_w = [max(a, b) for a, b in zip(col_w, widths)] + col_w[len(widths):]
    row_h = [max([b.height for b in r if b is not None] + [0.0]) for r in rows]

    def emit(x, y, drawing):
        top = y
        for r, h in zip(rows, row_h):
            left = x
            for c, b in enumerate(r):
                if b is not None:
                    how = align[c] if c < len(align) else "c"
                    dx = {"l": 0.0, "r": col_w[c] - b.width}.get(how, (col_w[c] - b.width) / 2)
                    b.emit(left + dx, top + (h - b.height) / 2, drawing)
                left += col_w[c] + gap_x
            top += h + gap_y

    return Block(sum(col_w) + gap_x * (columns - 1), sum(row_h) + gap_y * (len(rows) - 1), emit)


def row(blocks: list[Block], gap: float = 0.0, top: bool = False) -> Block:
    """Side by side, centred upright (or along their tops)."""
    if not top:
        return grid([blocks], gap_x=gap)
    height = max(b.height for b in blocks)

    def emit(x, y, drawing):
        for b in blocks:
            b.emit(x, y, drawing)
            x += b.width + gap

    return Block(sum(b.width for b in blocks) + gap * (len(blocks) - 1), height, emit)


def column(blocks: list[Block], gap: float = 0.0, align: str = "c") -> Block:
    """One under another, centred across (or along their left edges, align "l")."""
    return grid([[b] for b in blocks], gap_y=gap, align=align)


def bar(width: float, height: float, share: float, colour: QColor) -> Block:
    """A bar `share` (0 to 1) of its track's width, the track drawn faintly behind it."""
    def emit(x, y, drawing):
        drawing.shapes.append(Shape(QRectF(x, y, width, height)))
        if share > 0:
            drawing.shapes.append(Shape(QRectF(x, y, max(1.0, width * share), height), colour))
    return Block(width, height, emit)


class Canvas(QWidget):
    """Paints what `lay_out(pixels) -> Block` lays out, at the largest type from the widget's own up to MOST
    times it that fits the widget (at least the widget's own, whatever happens), centred across, from the top."""

    def __init__(self, lay_out: Callable[[float], Block], parent=None):
        super().__init__(parent)
        self.lay_out = lay_out
        self.presenting = False
        self._drawing: Drawing | None = None
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumHeight(160)

    def type(self, size: float, bold: bool = False) -> Type:
        """Type of `size` pixels; presenting, its subscripts as large as the back row reads."""
        return Type(size, readable_pixels(self, LEAST_SHARE) if self.presenting else 0, bold)

    def room(self) -> QSizeF:
        return QSizeF(self.width(), self.height())

    def least(self) -> int:
        """Presenting, the view's own type (the back row's at least); on the desk's short dock, smaller type
        rather than a drawing cut off at the bottom."""
        own = pixels(self.font())
        return own if self.presenting else max(DESK_LEAST, round(own * DESK_SHARE))

    def refit(self) -> None:
        self._drawing = None
        self.update()

    def drawing(self) -> Drawing:
        if self._drawing is None:
            self._drawing = self._fit()
        return self._drawing

    def _fit(self) -> Drawing:
        least = self.least()
        for size in range(round(pixels(self.font()) * MOST), least - 1, -1):
            block = self.lay_out(size)
            if block.width <= self.width() and block.height <= self.height() or size == least:
                break
        drawing = Drawing()
        block.emit(max(0.0, (self.width() - block.width) / 2), 0.0, drawing)
        return drawing

    def resizeEvent(self, event):  # noqa: N802 (Qt's name)
        self._drawing = None
        super().resizeEvent(event)

    def changeEvent(self, event):  # noqa: N802
        if event.type() in (QEvent.FontChange, QEvent.LanguageChange, QEvent.PaletteChange):
            self.refit()
        super().changeEvent(event)

    def paintEvent(self, event):  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        ink, track = self.palette().windowText().color(), QColor(self.palette().mid().color())
        track.setAlpha(TRACK)  # faint: the bar is what is read, the track only says where 1 would end
        drawing = self.drawing()
        for shape in drawing.shapes:
            paint_shape(p, shape, ink, track)
        for t in drawing.texts:
            paint_text(p, t, ink)
        p.end()


def paint_shape(p: QPainter, shape: Shape, ink: QColor, track: QColor) -> None:
    r = shape.rect
    if not shape.bracket:
        p.fillRect(r, shape.colour or track)
        return
    p.setPen(QPen(shape.colour or ink, max(2.0, r.width() / 4), Qt.SolidLine, Qt.FlatCap, Qt.MiterJoin))
    edge, tip = (r.left(), r.right()) if shape.bracket < 0 else (r.right(), r.left())
    p.drawPolyline([QPointF(tip, r.top()), QPointF(edge, r.top()), QPointF(edge, r.bottom()),
                    QPointF(tip, r.bottom())])


def paint_text(p: QPainter, t: Text, ink: QColor) -> None:
    p.setPen(t.colour or ink)
    if t.wrap:
        p.setFont(t.type.main)
        p.drawText(t.rect, WRAP, t.text)
        return
    x, baseline = t.rect.left(), t.rect.top() + t.type.fm.ascent()
    for s, sub in pieces(t.text):
        p.setFont(t.type.sub if sub else t.type.main)
        p.drawText(QPointF(x, baseline + (SUB_DROP * t.type.pixels if sub else 0.0)), s)
        x += (t.type.sub_fm if sub else t.type.fm).horizontalAdvance(s)


def colour_of(widget: QWidget, light: str, dark: str) -> QColor:
    """A colour readable on the look's background: `light` on the light look, `dark` on the dark one."""
    return QColor(dark if widget.palette().window().color().lightness() < 128 else light)


def fonts_of(t: Text) -> list[QFont]:
    """The fonts a text is drawn in (its subscripts' too): what the tests measure."""
    return [t.type.sub if sub else t.type.main for _, sub in pieces(t.text)] if not t.wrap else [t.type.main]
