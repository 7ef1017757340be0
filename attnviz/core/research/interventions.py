"""The usual writes at a hook point, ready made: each returns fn(array, cache) for `m.run(text, hooks={name: fn})`.

    zero(heads=None)             the point's values 0 (of some heads only, at a per-head point: q, z, pattern, …)
    add(direction, alpha=1.0)    + alpha · direction at every position (or `positions`): activation addition
    replace(array)               the array given in place of the point's (of the same shape)
    project_out(direction)       the component along `direction` taken out at every position
    mean(over)                   the point's mean over other runs' arrays (and their positions) in place of its own

A stream point ([n, d]: resid_pre, attn.out, resid_mid, mlp.out, resid_post, embed, ln_final) takes a
direction of d numbers; a per-head point ([H, n, ·]) one of its last axis's, added to every head (or `heads`).
"""
from __future__ import annotations

import numpy as np

from ..lm.shown import ModelError
from ..messages import QT_TR_NOOP


def zero(heads=None):
    """The point's values 0; at a per-head point with `heads` (an int or a list), those heads' only."""
    chosen = _heads(heads)

    def write(array: np.ndarray, cache: dict) -> np.ndarray:
        if chosen is None:
            return np.zeros_like(array)
        _per_head_point("zero(heads=…)", array, chosen)
        array[chosen] = 0.0
        return array
    return write


def add(direction, alpha: float = 1.0, positions=None, heads=None):
    """array + alpha · direction at every position (or those of `positions`), of every head (or `heads`)."""
    direction, alpha, chosen = _vector(direction), _finite("alpha", alpha), _heads(heads)

    def write(array: np.ndarray, cache: dict) -> np.ndarray:
        _fits("add", array, direction)
        rows = array[chosen] if chosen is not None else array
        where = slice(None) if positions is None else positions
        rows[..., where, :] += np.float32(alpha) * direction
        if chosen is not None:
            array[chosen] = rows
        return array
    return write


def replace(values):
    """The array given, of the point's shape, in place of the point's own."""
    given = np.asarray(values, dtype=np.float32)

    def write(array: np.ndarray, cache: dict) -> np.ndarray:
        return given
    return write


def project_out(direction):
    """x − (x · u) u at every position, u = direction / |direction|: what lies along it taken out."""
    u = _vector(direction)
    norm = float(np.linalg.norm(u))
    if norm == 0:
        raise ModelError(QT_TR_NOOP("project_out: the direction is 0: give one with a length"))
    u = u / np.float32(norm)

    def write(array: np.ndarray, cache: dict) -> np.ndarray:
        _fits("project_out", array, u)
        return array - (array @ u)[..., None] * u
    return write


def mean(over):
    """The mean of `over` (an array of the point's kind, or a list of them: other runs' cache entries)
    over the runs and their positions, at every position of this run."""
    arrays = [np.asarray(a, dtype=np.float64) for a in (over if isinstance(over, (list, tuple)) else [over])]
    if not arrays or any(a.ndim not in (2, 3) or a.shape[:-2] != arrays[0].shape[:-2] or
                         a.shape[-1] != arrays[0].shape[-1] for a in arrays):
        raise ModelError(QT_TR_NOOP("mean: give arrays of one hook point (run.cache[name]), from one or more runs"))
    average = np.mean(np.concatenate(arrays, axis=-2), axis=-2, keepdims=True).astype(np.float32)  # over positions

    def write(array: np.ndarray, cache: dict) -> np.ndarray:
        if average.shape[:-2] != array.shape[:-2] or average.shape[-1] != array.shape[-1]:
            raise ModelError(QT_TR_NOOP("mean: its arrays are of shape {0}, this point's {1}"), average.shape,
                             array.shape)
        return np.broadcast_to(average, array.shape).copy()
    return write


def _vector(direction) -> np.ndarray:
    try:
        u = np.asarray(direction, dtype=np.float32)
    except (TypeError, ValueError):
        u = np.empty(0, dtype=np.float32)
    if u.ndim != 1 or not len(u) or not np.isfinite(u).all():
        raise ModelError(QT_TR_NOOP("give a direction as one list of finite numbers (d of them for the stream)"))
    return u


def _finite(what: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not np.isfinite(value):
        raise ModelError(QT_TR_NOOP("{0}: give a finite number"), what)
    return float(value)


def _heads(heads):
    if heads is None:
        return None
    chosen = [heads] if isinstance(heads, (int, np.integer)) else list(heads)
    if not all(isinstance(h, (int, np.integer)) and not isinstance(h, bool) and h >= 0 for h in chosen):
        raise ModelError(QT_TR_NOOP("heads: give head numbers (0, 1, …)"))
    return chosen


def _per_head_point(what: str, array: np.ndarray, heads: list) -> None:
    if array.ndim != 3 or max(heads) >= len(array):
        raise ModelError(QT_TR_NOOP("{0}: heads are chosen at a per-head point (q, k, v, scores, pattern, z) "
                                    "of this model's {1} heads"), what, len(array) if array.ndim == 3 else 0)


def _fits(what: str, array: np.ndarray, direction: np.ndarray) -> None:
    if array.shape[-1] != len(direction):
        raise ModelError(QT_TR_NOOP("{0}: the direction has {1} numbers, this point's vectors {2}"), what,
                         len(direction), array.shape[-1])
