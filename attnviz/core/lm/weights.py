"""What a loaded model holds: its sizes (Config), each block's weights (Block), the model (Model).

Every family fills the same records; what a family lacks stays None (GPT-2 has no gate, Llama
no biases, only Gemma 3 norms the attention's and the feed-forward's outputs). A Block is given
each matrix as the files store it, (out, in), and keeps it as (in, out), so a layer computes
x W + b, the seeds' X W_q: BLAS multiplies that order measured faster (10 % at 100 tokens, 50 % at
10, on this machine's OpenBLAS).
"""
from __future__ import annotations

import operator
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar, overload

import numpy as np

from ..scenario import ScenarioError

T = TypeVar("T")


class ModelError(ScenarioError):
    """A model that cannot be loaded or run; the message says why."""


ModelError.__module__ = "attnviz.core.lm"  # as a traceback names it: where it is imported from


class Vocabulary(Protocol):
    """What the rest asks of a model's tokenizer (lm.tokens.Tokenizer is the one there is; declared here so
    that the weights, numpy alone, need not import the tokenizers library's side)."""

    pieces: list[str]    # each id's piece, as the vocabulary spells it
    bos: int | None      # put first when the model expects it
    before: tuple[int, ...]  # the special tokens put before every text (its BOS) ...
    after: tuple[int, ...]   # ... and after it (an EOS, where the file asks for one)
    longest: int         # the most characters one token stands for

    def encode(self, text: str, bos: bool = True, cancelled: Any = None, most: int | None = None) -> list: ...

    def canonical(self, text: str) -> str: ...

    def normalized_length(self, text: str) -> int: ...

    def chat(self, text: str, cancelled: Any = None) -> str: ...

    def piece_bytes(self, token_id: int) -> bytes | None: ...


class Stored(Protocol):
    """A [rows, cols] matrix left in its file (core.gguf.StoredMatrix): its rows read when asked for."""

    shape: tuple[int, ...]
    nbytes: int

    def __len__(self) -> int: ...

    def __getitem__(self, ids) -> np.ndarray: ...

    def times_transposed(self, x: np.ndarray) -> np.ndarray: ...

    def fill(self, out: np.ndarray, lo: int = 0) -> None: ...


@dataclass(frozen=True)
class Config:
    family: str              # a name in families.FAMILIES: which forward pass runs it
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


class Overflow(ArithmeticError):
    """A norm's Σ x² past float32's range (finite weights whose products grow too large: a damaged file)."""


@dataclass(eq=False)
class Norm:
    """RMSNorm (x / √(mean x² + ε) · g) or, with a bias, LayerNorm ((x − mean) / √(var + ε) · g + b)."""

    gain: np.ndarray            # [d]
    bias: np.ndarray | None = None

    def __call__(self, x: np.ndarray, eps: float) -> np.ndarray:
        centred = x if self.bias is None else x - x.mean(axis=-1, keepdims=True)
        squares = np.einsum("...i,...i->...", centred, centred)[..., None]  # Σ x², no x² array made
        if not np.isfinite(squares).all():  # past float32's range: the norm would make the stream 0, unseen
            raise Overflow()
        out = centred * (1.0 / np.sqrt(squares / np.float32(x.shape[-1]) + np.float32(eps))).astype(x.dtype)
        out *= self.gain
        if self.bias is not None:
            out += self.bias
        return out


@dataclass(eq=False)
class Block:
    """One block's weights; the shapes are as kept, (in, out) (given as (out, in): arrays, or Stored matrices
    dequantised a tile at a time into their place)."""

    attn_norm: Norm
    w_q: np.ndarray          # [d, n_heads · d_head]
    w_k: np.ndarray          # [d, n_kv_heads · d_head]
    w_v: np.ndarray          # [d, n_kv_heads · d_head]
    w_o: np.ndarray          # [n_heads · d_head, d]
    ffn_norm: Norm
    w_up: np.ndarray         # [d, d_ff]
    w_down: np.ndarray       # [d_ff, d]
    w_gate: np.ndarray | None = None      # [d, d_ff]: the gated families (SwiGLU, GeGLU)
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
    # W_q, W_k, W_v side by side (and W_gate beside W_up) in one matrix each, the fields above
    # views of them: one product where there were three (or two), larger and so faster
    w_qkv: np.ndarray = field(init=False, repr=False)   # [d, (n_heads + 2 n_kv_heads) · d_head]
    b_qkv: np.ndarray | None = field(init=False, repr=False)
    w_in: np.ndarray | None = field(init=False, repr=False)  # [d, 2 d_ff]: the gated families

    def __post_init__(self):
        # The matrices stay as given, (out, in), and the fields are their transposed views, which numpy hands to
        # BLAS as they are. Turning them over to (in, out) made the products 4–8 % faster (bench/shapes.py's 1B
        # matrices, 128 rows) but took more than half of a fast load (7 s of 15 s on a 1B Q4_K file), and a
        # compact model builds its blocks at every pass. Each matrix is written where it is kept, a tile at a time.
        cuts = [len(self.w_q), len(self.w_q) + len(self.w_k)]
        self.w_qkv = _gathered((self.w_q, self.w_k, self.w_v))
        self.w_q, self.w_k, self.w_v = np.split(self.w_qkv, cuts, axis=1)
        self.b_qkv = None
        if all(b is not None for b in (self.b_q, self.b_k, self.b_v)):
            self.b_qkv = np.concatenate([self.b_q, self.b_k, self.b_v])
            self.b_q, self.b_k, self.b_v = np.split(self.b_qkv, cuts)
        self.w_o, self.w_down = _gathered((self.w_o,)), _gathered((self.w_down,))
        self.w_in = None
        if self.w_gate is None:
            self.w_up = _gathered((self.w_up,))
        else:
            self.w_in = _gathered((self.w_gate, self.w_up))
            self.w_gate, self.w_up = np.split(self.w_in, 2, axis=1)


def _gathered(ms: Sequence) -> np.ndarray:
    """Matrices [rows_i, cols] (arrays, or Stored ones read a tile at a time) one under the other, kept
    [Σ rows_i, cols] and seen as the (in, out) matrix through its transposed view. One array is not copied."""
    if len(ms) == 1 and isinstance(ms[0], np.ndarray):
        return ms[0].T
    cols, total = ms[0].shape[1], sum(len(m) for m in ms)
    out = np.empty((total, cols), np.result_type(*(getattr(m, "dtype", np.float32) for m in ms)))
    at = 0
    for m in ms:
        if isinstance(m, np.ndarray):
            out[at:at + len(m)] = m
        else:
            m.fill(out[at:at + len(m)])
        at += len(m)
    return out.T


class LazyBlocks(Sequence[Block]):
    """A compact model's blocks: each built (dequantised from the mapped file) when a pass reaches it, and
    the highest layers built kept while together they take at most `keep` bytes. A pass goes upwards, so
    the layers below the one being built are not needed again in it, and an edit in the last layers (the
    usual place to look) reruns only layers that are kept: the next pass builds none of them again."""

    def __init__(self, build: Callable[[int], Block], count: int, keep: int):
        self._build, self._count, self.keep = build, count, keep
        self._kept: dict[int, Block] = {}
        self._lock = threading.Lock()  # a pass's threads share one block: it is built once
        self.built = 0                  # blocks built so far

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Block: ...

    @overload
    def __getitem__(self, index: slice) -> list[Block]: ...

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        i = operator.index(index)
        i += self._count if i < 0 else 0
        if not 0 <= i < self._count:
            raise IndexError(f"layer {index} of {self._count}")
        with self._lock:
            block = self._kept.get(i)
            if block is None:
                block = self._kept[i] = self._build(i)
                self.built += 1
                while self._kept and distinct_bytes(self.kept()) > self.keep:
                    del self._kept[min(self._kept)]  # the lowest first (this one, when it is the lowest)
        return block

    def kept(self) -> list[Block]:
        """The blocks built and kept now, lowest layer first."""
        return [self._kept[i] for i in sorted(self._kept)]


@dataclass(eq=False)
class Model:
    config: Config
    embedding: np.ndarray | Stored    # [vocab, d]
    blocks: Sequence[Block]           # a list, or LazyBlocks for a model kept compact
    out_norm: Norm
    output: np.ndarray | Stored       # [vocab, d] (the embedding itself when tied)
    tokenizer: Vocabulary
    path: Path
    positions: np.ndarray | None = None  # [context, d]: GPT-2's learned positions
    licence: str = ""
    stamp: tuple | None = None  # its file's (catalog.stamps) as it was loaded: a file replaced since is not it

    @property
    def vocabulary(self) -> list[str]:
        return self.tokenizer.pieces

    @property
    def compact(self) -> bool:
        """Its weights stay in the file, a layer dequantised when a pass reaches it."""
        return isinstance(self.blocks, LazyBlocks)

    def unembed(self, x: np.ndarray) -> np.ndarray:
        """x W_outᵀ: [..., d] -> [..., vocab], the logits of the normed stream x."""
        return x @ self.output.T if isinstance(self.output, np.ndarray) else self.output.times_transposed(x)

    def weight_bytes(self) -> int:
        """The bytes of the distinct arrays the model holds in memory (a view counts as the array it views;
        a tied output is the embedding itself; a compact model's blocks as far as they are kept, and nothing
        of what stays in its file)."""
        blocks = self.blocks.kept() if isinstance(self.blocks, LazyBlocks) else self.blocks
        return distinct_bytes(blocks, [self.embedding, self.output, self.positions, self.out_norm.gain,
                                       self.out_norm.bias])


def distinct_bytes(blocks, more=()) -> int:
    """The bytes of the distinct arrays in `blocks` and `more` (a view counts as the array it views)."""
    bases = {}
    parts = list(more)
    for block in blocks:
        for part in vars(block).values():
            parts += [part.gain, part.bias] if isinstance(part, Norm) else [part]
    for a in parts:
        while isinstance(a, np.ndarray) and isinstance(a.base, np.ndarray):
            a = a.base
        if isinstance(a, np.ndarray):
            bases[id(a)] = a.nbytes
    return sum(bases.values())


def present(value: T | None, what: str) -> T:
    """A weight the family always has (a gated block's W_gate, Gemma's post-norms), None only in another."""
    if value is None:
        raise ValueError(f"this block has no {what}")
    return value


def linear(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """x W + b: [..., n, in] @ [in, out] -> [..., n, out], in one product (numpy's matmul would
    read W once for each of the leading rows' matrices: several texts at once share one read)."""
    y = (x.reshape(-1, x.shape[-1]) @ w).reshape(*x.shape[:-1], w.shape[-1]) if x.ndim > 2 else x @ w
    if b is not None:
        y += b
    return y
