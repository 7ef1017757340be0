"""Two sentences' weights lined up word by word, for B − A (the compare window, `--compare`).

B − A means something only cell by cell for the same words: the weight A's query 猫 gives A's
key が beside the weight B's 猫 gives B's が. So B's rows and columns are put in A's order first.
They can be when B's tokens are a reordering of A's (the same tokens, as often each); a token
that comes twice is matched by occurrence (A's 2nd を with B's 2nd を). Otherwise (はし beside
ご飯 in A, beside 川 in B) no cell of B has a partner in A for every cell, and there is no B − A.

A cell masked in A or in B has weight exactly 0 there, so B − A is simply B's weight minus A's:
a cell B may look at and A may not (the causal mask carries order) shows B's whole weight.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Alignment:
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    order: tuple[int, ...] | None  # order[i]: the place in B of A's i-th token; None: not aligned

    @property
    def aligned(self) -> bool:
        return self.order is not None

    @property
    def reordered(self) -> bool:
        """B's tokens are A's in another order (not the same order)."""
        return self.order is not None and self.order != tuple(range(len(self.order)))

    def only_in_a(self) -> list[str]:
        """A's words that B does not have at all, in A's order, each once."""
        return _missing(self.tokens_a, self.tokens_b)

    def only_in_b(self) -> list[str]:
        return _missing(self.tokens_b, self.tokens_a)


def _missing(tokens, other) -> list[str]:
    return list(dict.fromkeys(t for t in tokens if t not in set(other)))


def align(tokens_a, tokens_b) -> Alignment:
    """Where each of A's tokens is in B: its k-th occurrence in A is the k-th in B."""
    tokens_a, tokens_b = tuple(tokens_a), tuple(tokens_b)
    if Counter(tokens_a) != Counter(tokens_b):
        return Alignment(tokens_a, tokens_b, None)
    places: dict[str, list[int]] = {}
    for j, token in enumerate(tokens_b):
        places.setdefault(token, []).append(j)
    seen: Counter = Counter()
    order = []
    for token in tokens_a:
        order.append(places[token][seen[token]])
        seen[token] += 1
    return Alignment(tokens_a, tokens_b, tuple(order))


def in_a_order(weights_b: np.ndarray, alignment: Alignment) -> np.ndarray:
    """B's [n, n] weights with rows (queries) and columns (keys) in A's token order."""
    order = np.asarray(alignment.order, dtype=np.intp)
    return weights_b[np.ix_(order, order)]


def rounding_noise(dtype) -> float:
    """A difference this small is the last bits of softmax's sum taken in another order, not a
    difference: far below any digit shown or printed."""
    return 16 * float(np.finfo(np.result_type(dtype, np.float32)).eps)


def differences(weights_a, weights_b, alignment: Alignment) -> list[np.ndarray] | None:
    """B − A for each head both have, after putting B in A's order; None when not aligned.
    Rounding noise (rounding_noise) is set to exactly 0, so the same weights reordered give 0."""
    if not alignment.aligned:
        return None
    out = []
    for a, b in zip(weights_a, weights_b):
        d = np.subtract(in_a_order(np.asarray(b), alignment), a, dtype=np.result_type(a, b))
        d[np.abs(d) <= rounding_noise(d.dtype)] = 0.0
        out.append(d)
    return out


def largest(differences_: list[np.ndarray]) -> float:
    """max |B − A| over every head (0 for none)."""
    return max((float(np.abs(d).max()) for d in differences_ if d.size), default=0.0)
