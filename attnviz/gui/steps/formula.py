"""softmax(QKᵀ / √d_k + M) V drawn as mathematics: a real fraction, square root and subscript.

The seed puts this formula at the centre of the lesson. It is drawn from small boxes
(text, superscript, subscript, fraction, radical, parentheses) laid out once and painted
with QPainter, so the window and figures show the same thing. The part a guided step
computes is highlighted; the formula follows the settings (no ÷√d_k, a temperature T,
no mask).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontInfo, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...core.explain import fmt_temperature
from ..look.fonts import figure_font, figure_font_like
from .stages import row_stage

HIGHLIGHT = QColor(255, 200, 60, 150)  # a marker pen's yellow, readable on light and dark looks


@dataclass
class Box:
    """Something laid out: its advance width and its extent above and below the baseline."""

    width: float = 0.0
    ascent: float = 0.0
    descent: float = 0.0
    part: str | None = None  # its name, when a guided stage lights it up (stages.Stage.part)
    children: list = field(default_factory=list)  # (dx, dy, Box) placed relative to this box's origin

    def paint(self, p: QPainter, x: float, y: float, lit: str | None) -> None:
        if self.part is not None and self.part == lit:
            pad = (self.ascent + self.descent) * 0.08
            p.save()
            p.setPen(Qt.NoPen)
            p.setBrush(HIGHLIGHT)
            p.drawRoundedRect(QRectF(x - pad, y - self.ascent - pad, self.width + 2 * pad,
                                     self.ascent + self.descent + 2 * pad), pad, pad)
            p.restore()
        self.draw(p, x, y)
        for dx, dy, child in self.children:
            child.paint(p, x + dx, y + dy, lit)

    def draw(self, p: QPainter, x: float, y: float) -> None:
        pass


class Text(Box):
    def __init__(self, text: str, font: QFont, part=None):
        fm = QFontMetricsF(font)
        super().__init__(fm.horizontalAdvance(text), fm.ascent(), fm.descent(), part)
        self.text, self.font = text, font

    def draw(self, p, x, y):
        p.setFont(self.font)
        p.drawText(QPointF(x, y), self.text)


def row(*boxes, part=None) -> Box:
    """Boxes side by side on one baseline."""
    box = Box(part=part)
    for child in boxes:
        box.children.append((box.width, 0.0, child))
        box.width += child.width
        box.ascent, box.descent = max(box.ascent, child.ascent), max(box.descent, child.descent)
    return box


def script(base: Box, small: Box, up: bool, part=None) -> Box:
    """A superscript (up) or subscript after `base`."""
    shift = base.ascent * 0.45 if up else -base.ascent * 0.25
    box = Box(base.width + small.width, max(base.ascent, small.ascent + shift),
              max(base.descent, small.descent - shift), part)
    box.children += [(0.0, 0.0, base), (base.width, -shift, small)]
    return box


class Fraction(Box):
    def __init__(self, top: Box, bottom: Box, axis: float, line: float, part=None):
        gap = line * 2.5
        width = max(top.width, bottom.width) + 4 * line
        super().__init__(width, axis + gap + top.descent + top.ascent, bottom.ascent + gap + bottom.descent - axis,
                         part)
        self.axis, self.line = axis, line
        self.children += [((width - top.width) / 2, -axis - gap - top.descent, top),
                          ((width - bottom.width) / 2, -axis + gap + bottom.ascent, bottom)]

    def draw(self, p, x, y):
        p.save()
        p.setPen(QPen(p.pen().color(), self.line))
        p.drawLine(QPointF(x + self.line, y - self.axis), QPointF(x + self.width - self.line, y - self.axis))
        p.restore()


class Root(Box):
    """√ over `body`, the bar reaching across it."""

    def __init__(self, body: Box, line: float, part=None):
        self.sign = (body.ascent + body.descent) * 0.55
        gap = line * 2
        super().__init__(self.sign + body.width + line * 2, body.ascent + gap + line, body.descent, part)
        self.line, self.body_descent = line, body.descent
        self.children.append((self.sign + line, 0.0, body))

    def draw(self, p, x, y):
        top, bottom, s = y - self.ascent + self.line / 2, y + self.body_descent, self.sign
        path = QPainterPath(QPointF(x, y - (self.ascent * 0.35)))
        for px, py in ((x + s * 0.3, y - self.ascent * 0.45), (x + s * 0.6, bottom), (x + s, top),
                       (x + self.width, top)):
            path.lineTo(px, py)
        p.save()
        p.setPen(QPen(p.pen().color(), self.line, Qt.SolidLine, Qt.FlatCap, Qt.MiterJoin))
        p.drawPath(path)
        p.restore()


class Parens(Box):
    """( body ), the parentheses as tall as what they hold."""

    def __init__(self, body: Box, line: float, part=None):
        self.arm = (body.ascent + body.descent) * 0.18 + line * 2
        super().__init__(body.width + 2 * self.arm + 2 * line, body.ascent + line, body.descent + line, part)
        self.line = line
        self.children.append((self.arm + line, 0.0, body))

    def draw(self, p, x, y):
        top, bottom, arm = y - self.ascent, y + self.descent, self.arm
        p.save()
        p.setPen(QPen(p.pen().color(), self.line * 1.3))
        p.setBrush(Qt.NoBrush)
        for edge, out in ((x + arm, x + arm * 0.25), (x + self.width - arm, x + self.width - arm * 0.25)):
            path = QPainterPath(QPointF(edge, top))
            path.cubicTo(out, top + (bottom - top) / 3, out, bottom - (bottom - top) / 3, edge, bottom)
            p.drawPath(path)
        p.restore()


@dataclass(frozen=True)
class FormulaOptions:
    scale: bool = True         # ÷ √d_k
    temperature: float = 1.0   # ÷ T as well when it is not 1
    masked: bool = True        # + M (some keys are hidden)
    d_k: int | None = None     # said after the formula: d_k = 4


SCRIPT_SHARE = 0.7  # a superscript's or subscript's type, of the formula's


def layout(options: FormulaOptions, font: QFont, least_script: int = 0, inline: bool = False) -> Box:
    """softmax(QKᵀ/√d_k + M)V, or what the settings make of it; its scripts (ᵀ, dₖ's k) never under
    `least_script` pixels (presenting: the back row reads them too). `inline`: on one line, the fraction
    written with a slash and without the numbers behind the letters (a step table whose rows need the
    height: its ÷√4 header says d_k)."""
    italic, small, small_italic = QFont(font), QFont(font), QFont(font)
    italic.setItalic(True)
    pixels = QFontInfo(font).pixelSize()
    if least_script and pixels * SCRIPT_SHARE < least_script:
        small.setPixelSize(min(pixels, least_script))
    else:
        small.setPointSizeF(font.pointSizeF() * SCRIPT_SHARE) if font.pointSizeF() > 0 else small.setPixelSize(
            max(6, round(font.pixelSize() * SCRIPT_SHARE)))
    small_italic = QFont(small)
    small_italic.setItalic(True)
    fm = QFontMetricsF(font)
    line = max(1.0, fm.height() / 18)
    axis = fm.xHeight() * 0.55  # where a fraction bar sits: the middle of a lower-case letter

    def t(text, f=font):
        return Text(text, f)
    scores = row(t("Q", italic), script(t("K", italic), t("⊤", small), up=True), part="scores")
    divisors = []
    if options.scale:
        divisors.append(Root(script(t("d", italic), t("k", small_italic), up=False), line))
    if options.temperature != 1.0:
        divisors += ([t(" · ")] if divisors else []) + [t("T", italic)]
    if inline and len(divisors) > 1:
        divisors = [t("("), *divisors, t(")")]
    divided = row(scores, t(" / "), row(*divisors, part="scale")) if inline else \
        Fraction(scores, row(*divisors, part="scale"), axis, line)
    inside = [divided if divisors else scores]
    if options.masked:
        inside.append(row(t(" + "), t("M", italic), part="mask"))
    formula = row(t("softmax", font), Parens(row(*inside), line), part="softmax")
    parts = [formula, row(t(" "), t("V", italic), part="v")]
    notes = []  # the numbers behind the letters: (d_k = 4, T = 0.5)
    if options.d_k and options.scale:
        notes += [script(t("d", italic), t("k", small_italic), up=False), t(f" = {options.d_k}")]
    if options.temperature != 1.0:
        notes += ([t(", ")] if notes else []) + [t("T", italic), t(f" = {fmt_temperature(options.temperature)}")]
    if notes and not inline:
        parts.append(row(t("    ("), *notes, t(")")))
    return row(*parts)


def paint_formula(p: QPainter, rect: QRectF, options: FormulaOptions, font: QFont, color: QColor,
                  number: int | None = None, least_script: int = 0, inline: bool = False) -> None:
    """The formula, centred vertically and left-aligned in `rect`, guided step `number`'s part lit up."""
    box = layout(options, font, least_script, inline)
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(color)
    y = rect.top() + (rect.height() - box.ascent - box.descent) / 2 + box.ascent
    lit = row_stage(number)
    box.paint(p, rect.left() + 2, y, lit.part if lit is not None else None)
    p.restore()


class FormulaView(QWidget):
    """The formula above the step table, for the document's settings and guided step."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.setObjectName("formulaView")
        self.document = document
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)
        document.changed.connect(self._changed)
        document.selectionChanged.connect(self._changed)
        self._shown = None
        self.most_pixels = 0  # presenting: never larger than the step table's type
        self.least_script = 0  # presenting: its scripts never smaller than the back row reads
        self.inline = False    # on one line (QKᵀ / √dₖ): the step table's rows need the height

    def set_most_pixels(self, pixels: int, least_script: int = 0, inline: bool = False) -> None:
        self.most_pixels, self.least_script, self.inline = pixels, least_script, inline
        self.updateGeometry()
        self.update()

    def options(self) -> FormulaOptions:
        d = self.document
        s = d.scenario.settings
        return FormulaOptions(s.scale, s.temperature, s.mask_kind != "none", d.scenario.heads[d.active_head].d_k)

    def _changed(self):
        state = (self.options(), self.document.stage)
        if state != self._shown:
            self._shown = state
            self.updateGeometry()
            self.update()

    def font_used(self) -> QFont:
        font = figure_font_like(self.font(), 1.25)  # the widget's type may be in pixels (presenting) or points
        if self.most_pixels and QFontInfo(font).pixelSize() > self.most_pixels:
            font = figure_font(pixel_size=self.most_pixels)
        return font

    def sizeHint(self):
        box = layout(self.options(), self.font_used(), self.least_script, self.inline)
        return QSize(int(box.width + 8), int(box.ascent + box.descent + 8))

    def minimumSizeHint(self):
        return QSize(0, self.sizeHint().height())

    def changeEvent(self, event):
        super().changeEvent(event)
        self.updateGeometry()
        self.update()

    def paintEvent(self, event):
        p = QPainter(self)
        paint_formula(p, QRectF(self.rect()), self.options(), self.font_used(), self.palette().windowText().color(),
                      self.document.stage, self.least_script, self.inline)
        p.end()
