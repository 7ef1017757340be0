"""What a lesson's question hides, as the views that draw it read it: the query's row of one head,
the class's guess in it, and whether the answer is shown yet. No Qt: the heatmap, the step table and
the geometry view each draw it their own way (lessons/question.py keeps it up to date)."""
from __future__ import annotations

from dataclasses import dataclass

RIGHT_COLOUR = (20, 140, 50)   # ✓: a green that reads on yellow and purple alike, framed in white
WRONG_COLOUR = (200, 30, 30)   # ✗
GUESS_COLOUR = (240, 120, 0)   # the class's guess before the reveal: the presentation's orange


@dataclass(frozen=True)
class Asked:
    head: int
    row: int                   # the selected query: its weights are what is asked
    guess: int | None = None   # the key the class guessed
    revealed: bool = False
    right: bool | None = None  # after the reveal, with a guess: whether it was the answer's top key

    def hides(self, head: int, row: int) -> bool:
        """Whether the weights of `row` in `head` are hidden now."""
        return not self.revealed and (head, row) == (self.head, self.row)

    def colour(self) -> tuple[int, int, int]:
        """The guess's outline: orange until the reveal, then green if right, red if wrong."""
        if not self.revealed or self.right is None:
            return GUESS_COLOUR
        return RIGHT_COLOUR if self.right else WRONG_COLOUR

    def mark(self) -> str:
        """What the guessed cell says after the reveal: ✓ or ✗ (nothing before)."""
        if not self.revealed or self.right is None:
            return ""
        return "✓" if self.right else "✗"
