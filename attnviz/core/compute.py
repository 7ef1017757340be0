"""From a Scenario to the numbers every view shows: one AttentionTrace per head."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .attention import (
    AttentionTrace,
    MultiHeadTrace,
    ScoreRows,
    attention,
    lean_trace,
    lean_weights,
    multi_head_attention,
)
from .blas import one_blas_thread
from .scenario import Projection, Scenario, same_shapes

# heads × tokens² beyond which a scenario's heads are computed lean (attention.lean_weights): 9 heads
# of 680 tokens; below, every intermediate is kept, as the small examples' views have always had them
LEAN_CELLS = 2 ** 22


@dataclass(frozen=True, eq=False)
class Result:
    heads: tuple[AttentionTrace, ...]  # one per head, each [n, n] / [n, d_v]
    layer: MultiHeadTrace | None       # the whole layer, in projection mode

    def weights(self) -> list[np.ndarray]:
        return [trace.weights for trace in self.heads]


def compute(s: Scenario, previous: tuple[Scenario, Result] | None = None) -> Result:
    """Run the core on every head with the scenario's settings.

    With `previous` (the last scenario and its result), heads whose q, k and v are the
    very same arrays under the same settings keep their trace: an edit shares every
    array it does not change, so editing one cell recomputes one head, not twelve.
    """
    if s.given is not None:  # weights only
        return Result(tuple(_given_trace(w) for w in s.given), None)
    options = dict(causal=s.settings.causal, scale=s.settings.scale,
                   temperature=s.settings.temperature, mask=s.settings.additive_mask(s.n))
    if s.projection is not None:
        layer = _layer(s.projection, options)
        return Result(_unstack(layer.heads), layer)
    reusable = _reusable(s, previous)
    if len(s.heads) * s.n ** 2 > LEAN_CELLS:
        return Result(_lean(s, options, reusable), None)
    if any(reusable):
        return Result(tuple(reused or attention(h.q, h.k, h.v, **options)
                            for h, reused in zip(s.heads, reusable)), None)
    if same_shapes(s):
        # One batched call is much faster than a Python loop for 12 heads.
        stacked = [np.stack([h.matrix(m) for h in s.heads]) for m in "qkv"]  # [h, n, d]
        return Result(_unstack(attention(*stacked, **options)), None)
    return Result(tuple(attention(h.q, h.k, h.v, **options) for h in s.heads), None)


def _lean(s: Scenario, options, reusable) -> tuple[AttentionTrace, ...]:
    """A long input's heads (a real model's layer at hundreds or thousands of tokens): only the
    weights (float32) and outputs kept whole, worked out on every core; the heads to work out go in
    parts of rows when there are fewer of them than cores (an edit changes one head)."""
    hidden, divisor = _lean_mask(s, options)
    dtype = np.float32  # a long input's weights: read as colours and three decimals; float64 took twice as long
    todo = [i for i, reused in enumerate(reusable) if reused is None]
    cores = os.cpu_count() or 1
    cuts = np.linspace(0, s.n, max(1, cores // max(1, len(todo))) + 1).astype(int)
    qkv = {i: [np.asarray(s.heads[i].matrix(m), dtype=dtype) for m in "qkv"] for i in todo}
    weights = {i: np.empty((s.n, s.n), dtype=dtype) for i in todo}
    outputs = {i: np.empty((s.n, qkv[i][2].shape[1])) for i in todo}

    def part(i, lo, hi):
        q, k, v = qkv[i]
        outputs[i][lo:hi] = lean_weights(q[lo:hi], k, hidden[lo:hi], divisor, weights[i][lo:hi]) @ v
    with one_blas_thread(), ThreadPoolExecutor(cores) as pool:
        list(pool.map(lambda job: part(*job), [(i, lo, hi) for i in todo for lo, hi in zip(cuts[:-1], cuts[1:])]))
    return tuple(reusable[i] or lean_trace(qkv[i][0], qkv[i][1], hidden, divisor, weights[i], outputs[i])
                 for i in range(len(s.heads)))


def _lean_mask(s: Scenario, options) -> tuple[np.ndarray, float]:
    """(hidden [n, n], the scores' divisor) of a long input under its settings."""
    n = s.n
    mask = options["mask"]
    hidden = np.isneginf(mask) if mask is not None else _hidden_of(n, options["causal"])
    return hidden, (np.sqrt(s.heads[0].q.shape[1]) if options["scale"] else 1.0) * options["temperature"]


@lru_cache(maxsize=2)
def _hidden_of(n: int, causal: bool) -> np.ndarray:
    """[n, n] read-only: the causal mask's hidden half, or nothing hidden. The same array for every
    compute of a length, so a head's panel knows its mask unchanged by identity (16 MB at 4,096)."""
    hidden = np.triu(np.ones((n, n), dtype=bool), 1) if causal else np.zeros((n, n), dtype=bool)
    hidden.setflags(write=False)
    return hidden


def known(s: Scenario, weights: np.ndarray, outputs: np.ndarray) -> Result:
    """The Result of a long input whose weights [heads, n, n] and outputs [heads, n, d_v] were
    worked out already (a real model's pass computes them for the layer it shows first): what
    compute(s) would give, without computing it again."""
    options = dict(causal=s.settings.causal, scale=s.settings.scale, temperature=s.settings.temperature,
                   mask=s.settings.additive_mask(s.n))
    hidden, divisor = _lean_mask(s, options)
    return Result(tuple(AttentionTrace(ScoreRows(h.q, h.k), ScoreRows(h.q, h.k, divisor),
                                       ScoreRows(h.q, h.k, divisor, hidden), w, np.asarray(y, dtype=float))
                        for h, w, y in zip(s.heads, weights, outputs)), None)


def _given_trace(weights: np.ndarray) -> AttentionTrace:
    """A model's weights as a trace: log w stands for the scores (softmax recovers w from them,
    up to a constant per row), and a weight of exactly 0 was masked (log 0 = −∞, so the one
    array serves as scores and masked scores); there is no v."""
    logs = LogWeights(weights)
    return AttentionTrace(logs, logs, logs, weights, np.zeros((len(weights), 0)))


class LogWeights:
    """log w, worked out only for the rows asked for: the step table reads one row, and the
    logs of 4 heads × 4,096² would take half a second at every layer switch."""

    def __init__(self, weights: np.ndarray):
        self.weights = weights
        self.shape, self.ndim = weights.shape, weights.ndim

    def __len__(self) -> int:
        return len(self.weights)

    def __getitem__(self, index):
        with np.errstate(divide="ignore"):
            return np.log(self.weights[index])

    def __array__(self, dtype=None, copy=None):
        logs = self[...]
        return logs if dtype is None else logs.astype(dtype)


def hidden(trace: AttentionTrace) -> np.ndarray:
    """[n, n] True where a cell was masked (its score −∞, its weight exactly 0)."""
    if isinstance(trace.masked, ScoreRows):
        hidden = trace.masked.hidden
        return hidden if hidden is not None else np.zeros(trace.masked.shape, dtype=bool)
    if isinstance(trace.masked, LogWeights):
        return trace.weights == 0  # log 0 = −∞: no logs needed to tell
    return np.isneginf(np.asarray(trace.masked))


def _reusable(s: Scenario, previous) -> list:
    """The previous trace of each head whose inputs are unchanged, else None."""
    if previous is None:
        return [None] * len(s.heads)
    old, result = previous
    if old.settings != s.settings or old.projection is not None or len(old.heads) != len(s.heads):
        return [None] * len(s.heads)
    return [trace if all(h.matrix(m) is g.matrix(m) for m in "qkv") else None
            for h, g, trace in zip(s.heads, old.heads, result.heads)]


def _layer(p: Projection, options) -> MultiHeadTrace:
    return multi_head_attention(p.x, p.w_q, p.w_k, p.w_v, p.w_o, p.n_heads,
                                n_kv_heads=p.n_kv_heads, residual=p.residual, layer_norm_first=p.layer_norm,
                                positions=p.positions, **options)


def _unstack(trace: AttentionTrace) -> tuple[AttentionTrace, ...]:
    """[h, ...] arrays -> h traces of views (no copies)."""
    fields = (trace.scores, trace.scaled, trace.masked, trace.weights, trace.output)
    return tuple(AttentionTrace(*(f[i] for f in fields)) for i in range(trace.weights.shape[0]))
