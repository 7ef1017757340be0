"""Steering by activation addition (Turner et al. 2023): a direction in the residual stream, added
with a weight α to the stream entering a layer, moves what the model says towards what the direction
means. The direction is the mean stream entering that layer over one prompt (" love") minus the mean
over another (" hate"), or a vector of the model's width loaded from a .npy file.

The window's Steer panel (gui/steer/) runs it as core.scenario.Steer; from Python the same numbers are
m.run(text, hooks={"blocks.L.resid_pre": api.add(direction, alpha)}).
"""
from __future__ import annotations

import os

import numpy as np

from ..files import open_regular, problem
from ..lm import encode
from ..lm.run import run
from ..lm.shown import ModelError
from ..lm.weights import Model
from ..messages import QT_TR_NOOP
from ..numbers import MAX_ABS, RANGE_TEXT

NPY_HEADER = 1 << 16  # a .npy header of format 1 is at most 64 KB; then d numbers of at most 8 bytes


def mean_stream(model: Model, text: str, layer: int, cancelled=None) -> np.ndarray:
    """The residual stream entering `layer`, averaged over the text's own positions: the tokens the tokenizer
    puts before and after every text (a BOS, an EOS) left out, as every prompt has the same ones, of a size the
    rest do not have (with prompts of other lengths they would not cancel). [d] float32."""
    ids = encode(model, text, cancelled=cancelled).ids
    stream = run(model, ids, cancelled=cancelled).streams[layer]                               # [n, d]
    tokenizer = model.tokenizer
    first = len(tokenizer.before) if tuple(ids[:len(tokenizer.before)]) == tokenizer.before else 0
    last = len(ids) - (len(tokenizer.after) if tokenizer.after and tuple(ids[-len(tokenizer.after):]) ==
                       tokenizer.after else 0)
    own = stream[first:last] if last > first else stream  # a text the tokenizer makes no token of its own
    return own.mean(axis=0).astype(np.float32)


def direction(model: Model, plus: str, minus: str, layer: int, cancelled=None) -> np.ndarray:
    """mean_stream(plus) − mean_stream(minus) at `layer`: the direction from what `minus` means towards
    what `plus` means."""
    if not 0 <= layer < model.config.n_layers:
        raise ModelError(QT_TR_NOOP("layer {0}: the model has layers 0 to {1}"), layer, model.config.n_layers - 1)
    found = mean_stream(model, plus, layer, cancelled) - mean_stream(model, minus, layer, cancelled)
    if not np.any(found):
        raise ModelError(QT_TR_NOOP("the two prompts give the same stream at layer {0}: there is no direction "
                                    "between them"), layer)
    return found


def load_direction(path, d: int) -> np.ndarray:
    """A direction of the model's width d from a .npy file (never a pickle): its header's length checked
    against the file, the header read, then d finite numbers within AttnViz's range, not all 0."""
    with open_regular(path, NPY_HEADER + 8 * d) as f:
        try:
            shape, dtype = _header(f, os.fstat(f.fileno()).st_size)
            ok = shape == (d,) and dtype.kind in "fiu"
            values = np.fromfile(f, dtype=dtype, count=d) if ok else np.empty(0)
        except Exception as e:  # noqa: BLE001 (numpy parses the header as Python: SyntaxError, TokenError, …)
            raise problem(path, QT_TR_NOOP("not a .npy file of numbers ({0})"), str(e)[:80]) from None
    if ok and len(values) != d:
        raise problem(path, QT_TR_NOOP("the file ends after {0} of the direction's {1} numbers"), len(values), d)
    if not ok:
        raise problem(path, QT_TR_NOOP("a direction must be a .npy file of {0} numbers (the model's width), not "
                                       "{1} of {2}"), d, shape, dtype.name)
    with np.errstate(over="ignore", invalid="ignore"):  # past float32's range: inf, refused below
        values = values.astype(np.float32)
    if not np.isfinite(values).all() or np.abs(values).max() > MAX_ABS or not np.any(values):
        raise problem(path, QT_TR_NOOP("a direction's numbers must be finite, {0}, and not all 0"), RANGE_TEXT)
    return values


def _header(f, size: int) -> tuple[tuple, np.dtype]:
    """(shape, dtype) from a .npy header of format 1 or 2, its length checked against the file's size first
    (numpy would read as many bytes as the header claims)."""
    major, _ = np.lib.format.read_magic(f)
    if major not in (1, 2):
        return (), np.dtype(object)
    start = f.tell()
    length = int.from_bytes(f.read(2 if major == 1 else 4), "little")
    if length > size:
        raise ValueError(f"its header claims {length:,} bytes, more than the file's {size:,}")
    f.seek(start)
    read = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
    shape, _, dtype = read(f)
    return shape, dtype
