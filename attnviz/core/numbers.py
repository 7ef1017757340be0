"""Reading a number typed by a person: one rule for every cell, slider and file."""
from __future__ import annotations

import re
import unicodedata

from .messages import QT_TR_NOOP, AttnVizError, Phrase

# Every value AttnViz stores lies within ±MAX_ABS, so q·k over any d_k it allows
# stays far below float64's overflow and no view ever sees inf or NaN.
MAX_ABS = 1e6

# Minus signs a keyboard or a copied formula may produce. NFKC already maps
# full-width digits and '－' (U+FF0D) to ASCII but leaves these alone.
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-"})

RANGE_TEXT = Phrase(QT_TR_NOOP("between -1,000,000 and 1,000,000"))
# Decimal notation only: Python's float() would also take "1_0" (as 10), "infinity" and "nan".
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


class NumberError(AttnVizError):
    """A value AttnViz does not accept; the message says why, in the user's terms."""


def parse_number(text: str) -> float:
    """'2.5', ' -1 ', '２.５', '－１', '−3', '1e-3' -> float; anything else -> NumberError."""
    shown = str(text).strip()
    cleaned = unicodedata.normalize("NFKC", shown).translate(_MINUS_SIGNS).replace(" ", "")
    if not cleaned:
        raise NumberError(QT_TR_NOOP("the cell is empty: type a number such as 0.5"))
    if cleaned.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise NumberError(QT_TR_NOOP("“{0}” is not a finite number: type one such as 0.5"), shown)
    if not _NUMBER.fullmatch(cleaned) or not cleaned.isascii():
        raise NumberError(QT_TR_NOOP("“{0}” is not a number: type one such as 0.5 or -2"), shown)
    value = float(cleaned)
    if not abs(value) <= MAX_ABS:
        raise NumberError(QT_TR_NOOP("“{0}” is too large: values must lie between -1,000,000 and 1,000,000"),
                          shown)
    return value
