"""A whole model at a glance: every layer × head summarised, one layer at a time.

Head statistics (each a mean over the rows i of one head's weights w; STATISTICS holds one record
each, which `attnviz stats` and the overview read):
  entropy   −Σ_j w_ij ln w_ij, in nats (0 ln 0 = 0): low for a sharp head, ln n for a uniform one
  distance  Σ_j w_ij |i − j|: how far back (or ahead) the head looks
  sink      w_i0: weight on the first token
  previous  w_i,i−1 over the rows i ≥ 1: a previous-token head scores 1
  self      w_ii

Summaries across heads and layers:
  mean over heads   A_l = (1/H) Σ_h W_lh
  attention rollout (Abnar & Zuidema 2020)   Â_l = 0.5·A_l + 0.5·I, rows renormalised;
                    rollout after layer l = Â_l ⋯ Â_1 (what reaches each token through the
                    residual stream, layer by layer)
The statistics take numpy arrays and return numpy arrays; `named_layers` opens a model's file
(or a preset, one layer) one layer at a time, and `check_work` refuses, from the first layer's
shape, a model whose every layer would take too long to go through.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .attention import kv_group
from .compute import compute
from .messages import QT_TR_NOOP
from .presets import open_named
from .scenario import ScenarioError

THUMBNAIL = 48       # an overview thumbnail's side, in cells at most (a larger head is pooled)
FLAT = 128           # the side at which heads are compared ("find heads like this one")
SHOWN = 512          # the side of a summary kept for the window (means, rollout): pooled beyond it
# What a summary keeps, in cells over every layer (× heads): the sides above shrink to fit, so a
# model of 256 layers × 64 heads keeps tens of megabytes, not gigabytes.
THUMBNAIL_CELLS, FLAT_CELLS, SHOWN_CELLS = 2 ** 22, 2 ** 24, 2 ** 23
BLOCK = 2 ** 20      # cells of a head worked on at once: the temporaries stay a few megabytes

# Going through every layer (`attnviz stats`, `--rollout`, `--overview`, View → Overview) costs
# work in proportion to these; each is refused beyond its limit before a second layer is read,
# so that every command answers within 30 s on a busy two-core machine (see bench/limits.py).
MAX_MODEL_CELLS = 2 ** 28     # layers × heads × tokens²: the weights read (or computed) and summarised
MAX_MODEL_PRODUCTS = 2 ** 37  # layers × heads × tokens² × (d_k + d_v): computing them from q, k, v
MAX_ROLLOUT = 2 ** 36         # layers × tokens³: rollout multiplies an n × n matrix at every layer


# ---------------------------------------------------------------- head statistics, one record each

@dataclass(frozen=True)
class Statistic:
    """A number per head: a mean over the rows of its weights (see the module's docstring)."""

    key: str       # its name in `attnviz stats` (JSON keys, CSV columns)
    label: str     # its name in the window (English; the window translates it)
    of: Callable[[np.ndarray], np.ndarray]  # [heads, n, n] weights -> [heads]


def _mean_over_rows(w: np.ndarray, term: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """(1/n) Σ_i Σ_j term(w_h, |i − j|)_ij for each head h, a block of rows at a time: the terms
    in the weights' own precision (float32 from a model's file), every sum in float64."""
    heads, n = w.shape[0], w.shape[-1]
    real = np.float64 if w.dtype == np.float64 else np.float32
    total = np.zeros(heads)
    rows = max(1, BLOCK // n)
    for start in range(0, n, rows):
        i = np.arange(start, min(n, start + rows))
        far = np.abs(i[:, None] - np.arange(n)[None, :]).astype(real)  # |i − j|
        for h in range(heads):
            total[h] += term(w[h, start:start + rows].astype(real, copy=False), far).sum(dtype=np.float64)
    return total / n


def _w_ln_w(block: np.ndarray, _far: np.ndarray) -> np.ndarray:
    terms = np.zeros(block.shape, block.dtype)
    np.log(block, out=terms, where=block > 0)  # 0 ln 0 = 0
    return np.multiply(block, terms, out=terms)


def entropy(w) -> np.ndarray:
    return 0.0 - _mean_over_rows(w, _w_ln_w)  # 0 − x, not −x: a head sure of every row scores 0, not −0


def distance(w) -> np.ndarray:
    return _mean_over_rows(w, np.multiply)


def sink(w) -> np.ndarray:
    return w[..., :, 0].mean(axis=-1, dtype=np.float64)


def previous(w) -> np.ndarray:
    i = np.arange(1, w.shape[-1])
    return w[..., i, i - 1].mean(axis=-1, dtype=np.float64) if len(i) else np.zeros(len(w))


def itself(w) -> np.ndarray:
    i = np.arange(w.shape[-1])
    return w[..., i, i].mean(axis=-1, dtype=np.float64)


STATISTICS = (
    Statistic("entropy", QT_TR_NOOP("entropy (nats)"), entropy),
    Statistic("distance", QT_TR_NOOP("distance"), distance),
    Statistic("sink", QT_TR_NOOP("first token (sink)"), sink),
    Statistic("previous", QT_TR_NOOP("previous token"), previous),
    Statistic("self", QT_TR_NOOP("itself"), itself),
)
STATS = tuple(stat.key for stat in STATISTICS)  # the columns of head_stats, in order


def head_stats(weights) -> np.ndarray:
    """[heads, n, n] weights -> [heads, len(STATISTICS)]: each statistic of each head."""
    w = np.asarray(weights)
    return np.stack([stat.of(w) for stat in STATISTICS], axis=-1)


# ---------------------------------------------------------------- summaries across heads and layers

def mean_over_heads(weights) -> np.ndarray:
    """[heads, n, n] -> [n, n]: A_l, the layer's mean over its heads (summed in float64, head by
    head: no float64 copy of the whole layer)."""
    w = np.asarray(weights)
    total = w[0].astype(np.float64)
    for head in w[1:]:
        total += head
    total /= len(w)
    return total


def rollout_factor(mean) -> np.ndarray:
    """Â = 0.5·A + 0.5·I with each row renormalised to sum to 1 (the residual stream's share)."""
    a = np.multiply(mean, 0.5, dtype=np.float64)
    a.flat[::len(a) + 1] += 0.5  # + 0.5·I, without an n × n identity
    a /= a.sum(axis=-1, keepdims=True)
    return a


def rollout(means) -> list[np.ndarray]:
    """The running products Â_1, Â_2·Â_1, …, Â_L⋯Â_1 of layer means A_1 … A_L."""
    products, product = [], None
    for mean in means:
        product = rolled(product, mean)
        products.append(product)
    return products


def rolled(product, mean) -> np.ndarray:
    """The rollout one layer further: Â·R (Â alone at the first layer, when R is None)."""
    factor = rollout_factor(mean)
    return factor if product is None else factor @ product


def final_rollout(layer_weights) -> np.ndarray:
    """Â_L ⋯ Â_1 of an iterable of [heads, n, n] layers (at least one), keeping one product at a time."""
    product = None
    for weights in layer_weights:
        product = rolled(product, mean_over_heads(weights))
    if product is None:
        raise ValueError("a rollout needs at least one layer")
    return product


def pooled(weights, size: int) -> np.ndarray:
    """[..., n, n] averaged over square blocks so that a side is at most `size` (the last block
    may be smaller); a row of a pooled matrix still sums to about its block's share."""
    w = np.asarray(weights)
    n = w.shape[-1]
    if n <= size:
        return w
    block = -(-n // size)
    edges = np.arange(0, n, block)
    summed = np.add.reduceat(np.add.reduceat(w, edges, axis=-1), edges, axis=-2)
    counts = np.diff(np.append(edges, n))
    return summed / (counts[:, None] * counts[None, :])


def similar(vectors, index: int, count: int = 5) -> list[int]:
    """The `count` rows of `vectors` most like row `index` by cosine similarity (not itself)."""
    v = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(v, axis=1)
    cosine = v @ v[index] / np.maximum(norms * norms[index], 1e-300)
    cosine[index] = -np.inf
    return [int(i) for i in np.argsort(-cosine, kind="stable")[:count]]


def side(budget: int, count: int, largest: int) -> int:
    """The side of `count` square matrices that hold at most `budget` cells together (≤ largest)."""
    return max(1, min(largest, math.isqrt(budget // max(1, count))))


@dataclass
class ModelSummary:
    """Everything the overview shows, gathered one layer at a time (a layer's weights are let go
    once summarised, so a 30-layer file costs one layer's memory plus these). What it keeps is
    bounded whatever the model's size: thumbnails, compared heads and the window's summaries are
    pooled to sides that shrink with the number of layers and heads. `rollout`: compute the
    rollout too (n³ per layer; `attnviz export --overview` does not show it)."""

    tokens: list[str]
    layers_expected: int = 1
    with_rollout: bool = True
    stats: list[np.ndarray] = field(default_factory=list)        # per layer: [heads, 5]
    thumbnails: list[np.ndarray] = field(default_factory=list)   # per layer: [heads, s, s] float32
    means: list[np.ndarray] = field(default_factory=list)        # per layer: A_l, pooled to shown_side
    rollouts: list[np.ndarray] = field(default_factory=list)     # per layer: Â_l⋯Â_1, pooled to shown_side
    rollout_full: np.ndarray | None = None                       # the last product, not pooled
    flat: list[np.ndarray] = field(default_factory=list)         # per layer: [heads, m] for similarity
    thumbnail_side: int = THUMBNAIL
    flat_side: int = FLAT
    shown_side: int = SHOWN

    def add_layer(self, weights) -> None:
        w = np.asarray(weights)
        if not self.stats:  # sized once, at the first layer, for every layer expected
            heads = max(1, self.layers_expected) * len(w)
            self.thumbnail_side = side(THUMBNAIL_CELLS, heads, THUMBNAIL)
            self.flat_side = side(FLAT_CELLS, heads, FLAT)
            self.shown_side = side(SHOWN_CELLS, self.layers_expected, SHOWN)
        self.stats.append(head_stats(w))
        self.thumbnails.append(pooled(w, self.thumbnail_side).astype(np.float32))
        self.flat.append(pooled(w, self.flat_side).astype(np.float32).reshape(len(w), -1))
        mean = mean_over_heads(w)
        self.means.append(pooled(mean, self.shown_side))
        if self.with_rollout:
            self.rollout_full = rolled(self.rollout_full, mean)
            self.rollouts.append(pooled(self.rollout_full, self.shown_side))

    @property
    def layers(self) -> int:
        return len(self.stats)

    @property
    def heads(self) -> int:
        return len(self.stats[0]) if self.stats else 0

    def mean_over_layers(self) -> np.ndarray:
        """(1/L) Σ_l A_l, at the size the window shows."""
        return np.mean(self.means, axis=0)

    def table(self) -> np.ndarray:
        """[layers, heads, 5] statistics."""
        return np.array(self.stats)

    def pair(self, query: int, key: int) -> np.ndarray:
        """[layers, heads]: each head's weight from `query` to `key` (which head makes それ look at
        魚?); exact up to flat_side tokens, beyond that the mean over the pair's block."""
        n = len(self.tokens)
        block = -(-n // min(n, self.flat_side))
        cell = (query // block) * (-(-n // block)) + key // block
        return np.array([layer[:, cell] for layer in self.flat])

    def like(self, layer: int, head: int, count: int = 5) -> list[tuple[int, int]]:
        """The heads whose weights look most like (layer, head)'s: cosine of the flattened
        weights (pooled to FLAT × FLAT beyond that size), over every layer of the model."""
        vectors = np.concatenate(self.flat)
        found = similar(vectors, layer * self.heads + head, min(count, len(vectors) - 1))
        return [divmod(i, self.heads) for i in found]


def check_work(first, layers: int, rollout: bool = False) -> None:
    """Refuse a model whose every layer would take too long to go through, from its first
    layer's shape (every layer of a model's file has it): the weights to read and summarise,
    computing them from q, k and v, and (`rollout`) the rollout's products."""
    heads, n = len(first.heads), first.n
    cells = layers * heads * n * n
    if cells > MAX_MODEL_CELLS:
        raise ScenarioError(QT_TR_NOOP("{0} layers × {1} heads × {2:,} tokens² is {3:,} weights; going through "
                                       "every layer, AttnViz reads at most {4:,} (layers × heads × tokens²)"),
                            layers, heads, n, cells, MAX_MODEL_CELLS)
    products = 0 if first.weights_only else \
        layers * n * n * sum(head.q.shape[1] + head.v.shape[1] for head in first.heads)
    if products > MAX_MODEL_PRODUCTS:
        raise ScenarioError(QT_TR_NOOP("computing {0} layers × {1} heads of {2:,} tokens from q, k and v takes "
                                       "{3:,} multiplications; going through every layer, AttnViz does at most "
                                       "{4:,} (layers × heads × tokens² × (d_k + d_v))"),
                            layers, heads, n, products, MAX_MODEL_PRODUCTS)
    if rollout and not rollout_fits(layers, n):
        raise ScenarioError(QT_TR_NOOP("the rollout of {0} layers of {1:,} tokens takes {2:,} multiplications "
                                       "(layers × tokens³); AttnViz does at most {3:,}"),
                            layers, n, layers * n ** 3, MAX_ROLLOUT)


def rollout_fits(layers: int, n: int) -> bool:
    return layers * n ** 3 <= MAX_ROLLOUT


def named_layers(name: str, change=None):
    """(layer 0's scenario, the number of layers, layer -> scenario) of a preset or a file;
    `change` (a scenario -> scenario) is applied to each layer, such as other settings."""
    change = change or (lambda s: s)
    first = change(open_named(name, 0)[0])
    count = first.layer[1] if first.layer else 1
    return first, count, lambda layer: first if layer == 0 else change(open_named(name, layer)[0])


def layer_weights(layers: int, scenario_of):
    """Each layer's [heads, n, n] weights, one at a time: `scenario_of(l)` opens layer l (of a
    model's file, or of a real model's run) and the core computes it as the window does (a
    model's given weights are used as they are, not copied)."""
    for layer in range(layers):
        s = scenario_of(layer)
        yield s.given if s.weights_only else np.stack(compute(s).weights())


def kv_groups(scenario) -> list[int] | None:
    """For each head, the K/V head it reads (grouped-query attention): as a real model or a
    projection declares it, else recognised by identical k and v (a model's file declares
    nothing); None when the heads share nothing or hold weights only."""
    if scenario.weights_only:
        return None
    declared = declared_kv_heads(scenario)
    if declared is not None:
        n_heads, n_kv_heads = declared
        return [kv_group(h, n_heads, n_kv_heads)[0] for h in range(n_heads)] if n_kv_heads < n_heads else None
    groups: list[int] = []
    seen: list[tuple] = []
    for head in scenario.heads:
        for g, (k, v) in enumerate(seen):
            if k.shape == head.k.shape and np.array_equal(k, head.k) and np.array_equal(v, head.v):
                groups.append(g)
                break
        else:
            seen.append((head.k, head.v))
            groups.append(len(seen) - 1)
    return groups if len(seen) < len(groups) else None


def declared_kv_heads(scenario) -> tuple[int, int] | None:
    """(heads, K/V heads) as a real model's configuration or a projection declares them; None
    when the scenario declares none."""
    if scenario.live is not None:
        config = scenario.live.model.config
        return config.n_heads, config.n_kv_heads
    if scenario.projection is not None:
        return scenario.projection.n_heads, scenario.projection.kv_heads
    return None


def summarise(tokens, layer_weights, layers: int = 1, rollout: bool = True) -> ModelSummary:
    """A ModelSummary of `layer_weights`, an iterable of [heads, n, n] arrays, one per layer
    (`layers` of them: what it keeps is sized for that many)."""
    summary = ModelSummary(list(tokens), layers, rollout)
    for weights in layer_weights:
        summary.add_layer(weights)
    return summary
