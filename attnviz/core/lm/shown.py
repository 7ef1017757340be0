"""A model's run as AttnViz shows it: a text as the model's tokens with readable labels, the
likeliest next tokens, one layer of a run as a Scenario, a run saved as a model's file."""
from __future__ import annotations

import contextlib
import itertools
import math
import operator
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..compute import LEAN_CELLS, known
from ..files import atomic_write, naming, problem
from ..messages import QT_TR_NOOP, cut
from ..scenario import MAX_LIVE_CELLS, MAX_TEXT_LENGTH, Change, Live, Settings, make_head, make_scenario
from ..text import not_unicode, shortened, visible
from .blocks import mask_of
from .run import Run, same_edits
from .tokens import TooManyTokens, labels, shown_label
from .weights import Model, ModelError

MAX_MODEL_TOKENS = 4096
MAX_MODEL_TEXT = 800_000     # characters read at most: far more than 4,096 tokens of any text


@dataclass(frozen=True)
class Encoded:
    text: str
    ids: tuple[int, ...]
    labels: tuple[str, ...]
    chat: bool = False       # the text was read as a user's message in the model's chat template


def token_limit(model: Model) -> int:
    """The longest text shown: within the model's context, 4,096 tokens (AttnViz's longest input),
    and few enough that one layer's heads fit MAX_LIVE_CELLS."""
    return min(model.config.context, MAX_MODEL_TOKENS, math.isqrt(MAX_LIVE_CELLS // model.config.n_heads))


def check_text(text) -> None:
    """Refuse, before any work, a text no model can read: empty, too long, or not Unicode (a
    command line's bytes that are not UTF-8). Line breaks, tabs and spaces alone are read as they are."""
    if not isinstance(text, str):
        raise ModelError(QT_TR_NOOP("the text must be one string, not {0}: a list of texts is not run as a batch "
                                    "(run each text in turn)"), type(text).__name__)
    if not text:
        raise ModelError(QT_TR_NOOP("the text is empty: type a sentence for the model to read"))
    if len(text) > MAX_MODEL_TEXT:
        raise ModelError(QT_TR_NOOP("the text is {0:,} characters long; the model reads at most {1:,} tokens here"),
                         len(text), MAX_MODEL_TOKENS)
    check_unicode(text)


def check_unicode(text: str) -> None:
    """Refuse a text holding what is not a character (a lone surrogate, from bytes that are not UTF-8)."""
    bad = not_unicode(text)
    if bad is not None:
        raise ModelError(QT_TR_NOOP("the text is not valid UTF-8: it holds {0} at character {1:,}"),
                         bad[0], bad[1] + 1)


def encode(model: Model, text: str, cancelled=None, chat: bool = False, bos: bool = True) -> Encoded:
    """The model's tokens for `text` (in its chat template, with `chat`; without the BOS token
    the model expects, with `bos` False), with readable labels; more tokens than the limit are
    refused, saying when the chat template made the text that long. `cancelled()` is asked before
    tokenising."""
    check_text(text)
    written = _in_template(model, text, cancelled) if chat else text
    with naming(model.path) if chat else contextlib.nullcontext():  # the template made it too long: it is named
        shown, tokens = _tokens(model, written, chat, bos, cancelled)
    if not tokens:  # a chat template that writes nothing, a tokenizer.json that truncates to 0
        raise problem(model.path, QT_TR_NOOP("its tokenizer makes no token of this text"))
    beyond = next((t.id for t in tokens if not 0 <= t.id < len(model.embedding)), None)
    if beyond is not None:  # the tokenizer's own file names ids the weights do not have
        raise problem(model.path, QT_TR_NOOP("its tokenizer gives the token id {0:,}, but the model has {1:,} "
                                             "embeddings"), beyond, len(model.embedding))
    names = labels(shown, tokens, model.tokenizer.pieces, model.tokenizer.bos)
    return Encoded(text, tuple(t.id for t in tokens), tuple(names), chat)


def _tokens(model: Model, written: str, chat: bool, bos: bool, cancelled) -> tuple[str, list]:
    """(the text as shown: `written` in the tokenizer's normal form where it reads the same; its tokens), refused
    before tokenising (or bringing it to that form, which tokenises it twice) when they would be more than the
    limit, whatever they are, and when the tokenizer makes more."""
    tokenizer, limit, too_long = model.tokenizer, token_limit(model), _TOO_LONG[chat]
    if len(written) > limit * tokenizer.longest:  # more tokens than the limit, whatever they are: not tokenised
        raise ModelError(too_long[0], len(written), limit, tokenizer.longest)
    with naming(model.path):
        normalized = tokenizer.normalized_length(written)  # at most 18 times the text (fields.Rewrite's bound)
    if normalized > limit * tokenizer.longest:  # its normaliser lengthens it past that: not tokenised either
        raise ModelError(too_long[1], normalized, limit, tokenizer.longest)
    try:
        with naming(model.path):
            shown = tokenizer.canonical(written)
            return shown, tokenizer.encode(shown, bos=bos and not chat, cancelled=cancelled, most=limit)  # chat: BOS
    except TooManyTokens as e:
        raise ModelError(too_long[2], e.count, limit) from None


# A text too long to read, said three ways (its characters, once normalised, its tokens): with chat, the text
# the template made of the user's, which may be short.
_TOO_LONG = {
    False: (QT_TR_NOOP("the text is {0:,} characters long; the model reads at most {1:,} tokens here, of at most "
                       "{2} characters each"),
            QT_TR_NOOP("the text is {0:,} characters long once the tokenizer has normalised it; the model reads at "
                       "most {1:,} tokens here, of at most {2} characters each"),
            QT_TR_NOOP("the text is {0:,} tokens long; the model reads at most {1:,} here")),
    True: (QT_TR_NOOP("the text in the model's chat template is {0:,} characters long; the model reads at most "
                      "{1:,} tokens here, of at most {2} characters each"),
           QT_TR_NOOP("the text in the model's chat template is {0:,} characters long once the tokenizer has "
                      "normalised it; the model reads at most {1:,} tokens here, of at most {2} characters each"),
           QT_TR_NOOP("the text in the model's chat template is {0:,} tokens long; the model reads at most {1:,} "
                      "here")),
}


def _in_template(model: Model, text: str, cancelled) -> str:
    """`text` as the user's message in the model's chat template, refused naming the model when the template
    makes more than anyone may type or what is not Unicode."""
    with naming(model.path):  # the template is the file's: what it refuses names it
        shown = model.tokenizer.chat(text, cancelled)
        if len(shown) > MAX_MODEL_TEXT:  # as long a text as no one may type: not handed to the tokenizer
            raise ModelError(QT_TR_NOOP("its chat template makes a text of {0:,} characters; the model reads at most "
                                        "{1:,} tokens here"), len(shown), MAX_MODEL_TOKENS)
        if not_unicode(shown) is not None:  # a lone surrogate written by the template
            raise ModelError(QT_TR_NOOP("its chat template makes a text that is not valid Unicode"))
    return shown


def encode_ids(model: Model, ids) -> Encoded:
    """Token ids given as they are (a researcher's exact input), each checked against the
    vocabulary, labelled as the next-token list labels them."""
    limit = token_limit(model)
    try:
        if isinstance(ids, (str, bytes, dict, set, frozenset)):  # a set has no order: no sequence of tokens
            raise TypeError
        taken = tuple(itertools.islice(ids, limit + 1))  # range(10**8) is not built to be refused
    except TypeError:  # not iterable (5, a 0-d array)
        raise ModelError(QT_TR_NOOP("give token ids as a list of whole numbers")) from None
    if len(taken) > limit:
        raise ModelError(QT_TR_NOOP("{0:,} token ids: the model reads at most {1:,} here"),
                         len(ids) if hasattr(ids, "__len__") else len(taken), limit)
    ids = tuple(i if (n := whole_number(i)) is None else n for i in taken)  # the rest refused below by value
    if not ids:
        raise ModelError(QT_TR_NOOP("give at least one token id"))
    odd = [i for i in ids if not isinstance(i, int) or isinstance(i, bool)][:1]  # (None is one too)
    if odd:  # 1.0 or True would read as a number in range: said as what it is
        raise ModelError(QT_TR_NOOP("token id {0}: token ids are whole numbers"), said(odd[0]))
    bad = [i for i in ids if not 0 <= i < len(model.output)][:1]
    if bad:
        raise ModelError(QT_TR_NOOP("token id {0}: the model's ids go from 0 to {1:,}"), said(bad[0]),
                         len(model.output) - 1)
    return Encoded("", ids, tuple(shown_label(token_text(model, i)) for i in ids))


def said(value) -> str:
    """What the researcher gave, as a message repeats it: at most 40 characters (an int of 5,000 digits is
    not even made a text: Python refuses to)."""
    if isinstance(value, int) and not -10**39 < value < 10**39:
        return "…" if value > 0 else "-…"
    return cut(str(value))


def whole_number(value) -> int | None:
    """A whole number as Python's int (numpy's integers, anything with __index__); None for a bool, a float,
    a text or an array of several numbers."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:  # a numpy array of several numbers has __index__ and refuses it
        return None


def top(model: Model, probs: np.ndarray, k: int = 10) -> list[tuple[int, str, float]]:
    """The k most likely next tokens: (id, readable text, probability), most likely first."""
    k = min(k, len(probs))
    best = np.argpartition(-probs, k - 1)[:k]                 # the k likeliest, then in order (ties by id)
    order = best[np.lexsort((best, -probs[best]))]
    return [(int(i), token_text(model, int(i)), float(probs[i])) for i in order]


def token_bytes(model: Model, token_id: int) -> bytes | None:
    """The bytes a vocabulary entry stands for, or None for a special token such as <|im_end|>."""
    return model.tokenizer.piece_bytes(token_id)


def token_text(model: Model, token_id: int) -> str:
    """A vocabulary entry as the text it stands for: " fish". Bytes that are only part of a
    character (most of SmolLM2's Japanese tokens are) are written in hex, <E3 81>, never as �."""
    if token_id >= len(model.vocabulary):  # a padding row of the embedding, beyond the tokenizer's tokens
        return f"⟨{token_id}⟩"
    raw = token_bytes(model, token_id)
    if raw is None:
        return model.vocabulary[token_id]
    return hex_bytes(raw)


def hex_bytes(raw: bytes, space: str = " ") -> str:
    """`raw` decoded, the bytes that are no whole character written in hex, <E3 81>; a text that is written
    \\xff, a backslash and three letters (Llama 3 and Qwen have such tokens), stays as it is."""
    text = raw.decode("utf-8", errors="surrogateescape")  # each stray byte 0xNN as the lone surrogate U+DCNN
    return re.sub("[\udc80-\udcff]+",
                  lambda run: "<" + space.join(f"{ord(c) - 0xDC00:02X}" for c in run.group(0)) + ">", text)


def ablation(model: Model, spec: str) -> tuple[int, int, Change]:
    """'3.2' -> (layer 3, head 2, switched off), checked against the model's sizes."""
    parts = spec.split(".")
    c = model.config
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
        raise ModelError(QT_TR_NOOP("--ablate {0}: give LAYER.HEAD, such as 3.2"), spec)
    layer, head = (int(p) for p in parts)
    if layer >= c.n_layers or head >= c.n_heads:
        raise ModelError(QT_TR_NOOP("--ablate {0}: the model has layers 0 to {1} and heads 0 to {2}"),
                         spec, c.n_layers - 1, c.n_heads - 1)
    return layer, head, Change(off=True)


# ---------------------------------------------------------------- a run as AttnViz shows it

def scenario(model: Model, encoded: Encoded, result: Run, layer: int = 0, changes=None):
    """Layer `layer` of a run as a scenario: its heads' q, k (after RoPE) and v, editable, under
    the mask the layer attends with (a sliding-window layer's window, drawn as the toolbar's);
    the changes made so far travel with it, so an edit reruns the model with all of them."""
    return _layer(model, encoded, layer, lambda m, h: result.matrix(layer, m, h),
                  result.changes if changes is None else changes, result.patch, result.steer)


def first_layer(model: Model, encoded: Encoded, layer: int, q, k, v, kept=None):
    """Layer `layer` as the scenario() of the finished run will show it, from that layer's own q
    [H, n, d_head] and k, v [H_kv, n, d_head] as the pass computes them: a new text (no changes
    yet) shown before the pass has reached its last layer. -> (scenario, its Result when the
    pass kept the layer's weights and outputs (blocks.Kept), else None)."""
    own = {"q": q, "k": k, "v": v}
    s = _layer(model, encoded, layer, lambda m, h: own[m][h * len(own[m]) // len(q)], ())
    if kept is None or kept.weights is None or s.n ** 2 * len(s.heads) <= LEAN_CELLS:
        return s, None  # a short text's views keep every intermediate: compute() gives them
    return s, known(s, kept.weights, kept.outputs)


def _layer(model: Model, encoded: Encoded, layer: int, matrix, changes, patch=None, steer=None):
    c = model.config
    heads = [make_head(f"head {h}", matrix("q", h), matrix("k", h), matrix("v", h),
                       names={"ja": f"ヘッド {h}", "en": f"head {h}"}) for h in range(c.n_heads)]
    live = Live(model, encoded.text, encoded.ids, layer, changes, encoded.chat, patch, steer)
    spec = mask_of(c, layer)
    return make_scenario(encoded.labels, heads, settings=Settings(mask=spec) if spec else None,
                         title=title(c.name, encoded.text), layer=(layer, c.n_layers), live=live,
                         focus=len(encoded.ids) - 1)


def title(name: str, text: str) -> dict:
    """The scenario's title: the model's name and its text on one line, line breaks and other
    controls shown (↵, ⇥), shortened with … to the length a title may have."""
    shown = visible(text[:MAX_TEXT_LENGTH])
    return {"en": shortened(f"{name}: {shown}", MAX_TEXT_LENGTH), "ja": shortened(f"{name}：{shown}", MAX_TEXT_LENGTH)}


def another_layer(s, result: Run, layer: int):
    """The live scenario `s` showing `layer` instead, from the run of its changes."""
    live = s.live
    if not same_edits(result, live):
        raise ModelError(QT_TR_NOOP("the model has not run with these changes yet"))
    encoded = Encoded(live.text, live.ids, s.tokens, live.chat)
    return scenario(live.model, encoded, result, layer, live.changes)


def save_run(model: Model, encoded: Encoded, result: Run, path) -> None:
    """Every layer of a run as a model's file that `attnviz FILE.npz` opens (and `attnviz weights
    FILE.npz --layer L` reads): tokens, token_ids, q, k, v [layers, heads, n, d_head] after RoPE,
    causal, and the next token's distribution (next_probs over the vocabulary, next_ids and
    next_tokens of the ten most likely)."""
    best = top(model, result.probs, 10)
    c = model.config
    qkv = {m: np.stack([np.stack([result.matrix(layer, m, h) for h in range(c.n_heads)])
                        for layer in range(c.n_layers)]).astype(np.float32) for m in "qkv"}
    arrays: dict[str, Any] = {
        "tokens": np.array(encoded.labels), "token_ids": np.array(encoded.ids, dtype=np.int64),
        "head_names": np.array([f"head {h}" for h in range(c.n_heads)]),
        "causal": np.array(True), "scale": np.array(True), "temperature": np.array(1.0), **qkv,
        "next_probs": result.probs.astype(np.float32), "next_ids": np.array([i for i, _, _ in best]),
        "next_tokens": np.array([t for _, t, _ in best])}
    atomic_write(path, lambda f: np.savez(f, **arrays))  # stored, not compressed: read a layer at a time
