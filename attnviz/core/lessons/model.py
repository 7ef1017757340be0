"""A real model's scenes: the built-in model (core/lm/) reading a lesson's text, with some heads
switched off. Each (text, heads off) is run once a session and kept, so going back to a scene is
instant; a scene with heads off is run from the first layer it changes, after the model as it is.

Who gives the lesson decides where the work happens: the window runs `get` on its model worker,
never on the GUI thread, and shows the scene when it is kept (`has`); the command line runs it there
and then. The model is loaded on first use, by `load` (the window's, which loads it once a session).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from .. import lm
from ..scenario import Change

MAX_TEXT = 500   # characters: a lesson's sentence, a few dozen tokens (a run of every layer kept per scene)
KEPT_RUNS = 16   # runs kept; a lesson has a handful (the model as it is, and each set of heads off)
MOST_RUNS = KEPT_RUNS  # a lesson's at most: each is kept, so going back to a scene is instant


@dataclass(frozen=True, eq=False)
class ModelRun:
    """What a real model's scene shows: its run, and the model's own run for before → after."""

    model: lm.Model
    encoded: lm.Encoded
    baseline: lm.Run  # no head switched off
    run: lm.Run       # the scene's heads switched off (the baseline itself when none are)


def changes(off) -> tuple:
    """The run's changes for the heads switched off, as core/lm/ takes them (sorted)."""
    return tuple((layer, head, Change(off=True)) for layer, head in sorted(off))


class ModelRuns:
    def __init__(self, load=None):
        self._load = load or (lambda cancelled=None: lm.load())
        self._model: lm.Model | None = None
        self._runs: OrderedDict = OrderedDict()  # (text, off) → ModelRun
        self._lock = threading.Lock()            # `has` is asked on the GUI thread while `get` runs

    def model(self, cancelled=None) -> lm.Model:
        if self._model is None:
            self._model = self._load(cancelled)
        return self._model

    def has(self, text: str, off) -> bool:
        with self._lock:
            return (text, tuple(sorted(off))) in self._runs

    def get(self, text: str, off, cancelled=None) -> ModelRun:
        """The run of `text` with the heads `off` switched off, run now unless it is kept. Raises
        lm.ModelError (not installed, a text too long) and tokenizer.Cancelled."""
        key = (text, tuple(sorted(off)))
        with self._lock:
            if key in self._runs:
                self._runs.move_to_end(key)
                return self._runs[key]
        model = self.model(cancelled)
        base = self._kept((text, ()))
        if base is None:
            encoded = lm.encode(model, text, cancelled=cancelled)
            base = ModelRun(model, encoded, *(2 * [lm.run(model, encoded.ids, cancelled=cancelled)]))
            self._keep((text, ()), base)
        if not key[1]:
            return base
        run = lm.run(model, base.encoded.ids, changes(key[1]), after=base.baseline, cancelled=cancelled)
        found = ModelRun(model, base.encoded, base.baseline, run)
        self._keep(key, found)
        return found

    def _kept(self, key) -> ModelRun | None:
        with self._lock:
            return self._runs.get(key)

    def _keep(self, key, found: ModelRun) -> None:
        with self._lock:
            self._runs[key] = found
            while len(self._runs) > KEPT_RUNS:
                self._runs.popitem(last=False)
