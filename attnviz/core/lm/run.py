"""A model run forward over token ids, layer by layer, by its family's block; every layer's q, k,
v and input kept, so AttnViz can show any head. A changed head (new q, k or v, or switched off)
reruns only the layers from its own on.

The weights are float32 and the big products run in float32; attention itself runs in the
core in float64.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..scenario import Change
from . import gemma3, gpt2, llama
from .weights import Model

# family -> (its embedding, its block)
PASSES = {"llama": (llama.embed, llama.block), "qwen2": (llama.embed, llama.block),
          "qwen3": (llama.embed, llama.block), "gemma3": (llama.embed, gemma3.block),
          "gpt2": (gpt2.embed, gpt2.block)}


class Cancelled(Exception):
    """Long work stopped at a checkpoint because the user asked (or the window closed)."""


@dataclass(frozen=True, eq=False)
class Run:
    """One forward pass: every layer's input, q, k, v; the next-token distribution."""

    ids: tuple[int, ...]
    changes: tuple                 # ((layer, head, Change), ...) sorted: what this run applied
    streams: tuple                 # [n, d] float32: the residual stream entering each layer
    q: tuple                       # [n_heads, n, d_head] float64 per layer, after RoPE and changes
    k: tuple                       # [n_heads, n, d_head] (K/V groups repeated per head)
    v: tuple
    probs: np.ndarray              # [vocab] float64: the next token's distribution
    logits: np.ndarray             # [vocab] float32
    computed: tuple = field(default=())  # the layers this run computed itself (the rest were reused)


def run(model: Model, ids, changes=(), after: Run | None = None, cancelled=None) -> Run:
    """The forward pass over `ids` with `changes` applied. With `after` (a run of the same ids),
    layers below the lowest one whose changes differ are taken from it, not computed again.
    `cancelled()`, when given, is asked before each layer: True stops with Cancelled."""
    ids = tuple(int(i) for i in ids)
    changes = tuple(sorted(changes, key=lambda c: (c[0], c[1])))
    c = model.config
    embed, block = PASSES[c.family]
    by_layer = changes_by_layer(changes)
    start = _first_difference(after, ids, by_layer, c.n_layers) if after is not None else 0
    if start == c.n_layers:  # the same ids and changes: nothing to compute again
        return after
    streams, qs, ks, vs = (list(getattr(after, f)[:start]) if start else [] for f in ("streams", "q", "k", "v"))
    x = after.streams[start].astype(np.float32) if start else embed(model, ids).astype(np.float32)  # [n, d]
    for index in range(start, c.n_layers):
        if cancelled is not None and cancelled():
            raise Cancelled()
        streams.append(x)
        x, q, k, v = block(model, index, x, by_layer.get(index, {}))
        x = x.astype(np.float32, copy=False)
        qs.append(q)
        ks.append(k)
        vs.append(v)
    last = model.out_norm(x[-1:], c.eps)                       # [1, d]
    logits = (last @ model.output.T)[0].astype(np.float32)     # [1, d] @ [d, vocab] -> [vocab]
    z = logits.astype(np.float64)
    probs = np.exp(z - z.max())
    return Run(ids, changes, tuple(streams), tuple(qs), tuple(ks), tuple(vs), probs / probs.sum(), logits,
               tuple(range(start, c.n_layers)))


def changes_by_layer(changes) -> dict[int, dict[int, Change]]:
    out: dict[int, dict[int, Change]] = {}
    for layer, head, change in changes:
        out.setdefault(layer, {})[head] = change
    return out


def _first_difference(after: Run, ids, by_layer, n_layers: int) -> int:
    if after.ids != ids:
        return 0
    before = changes_by_layer(after.changes)
    for layer in range(n_layers):
        if not _same_changes(before.get(layer, {}), by_layer.get(layer, {})):
            return layer
    return n_layers


def _same_changes(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    return all(x.off == y.off and all(_same(getattr(x, m), getattr(y, m)) for m in "qkv")
               for x, y in ((a[h], b[h]) for h in a))


def _same(a, b) -> bool:
    return a is b or (a is not None and b is not None and a.shape == b.shape and np.array_equal(a, b))


def same_changes(a, b) -> bool:
    """Two runs' changes are the same edits, layer by layer."""
    x, y = changes_by_layer(a), changes_by_layer(b)
    return all(_same_changes(x.get(layer, {}), y.get(layer, {})) for layer in set(x) | set(y))
