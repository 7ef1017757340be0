"""Head types found by their attention, as the literature measures them (Olsson et al. 2022;
TransformerLens's head detectors): every head's weights on a sequence of random tokens repeated
once, BOS first when the model reads one,

    ⟨BOS⟩ r_1 … r_T r_1 … r_T

scored as the mean over the queries named of the weight on the key named:

    previous    every query after the first token: the token just before it
    induction   each query in the repeat: the token after its earlier copy (i − T + 1)
    duplicate   each query in the repeat: its earlier copy (i − T)
    sink        every query after the first token: the first token
    local       every query from the third token on: itself and the two tokens before it

Each score is a share of the query's attention, from 0 to 1. Random tokens carry no meaning, so
a head that scores high on one of them does so by position and copying alone.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from ..lm.run import Cancelled, run
from ..lm.shown import ModelError, token_limit
from ..lm.weights import Model
from ..messages import QT_TR_NOOP
from . import given
from .parts import head_weights
from .tables import Tabular, grid

TYPES = ("previous", "induction", "duplicate", "sink", "local")
DEFINITIONS = {  # marked for translation: the workbench shows them
    "previous": QT_TR_NOOP("the weight on the token just before"),
    "induction": QT_TR_NOOP("in the repeat, the weight on the token after the current token's earlier copy"),
    "duplicate": QT_TR_NOOP("in the repeat, the weight on the current token's earlier copy"),
    "sink": QT_TR_NOOP("the weight on the first token"),
    "local": QT_TR_NOOP("the weight on the current token and the two before it"),
}
REPEAT = 50   # T: random tokens, each seen twice
MOST_REPEAT = 500  # the longest T asked for (the command line's --length and the API's length alike)
LEAST_REPEAT = 2   # the local score reads a token and the two before it: 2 tokens twice, with no BOS, are 4
# A head is called a type from this score on. Sink and local heads are common (most heads put some
# weight on the first token and near themselves), so only the clearest are named.
STRONG = {"previous": 0.4, "induction": 0.4, "duplicate": 0.4, "sink": 0.9, "local": 0.9}


@dataclass(frozen=True)
class HeadTypes(Tabular):
    scores: dict            # type -> [layers, heads], from 0 to 1
    ids: tuple              # the sequence measured on
    tokens: tuple = ()     # the tokens' labels, when known (the API and the command line give them)

    axes = ("layer", "head")

    def columns(self) -> dict[str, np.ndarray]:
        """layer, head, and each type's score."""
        return grid(self.axes, **{kind: self.scores[kind] for kind in TYPES})

    def strong(self) -> dict[tuple[int, int], list[str]]:
        """{(layer, head): the types it is strongly (STRONG)}, heads of no type left out."""
        found: dict = {}
        for kind in TYPES:
            for layer, head in zip(*np.nonzero(self.scores[kind] >= STRONG[kind])):
                found.setdefault((int(layer), int(head)), []).append(kind)
        return found

    def top(self, kind: str, k: int = 5) -> list[tuple[int, int, float]]:
        """The k heads scoring highest as `kind`: (layer, head, score), highest first."""
        s = self.scores[given.one_of("kind", kind, tuple(self.scores))]
        k = given.whole("k", k, 1, s.size)
        order = np.argsort(-s, axis=None, kind="stable")[:k]
        return [(int(i // s.shape[1]), int(i % s.shape[1]), float(s.flat[i])) for i in order]


def repeated_tokens(model: Model, length: int = REPEAT, seed: int = 0) -> tuple[int, ...]:
    """⟨BOS⟩ and `length` random ordinary tokens (no special ones), then the same again."""
    rng = np.random.default_rng(seed)
    tokenizer = model.tokenizer
    ordinary = [i for i in range(len(tokenizer.pieces)) if tokenizer.piece_bytes(i) is not None]
    if length > len(ordinary):  # a vocabulary mostly of control tokens
        raise ModelError(QT_TR_NOOP("length: this model has {1} ordinary tokens, too few for {0} different ones; "
                                    "give at most {1}"), length, len(ordinary))
    tokens = [int(t) for t in rng.choice(ordinary, size=length, replace=False)]
    return (() if tokenizer.bos is None else (tokenizer.bos,)) + tuple(tokens) * 2


def head_types(model: Model, length: int = REPEAT, seed: int = 0, progress=None, cancelled=None) -> HeadTypes:
    """Every head's scores; a model's own (the default sequence) worked out once a session: they
    depend on neither the text nor the edits, and the overview asks at every refresh."""
    length, seed = given.whole("length", length, LEAST_REPEAT, MOST_REPEAT), given.whole("seed", seed, 0, 2**32 - 1)
    most = (token_limit(model) - 1) // 2
    if length > most:  # a GPT-2 of 64 positions reads 31 tokens twice, not 50
        raise ModelError(QT_TR_NOOP("length: {0} random tokens read twice are more than this model reads; give at "
                                    "most {1}"), length, most)
    default = (length, seed) == (REPEAT, 0)
    if default and model in _KNOWN:
        return _KNOWN[model]
    found = _measured(model, length, seed, progress, cancelled)
    if default:
        _KNOWN[model] = found
    return found


_KNOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a model -> its HeadTypes at the defaults


def _measured(model: Model, length: int, seed: int, progress, cancelled) -> HeadTypes:
    ids = repeated_tokens(model, length, seed)
    result = run(model, ids, cancelled=cancelled)
    c = model.config
    scores = {kind: np.empty((c.n_layers, c.n_heads)) for kind in TYPES}
    first = len(ids) - 2 * length            # 1 after a BOS, else 0
    for layer in range(c.n_layers):
        if cancelled is not None and cancelled():
            raise Cancelled()
        for kind, value in scored(head_weights(model, result, layer).astype(np.float64), first, length).items():
            scores[kind][layer] = value
        if progress is not None:
            progress(layer + 1, c.n_layers)
    return HeadTypes(scores, ids)


def scored(w: np.ndarray, first: int, length: int) -> dict:
    """Each type's score of every head from its weights w [H, n, n] on the repeated sequence, whose
    random tokens start at `first`."""
    n = w.shape[-1]
    rows = np.arange(1, n)
    repeat = np.arange(first + length, n)
    local = np.arange(2, n)
    return {
        "previous": w[:, rows, rows - 1].mean(axis=-1),
        "induction": w[:, repeat, repeat - length + 1].mean(axis=-1),
        "duplicate": w[:, repeat, repeat - length].mean(axis=-1),
        "sink": w[:, rows, 0].mean(axis=-1),
        "local": (w[:, local, local] + w[:, local, local - 1] + w[:, local, local - 2]).mean(axis=-1),
    }
