"""The guided steps: one query row explained stage by stage, as a teacher walks a class through it.

score q·k → ÷√d_k → mask → softmax → weighted sum of v. Everything that shows a stage reads it
here: the step table (the columns computed so far), the formula (the part lit up), the heatmap
(what the selected row shows), the guide's banner and the command line's --step. Adding a stage
is one record in STAGES plus its texts. No Qt: the texts are marked for translation, and the
views translate them.
"""
from __future__ import annotations

from dataclasses import dataclass

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
NUMBERS = tuple(s.number for s in STAGES)


def stage(number: int) -> Stage:
    return STAGES[NUMBERS.index(number)]


def shown(number: int | None) -> frozenset:
    """What is on screen at this stage: everything computed up to it (everything outside guided steps)."""
    stages = STAGES if number is None else STAGES[:NUMBERS.index(number) + 1]
    return ALWAYS.union(*(s.adds for s in stages))


def following(number: int | None) -> int | None:
    """The next stage: the first from outside, none after the last (guided steps end)."""
    if number is None:
        return NUMBERS[0]
    return NUMBERS[NUMBERS.index(number) + 1] if number != NUMBERS[-1] else None


def preceding(number: int | None) -> int:
    """The stage before: the last from outside, the first stays the first."""
    if number is None:
        return NUMBERS[-1]
    return NUMBERS[max(0, NUMBERS.index(number) - 1)]


def command_line_help() -> str:
    return "at this guided step: " + ", ".join(f"{s.number} {s.short}" for s in STAGES)
