"""Text for labels and tooltips that show rich text: escaped (a token may be "<b>"), and the
maths' subscripts written as subscripts, as in a textbook (d_k, or tr()'s dₖ, becomes d with a
subscript k).

Plain-text places (check boxes, tab titles, table headers, file captions) get tr()'s Unicode
subscripts (dₖ, Wₒ, Kᵢᵀ: common/i18n.py), which the bundled Noto Sans CJK has.
"""
from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from .i18n import SUBSCRIPT_LETTERS

# The names of the maths that carry a subscript: d_k, d_v, W_q, W_k, W_v, W_o, Q_i, K_i, K_j, V_i, Y_i, Y_0,
# also written together as a product (Q_iK_iᵀ, YW_o); never a part of a longer name such as n_kv_heads,
# v_labels or d_kv.
SUBSCRIPTED = re.compile(r"(?:(?<![a-z0-9_])|(?<=_[kvqoij0-9]))([dWQKVY])_([kvqoij0-9])(?![a-z0-9_])")


UNICODE_SUBSCRIPTED = re.compile(rf"([dWQKVY])([{''.join(SUBSCRIPT_LETTERS.values())}])")
LETTER_OF = {sub: letter for letter, sub in SUBSCRIPT_LETTERS.items()}


MARKED = re.compile(r"_(\{[^}]*\}|.)")  # a drawing's own marks: "W_q", "Q_{0}" (painted, not rich text)


def pieces(text: str) -> list[tuple[str, bool]]:
    """"W_q" -> [("W", False), ("q", True)]: a text the painters draw, its subscripts marked."""
    out, at = [], 0
    for m in MARKED.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], False))
        out.append((m.group(1).strip("{}"), True))
        at = m.end()
    if at < len(text):
        out.append((text[at:], False))
    return out


def unmarked(text: str) -> str:
    """What a reader sees, the subscripts inline: "W_q" -> "Wq"."""
    return "".join(t for t, _ in pieces(text))


def rich(text: str) -> str:
    """`text` as rich text: escaped, with its subscripts (d_k or dₖ) set as subscripts."""
    text = UNICODE_SUBSCRIPTED.sub(lambda m: f"{m[1]}_{LETTER_OF[m[2]]}", text)
    return SUBSCRIPTED.sub(r"\1<sub>\2</sub>", html.escape(text, quote=False))


def rich_tip(text: str) -> str:
    """A tooltip in rich text (<qt> makes Qt read it so, and wrap it at a readable width)."""
    return f"<qt>{rich(text)}</qt>"


class MathLabel(QLabel):
    """A word-wrapped label whose text is set as plain words with the maths' subscripts."""

    def __init__(self, **kwargs):
        super().__init__(wordWrap=True, textFormat=Qt.RichText, **kwargs)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(rich(text))
