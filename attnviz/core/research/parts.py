"""A run's pieces, layer by layer, as the research views need them: each head's output (before
W_o) and attention weights, the changes of the run applied; the logits of any residual stream."""
from __future__ import annotations

import numpy as np

from ..lm.blocks import Kept, attention_of
from ..lm.run import Run, changes_by_layer, final_stream
from ..lm.weights import Model, present


def head_outputs(model: Model, run: Run, layer: int) -> np.ndarray:
    """[H, n, d_head]: each head's output in `layer`, softmax(q kᵀ/√d + M) v, with the run's changes
    (an edit, a head off, an output given)."""
    changes = changes_by_layer(run.changes).get(layer, {})
    return attention_of(run.q[layer], run.k[layer], run.v[layer], model.config, layer, changes)


def head_weights(model: Model, run: Run, layer: int) -> np.ndarray:
    """[H, n, n] float32: each head's attention weights in `layer` (under the layer's own mask)."""
    kept = Kept()
    changes = changes_by_layer(run.changes).get(layer, {})
    attention_of(run.q[layer], run.k[layer], run.v[layer], model.config, layer, changes, kept)
    return present(kept.weights, "attention weights kept")


def residual(model: Model, run: Run, layer: int) -> np.ndarray:
    """[n, d]: the residual stream entering `layer`; layer L (the number of layers) is the one
    leaving the last layer, which the final norm and the unembedding read."""
    return final_stream(model, run) if layer == len(run.streams) else run.streams[layer]


def logits_of(model: Model, x: np.ndarray) -> np.ndarray:
    """[m, vocab] float64: what the model would predict from residual streams x [m, d] (its final
    norm, then the unembedding)."""
    return model.unembed(model.out_norm(x.astype(np.float32), model.config.eps)).astype(np.float64)


def log_softmax(z: np.ndarray) -> np.ndarray:
    """log p over the last axis, in float64 (a rank-40,000 token's log p is still a number)."""
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def top_k(values: np.ndarray, k: int) -> np.ndarray:
    """[m, k]: each row's k largest values' indices, largest first (a partition, then only k sorted:
    a full sort of Gemma 3's 262,144 logits per row took most of the lens's time)."""
    k = min(k, values.shape[-1])
    best = np.argpartition(-values, k - 1, axis=-1)[:, :k]
    return np.take_along_axis(best, np.argsort(-np.take_along_axis(values, best, axis=-1), axis=-1, kind="stable"),
                              axis=-1)


def log_prob(run: Run, token: int) -> float:
    """log p of `token` as the run's next token."""
    return float(log_softmax(run.logits.astype(np.float64))[token])
