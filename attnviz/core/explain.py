"""The arithmetic of one query row written out as the tutorial's table writes it.

Plain strings, no Qt: the step table, exports and tests all read the same text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .attention import AttentionTrace

MINUS = "\u2212"   # a real minus sign lines up with digits in proportional fonts
MINUS_INFINITY = MINUS + "\u221e"
MAX_TERMS = 4      # longer sums are shortened: 0.1×0.2 + 0.3×0.1 + … = 1.5
MAX_ITEMS = 6      # longer vectors are shortened: [0.1, 0.2, 0.3, …]


def fmt(x: float, decimals: int = 3) -> str:
    """2.0 -> '2', 0.76792 -> '0.768', -0.5 -> '−0.5', 1234567 -> '1.235e+06', -inf -> '−∞'."""
    x = float(x)
    if math.isinf(x):
        return MINUS_INFINITY if x < 0 else "\u221e"
    if x != 0 and (abs(x) >= 1e5 or abs(x) < 10 ** -decimals):
        text = f"{x:.{decimals}e}"
    else:
        text = f"{x:.{decimals}f}".rstrip("0").rstrip(".")
        text = "0" if text in ("-0", "") else text
    return text.replace("-", MINUS)


def fmt_vector(v, decimals: int = 3, max_items: int = MAX_ITEMS) -> str:
    items = [fmt(x, decimals) for x in v[:max_items]]
    return "[" + ", ".join(items + (["…"] if len(v) > max_items else [])) + "]"


def dot_text(q, k, decimals: int = 3) -> str:
    """'0×2 + 2×0 = 0': the dot product as the tutorial writes it."""
    pairs = list(zip(q, k))
    shown = pairs if len(pairs) <= MAX_TERMS else pairs[:MAX_TERMS - 1]  # format only what is shown
    terms = [f"{_factor(a, decimals)}×{_factor(b, decimals)}" for a, b in shown]
    if len(pairs) > MAX_TERMS:
        terms.append("…")
    return " + ".join(terms) + f" = {fmt(float(np.dot(q, k)), decimals)}"


def _factor(x: float, decimals: int) -> str:
    text = fmt(x, decimals)
    return f"({text})" if text.startswith(MINUS) else text


@dataclass(frozen=True)
class StepRow:
    """One key's line in the step table of query i (or the Σ line under them)."""

    key: str
    k: str
    dot: str          # q·k written out
    scaled: str       # after ÷ √d_k (and ÷ temperature)
    mask: str         # '0' or '−∞'
    exp: str          # e to the masked score (0 for a masked key), as the tutorial divides it
    weight: str       # softmax: exp / Σ exp
    weight_value: float
    masked: bool

    @property
    def cells(self) -> tuple[str, ...]:
        """The row as the step table shows it: key, k, q·k, ÷√d_k, mask, eˣ, weight."""
        return (self.key, self.k, self.dot, self.scaled, self.mask, self.exp, self.weight)


# e^x is written out as the tutorial does (e^2.83 ≈ 16.9) while it stays printable; beyond,
# softmax subtracts the largest score first, and the table shows e^(x − max) as computed.
EXP_DIRECT_LIMIT = 60.0


def exponentials(masked_row) -> tuple[np.ndarray, bool]:
    """(e^x for each key, 0 where masked; True when the max was subtracted first)."""
    x = np.asarray(masked_row, dtype=float)
    finite = x[np.isfinite(x)]
    peak = float(finite.max()) if finite.size else 0.0
    shifted = abs(peak) > EXP_DIRECT_LIMIT
    with np.errstate(under="ignore"):
        return np.exp(x - peak if shifted else x), shifted


def fmt3(x: float) -> str:
    """Three significant digits, as the tutorial's e^x: 1.00, 16.9, 4.11, 22.0, 3.42e−5; 0 stays 0."""
    if x == 0:
        return "0"
    text = f"{x:#.3g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa.rstrip('.')}e{int(exponent)}"
    text = text.rstrip(".")  # 598. -> 598
    return text.replace("-", MINUS)


def step_rows(tokens, q_row, k, trace: AttentionTrace, i: int) -> list[StepRow]:
    exps, _ = exponentials(trace.masked[i])
    rows = []
    for j, token in enumerate(tokens):
        masked = bool(np.isneginf(trace.masked[i, j]))
        rows.append(StepRow(
            key=token, k=fmt_vector(k[j]), dot=dot_text(q_row, k[j]),
            scaled=fmt(trace.scaled[i, j]), mask=MINUS_INFINITY if masked else "0",
            exp="0" if masked else fmt3(exps[j]),
            weight="0" if masked else f"{trace.weights[i, j]:.3f}",  # aligned; a masked 0 is exact
            weight_value=float(trace.weights[i, j]), masked=masked))
    return rows


def sum_row(trace: AttentionTrace, i: int) -> StepRow:
    """The Σ line: the sum of e^x that each one is divided by, and the weights' sum, 1."""
    exps, _ = exponentials(trace.masked[i])
    return StepRow(key="Σ", k="", dot="", scaled="", mask="", exp=fmt3(float(exps.sum())),
                   weight=f"{float(trace.weights[i].sum()):.3f}", weight_value=0.0, masked=False)


def divisor_text(d_k: int, scale: bool, temperature: float) -> str:
    """The column title: '÷√2', '÷√64 ÷ 0.5', '÷ 1' (nothing when scaling is off and T = 1)."""
    parts = [f"÷√{d_k}"] if scale else []
    if temperature != 1.0:
        parts.append(f"÷ {fmt(temperature, 2)}")
    return " ".join(parts) if parts else "÷ 1"


def output_text(weights_row, v, output_row, decimals: int = 3) -> str:
    """'0.045×[2, 0] + 0.769×[0, 2] + 0.186×[1, 1] = [0.276, 1.724]' over the visible keys."""
    terms = [f"{w:.{decimals}f}×{fmt_vector(v[j], decimals)}"  # weights as the table shows them
             for j, w in enumerate(weights_row) if w > 0]
    if len(terms) > MAX_TERMS:
        terms = terms[:MAX_TERMS - 1] + ["…"]
    return " + ".join(terms) + f" = {fmt_vector(output_row, decimals)}"
