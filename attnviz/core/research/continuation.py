"""A given continuation explained: the model reads prompt + target, and each target token is shown
with the probability and rank the model gave it there, and what it would rather have said."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lm.run import Run, final_stream, run
from ..lm.shown import Encoded, ModelError, encode
from ..lm.weights import Model
from ..messages import QT_TR_NOOP
from .parts import log_softmax, logits_of, top_k
from .tables import Tabular, labels


@dataclass(frozen=True)
class Continuation(Tabular):
    target: tuple[int, ...]    # the target's token ids
    p: np.ndarray              # [m]: each target token's probability where it stands
    rank: np.ndarray           # [m]: its rank there (1: the likeliest)
    rivals: np.ndarray         # [m, k]: the likeliest tokens there
    rivals_p: np.ndarray       # [m, k]
    tokens: tuple = ()     # the tokens' labels, when known (the API and the command line give them)
    start: int | None = None  # the first target token's position in the whole text (None: the target ends it)

    def columns(self) -> dict[str, np.ndarray]:
        """position (in the whole text), token, id, p, rank: one row per target token."""
        first = max(0, len(self.tokens) - len(self.target)) if self.start is None else self.start
        position = np.arange(len(self.target)) + first
        return {"position": position, "token": labels(self.tokens, position), "id": np.array(self.target, dtype=int),
                "p": self.p, "rank": self.rank}


def continuation(model: Model, result: Run, prompt_length: int, k: int = 5, end: int | None = None) -> Continuation:
    """`result` is a run of prompt + target; the target is its tokens from `prompt_length` to `end` (None: the
    last; before the tokens a tokenizer puts after every text, an EOS, which are no part of the target)."""
    end = len(result.ids) if end is None else end
    target = result.ids[prompt_length:end]
    logp = log_softmax(logits_of(model, final_stream(model, result)[prompt_length - 1:end - 1]))  # i predicts i + 1
    mine = logp[np.arange(len(target)), list(target)]
    rivals = top_k(logp, k)
    return Continuation(tuple(target), np.exp(mine), (logp > mine[:, None]).sum(axis=-1) + 1,
                        rivals, np.exp(np.take_along_axis(logp, rivals, axis=-1)), start=prompt_length)


def explained(model: Model, prompt: str, target: str, k: int = 5) -> tuple[Encoded, Continuation]:
    """(prompt + target's tokens, their Continuation): the model run on both; a target that changes
    the prompt's own last token is refused (the prompt's tokens must come first, unchanged)."""
    if not target:
        raise ModelError(QT_TR_NOOP("the continuation is empty: give the text that follows the prompt"))
    first, whole = encode(model, prompt), encode(model, prompt + target)
    closing = len(model.tokenizer.after)  # what the tokenizer puts after every text (an EOS) closes both
    stem, end = first.ids[:len(first.ids) - closing], len(whole.ids) - closing
    if whole.ids[:len(stem)] != stem or end <= len(stem):
        raise ModelError(QT_TR_NOOP("the continuation must add tokens after the prompt's own: the prompt's last "
                                    "token changes when the continuation joins it (end the prompt before a space)"))
    return whole, continuation(model, run(model, whole.ids), len(stem), k, end)
