"""Which keys each query may see: none, causal, a sliding window, prefix-LM, padding, hand-painted.

Every mask is a boolean "visible" matrix; the core adds 0 where visible and −inf
where hidden (the seed's M). A mask that leaves some query with no key at all is
refused: softmax over nothing is not a distribution.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from .messages import QT_TR_NOOP

KINDS = ("none", "causal", "window", "prefix", "padding", "custom")


@dataclass(frozen=True)
class MaskSpec:
    kind: str = "causal"
    window: int = 3                  # window: each query sees itself and the window − 1 tokens before it
    prefix: int = 2                  # prefix: the first `prefix` tokens see each other; the rest are causal
    padding: tuple[int, ...] = ()    # padding: tokens no other token may see (causal otherwise)
    custom: tuple[tuple[bool, ...], ...] | None = None  # custom: visible[i][j], painted by hand


def visible(spec: MaskSpec, n: int) -> np.ndarray:
    """[n, n] bool: True where query i may look at key j."""
    i, j = np.indices((n, n))
    if spec.kind == "none":
        return np.ones((n, n), dtype=bool)
    if spec.kind == "window":
        return (j <= i) & (j > i - spec.window)
    if spec.kind == "prefix":
        return (j <= i) | ((i < spec.prefix) & (j < spec.prefix))
    if spec.kind == "padding":
        padded = np.zeros(n, dtype=bool)
        padded[list(spec.padding)] = True
        return (j <= i) & (~padded[None, :] | (i == j))  # a padded token still sees itself
    if spec.kind == "custom":
        return np.array(spec.custom, dtype=bool).reshape(n, n)
    return j <= i  # causal


def additive(spec: MaskSpec, n: int) -> np.ndarray:
    """The M of softmax(q kᵀ / √d_k + M): 0 where visible, −inf where hidden."""
    return np.where(visible(spec, n), 0.0, -np.inf)


def problem(spec: MaskSpec, tokens) -> tuple | None:
    """(message template, values) when the mask cannot be used for these tokens, else None."""
    n = len(tokens)
    if spec.kind not in KINDS:
        return QT_TR_NOOP("unknown mask '{0}'"), (spec.kind,)
    if spec.kind == "window" and not (isinstance(spec.window, int) and spec.window >= 1):
        return QT_TR_NOOP("a sliding window needs a width of at least 1, not {0}"), (spec.window,)
    if spec.kind == "prefix" and not (isinstance(spec.prefix, int) and 0 <= spec.prefix <= n):
        return QT_TR_NOOP("the prefix length must be 0 to {0}, not {1}"), (n, spec.prefix)
    if spec.kind == "padding" and any(not isinstance(p, int) or not 0 <= p < n for p in spec.padding):
        return QT_TR_NOOP("padded tokens must be token positions 0 to {0}"), (n - 1,)
    if spec.kind == "custom" and (spec.custom is None or len(spec.custom) != n
                                  or any(len(row) != n for row in spec.custom)):
        return QT_TR_NOOP("a hand-painted mask must be {0} × {0}, one row and column per token"), (n,)
    empty = np.flatnonzero(~visible(spec, n).any(axis=1))
    if empty.size:
        return QT_TR_NOOP("with this mask the query {0} would see no key at all; every row needs one"), \
            (tokens[int(empty[0])],)
    return None


def causal_custom(n: int) -> tuple[tuple[bool, ...], ...]:
    """A hand-painted mask starts as the causal one."""
    return as_rows(visible(MaskSpec("causal"), n))


def toggled(spec: MaskSpec, n: int, i: int, j: int) -> MaskSpec:
    """Hand-painting: hide key j from query i, or show it again."""
    grid = visible(spec, n).copy()
    grid[i, j] = not grid[i, j]
    return MaskSpec("custom", spec.window, spec.prefix, spec.padding, as_rows(grid))


def toggled_padding(spec: MaskSpec, token: int) -> MaskSpec:
    padding = tuple(sorted(set(spec.padding) ^ {token}))
    return dataclasses.replace(spec, kind="padding", padding=padding)


def with_rows_changed(spec: MaskSpec | None, n: int, insert: int | None = None,
                      remove: int | None = None) -> MaskSpec | None:
    """The mask after a token is inserted before `insert` or `remove`d: positions shift,
    a new token's row and column in a painted mask follow the causal rule."""
    if spec is None:
        return None
    if insert is not None:
        padding = tuple(p + (p >= insert) for p in spec.padding)
        prefix = spec.prefix + (insert < spec.prefix)  # a token inserted inside the prefix joins it
    else:
        if remove is None:
            raise ValueError("with_rows_changed: give insert or remove")
        padding = tuple(p - (p > remove) for p in spec.padding if p != remove)
        prefix = spec.prefix - (remove < spec.prefix)
    custom = spec.custom
    if custom is not None:
        grid = np.array(custom, dtype=bool)
        if insert is not None:
            grid = np.insert(np.insert(grid, insert, False, axis=0), insert, False, axis=1)
            idx = np.arange(n + 1)
            grid[insert, :] = idx <= insert
            grid[:, insert] = idx >= insert
        elif remove is not None:
            grid = np.delete(np.delete(grid, remove, axis=0), remove, axis=1)
        custom = as_rows(grid)
    return dataclasses.replace(spec, padding=padding, prefix=prefix, custom=custom)


def as_rows(grid: np.ndarray) -> tuple[tuple[bool, ...], ...]:
    """A boolean grid as a painted mask stores it (hashable, saved as it is)."""
    return tuple(tuple(bool(x) for x in row) for row in grid)
