"""What the model says next: the ten most likely next tokens as bars, and what an edit changed.

After a head is edited or switched off, each token shows its probability before → after
("·fish 12% → 3%"), so a class sees what one head does to what the model predicts.
"""
from __future__ import annotations

import html
import re
import unicodedata

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...core import lm
from ...core.lm.shown import hex_bytes
from ...core.text import visible
from ..common.i18n import Retranslated, tr
from ..look.fonts import figure_font, figure_font_like

BAR = QColor(49, 104, 142)
UP, DOWN = QColor(40, 150, 60), QColor(200, 60, 40)
TOP = 10


def shown_token(text: str, raw: bytes | None = None) -> str:
    """A next token as a class can tell it from the others: spaces as · (a long run as ·×9),
    controls visible (a newline as ↵), and the first bytes of a character, which the model
    writes over two tokens, as the characters they begin ([ぁ–み] for E3 81)."""
    if raw is not None:
        head, tail = _split_partial(raw)
        text = _hex_bytes(head) + (_character_range(tail) if tail else "")
    shown = visible(text) if text.strip(" ") else text
    shown = re.sub(r" {4,}", lambda run: f"·×{len(run.group(0))}", shown)
    return shown.replace(" ", "·")


def _split_partial(raw: bytes) -> tuple[bytes, bytes]:
    """raw as (whole characters, the first bytes of a last character that is not all there)."""
    for size in (1, 2, 3):
        if len(raw) >= size:
            lead = raw[-size]
            need = 2 if 0xC0 <= lead < 0xE0 else 3 if 0xE0 <= lead < 0xF0 else 4 if 0xF0 <= lead < 0xF8 else 0
            if need > size:
                return raw[:-size], raw[-size:]
    return raw, b""


def _hex_bytes(raw: bytes) -> str:
    """Decoded, with bytes that are no whole character in hex: <81 AB>."""
    return hex_bytes(raw, "\u00a0")


def _character_range(tail: bytes) -> str:
    """The first bytes of a character: the 64 characters they may begin when one byte is missing
    ([ぁ–み]), in hex when more are (thousands of characters)."""
    if len(tail) + 1 != {0xC: 2, 0xD: 2, 0xE: 3, 0xF: 4}.get(tail[0] >> 4, 0):
        return _hex_bytes(tail)
    try:
        characters = [(tail + bytes([last])).decode("utf-8") for last in range(0x80, 0xC0)]
    except UnicodeDecodeError:
        return _hex_bytes(tail)
    shown = [ch for ch in characters if unicodedata.category(ch)[0] not in "CZ"]
    return f"[{shown[0]}–{shown[-1]}]" if shown else _hex_bytes(tail)


def rows(model, before, after, k: int = TOP) -> list[tuple[str, float, float | None]]:
    """(token, probability now, probability before the changes or None) for the k most likely
    now, and any token of the k most likely before that fell out of them."""
    return [row[1:] for row in rows_with_ids(model, before, after, k)]


def rows_with_ids(model, before, after, k: int = TOP) -> list[tuple[int, str, float, float | None]]:
    """rows(), each with its token's id first."""
    now = lm.top(model, after.probs, k)
    def label(i, text):
        return shown_token(text, lm.token_bytes(model, i))
    out = [(i, label(i, text), p, float(before.probs[i]) if before is not after else None) for i, text, p in now]
    if before is not after:
        ids = {i for i, _, _ in now}
        out += [(i, label(i, text), float(after.probs[i]), p) for i, text, p in lm.top(model, before.probs, k)
                if i not in ids]
    return out


class NextTokenBars(QWidget):
    """One bar per token, its probability written beside it (before → after when it changed).

    A lesson's question about the next token (set_asked) hides the bars and the numbers: the likeliest
    tokens are listed in the order of their text, for the class to pick one (a click); the reveal draws
    the bars again, the pick outlined green when it was the most likely, red when not."""

    fitted = Signal()      # how many rows fit changed
    guessed = Signal(int)  # a click on a token while its question hides the bars: the token's id

    def __init__(self, parent=None):
        super().__init__(parent)
        self.items: list[tuple[str, float, float | None]] = []
        self.ids: list[int] = []
        self.asked = None  # common/asked.py's Asked whose guess is a token id, or None
        self._fit = TOP
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def show_rows(self, items, ids=()):
        self.items, self.ids = items, list(ids)
        self.updateGeometry()
        self.update()

    def set_asked(self, asked) -> None:
        self.asked = asked
        self.update()

    def hiding(self) -> bool:
        return self.asked is not None and not self.asked.revealed

    def drawn(self) -> list[int]:
        """The rows drawn, top to bottom, as indices into items: the likeliest first, or while hidden the
        likeliest now in the order of their text (the order says nothing)."""
        if not self.hiding():
            return list(range(self.shown()))
        likeliest = range(min(TOP, len(self.items)))  # those of the run now (rows_with_ids lists them first)
        return sorted(likeliest, key=lambda r: (self.items[r][0].lstrip("·").casefold(), r))

    def mousePressEvent(self, event):
        if not self.hiding() or not self.items or not self.ids:
            return super().mousePressEvent(event)
        drawn = self.drawn()
        for r, rect in enumerate(self._choice_cells(QFontMetricsF(figure_font_like(self.font())), len(drawn))):
            if rect.contains(event.position()):
                self.guessed.emit(self.ids[drawn[r]])

    def shown(self) -> int:
        """How many rows it draws: all, or as many as fit at its type (three at least)."""
        return min(len(self.items), self._fit)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._refit()

    def changeEvent(self, event):
        if event.type() == QEvent.FontChange:
            self._refit()
        super().changeEvent(event)

    def _refit(self):
        fit = max(3, int(self.height() / (QFontMetricsF(figure_font_like(self.font())).height() * 1.15)))
        if fit != self._fit:
            self._fit = fit
            self.update()
            self.fitted.emit()

    def sizeHint(self):
        fm = QFontMetricsF(self.font())
        return QSize(int(fm.height() * 20), int(fm.height() * 1.3 * max(len(self.items), TOP)))

    def minimumSizeHint(self):
        fm = QFontMetricsF(self.font())
        return QSize(int(fm.height() * 12), int(fm.height() * 5))

    def _font(self):
        font = figure_font_like(self.font())
        rows = max(1, len(self.drawn()))
        if QFontMetricsF(font).height() * 1.15 * rows > self.height():  # shorter than three rows
            font = figure_font(pixel_size=max(8.0, self.height() / rows / 1.15 / 1.45))
        return font

    def _line(self, fm, rows: int) -> float:
        return min(fm.height() * 1.6, self.height() / max(1, rows))

    def paintEvent(self, event):
        if not self.items:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        if self.hiding():
            self._paint_choices(p)
            p.end()
            return
        order = self.drawn()  # a short panel: the likeliest, at a readable size
        items = [self.items[r] for r in order]
        font = self._font()
        p.setFont(font)
        fm = QFontMetricsF(font)
        line = self._line(fm, len(items))
        label_w = min(max(fm.horizontalAdvance(t) for t, _, _ in items) + fm.height() * 0.5, self.width() * 0.35)
        text_w = fm.horizontalAdvance("100.0% → 100.0%") + fm.height() * 0.5
        mark_w = fm.height() * 1.5 if self.asked is not None and self.asked.mark() else 0.0  # ✓ / ✗ right of it
        bar_w = max(10.0, self.width() - label_w - text_w - mark_w)
        peak = max(max(now, before or 0.0) for _, now, before in items) or 1.0
        for r, (token, now, before) in enumerate(items):
            y = r * line
            p.setPen(self.palette().windowText().color())
            p.drawText(QRectF(0, y, label_w - fm.height() * 0.3, line), Qt.AlignRight | Qt.AlignVCenter,
                       fm.elidedText(token, Qt.ElideRight, label_w - fm.height() * 0.3))
            self._paint_guess(p, order[r], QRectF(1, y + 1, self.width() - 2, line - 2), fm)
            if before is not None:  # the bar before the changes, as an outline
                p.setPen(self.palette().mid().color())
                p.setBrush(Qt.NoBrush)
                p.drawRect(QRectF(label_w, y + line * 0.2, bar_w * before / peak, line * 0.6))
            p.setPen(Qt.NoPen)
            p.setBrush(BAR)
            p.drawRect(QRectF(label_w, y + line * 0.2, bar_w * now / peak, line * 0.6))
            text = f"{now:.1%}" if before is None else f"{before:.1%} → {now:.1%}"
            p.setPen(self.palette().windowText().color() if before is None or abs(now - before) < 0.005
                     else UP if now > before else DOWN)
            p.drawText(QRectF(label_w + bar_w + fm.height() * 0.3, y, text_w, line), Qt.AlignLeft | Qt.AlignVCenter,
                       text)
        p.end()

    def _choice_cells(self, fm, n: int) -> list[QRectF]:
        """Where the hidden question's tokens go: down columns, as many rows as fit the panel at its type.
        All of them are listed, however short the panel: a list cut to the likeliest would give the
        answer away."""
        line = fm.height() * 1.6
        per_column = max(1, min(n, int(self.height() // line)))
        columns = -(-n // per_column)
        width = self.width() / max(1, columns)
        return [QRectF((r // per_column) * width, (r % per_column) * line, width, line) for r in range(n)]

    def _paint_choices(self, p) -> None:
        """The question's hidden bars: the tokens alone, each marked ? in a grey box, the guess outlined."""
        font = figure_font_like(self.font())
        p.setFont(font)
        fm = QFontMetricsF(font)
        order = self.drawn()
        for index, rect in zip(order, self._choice_cells(fm, len(order))):
            box = QRectF(rect.left() + fm.height() * 0.4, rect.top() + rect.height() * 0.2, fm.height() * 1.2,
                         rect.height() * 0.6)
            p.setPen(Qt.NoPen)
            p.setBrush(self.palette().mid().color())
            p.drawRect(box)
            p.setPen(self.palette().windowText().color())
            p.drawText(box, Qt.AlignCenter, "?")
            text = rect.adjusted(box.right() - rect.left() + fm.height() * 0.4, 0, 0, 0)
            p.drawText(text, Qt.AlignLeft | Qt.AlignVCenter,
                       fm.elidedText(self.items[index][0], Qt.ElideRight, text.width() - fm.height()))
            self._paint_guess(p, index, rect.adjusted(1, 1, -1, -1), fm)

    def _paint_guess(self, p, index: int, rect: QRectF, fm) -> None:
        """The class's guess: outlined (orange, then green or red), ✓ or ✗ after the reveal."""
        a = self.asked
        if a is None or a.guess is None or index >= len(self.ids) or self.ids[index] != a.guess:
            return
        pen = QPen(QColor(*a.colour()))
        pen.setWidthF(max(3.0, fm.height() * 0.12))
        p.setPen(pen)
        p.setBrush(Qt.NoBrush)
        p.drawRoundedRect(rect, 4, 4)
        if a.mark():
            p.drawText(rect.adjusted(0, 0, -fm.height() * 0.3, 0), Qt.AlignRight | Qt.AlignVCenter, a.mark())


class NextTokenView(Retranslated, QWidget):
    """The next-token panel: which text, what the model predicts, what the changes did."""

    def __init__(self, runner, parent=None):
        super().__init__(parent)
        self.setObjectName("nextTokenView")
        self.runner = runner
        self.title = QLabel(objectName="nextTokenTitle", wordWrap=True)
        self.status = QLabel(objectName="nextTokenStatus", wordWrap=True)
        self.bars = NextTokenBars()
        self.bars.fitted.connect(self.refresh)
        self.presenting = False  # full screen: no desk help under the bars, the step table has the room
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.bars, 1)
        layout.addWidget(self.status)
        runner.ran.connect(lambda _: self.refresh())
        runner.loaded.connect(lambda *_: self.refresh())
        runner.progress.connect(lambda *_: self.refresh())
        runner.cancelled.connect(self.refresh)  # a new text not read: back to what is shown
        runner.failed.connect(lambda _: self.refresh())
        runner.document.changed.connect(self.refresh)

    def items(self):
        """The rows the panel shows now (tests read them)."""
        return self.bars.items

    def set_asked(self, asked) -> None:
        """A lesson's question about the next token: its bars hidden until revealed, the guess marked. The
        status line makes way for the tokens listed meanwhile (the caption says what to do)."""
        self.bars.set_asked(asked)
        self.refresh()

    def set_presenting(self, on: bool) -> None:
        self.presenting = on
        self.refresh()

    def label(self, token_id: int) -> str:
        """A token as the bars write it."""
        model = self.runner.model
        return shown_token(lm.token_text(model, token_id), lm.token_bytes(model, token_id))

    def refresh(self):
        r, live = self.runner, self.runner.document.scenario.live
        if live is None or r.model is None or r.latest is None:
            self.bars.show_rows([])
            return
        after = r.latest
        edited = bool(after.changes) or after.patch is not None or after.steer is not None
        before = r.baseline if r.baseline is not None and r.baseline is not after and edited else after
        found = rows_with_ids(r.model, before, after)
        self.bars.show_rows([row[1:] for row in found], [row[0] for row in found])
        last = self.runner.document.scenario.tokens[-1]
        self.title.setText(tr("<b>Next token</b> after “{0}”: the model's {1} most likely").format(
            html.escape(last), len(self.bars.drawn()) if self.bars.hiding() else min(TOP, self.bars.shown())))
        changed = len({(c[0], c[1]) for c in after.changes})
        if r.busy or r.current() is None:
            status = tr("Running the model again with your changes…")
        elif changed:
            status = (tr("One head changed: outline = before, bar = now") if changed == 1 else
                      tr("{0} heads changed: outline = before, bar = now").format(changed))
        elif after.patch is not None or after.steer is not None:
            status = tr("Outline = before, bar = now")
        else:  # how to use the panel: desk help, not for the class
            status = "" if self.presenting else tr(
                "The model as it is. Edit a head's q, k or v, or switch a head off (right-click its heatmap), "
                "and watch the prediction move.")
        if after.patch is not None and r.current() is not None:
            status = tr("The residual stream entering layer {0} at “{1}” is patched in.").format(
                after.patch.layer, self.runner.document.scenario.tokens[after.patch.position]) + "\n" + status
        if after.steer is not None and r.current() is not None:
            status = steered(after.steer, self.runner.document.scenario.tokens) + "\n" + status
        if any(re.search(r"\[.–.\]$", token) for token, _, _ in self.bars.items):
            status = (status + "\n" if status else "") + tr(
                "[ぁ–み]: the first bytes of one of these characters; the model writes such a character as two tokens.")
        self.status.setText(status)
        self.status.setVisible(bool(status) and not self.bars.hiding())

    def retranslate(self) -> None:
        self.refresh()


def steered(steer, tokens) -> str:
    """What the steer adds, in a line: its α, its layer and the tokens it is added at."""
    last = len(tokens) - 1 if steer.stop is None else steer.stop - 1
    return tr("Steered: {0:+g} × the direction added entering layer {1}, at “{2}” to “{3}”.").format(
        steer.alpha, steer.layer, tokens[steer.start], tokens[last])
