"""What a researcher gives the workbench from Python, checked at the door as the command line checks
its arguments, in the same words: whole numbers (numpy's, anything with __index__; never a bool),
flags, layers, heads, tokens, runs of this model. A wrong one is a ModelError in one line, before any
work, never an exception from deep inside numpy."""
from __future__ import annotations

import fnmatch
import functools
import itertools
from collections.abc import Mapping

import numpy as np

from ..lm import hooks
from ..lm.shown import ModelError, said, whole_number
from ..lm.weights import Model
from ..messages import QT_TR_NOOP, cut
from ..numbers import MAX_ABS, RANGE_TEXT
from ..text import terminal_safe
from .answer import one_token


def whole(what: str, value, low: int, high: int) -> int:
    """`value` as an int from `low` to `high`: the command line's rule for its numbers."""
    number = whole_number(value)
    if number is None or not low <= number <= high:
        raise ModelError(QT_TR_NOOP("{0}: '{1}' is not a number from {2} to {3}"), what, said(value), low, high)
    return number


def flag(what: str, value) -> bool:
    """True or False (numpy's too); "no" or 0 is not a flag, however truthy or falsy."""
    if type(value).__name__ not in ("bool", "bool_"):
        raise ModelError(QT_TR_NOOP("{0}: '{1}' is not True or False"), what, said(value))
    return bool(value)


def layer(model: Model, value, after_last: bool = False) -> int:
    """A layer of the model (with `after_last`, also the residual stream after the last one)."""
    n, number = model.config.n_layers, whole_number(value)
    if number is None:
        raise ModelError(QT_TR_NOOP("layer {0}: not a whole number; the model has layers 0 to {1}"), said(value),
                         n if after_last else n - 1)
    if not 0 <= number <= n - (not after_last):
        raise ModelError(QT_TR_NOOP("layer {0}: the model has layers 0 to {1}"), said(value),
                         n if after_last else n - 1)
    return number


def head(model: Model, pair) -> tuple[int, int]:
    """A (layer, head) pair of the model."""
    c = model.config
    two = isinstance(pair, (tuple, list)) and len(pair) == 2
    layer, head = (whole_number(x) for x in pair) if two else (None, None)
    if layer is None or head is None or not (0 <= layer < c.n_layers and 0 <= head < c.n_heads):
        raise ModelError(QT_TR_NOOP("head {0}: give (layer, head), layers 0 to {1} and heads 0 to {2}"),
                         said(pair), c.n_layers - 1, c.n_heads - 1)
    return layer, head


def token(model: Model, spec) -> int:
    """A token by its text (" Paris"), "#ID" or its id as a whole number."""
    number = whole_number(spec)
    if number is None:
        return one_token(model, spec)
    if not 0 <= number < len(model.output):  # told before it is made a text: 5,000 digits are too many for one
        raise ModelError(QT_TR_NOOP("{0}: the model's token ids go from 0 to {1:,}"),
                         ("#" if number >= 0 else "") + said(number), len(model.output) - 1)
    return number


def callback(what: str, value):
    """None, or something to call."""
    if value is not None and not callable(value):
        raise ModelError(QT_TR_NOOP("{0}: give a function to call, or None"), what)
    return value


def one_of(what: str, value, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ModelError(QT_TR_NOOP("{0}: '{1}' is not one of {2}"), what, said(value), ", ".join(choices))
    return value


def unwrapped(value):
    """A 0-d numpy array (np.array(3), what indexing or summing an array may give) as its one value; anything
    else as it is."""
    return value[()] if isinstance(value, np.ndarray) and value.ndim == 0 else value


MOST_KEPT = 2 << 30  # bytes a run may keep: a 30-layer model's every point over 500 tokens is ~1.4 GB


def hook_points(model: Model, patterns, n: int) -> frozenset[str]:
    """The hook points `patterns` name (exact names or globs: "blocks.*.attn.out"), refused when a pattern
    names none, or when keeping them over n tokens would take more than MOST_KEPT bytes."""
    chosen = _chosen(model, patterns)
    size = _points_bytes(model, chosen, n)
    if size > MOST_KEPT:
        raise ModelError(QT_TR_NOOP("keep: these hook points over {0:,} tokens take {1:,.1f} MB; at most {2:,.1f} MB "
                                    "are kept: keep fewer, or a shorter text"), n, size / 2**20, MOST_KEPT / 2**20)
    return chosen


def _chosen(model: Model, patterns) -> frozenset[str]:
    return frozenset(name for pattern in _patterns(patterns) for name in _named("keep", model, pattern))


def _points_bytes(model: Model, chosen: frozenset[str], n: int) -> int:
    return sum(4 * int(np.prod(hooks.shape(model.config, name, n, len(model.output)))) for name in chosen)


MOST_PATTERNS = 10_000


def _patterns(patterns) -> list:
    """What keep= names: None (nothing), one text, or at most MOST_PATTERNS of them (an endless iterable is
    read no further)."""
    if patterns is None:
        return []
    if isinstance(patterns, str):
        return [patterns]
    if isinstance(patterns, (bytes, bytearray)) or not hasattr(patterns, "__iter__"):
        raise ModelError(QT_TR_NOOP("{0}: give hook point names (texts), not {1}"), "keep", type(patterns).__name__)
    return _at_most(patterns, MOST_PATTERNS, QT_TR_NOOP("keep: give at most {0:,} names or globs"))


LONGEST_PATTERN = 200  # the longest hook point name is ~25 characters; fnmatch translates a glob in quadratic time


def _named(what: str, model: Model, pattern) -> list[str]:
    """The hook points a name or a glob names; none is refused saying what the names are like."""
    if not isinstance(pattern, str):
        raise ModelError(QT_TR_NOOP("{0}: give hook point names (texts), not {1}"), what, type(pattern).__name__)
    if len(pattern) > LONGEST_PATTERN:
        raise ModelError(QT_TR_NOOP("{0}: a name or glob of {1:,} characters; hook point names are at most {2} "
                                    "(m.hook_names())"), what, len(pattern), LONGEST_PATTERN)
    names, known = _hook_names(model.config.n_layers)
    glob = any(c in pattern for c in "*?[")
    found = fnmatch.filter(names, pattern) if glob else [pattern] if pattern in known else []
    if not found:
        raise ModelError(QT_TR_NOOP("{0}: '{1}' names no hook point; they are embed, blocks.L.resid_pre, "
                                    "blocks.L.attn.pattern, …, ln_final and logits (m.hook_names())"),
                         what, cut(terminal_safe(pattern).replace("\n", "↵"), 60))
    return found


@functools.lru_cache(maxsize=8)
def _hook_names(n_layers: int) -> tuple[tuple[str, ...], frozenset[str]]:
    """The hook points of a model of n_layers, in order and as a set: the same for every pattern asked of them
    (thousands of names or globs in a keep= or a hooks=)."""
    names = tuple(hooks.hook_names_of(n_layers))
    return names, frozenset(names)


def hook_writes(model: Model, given_hooks, n: int) -> dict:
    """{hook point: fn(array, cache) -> array or None} from {name or glob: fn}, each fn's answer checked
    when the pass calls it: None leaves the array as it was; else numbers of the array's shape, finite."""
    if not isinstance(given_hooks, dict):
        raise ModelError(QT_TR_NOOP("hooks: give {{hook point: function}}, not {0}"), type(given_hooks).__name__)
    if len(given_hooks) > MOST_PATTERNS:
        raise ModelError(QT_TR_NOOP("hooks: give at most {0:,} names or globs"), MOST_PATTERNS)
    writes = {}
    for pattern, fn in dict.items(given_hooks):
        if not callable(fn):
            raise ModelError(QT_TR_NOOP("hooks: {0}: give a function of (array, cache), not {1}"), cut(str(pattern)),
                             type(fn).__name__)
        writes.update({name: _checked(name, fn) for name in _named("hooks", model, pattern)})
    size = WRITE_BYTES_PER_VALUE * _points_bytes(model, frozenset(writes), n) // 4
    if size > MOST_KEPT:
        raise ModelError(QT_TR_NOOP("hooks: writing these points over {0:,} tokens works on {1:,.1f} MB; at most "
                                    "{2:,.1f} MB: write fewer, or a shorter text"), n, size / 2**20, MOST_KEPT / 2**20)
    return writes


# A written point's values are held three times while its function runs (the pass's float64, the copy the
# function is given, what it gives back): 24 bytes each, against keep='s 4.
WRITE_BYTES_PER_VALUE = 24


class ReadOnly(Mapping):
    """The points a run has kept so far, as a hook's function is given them: the mapping cannot be written, and
    each array is a read-only copy (a function scribbling into one would change what the run keeps and reports);
    copied when the function asks for it, not before."""

    def __init__(self, cache: dict) -> None:
        self._cache = cache

    def __getitem__(self, name: str) -> np.ndarray:
        copy = self._cache[name].copy()  # a view could be made writable again, through its base
        copy.flags.writeable = False
        return copy

    def __iter__(self):
        return iter(self._cache)

    def __len__(self) -> int:
        return len(self._cache)


def _checked(name: str, fn):
    def write(value: np.ndarray, cache: dict) -> np.ndarray:
        # a copy, and the cache read-only: a function writing into what it is given changes nothing else
        written = fn(value.copy(), ReadOnly(cache))
        return value if written is None else _written(name, written, value.shape)
    return write


def _written(name: str, written, shape: tuple) -> np.ndarray:
    """What a hook's function gave as the float32 array the pass goes on with, or refused saying what is wrong
    with it: its kind, its shape, numbers that are not finite, or past what an edit may hold."""
    try:
        array = np.asarray(written)
    except (TypeError, ValueError, OverflowError):
        array = np.empty(0, dtype=object)
    if array.dtype.kind not in "iuf" or array.shape != shape:
        raise ModelError(QT_TR_NOOP("hooks: {0}'s function gave {1}; give None or finite numbers of shape {2}"),
                         name, _what(written), shape)
    with np.errstate(over="ignore", invalid="ignore"):  # past float32's range: inf, refused below
        array = array.astype(np.float32)
    if not np.isfinite(array).all():
        raise ModelError(QT_TR_NOOP("hooks: {0}'s function gave numbers that are not finite (NaN, infinity, or past "
                                    "float32's range)"), name)
    if array.size and np.abs(array).max() > MAX_ABS:  # near float32's largest, the norms overflow: no run
        raise ModelError(QT_TR_NOOP("hooks: {0}'s function gave {1:,.7g}; the numbers written must be {2}"),
                         name, float(np.abs(array).max()), RANGE_TEXT)
    return array


def _what(value) -> str:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None:
        return type(value).__name__
    kind = "" if dtype is None or getattr(dtype, "kind", "") in "iuf" else f" of {dtype}"
    return f"an array{kind} of shape {tuple(shape)}"


MOST_PAIRS = 10_000


def pairs(values) -> list[tuple]:
    """A dataset of prompt pairs: (clean, corrupted, answer, against) each, as tuples, lists or dicts of
    those keys."""
    values = _at_most(values, MOST_PAIRS, QT_TR_NOOP("pairs: give from 1 to {0:,} (clean, corrupted, answer, "
                                                     "against) pairs"), least=1)
    out = []
    for i, pair in enumerate(values):
        if isinstance(pair, dict) and {"clean", "corrupted", "answer", "against"} <= set(pair):
            pair = (pair["clean"], pair["corrupted"], pair["answer"], pair["against"])
        if not isinstance(pair, (tuple, list)) or len(pair) != 4 or not all(_a_prompt(x) for x in pair[:2]):
            raise ModelError(QT_TR_NOOP("pairs: pair {0} is not (clean, corrupted, answer, against)"), i)
        out.append(tuple(pair))
    return out


def sweep_items(values, token) -> list[tuple]:
    """A sweep's dataset: texts (or runs) sharing `token`, or (text, token) pairs; at most MOST_PAIRS."""
    items = _at_most(values, MOST_PAIRS, QT_TR_NOOP("texts: give from 1 to {0:,} texts, or (text, token) pairs"),
                     least=1)
    out = []
    for i, item in enumerate(items):
        if _a_prompt(item) and token is not None:
            out.append((item, token))
        elif isinstance(item, (tuple, list)) and len(item) == 2 and _a_prompt(item[0]):
            out.append(tuple(item))
        else:
            raise ModelError(QT_TR_NOOP("texts: item {0} is neither a text (with token= given) nor a (text, token) "
                                        "pair"), i)
    return out


def _a_prompt(value) -> bool:
    """A text, or a run of the model (api.Run): never another dataset."""
    return isinstance(value, str) or hasattr(value, "encoded") and hasattr(value, "result")


MOST_TEXTS = 10_000


def texts(values) -> list:
    """A batch's texts: a list (or any iterable) of at most MOST_TEXTS, an endless one read no further."""
    values = unwrapped(values)  # a 0-d array has __iter__ and cannot be iterated
    if isinstance(values, (str, bytes, bytearray)) or not hasattr(values, "__iter__"):
        raise ModelError(QT_TR_NOOP("texts: give a list of texts, not {0}"), type(values).__name__)
    return _at_most(values, MOST_TEXTS, QT_TR_NOOP("texts: give at most {0:,} texts"))


def _at_most(values, most: int, outside: str, least: int = 0) -> list:
    """From `least` to `most` of `values` as a list, an endless iterable read no further; fewer or more is
    `outside` (of `most`)."""
    values = unwrapped(values)
    if not hasattr(values, "__iter__"):
        raise ModelError(QT_TR_NOOP("give a list, not {0}"), type(values).__name__)
    chosen = list(itertools.islice(values, most + 1))
    if not least <= len(chosen) <= most:
        raise ModelError(outside, most)
    return chosen


def fitting_batch(model: Model, encoded, keep) -> list:
    """The batch's encoded texts, read one by one and refused as soon as their runs together would keep more
    than MOST_KEPT bytes (each keeps its streams, q, k, v, its next-token numbers and the hook points `keep`
    names): no text past the one that goes over is tokenised, and none is run."""
    c, chosen = model.config, _chosen(model, keep)
    fitting, size, tokens = [], 0, 0
    for e in encoded:
        n = len(e.ids)
        fitting.append(e)
        size, tokens = size + kept_bytes(c, n, len(model.output)) + _points_bytes(model, chosen, n), tokens + n
        if size > MOST_KEPT:
            raise ModelError(QT_TR_NOOP("texts: the first {0:,} runs, over {1:,} tokens, would already keep {2:,.1f} "
                                        "MB; at most {3:,.1f} MB are kept: run them in smaller batches"),
                             len(fitting), tokens, size / 2**20, MOST_KEPT / 2**20)
    return fitting


def kept_bytes(c, n: int, vocab: int) -> int:
    """What one Run keeps over n tokens: every layer's stream, q, k and v (float32), probs and logits."""
    return 4 * c.n_layers * n * (c.d + (c.n_heads + 2 * c.n_kv_heads) * c.d_head) + 12 * vocab
