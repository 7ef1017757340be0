"""Gemma 3's block: Llama's, with QK-norm, a norm after attention and after the feed-forward,
GeGLU, embeddings scaled by √d_model, and sliding-window layers between the global ones.

    x = embedding[ids] · √d
    h = RMSNorm(x) · g_attn                                     # Gemma's gains are stored as 1 + w
    q, k, v = h W_qᵀ, h W_kᵀ, h W_vᵀ                            # [heads, n, d_head]
    q, k = RMSNorm(q) · g_q, RMSNorm(k) · g_k per head          # QK-norm
    q, k = RoPE(q), RoPE(k)                                     # base 10,000 (sliding) or 1,000,000 (global)
    y_i = softmax(q_i k_iᵀ / √d_head + M) v_i                   # M: the window (sliding layers) or causal
    x = x + RMSNorm(concat(y_0, …) W_oᵀ) · g_post_attn
    h = RMSNorm(x) · g_ffn
    x = x + RMSNorm((gelu(h W_gateᵀ) ⊙ h W_upᵀ) W_downᵀ) · g_post_ffn
"""
from __future__ import annotations

import numpy as np

from .blocks import attend, changed, gelu_tanh, joined
from .llama import qkv
from .weights import linear


def block(model, layer: int, x: np.ndarray, changes: dict):
    c, b = model.config, model.blocks[layer]
    q, k, v = changed(*qkv(b, c, layer, b.attn_norm(x, c.eps)), changes)
    x = x + b.post_attn_norm(linear(joined(attend(q, k, v, c, layer, changes)), b.w_o), c.eps)
    h = b.ffn_norm(x, c.eps)
    ffn = linear(gelu_tanh(linear(h, b.w_gate)) * linear(h, b.w_up), b.w_down)
    return x + b.post_ffn_norm(ffn, c.eps), q, k, v
