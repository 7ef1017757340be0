"""Scaled dot-product attention and multi-head attention, in numpy.

Row vectors throughout, as in the seeds: Q = X W_q, scores = Q Kᵀ.
Every function is pure: it returns new arrays and never changes its inputs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


class Rows(Protocol):
    """What the views read of a stage before softmax: its shape and rows by index. An array, or for a
    long input rows worked out when asked for (ScoreRows; compute.LogWeights for a file's weights)."""

    @property
    def shape(self) -> tuple[int, ...]: ...

    @property
    def ndim(self) -> int: ...

    def __len__(self) -> int: ...

    def __getitem__(self, index: Any) -> Any: ...


@dataclass(frozen=True)
class AttentionTrace:
    """Every intermediate of softmax(Q Kᵀ / √d_k / T + M) V, kept for display."""

    scores: Rows         # q·kᵀ                     [..., n_q, n_k]
    scaled: Rows         # ÷ √d_k (if scale), ÷ T    [..., n_q, n_k]
    masked: Rows         # + M (−inf where hidden)  [..., n_q, n_k]
    weights: np.ndarray  # softmax of masked        [..., n_q, n_k]
    output: np.ndarray   # weights @ v              [..., n_q, d_v]


@dataclass(frozen=True)
class MultiHeadTrace:
    """Every stage of the layer O = X + concat(head_0, ..., head_h-1) W_o."""

    x: np.ndarray          # [n, d] the residual stream: X (+ sinusoidal positions)
    q: np.ndarray          # [n_heads, n, d_head]
    k: np.ndarray          # [n_heads, n, d_head]  (K/V groups repeated per head)
    v: np.ndarray          # [n_heads, n, d_head]
    heads: AttentionTrace  # head axis first
    concat: np.ndarray     # [n, d]
    projected: np.ndarray  # concat @ w_o   [n, d]
    output: np.ndarray     # x + projected (or projected alone without residual)
    normed: np.ndarray | None = None  # LayerNorm(x) when the layer normalises first, else x


def softmax(x, axis=-1):
    """exp(x) / Σ exp(x), with the max subtracted first so exp never overflows."""
    x = np.asarray(x, dtype=float)
    peak = np.max(x, axis=axis, keepdims=True)
    # A row that is entirely −inf has no visible key: it gets all-zero weights
    # (nothing to attend to) instead of the NaN of 0 / 0.
    peak = np.where(np.isfinite(peak), peak, 0.0)
    e = np.exp(x - peak)
    total = np.sum(e, axis=axis, keepdims=True)
    return e / np.where(total > 0, total, 1.0)


def causal_mask(n, n_k=None):
    """The seed's M: 0 where key j ≤ query i (past and self), −inf for the future.

    With n_k > n keys (queries for the last n positions only, as with a KV cache)
    query i stands at position n_k − n + i."""
    n_k = n if n_k is None else n_k
    future = np.triu(np.ones((n, n_k), dtype=bool), k=n_k - n + 1)  # [n, n_k], True in the future
    return np.where(future, -np.inf, 0.0)


def attention(q, k, v, *, causal=True, scale=True, temperature=1.0, mask=None):
    """softmax(q kᵀ / √d_k / temperature + M) v for each leading (head) axis.

    `mask`, when given, is an additive (n_q, n_k) mask of 0 and −inf that
    replaces the causal one (sliding window, padding, hand-painted, ...).
    """
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    if not 0 < temperature < np.inf:
        raise ValueError(f"temperature must be a positive number, not {temperature}")
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2)  # [..., n_q, d_k] @ [..., d_k, n_k] -> [..., n_q, n_k]
    divisor = (np.sqrt(d_k) if scale else 1.0) * temperature
    scaled = scores / divisor
    if mask is None:
        mask = causal_mask(*scores.shape[-2:]) if causal else 0.0
    masked = scaled + mask
    weights = softmax(masked, axis=-1)
    output = weights @ v  # [..., n_q, n_k] @ [..., n_k, d_v] -> [..., n_q, d_v]
    return AttentionTrace(scores, scaled, masked, weights, output)


class ScoreRows:
    """q kᵀ ÷ divisor (and + M) worked out for the rows asked for, never whole: a long input's
    scores would be heads × n² numbers kept three times over (scores, scaled, masked) where every
    view reads them a row at a time (the step table, the softmax view, the geometry)."""

    def __init__(self, q: np.ndarray, k: np.ndarray, divisor: float = 1.0, hidden: np.ndarray | None = None):
        self.q, self.k, self.divisor, self.hidden = q, k, divisor, hidden  # hidden: [n, n] bool, or None
        self.shape = (q.shape[0], k.shape[0])
        self.ndim = 2

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, index):
        rows, cols = index if isinstance(index, tuple) else (index, slice(None))
        out = np.asarray(self.q[rows], dtype=float) @ np.asarray(self.k, dtype=float).T
        if self.divisor != 1.0:
            out = out / self.divisor
        if self.hidden is not None:
            out = np.where(self.hidden[rows], -np.inf, out)
        return out[..., cols]

    def __array__(self, dtype=None, copy=None):
        whole = self[:]
        return whole if dtype is None else whole.astype(dtype)


def lean_weights(q, k, hidden: np.ndarray, divisor: float, out: np.ndarray) -> np.ndarray:
    """softmax(q kᵀ ÷ divisor + M) for some query rows of a long input, worked out in place in
    `out` ([rows, n_k], in its dtype: compute._lean gives float32). `hidden` is those rows' part of
    [n_q, n_k], True where M is −∞. -> out."""
    dtype = out.dtype.type
    np.matmul(np.asarray(q, dtype=dtype), np.asarray(k, dtype=dtype).T, out=out)
    out *= dtype(1.0 / divisor)
    np.putmask(out, hidden, -np.inf)
    peak = out.max(axis=-1, keepdims=True)
    out -= np.where(np.isfinite(peak), peak, 0.0).astype(dtype)  # a row with no key stays all −∞
    np.exp(out, out=out)
    total = out.sum(axis=-1, keepdims=True)
    out /= np.where(total > 0, total, 1.0).astype(dtype)
    return out


def lean_trace(q, k, hidden: np.ndarray, divisor: float, weights: np.ndarray, output: np.ndarray) -> AttentionTrace:
    """attention()'s trace for one head of a long input: its weights and output (lean_weights, then
    weights @ v), and the scores as ScoreRows, worked out only for the rows a view asks for."""
    return AttentionTrace(ScoreRows(q, k), ScoreRows(q, k, divisor), ScoreRows(q, k, divisor, hidden), weights,
                          output)


def split_heads(x, n_heads):
    """Columns into heads: [n, d] -> [n_heads, n, d / n_heads] (seed 002: Q[:, i·d/h:(i+1)·d/h])."""
    n, d = x.shape
    if d % n_heads:
        raise ValueError(f"d = {d} is not divisible by {n_heads} heads")
    return x.reshape(n, n_heads, d // n_heads).transpose(1, 0, 2)


def merge_heads(x):
    """Concatenate heads side by side: [n_heads, n, d_head] -> [n, n_heads · d_head]."""
    n_heads, n, d_head = x.shape
    return x.transpose(1, 0, 2).reshape(n, n_heads * d_head)


def layer_norm(x, eps=1e-5):
    """Each row to mean 0 and variance 1 (no learned gain or bias), as before a block's attention."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def sinusoidal_positions(n, d):
    """The Transformer's positional encodings: PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...)."""
    position = np.arange(n)[:, None]                         # [n, 1]
    frequency = 1.0 / 10000 ** (np.arange(0, d, 2) / d)     # [ceil(d/2)]
    angles = position * frequency                            # [n, ceil(d/2)]
    pe = np.zeros((n, d))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles[:, : d // 2])
    return pe


def rope(x, base: float = 10000.0, halves: bool = False, factors=None, start: int = 0):
    """Rotary position embedding: rotate each pair of dimensions of token p by the angle
    p / base^(2i/d) (divided by factors[i] when given, as Llama 3 stretches the slow pairs), so
    that q·k depends on how far apart the two tokens are. The pairs are (2i, 2i+1), as llama.cpp
    stores a Llama's q and k, or with `halves` (i, i + d/2), as Hugging Face's models and the GGUF
    files of Qwen and Gemma lay them out. float32 stays float32 (a model's pass); anything else is float64.
    The rows are the positions start, start + 1, … (a model's pass turns its tokens a part at a time)."""
    x = np.asarray(x)
    x = x if x.dtype == np.float32 else x.astype(float)
    n, d = x.shape[-2], x.shape[-1]
    if d % 2:
        raise ValueError(f"RoPE rotates pairs of dimensions: d_head = {d} must be even")
    inverse = 1.0 / base ** (np.arange(0, d, 2) / d)                    # [d/2]
    if factors is not None:
        inverse = inverse / np.asarray(factors, dtype=float)
    angles = np.arange(start, start + n)[:, None] * inverse              # [n, d/2]
    if not halves and x.dtype == np.float32 and x.strides[-1] == x.itemsize:
        # the pairs (2i, 2i+1) as complex numbers: the turn is one multiplication by e^{iθ} (a model's pass)
        out = np.empty(x.shape, dtype=np.float32)
        np.multiply(x.view(np.complex64), np.exp(1j * angles).astype(np.complex64), out=out.view(np.complex64))
        return out
    cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
    first, second = (np.s_[..., :d // 2], np.s_[..., d // 2:]) if halves else (np.s_[..., 0::2], np.s_[..., 1::2])
    a, b = x[first], x[second]
    out = np.empty_like(x)
    out[first] = a * cos - b * sin
    out[second] = a * sin + b * cos
    return out


POSITIONS = ("none", "sinusoidal", "rope")


def group_size(n_heads: int, n_kv_heads: int) -> int:
    """How many heads read each K/V head (grouped-query attention; 1 without it): head i reads
    K/V head i // group_size. The heads must split evenly into the groups."""
    if n_kv_heads < 1 or n_heads % n_kv_heads:
        raise ValueError(f"{n_heads} heads cannot share K/V in {n_kv_heads} groups")
    return n_heads // n_kv_heads


def kv_group(head: int, n_heads: int, n_kv_heads: int) -> tuple[int, range]:
    """(the K/V head that `head` reads, every head that reads it)."""
    size = group_size(n_heads, n_kv_heads)
    group = head // size
    return group, range(group * size, (group + 1) * size)


def project_heads(x, w_q, w_k, w_v, n_heads, n_kv_heads=None, layer_norm_first=False, positions="none"):
    """The layer up to the heads: (stream, normed, q, k, v) with q, k, v [n_heads, n, d_head].

    stream = X (+ sinusoidal positions); normed = LayerNorm(stream) when asked; Q = normed W_q,
    K and V likewise; K and V repeated per GQA group; RoPE rotates q and k when asked.
    """
    x = np.asarray(x, dtype=float)
    n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
    size = group_size(n_heads, n_kv_heads)
    stream = x + sinusoidal_positions(*x.shape) if positions == "sinusoidal" else x
    normed = layer_norm(stream) if layer_norm_first else stream
    q = split_heads(normed @ w_q, n_heads)     # [n, d] @ [d, d] -> [n_heads, n, d_head]
    k = split_heads(normed @ w_k, n_kv_heads)  # [n, d] @ [d, d_kv] -> [n_kv_heads, n, d_head]
    v = split_heads(normed @ w_v, n_kv_heads)
    k = np.repeat(k, size, axis=0)             # [n_kv_heads, ...] -> [n_heads, ...]: head i reads i // size
    v = np.repeat(v, size, axis=0)
    if positions == "rope":
        q, k = rope(q), rope(k)
    return stream, normed, q, k, v


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, *, n_kv_heads=None,
                         causal=True, scale=True, temperature=1.0, residual=True, mask=None,
                         layer_norm_first=False, positions="none"):
    """X → Q, K, V → split into heads → attention per head → concat → W_o → + X.

    With n_kv_heads < n_heads (grouped-query attention) w_k and w_v have
    n_kv_heads · d_head columns, and head i reads K/V group i // (n_heads / n_kv_heads).
    layer_norm_first normalises X before the projections (the residual adds X itself);
    positions is "none", "sinusoidal" (added to X) or "rope" (rotating q and k).
    """
    stream, normed, q, k, v = project_heads(x, w_q, w_k, w_v, n_heads, n_kv_heads, layer_norm_first, positions)
    heads = attention(q, k, v, causal=causal, scale=scale, temperature=temperature, mask=mask)
    concat = merge_heads(heads.output)    # [n_heads, n, d_head] -> [n, d]
    projected = concat @ np.asarray(w_o, dtype=float)  # [n, d] @ [d, d] -> [n, d]
    output = stream + projected if residual else projected
    return MultiHeadTrace(stream, q, k, v, heads, concat, projected, output, normed)
