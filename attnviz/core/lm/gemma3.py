"""Gemma 3's block: Llama's, with QK-norm, a norm after attention and after the feed-forward,
GeGLU, embeddings scaled by √d_model, and sliding-window layers between the global ones.

    x = embedding[ids] · √d
    h = RMSNorm(x) · g_attn                                     # Gemma's gains are stored as 1 + w
    q, k, v = h W_qᵀ, h W_kᵀ, h W_vᵀ                            # [heads, n, d_head]
    q, k = RMSNorm(q) · g_q, RMSNorm(k) · g_k per head          # QK-norm
    q, k = RoPE(q), RoPE(k)                                     # base 10,000 (sliding) or 1,000,000 (global)
    y_i = softmax(q_i k_gᵀ / √d_head + M) v_g                   # M: the window (sliding layers) or causal
    x = x + RMSNorm(concat(y_0, …) W_oᵀ) · g_post_attn
    h = RMSNorm(x) · g_ffn
    x = x + RMSNorm((gelu(h W_gateᵀ) ⊙ h W_upᵀ) W_downᵀ) · g_post_ffn
"""
from __future__ import annotations

import numpy as np

from .blocks import gelu_tanh, layer_pass
from .llama import embed, gated, qkv
from .weights import Block, Config, linear, present

__all__ = ["attention_out", "block", "embed", "mlp"]


def attention_out(b: Block, c: Config, y: np.ndarray) -> np.ndarray:
    return present(b.post_attn_norm, "post-attention norm")(linear(y, b.w_o), c.eps)


def mlp(b: Block, c: Config, x: np.ndarray) -> np.ndarray:
    hidden = gated(gelu_tanh, linear(b.ffn_norm(x, c.eps), present(b.w_in, "gate")))
    return present(b.post_ffn_norm, "post-feed-forward norm")(linear(hidden, b.w_down), c.eps)


def block(model, layer: int, x: np.ndarray, changes: dict, kept=None, last_only: bool = False):
    return layer_pass(model, layer, x, changes, qkv, attention_out, mlp, kept, last_only)
