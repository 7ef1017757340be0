"""Qwen 2 (and 2.5): Llama's block with biases on q, k and v.

    q, k, v = h W_qᵀ + b_q, h W_kᵀ + b_k, h W_vᵀ + b_v          # the rest as Llama (llama.py)
"""
from __future__ import annotations

from ..weights import Block, Config
from . import llama
from .base import no_gguf_settings, no_hf_settings, no_top, sizes
from .llama import HF, HF_DEFAULTS, HF_GAIN_PLUS_ONE, LAYER_NORM, ROPE, attention_out, block, embed, mlp, qkv  # noqa: F401

NAME = "qwen2"
MODEL_TYPES = ("qwen2",)
GGUF_ROPE_HALVES = True  # llama.cpp turns its halves (NEOX)
HF_ASSUMES = {"hidden_act": ("silu", "swish"), "use_sliding_window": (False,)}  # its q, k, v biases are read as tensors
gguf_top, gguf_settings, hf_settings = no_top, no_gguf_settings, no_hf_settings


def gguf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    q, kv, _, _ = sizes(c)
    return {**llama.gguf_tensors(c), "attn_q.bias": (q,), "attn_k.bias": (kv,), "attn_v.bias": (kv,)}


def gguf_block(t, norm, c: Config) -> Block:
    return llama.gguf_block(t, norm, c, **{f"b_{m}": t(f"attn_{m}.bias") for m in "qkv"})


def hf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    q, kv, _, _ = sizes(c)
    return {**llama.hf_tensors(c), **{f"self_attn.{m}_proj.bias": (size,) for m, size in (("q", q), ("k", kv),
                                                                                          ("v", kv))}}


def hf_block(g, norm, c: Config) -> Block:
    return llama.hf_block(g, norm, c, **{f"b_{m}": g(f"self_attn.{m}_proj.bias") for m in "qkv"})
