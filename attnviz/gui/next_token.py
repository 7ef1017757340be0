"""What the model says next: the ten most likely next tokens as bars, and what an edit changed.

After a head is edited or switched off, each token shows its probability before → after
("·fish 12% → 3%"), so a class sees what one head does to what the model predicts.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from ..core import llama
from ..core.text import visible
from .fonts import figure_font
from .i18n import tr

BAR = QColor(49, 104, 142)
UP, DOWN = QColor(40, 150, 60), QColor(200, 60, 40)
TOP = 10


def shown_token(text: str) -> str:
    """A next token as the step table shows tokens: a leading space as ·, controls visible."""
    stripped = text.lstrip(" ")
    lead = "·" * (len(text) - len(stripped))
    return lead + visible(stripped) if stripped else (lead or visible(text))


def rows(model, before, after, k: int = TOP) -> list[tuple[str, float, float | None]]:
    """(token, probability now, probability before the changes or None) for the k most likely
    now, and any token of the k most likely before that fell out of them."""
    now = llama.top(model, after.probs, k)
    out = [(shown_token(text), p, float(before.probs[i]) if before is not after else None) for i, text, p in now]
    if before is not after:
        ids = {i for i, _, _ in now}
        out += [(shown_token(text), float(after.probs[i]), p) for i, text, p in llama.top(model, before.probs, k)
                if i not in ids]
    return out


class NextTokenBars(QWidget):
    """One bar per token, its probability written beside it (before → after when it changed)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.items: list[tuple[str, float, float | None]] = []
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def show_rows(self, items):
        self.items = items
        self.updateGeometry()
        self.update()

    def sizeHint(self):
        fm = QFontMetricsF(self.font())
        return QSize(int(fm.height() * 20), int(fm.height() * 1.3 * max(len(self.items), TOP)))

    def minimumSizeHint(self):
        fm = QFontMetricsF(self.font())
        return QSize(int(fm.height() * 12), int(fm.height() * 5))

    def paintEvent(self, event):
        if not self.items:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        font = figure_font(point_size=self.font().pointSizeF())
        p.setFont(font)
        fm = QFontMetricsF(font)
        line = min(fm.height() * 1.6, self.height() / max(len(self.items), 1))
        label_w = min(max(fm.horizontalAdvance(t) for t, _, _ in self.items) + fm.height() * 0.5, self.width() * 0.35)
        text_w = fm.horizontalAdvance("100.0% → 100.0%") + fm.height() * 0.5
        bar_w = max(10.0, self.width() - label_w - text_w)
        peak = max(max(now, before or 0.0) for _, now, before in self.items) or 1.0
        for r, (token, now, before) in enumerate(self.items):
            y = r * line
            p.setPen(self.palette().windowText().color())
            p.drawText(QRectF(0, y, label_w - fm.height() * 0.3, line), Qt.AlignRight | Qt.AlignVCenter,
                       fm.elidedText(token, Qt.ElideRight, label_w - fm.height() * 0.3))
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
            p.drawText(QRectF(label_w + bar_w + fm.height() * 0.3, y, text_w, line), Qt.AlignLeft | Qt.AlignVCenter, text)
        p.end()


class NextTokenView(QWidget):
    """The next-token panel: which text, what the model predicts, what the changes did."""

    def __init__(self, runner, parent=None):
        super().__init__(parent)
        self.setObjectName("nextTokenView")
        self.runner = runner
        self.title = QLabel(objectName="nextTokenTitle", wordWrap=True)
        self.status = QLabel(objectName="nextTokenStatus", wordWrap=True)
        self.bars = NextTokenBars()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.bars, 1)
        layout.addWidget(self.status)
        runner.ran.connect(lambda _: self.refresh())
        runner.loaded.connect(lambda *_: self.refresh())
        runner.progress.connect(lambda *_: self.refresh())
        runner.document.changed.connect(self.refresh)

    def items(self):
        """The rows the panel shows now (tests read them)."""
        return self.bars.items

    def refresh(self):
        r, live = self.runner, self.runner.document.scenario.live
        if live is None or r.model is None or r.latest is None:
            self.bars.show_rows([])
            return
        after = r.latest
        before = r.baseline if r.baseline is not None and r.baseline is not after and after.changes else after
        self.bars.show_rows(rows(r.model, before, after))
        last = self.runner.document.scenario.tokens[-1]
        self.title.setText(tr("<b>Next token</b> after {0}: the model's {1} most likely").format(html.escape(last), TOP))
        changed = len({(c[0], c[1]) for c in after.changes})
        if r.busy or r.current() is None:
            self.status.setText(tr("Running the model again with your changes…"))
        elif changed:
            self.status.setText(tr("{0} head(s) changed: outline = before, bar = now").format(changed))
        else:
            self.status.setText(tr("The model as it is. Edit a head's q, k or v, or switch a head off "
                                   "(right-click its heatmap), and watch the prediction move."))
