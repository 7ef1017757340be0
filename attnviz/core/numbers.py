"""Reading a number typed by a person: one rule for every cell, slider and file."""
from __future__ import annotations

import math
import unicodedata

# Every value AttnViz stores lies within ±MAX_ABS, so q·k over any d_k it allows
# stays far below float64's overflow and no view ever sees inf or NaN.
MAX_ABS = 1e6

# Minus signs a keyboard or a copied formula may produce. NFKC already maps
# full-width digits and '－' (U+FF0D) to ASCII but leaves these alone.
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-"})

RANGE_TEXT = "between -1,000,000 and 1,000,000"


class NumberError(ValueError):
    """A value AttnViz does not accept; the message says why, in the user's terms."""


def check_value(value) -> float:
    """Refuse NaN, ±inf and magnitudes above MAX_ABS; return the value as a float."""
    value = float(value)
    if math.isnan(value):
        raise NumberError("NaN (not a number) cannot be used")
    if not abs(value) <= MAX_ABS:
        raise NumberError(f"{value:g} is too large: values must lie {RANGE_TEXT}")
    return value


def parse_number(text: str) -> float:
    """'2.5', ' -1 ', '２.５', '－１', '−3', '1e-3' -> float; anything else -> NumberError."""
    shown = str(text).strip()
    cleaned = unicodedata.normalize("NFKC", shown).translate(_MINUS_SIGNS).replace(" ", "")
    if not cleaned:
        raise NumberError("the cell is empty: type a number such as 0.5")
    if cleaned.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise NumberError(f"“{shown}” is not a finite number: type one such as 0.5")
    try:
        value = float(cleaned)
    except ValueError:
        raise NumberError(f"“{shown}” is not a number: type one such as 0.5 or -2") from None
    if not abs(value) <= MAX_ABS:
        raise NumberError(f"“{shown}” is too large: values must lie {RANGE_TEXT}")
    return value
