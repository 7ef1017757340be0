"""A lesson's scene made ready to show: its scenario opened (a preset in the lesson's language, a file
inside the lesson's own folder, or the embedded document), the scene's settings applied, the head and
query chosen, and its question's answer computed from the numbers (never stored in the file).

A scenario file a lesson names is resolved inside the lesson's folder only: absolute paths, `..` and
links that lead out of the folder are refused before anything is opened.

A real model's scene (the built-in model reading a text) opens from its run, which the caller gives
(model.py's ModelRuns: the window runs it off the GUI thread first); its layer, head and the heads it
switches off are checked against the model before the model runs.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath

import numpy as np

from .. import lm
from ..compute import compute
from ..formats.document import scenario_from_dict
from ..io import load_scenario
from ..layer import steps as layer_steps
from ..messages import QT_TR_NOOP, AttnVizError
from ..presets import is_preset, list_presets, load_preset
from ..scenario import Scenario, ScenarioError, with_projection_options, with_row, with_settings
from .model import ModelRun, ModelRuns
from .scene import Lesson, Ref, Scene, SceneSettings

SCENARIO_SUFFIXES = (".json", ".npz")  # the scenario files a lesson may name (as AttnViz saves them)
# A question's answer stands alone as the class reads it: no other key's weight reads the same in a
# heatmap's cell (gui/heads/heatmap.py, the coarsest place a weight is written), no other token's
# probability the same in the next-token bars (gui/model/next_token.py, a percentage).
WEIGHT_DECIMALS = 2
PERCENT_DECIMALS = 1


class LessonError(ScenarioError):
    """A lesson that cannot be given; the message names the scene (1-based) and what is wrong."""


@dataclass(frozen=True)
class Answer:
    """What a question hides, worked out from the scene's numbers."""

    hide: str                     # the question's: "row", "top-key" or "next-token"
    weights: tuple[float, ...]    # the selected query's weights over every key, in the scene's head
    top_key: int                  # the key with the largest weight (a question's answer is never a tie)
    next_token: int | None = None  # a real model's scene: the token it predicts most (its id)
    next_text: str = ""            # ... and that token's text
    # The same row before the scene's settings changed the scenario (None when they change nothing),
    # and what they changed: (setting, its value before, the scene's), as the reveal says it.
    before: tuple[float, ...] | None = None
    changed: tuple[tuple[str, object, object], ...] = ()


@dataclass(frozen=True, eq=False)
class OpenedScene:
    """Everything the window needs to show a scene."""

    scene: Scene
    scenario: Scenario        # the scene's scenario with its settings applied
    compare: Scenario | None  # the other scenario of a "compare" scene, the same settings applied
    head: int                 # the selected head
    query: int                # the selected query, in this language's version
    answer: Answer | None     # its question's answer, None without a question
    run: ModelRun | None = None  # a real model's scene: its run (the next token, before → after)
    start: Scenario | None = None  # a scene whose q moves: the scenario before it moves (`scenario` is after)


def open_scene(lesson: Lesson, index: int, lang: str, runs: ModelRuns | None = None) -> OpenedScene:
    """Scene `index` (0-based) of `lesson`, its presets in `lang`'s version ("ja" or "en"); `runs` runs the
    real model's scenes (without, they are refused). Raises LessonError naming the scene (1-based) when it
    cannot be shown."""
    return scene_opened(lesson.scenes[index], index, lesson.folder, lang, runs=runs)


def scene_opened(scene: Scene, index: int, folder: str | None, lang: str, cache: dict | None = None,
                 runs: ModelRuns | None = None) -> OpenedScene:
    """open_scene for one scene; `cache` keeps the scenarios read from files (one read per file when a
    whole lesson is checked)."""
    if scene.scenario.kind == "model":
        return _model_scene(scene, index, lang, runs)
    try:
        own = open_ref(scene.scenario, folder, lang, cache)
        start = applied(own, scene.settings)
        other = None if scene.compare is None else applied(open_ref(scene.compare, folder, lang, cache),
                                                           scene.settings)
        head, query = _selection(scene, start, lang)
        _check_layer_step(scene, start)
        scenario = start if scene.move_q is None else moved(start, head, query, scene.move_q)
        if scene.question is not None:
            _charge(cache, scenario)
        answer = None if scene.question is None else _answer(scene, scenario, head, query, own=own)
    except LessonError:
        raise
    except ScenarioError as e:  # a file's problem, a setting the scenario refuses
        raise LessonError(QT_TR_NOOP("scene {0}: {1}"), index + 1, e) from None
    except LessonProblem as e:
        raise LessonError(QT_TR_NOOP("scene {0}: {1}"), index + 1, e.error) from None
    return OpenedScene(scene, scenario, other, head, query, answer, start=None if scene.move_q is None else start)


# The attention weights a whole lesson's questions may have worked out when it is opened or checked (each
# question's scenario, before and after its settings): about 2 s. A 60 KB file of 200 questions on a scenario
# of 64 heads × 512 tokens took 120 s, on the window's thread when opened there.
MOST_CHECKED_CELLS = 100_000_000


def _charge(cache: dict | None, s: Scenario) -> None:
    """Count a question's work against MOST_CHECKED_CELLS (`cache`: the whole lesson's), refused before it is
    done when the lesson's questions would take more."""
    if cache is None:
        return
    cache["cells"] = cache.get("cells", 0) + 2 * len(s.heads) * s.n ** 2
    if cache["cells"] > MOST_CHECKED_CELLS:
        raise LessonProblem(QT_TR_NOOP("the questions up to this one need {0:,} attention weights worked out to be "
                                       "checked; a lesson's may need at most {1:,}: use shorter scenarios or fewer "
                                       "questions"), cache["cells"], MOST_CHECKED_CELLS)


def _check_layer_step(scene: Scene, s: Scenario) -> None:
    """A layer scene's step is one of its layer's (LayerNorm's only where it is on)."""
    if scene.view != "layer" or scene.step is None:
        return
    if s.projection is None:
        raise LessonProblem(QT_TR_NOOP("the view layer needs a layer scenario (one with X and the W matrices, such "
                                       "as projection-demo)"))
    order = layer_steps(s.projection)
    if scene.step not in order:
        raise LessonProblem(QT_TR_NOOP("step {0} is not one of this layer's steps ({1}): LayerNorm's comes only "
                                       "with \"layer_norm\" on"), scene.step, ", ".join(map(str, order)))


def moved(s: Scenario, head: int, query: int, q) -> Scenario:
    """The scenario with its query's q in `head` moved to `q` (a scene's move_q), checked as an edit is."""
    if len(q) != s.heads[head].d_k:
        raise LessonProblem(QT_TR_NOOP("\"move_q\" has {0} numbers; the q of head {1} has {2}"), len(q), head,
                            s.heads[head].d_k)
    return with_row(s, head, "q", query, q)


def _model_scene(scene: Scene, index: int, lang: str, runs: ModelRuns | None) -> OpenedScene:
    try:
        if runs is None:
            raise LessonProblem(QT_TR_NOOP("the real model reads this scene's text, and no model was given"))
        c = runs.model().config
        _check_model_ranges(scene, c)
        found = runs.get(scene.scenario.value, scene.off)
        s = lm.scenario(found.model, found.encoded, found.run, scene.layer)
        head, query = _selection(scene, s, lang)
        answer = None if scene.question is None else _answer(scene, s, head, query, found)
    except LessonProblem as e:
        raise LessonError(QT_TR_NOOP("scene {0}: {1}"), index + 1, e.error) from None
    except ScenarioError as e:  # the model is not installed, the text is too long for it
        raise LessonError(QT_TR_NOOP("scene {0}: {1}"), index + 1, e) from None
    return OpenedScene(scene, s, None, head, query, answer, found)


def _check_model_ranges(scene: Scene, c) -> None:
    """The scene's layer and the heads it switches off exist in the model (checked before it runs)."""
    if scene.layer >= c.n_layers:
        raise LessonProblem(QT_TR_NOOP("layer {0} is out of range: the model has layers 0 to {1}"), scene.layer,
                            c.n_layers - 1)
    for layer, head in scene.off:
        if layer >= c.n_layers or head >= c.n_heads:
            raise LessonProblem(QT_TR_NOOP("\"off\": {0}.{1} is not a head of the model (layers 0 to {2}, heads 0 "
                                           "to {3})"), layer, head, c.n_layers - 1, c.n_heads - 1)


class LessonProblem(Exception):
    """Inside this module: what is wrong with a scene, before the scene's number is put in front."""

    def __init__(self, template: str, *values):
        super().__init__(template)
        self.error = AttnVizError(template, *values)


def open_ref(ref: Ref, folder: str | None, lang: str, cache: dict | None = None) -> Scenario:
    """The scenario a Ref names: a preset's version in `lang`, a file inside `folder`, or the
    embedded document."""
    if ref.kind == "preset":
        if not is_preset(ref.value):
            raise LessonProblem(QT_TR_NOOP("unknown preset '{0}' (the presets are: {1})"), ref.value,
                                ", ".join(p.id for p in list_presets()))
        return load_preset(ref.value, lang)
    key = ("embedded", ref.value) if ref.kind == "embedded" else ("file", scenario_path(ref.value, folder))
    if cache is not None and key in cache:
        return cache[key]
    scenario = scenario_from_dict(json.loads(ref.value)) if ref.kind == "embedded" else load_scenario(key[1])
    if cache is not None:
        cache[key] = scenario
    return scenario


def scenario_path(name: str, folder: str | None) -> str:
    """The real path of a scenario file named by a lesson, inside the lesson's folder; refused when the
    name is absolute, climbs out with `..`, or leads out through a link."""
    if folder is None:
        raise LessonProblem(QT_TR_NOOP("names the scenario file '{0}', but this lesson has no folder to find it "
                                       "in (save the lesson beside it)"), name)
    posix, windows = PurePosixPath(name), PureWindowsPath(name)
    if not name or "\x00" in name or posix.is_absolute() or windows.is_absolute() or windows.drive:
        raise LessonProblem(QT_TR_NOOP("the scenario file '{0}' must be a path relative to the lesson's folder"),
                            name)
    if ".." in posix.parts or ".." in windows.parts:
        raise LessonProblem(QT_TR_NOOP("the scenario file '{0}' climbs out of the lesson's folder ('..'): a lesson "
                                       "opens files in its own folder only"), name)
    if not name.lower().endswith(SCENARIO_SUFFIXES):
        raise LessonProblem(QT_TR_NOOP("the scenario file '{0}' must be a scenario file (.json or .npz)"), name)
    root = os.path.realpath(folder)
    full = os.path.realpath(os.path.join(root, *posix.parts))
    if os.path.commonpath([root, full]) != root:
        raise LessonProblem(QT_TR_NOOP("the scenario file '{0}' leads out of the lesson's folder (through a link): "
                                       "a lesson opens files in its own folder only"), name)
    return full


def applied(s: Scenario, settings: SceneSettings) -> Scenario:
    """The scenario with the scene's settings (those it sets; the colour scale is the view's)."""
    changes = {name: getattr(settings, name) for name in ("causal", "scale", "temperature")
               if getattr(settings, name) is not None}
    if "causal" in changes and s.settings.mask is not None:
        raise LessonProblem(QT_TR_NOOP("settings: \"causal\" would change nothing: this scenario has its own mask "
                                       "({0})"), s.settings.mask.kind)
    if changes:
        s = with_settings(s, **changes)
    layer = {name: getattr(settings, name) for name in ("positions", "layer_norm")
             if getattr(settings, name) is not None}
    if layer:
        if s.projection is None:
            raise LessonProblem(QT_TR_NOOP("settings: \"{0}\" needs a layer scenario (one with X and the W "
                                           "matrices, such as projection-demo or position-nekoga)"), next(iter(layer)))
        s = with_projection_options(s, **layer)
    return s


def _selection(scene: Scene, s: Scenario, lang: str) -> tuple[int, int]:
    if not 0 <= scene.head < len(s.heads):
        raise LessonProblem(QT_TR_NOOP("head {0} is out of range: the scenario has heads 0 to {1}"),
                            scene.head, len(s.heads) - 1)
    query = (s.focus or 0) if scene.query is None else scene.query[lang]
    if not 0 <= query < s.n:
        raise LessonProblem(QT_TR_NOOP("query {0} is out of range: the scenario's {1} version has tokens 0 to {2}"),
                            query, lang, s.n - 1)
    return scene.head, query


def _answer(scene: Scene, s: Scenario, head: int, query: int, found: ModelRun | None = None,
            own: Scenario | None = None) -> Answer:
    """The question's answer in scenario `s`; `own`: the scenario before the scene's settings."""
    if scene.question is None:
        raise ValueError("_answer: the scene asks no question")
    hide = scene.question.hide
    if hide == "next-token" and found is None:
        raise LessonProblem(QT_TR_NOOP("the question hides the next token, which only a real model predicts; this "
                                       "scene's scenario is not one"))
    row = np.asarray(compute(s).weights()[head][query], dtype=float)
    top = int(np.argmax(row))
    if hide != "next-token":
        _stands_alone([f"{w:.{WEIGHT_DECIMALS}f}" for w in row], top, s.tokens)
    changed = () if own is None else settings_changed(own, s)
    before = tuple(float(w) for w in compute(own).weights()[head][query]) if own is not None and changed else None
    if found is None:
        return Answer(hide, tuple(float(w) for w in row), top, before=before, changed=changed)
    likeliest = lm.top(found.model, found.run.probs, 2)
    _stands_alone([f"{p:.{PERCENT_DECIMALS}%}" for _, _, p in likeliest], 0, [text for _, text, _ in likeliest])
    (token, text, _) = likeliest[0]
    return Answer(hide, tuple(float(w) for w in row), top, token, text)


def settings_changed(own: Scenario, s: Scenario) -> tuple[tuple[str, object, object], ...]:
    """What the scene's settings changed of its scenario: (setting, before, after) for the mask, ÷√d_k,
    the temperature and a layer's positions."""
    pairs = [(name, getattr(own.settings, name), getattr(s.settings, name))
             for name in ("causal", "scale", "temperature")]
    if own.projection is not None and s.projection is not None:
        pairs += [(name, getattr(own.projection, name), getattr(s.projection, name)) for name in ("positions",
                                                                                                  "layer_norm")]
    return tuple((name, a, b) for name, a, b in pairs if a != b)


def _stands_alone(shown: list[str], top: int, names) -> None:
    """The answer's number, as the screen writes it (`shown`), is written for no other key or token."""
    tied = [names[i] for i, x in enumerate(shown) if x == shown[top] and i != top]
    if tied:
        raise LessonProblem(QT_TR_NOOP("the question's answer ties on screen ({0}): {1} and {2}; a question "
                                       "needs one answer the class can see"), shown[top], names[top], _few(tied))


def _few(names: list[str], most: int = 5) -> str:
    """The first `most` names, then how many more: one line, however many tie."""
    more = len(names) - most
    return ", ".join(names[:most]) + (f" (+{more:,})" if more > 0 else "")
