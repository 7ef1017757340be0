"""The Llama family's block (SmolLM2, TinyLlama, Llama 3, Mistral; Qwen 2 and Qwen 3 too).

    h = RMSNorm(x) · g_attn
    q, k, v = h W_qᵀ (+ b_q), h W_kᵀ (+ b_k), h W_vᵀ (+ b_v)    # biases: Qwen 2; [heads, n, d_head]
    q, k = RMSNorm(q) · g_q, RMSNorm(k) · g_k per head            # QK-norm: Qwen 3
    q, k = RoPE(q), RoPE(k)                                     # base θ (Llama 3: frequency factors)
    y_i = softmax(q_i k_gᵀ / √d_head + M) v_g                   # head i reads K/V head g = i // (H / H_kv)
    x = x + concat(y_0, …) W_oᵀ
    h = RMSNorm(x) · g_ffn
    x = x + (silu(h W_gateᵀ) ⊙ h W_upᵀ) W_downᵀ                 # SwiGLU
"""
from __future__ import annotations

import numpy as np

from ..blocks import heads, layer_pass, per_head_norm, turned
from ..weights import Block, Config, linear, present
from .base import no_gguf_settings as gguf_settings  # noqa: F401 (part of the record)
from .base import sizes

NAME = "llama"                       # general.architecture in a GGUF file
MODEL_TYPES = ("llama", "mistral")   # config.json's model_type
LAYER_NORM = False                   # RMSNorm, no biases
ROPE = True
GGUF_ROPE_HALVES = False             # llama.cpp permutes a Llama's q and k rows: RoPE turns (2i, 2i + 1)
HF = {"block": "model.layers.{0}.", "embedding": "model.embed_tokens.weight", "norm": "model.norm"}
HF_GAIN_PLUS_ONE = False             # transformers keeps a norm's gain g as it multiplies
# what the block above holds to, where config.json may say otherwise (absent: transformers' default, the same)
HF_ASSUMES = {"hidden_act": ("silu", "swish"), "attention_bias": (False,), "mlp_bias": (False,),
              "partial_rotary_factor": (1, 1.0)}
# what transformers' config (LlamaConfig, and Qwen 2's, Qwen 3's, Mistral's) takes where config.json names none
HF_DEFAULTS: dict[str, float | bool] = {"eps": 1e-6, "tie_word_embeddings": False, "rope_theta": 10000.0}


def silu(x: np.ndarray) -> np.ndarray:
    """x / (1 + e⁻ˣ), in one new array (four passes over it, no temporaries); e⁻ˣ as 2^(−x log₂e),
    which numpy computes in half exp's time."""
    out = np.multiply(x, np.float32(-np.log2(np.e)))
    with np.errstate(over="ignore"):  # e⁻ˣ of a large negative x is inf: x / inf is the −0 wanted
        np.exp2(out, out=out)
    out += 1
    return np.divide(x, out, out=out)


def embed(model, ids) -> np.ndarray:
    return model.embedding[list(ids)] * np.float32(model.config.embed_scale)     # [n, d]


def qkv(b: Block, c: Config, layer: int, x: np.ndarray, start: int = 0):
    """The model's own q [..., H, m, d_head] and k, v [..., H_kv, m, d_head] of the tokens x [..., m, d] (from
    position `start` on): normed, projected, q and k normed per head (QK-norm) and turned (RoPE)."""
    qkv_rows = linear(b.attn_norm(x, c.eps), b.w_qkv, b.b_qkv)                 # [m, (H + 2 H_kv) · d_head]
    q, k, v = np.split(qkv_rows, [c.n_heads * c.d_head, (c.n_heads + c.n_kv_heads) * c.d_head], axis=-1)
    q = turned(per_head_norm(heads(q, c.n_heads), b.q_norm, c.eps), c, layer, start)
    if c.q_scale != 1.0:
        q = q * np.float32(c.q_scale)
    return q, turned(per_head_norm(heads(k, c.n_kv_heads), b.k_norm, c.eps), c, layer, start), heads(v, c.n_kv_heads)


def attention_out(b: Block, c: Config, y: np.ndarray) -> np.ndarray:
    """What attention adds to the residual stream: the heads [n, H · d_head] through W_o."""
    return linear(y, b.w_o, b.b_o)


def mlp(b: Block, c: Config, x: np.ndarray) -> np.ndarray:
    """What the feed-forward adds to the residual stream x [n, d]."""
    return linear(gated(silu, linear(b.ffn_norm(x, c.eps), present(b.w_in, "gate"))), b.w_down)


def block(model, layer: int, x: np.ndarray, changes: dict, kept=None, last_only: bool = False):
    """One block: x [n, d] -> (x', q, k, v), the model's own q, k, v before the changes."""
    return layer_pass(model, layer, x, changes, qkv, attention_out, mlp, kept, last_only)


def hf_settings(number, cfg: dict, n_layers: int, d: int, d_head: int, rope_base) -> dict:
    """Mistral's sliding window, in every layer, when its config.json has one (transformers' Llama reads none)."""
    if cfg.get("model_type") != "mistral" or cfg.get("sliding_window") is None:
        return {}
    return {"window": number("sliding_window"), "sliding": (True,) * n_layers}


def gated(activation, gate_up: np.ndarray) -> np.ndarray:
    """activation(gate) ⊙ up, from [..., 2 d_ff] (gate, then up) to [..., d_ff]."""
    gate, up = np.split(gate_up, 2, axis=-1)
    out = activation(gate)
    out *= up
    return out


# ---------------------------------------------------------------- its tensors, as the files name them

def gguf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    """One block's tensors under blk.{i}., with their shapes (out, in)."""
    q, kv, d, ff = sizes(c)
    return {"attn_norm.weight": (d,), "attn_q.weight": (q, d), "attn_k.weight": (kv, d), "attn_v.weight": (kv, d),
            "attn_output.weight": (d, q), "ffn_norm.weight": (d,), "ffn_gate.weight": (ff, d),
            "ffn_up.weight": (ff, d), "ffn_down.weight": (d, ff)}


def gguf_top(c: Config, present_names) -> dict[str, tuple[int, ...]]:
    """Tensors outside the blocks beyond the embedding, the final norm and the output: Llama 3's frequency
    factors, when the file has them."""
    return {"rope_freqs.weight": (c.d_head // 2,)} if "rope_freqs.weight" in present_names else {}


def gguf_block(t, norm, c: Config, **extra) -> Block:
    """The block from `t(name)` (a tensor under blk.{i}.) and `norm(name)` (its .weight, and .bias)."""
    return Block(norm("attn_norm"), t("attn_q.weight"), t("attn_k.weight"), t("attn_v.weight"),
                 t("attn_output.weight"), norm("ffn_norm"), t("ffn_up.weight"), t("ffn_down.weight"),
                 w_gate=t("ffn_gate.weight"), **extra)


def hf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    """One block's tensors under model.layers.{i}., as transformers names them."""
    q, kv, d, ff = sizes(c)
    return {"input_layernorm.weight": (d,), "post_attention_layernorm.weight": (d,),
            "self_attn.q_proj.weight": (q, d), "self_attn.k_proj.weight": (kv, d), "self_attn.v_proj.weight": (kv, d),
            "self_attn.o_proj.weight": (d, q), "mlp.gate_proj.weight": (ff, d), "mlp.up_proj.weight": (ff, d),
            "mlp.down_proj.weight": (d, ff)}


def hf_block(g, norm, c: Config, ffn_norm: str = "post_attention_layernorm", **extra) -> Block:
    """The block from `g(name)` (a tensor under model.layers.{i}.) and `norm(name)` (its .weight, and .bias)."""
    return Block(norm("input_layernorm"), g("self_attn.q_proj.weight"), g("self_attn.k_proj.weight"),
                 g("self_attn.v_proj.weight"), g("self_attn.o_proj.weight"), norm(ffn_norm), g("mlp.up_proj.weight"),
                 g("mlp.down_proj.weight"), w_gate=g("mlp.gate_proj.weight"), **extra)
