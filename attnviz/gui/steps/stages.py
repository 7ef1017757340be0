"""The guided steps: one query row explained stage by stage, as a teacher walks a class through it.

score q·k → ÷√d_k → mask → softmax → weighted sum of v. Everything that shows a stage reads it
here: the step table (the columns computed so far), the formula (the part lit up), the heatmap
(what the selected row shows), the guide's banner and the command line's --step. Adding a stage
is one record in STAGES plus its texts. No Qt: the texts are marked for translation, and the
views translate them.

The layer view (seed 002's X to O) has steps of its own around a head's five (LAYER_STAGES, numbered
by core/layer.py in the order the layer computes them): LayerNorm, the split into heads, then the five,
concat, × W_o and + X. Its diagram lights each; the views of one query's row show everything at them
(the row is computed in full by concat), and they are walked only where the layer is presented.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core import layer
from ...core.messages import QT_TR_NOOP

# The step table's columns, in order: the key's name, its k, then what the stages compute.
COLUMNS = ("key", "k", "dot", "scaled", "mask", "exp", "weight")
ALWAYS = frozenset({"key", "k"})


@dataclass(frozen=True)
class Stage:
    number: int        # 1, 2, ...: as the step table's headers and the banner count them
    short: str         # for the command line's help
    title: str         # QT_TR_NOOP-marked: the views translate it
    explanation: str   # QT_TR_NOOP-marked; {0} the query's token, {1} d_k; follows the title after a colon
    adds: frozenset    # what it computes: step-table columns, and "sum" (the Σ row) or "output"
    part: str          # the formula's part it lights up (formula.layout names them)
    row: str           # what a heatmap's selected row shows: "scores", "scaled" or "weights"
    masks: bool        # whether the masked cells are shown as masked (−∞) yet


STAGES = (
    Stage(1, "q·k", QT_TR_NOOP("score q·k"),
          QT_TR_NOOP("The dot product of the q of {0} with the k of every token: the more they point "
                     "the same way, the larger the score."),
          frozenset({"dot"}), part="scores", row="scores", masks=False),
    Stage(2, "÷√dₖ", QT_TR_NOOP("÷ √d_k"),  # the banner is rich text: d_k is set with a subscript k
          QT_TR_NOOP("Each score is divided by √d_k = √{1} (and by the temperature), so that a large d_k "
                     "does not push softmax to all-or-nothing."),
          frozenset({"scaled"}), part="scale", row="scaled", masks=False),
    Stage(3, "mask", QT_TR_NOOP("mask the future"),
          QT_TR_NOOP("{0} may not look at the tokens after it: their scores become −∞."),
          frozenset({"mask"}), part="mask", row="scaled", masks=True),
    Stage(4, "softmax", QT_TR_NOOP("softmax"),
          QT_TR_NOOP("Each score x becomes eˣ, and each eˣ is divided by their sum Σ, so the weights "
                     "add up to 1. A masked score x = −∞ has eˣ = 0: its weight is exactly 0; every other "
                     "weight is positive."),
          frozenset({"exp", "weight", "sum"}), part="softmax", row="weights", masks=True),
    Stage(5, "output", QT_TR_NOOP("weighted sum of v"),
          QT_TR_NOOP("The output of {0} is the weighted sum of the v rows: the tokens with large "
                     "weights pass on most."),
          frozenset({"output"}), part="v", row="weights", masks=True),
)
NUMBERS = tuple(s.number for s in STAGES)  # core/layer.py's ROW_STEPS (a test checks): its boxes' steps


def _layer_stage(number: int, short: str, title: str, explanation: str) -> Stage:
    """One of the layer's own steps: the views of one query's row show all of it (see row_stage)."""
    return Stage(number, short, title, explanation, frozenset(), part="", row="weights", masks=True)


LAYER_STAGES = (
    _layer_stage(layer.LAYER_NORM, "LayerNorm", QT_TR_NOOP("LayerNorm"),
                 QT_TR_NOOP("Each row of X is brought to mean 0 and variance 1 before the projections.")),
    _layer_stage(layer.SPLIT, "split", QT_TR_NOOP("split into heads"),
                 QT_TR_NOOP("The columns of Q, K and V are cut into h groups of d/h: one Q_i for each head, "
                            "one K and V for each group of heads.")),
    _layer_stage(layer.CONCAT, "concat", QT_TR_NOOP("concat"),
                 QT_TR_NOOP("The heads' outputs Y_i are set side by side: Y = concat(Y_0, Y_1, …).")),
    _layer_stage(layer.W_O, "W_o", QT_TR_NOOP("× W_o"),
                 QT_TR_NOOP("Y′ = Y W_o brings the heads' outputs back into the space of X.")),
    _layer_stage(layer.RESIDUAL, "+X", QT_TR_NOOP("+ X (the residual)"),
                 QT_TR_NOOP("O = X + Y′: attention adds a change to each token, X is kept.")),
)
ALL_STAGES = STAGES + LAYER_STAGES
ALL_NUMBERS = tuple(s.number for s in ALL_STAGES)  # what a lesson's `step` and --step may be


def stage(number: int) -> Stage:
    return ALL_STAGES[ALL_NUMBERS.index(number)]


def row_stage(number: int | None) -> Stage | None:
    """The stage a view of one query's row shows (the heatmap, the step table, the formula, the guide):
    none outside guided steps and at the layer's own steps (the row is shown in full)."""
    return stage(number) if number in NUMBERS else None


def shown(number: int | None) -> frozenset:
    """What is on screen at this stage: everything computed up to it (everything outside guided steps)."""
    stages = STAGES if number not in NUMBERS else STAGES[:NUMBERS.index(number) + 1]
    return ALWAYS.union(*(s.adds for s in stages))


def following(number: int | None, order: tuple[int, ...] = NUMBERS) -> int | None:
    """The next stage of `order` (the row's five, or core/layer.steps()): the first from outside, none
    after the last (guided steps end)."""
    if number not in order:
        return order[0]
    return order[order.index(number) + 1] if number != order[-1] else None


def preceding(number: int | None, order: tuple[int, ...] = NUMBERS) -> int:
    """The stage before: the last from outside, the first stays the first."""
    if number not in order:
        return order[-1]
    return order[max(0, order.index(number) - 1)]


def command_line_help() -> str:
    return "at this guided step: " + ", ".join(f"{s.number} {s.short}" for s in ALL_STAGES) + \
        " (6 to 10: the layer view's own)"
