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

import itertools

import numpy as np

from ..lm.shown import ModelError, whole_number
from ..messages import QT_TR_NOOP
from .given import unwrapped

MOST_HEADS = 4096  # more heads than any model has: an endless `heads=` is read no further


def zero(heads=None):
    """The point's values 0; at a per-head point with `heads` (an int or a list), those heads' only."""
    chosen = _heads(heads)

    def write(array: np.ndarray, cache) -> np.ndarray:
        if chosen is None:
            return np.zeros_like(array)
        _per_head_point("zero(heads=…)", array, chosen)
        array[chosen] = 0.0
        return array
    return write


def add(direction, alpha: float = 1.0, positions=None, heads=None):
    """array + alpha · direction at every position (or those of `positions`: an int, a slice or a list of
    ints), of every head (or `heads`, at a per-head point)."""
    direction, alpha, chosen = _vector(direction), _finite("alpha", alpha), _heads(heads)
    where = _positions(positions)

    def write(array: np.ndarray, cache) -> np.ndarray:
        _fits("add", array, direction)
        if chosen is not None:
            _per_head_point("add(heads=…)", array, chosen)
        rows = array[chosen] if chosen is not None else array
        with np.errstate(over="ignore"):  # a sum past float32 is inf, refused when the pass checks the point
            rows[..., _within(where, array.shape[-2]), :] += np.float32(alpha) * direction
        if chosen is not None:
            array[chosen] = rows
        return array
    return write


def replace(values):
    """The array given, of the point's shape, in place of the point's own."""
    given = _numbers("replace", values)

    def write(array: np.ndarray, cache) -> np.ndarray:
        return given
    return write


def project_out(direction):
    """x − (x · u) u at every position, u = direction / |direction|: what lies along it taken out."""
    u64 = _vector(direction).astype(np.float64)
    if not np.any(u64):
        raise ModelError(QT_TR_NOOP("project_out: the direction is 0: give one with a length"))
    u64 = u64 / np.abs(u64).max()  # scaled first: |u| of float32s near their largest would be inf
    u = (u64 / np.linalg.norm(u64)).astype(np.float32)

    def write(array: np.ndarray, cache) -> np.ndarray:
        _fits("project_out", array, u)
        with np.errstate(over="ignore", invalid="ignore"):
            return array - (array @ u)[..., None] * u
    return write


MOST_MEAN_VALUES = 1 << 28  # numbers mean() averages at most (1 GB as float32): a run keeps at most 2 GB in all


def mean(over):
    """The mean of `over` (an array of the point's kind, or a list of them: other runs' cache entries)
    over the runs and their positions, at every position of this run."""
    given = list(over) if isinstance(over, (list, tuple)) else [over]
    if sum(int(np.size(a)) if isinstance(a, np.ndarray) else 0 for a in given) > MOST_MEAN_VALUES:
        raise ModelError(QT_TR_NOOP("mean: give at most {0:,} numbers in all"), MOST_MEAN_VALUES)
    arrays = [_numbers("mean", a) for a in given]
    if not arrays or any(a.ndim not in (2, 3) or a.shape[-2] == 0 or a.shape[:-2] != arrays[0].shape[:-2] or
                         a.shape[-1] != arrays[0].shape[-1] for a in arrays):
        raise ModelError(QT_TR_NOOP("mean: give arrays of one hook point (run.cache[name]), from one or more runs"))
    count = sum(a.shape[-2] for a in arrays)  # summed in float64, one array at a time: no copy of them all
    total = sum(a.sum(axis=-2, keepdims=True, dtype=np.float64) for a in arrays)
    average = (total / count).astype(np.float32)                                               # over positions

    def write(array: np.ndarray, cache) -> np.ndarray:
        if average.shape[:-2] != array.shape[:-2] or average.shape[-1] != array.shape[-1]:
            raise ModelError(QT_TR_NOOP("mean: its arrays are of shape {0}, this point's {1}"), average.shape,
                             array.shape)
        return np.broadcast_to(average, array.shape).copy()
    return write


def _numbers(what: str, values, dtype=np.float32) -> np.ndarray:
    """Real, finite numbers that float32 holds (a bool, a text, a complex number or 1e300 is refused)."""
    try:
        given = np.asarray(values)
    except (TypeError, ValueError, OverflowError):
        given = np.empty(0, dtype=object)
    if given.dtype.kind not in "iuf" or not given.size:
        raise ModelError(QT_TR_NOOP("{0}: give an array of real numbers"), what)
    with np.errstate(over="ignore", invalid="ignore"):
        out = given.astype(dtype)
    if not np.isfinite(out).all() or np.abs(out).max() > np.finfo(np.float32).max:
        raise ModelError(QT_TR_NOOP("{0}: give finite numbers (float32's range)"), what)
    return out


def _vector(direction) -> np.ndarray:
    try:
        u = _numbers("direction", direction)
    except ModelError:
        u = np.empty(0, dtype=np.float32)
    if u.ndim != 1 or not len(u):
        raise ModelError(QT_TR_NOOP("give a direction as one list of finite numbers (d of them for the stream)"))
    if not u.any() and np.any(np.asarray(direction) != 0):  # 1e-300s: nothing left in float32, nothing added
        raise ModelError(QT_TR_NOOP("direction: its numbers are too small for float32: they round to 0"))
    return u


def _finite(what: str, value) -> float:
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    number = float(value) if ok and abs(value) < 1e38 else np.inf
    if not np.isfinite(number):
        raise ModelError(QT_TR_NOOP("{0}: give a finite number, less than 1e38 in size (float32's range)"), what)
    return number


def _heads(heads):
    heads = unwrapped(heads)
    if heads is None:
        return None
    single = whole_number(heads)
    if single is None and (isinstance(heads, (str, bytes)) or not hasattr(heads, "__iter__")):
        raise ModelError(QT_TR_NOOP("heads: give head numbers (0, 1, …)"))
    chosen = [single] if single is not None else [whole_number(h) for h in itertools.islice(heads, MOST_HEADS + 1)]
    if not 0 < len(chosen) <= MOST_HEADS or any(h is None or not 0 <= h < MOST_HEADS for h in chosen):
        raise ModelError(QT_TR_NOOP("heads: give head numbers (0, 1, …)"))
    return chosen


def _positions(positions):
    """None (every position), an int, a slice of ints, or a list of ints: checked against the text in _within."""
    positions = unwrapped(positions)
    if positions is None:
        return None
    if isinstance(positions, slice):
        ends = (positions.start, positions.stop, positions.step)
        parts = [None if x is None else whole_number(x) for x in ends]
        if all((x is None) == (y is None) for x, y in zip(ends, parts)) and parts[2] != 0:
            return slice(*parts)
    single = whole_number(positions)
    chosen = [single] if single is not None else (
        [whole_number(p) for p in itertools.islice(positions, 1 << 20)]
        if isinstance(positions, (list, tuple, range, np.ndarray)) else None)
    if chosen is None or any(p is None for p in chosen):
        raise ModelError(QT_TR_NOOP("positions: give a position, a slice or a list of positions (0, 1, …)"))
    return chosen


def _within(where, n: int):
    if where is None or isinstance(where, slice):
        return slice(None) if where is None else where
    if not all(-n <= p < n for p in where):
        raise ModelError(QT_TR_NOOP("positions: the text has positions 0 to {0}"), n - 1)
    return where


def _per_head_point(what: str, array: np.ndarray, heads: list) -> None:
    if array.ndim != 3:
        raise ModelError(QT_TR_NOOP("{0}: heads are chosen at a per-head point (q, k, v, scores, pattern, z), not "
                                    "at a point of the stream"), what)
    if max(heads) >= len(array):
        raise ModelError(QT_TR_NOOP("{0}: heads are chosen at a per-head point (q, k, v, scores, pattern, z) "
                                    "of this model's {1} heads"), what, len(array))


def _fits(what: str, array: np.ndarray, direction: np.ndarray) -> None:
    if array.shape[-1] != len(direction):
        raise ModelError(QT_TR_NOOP("{0}: the direction has {1} numbers, this point's vectors {2}"), what,
                         len(direction), array.shape[-1])
