"""A scene's question, predict then reveal: while it is unanswered, what it asks about is hidden (the
query's row in its head's heatmap, the step table's eˣ, weights and output, the geometry's weights);
a click on a key (a cell of the hidden row, a row of the step table, a k's arrow) is the class's guess, outlined;
A (or →, for a clicker) reveals the answer and marks the guess right or wrong, in the cells and in a
line of the caption. Going to another scene and back, or R, asks the question again, hidden: a teacher
repeating a question wants the class to predict again.

A question about a real model's next token hides the next-token bars instead (their tokens listed in the
order of their text); a click on a token is the guess, right when the model makes it the most likely.

A guess is right when it is the answer's top key (core/lessons/open.py's Answer, computed from the
scene): for "top-key" that is the question; for "row" it is where the row's weight is largest."""
from __future__ import annotations

from dataclasses import replace

from ..common.asked import Asked
from ..common.i18n import current_language, tr
from .answers import explained

GUESSED_IN = ("head", "heads", "geometry")  # the views a guess is clicked in: the heatmap, the step table, a k


class QuestionPlay:
    def __init__(self, parts, caption, changed=lambda: None):
        self.parts, self.caption, self.changed = parts, caption, changed
        self.asked: Asked | None = None
        self.opened = None  # the scene on screen (core's OpenedScene), its question's answer with it
        self.clickable = True  # the scene's view takes a click as a guess
        self._heard = None  # the geometry view whose clicks are guesses (made when first shown)
        parts.heads.guessed.connect(lambda key: self._next_token() or self.guess(key))
        parts.steps.guessed.connect(lambda key: self._next_token() or self.guess(key))
        parts.next_token().bars.guessed.connect(lambda token: self._next_token() and self.guess(token))

    @property
    def answer(self):
        """core/lessons/open.py's Answer of the scene's question (None without one)."""
        return None if self.opened is None else self.opened.answer

    @property
    def pending(self) -> bool:
        """A question is asked and its answer not shown yet."""
        return self.asked is not None and not self.asked.revealed

    def ask(self, opened) -> None:
        """The scene on screen (core's OpenedScene): its question hidden, or as it was when the same scene
        is shown again in the other language (revealed stays revealed; a guess stays if the row is the same)."""
        self.opened, self.clickable = opened, opened.scene.view in GUESSED_IN
        if opened.answer is not None and opened.answer.hide == "next-token":
            self.clickable = opened.scene.view == "head"  # the bars are beside the one big head
        old = self.asked
        if opened.answer is None:
            self.asked = None
        elif old is None:
            self.asked = Asked(opened.head, opened.query)
        else:
            same = (old.head, old.row) == (opened.head, opened.query)
            self.asked = replace(old, head=opened.head, row=opened.query, guess=old.guess if same else None,
                                 right=old.right if same else None)
        self._tell()

    def forget(self) -> None:
        """The next scene shown asks its question afresh (another scene, R, a new lesson); the views hide nothing
        meanwhile (a row of this scene's kept hidden would be out of the next scene's range as it is drawn)."""
        self.asked = None
        self._tell_views()

    def end(self) -> None:
        self.asked = self.opened = None
        self._tell()

    def guess(self, key: int) -> None:
        """The class's guess: a key, or for a question about the next token a token's id."""
        if self.pending:
            self.asked = replace(self.asked, guess=key)
            self._tell()

    def reveal(self) -> bool:
        """The answer shown, the guess marked; False when there was nothing to reveal."""
        if not self.pending:
            return False
        guess = self.asked.guess
        self.asked = replace(self.asked, revealed=True, right=None if guess is None else guess == self._right())
        self._tell()
        return True

    def _next_token(self) -> bool:
        return self.answer is not None and self.answer.hide == "next-token"

    def _right(self) -> int:
        """The right guess: the model's next token, or the key the row weighs most."""
        return self.answer.next_token if self._next_token() else self.answer.top_key

    def line(self) -> str:
        """The caption's line about the guess: what to do, the guess, and after the reveal right or wrong."""
        a = self.asked
        if a is None:
            return ""
        if self._next_token():  # a token of the model's vocabulary, as the bars write it
            word = self.parts.next_token().label
        else:  # a key by its word, in this language's sentence
            word = self.parts.document.scenario.tokens.__getitem__
        if not a.revealed:
            if a.guess is None:
                if not self.clickable:
                    return tr("A or → shows the answer.")
                return tr("Click the class's guess (a token on the right); A or → shows the answer.") \
                    if self._next_token() else tr("Click the class's guess (a key); A or → shows the answer.")
            return tr("Your guess: {0} (A or → shows the answer)").format(word(a.guess))
        if a.right is None:
            return tr("The answer: {0}").format(word(self._right()))
        if a.right:
            return tr("Your guess: {0} — right").format(word(a.guess))
        return tr("Your guess: {0} — wrong (the answer: {1})").format(word(a.guess), word(self._right()))

    def explanation(self) -> str:
        """Once revealed: the answer's numbers and the lesson's why (what changed, and why)."""
        if self.asked is None or not self.asked.revealed or self.opened is None:
            return ""
        return explained(self.opened, current_language())

    def _tell(self) -> None:
        self._tell_views()
        self.caption.show_verdict(self.line(), right=self.asked.right if self.asked else None,
                                  explanation=self.explanation())
        self.changed()

    def _tell_views(self) -> None:
        on_bars = self._next_token()
        weights = None if on_bars else self.asked  # a question about the next token hides no weights
        self.parts.heads.set_asked(weights)
        self.parts.steps.set_asked(weights)
        self.parts.next_token().set_asked(self.asked if on_bars else None)
        maths = self.parts.maths
        if maths.views:  # the maths views are made when first shown: none yet, none to tell
            geometry = maths.tab_view("geometry")
            geometry.set_asked(weights)
            if geometry is not self._heard:  # its k clicked: the class's guess, as a heatmap's cell
                self._heard = geometry
                geometry.guessed.connect(lambda key: self._next_token() or self.guess(key))
