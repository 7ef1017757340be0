"""One token named as a researcher names it: its text (" Paris", a leading space written as a
space), as the next-token list labels it, or its id (#6317). A text that is not exactly one token is
refused, with what it is."""
from __future__ import annotations

import re
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
    if len(spec) > max(MOST_TOKENISED, model.tokenizer.longest):  # judged whole, never by its first characters
        raise ModelError(QT_TR_NOOP("'{0}' has {1:,} characters; a token of this model stands for at most {2:,}: "
                                    "give one token's text or #ID"), cut(spec), len(spec), model.tokenizer.longest)
    ids = [t.id for t in model.tokenizer.encode(spec, bos=False)]
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


MOST_TOKENISED = 1000  # characters of a token's name tokenised to say what it is: a sentence, not a book
_TEXTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")  # a SentencePiece byte-fallback token


def _by_text(model: Model) -> dict[str, int]:
    """Every token by the text the next-token list labels it with, worked out once per tokenizer (≈ 0.5 s for
    Llama 3's 128,256 tokens). Of tokens written alike, a byte's (SentencePiece's <0x21>, which its tokenizer
    makes only of a character it has no token for) gives way to the other ('!'); else the lowest id."""
    found = _TEXTS.get(model.tokenizer)
    if found is None:
        pieces = model.tokenizer.pieces
        found = {}
        for byte_pieces in (True, False):  # the bytes first: the others written alike take their place
            for i in range(len(model.vocabulary) - 1, -1, -1):
                if (BYTE_PIECE.fullmatch(pieces[i]) is not None) == byte_pieces:
                    found[token_text(model, i)] = i
        _TEXTS[model.tokenizer] = found
    return found
