"""A question's answer in words, as the reveal says it under the caption and the handout's answers page
prints it: the numbers (the winning key and its weight; a row before → after the scene's settings; the
next token and its probability, before → after the heads switched off), then the lesson's own why."""
from __future__ import annotations

import numpy as np

from ...core.explain import fmt_temperature
from ..common.i18n import tr
from ..model.next_token import rows

DECIMALS = 2  # a heatmap's cells: the weights the class has just seen revealed
MOST_KEYS = 3  # a row before → after: its winner, the winner before, the key that gained most


def explained(opened, lang: str, decimals: int = DECIMALS) -> str:
    """The numbers of the answer, then the question's why (the scene's language)."""
    why = opened.scene.question.why[lang]
    return numbers(opened, decimals) + (" — " + why if why else "")


def numbers(opened, decimals: int = DECIMALS) -> str:
    """The answer's numbers in one line: "fish 0.68 → 0.22, The 0.03 → 0.12 (T = 1 → 5)"."""
    answer, tokens = opened.answer, opened.scenario.tokens
    if answer.hide == "next-token":
        found = opened.run
        (label, now, before), *_ = rows(found.model, found.baseline, found.run)
        return f"{label} {now:.1%}" if before is None else f"{label} {before:.1%} → {now:.1%}"

    def weight(w):
        return f"{w:.{decimals}f}"
    after = np.asarray(answer.weights)
    if answer.before is None:
        keys = [answer.top_key] if answer.hide == "top-key" else list(np.argsort(-after, kind="stable")[:2])
        return tr(", ").join(f"{tokens[k]} {weight(after[k])}" for k in keys)
    before = np.asarray(answer.before)
    keys = list(dict.fromkeys([answer.top_key, int(np.argmax(before)), int(np.argmax(after - before))]))
    moved = tr(", ").join(f"{tokens[k]} {weight(before[k])} → {weight(after[k])}" for k in keys[:MOST_KEYS])
    return f"{moved} ({tr(', ').join(changed(c) for c in answer.changed)})"


def changed(change: tuple[str, object, object]) -> str:
    """One setting the scene changed, before → after: "T = 1 → 5", "÷√d_k: on → off"."""
    name, before, after = change
    if name == "temperature":
        return f"T = {fmt_temperature(before)} → {fmt_temperature(after)}"
    if name == "positions":
        return tr("positions: {0} → {1}").format(before, after)
    label = {"causal": tr("hide the future"), "scale": "÷√d_k", "layer_norm": "LayerNorm"}[name]
    return (tr("{0}: on → off") if before else tr("{0}: off → on")).format(label)


def answer_text(opened, lang: str, decimals: int) -> str:
    """The answers page's entry: the most attended key and its weight; for a question on the whole row,
    every key's weight; for the next token, the likeliest with its probability (and before, when heads
    are switched off); then the reveal's numbers and why."""
    answer, tokens = opened.answer, opened.scenario.tokens
    if answer.hide == "next-token":
        found = opened.run
        (label, now, before), *_ = rows(found.model, found.baseline, found.run)
        if before is None:
            text = tr("Answer: {0} ({1:.1%})").format(label, now)
        else:
            text = tr("Answer: {0} ({1:.1%}; {2:.1%} with every head on)").format(label, now, before)
    else:
        def weight(w):
            return f"{w:.{decimals}f}"
        text = tr("Answer: {0} (weight {1})").format(tokens[answer.top_key], weight(answer.weights[answer.top_key]))
        if answer.hide == "row":
            row = tr(", ").join(f"{t} {weight(w)}" for t, w in zip(tokens, answer.weights))
            text += "\n" + tr("The weights of “{0}”: {1}").format(tokens[opened.query], row)
        if answer.before is not None:
            text += "\n" + numbers(opened, decimals)
    why = opened.scene.question.why[lang]
    return text + ("\n" + why if why else "")
