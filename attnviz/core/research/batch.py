"""Many variants of one run, rerun together from one layer to the next-token logits: the sweep's
and the patches' hundreds of reruns. A short prompt's rerun is all weight reading (the products of
10 rows are over before W is in the cache, and the unembedding alone is 113 MB in SmolLM2), so
the variants go through each matrix in one product: [B · n, d] @ W reads W once for all B.

A variant differs from its base run at `layer` only: the heads there given an output or switched
off (a Change), or the residual stream entering it. Above it, every variant keeps the base's changes.
"""
from __future__ import annotations

import numpy as np

from ..blas import model_threads
from ..lm.blocks import attention_of, joined
from ..lm.families import FAMILIES
from ..lm.run import Run, changes_by_layer
from ..lm.weights import Model
from .parts import logits_of

MAX_ROWS = 4096   # B · n rows at once: [4096, 1536 · 2] float32 activations are 50 MB


def rerun_last(model: Model, base: Run | list[Run], layer: int, variants) -> np.ndarray:
    """[B, vocab] float64: the last position's logits of each variant (changes: {head: Change}
    at `layer`, stream: [n, d] or None for the base's), rerun from `layer`. `base` is one run, or one per
    variant (a dataset's pairs rerun together: prompts as long in tokens). `variants`: a list, or anything
    whose slices are lists (patch.Variants, which makes each when its slice is asked for)."""
    bases = base if isinstance(base, list) else [base] * len(variants)
    n = len(bases[0].ids)
    per = max(1, MAX_ROWS // n)
    with model_threads():  # B · n rows: products large enough for every core
        return np.concatenate([_rerun(model, bases[i:i + per], layer, variants[i:i + per])
                               for i in range(0, len(variants), per)])


def _rerun(model: Model, bases: list[Run], layer: int, variants: list) -> np.ndarray:
    c, family = model.config, FAMILIES[model.config.family]
    above = {id(b): changes_by_layer(b.changes) for b in bases}  # a pair's variants share its run
    kept_of = [above[id(b)] for b in bases]
    x = np.stack([b.streams[layer] if stream is None else stream.astype(np.float32)
                  for b, (_, stream) in zip(bases, variants)])
    for index in range(layer, c.n_layers):
        b = model.blocks[index]
        if index == layer and all(stream is None for _, stream in variants):   # q, k, v as the bases'
            q, k, v = _bases_qkv(bases, index)
        else:
            q, k, v = family.qkv(b, c, index, x)                             # [B, H, n, d_head] ...
        own = [{**kept.get(index, {}), **changes} if index == layer else kept.get(index, {})
               for kept, (changes, _) in zip(kept_of, variants)]
        first = x.shape[1] - 1 if index == c.n_layers - 1 else 0   # the last layer: the last token's row alone
        y = np.stack([joined(attention_of(q[i], k[i], v[i], c, index, own[i], first=first)[:, first:])
                      for i in range(len(variants))])
        mid = x[:, first:] + family.attention_out(b, c, y)                   # [B, n, d]
        x = (mid + family.mlp(b, c, mid)).astype(np.float32, copy=False)
    return logits_of(model, x[:, -1])


def _bases_qkv(bases: list[Run], index: int) -> tuple:
    """q, k, v [B, H, n, d_head] of each variant's base at layer `index`: one base's broadcast, not copied."""
    if all(b is bases[0] for b in bases):
        return tuple(np.broadcast_to(m[index], (len(bases), *m[index].shape))
                     for m in (bases[0].q, bases[0].k, bases[0].v))
    return tuple(np.stack([getattr(b, m)[index] for b in bases]) for m in ("q", "k", "v"))
