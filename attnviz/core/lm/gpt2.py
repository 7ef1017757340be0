"""GPT-2's block: learned positions, LayerNorm, one fused q/k/v matrix with biases, GELU.

    x = embedding[ids] + positions[0 … n−1]
    h = LayerNorm(x)
    q, k, v = split(h W_qkvᵀ + b_qkv)                           # stored here as W_q, W_k, W_v
    y_i = softmax(q_i k_iᵀ / √d_head + M) v_i                   # no RoPE, no K/V groups
    x = x + concat(y_0, …) W_oᵀ + b_o
    h = LayerNorm(x)
    x = x + gelu(h W_upᵀ + b_up) W_downᵀ + b_down
"""
from __future__ import annotations

import numpy as np

from .blocks import gelu_tanh, heads, layer_pass
from .weights import Block, Config, linear


def embed(model, ids) -> np.ndarray:
    ids = list(ids)
    return model.embedding[ids] + model.positions[:len(ids)]                   # [n, d]


def qkv(b: Block, c: Config, layer: int, x: np.ndarray, start: int = 0):
    """The tokens' q, k, v [H, m, d_head]: LayerNorm, then the one fused projection, split."""
    return tuple(heads(m, c.n_heads) for m in np.split(linear(b.attn_norm(x, c.eps), b.w_qkv, b.b_qkv), 3, axis=-1))


def attention_out(b: Block, c: Config, y: np.ndarray) -> np.ndarray:
    return linear(y, b.w_o, b.b_o)


def mlp(b: Block, c: Config, x: np.ndarray) -> np.ndarray:
    return linear(gelu_tanh(linear(b.ffn_norm(x, c.eps), b.w_up, b.b_up)), b.w_down, b.b_down)


def block(model, layer: int, x: np.ndarray, changes: dict, kept=None, last_only: bool = False):
    return layer_pass(model, layer, x, changes, qkv, attention_out, mlp, kept, last_only)
