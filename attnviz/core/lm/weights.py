"""What a loaded model holds: its sizes (Config), each block's weights (Block), the model (Model).

Every family fills the same records; what a family lacks stays None (GPT-2 has no gate, Llama
no biases, only Gemma 3 norms the attention's and the feed-forward's outputs). Matrices are in
numpy's order (out, in): a layer computes x @ Wᵀ + b, as PyTorch's Linear does.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

FAMILIES = ("llama", "qwen2", "qwen3", "gemma3", "gpt2")


@dataclass(frozen=True)
class Config:
    family: str              # one of FAMILIES: which forward pass runs it
    n_layers: int
    d: int                   # d_model
    d_ff: int
    n_heads: int
    n_kv_heads: int
    d_head: int
    eps: float               # the norms' ε
    context: int             # the longest sequence the model was trained for
    name: str                # what people call it (the file's name)
    rope_base: float = 10000.0
    rope_base_local: float | None = None  # Gemma 3's sliding-window layers turn with their own base
    rope_halves: bool = False  # dimensions (i, i + d_head/2) turn together (HF's layout); else (2i, 2i + 1)
    rope_factors: tuple[float, ...] | None = None  # Llama 3: each pair's frequency divided by its factor
    window: int | None = None  # a sliding-window layer's width, in tokens
    sliding: tuple[bool, ...] = ()  # per layer: True for a sliding-window layer
    q_scale: float = 1.0     # q multiplied by this before attention's ÷√d_head (Gemma's query_pre_attn_scalar)
    embed_scale: float = 1.0  # the embedding multiplied by this (Gemma: √d_model)
    quant: str = ""          # the weights' storage, as a file names it (Q4_K_M, F16, …)

    def is_sliding(self, layer: int) -> bool:
        return bool(self.sliding) and self.sliding[layer]

    def base(self, layer: int) -> float:
        """The RoPE base of `layer`: the local one for a sliding-window layer, when the model has one."""
        return self.rope_base_local if self.is_sliding(layer) and self.rope_base_local else self.rope_base


@dataclass(eq=False)
class Norm:
    """RMSNorm (x / √(mean x² + ε) · g) or, with a bias, LayerNorm ((x − mean) / √(var + ε) · g + b)."""

    gain: np.ndarray            # [d]
    bias: np.ndarray | None = None

    def __call__(self, x: np.ndarray, eps: float) -> np.ndarray:
        if self.bias is None:
            return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * self.gain
        centred = x - x.mean(axis=-1, keepdims=True)
        return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps) * self.gain + self.bias


@dataclass(eq=False)
class Block:
    attn_norm: Norm
    w_q: np.ndarray          # [n_heads · d_head, d]
    w_k: np.ndarray          # [n_kv_heads · d_head, d]
    w_v: np.ndarray          # [n_kv_heads · d_head, d]
    w_o: np.ndarray          # [d, n_heads · d_head]
    ffn_norm: Norm
    w_up: np.ndarray         # [d_ff, d]
    w_down: np.ndarray       # [d, d_ff]
    w_gate: np.ndarray | None = None      # [d_ff, d]: the gated families (SwiGLU, GeGLU)
    b_q: np.ndarray | None = None         # Qwen 2, GPT-2
    b_k: np.ndarray | None = None
    b_v: np.ndarray | None = None
    b_o: np.ndarray | None = None         # GPT-2
    b_up: np.ndarray | None = None
    b_down: np.ndarray | None = None
    q_norm: Norm | None = None            # QK-norm over each head's d_head (Qwen 3, Gemma 3)
    k_norm: Norm | None = None
    post_attn_norm: Norm | None = None    # Gemma 3: the attention's output normed before the residual
    post_ffn_norm: Norm | None = None


@dataclass(eq=False)
class Model:
    config: Config
    embedding: np.ndarray    # [vocab, d]
    blocks: list[Block]
    out_norm: Norm
    output: np.ndarray       # [vocab, d] (the embedding itself when tied)
    tokenizer: object        # lm.tokens.Tokenizer
    path: Path
    positions: np.ndarray | None = None  # [context, d]: GPT-2's learned positions
    licence: str = ""

    @property
    def vocabulary(self) -> list[str]:
        return self.tokenizer.pieces

    def weight_bytes(self) -> int:
        """The bytes of the distinct arrays the model keeps (a view counts as the array it views;
        a tied output is the embedding itself)."""
        bases = {}
        parts = [self.embedding, self.output, self.positions, self.out_norm.gain, self.out_norm.bias]
        for block in self.blocks:
            for part in vars(block).values():
                parts += [part.gain, part.bias] if isinstance(part, Norm) else [part]
        for a in parts:
            while isinstance(a, np.ndarray) and isinstance(a.base, np.ndarray):
                a = a.base
            if isinstance(a, np.ndarray):
                bases[id(a)] = a.nbytes
        return sum(bases.values())


def linear(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """x Wᵀ + b: [n, in] @ [in, out] -> [n, out]."""
    y = x @ w.T
    return y if b is None else y + b
