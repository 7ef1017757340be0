"""The layer from X to O (seed 002) as a flow of boxes: what each box holds, its shape, and what
flows into it; and the residual O = X + Y' of one token in two dimensions. Qt-free: the window
draws this (gui/layer/), the tests read it.

Names are written with "_" before a subscript ("W_q", "Q_{10}"); the drawing sets them as subscripts.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import MultiHeadTrace, group_size, kv_group, merge_heads, sinusoidal_positions
from .scenario import Projection

ROPE_BASE = 10000.0  # as core.attention.rope

# The guided steps (gui/steps/stages.py titles them): each head's five on one query's row, 1 (q·k) to
# 5 (· V), and the layer's own around them, numbered on from 6 in the order the layer computes them;
# the heads' five come between SPLIT and CONCAT (steps() gives the order).
ROW_STEPS = (1, 2, 3, 4, 5)
LAYER_NORM, SPLIT, CONCAT, W_O, RESIDUAL = 6, 7, 8, 9, 10
LAYER_STEPS = (LAYER_NORM, SPLIT, CONCAT, W_O, RESIDUAL)


@dataclass(frozen=True)
class Box:
    key: str          # what a click shows: "x", "w_q", "q:1" (head 1's Q_1), "weights:0", ...
    name: str         # the maths, subscripts after "_": "W_q", "Q_1", "softmax"
    shape: tuple      # (rows, columns) with the real numbers
    symbols: str      # the same shape in the seed's letters: "n × d", "n × d/h"
    stages: tuple = ()  # the guided steps that compute this box (ROW_STEPS, LAYER_STEPS)
    head: int | None = None  # the head whose attention this box is part of
    note: str = ""    # an extra line: "RoPE" on q and k when positions rotate them


@dataclass(frozen=True)
class Flow:
    columns: tuple    # tuple of tuples of Box, in the order the data flows
    arrows: tuple     # (from key, to key)
    residual: tuple   # (from key, to key): the skip connection drawn around the rest
    turns: tuple      # (from key, to key): RoPE's angles to the q and k they rotate (drawn dashed)
    sizes: dict       # n, d, h, d_head, groups


def flow(p: Projection, n: int) -> Flow:
    """Every box of the layer with its shape, in columns from X to O, and the arrows between them."""
    d, h, g = p.x.shape[1], p.n_heads, p.kv_heads
    dh = d // h
    rope = p.positions == "rope"
    columns, arrows = [], []
    source = "x"
    first = [Box("x", "X", (n, d), "n × d")]
    if p.positions == "sinusoidal":
        first.append(Box("positions", "P", (n, d), "n × d", note="sin, cos"))
        columns += [first, [Box("stream", "X + P", (n, d), "n × d")]]
        arrows += [("x", "stream"), ("positions", "stream")]
        source = "stream"
    else:
        if rope:
            first.append(Box("positions", "RoPE", (n, dh // 2), "n × d/2h", note="θ"))
        columns.append(first)
    residual_from = source
    if p.layer_norm:
        columns.append([Box("normed", "LayerNorm", (n, d), "n × d", (LAYER_NORM,))])
        arrows.append((source, "normed"))
        source = "normed"
    kv = "d × d" if g == h else "d × gd/h"
    columns.append([Box("w_q", "W_q", p.w_q.shape, "d × d"), Box("w_k", "W_k", p.w_k.shape, kv),
                    Box("w_v", "W_v", p.w_v.shape, kv)])
    nkv = "n × d" if g == h else "n × gd/h"
    columns.append([Box("q", "Q", (n, d), "n × d"), Box("k", "K", (n, g * dh), nkv),
                    Box("v", "V", (n, g * dh), nkv)])
    for m in "qkv":
        arrows += [(source, f"w_{m}"), (f"w_{m}", m)]
    turned = "RoPE" if rope else ""
    split = _split(n, dh, h, g, turned)
    columns.append(split)
    arrows += [("q", f"q:{i}") for i in range(h)]
    arrows += [(m, f"kv:{j}") for m in "kv" for j in range(g)]
    # Each head's attention, one box per guided step; head i reads K and V of its group j.
    chain = (("scores", "Q_{i}K_{j}ᵀ", "n × n", 1), ("scaled", "÷ √d_{k}", "n × n", 2),
             ("masked", "+ M", "n × n", 3), ("weights", "softmax", "n × n", 4),
             ("heads", "· V_{j} = Y_{i}", "n × d/h", 5))
    for key, name, symbols, stage in chain:
        shape = (n, dh) if key == "heads" else (n, n)
        columns.append([Box(f"{key}:{i}", _indexed(name, i, kv_group(i, h, g)[0]), shape, symbols, (stage,), i)
                        for i in range(h)])
    for i in range(h):
        arrows.append((f"q:{i}", f"scores:{i}"))
        arrows.append((f"kv:{kv_group(i, h, g)[0]}", f"scores:{i}"))
        arrows += [(f"{a}:{i}", f"{b}:{i}") for (a, *_), (b, *_) in zip(chain, chain[1:])]
    columns.append([Box("concat", "concat", (n, d), "n × d", (CONCAT,))])
    arrows += [(f"heads:{i}", "concat") for i in range(h)]
    columns.append([Box("w_o", "W_o", p.w_o.shape, "d × d", (W_O,))])
    columns.append([Box("projected", "Y′", (n, d), "n × d", (W_O,))])  # Y′ = Y W_o
    arrows += [("concat", "w_o"), ("w_o", "projected")]
    if p.residual:
        added = "+ X" if residual_from == "x" else "+ (X + P)"
        columns.append([Box("add", added, (n, d), "n × d", (RESIDUAL,))])
        arrows.append(("projected", "add"))
        columns.append([Box("output", "O", (n, d), "n × d", (RESIDUAL,))])  # O = X + Y′
        arrows.append(("add", "output"))
        residual: tuple = ((residual_from, "add"),)
    else:
        columns.append([Box("output", "O", (n, d), "n × d", (W_O,))])  # O = Y′
        arrows.append(("projected", "output"))
        residual = ()
    sizes = dict(n=n, d=d, h=h, d_head=dh, groups=g)
    turns = tuple(("positions", b.key) for b in split if rope)
    return Flow(tuple(tuple(c) for c in columns), tuple(arrows), residual, turns, sizes)


def _split(n: int, dh: int, h: int, g: int, note: str) -> list[Box]:
    """Q_i per head and K_j V_j per group, each group's box among the heads that read it (short arrows)."""
    out = []
    for j in range(g):
        heads = list(kv_group(j * (h // g), h, g)[1])
        half = (len(heads) + 1) // 2
        out += [Box(f"q:{i}", f"Q_{{{i}}}", (n, dh), "n × d/h", (SPLIT,), i, note) for i in heads[:half]]
        out.append(Box(f"kv:{j}", f"K_{{{j}}} V_{{{j}}}", (n, dh), "n × d/h", (SPLIT,), note=note))
        out += [Box(f"q:{i}", f"Q_{{{i}}}", (n, dh), "n × d/h", (SPLIT,), i, note) for i in heads[half:]]
    return out


def steps(p: Projection) -> tuple[int, ...]:
    """The layer's guided steps in the order it computes them: LayerNorm (when on), the split into
    heads, each head's five on one query's row, concat, × W_o, and + X (when the residual is on)."""
    norm = (LAYER_NORM,) if p.layer_norm else ()
    add = (RESIDUAL,) if p.residual else ()
    return (*norm, SPLIT, *ROW_STEPS, CONCAT, W_O, *add)


def lit(f: Flow, step: int | None, head: int) -> set[str]:
    """The boxes step `step` computes: a head's five light that head's boxes only (the active head's),
    the layer's own every box they compute (the split: every head's Q_i and every group's K_j V_j)."""
    return {b.key for column in f.columns for b in column
            if step in b.stages and (b.head in (None, head) or step not in ROW_STEPS)}


def _indexed(name: str, i: int, j: int) -> str:
    return name.replace("{i}", "{%d}" % i).replace("{j}", "{%d}" % j)


def group_arrows(f: Flow) -> list[tuple[str, str]]:
    """The GQA picture: one arrow from each K/V group to each head that reads it."""
    return [(a, b) for a, b in f.arrows if a.startswith("kv:") and b.startswith("scores:")]


def rope_angles(n: int, d_head: int, base: float = ROPE_BASE) -> np.ndarray:
    """[n, d_head/2] the angle (radians) RoPE turns pair i of token p by: p / base^(2i/d_head)."""
    return np.arange(n)[:, None] / base ** (np.arange(0, d_head, 2) / d_head)


def matrix(p: Projection, layer: MultiHeadTrace, key: str) -> np.ndarray:
    """The numbers of box `key` (as flow() names it) as a 2-D matrix."""
    name, _, index = key.partition(":")
    n, d = p.x.shape
    dh = d // p.n_heads
    if name == "kv":
        head = int(index) * group_size(p.n_heads, p.kv_heads)  # the first head reading group j
        return np.hstack([layer.k[head], layer.v[head]])       # [n, 2·d_head]: K_j beside V_j
    if index:
        i = int(index)
        traces = {"q": layer.q, "scores": layer.heads.scores, "scaled": layer.heads.scaled,
                  "masked": layer.heads.masked, "weights": layer.heads.weights, "heads": layer.heads.output}
        return traces[name][i]
    if name == "positions":
        return sinusoidal_positions(n, d) if p.positions == "sinusoidal" else rope_angles(n, dh)
    if name in ("x", "w_q", "w_k", "w_v", "w_o"):
        return getattr(p, name)
    if name in ("q", "k", "v"):
        stacked = getattr(layer, name)
        if name != "q":  # K and V are repeated per head under GQA; show each group once
            size = p.n_heads // p.kv_heads
            stacked = stacked[::size]
        return merge_heads(stacked)
    if name == "add":
        return layer.x  # what the residual adds
    found = {"stream": layer.x, "normed": layer.normed, "concat": layer.concat, "projected": layer.projected,
             "output": layer.output}[name]
    if found is None:  # "normed" of a layer that does not normalise first: flow() draws no such box
        raise KeyError(key)
    return found


def residual(layer: MultiHeadTrace, token: int, dims: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """(x, y′, o) of `token` in the plane of two dimensions: o = x + y′ (seed 002: Y′ added to X
    moves each token by the attention's change, without losing where it was). x is the residual
    stream (X, plus the positions when they are added)."""
    columns = list(dims)
    return layer.x[token, columns], layer.projected[token, columns], layer.output[token, columns]
