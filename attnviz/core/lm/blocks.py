"""What every family's block shares: heads split out, RoPE, attention over the model's own q, k, v
with the user's changes put in, and the heads' outputs joined again.

A model's pass runs in float32 from end to end (the reference tolerances, 1e-4 on attention weights
and probabilities, hold without float64: tests/core/lm). Attention here is the core's attention()
written for a model's sizes: the heads sharing a K/V head multiply against it in one BLAS call
(never a repeated copy), and the queries go in blocks that see only the keys the mask lets them
see, so the hidden half of the causal square is never computed nor stored. The views show a layer
through the core's attention() itself, from the q, k and v kept here.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np

from ..attention import group_size, rope
from ..masks import MaskSpec
from ..scenario import Change
from .weights import Config, Norm

QUERY_BLOCK = 128  # queries per block: scores of [heads, 128, n] stay a few MB at 4,096 tokens
ROWS_APART = 128    # the fewest tokens a part of by_rows holds


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GELU as tanh approximates it (gelu_pytorch_tanh)."""
    return 0.5 * x * (1.0 + np.tanh(np.float32(np.sqrt(2.0 / np.pi)) * (x + np.float32(0.044715) * x * x * x)))


def heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """[..., n, heads · d_head] -> [..., heads, n, d_head] (a view)."""
    return x.reshape(*x.shape[:-1], n_heads, -1).swapaxes(-2, -3)


def joined(y: np.ndarray) -> np.ndarray:
    """[heads, n, d_head] -> [n, heads · d_head] (float32, for W_o)."""
    return y.transpose(1, 0, 2).reshape(y.shape[1], -1).astype(np.float32, copy=False)


def per_head_norm(x: np.ndarray, norm: Norm | None, eps: float) -> np.ndarray:
    """QK-norm: each head's vector normed over its d_head (nothing without a norm)."""
    return x if norm is None else norm(x, eps)


def turned(x: np.ndarray, c: Config, layer: int, start: int = 0) -> np.ndarray:
    """RoPE with the layer's base (Gemma 3's sliding layers have their own), in the model's layout;
    x's tokens are those from `start` on."""
    return rope(x, c.base(layer), halves=c.rope_halves, factors=c.rope_factors, start=start)


def by_rows(work, n: int) -> None:
    """work(lo, hi) over the rows 0 … n − 1, in as many parts as there are cores, at once: each
    part's products in a BLAS thread of its own and, above all, its element-wise work (norms,
    RoPE, the activation), which numpy does in one thread per call, on a core of its own. A few
    rows go in one part, whose products BLAS shares out itself."""
    if not shared_out(n):
        work(0, n)
        return
    cuts = np.linspace(0, n, WORKERS + 1).astype(int)
    for done in [_pool().submit(work, lo, hi) for lo, hi in zip(cuts[:-1], cuts[1:])]:
        done.result()


def shared_out(n: int) -> bool:
    """A pass over n tokens shares its rows and blocks out to the cores itself (BLAS then takes
    one thread per call: see run.run and blas.model_threads)."""
    return WORKERS > 1 and n >= ROWS_APART * WORKERS


def mask_of(c: Config, layer: int) -> MaskSpec | None:
    """The mask a layer attends with, as the toolbar names it: a sliding window, or None (causal)."""
    return MaskSpec("window", window=c.window) if c.is_sliding(layer) and c.window else None


def window_of(c: Config, layer: int) -> int | None:
    spec = mask_of(c, layer)
    return None if spec is None else spec.window


def changed(q, k, v, changes: dict[int, Change], n_heads: int):
    """The user's edits put in place of the model's own q, k, v (after RoPE: what the heatmap
    shows). An edit to one head's k or v is that head's alone: its K/V group is then split into
    one K and V per head (the model's own copied), the others stay shared."""
    edits = {h: c for h, c in changes.items() if c.q is not None or c.k is not None or c.v is not None}
    if not edits:
        return q, k, v
    q = q.copy()
    if any(c.k is not None or c.v is not None for c in edits.values()):
        size = group_size(n_heads, k.shape[0])
        k, v = np.repeat(k, size, axis=0), np.repeat(v, size, axis=0)
    for head, change in edits.items():
        for given, into in ((change.q, q), (change.k, k), (change.v, v)):
            if given is not None and (into is q or len(into) == n_heads):
                into[head] = given
    return q, k, v


def attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, window: int | None = None,
           weights: np.ndarray | None = None, first: int = 0) -> np.ndarray:
    """softmax(q kᵀ / √d_head + M) v per head, M causal (and, with `window`, no key more than
    window − 1 tokens back): q [H, n, d], k and v [H_kv, n, d] read by H / H_kv heads each;
    float32 throughout. -> [H, n, d]. The blocks of queries go to every core (numpy's element-wise
    work, exp and the sums, is one thread per call: the blocks share the cores instead).

    softmax(s) = e^(s − c) / Σ e^(s − c) for any c; the usual c is the row's largest score, which
    takes two passes over the scores (find it, subtract it). Here c is each query's score with
    itself, known before the scores are: it is subtracted inside the product (q with a column −c,
    k with a column of ones), and the sums come from the product by v as a last column of ones.
    The largest score of a real model's row lies near its own (never more than 26 apart in base 2
    in SmolLM2's 30 layers over 4,096 tokens), far from float32's limits; a row whose sum or output
    comes out of the product infinite, NaN or too small to trust (edited q and k in the thousands,
    or a hidden key's score overflowing before it is zeroed) is worked out again with its largest
    score (_rescued), so the check costs one look at the output. The scores are in base 2 (q scaled
    by log₂e / √d_head, then 2^s for e^s: the same weights, and numpy's exp2 takes half exp's
    time). With `weights` (zeros [H, n, n]) the weights are written there too (the layer a window
    shows first). With `first`, only the queries from `first` on are worked out (the output's rows
    before it are left unset): a model's last layer matters to its prediction at the last token
    only."""
    n_heads, n, d = q.shape
    n_kv = k.shape[0]
    size = n_heads // n_kv
    q1 = np.empty((n_kv, size, n, d + 1), dtype=np.float32)                # the heads sharing a K/V head
    grouped = np.multiply(q.reshape(n_kv, size, n, d), np.float32(np.log2(np.e) / np.sqrt(d)), out=q1[..., :d])
    q1[..., d] = -np.einsum("gsnd,gnd->gsn", grouped, k)                    # each query's score with itself
    k1, v1 = (np.concatenate([x, np.ones((n_kv, n, 1), dtype=np.float32)], axis=-1) for x in (k, v))
    out = np.empty((n_kv, size, n, d), dtype=np.float32)
    kept = None if weights is None else weights.reshape(n_kv, size, n, n)
    work = [(q1[h], k1[h], v1[h], start, min(n, start + QUERY_BLOCK), window, out[h],
             None if kept is None else kept[h]) for start in range(first, n, QUERY_BLOCK) for h in range(n_kv)]
    if len(work) == 1 or not shared_out(n):
        for args in work:
            _attend_block(*args)
    else:  # the longest blocks first, so that no core is left with one at the end
        list(_pool().map(lambda args: _attend_block(*args), work[::-1]))
    return out.reshape(n_heads, n, d)


# a row's sum of 2^(s − c) is at least its own key's 2⁰ = 1, less its rounding: below this, the shift
# itself was lost to rounding (scores of 10⁹ and more) and the row is worked out again
SMALLEST_SUM = 2.0 ** -20


def _attend_block(q1, k1, v1, start: int, end: int, window: int | None, out, weights=None) -> None:
    """One K/V head's queries start … end − 1 (of every head reading it: q1 [size, n, d + 1])
    against the keys they may see, low … end − 1 (see attend for the extra columns)."""
    low = 0 if window is None else max(0, start - window + 1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # a lost row is worked out again
        y = _shifted(q1, k1, v1, start, end, low, window, out, weights)
    lost = ~(np.isfinite(y).all(axis=-1) & (y[..., -1] >= SMALLEST_SUM))
    if lost.any():
        _rescued(q1, k1, v1, lost, start, end, low, window, out, weights)


def _shifted(q1, k1, v1, start: int, end: int, low: int, window: int | None, out, weights) -> np.ndarray:
    """The block's rows shifted by their own scores (see attend) -> y [size, b, d + 1], sums last."""
    size, _, d1 = q1.shape
    b = end - start
    scores = (q1[:, start:end].reshape(size * b, d1) @ k1[low:end].T).reshape(size, b, end - low)  # s − c
    np.exp2(scores, out=scores)  # hidden keys zeroed after it: numpy's exp2 of −∞ takes a slow path
    if window is None or end - 1 - window < low:
        scores[..., start - low:] *= _seen(b)                # only the diagonal square has hidden keys
    else:
        scores *= ~_hidden(start, end, low, window)
    y = (scores.reshape(size * b, end - low) @ v1[low:end]).reshape(size, b, d1)
    np.divide(y[..., :-1], y[..., -1:], out=out[:, start:end])
    if weights is not None:
        np.divide(scores, y[..., -1:], out=weights[:, start:end, low:end])
    return y


def _rescued(q1, k1, v1, lost, start: int, end: int, low: int, window: int | None, out, weights) -> None:
    """The rows `lost` ([size, b] of a block) worked out with their largest score as the shift."""
    heads, rows = np.nonzero(lost)
    d = q1.shape[-1] - 1
    scores = q1[heads, start + rows, :d] @ k1[low:end, :d].T
    np.putmask(scores, _hidden(start, end, low, window)[rows], -np.inf)
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp2(scores, out=scores)
    y = scores @ v1[low:end]
    out[heads, start + rows] = y[:, :-1] / y[:, -1:]
    if weights is not None:
        weights[heads, start + rows, low:end] = scores / y[:, -1:]


@lru_cache(maxsize=8)
def _seen(b: int) -> np.ndarray:
    """[b, b]: 1 on and below the diagonal, 0 above (a query's own block: the keys after it hidden)."""
    return np.tril(np.ones((b, b), dtype=np.float32))


def _hidden(start: int, end: int, low: int, window: int | None) -> np.ndarray:
    """[end − start, end − low] bool: True where query start + i may not see key low + j (after it,
    or with a `window`, that many tokens or more before it)."""
    i = np.arange(start, end)[:, None]
    j = np.arange(low, end)[None, :]
    return (j > i) if window is None else (j > i) | (j <= i - window)


WORKERS = os.cpu_count() or 1


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """Threads for the blocks of attention: daemon-like, idle between passes."""
    return ThreadPoolExecutor(WORKERS, thread_name_prefix="attnviz-attention")


def attention_of(q, k, v, c: Config, layer: int, changes: dict[int, Change], kept=None, first: int = 0) -> np.ndarray:
    """The layer's attention with the user's changes: edits put in, a head switched off gives 0,
    a head given its output (`out`) gives that. With `kept` (a Kept), its weights and every head's
    output are kept there; with `first`, only the rows from `first` on are worked out (see attend)."""
    if kept is not None and first:
        raise ValueError("keeping a layer's weights and outputs needs every query's row (first = 0)")
    q, k, v = changed(q, k, v, changes, c.n_heads)
    weights = None if kept is None else np.zeros((c.n_heads, q.shape[1], q.shape[1]), dtype=np.float32)
    y = attend(q, k, v, window_of(c, layer), weights, first)
    if kept is not None:
        kept.weights, kept.outputs = weights, y.copy()
    return head_changes(y, changes)


def head_changes(y: np.ndarray, changes: dict[int, Change]) -> np.ndarray:
    """The heads' outputs y [H, n, d_head] with the user's changes: a head switched off gives 0, a head
    given its output (`out`: another run's patched in, or its mean) gives that."""
    for head, change in changes.items():
        if change.off:
            y[head] = 0.0
        elif change.out is not None:
            y[head] = change.out
    return y


class Kept:
    """A layer's attention weights [H, n, n] and heads' outputs [H, n, d_head], kept by its pass."""

    weights: np.ndarray | None = None
    outputs: np.ndarray | None = None


def layer_pass(model, layer: int, x: np.ndarray, changes: dict[int, Change], project, attention_out, mlp,
               kept=None, last_only: bool = False):
    """One block of any family: project(block, config, layer, x_rows, start) -> the rows' q, k, v
    (the model's own: normed, turned), then attention over every token, then the rows' output,
    x + a + mlp(block, config, x + a) with a = attention_out(block, config, y_rows). Both run
    by_rows. With `kept`, the weights and the heads' outputs are kept there. With `last_only`, x'
    is the last token's row alone, [1, d] (q, k and v are still every token's: the views show them).
    -> (x' [n, d], q [H, n, d_head], k, v [H_kv, n, d_head])."""
    c, b = model.config, model.blocks[layer]
    n = len(x)
    q = np.empty((c.n_heads, n, c.d_head), dtype=np.float32)
    k, v = (np.empty((c.n_kv_heads, n, c.d_head), dtype=np.float32) for _ in "kv")

    def projected(lo, hi):
        q[:, lo:hi], k[:, lo:hi], v[:, lo:hi] = project(b, c, layer, x[lo:hi], lo)
    by_rows(projected, n)
    first = n - 1 if last_only else 0
    y = joined(attention_of(q, k, v, c, layer, changes, kept, first)[:, first:])
    out = np.empty((n - first, x.shape[1]), dtype=x.dtype)

    def finished(lo, hi):
        mid = attention_out(b, c, y[lo:hi])
        mid += x[first + lo:first + hi]
        np.add(mid, mlp(b, c, mid), out=out[lo:hi])
    by_rows(finished, n - first)
    return out, q, k, v

