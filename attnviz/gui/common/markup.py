"""Text for labels and tooltips that show rich text: escaped (a token may be "<b>"), and the
maths' subscripts written as subscripts, as in a textbook (d_k becomes d with a subscript k).

Plain-text places (check boxes, tab titles, table headers, file captions) keep d_k: writing
"dₖ" there would need a glyph that many fonts, the bundled Japanese one included, lack.
"""
from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

# The names of the maths that carry a subscript: d_k, d_v, W_q, W_k, W_v, W_o, Q_i, K_i, V_i;
# never a part of a longer name such as n_kv_heads or v_labels.
SUBSCRIPTED = re.compile(r"(?<![A-Za-z0-9_])([dWQKV])_([kvqoi])(?![A-Za-z0-9_])")


def rich(text: str) -> str:
    """`text` as rich text: escaped, with its subscripts set as subscripts."""
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
