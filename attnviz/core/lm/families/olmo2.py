"""OLMo 2's block: no norm before attention nor before the feed-forward; their outputs normed before the
residual instead (as Gemma 3's post-norms), and q and k normed over their whole projections, every head at
once (QK-norm, not per head as Qwen 3's); RoPE, SwiGLU, no biases.

    q, k, v = x W_qᵀ, x W_kᵀ, x W_vᵀ                            # the stream itself: no pre-norm
    q, k = RMSNorm(q) · g_q, RMSNorm(k) · g_k                    # over all H · d_head (k: H_kv · d_head) at once
    q, k = RoPE(q), RoPE(k)                                      # per head [heads, n, d_head], base θ
    y_i = softmax(q_i k_gᵀ / √d_head + M) v_g                   # head i reads K/V head g = i // (H / H_kv)
    x = x + RMSNorm(concat(y_0, …) W_oᵀ) · g_post_attn
    x = x + RMSNorm((silu(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ) · g_post_ffn
"""
from __future__ import annotations

import numpy as np

from ...messages import QT_TR_NOOP
from ...scenario import ScenarioError
from ..blocks import heads, layer_pass, turned
from ..weights import Block, Config, Norm, linear, present
from .base import no_hf_settings as hf_settings  # noqa: F401 (part of the record)
from .base import no_top as gguf_top  # noqa: F401
from .base import sizes
from .gemma3 import attention_out
from .llama import HF, HF_GAIN_PLUS_ONE, LAYER_NORM, ROPE, embed, gated, silu  # noqa: F401

NAME = "olmo2"                       # general.architecture in a GGUF file (OLMo 3's too: refused, see below)
MODEL_TYPES = ("olmo2",)
GGUF_ROPE_HALVES = True              # llama.cpp turns its halves (NEOX), no permutation
HF_ASSUMES = {"hidden_act": ("silu", "swish"), "attention_bias": (False,)}
HF_DEFAULTS: dict[str, float | bool] = {"eps": 1e-5, "tie_word_embeddings": False, "rope_theta": 10000.0}


class Unnormed(Norm):
    """No norm: the stream as it is, a copy (the norm before attention and before the feed-forward that
    OLMo 2 has not; the hooks' ln1 is then the stream entering the layer, and not its own array)."""

    def __init__(self) -> None:
        super().__init__(np.ones(0, dtype=np.float32))

    def __call__(self, x: np.ndarray, eps: float) -> np.ndarray:
        return np.array(x, dtype=np.float32)


def qkv(b: Block, c: Config, layer: int, x: np.ndarray, start: int = 0):
    """The model's own q [..., H, m, d_head] and k, v [..., H_kv, m, d_head] of the tokens x [..., m, d] (from
    position `start` on): projected from the stream as it is, q and k normed whole, split into heads, turned."""
    q, k, v = np.split(linear(b.attn_norm(x, c.eps), b.w_qkv),
                       [c.n_heads * c.d_head, (c.n_heads + c.n_kv_heads) * c.d_head], axis=-1)
    q = heads(present(b.q_norm, "q norm")(q, c.eps), c.n_heads)
    k = heads(present(b.k_norm, "k norm")(k, c.eps), c.n_kv_heads)
    return turned(q, c, layer, start), turned(k, c, layer, start), heads(v, c.n_kv_heads)


def mlp(b: Block, c: Config, x: np.ndarray) -> np.ndarray:
    """What the feed-forward adds to the residual stream x [n, d]: SwiGLU of the stream itself, normed."""
    hidden = gated(silu, linear(b.ffn_norm(x, c.eps), present(b.w_in, "gate")))
    return present(b.post_ffn_norm, "post-feed-forward norm")(linear(hidden, b.w_down), c.eps)


def block(model, layer: int, x: np.ndarray, changes: dict, kept=None, last_only: bool = False):
    return layer_pass(model, layer, x, changes, qkv, attention_out, mlp, kept, last_only)


# ---------------------------------------------------------------- its tensors and settings

def gguf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    """One block's tensors under blk.{i}.: no attn_norm, no ffn_norm; q and k norms as wide as q and k."""
    q, kv, d, ff = sizes(c)
    return {"attn_q.weight": (q, d), "attn_k.weight": (kv, d), "attn_v.weight": (kv, d), "attn_output.weight": (d, q),
            "attn_q_norm.weight": (q,), "attn_k_norm.weight": (kv,), "post_attention_norm.weight": (d,),
            "ffn_gate.weight": (ff, d), "ffn_up.weight": (ff, d), "ffn_down.weight": (d, ff),
            "post_ffw_norm.weight": (d,)}


def gguf_block(t, norm, c: Config) -> Block:
    return Block(Unnormed(), t("attn_q.weight"), t("attn_k.weight"), t("attn_v.weight"), t("attn_output.weight"),
                 Unnormed(), t("ffn_up.weight"), t("ffn_down.weight"), w_gate=t("ffn_gate.weight"),
                 q_norm=norm("attn_q_norm"), k_norm=norm("attn_k_norm"), post_attn_norm=norm("post_attention_norm"),
                 post_ffn_norm=norm("post_ffw_norm"))


def gguf_settings(size, n_layers: int, d: int) -> dict:
    """Nothing beyond the sizes; a file with sliding windows (OLMo 3, which llama.cpp writes as olmo2 too)
    refused rather than run without them."""
    if size("attention.sliding_window", 0):
        raise ScenarioError(QT_TR_NOOP("has sliding-window layers (OLMo 3), which AttnViz's olmo2 does not run"))
    return {}


def hf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    """One block's tensors under model.layers.{i}., as transformers' Olmo2 names them."""
    q, kv, d, ff = sizes(c)
    return {"self_attn.q_proj.weight": (q, d), "self_attn.k_proj.weight": (kv, d), "self_attn.v_proj.weight": (kv, d),
            "self_attn.o_proj.weight": (d, q), "self_attn.q_norm.weight": (q,), "self_attn.k_norm.weight": (kv,),
            "post_attention_layernorm.weight": (d,), "mlp.gate_proj.weight": (ff, d), "mlp.up_proj.weight": (ff, d),
            "mlp.down_proj.weight": (d, ff), "post_feedforward_layernorm.weight": (d,)}


def hf_block(g, norm, c: Config) -> Block:
    return Block(Unnormed(), g("self_attn.q_proj.weight"), g("self_attn.k_proj.weight"), g("self_attn.v_proj.weight"),
                 g("self_attn.o_proj.weight"), Unnormed(), g("mlp.up_proj.weight"), g("mlp.down_proj.weight"),
                 w_gate=g("mlp.gate_proj.weight"), q_norm=norm("self_attn.q_norm"), k_norm=norm("self_attn.k_norm"),
                 post_attn_norm=norm("post_attention_layernorm"), post_ffn_norm=norm("post_feedforward_layernorm"))
