"""What the user looks at and edits: tokens, heads (q, k, v), settings, an optional projection.

A Scenario is immutable: every edit returns a new, validated Scenario, so undo can
keep old ones and no view can change what another view reads.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import masks
from .attention import POSITIONS, project_heads
from .masks import MaskSpec
from .messages import QT_TR_NOOP, AttnVizError, Phrase
from .numbers import MAX_ABS, RANGE_TEXT
from .text import code_point, first_control, looks_empty

MATRICES = ("q", "k", "v")
MAX_TOKENS = 4096     # a model's weights of a long input; q, k and v stay within MAX_CELLS
MAX_TOKEN_LENGTH = 40
MAX_HEADS = 64
MAX_DIM = 1024
MAX_CELLS = 2 ** 24  # heads × tokens²: keeps every weight matrix of a scenario within ~128 MB
# A real model's layer (core/lm), whose heads are computed lean (compute.LEAN_CELLS: the weights
# alone, float32): 9 heads × 4,096² in 600 MB.
MAX_LIVE_CELLS = 2 ** 28
# A model's weights, shown but not computed on, kept as the file stored them (float32: 256 MB):
# 4 heads × 4096², 16 heads × 2048², 64 heads × 1024². Their trace adds one array of logs.
MAX_GIVEN_CELLS = 2 ** 26
MAX_VALUES = 2 ** 24  # every number a scenario holds (q, k, v, X, W): at most 128 MB as float64
MAX_LAYERS = 256     # a model's layers (the largest public models have about 130)
MAX_NAME_LENGTH = 200  # head names
MAX_LABEL_LENGTH = 40  # dimension labels (動物, 食べ物), as long as a token at most
MAX_TEXT_LENGTH = 10_000  # a title, description or note, in each language
TEXT_FIELDS = {"title": Phrase(QT_TR_NOOP("title")), "description": Phrase(QT_TR_NOOP("description")),
               "note": Phrase(QT_TR_NOOP("note"))}  # as messages name them
MAX_LANGUAGES = 8      # the languages a text or name is given in
# With these, everything a scenario holds besides its numbers fits a saved file's header:
# names, labels and texts cannot make a scenario that opens but cannot be saved again.
TEMPERATURE_RANGE = (0.01, 100.0)


class ScenarioError(AttnVizError):
    """A scenario that cannot be shown; the message says what is wrong and where."""


@dataclass(frozen=True, eq=False)
class Head:
    name: str
    q: np.ndarray  # [n, d_k]
    k: np.ndarray  # [n, d_k]
    v: np.ndarray  # [n, d_v]
    labels: tuple[str, ...] = ()    # names of the d_k dimensions (動物, 食べ物, ...), or ()
    v_labels: tuple[str, ...] = ()  # names of the d_v dimensions, or ()
    names: dict = field(default_factory=dict)  # the name in other languages: {"en": "semantic head"}

    def title(self, lang: str) -> str:
        """The name to show in the interface's language."""
        return self.names.get(lang) or self.name

    @property
    def d_k(self) -> int:
        return self.q.shape[1]

    def matrix(self, name: str) -> np.ndarray:
        return {"q": self.q, "k": self.k, "v": self.v}[name]

    def dim_labels(self, name: str) -> tuple[str, ...]:
        """Column labels of q, k or v; v borrows the q/k labels when it has the same width."""
        width = self.matrix(name).shape[1]
        own = self.v_labels if name == "v" else self.labels
        if name == "v" and not own and len(self.labels) == width:
            own = self.labels
        return own if len(own) == width else tuple(str(c) for c in range(width))


@dataclass(frozen=True)
class Settings:
    causal: bool = True     # hide the future: M = −inf above the diagonal
    scale: bool = True      # divide the scores by √d_k
    temperature: float = 1.0  # the tutorial's "scale strength": a further divisor
    mask: MaskSpec | None = None  # another mask (window, prefix-LM, padding, painted) instead of causal

    @property
    def mask_kind(self) -> str:
        return self.mask.kind if self.mask is not None else ("causal" if self.causal else "none")

    def additive_mask(self, n: int):
        """The M added to the scores, or None when the causal flag alone decides."""
        return masks.additive(self.mask, n) if self.mask is not None else None


@dataclass(frozen=True, eq=False)
class Projection:
    """The whole layer of seed 002: Q = X W_q, ..., O = X + concat(heads) W_o."""

    x: np.ndarray    # [n, d]
    w_q: np.ndarray  # [d, d]
    w_k: np.ndarray  # [d, n_kv_heads · d / n_heads]
    w_v: np.ndarray  # [d, n_kv_heads · d / n_heads]
    w_o: np.ndarray  # [d, d]
    n_heads: int
    n_kv_heads: int | None = None
    residual: bool = True
    layer_norm: bool = False   # LayerNorm(X) before the projections (the residual adds X itself)
    positions: str = "none"    # "none", "sinusoidal" (added to X) or "rope" (rotating q and k)

    @property
    def kv_heads(self) -> int:
        return self.n_heads if self.n_kv_heads is None else self.n_kv_heads


PROJECTION_MATRICES = ("x", "w_q", "w_k", "w_v", "w_o")  # what the user edits; the heads follow


@dataclass(frozen=True)
class Change:
    """What the user did to one head of one layer of a live model: new q, k, v, its output off,
    or its output given (`out`: another run's, patched in; or its mean over the positions)."""

    q: np.ndarray | None = None   # [n, d_head], or None: the model's own
    k: np.ndarray | None = None
    v: np.ndarray | None = None
    off: bool = False
    out: np.ndarray | None = None  # [n, d_head]: the head's output, in place of softmax(q kᵀ/√d + M) v


CHANGED = (*MATRICES, "out")  # what a Change may give in place of the model's own


@dataclass(frozen=True, eq=False)
class StreamPatch:
    """The residual stream entering `layer`, at token `position`, given in place of the model's
    own (another run's, patched in): a change to no head, which the layers from `layer` on read."""

    layer: int
    position: int
    x: np.ndarray  # [d] float32


def same_patch(a: StreamPatch | None, b: StreamPatch | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.layer, a.position) == (b.layer, b.position) and (a.x is b.x or np.array_equal(a.x, b.x))


@dataclass(frozen=True, eq=False)
class Steer:
    """α · direction added to the residual stream entering `layer` at positions start to stop − 1
    (activation addition, Turner et al. 2023): the model steered towards what the direction means."""

    layer: int
    direction: np.ndarray  # [d] float32
    alpha: float
    start: int = 0
    stop: int | None = None  # None: to the last token

    def __post_init__(self) -> None:
        """What is added is something (a direction that float32 rounds to 0 adds nothing) and within what an
        edit may hold: past it, the norms of the layers above overflow into a flat prediction."""
        size = float(np.abs(self.direction).max(initial=0.0))
        if size == 0:
            raise ScenarioError(QT_TR_NOOP("the steer's direction is 0: there is nothing to add"))
        if abs(self.alpha) * size > MAX_ABS:
            raise ScenarioError(QT_TR_NOOP("the steer adds α × the direction, up to {0:,.7g} to a number; it must stay "
                                           "{1}"), abs(self.alpha) * size, RANGE_TEXT)

    def applied(self, x: np.ndarray) -> np.ndarray:
        """x [n, d] steered, a new array (the stream given is the previous layer's output, kept)."""
        x = x.copy()
        x[self.start:self.stop] += np.float32(self.alpha) * self.direction
        return x


def same_steer(a: Steer | None, b: Steer | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.layer, a.alpha, a.start, a.stop) == (b.layer, b.alpha, b.start, b.stop) and \
        (a.direction is b.direction or np.array_equal(a.direction, b.direction))


@dataclass(frozen=True, eq=False)
class Live:
    """The scenario is one layer of a real model's forward pass (core/lm/): editing a head
    changes the model, which runs again from that layer and predicts anew."""

    model: object              # the loaded model, shared by every scenario made from it
    text: str                  # what the model read ...
    ids: tuple[int, ...]       # ... as token ids
    layer: int                 # the layer shown
    changes: tuple = ()        # ((layer, head, Change), ...), sorted: every head changed so far
    chat: bool = False         # the text was read in the model's chat template
    patch: StreamPatch | None = None  # the residual stream patched at one position, if it is
    steer: Steer | None = None        # a direction added to the residual stream, if one is

    def change(self, layer: int, head: int) -> Change | None:
        return next((c for lay, h, c in self.changes if (lay, h) == (layer, head)), None)

    def with_change(self, head: int, **fields) -> "Live":
        """Head `head` of the shown layer changed in `fields` (q, k, v or off)."""
        new = dataclasses.replace(self.change(self.layer, head) or Change(), **fields)
        kept = tuple(c for c in self.changes if (c[0], c[1]) != (self.layer, head))
        if not new.off and all(getattr(new, m) is None for m in CHANGED):  # back to the model's own
            return dataclasses.replace(self, changes=kept)
        return dataclasses.replace(self, changes=tuple(sorted(kept + ((self.layer, head, new),),
                                                              key=lambda c: (c[0], c[1]))))


@dataclass(frozen=True, eq=False)
class Scenario:
    tokens: tuple[str, ...]
    heads: tuple[Head, ...]
    settings: Settings = field(default_factory=Settings)
    projection: Projection | None = None
    title: dict = field(default_factory=dict)        # language -> text
    description: dict = field(default_factory=dict)  # language -> text
    # A model's attention loaded as weights only ([heads, n, n], no q, k, v): shown as they are.
    given: np.ndarray | None = None
    layer: tuple[int, int] | None = None  # (this layer, of how many) when loaded from a model's file
    note: dict = field(default_factory=dict)  # language -> a word about the numbers, under the step table
    focus: int | None = None  # the query the scenario's story is about (それ, 彼女, はし): selected at start
    live: Live | None = None  # one layer of a real model's run, which its edits change

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def weights_only(self) -> bool:
        return self.given is not None

    def text(self, which: str, lang: str = "en") -> str:
        """The title or description in `lang`, else in any language it has."""
        texts = getattr(self, which)
        return texts.get(lang) or next(iter(texts.values()), "")


# ---------------------------------------------------------------- construction

def make_head(name, q, k, v, labels=(), v_labels=(), names=None) -> Head:
    return Head(str(name), _frozen(q), _frozen(k), _frozen(v), tuple(labels), tuple(v_labels),
                dict(names or {}))


def make_scenario(tokens, heads, settings=None, projection=None, title=None, description=None,
                  given=None, layer=None, note=None, focus=None, live=None) -> Scenario:
    """Build and validate a Scenario; raises ScenarioError naming what is wrong."""
    scenario = Scenario(tuple(tokens), tuple(heads), settings or Settings(), projection,
                        _texts(title), _texts(description), None if given is None else _frozen_weights(given), layer,
                        _texts(note), focus, live)
    validate(scenario)
    return scenario


def head_names(names, n_heads: int) -> list[str]:
    """The given names, then "head i" for every head without one."""
    return list(names) + [f"head {i}" for i in range(len(names), n_heads)]


def weights_only_heads(n_heads: int, n: int, names=()) -> tuple[Head, ...]:
    """Heads for weights loaded without q, k, v: no dimensions, only a name."""
    names = head_names(names, n_heads)
    empty = np.zeros((n, 0))
    return tuple(make_head(names[i], empty, empty, empty) for i in range(n_heads))


def derive_heads(projection: Projection, names=(), labels=()) -> tuple[Head, ...]:
    """The heads' q, k, v as the projection computes them (K/V repeated per GQA group).

    `labels` holds one tuple of dimension labels per head (missing ones: none)."""
    p = projection
    _, _, q, k, v = project_heads(p.x, p.w_q, p.w_k, p.w_v, p.n_heads, p.kv_heads, p.layer_norm, p.positions)
    names = head_names(names, p.n_heads)
    labels = list(labels) + [()] * (p.n_heads - len(labels))
    return tuple(make_head(names[i], q[i], k[i], v[i], labels[i]) for i in range(p.n_heads))


def _frozen(a) -> np.ndarray:
    array = np.array(a, dtype=float)
    array.setflags(write=False)
    return array


def _frozen_weights(w) -> np.ndarray:
    """A model's weights as stored: float32 stays float32 (half the memory at 2,048 tokens, and
    more digits than any view shows), everything else becomes float64."""
    w = np.asarray(w)
    dtype = np.float32 if w.dtype in (np.float32, np.float16) else np.float64
    if w.dtype == dtype and not w.flags.writeable:
        return w  # frozen already by its maker (a layer just read): kept, not copied (12 MB at 512×12)
    array = np.array(w, dtype=dtype)
    array.setflags(write=False)
    return array


def _texts(value) -> dict:
    if value is None:
        return {}
    return dict(value) if isinstance(value, dict) else {"en": str(value), "ja": str(value)}


# ---------------------------------------------------------------- validation

def validate(s: Scenario) -> None:
    _check_tokens(s.tokens)
    _check_size(s)
    for index, head in enumerate(s.heads):
        _check_head(index, head, s.tokens, s.weights_only)
    if s.given is not None:
        _check_given(s, s.given)
    _check_texts(s)
    _check_settings(s.settings, s.tokens)
    if s.projection is not None:
        check_projection(s.projection, s.tokens, len(s.heads))
    if s.focus is not None and not (isinstance(s.focus, int) and not isinstance(s.focus, bool)
                                    and 0 <= s.focus < s.n):
        raise ScenarioError(QT_TR_NOOP("the story's query {0!r} is not a token position (0 to {1})"),
                            s.focus, s.n - 1)


def _check_size(s: Scenario) -> None:
    """Heads, cells and numbers within what AttnViz shows, before any of them is looked at."""
    if not s.heads:
        raise ScenarioError(QT_TR_NOOP("the scenario has no heads: add at least one head with q, k and v"))
    if len(s.heads) > MAX_HEADS:
        raise ScenarioError(QT_TR_NOOP("{0} heads is more than the {1} AttnViz shows"), len(s.heads), MAX_HEADS)
    cells = MAX_GIVEN_CELLS if s.weights_only else MAX_LIVE_CELLS if s.live is not None else MAX_CELLS
    if len(s.heads) * s.n ** 2 > cells:
        raise ScenarioError(QT_TR_NOOP("{0} heads of {1} tokens is too large to show (heads × tokens² must be at "
                                       "most {2:,})"), len(s.heads), s.n, cells)
    if count_values(s, given=False) > MAX_VALUES:
        raise ScenarioError(QT_TR_NOOP("the scenario holds {0:,} numbers; the most is {1:,}"),
                            count_values(s, given=False), MAX_VALUES)


def _check_texts(s: Scenario) -> None:
    """The title, description and note: few languages, each text short and free of control characters."""
    for attribute, which in TEXT_FIELDS.items():
        texts = getattr(s, attribute)
        if len(texts) > MAX_LANGUAGES or any(not isinstance(k, str) or len(k) > 16 for k in texts):
            raise ScenarioError(QT_TR_NOOP("the {0} is given in {1} languages; the most is {2}"),
                                which, len(texts), MAX_LANGUAGES)
        for text in texts.values():
            if len(text) > MAX_TEXT_LENGTH:  # before its characters are looked at one by one
                raise ScenarioError(QT_TR_NOOP("the {0} is {1:,} characters long; the most is {2:,}"),
                                    which, len(text), MAX_TEXT_LENGTH)
            _check_text(which, text, multiline=attribute != "title")


def _check_tokens(tokens) -> None:
    if not tokens:
        raise ScenarioError(QT_TR_NOOP("there are no tokens: a scenario needs at least one"))
    if len(tokens) > MAX_TOKENS:
        raise ScenarioError(QT_TR_NOOP("{0} tokens is more than the {1} AttnViz shows"), len(tokens), MAX_TOKENS)
    for i, token in enumerate(tokens):
        _check_token(i, token)


def _check_token(i: int, token) -> None:
    if not isinstance(token, str) or looks_empty(token):  # zero-width and filler characters too
        raise ScenarioError(QT_TR_NOOP("token {0} is empty: every token needs a name"), i + 1)
    if len(token) > MAX_TOKEN_LENGTH:
        raise ScenarioError(QT_TR_NOOP("token {0} is {1} characters long; the most is {2}"),
                            i + 1, len(token), MAX_TOKEN_LENGTH)
    _check_text(Phrase(QT_TR_NOOP("token {0}"), i + 1), token)


def _check_text(where: str | Phrase, text, multiline: bool = False) -> None:
    """Text must be a string that can be saved and shown: no lone surrogates (from a JSON
    \\ud800) and no control characters (they would split a CSV row, break an SVG or reach a
    terminal); a description may hold line breaks and tabs."""
    try:
        text.encode("utf-8")
    except (AttributeError, UnicodeEncodeError):
        raise ScenarioError(QT_TR_NOOP("{0}: {1!r} is not valid text"), where, text) from None
    bad = first_control(text.replace("\n", "").replace("\t", "") if multiline else text)
    if bad is not None:
        raise ScenarioError(QT_TR_NOOP("{0} contains a control character ({1}), which AttnViz does not accept"),
                            where, code_point(bad))


def _check_given(s: Scenario, w: np.ndarray) -> None:
    """Loaded weights `w`: one n × n matrix per head, each row a distribution."""
    if w.shape != (len(s.heads), s.n, s.n):
        raise ScenarioError(QT_TR_NOOP("weights have shape {0}; with {1} heads of {2} tokens they must be {3}"),
                            _shape(w), len(s.heads), s.n, _shape((len(s.heads), s.n, s.n)))
    if not np.all(np.isfinite(w)) or w.min() < 0 or w.max() > 1:
        raise ScenarioError(QT_TR_NOOP("weights must be finite numbers from 0 to 1"))
    sums = w.sum(axis=-1)
    bad = np.argwhere(np.abs(sums - 1) > 1e-3)
    if bad.size:
        h, row = bad[0]
        if s.layer is not None:  # one layer of a model's file: which one
            raise ScenarioError(QT_TR_NOOP("layer {0}, head {1}, row {2} ({3}): the weights add up to {4:.4f}, not 1"),
                                s.layer[0], h, row + 1, s.tokens[row], sums[h, row])
        raise ScenarioError(QT_TR_NOOP("head {0}, row {1} ({2}): the weights add up to {3:.4f}, not 1"),
                            h, row + 1, s.tokens[row], sums[h, row])


def _check_head(index: int, head: Head, tokens, weights_only: bool = False) -> None:
    _check_head_texts(Phrase(QT_TR_NOOP("head {0}"), index), head)
    where = Phrase(QT_TR_NOOP("head {0} ({1})"), index, head.name)
    d = {name: _checked_width(where, name, head.matrix(name), tokens, weights_only) for name in MATRICES}
    if d["q"] != d["k"]:
        raise ScenarioError(QT_TR_NOOP("{0}: q has {1} columns and k has {2}; q·k needs the same d_k for both"),
                            where, d['q'], d['k'])
    for name, labels, width in (("labels", head.labels, d["q"]), ("v_labels", head.v_labels, d["v"])):
        if labels and len(labels) != width:
            raise ScenarioError(QT_TR_NOOP("{0}: {1} {2} for {3} dimensions"), where, len(labels), name, width)


def _check_head_texts(where: Phrase, head: Head) -> None:
    """A head's names (one per language) and its dimensions' labels."""
    if len(head.names) > MAX_LANGUAGES:
        raise ScenarioError(QT_TR_NOOP("{0}: names in {1} languages; the most is {2}"),
                            where, len(head.names), MAX_LANGUAGES)
    for text in (head.name, *head.names.values()):
        if isinstance(text, str) and len(text) > MAX_NAME_LENGTH:
            raise ScenarioError(QT_TR_NOOP("{0}: a name of {1} characters; the most is {2}"),
                                where, len(text), MAX_NAME_LENGTH)
        _check_text(where, text)
    for text in (*head.labels, *head.v_labels):
        if isinstance(text, str) and len(text) > MAX_LABEL_LENGTH:
            raise ScenarioError(QT_TR_NOOP("{0}: a dimension label of {1} characters; the most is {2}"),
                                where, len(text), MAX_LABEL_LENGTH)
        _check_text(where, text)


def _checked_width(where: Phrase, name: str, m: np.ndarray, tokens, weights_only: bool) -> int:
    """The width of q, k or v: a row per token, 1 to MAX_DIM columns, every value usable."""
    if m.ndim != 2 or m.shape[0] != len(tokens):
        raise ScenarioError(QT_TR_NOOP("{0}: {1} has shape {2} but there are {3} tokens, so it needs {4} rows"),
                            where, name, _shape(m), len(tokens), len(tokens))
    if not (0 if weights_only else 1) <= m.shape[1] <= MAX_DIM:
        raise ScenarioError(QT_TR_NOOP("{0}: {1} has {2} columns; it needs 1 to {3}"),
                            where, name, m.shape[1], MAX_DIM)
    _check_finite(Phrase(QT_TR_NOOP("{0}: {1}"), where, name), m, tokens)
    return m.shape[1]


def _check_finite(where: str | Phrase, m: np.ndarray, tokens=None) -> None:
    bad = np.argwhere(~(np.abs(m) <= MAX_ABS))  # NaN fails every comparison
    if bad.size:
        row, col = bad[0]
        token = Phrase(QT_TR_NOOP(" ({0})"), tokens[row]) if tokens is not None and row < len(tokens) else ""
        raise ScenarioError(QT_TR_NOOP("{0}, row {1}{2}, column {3}: {4} is not a usable number (values must be "
                                       "finite and lie {5})"),
                            where, row + 1, token, col + 1, float(m[row, col]), RANGE_TEXT)


def _check_settings(settings: Settings, tokens) -> None:
    if settings.mask is not None:
        trouble = masks.problem(settings.mask, tokens)
        if trouble:
            raise ScenarioError(trouble[0], *trouble[1])
    low, high = TEMPERATURE_RANGE
    t = settings.temperature
    if not (isinstance(t, (int, float)) and low <= t <= high):
        raise ScenarioError(QT_TR_NOOP("temperature {0} is outside {1} to {2}"), repr(t), f"{low:g}", f"{high:g}")


def check_projection(p: Projection, tokens, n_head_entries: int) -> None:
    """Shapes and values of X and the W matrices (before any head is derived from them)."""
    n = len(tokens)
    for name in PROJECTION_MATRICES:
        m = getattr(p, name)
        if m.ndim != 2 or m.size == 0:
            raise ScenarioError(QT_TR_NOOP("projection: {0} must be a non-empty matrix, not {1}"),
                                name, _shape(m))
        _check_finite(Phrase(QT_TR_NOOP("projection: {0}"), name), m, tokens if name == "x" else None)
    d = p.x.shape[1]
    if p.x.shape[0] != n:
        raise ScenarioError(QT_TR_NOOP("projection: x has {0} rows but there are {1} tokens"), p.x.shape[0], n)
    _check_projection_sizes(p, d)
    if p.positions not in POSITIONS:
        raise ScenarioError(QT_TR_NOOP("projection: positions must be one of {0}, not {1!r}"),
                            ', '.join(POSITIONS), p.positions)
    if p.positions == "rope" and (d // p.n_heads) % 2:
        raise ScenarioError(QT_TR_NOOP("RoPE rotates pairs of dimensions: each head needs an even width, "
                                       "not {0}"), d // p.n_heads)
    if n_head_entries != p.n_heads:
        raise ScenarioError(QT_TR_NOOP("projection: n_heads = {0} but the scenario has {1} heads"),
                            p.n_heads, n_head_entries)


def _check_projection_sizes(p: Projection, d: int) -> None:
    """Heads that split d evenly, whole K/V groups, and each W of the shape they give."""
    if not (isinstance(p.n_heads, int) and 1 <= p.n_heads <= MAX_HEADS and d % p.n_heads == 0):
        raise ScenarioError(QT_TR_NOOP("projection: d = {0} must split evenly into n_heads = {1}"), d, p.n_heads)
    if not (isinstance(p.kv_heads, int) and 1 <= p.kv_heads and p.n_heads % p.kv_heads == 0):
        raise ScenarioError(QT_TR_NOOP("projection: n_heads = {0} must be a multiple of n_kv_heads = {1}"),
                            p.n_heads, p.kv_heads)
    d_kv = p.kv_heads * d // p.n_heads
    expected = {"w_q": (d, d), "w_k": (d, d_kv), "w_v": (d, d_kv), "w_o": (d, d)}
    for name, shape in expected.items():
        if getattr(p, name).shape != shape:
            raise ScenarioError(QT_TR_NOOP("projection: {0} has shape {1}; with d = {2} it must be {3}"),
                                name, _shape(getattr(p, name)), d, _shape(shape))


def _shape(m) -> str:
    dims = m if isinstance(m, tuple) else m.shape
    return "(" + " × ".join(str(x) for x in dims) + ")"


# ---------------------------------------------------------------- edits (pure)

def with_value(s: Scenario, head: int, matrix: str, row: int, col: int, value: float) -> Scenario:
    """A new scenario with one cell of one head's q, k or v set."""
    return with_entries(s, head, matrix, (row, col), value)


def with_row(s: Scenario, head: int, matrix: str, row: int, values) -> Scenario:
    """A new scenario with one whole row (one token's vector) set, e.g. by the q sliders."""
    return with_entries(s, head, matrix, row, values)


def with_entries(s: Scenario, head: int, matrix: str, index, values) -> Scenario:
    _check_editable(s)
    m = np.array(s.heads[head].matrix(matrix))
    m[index] = values
    where = Phrase(QT_TR_NOOP("head {0} ({1})"), head, s.heads[head].name)
    _check_finite(Phrase(QT_TR_NOOP("{0}: {1}"), where, matrix), m, s.tokens)
    return _with_head(s, head, **{matrix: _frozen(m)})


def with_settings(s: Scenario, **changes) -> Scenario:
    if s.weights_only:
        raise ScenarioError(QT_TR_NOOP("this file holds a model's weights as they are: the mask, ÷√d_k and "
                                       "the temperature cannot change them"))
    if s.live is not None:
        raise ScenarioError(QT_TR_NOOP("the mask, ÷√d_k and the temperature are the model's own: "
                                       "change its heads instead"))
    settings = dataclasses.replace(s.settings, **changes)
    _check_settings(settings, s.tokens)
    return dataclasses.replace(s, settings=settings)


def with_token_renamed(s: Scenario, i: int, name: str) -> Scenario:
    _check_token(i, name)
    if s.live is not None:  # its labels come from the text the model read
        _check_tokens_editable(s)
    return dataclasses.replace(s, tokens=s.tokens[:i] + (name,) + s.tokens[i + 1:])


def with_token_inserted(s: Scenario, i: int, name: str) -> Scenario:
    """Insert a token before position i; every head gets a zero row there."""
    _check_token(i, name)
    _check_tokens_editable(s)
    if s.n >= MAX_TOKENS or len(s.heads) * (s.n + 1) ** 2 > MAX_CELLS:
        raise ScenarioError(QT_TR_NOOP("no room for another token: this scenario has {0} tokens and "
                                       "{1} heads, the most AttnViz shows"), s.n, len(s.heads))
    tokens = s.tokens[:i] + (name,) + s.tokens[i:]
    mask = masks.with_rows_changed(s.settings.mask, s.n, insert=i)
    focus = None if s.focus is None else s.focus + (s.focus >= i)
    return _with_rows(s, tokens, lambda m: np.insert(m, i, 0.0, axis=0), mask, focus)


def _check_tokens_editable(s: Scenario) -> None:
    if s.weights_only or s.live is not None:
        raise ScenarioError(QT_TR_NOOP("these weights were computed by a model for these tokens: "
                                       "tokens cannot be added or removed"))


def with_token_removed(s: Scenario, i: int) -> Scenario:
    _check_tokens_editable(s)
    if s.n <= 1:
        raise ScenarioError(QT_TR_NOOP("the last token cannot be removed: a scenario needs at least one"))
    mask = masks.with_rows_changed(s.settings.mask, s.n, remove=i)
    focus = None if s.focus in (None, i) else s.focus - (s.focus > i)  # the story's token gone: no story
    return _with_rows(s, s.tokens[:i] + s.tokens[i + 1:], lambda m: np.delete(m, i, axis=0), mask, focus)


def _with_rows(s: Scenario, tokens, change_rows, mask, focus) -> Scenario:
    """Apply the same row insertion or deletion to every per-token matrix (and the mask)."""
    settings = dataclasses.replace(s.settings, mask=mask)
    _check_settings(settings, tokens)
    s = dataclasses.replace(s, settings=settings, focus=focus)
    if s.projection is not None:
        projection = dataclasses.replace(s.projection, x=_frozen(change_rows(s.projection.x)))
        return _with_projection(dataclasses.replace(s, tokens=tokens), projection)
    heads = tuple(dataclasses.replace(h, q=_frozen(change_rows(h.q)), k=_frozen(change_rows(h.k)),
                                      v=_frozen(change_rows(h.v))) for h in s.heads)
    return dataclasses.replace(s, tokens=tokens, heads=heads)


def with_projection_value(s: Scenario, name: str, row: int, col: int, value: float) -> Scenario:
    """One cell of X or a W matrix; the heads' q, k, v follow."""
    p = _projection_of(s)
    m = np.array(getattr(p, name))
    m[row, col] = value
    _check_finite(Phrase(QT_TR_NOOP("projection: {0}"), name), m, s.tokens if name == "x" else None)
    changed: dict[str, Any] = {name: _frozen(m)}
    return _with_projection(s, dataclasses.replace(p, **changed))


def _projection_of(s: Scenario) -> Projection:
    if s.projection is None:
        raise ScenarioError(QT_TR_NOOP("this scenario has no layer (X and the W matrices) to change"))
    return s.projection


def with_projection_options(s: Scenario, **changes) -> Scenario:
    """LayerNorm, positions or the number of K/V groups (GQA). Fewer groups keep the first
    groups' columns of W_k and W_v; more groups repeat them, so nothing is made up."""
    p = _projection_of(s)
    if "n_kv_heads" in changes:
        groups = changes["n_kv_heads"] or p.n_heads
        if groups < 1 or p.n_heads % groups:
            raise ScenarioError(QT_TR_NOOP("{0} heads cannot share K and V in {1} groups"), p.n_heads, groups)
        d_head = p.x.shape[1] // p.n_heads
        changes["w_k"], changes["w_v"] = (_frozen(_regroup(getattr(p, w), p.kv_heads, groups, d_head))
                                          for w in ("w_k", "w_v"))
        changes["n_kv_heads"] = None if groups == p.n_heads else groups
    projection = dataclasses.replace(p, **changes)
    check_projection(projection, s.tokens, len(s.heads))
    return _with_projection(s, projection)


def _regroup(w: np.ndarray, old: int, new: int, d_head: int) -> np.ndarray:
    blocks = [w[:, g * d_head:(g + 1) * d_head] for g in range(old)]  # one [d, d_head] block per group
    return np.concatenate([blocks[g % old] for g in range(new)], axis=1)


def _with_projection(s: Scenario, projection: Projection) -> Scenario:
    """Re-derive every head from a changed projection, keeping names and labels."""
    derived = derive_heads(projection, [h.name for h in s.heads], [h.labels for h in s.heads])
    heads = tuple(dataclasses.replace(new, names=old.names) for new, old in zip(derived, s.heads))
    return dataclasses.replace(s, projection=projection, heads=heads)


def _check_editable(s: Scenario) -> None:
    if s.projection is not None:
        raise ScenarioError(QT_TR_NOOP("q, k and v are derived from X and the W matrices here, so they "
                                       "cannot be edited directly"))


def _with_head(s: Scenario, index: int, **changes) -> Scenario:
    heads = list(s.heads)
    heads[index] = dataclasses.replace(heads[index], **changes)
    live = s.live.with_change(index, **{m: changes[m] for m in MATRICES if m in changes}) if s.live else None
    return dataclasses.replace(s, heads=tuple(heads), live=live)


def with_head_off(s: Scenario, head: int, off: bool) -> Scenario:
    """A live model's head switched off (its output zeroed before W_o) or on again."""
    if s.live is None:
        raise ScenarioError(QT_TR_NOOP("only a real model's heads can be switched off"))
    return dataclasses.replace(s, live=s.live.with_change(head, off=off))


def head_is_off(s: Scenario, head: int) -> bool:
    change = s.live.change(s.live.layer, head) if s.live else None
    return bool(change and change.off)


def head_is_given(s: Scenario, head: int) -> bool:
    """The model gets another output from this head than its own (a patch, or its mean)."""
    change = s.live.change(s.live.layer, head) if s.live else None
    return bool(change and not change.off and change.out is not None)


def count_values(s: Scenario, given: bool = True) -> int:
    """How many numbers the scenario holds (derived q, k, v count: they are kept too), with or
    without a model's given weights (which have their own limit, MAX_GIVEN_CELLS)."""
    total = sum(h.matrix(m).size for h in s.heads for m in MATRICES)
    if s.projection is not None:
        total += sum(getattr(s.projection, m).size for m in PROJECTION_MATRICES)
    return total + (s.given.size if given and s.given is not None else 0)


def _same_live(a: Live | None, b: Live | None) -> bool:
    if a is None or b is None:
        return a is b
    if (a.model, a.text, a.ids, a.layer, a.patch, a.steer) != (b.model, b.text, b.ids, b.layer, b.patch, b.steer) or \
            len(a.changes) != len(b.changes):
        return False
    return all((x[0], x[1], x[2].off) == (y[0], y[1], y[2].off) and
               all(getattr(x[2], m) is getattr(y[2], m) for m in CHANGED) for x, y in zip(a.changes, b.changes))


def same_shapes(s: Scenario) -> bool:
    """True when every head has the same q and v shapes, so they stack into one array."""
    return len({(h.q.shape, h.v.shape) for h in s.heads}) == 1


def same_scenario(a: Scenario, b: Scenario) -> bool:
    """Everything a file stores is identical, arrays bit for bit (so −0.0 differs from 0.0).

    Cheap after an edit: unchanged arrays are shared between the two scenarios."""
    if (a.tokens, a.settings, a.title, a.description, a.note, a.focus) != \
            (b.tokens, b.settings, b.title, b.description, b.note, b.focus):
        return False
    if len(a.heads) != len(b.heads) or (a.projection is None) != (b.projection is None):
        return False
    if (a.given is None) != (b.given is None) or a.layer != b.layer or not _same_live(a.live, b.live):
        return False
    if any((h.name, h.labels, h.v_labels, h.names) != (g.name, g.labels, g.v_labels, g.names)
           for h, g in zip(a.heads, b.heads)):
        return False
    pairs = [(getattr(h, m), getattr(g, m)) for h, g in zip(a.heads, b.heads) for m in MATRICES]
    if a.given is not None:
        pairs.append((a.given, b.given))
    if a.projection is not None:
        options = [f.name for f in dataclasses.fields(Projection) if f.name not in PROJECTION_MATRICES]
        if any(getattr(a.projection, f) != getattr(b.projection, f) for f in options):
            return False
        pairs += [(getattr(a.projection, m), getattr(b.projection, m)) for m in PROJECTION_MATRICES]
    return all(x is y or _same_array(x, y) for x, y in pairs)


def _same_array(x: np.ndarray, y: np.ndarray) -> bool:
    """Equal values (a model's float32 weights equal the float64 ones read back from JSON)."""
    if x.dtype == y.dtype:
        return x.shape == y.shape and x.tobytes() == y.tobytes()
    return x.shape == y.shape and bool(np.array_equal(x, y))
