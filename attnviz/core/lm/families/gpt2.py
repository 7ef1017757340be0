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

from ..blocks import gelu_tanh, heads, layer_pass
from ..weights import Block, Config, linear
from .base import no_gguf_settings as gguf_settings  # noqa: F401 (part of the record)
from .base import no_hf_settings as hf_settings  # noqa: F401
from .base import sizes

NAME = "gpt2"
MODEL_TYPES = ("gpt2",)
LAYER_NORM = True        # LayerNorm: every norm has a bias
ROPE = False             # learned positions instead
GGUF_ROPE_HALVES = False
HF = {"block": "h.{0}.", "embedding": "wte.weight", "norm": "ln_f", "positions": "wpe.weight"}
HF_GAIN_PLUS_ONE = False
# the three activations are one tanh formula
HF_ASSUMES = {"activation_function": ("gelu_new", "gelu_pytorch_tanh", "gelu_fast"), "scale_attn_weights": (True,),
              "scale_attn_by_inverse_layer_idx": (False,)}
HF_DEFAULTS: dict[str, float | bool] = {"eps": 1e-5, "tie_word_embeddings": True}


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


# ---------------------------------------------------------------- its tensors

def gguf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    q, _, d, ff = sizes(c)
    return {"attn_norm.weight": (d,), "attn_norm.bias": (d,), "attn_qkv.weight": (3 * q, d), "attn_qkv.bias": (3 * q,),
            "attn_output.weight": (d, q), "attn_output.bias": (d,), "ffn_norm.weight": (d,), "ffn_norm.bias": (d,),
            "ffn_up.weight": (ff, d), "ffn_up.bias": (ff,), "ffn_down.weight": (d, ff), "ffn_down.bias": (d,)}


def gguf_top(c: Config, present_names) -> dict[str, tuple[int, ...]]:
    return {"position_embd.weight": (c.context, c.d)}


def gguf_block(t, norm, c: Config) -> Block:
    qkv, b = t("attn_qkv.weight"), np.split(t("attn_qkv.bias"), 3)
    q = len(qkv) // 3
    return Block(norm("attn_norm"), qkv[:q], qkv[q:2 * q], qkv[2 * q:], t("attn_output.weight"), norm("ffn_norm"),
                 t("ffn_up.weight"), t("ffn_down.weight"), b_q=b[0], b_k=b[1], b_v=b[2],
                 b_o=t("attn_output.bias"), b_up=t("ffn_up.bias"), b_down=t("ffn_down.bias"))


def hf_tensors(c: Config) -> dict[str, tuple[int, ...]]:
    """Under h.{i}.; transformers' Conv1D keeps its matrices (in, out)."""
    q, _, d, ff = sizes(c)
    return {"ln_1.weight": (d,), "ln_1.bias": (d,), "ln_2.weight": (d,), "ln_2.bias": (d,),
            "attn.c_attn.weight": (d, 3 * q), "attn.c_attn.bias": (3 * q,), "attn.c_proj.weight": (q, d),
            "attn.c_proj.bias": (d,), "mlp.c_fc.weight": (d, ff), "mlp.c_fc.bias": (ff,),
            "mlp.c_proj.weight": (ff, d), "mlp.c_proj.bias": (d,)}


def hf_block(g, norm, c: Config) -> Block:
    w, b = np.split(g("attn.c_attn.weight").T, 3), np.split(g("attn.c_attn.bias"), 3)   # Conv1D: (in, out)
    return Block(norm("ln_1"), w[0], w[1], w[2], g("attn.c_proj.weight").T, norm("ln_2"), g("mlp.c_fc.weight").T,
                 g("mlp.c_proj.weight").T, b_q=b[0], b_k=b[1], b_v=b[2], b_o=g("attn.c_proj.bias"),
                 b_up=g("mlp.c_fc.bias"), b_down=g("mlp.c_proj.bias"))
