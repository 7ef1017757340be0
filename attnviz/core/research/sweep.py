"""Every head in turn switched off (its output zero) or set to its mean over the prompt's positions
(mean ablation, which keeps the head's average write and removes only what depends on the
position), and the change in one token's log-probability as the next token. Each ablated run starts
at the head's own layer (the layers below are the first run's), a layer's heads together (batch.py)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lm.run import Cancelled, Run
from ..lm.weights import Model
from ..scenario import Change
from .batch import rerun_last
from .parts import head_outputs, log_prob, log_softmax
from .tables import Tabular, grid


@dataclass(frozen=True)
class Sweep(Tabular):
    token: int
    mean: bool              # mean ablation (else zero)
    logp: float             # log p(token) with every head as it is
    delta_logp: np.ndarray  # [layers, heads]: log p with the head ablated, minus logp
    tokens: tuple = ()     # the tokens' labels, when known (the API and the command line give them)
    texts: int = 1          # texts averaged over (a dataset); token is -1 when theirs differ

    axes = ("layer", "head")

    def columns(self) -> dict[str, np.ndarray]:
        """layer, head, delta_logp."""
        return grid(self.axes, delta_logp=self.delta_logp)


def ablation(model: Model, result: Run, layer: int, head: int, mean: bool) -> Change:
    """The change that ablates `head` of `layer` in `result`: off, or its output's mean over positions."""
    return _mean_of(head_outputs(model, result, layer)[head]) if mean else Change(off=True)


def _mean_of(y: np.ndarray) -> Change:
    """A head's output [n, d_head] replaced by its mean over the positions, at every position."""
    return Change(out=np.broadcast_to(y.mean(axis=0), y.shape).copy())


def sweep(model: Model, result: Run, token: int, mean: bool = False, progress=None, cancelled=None) -> Sweep:
    """Each of the layers × heads ablated in turn on `result`'s text (its changes kept)."""
    c = model.config
    base = log_prob(result, token)
    delta = np.empty((c.n_layers, c.n_heads))
    for layer in range(c.n_layers):
        if cancelled is not None and cancelled():
            raise Cancelled()
        outputs = head_outputs(model, result, layer) if mean else None
        variants = [({h: _mean_of(outputs[h]) if outputs is not None else Change(off=True)}, None)
                    for h in range(c.n_heads)]
        delta[layer] = log_softmax(rerun_last(model, result, layer, variants))[:, token] - base
        if progress is not None:
            progress(layer + 1, c.n_layers)
    return Sweep(token, mean, base, delta)
