"""From a Scenario to the numbers every view shows: one AttentionTrace per head."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import AttentionTrace, MultiHeadTrace, attention, multi_head_attention
from .scenario import Scenario, same_shapes


@dataclass(frozen=True, eq=False)
class Result:
    heads: tuple[AttentionTrace, ...]  # one per head, each [n, n] / [n, d_v]
    layer: MultiHeadTrace | None       # the whole layer, in projection mode

    def weights(self) -> list[np.ndarray]:
        return [trace.weights for trace in self.heads]


def compute(s: Scenario) -> Result:
    """Run the core on every head with the scenario's settings."""
    options = dict(causal=s.settings.causal, scale=s.settings.scale,
                   temperature=s.settings.temperature)
    layer = _layer(s, options) if s.projection is not None else None
    if layer is not None:
        return Result(_unstack(layer.heads), layer)
    if same_shapes(s):
        # One batched call is much faster than a Python loop for 12 heads.
        stacked = [np.stack([h.matrix(m) for h in s.heads]) for m in "qkv"]  # [h, n, d]
        return Result(_unstack(attention(*stacked, **options)), None)
    return Result(tuple(attention(h.q, h.k, h.v, **options) for h in s.heads), None)


def _layer(s: Scenario, options) -> MultiHeadTrace:
    p = s.projection
    return multi_head_attention(p.x, p.w_q, p.w_k, p.w_v, p.w_o, p.n_heads,
                                n_kv_heads=p.n_kv_heads, residual=p.residual, **options)


def _unstack(trace: AttentionTrace) -> tuple[AttentionTrace, ...]:
    """[h, ...] arrays -> h traces of views (no copies)."""
    fields = (trace.scores, trace.scaled, trace.masked, trace.weights, trace.output)
    return tuple(AttentionTrace(*(f[i] for f in fields)) for i in range(trace.weights.shape[0]))
