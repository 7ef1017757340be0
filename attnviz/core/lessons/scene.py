"""What a lesson is: an ordered list of scenes, each a scenario shown one way with a caption. Frozen
records only; reading and writing them is file.py, opening a scene's scenario and working out a
question's answer is open.py.

The ids a scene's view may take are kept here (no Qt): the presented views of
gui/classroom/views.py (a test checks they are the same; "compare" sets the scene's scenario beside
another), plus "head" (one big head with the step table beside it, as F5 opens).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

LANGUAGES = ("ja", "en")  # every text of a lesson is given in both
# gui/classroom/views.py's VIEWS, in their order (tests/house/test_lesson_views.py checks it).
PRESENTED_VIEWS = ("heads", "steps", "geometry", "sqrt-dk", "softmax", "kernel", "lines", "before-after", "layer",
                   "overview", "linear", "softmax-places", "compare")
VIEWS = ("head", *PRESENTED_VIEWS)
DEFAULT_VIEW = "head"
STEPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # gui/steps/stages.py's ALL_NUMBERS: a row's 1–5, the layer's 6–10
ROW_STEPS = STEPS[:5]  # a query's row: the only steps a view other than the layer shows
STEP_VIEWS = ("head", "heads", "steps", "layer")  # the views that show a guided step
COLOUR_SCALES = ("linear", "log", "row")  # gui/look/colormaps.py's SCALES
SCORES_TIMES = (1, 10, 100, 1000)  # the softmax view's multipliers of a row's scores (gui/maths/views.py)
HIDES = ("row", "top-key", "next-token")  # what a question hides until it is revealed
REFERENCES = ("preset", "file", "embedded", "model")
# A real model's scene (the built-in model reading a text): the views that show a live model's layer.
MODEL_VIEWS = ("head", "heads", "steps", "lines", "overview")
MOVE_VIEWS = ("head", "heads", "steps", "geometry", "lines")  # the views in which a q moving can be watched

T = TypeVar("T")


@dataclass(frozen=True)
class Bilingual(Generic[T]):
    """A value in Japanese and in English: a caption's text, or a query's position in each language's
    version of a preset (their sentences differ: 彼女 is token 8, She token 6)."""

    ja: T
    en: T

    def __getitem__(self, lang: str) -> T:
        """The value in `lang` ("ja" or "en"); any other language gets the English."""
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True)
class Ref:
    """Where a scene's scenario comes from."""

    kind: str   # "preset", "file", "embedded" or "model"
    value: str  # the preset's id; the file's path, relative to the lesson's folder and inside it;
    #             the embedded scenario document (what core/formats/document.py reads) as JSON text;
    #             or the text the built-in real model reads


@dataclass(frozen=True)
class SceneSettings:
    """The scenario's own knobs as the scene sets them; None leaves the scenario's own value."""

    causal: bool | None = None        # hide the future (the causal mask)
    scale: bool | None = None         # divide the scores by √d_k
    temperature: float | None = None  # a further divisor, 0.01 to 100
    colour_scale: str | None = None   # how weights are coloured: COLOUR_SCALES (a view setting, not the scenario's)
    positions: str | None = None      # a layer scenario's positions: "none", "sinusoidal" or "rope"
    layer_norm: bool | None = None    # a layer scenario's LayerNorm of X before the projections
    scores_times: int | None = None   # the softmax view's row of scores multiplied (SCORES_TIMES; a view setting)


@dataclass(frozen=True)
class Question:
    """Predict, then reveal: what is hidden until the reveal, and the question in both languages. The
    answer is never stored: open.answer() computes it from the scene."""

    hide: str           # "row" (the query's weights), "top-key" (the most attended key), "next-token"
    text: Bilingual[str]
    why: Bilingual[str] = Bilingual("", "")  # said when the answer is revealed, after its numbers


@dataclass(frozen=True)
class Scene:
    scenario: Ref
    caption: Bilingual[str]
    notes: Bilingual[str] = Bilingual("", "")  # the presenter's notes
    view: str = DEFAULT_VIEW                   # one of VIEWS
    head: int = 0                              # the selected (active) head
    query: Bilingual[int] | None = None        # the selected query per language; None: the scenario's story's
    settings: SceneSettings = field(default_factory=SceneSettings)
    step: int | None = None                    # a guided step (STEPS), or None: everything computed
    question: Question | None = None
    compare: Ref | None = None                 # the other scenario, for the view "compare" only
    layer: int = 0                             # a real model's scene: the layer shown
    off: tuple[tuple[int, int], ...] = ()      # a real model's scene: the heads switched off, (layer, head)
    move_q: tuple[float, ...] | None = None    # the query's q the scene moves to as the class watches (its head)


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Bilingual[str]
    scenes: tuple[Scene, ...]
    # Where the scenes' scenario files are (the lesson file's own folder); None for a lesson read
    # from text without one, which may then name no file. Not part of what the lesson is.
    folder: str | None = field(default=None, compare=False)

    @property
    def needs_model(self) -> bool:
        """Some scene is the real model reading a text: the lesson is given only where it is installed."""
        return any(s.scenario.kind == "model" for s in self.scenes)
