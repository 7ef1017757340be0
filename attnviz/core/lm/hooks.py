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

import numpy as np

from .blocks import Kept, attention_of, changed, joined
from .weights import Config

LAYER_POINTS = ("resid_pre", "ln1", "attn.q", "attn.k", "attn.v", "attn.scores", "attn.pattern", "attn.z",
                "attn.out", "resid_mid", "mlp.out", "resid_post")


def hook_names(c: Config) -> list[str]:
    """Every hook point of a model of config `c`, in the order the pass reaches them."""
    return ["embed", *(f"blocks.{layer}.{point}" for layer in range(c.n_layers) for point in LAYER_POINTS),
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
    """What one run keeps: `wants(layer, point)` before working a point out, `put` it."""

    def __init__(self, c: Config, names: frozenset[str]):
        self.names = names
        self.cache: dict[str, np.ndarray] = {}
        self.layers = {int(name.split(".")[1]) for name in names if name.startswith("blocks.")}
        if {"ln_final", "logits"} & names:  # the last layer's output at every position, not the last alone
            self.layers.add(c.n_layers - 1)

    def wants(self, layer: int | None, point: str) -> bool:
        return (point if layer is None else f"blocks.{layer}.{point}") in self.names

    def put(self, layer: int | None, point: str, make) -> None:
        """Keep `make()` (a function, so that what is not asked for is not worked out) as float32."""
        if self.wants(layer, point):
            name = point if layer is None else f"blocks.{layer}.{point}"
            self.cache[name] = np.array(make(), dtype=np.float32)

    def first_layer(self, n_layers: int) -> int:
        """The lowest layer the pass must compute itself to keep what is asked (n_layers: none)."""
        return 0 if "embed" in self.names else min(self.layers, default=n_layers)

    def final(self, model, x: np.ndarray) -> None:
        """ln_final and logits from the stream after the last layer, x [n, d]."""
        if self.wants(None, "ln_final") or self.wants(None, "logits"):
            normed = model.out_norm(x, model.config.eps)
            self.put(None, "ln_final", lambda: normed)
            self.put(None, "logits", lambda: normed @ model.output.T)


def traced_pass(model, layer: int, x: np.ndarray, changes: dict, family, trace: Trace):
    """One block as its family's block works it (blocks.layer_pass), every position in one piece, what
    `trace` asks for kept on the way. -> (x' [n, d], q, k, v: the model's own, as layer_pass gives them)."""
    c, b = model.config, model.blocks[layer]
    trace.put(layer, "resid_pre", lambda: x)
    trace.put(layer, "ln1", lambda: b.attn_norm(x, c.eps))
    q, k, v = family.qkv(b, c, layer, x, 0)
    kept = Kept() if trace.wants(layer, "attn.pattern") else None
    y = attention_of(q, k, v, c, layer, changes, kept)
    _keep_qkv(trace, layer, c, changed(q, k, v, changes, c.n_heads))
    if kept is not None:
        trace.put(layer, "attn.pattern", lambda: kept.weights)
    trace.put(layer, "attn.z", lambda: y)
    a = family.attention_out(b, c, joined(y))
    trace.put(layer, "attn.out", lambda: a)
    mid = a + x
    trace.put(layer, "resid_mid", lambda: mid)
    m = family.mlp(b, c, mid)
    trace.put(layer, "mlp.out", lambda: m)
    out = mid + m
    trace.put(layer, "resid_post", lambda: out)
    return out, q, k, v


def _keep_qkv(trace: Trace, layer: int, c: Config, qkv) -> None:
    """q, k and v as attention used them, once per head (a K/V group's repeated), and the scores q kᵀ / √d_head."""
    q, k, v = qkv
    k, v = (np.repeat(m, c.n_heads // len(m), axis=0) for m in (k, v))
    for point, m in (("attn.q", q), ("attn.k", k), ("attn.v", v)):
        trace.put(layer, point, lambda m=m: m)
    trace.put(layer, "attn.scores", lambda: q @ k.swapaxes(-1, -2) / np.float32(np.sqrt(c.d_head)))
