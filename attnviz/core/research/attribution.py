"""Direct logit attribution: how much each head and each feed-forward writes, straight into the
residual stream, towards one token's logit at the last position.

The final norm divides the stream by its size, which depends on everything written; the usual
approximation (as in TransformerLens) freezes that scale at its value on this run, s, so the
logit is a sum over what was written:

    logit(t) = s · (c(x) ⊙ g) · W_U[t] + b · W_U[t]
             = Σ_parts s · (c(part) ⊙ g) · W_U[t] + b · W_U[t]

with x = embedding + Σ_layers (Σ_heads head + attention bias + feed-forward), c centring for a
LayerNorm (GPT-2; none for RMSNorm) and b its bias. A head's part is its output through its rows
of W_o; where the model norms the attention's output before adding it (Gemma 3), that norm's
scale is frozen too. The parts then add up to the logit exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lm.blocks import joined
from ..lm.families import FAMILIES
from ..lm.run import Run
from ..lm.weights import Model, Norm, present
from .parts import head_outputs
from .tables import Tabular, grid

FROZEN_NOTE = ("the final norm's scale (and Gemma 3's norm after attention) is frozen at its value on this text: "
               "each part's share is then exact, but a part changed would change the scale too")


@dataclass(frozen=True)
class Attribution(Tabular):
    """Each part's direct contribution to `token`'s logit at the last position."""

    token: int
    heads: np.ndarray      # [layers, heads]
    mlps: np.ndarray       # [layers]
    embedding: float       # the token embedding (and GPT-2's position)
    biases: float          # attention's output biases and the final norm's bias, together
    logit: float           # the model's own logit of the token
    tokens: tuple = ()     # the tokens' labels, when known (the API and the command line give them)

    axes = ("layer", "head")

    def columns(self) -> dict[str, np.ndarray]:
        """part (head, mlp, embedding, biases), layer and head (−1 where the part has none), contribution."""
        heads = grid(self.axes, contribution=self.heads)
        n_layers, n_heads = len(self.mlps), len(heads["layer"])
        other = np.full(n_layers + 2, -1)
        return {"part": np.array(["head"] * n_heads + ["mlp"] * n_layers + ["embedding", "biases"]),
                "layer": np.concatenate([heads["layer"], np.arange(n_layers), [-1, -1]]),
                "head": np.concatenate([heads["head"], other]),
                "contribution": np.concatenate([heads["contribution"], self.mlps, [self.embedding, self.biases]])}

    @property
    def total(self) -> float:
        """The parts' sum: the logit again, up to rounding."""
        return float(self.heads.sum() + self.mlps.sum() + self.embedding + self.biases)


def head_attribution(model: Model, run: Run, token: int) -> Attribution:
    c, family = model.config, FAMILIES[model.config.family]
    last = present(run.last, "the stream after the last layer")
    direction, scale, centre = _read_out(model.out_norm, last, model.output[token], c.eps)

    def part(v):  # what a write v [..., d] adds to the logit, the final scale frozen
        return scale * (centre(np.asarray(v, dtype=np.float64)) @ direction)
    heads, mlps, biases = np.empty((c.n_layers, c.n_heads)), np.empty(c.n_layers), 0.0
    for layer in range(c.n_layers):
        b, y = model.blocks[layer], head_outputs(model, run, layer)
        writes = np.einsum("hd,hde->he", y[:, -1].astype(np.float64),
                           b.w_o.reshape(c.n_heads, c.d_head, -1).astype(np.float64))     # [H, d]
        if b.post_attn_norm is not None:  # Gemma 3: the sum of the writes is normed, its scale frozen
            writes = writes * _scale(writes.sum(axis=0), c.eps) * b.post_attn_norm.gain
        heads[layer] = part(writes)
        if b.b_o is not None:
            biases += part(b.b_o)
        mid = run.streams[layer][-1:] + family.attention_out(b, c, joined(y[:, -1:]))
        mlps[layer] = part(family.mlp(b, c, mid)[0])
    if model.out_norm.bias is not None:
        biases += float(model.out_norm.bias.astype(np.float64) @ model.output[token].astype(np.float64))
    return Attribution(token, heads, mlps, float(part(run.streams[0][-1])), biases, float(run.logits[token]))


def _read_out(norm: Norm, x: np.ndarray, unembed: np.ndarray, eps: float):
    """(g ⊙ W_U[t], the frozen scale s of x, the centring c) of the final norm."""
    centre = (lambda v: v - v.mean(axis=-1, keepdims=True)) if norm.bias is not None else (lambda v: v)
    x = np.asarray(x, dtype=np.float64)
    return norm.gain.astype(np.float64) * unembed.astype(np.float64), _scale(centre(x), eps), centre


def _scale(x: np.ndarray, eps: float) -> float:
    """1 / √(mean x² + ε): what an RMSNorm (or a LayerNorm, of x centred) multiplies x by."""
    return float(1.0 / np.sqrt(np.mean(np.square(x, dtype=np.float64)) + eps))
