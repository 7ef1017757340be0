"""The Llama family's block (SmolLM2, TinyLlama, Llama 3, Mistral; Qwen 2 and Qwen 3 too).

    h = RMSNorm(x) · g_attn
    q, k, v = h W_qᵀ (+ b_q), h W_kᵀ (+ b_k), h W_vᵀ (+ b_v)    # biases: Qwen 2; [heads, n, d_head]
    q, k = RMSNorm(q) · g_q, RMSNorm(k) · g_k per head            # QK-norm: Qwen 3
    q, k = RoPE(q), RoPE(k)                                     # base θ (Llama 3: frequency factors)
    k, v repeated for the heads of each K/V group (GQA)
    y_i = softmax(q_i k_iᵀ / √d_head + M) v_i                   # the core's attention()
    x = x + concat(y_0, …) W_oᵀ
    h = RMSNorm(x) · g_ffn
    x = x + (silu(h W_gateᵀ) ⊙ h W_upᵀ) W_downᵀ                 # SwiGLU
"""
from __future__ import annotations

import numpy as np

from .blocks import attend, changed, heads, joined, per_head_norm, shared_kv, turned
from .weights import Block, Config, linear


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def embed(model, ids) -> np.ndarray:
    return model.embedding[list(ids)] * np.float32(model.config.embed_scale)     # [n, d]


def qkv(b: Block, c: Config, layer: int, h: np.ndarray):
    """The heads' q, k (normed, turned) and v of the normed input h [n, d]."""
    q = heads(linear(h, b.w_q, b.b_q), c.n_heads)                               # [H, n, dh]
    k = heads(linear(h, b.w_k, b.b_k), c.n_kv_heads)                            # [H_kv, n, dh]
    v = heads(linear(h, b.w_v, b.b_v), c.n_kv_heads).astype(np.float64)
    q = turned(per_head_norm(q, b.q_norm, c.eps), c, layer) * c.q_scale
    k = turned(per_head_norm(k, b.k_norm, c.eps), c, layer)
    return (q, *shared_kv(k, v, c))


def block(model, layer: int, x: np.ndarray, changes: dict):
    """One block: x [n, d] -> (x', q, k, v), q, k, v [n_heads, n, d_head] as attention used them."""
    c, b = model.config, model.blocks[layer]
    q, k, v = changed(*qkv(b, c, layer, b.attn_norm(x, c.eps)), changes)
    x = x + linear(joined(attend(q, k, v, c, layer, changes)), b.w_o, b.b_o)    # the residual stream
    h = b.ffn_norm(x, c.eps)
    return x + linear(silu(linear(h, b.w_gate)) * linear(h, b.w_up), b.w_down), q, k, v
