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

import math

import numpy as np

from ...messages import QT_TR_NOOP
from ...scenario import ScenarioError
from ..blocks import gelu_tanh, layer_pass
from ..weights import Block, Config, linear, present
from . import qwen3
from .base import no_top as gguf_top  # noqa: F401 (part of the record)
from .llama import HF, LAYER_NORM, ROPE, embed, gated, qkv  # noqa: F401

NAME = "gemma3"
MODEL_TYPES = ("gemma3_text",)
GGUF_ROPE_HALVES = True  # llama.cpp turns its halves (NEOX)
HF_GAIN_PLUS_ONE = True  # transformers' Gemma3RMSNorm multiplies by 1 + w (a GGUF stores 1 + w already)
HF_ASSUMES = {"hidden_activation": ("gelu_pytorch_tanh",), "attention_bias": (False,),
              "use_bidirectional_attention": (False,)}
# what transformers' Gemma3TextConfig takes where config.json names none (its rope_parameters: 1,000,000 for the
# global layers, 10,000 for the sliding ones)
HF_DEFAULTS: dict[str, float | bool] = {"eps": 1e-6, "tie_word_embeddings": True, "rope_theta": 1_000_000.0,
                                        "rope_local_base_freq": 10_000.0, "query_pre_attn_scalar": 256}
LAYER_TYPES = ("sliding_attention", "full_attention")
GLOBAL_EVERY = 6         # llama.cpp's Gemma 3: every sixth layer global, the rest sliding
LOCAL_BASE = 10000.0     # llama.cpp's Gemma 3: the sliding layers' RoPE base where the file names none


def attention_out(b: Block, c: Config, y: np.ndarray) -> np.ndarray:
    return present(b.post_attn_norm, "post-attention norm")(linear(y, b.w_o), c.eps)


def mlp(b: Block, c: Config, x: np.ndarray) -> np.ndarray:
    hidden = gated(gelu_tanh, linear(b.ffn_norm(x, c.eps), present(b.w_in, "gate")))
    return present(b.post_ffn_norm, "post-feed-forward norm")(linear(hidden, b.w_down), c.eps)


def block(model, layer: int, x: np.ndarray, changes: dict, kept=None, last_only: bool = False):
    return layer_pass(model, layer, x, changes, qkv, attention_out, mlp, kept, last_only)


# ---------------------------------------------------------------- its tensors and settings

def gguf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    return {**qwen3.gguf_tensors(c), "post_attention_norm.weight": (c.d,), "post_ffw_norm.weight": (c.d,)}


def gguf_block(t, norm, c: Config) -> Block:
    return qwen3.gguf_block(t, norm, c, post_attn_norm=norm("post_attention_norm"),
                            post_ffn_norm=norm("post_ffw_norm"))


def hf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    return {**qwen3.hf_tensors(c), "pre_feedforward_layernorm.weight": (c.d,),
            "post_feedforward_layernorm.weight": (c.d,)}


def hf_block(g, norm, c: Config) -> Block:
    return qwen3.hf_block(g, norm, c, ffn_norm="pre_feedforward_layernorm",
                          post_attn_norm=norm("post_attention_layernorm"),
                          post_ffn_norm=norm("post_feedforward_layernorm"))


def gguf_settings(size, n_layers: int, d: int) -> dict:
    """The sliding windows (every sixth layer global), their RoPE base (rope.freq_base_swa where a newer
    converter writes it, as llama.cpp reads it), the embedding's scale √d."""
    return {"window": size("attention.sliding_window", 512),
            "rope_base_local": float(size("rope.freq_base_swa", LOCAL_BASE)),
            "sliding": tuple((i + 1) % GLOBAL_EVERY != 0 for i in range(n_layers)), "embed_scale": math.sqrt(d)}


def hf_settings(number, cfg: dict, n_layers: int, d: int, d_head: int, rope_base) -> dict:
    """Each layer's kind (layer_types, or every sliding_window_pattern-th global), each kind's RoPE base,
    the window, the query's scale (query_pre_attn_scalar) and the embedding's (√d)."""
    if cfg.get("final_logit_softcapping"):
        raise ScenarioError(QT_TR_NOOP("caps its logits (softcapping), which AttnViz does not do"))
    types: list = cfg.get("layer_types") or []
    if types and (len(types) != n_layers or not set(types) <= set(LAYER_TYPES)):
        raise ScenarioError(QT_TR_NOOP("its layer_types must name each of its {0} layers sliding_attention or "
                                       "full_attention"), n_layers)
    if not types:
        every = number("sliding_window_pattern", default=6)
        types = ["full_attention" if (i + 1) % every == 0 else "sliding_attention" for i in range(n_layers)]
    window = number("sliding_window", default=4096)  # none named: transformers' Gemma3TextConfig's default
    return {"rope_base": rope_base("full_attention"), "rope_base_local": rope_base("sliding_attention"),
            "window": window, "sliding": tuple(t == "sliding_attention" for t in types),
            "q_scale": math.sqrt(d_head / number("query_pre_attn_scalar", default=HF_DEFAULTS["query_pre_attn_scalar"],
                                                          whole=False)),
            "embed_scale": math.sqrt(d)}
