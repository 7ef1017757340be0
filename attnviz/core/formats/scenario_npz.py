"""A scenario too large for JSON, saved as .npz: the same document as a JSON header, and its
arrays as plain .npy members that any NumPy reads.

The header is parsed as JSON is (scenario_json.py); each array's type and size is checked from
its own header before it is read, and the total against the numbers a scenario may hold.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from ..files import atomic_write, problem
from ..messages import QT_TR_NOOP
from ..scenario import MAX_GIVEN_CELLS, MAX_HEADS, MAX_VALUES, PROJECTION_MATRICES, Scenario, ScenarioError, same_shapes
from .document import meta_of, scenario_from_dict, scenario_to_dict
from .npz import Arrays, writer
from .scenario_json import parse_json

HEADER = "attnviz"           # the JSON document inside a scenario .npz
MAX_HEADER_BYTES = 64 * 1024 * 1024  # above anything a valid scenario's names, labels and texts need


def save(s: Scenario, path, meta: dict | None = None, private: bool = False, replace=None) -> None:
    """Save as a scenario .npz; `meta` (an autosave's source and time) travels in the header.
    `replace(tmp, path)` puts the written file in place (see atomic_write)."""
    atomic_write(path, writer(scenario_arrays(s, meta=meta)), private, replace)


def scenario_arrays(s: Scenario, weights=None, meta: dict | None = None) -> dict[str, np.ndarray]:
    """A scenario .npz: the document as a JSON header, and its arrays as plain .npy members that
    any NumPy reads (tokens, head_names, q, k, v stacked per head, weights, the projection)."""
    header = scenario_to_dict(s, with_arrays=False)
    if meta:
        header["autosave"] = meta
    arrays = {HEADER: np.frombuffer(json.dumps(header, ensure_ascii=False).encode("utf-8"), dtype=np.uint8),
              "tokens": np.array(s.tokens), "head_names": np.array([h.name for h in s.heads]),
              "causal": np.array(s.settings.causal), "scale": np.array(s.settings.scale),
              "temperature": np.array(s.settings.temperature)}
    if not s.weights_only:
        if same_shapes(s):
            arrays.update({m: _compact(np.stack([h.matrix(m) for h in s.heads])) for m in "qkv"})
        else:
            arrays.update({f"{m}_{i}": _compact(h.matrix(m)) for i, h in enumerate(s.heads) for m in "qkv"})
    if s.projection is not None:
        arrays.update({f"projection_{m}": _compact(getattr(s.projection, m)) for m in PROJECTION_MATRICES})
    weights = s.given if s.weights_only else None if weights is None else np.stack(weights)
    if weights is not None:
        arrays["weights"] = _compact(weights)
    return arrays


def _compact(a: np.ndarray) -> np.ndarray:
    """float32 when that keeps every value exactly (values from a float32 model file, or typed
    as 0.5), so a saved model is no larger than the file it came from; float64 otherwise."""
    narrow = a.astype(np.float32)
    return narrow if np.array_equal(narrow.astype(a.dtype), a) else a


def holds_scenario(arrays: Arrays) -> bool:
    """True for a scenario .npz; a model's .npz (model_arrays.py) has no header."""
    return HEADER in arrays


def load(path: Path, arrays: Arrays) -> tuple[Scenario, dict]:
    """A scenario saved as .npz: its header document, with the arrays put back in place."""
    document = _header(path, arrays)
    array = _Reader(arrays)
    heads = document.get("heads")
    if isinstance(heads, list) and len(heads) <= MAX_HEADS and "weights" not in document and \
            "projection" not in document:
        _put_heads(heads, array)
    if "weights" in document:
        document["weights"] = array("weights", 3)
    if isinstance(document.get("projection"), dict):
        document["projection"].update({m: array(f"projection_{m}", 2) for m in PROJECTION_MATRICES})
    return scenario_from_dict(document), meta_of(document)


def _header(path: Path, arrays: Arrays) -> dict:
    info = arrays.info(HEADER)
    if info.ndim != 1 or info.dtype != np.uint8 or info.nbytes > MAX_HEADER_BYTES:
        raise problem(path, QT_TR_NOOP("its scenario header is damaged"))
    document = parse_json(arrays.read(HEADER).tobytes(), path)
    if not isinstance(document, dict):
        raise problem(path, QT_TR_NOOP("its scenario header is damaged"))
    return document


class _Reader:
    """The file's numeric arrays, each one's type and size checked before it is read, and all of them
    together held to what a scenario may have."""

    def __init__(self, arrays: Arrays):
        self.arrays, self.read = arrays, 0

    def __call__(self, name: str, ndim: int) -> np.ndarray:
        if name not in self.arrays:
            raise ScenarioError(QT_TR_NOOP("the array '{0}' is missing"), name)
        info = self.arrays.info(name)
        if info.dtype.kind not in "iuf" or info.ndim != ndim:
            raise ScenarioError(QT_TR_NOOP("the array '{0}' holds {1} {2}, not numbers of {3} axes"),
                                name, info.dtype, info.shape, ndim)
        self.read += math.prod(info.shape)
        if self.read > MAX_VALUES + MAX_GIVEN_CELLS:
            raise ScenarioError(QT_TR_NOOP("holds more than the {0:,} numbers a scenario may have"), MAX_VALUES)
        return self.arrays.read(name)


def _put_heads(heads: list, array: _Reader) -> None:
    """Each head entry's q, k and v: from the stacked arrays q, k, v (one slice per head) or q_0, k_0, ..."""
    stacked = {m: array(m, 3) for m in "qkv"} if all(m in array.arrays for m in "qkv") else None
    if stacked and any(len(a) != len(heads) for a in stacked.values()):
        raise ScenarioError(QT_TR_NOOP("q, k and v hold {0} heads; the scenario has {1}"),
                            len(stacked['q']), len(heads))
    for i, entry in enumerate(heads):
        if isinstance(entry, dict):
            entry.update({m: stacked[m][i] if stacked else array(f"{m}_{i}", 2) for m in "qkv"})
