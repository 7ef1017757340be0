"""A model's attention as other tools dump it: an .npz, or a folder of .npy files, of tokens and
q, k, v or weights, optionally with a leading axis of layers.

Shapes are checked from the arrays' headers before any data is read, and only the layer asked
for is read and widened (npz.py), so a file of every layer costs one layer's memory.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..files import FileProblem, problem
from ..messages import QT_TR_NOOP
from ..scenario import (
    MAX_DIM,
    MAX_GIVEN_CELLS,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_NAME_LENGTH,
    MAX_TOKEN_LENGTH,
    MAX_TOKENS,
    MAX_VALUES,
    Scenario,
    ScenarioError,
    Settings,
    head_names,
    make_head,
    make_scenario,
    weights_only_heads,
)
from ..text import shortened, visible
from .npz import Arrays, folder_names

# A model's file holds every layer (one is read at a time): 24 layers × 16 heads × 512
# tokens of float32 fit, and so do 12 layers × 12 heads × 2048² (2.4 GB); a hostile header
# still cannot make AttnViz allocate beyond it.
MAX_MODEL_BYTES = 4 * 1024 ** 3  # a model's file, read a layer at a time
MODEL_ARRAYS = ("tokens", "q", "k", "v", "weights", "head_names", "causal", "scale", "temperature")
MAX_TOKEN_BYTES = MAX_TOKENS * 4 * 1024  # the tokens array: up to 1,024 characters each


def archive(path, files: dict[str, Path] | None = None) -> Arrays:
    """The arrays of an .npz (a scenario's too: it is told from a model's by its header) or of a
    folder's .npy `files`, within MAX_MODEL_BYTES."""
    return Arrays.of(path, MAX_MODEL_BYTES, files)


def load_folder(path: Path, layer: int) -> Scenario:
    """A model dumped with np.save, one file per array: tokens.npy beside q.npy, k.npy, v.npy or
    weights.npy (or layer7_tokens.npy, layer7_weights.npy, ...). Opening any of them opens the
    set; opening weights.npy shows the weights even when q, k, v lie beside it."""
    files, opened = folder_names(path, MODEL_ARRAYS, shared=("tokens", "head_names"))
    return scenario_of(path, archive(path, files), layer, prefer_weights=opened == "weights")


def scenario_of(path: Path, arrays: Arrays, layer: int, prefer_weights: bool = False) -> Scenario:
    """tokens (strings) and either q, k, v — (heads, n, d), (n, d), or per head q_0, k_0, v_0 —
    or weights (heads, n, n); a leading axis of layers; optional head_names, causal, scale,
    temperature. Shapes are checked from the headers before any data is read."""
    try:
        tokens = _model_tokens(arrays)
        names = _model_head_names(arrays)
        settings = _model_settings(arrays)
        title = path.stem if path.suffix.lower() != ".npy" else path.parent.name
        has_qkv = all(m in arrays for m in "qkv") or all(f"{m}_0" in arrays for m in "qkv")
        if has_qkv and not (prefer_weights and "weights" in arrays):
            heads, layers = _model_heads(arrays, len(tokens), layer, names)
            return make_scenario(tokens, heads, settings, title=title, layer=(layer, layers) if layers > 1 else None)
        if "weights" not in arrays:
            missing = [m for m in "qkv" if m not in arrays]
            raise ScenarioError(QT_TR_NOOP("no 'weights' array, and no {0} array either (a model's file holds "
                                           "tokens and weights, or tokens and q, k, v)"),
                                ', '.join(repr(m) for m in missing))
        weights, layers = _model_weights(arrays, len(tokens), layer)
        if names and len(names) != len(weights):
            raise ScenarioError(QT_TR_NOOP("{0} head_names for {1} heads"), len(names), len(weights))
        return make_scenario(tokens, weights_only_heads(len(weights), len(tokens), names), settings, title=title,
                             given=weights, layer=(layer, layers) if layers > 1 else None)
    except FileProblem:
        raise
    except ScenarioError as e:
        raise problem(path, e) from None


def _model_tokens(arrays: Arrays) -> list[str]:
    """The token texts: a 1-D array of strings (bytes are read as UTF-8), made visible
    (a tokenizer's "\\n" is shown as ↵) and at most MAX_TOKEN_LENGTH characters."""
    if "tokens" not in arrays:
        raise ScenarioError(QT_TR_NOOP("no 'tokens' array (the token texts are needed)"))
    info = arrays.info("tokens")
    if info.ndim != 1:
        raise ScenarioError(QT_TR_NOOP("'tokens' has shape {0}; it must be one row of token texts"), info.shape)
    if info.dtype.kind not in "US":
        raise ScenarioError(QT_TR_NOOP("'tokens' holds {0} values; it must hold the token texts (strings)"),
                            info.dtype)
    if info.shape[0] > MAX_TOKENS:
        raise ScenarioError(QT_TR_NOOP("{0:,} tokens is more than the {1:,} AttnViz shows"),
                            info.shape[0], MAX_TOKENS)
    if info.nbytes > MAX_TOKEN_BYTES:
        raise ScenarioError(QT_TR_NOOP("'tokens' holds texts far too long to be tokens"))
    return [shortened(visible(t), MAX_TOKEN_LENGTH) for t in _texts_of(arrays.read("tokens", keep=True), "tokens")]


def _texts_of(array: np.ndarray, name: str) -> list[str]:
    if array.dtype.kind == "S":
        try:
            return [t.decode("utf-8") for t in array]
        except UnicodeDecodeError:
            raise ScenarioError(QT_TR_NOOP("'{0}' holds bytes that are not UTF-8 text"), name) from None
    return [str(t) for t in array]


def _model_head_names(arrays: Arrays) -> list[str]:
    if "head_names" not in arrays:
        return []
    info = arrays.info("head_names")
    if info.dtype.kind not in "US" or math.prod(info.shape) > MAX_HEADS or info.nbytes > MAX_TOKEN_BYTES:
        raise ScenarioError(QT_TR_NOOP("'head_names' must be an array of strings, one per head"))
    names = arrays.read("head_names", keep=True).reshape(-1)
    return [shortened(visible(n), MAX_NAME_LENGTH) for n in _texts_of(names, "head_names")]


def _model_settings(arrays: Arrays) -> Settings:
    """causal, scale and temperature as the file states them (a BERT-like encoder's dump says
    causal = false); the defaults otherwise."""
    values = {}
    for name, kinds in (("causal", "b"), ("scale", "b"), ("temperature", "iuf")):
        if name in arrays:
            info = arrays.info(name)
            if info.shape != () or info.dtype.kind not in kinds:
                raise ScenarioError(QT_TR_NOOP("'{0}' must be a single {1}"),
                                    name, 'true or false' if kinds == 'b' else 'number')
            values[name] = arrays.read(name, keep=True).item()
    return Settings(**values)


def _checked(arrays: Arrays, name: str, n: int, last: int | None) -> int:
    """Check the shape of q, k, v or weights from its header: (layers, heads, n, d), (heads, n, d)
    or (n, d), within every limit; return the number of layers."""
    info = arrays.info(name)
    last_name = "n" if name == "weights" else "d"
    if info.dtype.kind not in "iuf":
        raise ScenarioError(QT_TR_NOOP("'{0}' holds {1} values, not numbers"), name, info.dtype)
    if info.ndim not in (2, 3, 4):
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}; it must be (layers, heads, n, {2}), (heads, n, {3}) "
                                       "or (n, {4})"), name, info.shape, last_name, last_name, last_name)
    layers = info.shape[0] if info.ndim == 4 else 1
    heads = info.shape[-3] if info.ndim >= 3 else 1
    rows, width = info.shape[-2:]
    if rows != n:
        raise ScenarioError(QT_TR_NOOP("'{0}' has {1} rows per head but there are {2} tokens"), name, rows, n)
    if name == "weights" and width != n:
        raise ScenarioError(QT_TR_NOOP("'weights' holds {0} × {1} matrices; attention weights are tokens × tokens"),
                            rows, width)
    if 0 in info.shape:
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: a side of 0 holds no heads, layers or dimensions"),
                            name, info.shape)
    if heads > MAX_HEADS or layers > MAX_LAYERS or (name != "weights" and width > MAX_DIM):
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: more heads, layers or dimensions than AttnViz shows "
                                       "(at most {2} heads, {3} layers, {4} dimensions)"),
                            name, info.shape, MAX_HEADS, MAX_LAYERS, MAX_DIM)
    per_layer = heads * rows * width  # what one layer widens to: ≤ 256 MB as float32 (weights), 128 MB (q, k, v)
    if name == "weights" and per_layer > MAX_GIVEN_CELLS:
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: {2} heads of {3:,} tokens is too large to show "
                                       "(heads × tokens² must be at most {4:,})"),
                            name, info.shape, heads, rows, MAX_GIVEN_CELLS)
    if name != "weights" and per_layer > MAX_VALUES // 3:
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: {2:,} numbers in a layer; q, k and v may hold at most "
                                       "{3:,} each (heads × tokens × d)"),
                            name, info.shape, per_layer, MAX_VALUES // 3)
    if last is not None and layers != last:
        raise ScenarioError(QT_TR_NOOP("q, k and v have different numbers of layers"))
    return layers


def _one_layer(arrays: Arrays, name: str, layer: int, layers: int) -> np.ndarray:
    """[heads, n, d] of one layer, read alone and only then widened: q, k, v to float64 (the
    core computes with them), weights to float32 at least (they are only shown)."""
    if not 0 <= layer < layers:
        raise ScenarioError(QT_TR_NOOP("there is no layer {0}: '{1}' has layers 0 to {2}"),
                            layer, name, layers - 1)
    info = arrays.info(name)
    a = arrays.read(name, layer) if info.ndim == 4 else arrays.read(name)
    wide = np.result_type(a.dtype, np.float32) if name == "weights" else np.float64
    return (a[None] if a.ndim == 2 else a).astype(wide, copy=False)  # read into a buffer of its own


def _model_heads(arrays: Arrays, n: int, layer: int, names: list[str]):
    q: np.ndarray | list[np.ndarray]  # [H, n, d], or one [n, d] per head (q_0, q_1, ...)
    k: np.ndarray | list[np.ndarray]
    v: np.ndarray | list[np.ndarray]
    if all(m in arrays for m in "qkv"):
        layers = _checked(arrays, "q", n, None)
        for m in "kv":
            _checked(arrays, m, n, layers)
        q, k, v = (_one_layer(arrays, m, layer, layers) for m in "qkv")
        if not q.shape[0] == k.shape[0] == v.shape[0]:
            raise ScenarioError(QT_TR_NOOP("q, k and v have {0}, {1}, {2} heads"),
                                q.shape[0], k.shape[0], v.shape[0])
    else:
        count = 0
        while count < MAX_HEADS and all(f"{m}_{count}" in arrays for m in "qkv"):
            count += 1
        for i in range(count):
            for m in "qkv":
                if arrays.info(f"{m}_{i}").ndim != 2 or _checked(arrays, f"{m}_{i}", n, None) != 1:
                    raise ScenarioError(QT_TR_NOOP("'{0}_{1}' has shape {2}; one head's matrix must be (n, d)"),
                                        m, i, arrays.info(f'{m}_{i}').shape)
        q, k, v = ([arrays.read(f"{m}_{i}").astype(float) for i in range(count)] for m in "qkv")
        layers = 1
    if names and len(names) != len(q):
        raise ScenarioError(QT_TR_NOOP("{0} head_names for {1} heads"), len(names), len(q))
    names = head_names(names, len(q))
    return [make_head(names[i], q[i], k[i], v[i]) for i in range(len(q))], layers


def _model_weights(arrays: Arrays, n: int, layer: int):
    layers = _checked(arrays, "weights", n, None)
    weights = _one_layer(arrays, "weights", layer, layers)
    finite = np.isfinite(weights)
    if not finite.all():  # where, only then: argwhere on 3 million cells takes longer than reading them
        h, row, _ = np.argwhere(~finite)[0]
        if layers > 1:
            raise ScenarioError(QT_TR_NOOP("layer {0}, head {1}, row {2}: the weights hold NaN or infinity"),
                                layer, h, row + 1)
        raise ScenarioError(QT_TR_NOOP("head {0}, row {1}: the weights hold NaN or infinity"), h, row + 1)
    weights.setflags(write=False)  # ours alone, frozen: the scenario keeps it without a copy
    return weights, layers
