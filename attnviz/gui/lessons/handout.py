"""A lesson as a handout for students without a machine: an A4 portrait PDF, one page per scene (the
lesson's title above, the scene's picture as vectors, its caption, its question), then the answers.

The pictures are the export's painters drawn straight into the PDF (text stays text, cells stay
rectangles): a heatmap with the step table under it (Figure's side-by-side layout is too wide for a
portrait page), every head, or the comparison. Views that are no heatmap (geometry, √d_k, softmax,
kernel, lines, layer, overview, before/after) print the scene's head and its query's steps, and say so.
A real model's scene adds its next-token bars beside the step table and names the heads it switches off.
A question's page never carries its answer: the query's row is left blank ("?", no colours, no step
table), a hidden next token lists its candidates without probabilities, and the answers (the most
attended key and its weight, the next token) come on the last page(s). The PDF's text map names each
CJK glyph by the character written (export/pdf_text.py), so the handout can be searched.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cached_property

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)
from PySide6.QtWidgets import QFileDialog, QMenu

from ...core.compute import compute
from ...core.files import atomic_write
from ...core.lessons import list_lessons
from ...core.lessons.model import ModelRuns
from ...core.lessons.open import scene_opened
from ...core.lessons.scene import STEP_VIEWS
from ...core.messages import QT_TR_NOOP, AttnVizError
from ...core.scenario import ScenarioError, head_is_off
from ..classroom.views import BY_ID
from ..common.asked import Asked
from ..common.background import BackgroundDialog
from ..common.i18n import current_language, head_label, tr
from ..compare.dialog import CompareFigure
from ..export.figure import COLORBAR_WIDTH, FONT_PX, FOREGROUND, HEAD_SIDE, MARGIN, Figure, FigureOptions
from ..export.pdf_text import named_as_written
from ..heads.heatmap import legend_kind, paint_colorbar, staged
from ..look import colormaps
from ..look.fonts import figure_font, weighted
from ..model.next_token import BAR, DOWN, TOP, UP, rows
from ..steps.stages import STAGES
from ..steps.table import DOT, EXP, KEY, MASK, SCALED, WEIGHT, K, small_example, step_output
from .answers import answer_text
from .overlays import plain

# In points: the writer's resolution is 72 dots per inch, so one unit of the painter is one point.
EDGE = 42            # the page's margin
TITLE_PT = 14        # the lesson's title at the top of every page
TEXT_PT = 11         # caption, question, answers
NOTE_PT = 9          # the scene's number, what the picture shows instead of the screen's view
COMPARE_PT = 8       # the comparison's least type, laid out at the page's size
GAP = 10
GREY = QColor(90, 90, 90)
INK = QColor(20, 20, 20)
AS_SHOWN = ("head", "heads", "steps", "compare")  # the views printed as the screen shows them
PRINTED_STEPS = tuple(v for v in STEP_VIEWS if v in AS_SHOWN)  # a guided step printed as the screen shows it
ANSWER_DECIMALS = 3  # the worked example's captions say 0.769 / 0.186
TABLE_PT = 8.5       # the step table's least type: the heatmap above it gives way first
ROW_EMS = 1.35       # a table's or the bars' row, in ems of the type's height (the screen's 1.6 is for a mouse)
OUTLINE = QColor(130, 130, 130)  # the next-token bar before the heads were switched off
BAR_EMS = 7          # a comparison's colour bar: the bar, its ticks' "+0.025", a margin


class HandoutError(ScenarioError):
    """A handout that cannot be written; the message says why."""


class PrintedFigure(Figure):
    """Figure whose caption says when its head is switched off (as the head's title on the screen does).
    At a guided step (`step`), its head shows the query's row at that stage, as the screen does; the rows
    a later question asks (`hidden`: (head, row) pairs) are printed as "?", so no page before a question
    gives its answer away."""

    def __init__(self, scenario, result, options, step: int | None = None, hidden: frozenset = frozenset()):
        super().__init__(scenario, result, options)
        self.step, self.hidden = step, hidden

    def head_data(self, index: int):
        data = super().head_data(index)
        if self.step is not None and index == self.options.head:
            return staged(data, self.result.heads[index], self.query, self.step)
        row = next((r for h, r in self.hidden if h == index), None)
        return data if row is None else replace(data, asked=Asked(index, row))

    def caption_text(self) -> str:
        off = self.options.kind != "all" and head_is_off(self.scenario, self.options.head)
        return super().caption_text() + (tr(" · switched off") if off else "")


class PrintedComparison(CompareFigure):
    """CompareFigure laid out for a portrait page: A, B and
    B − A one under another (each titled above its heads, which go across), where the screen puts them
    side by side; a portrait page is taller than wide, so the panels come out about twice as large."""

    def _set_font(self, pixels: int) -> None:
        super()._set_font(pixels)
        self.bar_width = min(self.bar_width, pixels * BAR_EMS)  # the width the heads need more on paper

    def fit(self, width: float, height: float) -> None:
        for _ in range(3):  # the titles' height depends on the width: settle in a few rounds
            across = (width - self._bars_width() - 2 * MARGIN) / self.rows()
            down = (height - self._caption_height() - 2 * MARGIN) / self.kinds() - self._label_height()
            self.side = max(120.0, min(across, down))

    def _label_height(self) -> float:
        fm = QFontMetricsF(weighted(self.font, bold=True))
        return max(fm.boundingRect(QRectF(0, 0, self.rows() * self.side - MARGIN, 1e4), Qt.TextWordWrap,
                                   text).height() for text in self.column_titles()) + fm.height() * 0.3

    def _width(self) -> float:
        return self.rows() * self.side + self._bars_width() + 2 * MARGIN

    def _body_height(self) -> float:
        return self.kinds() * (self._label_height() + self.side) - self._label_height()

    def size(self) -> QSizeF:
        return QSizeF(self._width(), self._label_height() + self._body_height() + self._caption_height()
                      + 2 * MARGIN)

    def head_rect(self, kind: int, head: int) -> QRectF:
        top = MARGIN + self._label_height() + kind * (self._label_height() + self.side)
        return QRectF(MARGIN + head * self.side, top, self.side - MARGIN / 2, self.side - MARGIN / 2)

    def _column_label(self, p: QPainter, kind: int, text: str) -> None:
        """A's, B's or B − A's title, above its row of heads."""
        top = MARGIN + kind * (self._label_height() + self.side)
        p.setFont(weighted(self.font, bold=True))
        p.setPen(FOREGROUND)
        p.drawText(QRectF(MARGIN, top, self.rows() * self.side - MARGIN, self._label_height()),
                   Qt.TextWordWrap | Qt.AlignBottom, text)

    def _bars(self, p: QPainter) -> None:
        """The colour bars right of the heads, as tall as all the rows."""
        left, top, body = MARGIN + self.rows() * self.side, MARGIN + self._label_height(), self._body_height()
        hatched = any(masked.any() for _, masked in self._cells.values())  # no swatch for what is not drawn
        paint_colorbar(p, QRectF(left, top, self.bar_width - MARGIN / 2, body), self.weights.colormap, self.font,
                       FOREGROUND, mask_kind=legend_kind(self.a) if hatched else None)
        if self.comparable():
            paint_colorbar(p, QRectF(left + self.bar_width, top, self.bar_width - MARGIN / 2, body),
                           self.signed.colormap, self.font, FOREGROUND, mask_kind=None, reach=self.reach,
                           title=tr("B − A"))


class StepTable(PrintedFigure):
    """Figure's table of one query's steps without the heatmap beside it: on a portrait page it goes
    under the heatmap, where its type stays readable (at least TABLE_PT). A larger example than the
    tutorial's (a real model's 64 numbers in each q and k) leaves out k and q·k written out, keeping
    the score, and its output keeps the largest weights' terms, as the screen does presenting."""

    least = TABLE_PT / FONT_PX  # the scale place() keeps it at, at least

    @cached_property
    def step_table(self):
        title, headers, rows, output = self._whole_table()
        adds = self._adds()
        return title, headers, rows if "sum" in adds else rows[:-1], output if "output" in adds else ""

    def _whole_table(self):
        title, headers, rows, output = Figure.step_table.func(self)
        o, s = self.options, self.scenario
        if small_example(s, o.head) or s.weights_only:
            return title, headers, rows, output
        rows = [replace(r, dot=r.dot.rpartition(" = ")[2] or r.dot) for r in rows]
        title = tr("Query {0} in {1}: q and k have {2} numbers each").format(
            s.tokens[self.query], head_label(s, o.head), s.heads[o.head].d_k)
        return title, headers, rows, step_output(s, self.result, o.head, self.query, presenting=True)

    def _adds(self) -> frozenset:
        """What the stages up to the guided step have computed (every stage's without one)."""
        return frozenset().union(*(s.adds for s in STAGES[:self.step]))

    @property
    def step_columns(self) -> list[int]:
        shown = super().step_columns
        if not small_example(self.scenario, self.options.head):
            shown = [c for c in shown if c != K]
        computed = {STAGE_COLUMNS[a] for a in self._adds() if a in STAGE_COLUMNS}
        return [c for c in shown if c in (KEY, K) or c in computed]

    def _row_height(self) -> float:
        return QFontMetricsF(self.font).height() * ROW_EMS

    def size(self):
        return QSizeF(self._step_width() + 2 * MARGIN, self._step_height() + 2 * MARGIN)

    def paint(self, p: QPainter, vector: bool = False) -> None:
        # Figure draws the table right of the heatmap and its colour bar: shift that space away.
        self._paint_step(p, QRectF(MARGIN - HEAD_SIDE - COLORBAR_WIDTH, MARGIN, 0, 0))


STAGE_COLUMNS = {"dot": DOT, "scaled": SCALED, "mask": MASK, "exp": EXP, "weight": WEIGHT}  # a stage's adds


class Worksheet(PrintedFigure):
    """The scene's head with the question's row left for the students: '?' in each key's cell, no
    colours (the colour bar goes too: it would explain nothing), every other row blank."""

    def head_data(self, index: int):
        data = super().head_data(index)
        return replace(data, only_row=self.query, row_text=("?",) * len(data.tokens), colored=False)

    def _paint_colorbar(self, p, body) -> None:
        pass


class NextTokens:
    """A real model's next-token bars, as the screen draws them: its TOP likeliest next tokens, each
    with its probability; with heads switched off, before → after (the outline is before), and any
    token that fell out of the top. In the export's logical pixels (FONT_PX type), like a Figure."""

    least = TABLE_PT / FONT_PX

    def __init__(self, opened):
        found = opened.run
        self.rows = rows(found.model, found.baseline, found.run)
        self.changed = found.run is not found.baseline
        self.font = figure_font(pixel_size=FONT_PX)
        fm = QFontMetricsF(self.font)
        self.line = fm.height() * ROW_EMS
        self.label_w = max(fm.horizontalAdvance(t) for t, _, _ in self.rows) + fm.height() * 0.5
        self.text_w = fm.horizontalAdvance("100.0% → 100.0%" if self.changed else "100.0%") + fm.height() * 0.5
        self.bar_w = fm.height() * 8
        self.title = tr("Next token after “{0}”: the model's {1} most likely").format(
            opened.scenario.tokens[-1], min(TOP, len(self.rows)))
        self.legend = tr("One head changed: outline = before, bar = now") if len(opened.scene.off) == 1 else \
            tr("{0} heads changed: outline = before, bar = now").format(len(opened.scene.off)) if self.changed else ""

    def _width(self) -> float:
        return self.label_w + self.bar_w + self.text_w

    def _heading(self) -> float:
        fm = QFontMetricsF(weighted(self.font, bold=True))
        text = self.title + ("\n" + self.legend if self.legend else "")
        return fm.boundingRect(QRectF(0, 0, self._width(), 1e5), Qt.AlignLeft | Qt.TextWordWrap, text).height()

    def size(self) -> QSizeF:
        return QSizeF(self._width() + 2 * MARGIN, self._heading() + self.line * len(self.rows) + 2 * MARGIN)

    def paint(self, p: QPainter, vector: bool = False) -> None:
        fm = QFontMetricsF(self.font)
        p.save()
        p.setPen(FOREGROUND)
        p.setFont(weighted(self.font, bold=True))
        p.drawText(QRectF(MARGIN, MARGIN, self._width(), self._heading()), Qt.AlignLeft | Qt.TextWordWrap,
                   self.title + ("\n" + self.legend if self.legend else ""))
        p.setFont(weighted(self.font))
        peak = max(max(now, before or 0.0) for _, now, before in self.rows) or 1.0
        left = MARGIN + self.label_w
        for r, (token, now, before) in enumerate(self.rows):
            y = MARGIN + self._heading() + r * self.line
            p.setPen(FOREGROUND)
            p.drawText(QRectF(MARGIN, y, self.label_w - fm.height() * 0.3, self.line), Qt.AlignRight | Qt.AlignVCenter,
                       token)
            p.setPen(Qt.NoPen)
            p.setBrush(BAR)
            p.drawRect(QRectF(left, y + self.line * 0.2, self.bar_w * now / peak, self.line * 0.6))
            if before is not None:  # drawn over the bar: a bar that grew shows where it was
                p.setPen(OUTLINE)
                p.setBrush(Qt.NoBrush)
                p.drawRect(QRectF(left, y + self.line * 0.2, self.bar_w * before / peak, self.line * 0.6))
            text = f"{now:.1%}" if before is None else f"{before:.1%} → {now:.1%}"
            p.setPen(FOREGROUND if before is None or abs(now - before) < 0.005 else UP if now > before else DOWN)
            p.drawText(QRectF(left + self.bar_w + fm.height() * 0.3, y, self.text_w, self.line),
                       Qt.AlignLeft | Qt.AlignVCenter, text)
        p.restore()


class Beside:
    """Figures side by side, their tops aligned, at one scale (the least one's `least` kept)."""

    def __init__(self, figures: list):
        self.figures = figures
        self.least = max(getattr(f, "least", 0.0) for f in figures)

    def size(self) -> QSizeF:
        sizes = [f.size() for f in self.figures]
        return QSizeF(sum(s.width() for s in sizes), max(s.height() for s in sizes))

    def paint(self, p: QPainter, vector: bool = False) -> None:
        p.save()
        for f in self.figures:
            f.paint(p, vector)
            p.translate(f.size().width(), 0)
        p.restore()


def pictures(opened, hidden: frozenset = frozenset()) -> list:
    """What a scene's page shows: figures with size() and paint(p, vector), top to bottom. A real
    model's scene has its next-token bars, beside the step table, unless its question hides them. A
    guided step is printed at its step, as the screen shows it; the rows a later question asks
    (`hidden`, (head, row) pairs) as "?", and no step table explains one of them."""
    s, view = opened.scenario, opened.scene.view
    options = FigureOptions(head=opened.head, query=opened.query,
                            scale=opened.scene.settings.colour_scale or "linear")
    asked = opened.answer.hide if opened.answer is not None else None
    bars = [NextTokens(opened)] if opened.run is not None and asked != "next-token" else []
    if asked is not None and asked != "next-token":  # the next token hides no weights
        return [Worksheet(s, compute(s), options)] + bars
    if view == "compare":
        return [PrintedComparison(s, opened.compare, colormap=colormaps.get(scale=options.scale))]
    result = compute(s)
    step = printed_step(opened)
    hidden = hidden_on(opened, hidden)
    heads = PrintedFigure(s, result, replace(options, kind="all" if view == "heads" else "head"), step, hidden)
    if (opened.head, opened.query) in hidden:
        return [heads] + bars
    table = StepTable(s, result, replace(options, kind="step"), step)
    return [heads, Beside([table] + bars) if bars else table]


def printed_step(opened) -> int | None:
    """The guided step a page is printed at: the scene's, in a view printed as the screen shows it."""
    return opened.scene.step if opened.scene.view in PRINTED_STEPS else None


def hidden_on(opened, hidden: frozenset) -> frozenset:
    """The rows of `hidden` a page prints as "?": not the query's row before softmax has given its weights."""
    step = printed_step(opened)
    if step is None or "weight" in frozenset().union(*(s.adds for s in STAGES[:step])):
        return hidden
    return hidden - {(opened.head, opened.query)}


def asked_rows(scenes) -> list[frozenset]:
    """For each scene's page, the (head, row) pairs it would print whose weights a later scene's question
    asks for: the same tokens, the same weights (a page before the question would give its answer)."""
    asked = [(i, o.scenario.tokens, np.asarray(o.answer.weights)) for i, o in enumerate(scenes)
             if o.answer is not None and o.answer.hide != "next-token"]
    pages = []
    for j, opened in enumerate(scenes):
        later = [(tokens, row) for i, tokens, row in asked if i > j and tokens == opened.scenario.tokens]
        weights = compute(opened.scenario).weights() if later and opened.answer is None else []
        pages.append(frozenset((h, r) for h, w in enumerate(weights) for r in range(len(w))
                               if any(np.array_equal(w[r], row) for _, row in later)))
    return pages


def stand_in(opened) -> str:
    """For a view the handout cannot print as it is: what the screen shows, and what is printed."""
    view = opened.scene.view
    if view in AS_SHOWN:
        return ""
    return tr("On the screen: {0}. Printed here: the weights of {1} and the steps of its query.").format(
        tr(BY_ID[view].label), head_label(opened.scenario, opened.head))


def place(p: QPainter, figures: list, area: QRectF) -> float:
    """The figures one under another, each as wide as the area allows (never enlarged), all shrunk
    alike when together they are taller than it, but a figure with a `least` scale (a table's type)
    is kept at it while the others can give way; centred across. Where they end."""
    for f in figures:
        if isinstance(f, CompareFigure):  # laid out at the page's size, its type kept at least COMPARE_PT
            f.set_presentation(COMPARE_PT)
            f.fit(area.width(), area.height() - GAP * (len(figures) - 1))
    sizes = [f.size() for f in figures]
    scales = [min(1.0, area.width() / s.width()) for s in sizes]
    room = area.height() - GAP * (len(figures) - 1)
    shrink = min(1.0, room / max(sum(s.height() * k for s, k in zip(sizes, scales)), 1))
    floors = [min(k, getattr(f, "least", 0.0)) for f, k in zip(figures, scales)]
    fixed = [k * shrink < least for k, least in zip(scales, floors)]
    if any(fixed):  # those kept at their least, the rest shares what they leave
        used = sum(s.height() * least for s, least, x in zip(sizes, floors, fixed) if x)
        flexible = sum(s.height() * k for s, k, x in zip(sizes, scales, fixed) if not x)
        shrink = max(1e-3, min(1.0, (room - used) / max(flexible, 1)))
        scales = [least / shrink if x else k for k, least, x in zip(scales, floors, fixed)]
    y = area.top()
    for f, s, k in zip(figures, sizes, scales):
        k *= shrink
        p.save()
        p.translate(area.left() + (area.width() - s.width() * k) / 2, y)
        p.scale(k, k)
        f.paint(p, vector=True)
        p.restore()
        y += s.height() * k + GAP
    return y


# What one handout may draw over all its scenes (a lesson's every scene within its own limits, 200 scenes of
# 2,048 tokens, took 132 s): the step tables' rows (about 0.25 ms each) and the heatmaps' cells (7 ns each).
MOST_ROWS = 20_000
MOST_CELLS = 400_000_000


def _opened_within(lesson, lang: str, runs) -> list:
    """The lesson's scenes opened one by one (a scenario file read once), refused as soon as the handout would
    draw more than MOST_ROWS step rows or MOST_CELLS heatmap cells: no scene past that is computed."""
    cache: dict = {}
    opened, steps, cells = [], 0, 0
    for i, scene in enumerate(lesson.scenes):
        opened.append(scene_opened(scene, i, lesson.folder, lang, cache, runs))
        n, heads = len(opened[-1].scenario.tokens), len(opened[-1].scenario.heads)
        steps, cells = steps + n, cells + heads * n * n
        if steps > MOST_ROWS or cells > MOST_CELLS:
            raise HandoutError(QT_TR_NOOP("scenes 1 to {0} would draw {1:,} rows of steps and {2:,} heatmap cells; a "
                                          "handout draws at most {3:,} and {4:,}: make one of fewer or shorter "
                                          "scenes"), i + 1, steps, cells, MOST_ROWS, MOST_CELLS)
    return opened


class Handout:
    """The pages of one lesson in one language, painted onto a PDF writer."""

    def __init__(self, lesson, lang: str, runs=None):
        """`runs` (core/lessons/model.py's ModelRuns) has the real model's scenes run, or runs them now."""
        self.lesson, self.lang = lesson, lang
        runs = runs if runs is not None or not lesson.needs_model else ModelRuns()
        self.scenes = _opened_within(lesson, lang, runs)  # refused before any page
        self.hidden = asked_rows(self.scenes)
        self.fonts = {size: figure_font(pixel_size=size) for size in (TITLE_PT, TEXT_PT, NOTE_PT)}

    def paint(self, writer: QPdfWriter) -> bool:
        p = QPainter(writer)
        page = QRectF(QPointF(0, 0), writer.pageLayout().paintRectPoints().size())  # the origin: inside the margins
        for i, opened in enumerate(self.scenes):
            if i:
                writer.newPage()
            self._scene_page(p, page, i, opened)
        self._answers(p, writer, page)
        return p.end()

    # ------------------------------------------------------------- text

    def _text(self, p, rect: QRectF, text: str, size: int = TEXT_PT, bold=False, colour=INK,
              align=Qt.AlignLeft) -> float:
        """Wrapped text from the top of `rect`; its height."""
        font = weighted(self.fonts[size], bold=bold)
        bound = QFontMetricsF(font).boundingRect(rect, align | Qt.AlignTop | Qt.TextWordWrap, text)
        p.setFont(font)
        p.setPen(colour)
        p.drawText(rect, align | Qt.AlignTop | Qt.TextWordWrap, text)
        return bound.height()

    def _height(self, width: float, text: str, size: int = TEXT_PT, bold=False) -> float:
        font = weighted(self.fonts[size], bold=bold)
        return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e5), Qt.AlignLeft | Qt.TextWordWrap,
                                                text).height()

    def _header(self, p, page: QRectF, right: str) -> float:
        """The lesson's title and, at the right, where the page is; the top of what follows."""
        self._text(p, page, right, NOTE_PT, colour=GREY, align=Qt.AlignRight)
        width = page.width() - QFontMetricsF(self.fonts[NOTE_PT]).horizontalAdvance(right) - GAP
        height = self._text(p, QRectF(page.left(), page.top(), width, page.height()),
                            self.lesson.title[self.lang], TITLE_PT, bold=True)
        y = page.top() + height + GAP / 2
        p.setPen(GREY)
        p.drawLine(page.left(), y, page.right(), y)
        return y + GAP

    # ------------------------------------------------------------- pages

    def _scene_page(self, p, page: QRectF, i: int, opened) -> None:
        top = self._header(p, page, tr("Scene {0} / {1}").format(i + 1, len(self.scenes)))
        below = self._below(i, opened)
        heights = [self._height(page.width(), text, size, bold) + GAP for text, size, bold in below]
        # the texts right under the picture: a small picture leaves the page's foot empty, not its middle
        y = place(p, pictures(opened, self.hidden[i]),
                  QRectF(page.left(), top, page.width(), page.bottom() - top - sum(heights)))
        for (text, size, bold), height in zip(below, heights):
            self._text(p, QRectF(page.left(), y, page.width(), height), text, size, bold,
                       GREY if size == NOTE_PT else INK)
            y += height

    def _below(self, i: int, opened) -> list[tuple[str, int, bool]]:
        """(text, size, bold) under the picture: what it stands in for, the caption, the question."""
        scene = opened.scene
        lines = [(stand_in(opened), NOTE_PT, False), (switched_off(scene), NOTE_PT, False),
                 (self._asked_later(i), NOTE_PT, False), (plain(scene.caption[self.lang]), TEXT_PT, False)]
        if scene.question is not None:
            lines.append((tr("Question: {0}").format(plain(scene.question.text[self.lang])), TEXT_PT, True))
            if scene.question.hide == "next-token":
                lines.append((tr("The model's {0} likeliest next tokens, in alphabetical order: {1}").format(
                    len(choices(opened)), tr(", ").join(choices(opened))), TEXT_PT, False))
                lines.append((tr("Circle your prediction; the answer is on the last page, under scene {0}.").format(
                    self.scenes.index(opened) + 1), NOTE_PT, False))
            else:
                lines.append((tr("Write down your prediction in the row marked ?; the answer is on the last page, "
                                 "under scene {0}.").format(self.scenes.index(opened) + 1), NOTE_PT, False))
        return [line for line in lines if line[0]]

    def _asked_later(self, i: int) -> str:
        """What a page whose rows a later question asks says of its "?" cells."""
        if not hidden_on(self.scenes[i], self.hidden[i]):
            return ""
        later = next(j for j in range(i + 1, len(self.scenes)) if self.scenes[j].answer is not None)
        return tr("A row marked ? is asked in scene {0}: predict it there; its answer is on the last page.").format(
            later + 1)

    def _answers(self, p, writer: QPdfWriter, page: QRectF) -> None:
        """Every question's answer, in the scenes' order, on as many pages as they need."""
        y = None
        for i, opened in enumerate(self.scenes):
            if opened.answer is None:
                continue
            entry = [(tr("Scene {0}: {1}").format(i + 1, plain(opened.scene.question.text[self.lang])), True),
                     (plain(answer_text(opened, self.lang, ANSWER_DECIMALS)), False)]
            height = sum(self._height(page.width(), text, bold=bold) for text, bold in entry) + GAP * 2
            if y is None or y + height > page.bottom():
                writer.newPage()
                y = self._header(p, page, tr("Answers"))
            for text, bold in entry:
                y += self._text(p, QRectF(page.left(), y, page.width(), page.bottom() - y), text, bold=bold)
            y += GAP * 2


def switched_off(scene) -> str:
    """Which heads a real model's scene switches off, as layer.head (the lesson's "off": 24.4)."""
    off = [f"{layer}.{head}" for layer, head in scene.off]
    if not off:
        return ""
    return (tr("Head {0} switched off: the model gets zeros instead of its output.") if len(off) == 1 else
            tr("Heads {0} switched off: the model gets zeros instead of their output.")).format(tr(", ").join(off))


def choices(opened) -> list[str]:
    """A question about the next token: the model's likeliest next tokens, as the bars write them, in the
    order of their text (as the screen lists them before the reveal)."""
    found = opened.run
    labels = [row[0] for row in rows(found.model, found.run, found.run)]
    return sorted(labels, key=lambda t: (t.lstrip("·").casefold(), t))


def handout_bytes(lesson, lang: str, runs=None) -> bytes:
    """The handout as the bytes of a PDF file, made in memory."""
    handout = Handout(lesson, lang, runs)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(72)  # one unit of the painter is one point
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait,
                                     QMarginsF(EDGE, EDGE, EDGE, EDGE), QPageLayout.Point))
    writer.setTitle(lesson.title[lang])
    writer.setCreator("AttnViz")
    if not handout.paint(writer):
        raise HandoutError(QT_TR_NOOP("the handout could not be rendered"))
    buffer.close()
    return named_as_written(bytes(data))


def write_handout(lesson, path, lang: str, runs=None) -> None:
    """The handout written to `path` (a .pdf), whole or not at all."""
    if not str(path).lower().endswith(".pdf"):
        raise HandoutError(QT_TR_NOOP("{0}: a handout is a PDF file: give a name ending in .pdf"), path)
    atomic_write(path, handout_bytes(lesson, lang, runs))


# ------------------------------------------------------------- the Lessons menu

def add_handout_menu(menu, window, given=None) -> None:
    """Lessons → Handout (PDF): the lesson being given, if one is, and each built-in lesson; written
    in the interface's language."""
    for old in menu.findChildren(QMenu, "handoutMenu"):  # the one made when the menu was last filled
        old.deleteLater()
    sub = QMenu(tr("Handout (PDF)"), menu, objectName="handoutMenu")
    menu.addMenu(sub)
    lang = current_language()
    lessons = ([given] if given is not None else []) + [x for x in list_lessons() if given is None or x != given]
    for lesson in lessons:
        sub.addAction(tr("{0}…").format(lesson.title[lang])).triggered.connect(
            lambda _=False, x=lesson: save_handout(window, x))


def save_handout(window, lesson) -> bool:
    lang = current_language()
    path, _ = QFileDialog.getSaveFileName(window, tr("Save the handout"), f"{lesson.id}-{lang}.pdf",
                                          tr("PDF (*.pdf)"))
    if not path:
        return False
    path = path if path.lower().endswith(".pdf") else path + ".pdf"
    runs = window.lessons.runs
    missing = [(s.scenario.value, s.off) for s in lesson.scenes
               if s.scenario.kind == "model" and not runs.has(s.scenario.value, s.off)]
    if missing:  # the real model reads first, off the GUI thread; the handout is written when it has
        ModelScenes(window, runs, missing, lambda: _write(window, lesson, path, lang, runs)).start_runs()
        return True
    return _write(window, lesson, path, lang, runs)


def _write(window, lesson, path, lang, runs) -> bool:
    try:
        write_handout(lesson, path, lang, runs)
    except AttnVizError as e:
        window.warn(tr("Cannot save"), str(e))
        return False
    window.show_status(tr("Handout saved: {0}").format(path))
    return True


class ModelScenes(BackgroundDialog):
    """The real model's scenes of a lesson run before its handout is written, with progress and Cancel."""

    def __init__(self, window, runs, keys, then):
        super().__init__(window)
        self.setWindowTitle(tr("Handout (PDF)"))
        self.runs, self.keys, self.then = runs, keys, then
        self.failed.connect(lambda why: window.warn(tr("Cannot save"), why))

    def progress_text(self, done: int, total: int) -> str:
        return tr("The model is reading the lesson's texts: {0} of {1}").format(done, total)

    def start_runs(self) -> None:
        self.show()
        self.start(self._work_runs)

    def _work_runs(self, step):
        for done, (text, off) in enumerate(self.keys):
            step(done, len(self.keys))
            self.runs.get(text, off, cancelled=lambda: False)
        step(len(self.keys), len(self.keys))

    def show_result(self, _) -> None:
        self.accept()
        self.then()

    def show_failure(self, message: str) -> None:
        self.reject()
