"""Activation patching: which parts of the model carry what tells a clean prompt from a corrupted
one ("The Eiffel Tower is in the city of" / "The Colosseum is in the city of").

The corrupted prompt is run again with one piece taken from the clean run, and the metric is the
share of the logit difference restored (answer − against, as in Wang et al. 2022 and
TransformerLens's patching):

    restored = (patched − corrupted) / (clean − corrupted)

1 when the piece alone brings the clean answer back, 0 when it changes nothing. The pieces:

    head        a head's output (all positions), per layer × head
    position    the residual stream entering a layer, at one position, per layer × position
    attention   a layer's attention output at one position (every head's output there), per layer × position

Each patched run starts at the patched layer (the layers below are the corrupted run's), a layer's
patches together (batch.py), and a dataset's pairs of one length together too (patch_many).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..lm.run import Cancelled, Run
from ..lm.shown import ModelError
from ..lm.weights import Model, present
from ..messages import QT_TR_NOOP, cut
from ..scenario import Change, StreamPatch
from .batch import rerun_last
from .given import unwrapped
from .parts import head_outputs
from .tables import Tabular, grid, labels

BY = ("head", "position", "attention")


@dataclass(frozen=True)
class Patched(Tabular):
    """The share of the logit difference each patch restores, by layer and head or position."""

    by: str                    # one of BY
    restored: np.ndarray       # [layers, heads] (by head) or [layers, positions]
    clean: float               # logit[answer] − logit[against] on the clean prompt ...
    corrupted: float           # ... and on the corrupted one
    answer: int                # −1 for a dataset of pairs, each with its own
    against: int
    tokens: tuple = ()     # the tokens' labels, when known (the API and the command line give them)
    metric: str = "logit-diff-restored"  # or "own": the researcher's, whose value each cell holds
    pairs: int = 1             # prompt pairs averaged

    @property
    def axes(self) -> tuple[str, str]:
        return ("layer", "head" if self.by == "head" else "position")

    def columns(self) -> dict[str, np.ndarray]:
        """layer, head or position (and the clean prompt's token there), restored."""
        table = grid(self.axes, restored=self.restored)
        if self.by != "head":
            table = {"layer": table["layer"], "position": table["position"],
                     "token": labels(self.tokens, table["position"]), "restored": table["restored"]}
        return table


def logit_difference(result: Run, answer: int, against: int) -> float:
    return float(result.logits[answer]) - float(result.logits[against])


def patch(model: Model, clean: Run, corrupted: Run, answer: int, against: int, by: str = "head",
          progress=None, cancelled=None, metric=None) -> Patched:
    """Each piece of `clean` patched into `corrupted` in turn (two runs of prompts as long in
    tokens). `progress(done, total)` after each layer; `cancelled()` True stops with Cancelled.
    `metric(logits_patched, logits_clean, logits_corrupted) -> float` (the last position's logits) in place
    of the logit difference restored."""
    if by not in BY:
        raise ModelError(QT_TR_NOOP("patch by {0}: give head, position or attention"), by)
    if len(clean.ids) != len(corrupted.ids):
        raise ModelError(QT_TR_NOOP("the clean prompt is {0} tokens and the corrupted one {1}: patching needs "
                                    "prompts as long in tokens"), len(clean.ids), len(corrupted.ids))
    if metric is None:
        check_difference(clean, corrupted, answer, against)
    base, top = logit_difference(corrupted, answer, against), logit_difference(clean, answer, against)
    restored = patch_many(model, [(clean, corrupted, answer, against)], by, progress, cancelled, [metric])[0]
    return Patched(by, restored, top, base, answer, against, metric="logit-diff-restored" if metric is None else "own")


def check_difference(clean: Run, corrupted: Run, answer: int, against: int) -> None:
    """The logit difference restored needs two tokens and prompts whose logit differences differ."""
    if answer == against:
        raise ModelError(QT_TR_NOOP("the answer and the token it is measured against are the same token (#{0}): "
                                    "their logit difference is 0 in every run; give two different tokens"), answer)
    if abs(logit_difference(clean, answer, against) - logit_difference(corrupted, answer, against)) < 1e-6:
        raise ModelError(QT_TR_NOOP("the two prompts give the same logit difference: there is nothing to restore"))


def patch_many(model: Model, pairs: list[tuple], by: str = "head", progress=None, cancelled=None,
               metrics: list | None = None) -> np.ndarray:
    """[pairs, layers, heads or positions]: each pair's map (pairs of clean and corrupted runs, answer and
    against, every prompt as long in tokens), the pairs' patches rerun together, a layer at a time: one
    product per weight for them all, not one per pair. `metrics`: each pair's, or None for the logit
    difference restored (which must differ between its prompts)."""
    c, n = model.config, len(pairs[0][0].ids)
    scores = [_score(pair, metric) for pair, metric in zip(pairs, metrics or [None] * len(pairs))]
    columns = c.n_heads if by == "head" else n
    restored = np.empty((len(pairs), c.n_layers, columns))
    for layer in range(c.n_layers):
        if cancelled is not None and cancelled():
            raise Cancelled()
        bases, variants = [], Variants()
        for clean, corrupted, _, _ in pairs:
            bases += [corrupted] * columns
            variants.add(columns, _variant(model, clean, corrupted, layer, by))
        logits = rerun_last(model, bases, layer, variants)
        for i, score in enumerate(scores):
            restored[i, layer] = score(logits[i * columns:(i + 1) * columns])
        if progress is not None:
            progress(layer + 1, c.n_layers)
    return restored


def _score(pair: tuple, metric):
    """A pair's score of its patched runs' logits [B, vocab]: the share of the logit difference restored, or
    the researcher's metric."""
    clean, corrupted, answer, against = pair
    if metric is not None:
        return _scored(metric, clean.logits, corrupted.logits)
    base, top = logit_difference(corrupted, answer, against), logit_difference(clean, answer, against)
    return lambda z: (z[:, answer] - z[:, against] - base) / (top - base)


def _scored(metric, clean_logits: np.ndarray, corrupted_logits: np.ndarray):
    """The researcher's metric of each patched run's logits [B, vocab], each value checked to be a number."""
    # copies, read-only: a metric writing into what it is given (c -= c.max()) would change the runs' own
    # logits, and every patched run's score after it
    clean_logits, corrupted_logits = _read_only_copy(clean_logits), _read_only_copy(corrupted_logits)

    def score(logits: np.ndarray) -> np.ndarray:
        rows = logits.view()
        rows.flags.writeable = False
        values = [unwrapped(metric(row, clean_logits, corrupted_logits)) for row in rows]
        bad = [v for v in values if not _a_number(v)]
        if bad:
            raise ModelError(QT_TR_NOOP("metric: it gave {0}; give a function returning a finite number"),
                             cut(repr(bad[0])))
        return np.array(values, dtype=np.float64)
    return score


def _read_only_copy(array: np.ndarray) -> np.ndarray:
    copy = array.copy()
    copy.flags.writeable = False
    return copy


def _a_number(value) -> bool:
    """A real, finite number (a Python or numpy int or float; never a bool, a complex or a timedelta)."""
    if isinstance(value, (bool, np.bool_, np.timedelta64)) or not isinstance(value, (int, float, np.integer,
                                                                                     np.floating)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an int of thousands of digits
        return False


class Variants:
    """A layer's patches, each made only when its share of the rerun comes (batch.rerun_last takes them a few
    rows at a time): made all at once, patching by position made n copies of an [n, d] stream per pair, 2 GB
    for one pair of 1,000 tokens."""

    def __init__(self) -> None:
        self.makers: list[tuple] = []

    def add(self, count: int, make) -> None:
        self.makers += [(make, column) for column in range(count)]

    def __len__(self) -> int:
        return len(self.makers)

    def __getitem__(self, chosen: slice) -> list:
        return [make(column) for make, column in self.makers[chosen]]


def _variant(model: Model, clean: Run, corrupted: Run, layer: int, by: str):
    """A function making the patch of one column in `layer`: (the heads given an output, the stream given or
    None)."""
    if by == "position":
        return lambda p: ({}, _row_from(corrupted.streams[layer], clean.streams[layer], p))
    given = head_outputs(model, clean, layer)
    own = None if by == "head" else head_outputs(model, corrupted, layer)
    return lambda column: (_outputs(given, own, by, column), None)


def changes_of(model: Model, clean: Run, corrupted: Run, by: str, layer: int, column: int) -> tuple:
    """The corrupted run's changes with one patch of a head (`column`: the head) or of a layer's
    attention output (`column`: the position) made: the patch as the window shows it, live. A
    patch of the residual stream changes no head: the corrupted run's changes (see stream_patch)."""
    if by == "position":
        return corrupted.changes
    own = None if by == "head" else head_outputs(model, corrupted, layer)
    return _with(corrupted, layer, _outputs(head_outputs(model, clean, layer), own, by, column))


def stream_patch(clean: Run, by: str, layer: int, column: int) -> StreamPatch | None:
    """The residual-stream patch of one cell (by position: the clean run's stream entering `layer`
    at position `column`) as lm.run applies it, live; None for a patch of heads."""
    return StreamPatch(layer, column, clean.streams[layer][column].copy()) if by == "position" else None


def _outputs(given: np.ndarray, own: np.ndarray | None, by: str, column: int) -> dict:
    """{head: Change}: one head's output from the clean run, or every head's at one position."""
    if by == "head":
        return {column: Change(out=given[column])}
    own = present(own, "the corrupted run's outputs")
    return {h: Change(out=_row_from(own[h], given[h], column)) for h in range(len(given))}


def _row_from(into: np.ndarray, source: np.ndarray, p: int) -> np.ndarray:
    out = into.copy()
    out[p] = source[p]
    return out


def _with(corrupted: Run, layer: int, outputs: dict) -> tuple:
    """The corrupted run's changes with the heads of `layer` in `outputs` given theirs instead."""
    kept = tuple(ch for ch in corrupted.changes if not (ch[0] == layer and ch[1] in outputs))
    return tuple(sorted(kept + tuple((layer, h, ch) for h, ch in outputs.items()), key=lambda ch: ch[:2]))
