"""A model run forward over token ids, layer by layer, by its family's block; every layer's input
and the model's own q, k, v kept, so AttnViz can show any head. A changed head (new q, k or v, or
switched off) reruns only the layers from its own on.

The pass runs in float32 (see blocks.py), with every core BLAS may use (blas.model_threads): a
model's products are large enough to share, a toy scenario's edits are not. Per layer it keeps
what the views need and no more: the residual stream entering it [n, d], q [H, n, d_head] and k, v
[H_kv, n, d_head] (a K/V head once, not once per head reading it), float32; a head's weights are
recomputed from them when a view asks.
"""
from __future__ import annotations

import contextlib
import weakref
from dataclasses import dataclass, field

import numpy as np

from ..attention import group_size
from ..blas import model_threads
from ..messages import QT_TR_NOOP
from ..scenario import CHANGED, Change, Steer, StreamPatch, same_patch, same_steer
from .allocator import keep_freed
from .blocks import Kept, shared_out
from .families import FAMILIES
from .hooks import Trace, traced_pass
from .weights import Model, ModelError, Overflow


class Cancelled(Exception):
    """Long work stopped at a checkpoint because the user asked (or the window closed)."""


@dataclass(frozen=True, eq=False)
class Run:
    """One forward pass: every layer's input and the model's own q, k, v; the next-token distribution."""

    ids: tuple[int, ...]
    changes: tuple                 # ((layer, head, Change), ...) sorted: what this run applied
    streams: tuple                 # [n, d] float32: the residual stream entering each layer
    q: tuple                       # [n_heads, n, d_head] float32 per layer, after RoPE, the model's own
    k: tuple                       # [n_kv_heads, n, d_head]: each K/V head once
    v: tuple
    probs: np.ndarray              # [vocab] float64: the next token's distribution
    logits: np.ndarray             # [vocab] float32
    computed: tuple = field(default=())  # the layers this run computed itself (the rest were reused)
    last: np.ndarray | None = None       # [d] float32: the residual stream after the last layer, last token
    patch: StreamPatch | None = None     # the residual stream this run was given at one position
    cache: dict = field(default_factory=dict)  # hook point name -> its array, what the run was asked to keep
    steer: Steer | None = None           # the direction this run added to the residual stream

    def matrix(self, layer: int, m: str, head: int) -> np.ndarray:
        """Head `head`'s q, k or v in `layer` as attention used it: the user's edit when there is
        one, else the model's own (a K/V group's shared k and v for each head reading it)."""
        change = next((c for lay, h, c in self.changes if (lay, h) == (layer, head)), None)
        if change is not None and getattr(change, m) is not None:
            return getattr(change, m)
        own = getattr(self, m)[layer]
        return own[head // group_size(len(self.q[layer]), len(own))]

    def per_head(self, layer: int, m: str) -> np.ndarray:
        """Every head's q, k or v in `layer` as attention used it: [n_heads, n, d_head]."""
        return np.stack([self.matrix(layer, m, h) for h in range(len(self.q[layer]))])


def pass_bytes(c, n: int, weights: bool = False) -> int:
    """What a pass over n tokens holds at its fullest: every layer's kept stream, q, k and v, one
    layer's feed-forward (its gate, up and product, [n, d_ff] each) and, with `weights`, the weights
    of the layer a window shows first [H, n, n]; float32."""
    kept = c.n_layers * n * (c.d + (c.n_heads + 2 * c.n_kv_heads) * c.d_head)
    return 4 * (kept + 3 * n * c.d_ff + (c.n_heads * n * n if weights else 0))


def run(model: Model, ids, changes=(), after: Run | None = None, cancelled=None, shown=None, first: int = 0,
        patch: StreamPatch | None = None, keep: frozenset[str] = frozenset(), writes: dict | None = None,
        steer: Steer | None = None, progress=None) -> Run:
    """The forward pass over `ids` with `changes` applied. With `after` (a run of the same ids),
    layers below the lowest one whose changes differ are taken from it, not computed again.
    `cancelled()`, when given, is asked before each layer: True stops with Cancelled.
    `shown(layer, q, k, v, kept)`, when given, is told layer `first` as soon as it is computed,
    with its attention weights and heads' outputs (kept): a window shows that layer before the
    rest of the pass is done, without working out its weights again. `patch` puts its x in
    place of the residual stream entering its layer at its position (a patch from another run). `keep`:
    the hook points (hooks.py) whose arrays the run keeps in its cache; `writes`: hook point -> fn(array,
    cache) -> the array the pass goes on with. Their layers are worked out whole by hooks.traced_pass.
    `steer` adds its direction to the stream entering its layer (the window's Steer panel). `progress(done,
    total)`, when given, is told each layer done (a compact 1B model's pass takes seconds)."""
    ids = tuple(int(i) for i in ids)
    changes = tuple(sorted(changes, key=lambda c: (c[0], c[1])))
    c = model.config
    if patch is not None and not (0 <= patch.layer < c.n_layers and 0 <= patch.position < len(ids)
                                  and np.shape(patch.x) == (c.d,)):
        raise ValueError(f"a patch of the stream entering layer {patch.layer} at position {patch.position} "
                         f"(shape {np.shape(patch.x)}): the model has {c.n_layers} layers of width {c.d}, "
                         f"the text {len(ids)} tokens")
    _check_steer(steer, c, len(ids))
    family = FAMILIES[c.family]
    by_layer = changes_by_layer(changes)
    trace = Trace(c, keep, writes)
    start = _first_difference(after, ids, by_layer, c.n_layers, patch, steer) if after is not None else 0
    start = min(start, trace.first)
    if after is not None and start == c.n_layers:  # the same ids, changes and patch: nothing to compute again
        return after
    streams, qs, ks, vs = (list(getattr(after, f)[:start]) if start else [] for f in ("streams", "q", "k", "v"))
    keep_freed(pass_bytes(c, len(ids), weights=shown is not None))
    with model_threads(shared_out(len(ids))), _overflow_named(model):
        x = after.streams[start] if after is not None and start else family.embed(model, ids).astype(np.float32)
        if start == 0:
            x = trace.at(None, "embed", x)                                                            # [n, d]
        for index in range(start, c.n_layers):
            if cancelled is not None and cancelled():
                raise Cancelled()
            if patch is not None and index == patch.layer:
                x = x.copy()
                x[patch.position] = patch.x
            if steer is not None and index == steer.layer:
                x = steer.applied(x)
            streams.append(x)
            kept = Kept() if shown is not None and index == first else None
            x, q, k, v = _block(model, index, x, by_layer.get(index, {}), kept, trace)
            x = x.astype(np.float32, copy=False)
            qs.append(q)
            ks.append(k)
            vs.append(v)
            if kept is not None:
                shown(index, q, k, v, kept)
            if progress is not None:
                progress(index + 1, c.n_layers)
        every = trace.final(model, x)                              # [n, vocab], when asked for
        normed = model.out_norm(x[-1:], c.eps)                     # [1, d]
        logits = model.unembed(normed)[0].astype(np.float32) if every is None else every[-1].astype(np.float32)
    return Run(ids, changes, tuple(streams), tuple(qs), tuple(ks), tuple(vs), _probabilities(model, logits), logits,
               tuple(range(start, c.n_layers)), x[-1], patch, trace.cache, steer)


@contextlib.contextmanager
def _overflow_named(model: Model):
    """A norm whose Σ x² overflows (weights each finite, their products not) refused naming the file: the
    norm would have made the stream 0 and every probability after it the same, shown as a result."""
    try:
        yield
    except Overflow:
        raise ModelError(QT_TR_NOOP("{0}: the model's numbers grow past float32's range (a norm's sum of squares "
                                    "is infinite): the file is damaged or not a model"), model.path) from None


def _probabilities(model: Model, logits: np.ndarray) -> np.ndarray:
    """softmax(logits) in float64, refused naming the file when it is not numbers (a model's weights may each
    be finite and their products still overflow: a damaged file, which no workbench tool may show as a result)."""
    z = logits.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        probs = np.exp(z - z.max())
        probs /= probs.sum()
    if not np.isfinite(probs).all():
        raise ModelError(QT_TR_NOOP("{0}: the model's next-token probabilities are not numbers (NaN or infinity): "
                                    "the file is damaged or not a model"), model.path)
    return probs


def _block(model: Model, layer: int, x: np.ndarray, changes: dict, kept, trace: Trace):
    """One layer: worked out whole when `trace` keeps any of its points, else by its family's block, the
    last layer's output at the last token only (all the prediction needs; final_stream: the rest)."""
    family = FAMILIES[model.config.family]
    if layer in trace.layers:
        return traced_pass(model, layer, x, changes, family, trace)
    last_only = layer == model.config.n_layers - 1 and kept is None
    return family.block(model, layer, x, changes, kept, last_only)


_finals: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def final_stream(model: Model, result: Run) -> np.ndarray:
    """[n, d] float32: the residual stream after the last layer at every token. A pass works out
    the last token's alone (all its prediction needs); the rest, which the logit lens and a
    continuation read, is the last layer worked out again when first asked (a thirtieth of a pass)."""
    if result not in _finals:
        layer = model.config.n_layers - 1
        with model_threads(shared_out(len(result.ids))):
            x, *_ = FAMILIES[model.config.family].block(model, layer, result.streams[layer],
                                                         changes_by_layer(result.changes).get(layer, {}))
        _finals[result] = x.astype(np.float32, copy=False)
    return _finals[result]


def changes_by_layer(changes) -> dict[int, dict[int, Change]]:
    out: dict[int, dict[int, Change]] = {}
    for layer, head, change in changes:
        out.setdefault(layer, {})[head] = change
    return out


def _first_difference(after: Run, ids, by_layer, n_layers: int, patch: StreamPatch | None,
                      steer: Steer | None = None) -> int:
    """The lowest layer whose input or changes are not `after`'s (n_layers when none is)."""
    if after.ids != ids:
        return 0
    before = changes_by_layer(after.changes)
    first = next((layer for layer in range(n_layers)
                  if not _same_changes(before.get(layer, {}), by_layer.get(layer, {}))), n_layers)
    if not same_patch(after.patch, patch):
        first = min(first, _first_written(after.patch, patch))
    if not same_steer(after.steer, steer):
        first = min(first, _first_written(after.steer, steer))
    return first


def _first_written(old: StreamPatch | Steer | None, new: StreamPatch | Steer | None) -> int:
    """The first layer to compute again when a patch or a steer of the stream changes from `old` to `new`."""
    first = new.layer if new is not None else 1 << 30
    if old is not None:  # `after` kept the stream entering old's layer as written, not its own
        first = min(first, max(0, old.layer - 1))
    return first


def _check_steer(steer: Steer | None, c, n: int) -> None:
    if steer is not None and not (0 <= steer.layer < c.n_layers and np.shape(steer.direction) == (c.d,)
                                  and 0 <= steer.start < (n if steer.stop is None else steer.stop) <= n):
        last = n - 1 if steer.stop is None else steer.stop - 1
        raise ValueError(f"a steer of the stream entering layer {steer.layer} at positions {steer.start} to "
                         f"{last} (shape {np.shape(steer.direction)}): the model has {c.n_layers} layers of "
                         f"width {c.d}, the text {n} tokens")


def _same_changes(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    return all(x.off == y.off and all(_same(getattr(x, m), getattr(y, m)) for m in CHANGED)
               for x, y in ((a[h], b[h]) for h in a))


def _same(a, b) -> bool:
    return a is b or (a is not None and b is not None and a.shape == b.shape and np.array_equal(a, b))


def same_edits(a, b) -> bool:
    """Two runs (or a run and a live scenario's Live) have the same changes, patch and steer."""
    return same_changes(a.changes, b.changes) and same_patch(a.patch, b.patch) and same_steer(a.steer, b.steer)


def same_changes(a, b) -> bool:
    """Two runs' changes are the same edits, layer by layer."""
    x, y = changes_by_layer(a), changes_by_layer(b)
    return all(_same_changes(x.get(layer, {}), y.get(layer, {})) for layer in set(x) | set(y))
