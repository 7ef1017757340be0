"""The logit lens (nostalgebraist 2020): the residual stream after each layer read as if the
model stopped there (its final norm, then the unembedding), at every position. The last layer's
reading is the model's own prediction."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lm.run import Run
from ..lm.shown import ModelError
from ..lm.weights import Model
from ..messages import QT_TR_NOOP
from .parts import log_softmax, logits_of, residual, top_k
from .tables import Tabular, grid, labels

MAX_LENS_TOKENS = 512   # every position at every layer goes through the unembedding (262k rows for Gemma 3)
ROWS_AT_ONCE = 64       # positions unembedded together: [64, vocab] float64 is 134 MB at Gemma 3's vocabulary


@dataclass(frozen=True)
class Lens(Tabular):
    """The k likeliest tokens after each layer at each position, and one token's rank throughout."""

    ids: np.ndarray       # [layers, positions, k]: the likeliest tokens, likeliest first
    p: np.ndarray         # [layers, positions, k]: their probabilities
    token: int | None     # the token followed, or None
    rank: np.ndarray | None     # [layers, positions]: its rank (1: the likeliest), when followed
    token_p: np.ndarray | None  # [layers, positions]: its probability
    tokens: tuple = ()     # the tokens' labels, when known (the API and the command line give them)

    axes = ("layer", "position", "rank")

    def columns(self) -> dict[str, np.ndarray]:
        """layer, position, the token there, rank, the id ranked there and its p; with a token followed,
        its rank and p at that layer and position (token_rank, token_p) on each of their rows."""
        table = grid(self.axes, id=self.ids, p=self.p)
        table = {**{k: table[k] for k in ("layer", "position")}, "token": labels(self.tokens, table["position"]),
                 **{k: table[k] for k in ("rank", "id", "p")}}
        table["rank"] = table["rank"] + 1  # 1: the likeliest, as rank says everywhere
        if self.rank is not None and self.token_p is not None:
            k = self.ids.shape[-1]
            table.update(token_rank=np.repeat(self.rank.reshape(-1), k), token_p=np.repeat(self.token_p.reshape(-1), k))
        return table


def check_length(n: int) -> None:
    """Refuse, before the model runs, a text too long for the lens."""
    if n > MAX_LENS_TOKENS:
        raise ModelError(QT_TR_NOOP("the logit lens reads at most {0} tokens (every layer of every position goes "
                                    "through the unembedding); this text is {1}"), MAX_LENS_TOKENS, n)


def logit_lens(model: Model, run: Run, k: int = 5, token: int | None = None) -> Lens:
    """The lens over every layer and position of `run`; with `token`, its rank and probability too."""
    n, n_layers = len(run.ids), model.config.n_layers
    check_length(n)
    k = min(k, len(model.output))
    ids, p = np.empty((n_layers, n, k), dtype=np.int64), np.empty((n_layers, n, k))
    rank, token_p = np.empty((n_layers, n)), np.empty((n_layers, n))  # filled when a token is asked for
    for layer in range(n_layers):
        x = residual(model, run, layer + 1)  # after `layer`
        for lo in range(0, n, ROWS_AT_ONCE):
            logp = log_softmax(logits_of(model, x[lo:lo + ROWS_AT_ONCE]))   # [m, vocab]
            best = top_k(logp, k)
            ids[layer, lo:lo + ROWS_AT_ONCE] = best
            p[layer, lo:lo + ROWS_AT_ONCE] = np.exp(np.take_along_axis(logp, best, axis=-1))
            if token is not None:
                mine = logp[:, token:token + 1]
                rank[layer, lo:lo + ROWS_AT_ONCE] = (logp > mine).sum(axis=-1) + 1
                token_p[layer, lo:lo + ROWS_AT_ONCE] = np.exp(mine[:, 0])
    if token is None:
        return Lens(ids, p, None, None, None)
    return Lens(ids, p, token, rank.astype(np.int64), token_p)
