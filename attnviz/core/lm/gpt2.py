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

from .blocks import attend, changed, gelu_tanh, heads, joined
from .weights import linear


def embed(model, ids) -> np.ndarray:
    ids = list(ids)
    return model.embedding[ids] + model.positions[:len(ids)]                   # [n, d]


def block(model, layer: int, x: np.ndarray, changes: dict):
    c, b = model.config, model.blocks[layer]
    h = b.attn_norm(x, c.eps)
    q, k, v = (heads(linear(h, w, bias), c.n_heads).astype(np.float64)
               for w, bias in ((b.w_q, b.b_q), (b.w_k, b.b_k), (b.w_v, b.b_v)))
    q, k, v = changed(q, k, v, changes)
    x = x + linear(joined(attend(q, k, v, c, layer, changes)), b.w_o, b.b_o)
    h = b.ffn_norm(x, c.eps)
    return x + linear(gelu_tanh(linear(h, b.w_up, b.b_up)), b.w_down, b.b_down), q, k, v
