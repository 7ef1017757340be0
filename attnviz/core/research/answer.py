"""One token named as a researcher names it: its text (" Paris", a leading space written as a
space) or its id (#6317). A text that is not exactly one token is refused, with what it is."""
from __future__ import annotations

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
    if len(ids) != 1:
        pieces = " | ".join(repr(token_text(model, i)) for i in ids[:12]) + (" …" if len(ids) > 12 else "")
        raise ModelError(QT_TR_NOOP("'{0}' is {1} tokens for this model ({2}), not one: give one token's "
                                    "text or #ID"), cut(spec), len(ids), pieces)
    return ids[0]
