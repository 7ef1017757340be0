"""A whole model at a glance: every layer × head summarised, one layer at a time.

Head statistics (each a mean over the rows i of one head's weights w):
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
(or a preset, one layer) one layer at a time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

STATS = ("entropy", "distance", "sink", "previous", "self")
THUMBNAIL = 48       # an overview thumbnail's side, in cells at most (a larger head is pooled)
FLAT = 128           # the side at which heads are compared ("find heads like this one")
SHOWN = 512          # the side of a summary kept for the window (means, rollout): pooled beyond it


def head_stats(weights) -> np.ndarray:
    """[heads, n, n] weights -> [heads, 5]: entropy, distance, sink, previous, self (see above)."""
    w = np.asarray(weights, dtype=np.float64)
    n = w.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log(w), 0.0)
    entropy = terms.sum(axis=-1).mean(axis=-1)
    i = np.arange(n)
    distance = (w * np.abs(i[:, None] - i[None, :])).sum(axis=-1).mean(axis=-1)
    sink = w[..., :, 0].mean(axis=-1)
    previous = w[..., i[1:], i[1:] - 1].mean(axis=-1) if n > 1 else np.zeros(w.shape[:-2])
    itself = w[..., i, i].mean(axis=-1)
    return np.stack([entropy, distance, sink, previous, itself], axis=-1)


def mean_over_heads(weights) -> np.ndarray:
    """[heads, n, n] -> [n, n]: A_l, the layer's mean over its heads."""
    return np.asarray(weights, dtype=np.float64).mean(axis=0)


def rollout_factor(mean) -> np.ndarray:
    """Â = 0.5·A + 0.5·I with each row renormalised to sum to 1 (the residual stream's share)."""
    a = 0.5 * np.asarray(mean, dtype=np.float64) + 0.5 * np.eye(len(mean))
    return a / a.sum(axis=-1, keepdims=True)


def rollout(means) -> list[np.ndarray]:
    """The running products Â_1, Â_2·Â_1, …, Â_L⋯Â_1 of layer means A_1 … A_L."""
    products, product = [], None
    for mean in means:
        factor = rollout_factor(mean)
        product = factor if product is None else factor @ product
        products.append(product)
    return products


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


@dataclass
class ModelSummary:
    """Everything the overview shows, gathered one layer at a time (a layer's weights are let go
    once summarised, so a 30-layer file costs one layer's memory plus these)."""

    tokens: list[str]
    stats: list[np.ndarray] = field(default_factory=list)        # per layer: [heads, 5]
    thumbnails: list[np.ndarray] = field(default_factory=list)   # per layer: [heads, s, s] float32
    means: list[np.ndarray] = field(default_factory=list)        # per layer: A_l, pooled to SHOWN
    rollouts: list[np.ndarray] = field(default_factory=list)     # per layer: Â_l⋯Â_1, pooled to SHOWN
    rollout_full: np.ndarray | None = None                       # the last product, not pooled
    flat: list[np.ndarray] = field(default_factory=list)         # per layer: [heads, m] for similarity

    def add_layer(self, weights) -> None:
        w = np.asarray(weights)
        self.stats.append(head_stats(w))
        thumbs = pooled(w, THUMBNAIL).astype(np.float32)
        self.thumbnails.append(thumbs)
        self.flat.append(pooled(w, FLAT).astype(np.float32).reshape(len(w), -1))
        mean = mean_over_heads(w)
        factor = rollout_factor(mean)
        self.rollout_full = factor if self.rollout_full is None else factor @ self.rollout_full
        self.means.append(pooled(mean, SHOWN))
        self.rollouts.append(pooled(self.rollout_full, SHOWN))

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
        魚?); exact up to FLAT tokens, beyond that the mean over the pair's block."""
        n = len(self.tokens)
        side = FLAT if n > FLAT else n
        block = -(-n // side)
        cell = (query // block) * (-(-n // block)) + key // block
        return np.array([layer[:, cell] for layer in self.flat])

    def like(self, layer: int, head: int, count: int = 5) -> list[tuple[int, int]]:
        """The heads whose weights look most like (layer, head)'s: cosine of the flattened
        weights (pooled to FLAT × FLAT beyond that size), over every layer of the model."""
        vectors = np.concatenate(self.flat)
        found = similar(vectors, layer * self.heads + head, min(count, len(vectors) - 1))
        return [divmod(i, self.heads) for i in found]


def named_layers(name: str, change=None):
    """(layer 0's scenario, the number of layers, layer -> scenario) of a preset or a file;
    `change` (a scenario -> scenario) is applied to each layer, such as other settings."""
    from .presets import open_named
    change = change or (lambda s: s)
    first = change(open_named(name, 0)[0])
    count = first.layer[1] if first.layer else 1
    return first, count, lambda layer: first if layer == 0 else change(open_named(name, layer)[0])


def layer_weights(layers: int, scenario_of):
    """Each layer's [heads, n, n] weights, one at a time: `scenario_of(l)` opens layer l (of a
    model's file, or of a real model's run) and the core computes it as the window does."""
    from .compute import compute
    for layer in range(layers):
        yield np.stack(compute(scenario_of(layer)).weights())


def kv_groups(scenario) -> list[int] | None:
    """For each head, the group of heads it shares K and V with (grouped-query attention),
    recognised by identical k and v; None when the heads share nothing or hold weights only."""
    if scenario.weights_only:
        return None
    groups, seen = [], []
    for head in scenario.heads:
        for g, (k, v) in enumerate(seen):
            if k.shape == head.k.shape and np.array_equal(k, head.k) and np.array_equal(v, head.v):
                groups.append(g)
                break
        else:
            seen.append((head.k, head.v))
            groups.append(len(seen) - 1)
    return groups if len(seen) < len(groups) else None


def summarise(tokens, layer_weights) -> ModelSummary:
    """A ModelSummary of `layer_weights`, an iterable of [heads, n, n] arrays, one per layer."""
    summary = ModelSummary(list(tokens))
    for weights in layer_weights:
        summary.add_layer(weights)
    return summary
