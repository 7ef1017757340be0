"""Qwen 3: Llama's block with q and k normed per head before RoPE (QK-norm), no biases.

    q, k = RMSNorm(q) · g_q, RMSNorm(k) · g_k per head          # the rest as Llama (llama.py)
"""
from __future__ import annotations

from ..weights import Block, Config
from . import llama
from .base import no_gguf_settings, no_hf_settings, no_top
from .llama import HF, HF_DEFAULTS, HF_GAIN_PLUS_ONE, LAYER_NORM, ROPE, attention_out, block, embed, mlp, qkv  # noqa: F401

NAME = "qwen3"
MODEL_TYPES = ("qwen3",)
GGUF_ROPE_HALVES = True  # llama.cpp turns its halves (NEOX)
HF_ASSUMES = {"hidden_act": ("silu", "swish"), "attention_bias": (False,), "use_sliding_window": (False,)}
gguf_top, gguf_settings, hf_settings = no_top, no_gguf_settings, no_hf_settings


def gguf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    return {**llama.gguf_tensors(c), "attn_q_norm.weight": (c.d_head,), "attn_k_norm.weight": (c.d_head,)}


def gguf_block(t, norm, c: Config, **extra) -> Block:
    return llama.gguf_block(t, norm, c, q_norm=norm("attn_q_norm"), k_norm=norm("attn_k_norm"), **extra)


def hf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    return {**llama.hf_tensors(c), "self_attn.q_norm.weight": (c.d_head,), "self_attn.k_norm.weight": (c.d_head,)}


def hf_block(g, norm, c: Config, **extra) -> Block:
    return llama.hf_block(g, norm, c, q_norm=norm("self_attn.q_norm"), k_norm=norm("self_attn.k_norm"), **extra)
