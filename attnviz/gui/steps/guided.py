"""Guided steps: one query row explained stage by stage, as a teacher walks a class through it.

score q·k → ÷√d_k → mask → softmax → weighted sum of v. At each stage the heatmap
shows only the selected row with the numbers computed so far, and the step table
only the columns computed so far.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ...core.explain import MINUS_INFINITY, fmt
from ..heads.heatmap import HeatmapData
from ..common.i18n import tr
from .table import DOT, EXP, K, KEY, MASK, SCALED, WEIGHT

SCORE, SCALE, MASKING, SOFTMAX, OUTPUT = range(1, 6)
STAGES = (SCORE, SCALE, MASKING, SOFTMAX, OUTPUT)


def stage_title(stage: int) -> str:
    return {SCORE: tr("score q·k"), SCALE: tr("÷ √d_k"), MASKING: tr("mask the future"),
            SOFTMAX: tr("softmax"), OUTPUT: tr("weighted sum of v")}[stage]


def stage_explanation(stage: int, token: str, d_k: int) -> str:
    text = {
        SCORE: tr("The dot product of the q of {0} with the k of every token: the more they point "
                  "the same way, the larger the score."),
        SCALE: tr("Each score is divided by √d_k = √{1} (and by the temperature), so that large d_k "
                  "does not push softmax to all-or-nothing."),
        MASKING: tr("{0} may not look at the tokens after it: their scores become −∞."),
        SOFTMAX: tr("softmax: each score x becomes eˣ, and each eˣ is divided by their sum Σ, so the weights "
                    "add up to 1. A masked score −∞ gives e^−∞ = 0: its weight is exactly 0; every other "
                    "weight is positive."),
        OUTPUT: tr("The output of {0} is the weighted sum of the v rows: the tokens with large "
                   "weights pass on most."),
    }[stage]
    return text.format(token, d_k)


def banner(stage: int, token: str, d_k: int) -> str:
    return tr("Step {0} of {1}: {2}. {3}").format(stage, len(STAGES), stage_title(stage),
                                                 stage_explanation(stage, token, d_k))


def visible_columns(stage: int | None) -> set[int]:
    """The step table's columns computed by this stage (all of them outside guided steps)."""
    every = {KEY, K, DOT, SCALED, MASK, EXP, WEIGHT}
    if stage is None:
        return every
    return {KEY, K, DOT} | ({SCALED} if stage >= SCALE else set()) | ({MASK} if stage >= MASKING else set()) \
        | ({EXP, WEIGHT} if stage >= SOFTMAX else set())


def staged(data: HeatmapData, trace, row: int, stage: int | None) -> HeatmapData:
    """What a panel draws at this stage: the selected row only, with that stage's numbers."""
    if stage is None:
        return data
    if stage >= SOFTMAX:
        return dataclasses.replace(data, only_row=row)
    values = trace.scores[row] if stage == SCORE else trace.scaled[row]
    masked = data.masked if stage >= MASKING else np.zeros_like(data.masked)
    return dataclasses.replace(data, only_row=row, masked=masked, colored=False, masked_text=MINUS_INFINITY,
                               row_text=tuple(fmt(x, 2, fixed=True) for x in values))
