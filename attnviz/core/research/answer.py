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
    if len(spec) > MOST_TOKENISED and (labelled := _long_label(model, spec)) is not None:
        return labelled
    ids = [t.id for t in model.tokenizer.encode(spec, bos=False)]
    if len(ids) == 1 and token_text(model, ids[0]) == spec:
        return ids[0]
    named = _labels(model)[0].get(spec)
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


def _long_label(model: Model, spec: str) -> int | None:
    """A name too long to tokenise at once, judged whole: the token it labels, None (tokenise it: it is no longer
    than the longest label), or refused."""
    table, longest = _labels(model)
    if spec in table:
        return table[spec]
    if len(spec) > longest:
        raise ModelError(QT_TR_NOOP("'{0}' has {1:,} characters; no token of this model is written with more than "
                                    "{2:,}: give one token's text or #ID"), cut(spec), len(spec), longest)
    return None


_TEXTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")  # a SentencePiece byte-fallback token


def _labels(model: Model) -> tuple[dict[str, int], int]:
    """Every token by the label the next-token list gives it (an embedding's padding rows too: ⟨515⟩), and the
    longest label; worked out once per tokenizer (≈ 0.5 s for Llama 3's 128,256 tokens). Of tokens written
    alike, a byte's (SentencePiece's <0x21>, which its tokenizer makes only of a character it has no token for)
    gives way to the other ('!'); else the lowest id."""
    found = _TEXTS.get(model.tokenizer)
    if found is None:
        pieces = model.tokenizer.pieces
        table: dict[str, int] = {}
        for byte_pieces in (True, False):  # the bytes first: the others written alike take their place
            for i in range(len(model.output) - 1, -1, -1):
                if (i < len(pieces) and BYTE_PIECE.fullmatch(pieces[i]) is not None) == byte_pieces:
                    table[token_text(model, i)] = i
        found = _TEXTS[model.tokenizer] = (table, max(map(len, table), default=0))
    return found
