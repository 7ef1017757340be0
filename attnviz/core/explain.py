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


def fmt(x: float, decimals: int = 3, fixed: bool = False) -> str:
    """2.0 -> '2', 0.76792 -> '0.768', -0.5 -> '−0.5', 1234567 -> '1.235×10⁶', -inf -> '−∞';
    `fixed` keeps every decimal (2.0 -> '2.000'), so that the numbers of one view line up.
    A value too small for the decimals is '0.000' (not an exact zero), never '−0.000' (a class reads
    a minus zero as a mistake), nor '3.493e−04' (which reads as 3.49 where a column cuts it) nor '1.384e−87'; an exact
    zero is '0' unless fixed. Large values are written as school writes them, never as 1.2e+06."""
    x = float(x)
    if math.isinf(x):
        return MINUS_INFINITY if x < 0 else "\u221e"
    if x != 0 and abs(x) < 0.5 * 10 ** -decimals:
        return f"{0:.{decimals}f}"
    if abs(x) >= 1e5:
        return times_ten(x, decimals + 1)
    text = f"{x:.{decimals}f}"
    if not fixed:
        text = text.rstrip("0").rstrip(".")
    if text.lstrip("-").strip("0.") == "":  # −0.0001 at two decimals: no '−0.00'
        text = text.lstrip("-") or "0"
    return text.replace("-", MINUS)


SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def times_ten(x: float, significant: int = 3) -> str:
    """336_800 -> '3.37×10⁵', 2.57e-27 -> '2.57×10⁻²⁷': as school writes powers of ten (the
    command line's JSON keeps its numbers as numbers)."""
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return fmt(x)
    mantissa, exponent = f"{x:.{max(1, significant) - 1}e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPTS)}".replace("-", MINUS)


def fmt_temperature(t: float) -> str:
    """The temperature as it is used, to its own digits: 0.05, 0.049, 1, 10, 0.0125 (never the
    0.05 that is really 0.049, so 6 ÷ √4 ÷ 0.05 = 60 agrees with the table)."""
    return f"{float(t):.6g}"


def decimals_for(values, most: int = 3) -> int:
    """The fewest decimals, up to `most`, that write every value exactly: one format for a whole
    view (0.5 and 2 as '0.5' and '2.0'; never '0.19' next to '0.184')."""
    x = np.asarray(values, dtype=float).ravel()
    x = x[np.abs(x) < 1e5]  # larger ones are written with an exponent
    for decimals in range(most):
        if np.allclose(np.round(x, decimals), x, rtol=0, atol=1e-9):
            return decimals
    return most


def input_decimals(q_row, k) -> int:
    """The decimals of query i's explanation: its q and every k, written alike."""
    return max(decimals_for(q_row), decimals_for(k))


def fmt_vector(v, decimals: int = 3, max_items: int = MAX_ITEMS, fixed: bool = False) -> str:
    items = [fmt(x, decimals, fixed) for x in v[:max_items]]
    return "[" + ", ".join(items + (["…"] if len(v) > max_items else [])) + "]"


def dot_text(q, k, decimals: int | None = None, shortest: bool = False) -> str:
    """'0×2 + 2×0 = 0': the dot product as the tutorial writes it, the factors with `decimals`
    (those of the q and k it comes from) and the sum with as many as it needs, up to 3. `shortest`:
    each number with only the decimals it needs (1.5×0 + 0×2 = 0, not 1.50×0.00 + 0.00×2.00 = 0.000),
    for a projector's narrow column."""
    decimals = input_decimals(q, k) if decimals is None else decimals
    pairs = list(zip(q, k))
    shown = pairs if len(pairs) <= MAX_TERMS else pairs[:MAX_TERMS - 1]  # format only what is shown
    terms = [f"{_factor(a, decimals, shortest)}×{_factor(b, decimals, shortest)}" for a, b in shown]
    if len(pairs) > MAX_TERMS:
        terms.append("…")
    return " + ".join(terms) + f" = {fmt(float(np.dot(q, k)), min(3, 2 * decimals), fixed=not shortest)}"


def _factor(x: float, decimals: int, shortest: bool = False) -> str:
    text = fmt(x, decimals, fixed=not shortest)
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


# eˣ is written out as the tutorial does (e to the 2.83 ≈ 16.95) while it stays printable;
# beyond, softmax subtracts the largest score first, and the table says so in words.
EXP_DIRECT_LIMIT = 60.0
SHOWN_SUM_KEYS = 64  # beyond, nobody adds the column by hand


def exponentials(masked_row) -> tuple[np.ndarray, bool]:
    """(eˣ for each key, 0 where masked; True when the max was subtracted first)."""
    x = np.asarray(masked_row, dtype=float)
    finite = x[np.isfinite(x)]
    peak = float(finite.max()) if finite.size else 0.0
    shifted = abs(peak) > EXP_DIRECT_LIMIT
    with np.errstate(under="ignore"):
        return np.exp(x - peak if shifted else x), shifted


def fmt_exp(x: float) -> str:
    """eˣ with the digits a class checks by hand: two decimals from 1 up (1.00, 16.92, 4.11,
    Σ 22.03), three significant digits below (0.368, 0.0498), powers of ten where those would
    not fit or say nothing (3.37×10⁵, 2.57×10⁻²⁷); 0 stays 0 (a masked key)."""
    x = float(x)
    if x == 0:
        return "0"
    if x >= 1e5 or x < 0.01:
        return times_ten(x, 3)
    return f"{x:.2f}" if x >= 1 else f"{x:#.3g}"


class StepNumbers:
    """The numbers of query i's step table, each row written out only when it is asked for: a
    table of 512 keys shows a dozen of them, and formatting all would cost more than the maths."""

    def __init__(self, tokens, q_row, k, trace: AttentionTrace, i: int):
        self.tokens, self.q, self.k = tokens, np.asarray(q_row), np.asarray(k)
        self.scaled = np.asarray(trace.scaled[i])
        self.hidden = np.isneginf(trace.masked[i])        # [n] True where the key is masked
        self.exps, self.shifted = exponentials(trace.masked[i])
        self.peak = float(np.max(trace.masked[i]))  # the largest score: what a shifted eˣ subtracted
        self.weights = np.asarray(trace.weights[i])
        self._rows: dict[int, StepRow] = {}
        self._decimals: int | None = None

    @property
    def decimals(self) -> int:
        """One format for every q and k the table writes: the fewest decimals that show them all."""
        if self._decimals is None:
            self._decimals = input_decimals(self.q, self.k)
        return self._decimals

    def __len__(self) -> int:
        return len(self.tokens)

    def row(self, j: int) -> StepRow:
        if j not in self._rows:
            masked = bool(self.hidden[j])
            self._rows[j] = StepRow(
                key=self.tokens[j], k=fmt_vector(self.k[j], self.decimals, fixed=True),
                dot=dot_text(self.q, self.k[j], self.decimals),
                scaled=fmt(self.scaled[j], 3, fixed=True), mask=MINUS_INFINITY if masked else "0",
                exp="0" if masked else fmt_exp(self.exps[j]),
                weight="0" if masked else f"{self.weights[j]:.3f}",  # aligned; a masked 0 is exact
                weight_value=float(self.weights[j]), masked=masked)
        return self._rows[j]

    def total(self) -> StepRow:
        """The Σ line: the sum of eˣ that each one is divided by, and the weights' sum, 1."""
        return StepRow(key="Σ", k="", dot="", scaled="", mask="", exp=fmt_exp(float(self.exps.sum())),
                       weight=f"{float(self.weights.sum()):.3f}", weight_value=0.0, masked=False)

    def best(self) -> int:
        return int(np.argmax(self.weights))

    def shown_sum(self) -> str | None:
        """What the eˣ shown add up to, written as Σ is, when that is not the Σ shown (Σ adds them
        before rounding: 29.52 above rows a class adds to 29.53); None when they agree, or when a
        row is written with a power of ten (no class adds those by hand) or the keys are many."""
        if len(self) > SHOWN_SUM_KEYS:
            return None
        texts = [self.row(j).exp for j in range(len(self)) if not self.hidden[j]]
        if any("×" in t for t in texts):
            return None
        added = fmt_exp(sum(float(t) for t in texts))
        return None if added == self.total().exp else added

    def changed_rows(self, old: "StepNumbers") -> np.ndarray | None:
        """The keys whose row reads differently from `old`'s (all of them for a new q, whose
        products every row writes out), or None when the rows themselves differ (other tokens,
        another number of keys, another d_k)."""
        if len(old) != len(self) or old.tokens != self.tokens or old.k.shape != self.k.shape:
            return None
        if not np.array_equal(old.q, self.q) or old.shifted != self.shifted or old.decimals != self.decimals:
            return np.arange(len(self))
        differs = (np.any(old.k != self.k, axis=1) | (old.scaled != self.scaled) | (old.hidden != self.hidden)
                   | (old.exps != self.exps) | (old.weights != self.weights))
        return np.flatnonzero(differs)

    def telling_rows(self) -> list[int]:
        """The rows whose texts are the longest a column may need: extremes of every number."""
        rows = {0, len(self) - 1}
        for values in (self.scaled, self.exps, self.weights, np.abs(self.k).max(axis=1, initial=0) if self.k.size
                       else self.weights, np.array([len(t) for t in self.tokens])):
            finite = np.where(np.isfinite(values), values, 0)
            rows |= {int(np.argmax(finite)), int(np.argmin(finite))}
        return sorted(rows)


def step_rows(tokens, q_row, k, trace: AttentionTrace, i: int) -> list[StepRow]:
    numbers = StepNumbers(tokens, q_row, k, trace, i)
    return [numbers.row(j) for j in range(len(numbers))]


def sum_row(trace: AttentionTrace, i: int) -> StepRow:
    """The Σ line of query i (see StepNumbers.total)."""
    return StepNumbers((), np.zeros(0), np.zeros((0, 0)), trace, i).total()


def divisor_text(d_k: int, scale: bool, temperature: float) -> str:
    """The column title: '÷√2', '÷√64 ÷ 0.5', '÷ 1' (nothing when scaling is off and T = 1)."""
    parts = [f"÷√{d_k}"] if scale else []
    if temperature != 1.0:
        parts.append(f"÷ {fmt_temperature(temperature)}")
    return " ".join(parts) if parts else "÷ 1"


def output_text(weights_row, v, output_row, decimals: int = 3, most: int | None = None,
                max_items: int = MAX_ITEMS) -> str:
    """'0.045×[2, 0] + 0.769×[0, 2] + 0.186×[1, 1] = [0.276, 1.724]' over the visible keys, in the
    sentence's order as the tutorial writes it (the first MAX_TERMS of them). With `most`: only the
    `most` keys of the largest weights (still in the sentence's order), the rest as '…' — what a
    projector's narrow column has room for in a long sentence."""
    weights_row = np.asarray(weights_row)
    visible = np.flatnonzero(weights_row > 0)
    if most is not None and len(visible) > most:
        shown = np.sort(visible[np.argsort(-weights_row[visible], kind="stable")[:most]])
    else:
        shown = visible if len(visible) <= MAX_TERMS else visible[:MAX_TERMS - 1]  # format only what is shown
    places = decimals_for(v, decimals)  # the v rows as the v table writes them
    terms = [f"{weights_row[j]:.{decimals}f}×{fmt_vector(v[j], places, max_items, fixed=True)}" for j in shown]
    if len(shown) < len(visible):
        terms.append("…")
    return " + ".join(terms) + f" = {fmt_vector(output_row, decimals, max_items, fixed=True)}"
