"""Named hook points: every activation of a model's pass, by one name each, kept when a run asks.

    embed                      [n, d]            the embedding (GPT-2: with its positions), what layer 0 reads
    blocks.L.resid_pre         [n, d]            the residual stream entering layer L
    blocks.L.ln1               [n, d]            it normed, as q, k and v are projected from
    blocks.L.attn.q            [H, n, d_head]    each head's queries as attention used them: after QK-norm, RoPE
    blocks.L.attn.k, .attn.v   [H, n, d_head]    each head's keys and values (a K/V group's, once per head reading it)
    blocks.L.attn.scores       [H, n, n]         q kᵀ / √d_head, before the mask and the softmax
    blocks.L.attn.pattern      [H, n, n]         the attention weights (0 where the mask hides a key)
    blocks.L.attn.z            [H, n, d_head]    each head's weighted sum of v (0 for a head switched off)
    blocks.L.attn.out          [n, d]            attention's write to the stream: z through W_o (Gemma 3: normed)
    blocks.L.resid_mid         [n, d]            resid_pre + attn.out
    blocks.L.mlp.out           [n, d]            the feed-forward's write (Gemma 3: normed)
    blocks.L.resid_post        [n, d]            resid_mid + mlp.out, what layer L + 1 reads
    ln_final                   [n, d]            the last stream through the final norm
    logits                     [n, vocab]        every position's next-token logits

Each is what the pass computed with the run's edits and switched-off heads in place (float32), at every
position. The table mapping them to TransformerLens's names is in docs/API.md.
"""
from __future__ import annotations

import copy

import numpy as np

from .blocks import Kept, attention_of, changed, head_changes, joined, window_of
from .weights import Config

LAYER_POINTS = ("resid_pre", "ln1", "attn.q", "attn.k", "attn.v", "attn.scores", "attn.pattern", "attn.z",
                "attn.out", "resid_mid", "mlp.out", "resid_post")


def hook_names(c: Config) -> list[str]:
    """Every hook point of a model of config `c`, in the order the pass reaches them."""
    return hook_names_of(c.n_layers)


def hook_names_of(n_layers: int) -> list[str]:
    """Every hook point of a model of n_layers (its layers' are the same in every family)."""
    return ["embed", *(f"blocks.{layer}.{point}" for layer in range(n_layers) for point in LAYER_POINTS),
            "ln_final", "logits"]


def shape(c: Config, name: str, n: int, vocab: int) -> tuple[int, ...]:
    """The shape of hook point `name`'s array over n tokens."""
    point = name.split(".", 2)[-1] if name.startswith("blocks.") else name
    if point == "logits":
        return (n, vocab)
    if point in ("attn.scores", "attn.pattern"):
        return (c.n_heads, n, n)
    if point in ("attn.q", "attn.k", "attn.v", "attn.z"):
        return (c.n_heads, n, c.d_head)
    return (n, c.d)


class Trace:
    """What one run keeps (`names`) and writes (`writes`: name -> fn(array, cache) -> array): `at` each
    point as the pass reaches it, `put` a point only read (worked out only when kept)."""

    def __init__(self, c: Config, names: frozenset[str], writes: dict | None = None):
        self.names, self.writes = names, writes or {}
        self.cache: dict[str, np.ndarray] = {}
        touched = set(names) | set(self.writes)
        self.layers = {int(name.split(".")[1]) for name in touched if name.startswith("blocks.")}
        if {"ln_final", "logits"} & touched:  # the last layer's output at every position, not the last alone
            self.layers.add(c.n_layers - 1)
        self.first = 0 if "embed" in touched else min(self.layers, default=c.n_layers)

    def wants(self, layer: int | None, point: str) -> bool:
        return _name(layer, point) in self.names

    def writes_at(self, layer: int | None, *points: str) -> bool:
        return any(_name(layer, point) in self.writes for point in points)

    def put(self, layer: int | None, point: str, make, fresh: bool = False) -> None:
        """Keep `make()` (a function, so that what is not asked for is not worked out) as float32: a copy,
        unless `fresh` (an array made for the keeping, such as the scores: no second [H, n, n] at once)."""
        if self.wants(layer, point):
            value = make()
            self.cache[_name(layer, point)] = np.asarray(value, dtype=np.float32) if fresh else \
                np.array(value, dtype=np.float32)

    def at(self, layer: int | None, point: str, value: np.ndarray) -> np.ndarray:
        """`value` as the point's hook writes it (itself without one), kept when asked."""
        name = _name(layer, point)
        if name in self.writes:
            value = self.writes[name](value, self.cache)
        self.put(layer, point, lambda: value)
        return value

    def final(self, model, x: np.ndarray) -> np.ndarray | None:
        """ln_final and logits [n, vocab] from the stream after the last layer, x [n, d], when kept or
        written (None when neither is)."""
        if not (self.names | set(self.writes)) & {"ln_final", "logits"}:
            return None
        normed = self.at(None, "ln_final", model.out_norm(x, model.config.eps))
        return self.at(None, "logits", model.unembed(normed))


def _name(layer: int | None, point: str) -> str:
    return point if layer is None else f"blocks.{layer}.{point}"


def traced_pass(model, layer: int, x: np.ndarray, changes: dict, family, trace: Trace):
    """One block as its family's block works it (blocks.layer_pass), every position in one piece, each
    point kept or written as `trace` asks. -> (x' [n, d], q, k, v: the model's own, as layer_pass gives them)."""
    c, b = model.config, model.blocks[layer]
    x = trace.at(layer, "resid_pre", x)
    if trace.writes_at(layer, "ln1"):  # the family's projection norms what it is given: give it the written norm
        h = trace.at(layer, "ln1", b.attn_norm(x, c.eps))
        given = copy.copy(b)  # not dataclasses.replace: a Block's __post_init__ would lay its weights out again
        given.attn_norm = lambda _, eps: h
        q, k, v = family.qkv(given, c, layer, h, 0)
    else:
        trace.put(layer, "ln1", lambda: b.attn_norm(x, c.eps), fresh=True)
        q, k, v = family.qkv(b, c, layer, x, 0)
    if trace.writes_at(layer, "attn.q", "attn.k", "attn.v", "attn.scores", "attn.pattern"):
        y = _attention_written(trace, layer, c, changed(q, k, v, changes, c.n_heads), changes)
    else:
        kept = Kept() if trace.wants(layer, "attn.pattern") else None
        y = attention_of(q, k, v, c, layer, changes, kept)
        _keep_qkv(trace, layer, c, changed(q, k, v, changes, c.n_heads))
        if kept is not None:
            trace.put(layer, "attn.pattern", lambda: kept.weights)
    y = trace.at(layer, "attn.z", y)
    mid = trace.at(layer, "resid_mid", trace.at(layer, "attn.out", family.attention_out(b, c, joined(y))) + x)
    out = trace.at(layer, "resid_post", mid + trace.at(layer, "mlp.out", family.mlp(b, c, mid)))
    return out, q, k, v


def _per_head(c: Config, qkv) -> tuple:
    """q, k and v once per query head (a K/V group's repeated)."""
    q, k, v = qkv
    return (q, *(np.repeat(m, c.n_heads // len(m), axis=0) for m in (k, v)))


def _keep_qkv(trace: Trace, layer: int, c: Config, qkv) -> None:
    """q, k and v as attention used them, once per head, and the scores q kᵀ / √d_head."""
    q, k, v = _per_head(c, qkv)
    for point, m in (("attn.q", q), ("attn.k", k), ("attn.v", v)):
        trace.put(layer, point, lambda m=m: m)
    trace.put(layer, "attn.scores", lambda: q @ k.swapaxes(-1, -2) / np.float32(np.sqrt(c.d_head)), fresh=True)


def _attention_written(trace: Trace, layer: int, c: Config, qkv, changes: dict) -> np.ndarray:
    """Attention worked out step by step, so that q, k, v, the scores or the weights can be written:
    softmax(q kᵀ / √d_head + M) v per head, then the run's switched-off heads and given outputs."""
    q, k, v = (trace.at(layer, point, m) for point, m in zip(("attn.q", "attn.k", "attn.v"), _per_head(c, qkv)))
    scores = trace.at(layer, "attn.scores", q @ k.swapaxes(-1, -2) / np.float32(np.sqrt(c.d_head)))
    n = scores.shape[-1]
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    window = window_of(c, layer)
    hidden = (j > i) | ((j <= i - window) if window else False)
    shifted = np.where(hidden, -np.inf, scores.astype(np.float64))
    weights = np.exp(shifted - shifted.max(axis=-1, keepdims=True))
    pattern = trace.at(layer, "attn.pattern", (weights / weights.sum(axis=-1, keepdims=True)).astype(np.float32))
    return head_changes(pattern @ v, changes)
