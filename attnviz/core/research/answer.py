"""One token named as a researcher names it: its text (" Paris", a leading space written as a
space), as the next-token list labels it, or its id (#6317). A text that is not exactly one token is
refused, with what it is."""
from __future__ import annotations

import weakref

from ..lm.shown import ModelError, check_unicode, token_text
from ..lm.weights import Model
from ..messages import QT_TR_NOOP, cut


def one_token(model: Model, spec: str) -> int:
    """The id of the one token `spec` names; ModelError when it names none or several."""
    if not isinstance(spec, str) or not spec:
        raise ModelError(QT_TR_NOOP("give a token: its text, such as ' Paris', or its id, such as #6317"))
    if spec.startswith("#") and spec[1:].isascii() and spec[1:].isdigit():
        if len(spec) > 20 or int(spec[1:]) >= len(model.output):  # 20: no vocabulary has ids of 19 digits
            raise ModelError(QT_TR_NOOP("{0}: the model's token ids go from 0 to {1:,}"), cut(spec),
                             len(model.output) - 1)
        return int(spec[1:])
    check_unicode(spec)
    ids = [t.id for t in model.tokenizer.encode(spec[:200], bos=False)]
    if len(ids) == 1 and token_text(model, ids[0]) == spec:
        return ids[0]
    named = _by_text(model).get(spec)
    if named is not None:  # a SentencePiece tokenizer reads 'ess' as ▁ess: the token 'ess' is named by its text
        return named
    if len(ids) != 1:
        pieces = " | ".join(repr(token_text(model, i)) for i in ids[:12]) + (" …" if len(ids) > 12 else "")
        raise ModelError(QT_TR_NOOP("'{0}' is {1} tokens for this model ({2}), not one: give one token's "
                                    "text or #ID"), cut(spec), len(ids), pieces)
    read = token_text(model, ids[0])
    if read == " " + spec:  # the tokenizer's own space before a text: another token than the one named
        raise ModelError(QT_TR_NOOP("'{0}' is no token of this model; it reads the text as '{1}' (#{2}): give that, "
                                    "or #ID"), cut(spec), read, ids[0])
    return ids[0]  # the text in another normal form (NFD where the tokens are NFC)


_TEXTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _by_text(model: Model) -> dict[str, int]:
    """Every token by the text the next-token list labels it with (the lowest id of those written alike),
    worked out once per tokenizer (≈ 1 s for Gemma 3's 262,144 tokens)."""
    found = _TEXTS.get(model.tokenizer)
    if found is None:
        found = {}
        for i in range(len(model.vocabulary) - 1, -1, -1):
            found[token_text(model, i)] = i
        _TEXTS[model.tokenizer] = found
    return found
