"""What every family's block shares: heads split out, the user's changes put in, attention
through the core's attention() with the layer's mask, the heads' outputs joined again."""
from __future__ import annotations

import numpy as np

from ..attention import attention, group_size, rope
from ..masks import MaskSpec, additive
from ..scenario import Change
from .weights import Config, Norm


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GELU as tanh approximates it (gelu_pytorch_tanh)."""
    return 0.5 * x * (1.0 + np.tanh(np.float32(np.sqrt(2.0 / np.pi)) * (x + np.float32(0.044715) * x * x * x)))


def heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """[n, heads · d_head] -> [heads, n, d_head]."""
    n = x.shape[0]
    return x.reshape(n, n_heads, -1).transpose(1, 0, 2)


def joined(y: np.ndarray) -> np.ndarray:
    """[heads, n, d_head] -> [n, heads · d_head] (float32, for W_o)."""
    return y.transpose(1, 0, 2).reshape(y.shape[1], -1).astype(np.float32)


def per_head_norm(x: np.ndarray, norm: Norm | None, eps: float) -> np.ndarray:
    """QK-norm: each head's vector normed over its d_head (nothing without a norm)."""
    return x if norm is None else norm(x, eps)


def turned(x: np.ndarray, c: Config, layer: int) -> np.ndarray:
    """RoPE with the layer's base (Gemma 3's sliding layers have their own), in the model's layout."""
    return rope(x, c.base(layer), halves=c.rope_halves, factors=c.rope_factors)


def mask_of(c: Config, layer: int) -> MaskSpec | None:
    """The mask a layer attends with, as the toolbar names it: a sliding window, or None (causal)."""
    return MaskSpec("window", window=c.window) if c.is_sliding(layer) and c.window else None


def shared_kv(k: np.ndarray, v: np.ndarray, c: Config):
    """K and V repeated for the heads of each K/V group (GQA): head i reads K/V head i // size."""
    size = group_size(c.n_heads, c.n_kv_heads)
    return np.repeat(k, size, axis=0), np.repeat(v, size, axis=0)


def changed(q, k, v, changes: dict[int, Change]):
    """The user's edits put in place of the model's own q, k, v (after RoPE: what the heatmap shows)."""
    for head, change in changes.items():
        for given, into in ((change.q, q), (change.k, k), (change.v, v)):
            if given is not None:
                into[head] = given
    return q, k, v


def attend(q, k, v, c: Config, layer: int, changes: dict[int, Change]) -> np.ndarray:
    """softmax(q kᵀ / √d_head + M) v per head, M the layer's mask; a head switched off gives 0."""
    spec = mask_of(c, layer)
    n = q.shape[1]
    y = attention(q, k, v, causal=True, scale=True, mask=None if spec is None else additive(spec, n)).output
    for head, change in changes.items():
        if change.off:
            y[head] = 0.0
    return y
