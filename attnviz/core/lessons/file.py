"""Lesson files, NAME.attnviz-lesson.json: reading (every field checked, every scene opened) and writing.

    {"format": "attnviz-lesson", "version": 1, "id": "attention", "title": {"ja": ..., "en": ...},
     "scenes": [{"scenario": {"preset": "toy-3token"}, "view": "head", "head": 0, "query": 2,
                 "settings": {"causal": true}, "step": 1, "caption": {"ja": ..., "en": ...},
                 "notes": {"ja": ..., "en": ...}, "question": {"hide": "row", "text": {...}}}, ...]}

Reading checks the file's size before reading it, counts the lists and values before Python builds
them, bounds integers' digits while parsing and the nesting once parsed; then every key is checked
(unknown ones refused), and every scene is opened (open.py) so that its head, query and question are
known to fit its scenario. The first problem is one line naming the scene (1-based). Nothing in a
lesson is executed: it is JSON, never a pickle, never eval'd.
"""
from __future__ import annotations

import json
import math
import os
import re
from typing import Any, TypeGuard

from ..attention import POSITIONS
from ..files import atomic_write, problem, read_limited, regular_file
from ..formats.document import FORMAT_NAME as SCENARIO_FORMAT
from ..formats.scenario_json import JSON_SAYS, MAX_DIGITS, Twice, once, to_json_text
from ..lm import check_text
from ..messages import QT_TR_NOOP, AttnVizError, Phrase, cut, quoted
from ..numbers import MAX_ABS, RANGE_TEXT
from ..scenario import MAX_DIM, MAX_HEADS, MAX_LAYERS, MAX_TEXT_LENGTH, TEMPERATURE_RANGE
from ..text import code_point, first_control, looks_empty
from .model import MAX_TEXT as MAX_MODEL_TEXT
from .model import MOST_RUNS
from .open import LessonError, LessonProblem, scene_opened
from .scene import (
    COLOUR_SCALES,
    HIDES,
    LANGUAGES,
    MODEL_VIEWS,
    MOVE_VIEWS,
    REFERENCES,
    ROW_STEPS,
    SCORES_TIMES,
    STEP_VIEWS,
    STEPS,
    VIEWS,
    Bilingual,
    Lesson,
    Question,
    Ref,
    Scene,
    SceneSettings,
)

FORMAT_NAME = "attnviz-lesson"
FORMAT_VERSION = 1
SUFFIX = ".attnviz-lesson.json"
MAX_FILE_BYTES = 16 * 1024 * 1024  # embedded scenarios included; the built-in lessons take a few kB
MAX_JSON_ITEMS = 2_000_000         # lists, objects and values, counted in the bytes before parsing
MAX_DEPTH = 16                     # a lesson nests 3 deep, an embedded scenario 6 more (its mask's rows)
MAX_SCENES = 200                   # a class period is 10 to 20
MAX_ID_LENGTH = 64
MAX_TITLE_LENGTH = 200

LESSON_KEYS = ("format", "version", "id", "title", "scenes")
SCENE_KEYS = ("scenario", "view", "head", "query", "settings", "step", "caption", "notes", "question", "compare",
              "layer", "off", "move_q")
MODEL_KEYS = ("layer", "off")  # a real model's scene only
SETTINGS_KEYS = tuple(f for f in SceneSettings.__dataclass_fields__)
QUESTION_KEYS = ("hide", "text", "why")


# ---------------------------------------------------------------- reading

def load(path, strict: bool = False) -> Lesson:
    """The lesson in the file `path`; its scenario files are looked for in its folder. Every failure
    is a FileProblem naming the file (and the scene). `strict` (--check) also refuses what opens but
    says nothing: a note written empty in both languages."""
    if os.path.isdir(path):
        raise problem(path, QT_TR_NOOP("is a folder, not a lesson file"))
    size = regular_file(path).st_size  # a pipe or a device refused before anything opens it
    if size > MAX_FILE_BYTES:
        raise problem(path, _too_large(size))
    data = read_limited(path, MAX_FILE_BYTES)
    try:
        return loads(data, os.path.dirname(os.path.abspath(path)), strict)
    except (AttnVizError, RecursionError, MemoryError) as e:
        if isinstance(e, RecursionError):
            e = AttnVizError(QT_TR_NOOP("nested far too deeply to be a lesson"))
        elif isinstance(e, MemoryError):
            e = AttnVizError(QT_TR_NOOP("too large to open with the memory available"))
        raise problem(path, e) from None


def loads(text: str | bytes, folder: str | None = None, strict: bool = False) -> Lesson:
    """A lesson from its JSON text; `folder` is where its scenario files are (None: it may name none).
    Raises LessonError naming the scene and what is wrong."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(len(data))
    document = _parse(data)
    _check_depth(document)
    return _lesson(document, folder, strict)


def _too_large(size: int) -> LessonError:
    return LessonError(QT_TR_NOOP("{0:.0f} MB is too large for a lesson (the most is {1} MB)"), size / 2 ** 20,
                       MAX_FILE_BYTES // 2 ** 20)


def _parse(data: bytes):
    items = data.count(b",") + data.count(b"[") + data.count(b"{")
    if items > MAX_JSON_ITEMS:
        raise LessonError(QT_TR_NOOP("holds {0:,} values and lists, far more than a lesson has (at most {1:,})"),
                          items, MAX_JSON_ITEMS)
    try:
        return json.loads(data.decode("utf-8-sig"), parse_int=_bounded_int, parse_float=_finite_float,
                          parse_constant=_no_constant, object_pairs_hook=once)
    except Twice as e:  # which of the two was meant, no one can tell (json keeps the last silently)
        raise LessonError(QT_TR_NOOP("gives \"{0}\" twice in one object"), cut(e.key, 40)) from None
    except UnicodeDecodeError:
        raise LessonError(QT_TR_NOOP("not a text file (it is not UTF-8)")) from None
    except json.JSONDecodeError as e:
        said = Phrase(e.msg) if e.msg in JSON_SAYS else e.msg
        raise LessonError(QT_TR_NOOP("broken JSON at line {0}, column {1}: {2}"), e.lineno, e.colno, said) from None
    except RecursionError:
        raise LessonError(QT_TR_NOOP("nested far too deeply to be a lesson")) from None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise LessonError(QT_TR_NOOP("holds an integer of {0:,} digits; numbers must lie {1}"),
                          len(text.lstrip("-")), RANGE_TEXT)
    return int(text)


def _finite_float(text: str) -> float:
    """A number JSON writes that a float holds (1e400 is not: it would be infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise LessonError(QT_TR_NOOP("holds the number {0}, past what a float holds; numbers must lie {1}"),
                          cut(text, 40), RANGE_TEXT)
    return value


def _no_constant(text: str):
    raise LessonError(QT_TR_NOOP("holds {0}, which is not a number JSON allows"), text)


def _check_depth(document) -> None:
    """No list or object nested deeper than MAX_DEPTH (walked without recursion)."""
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise LessonError(QT_TR_NOOP("nested {0} levels deep; a lesson nests at most {1}"), depth, MAX_DEPTH)
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))


def _lesson(document, folder: str | None, strict: bool) -> Lesson:
    try:
        lesson_id, title, scenes = _header(document)
    except LessonProblem as e:
        raise LessonError(e.error.template, *e.error.values) from None
    cache: dict = {}
    read: list[Scene] = []
    runs: set[tuple] = set()
    for index, entry in enumerate(scenes):
        try:
            scene = _scene(entry, strict)
            _count_runs(runs, scene)
        except LessonProblem as e:
            raise LessonError(QT_TR_NOOP("scene {0}: {1}"), index + 1, e.error) from None
        if scene.scenario.kind != "model":  # a real model's scene is checked against the model when it runs
            for lang in LANGUAGES:  # a preset has a version per language, each with its own tokens
                scene_opened(scene, index, folder, lang, cache)
        read.append(scene)
    return Lesson(lesson_id, title, tuple(read), folder)


def _count_runs(runs: set, scene: Scene) -> None:
    """The passes of the real model the lesson's scenes take (`runs`, `scene`'s added), at most MOST_RUNS (each
    text once, and once more for each set of heads switched off in it), counted before any is run: 200 scenes
    of their own texts took 12 minutes to check."""
    if scene.scenario.kind != "model":
        return
    runs |= {(scene.scenario.value, ()), (scene.scenario.value, tuple(sorted(scene.off)))}
    if len(runs) > MOST_RUNS:
        raise LessonProblem(QT_TR_NOOP("the real model's scenes up to this one read {0} texts or sets of heads "
                                       "switched off; a lesson may have at most {1} (each is a pass of the model)"),
                            len(runs), MOST_RUNS)


def _header(document) -> tuple:
    """(id, title, the scenes' entries), checked."""
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise LessonError(QT_TR_NOOP("not an AttnViz lesson (it needs \"format\": \"{0}\")"), FORMAT_NAME)
    version = document.get("version")
    if not _is_whole(version) or version < 1:
        raise LessonError(QT_TR_NOOP("\"version\" must be a whole number, not {0}"), quoted(version))
    if version > FORMAT_VERSION:
        raise LessonError(QT_TR_NOOP("written by a newer AttnViz (lesson format version {0}); this version reads up "
                                     "to version {1}"), version, FORMAT_VERSION)
    _known_keys(document, LESSON_KEYS, Phrase(QT_TR_NOOP("the lesson")))
    lesson_id = document.get("id")
    if not (isinstance(lesson_id, str) and 0 < len(lesson_id) <= MAX_ID_LENGTH and lesson_id.isascii()
            and lesson_id[0].isalnum() and all(c.isalnum() or c in "-_" for c in lesson_id)):
        raise LessonError(QT_TR_NOOP("\"id\" must be a name of letters, digits, - and _ (at most {0}), not {1}"),
                          MAX_ID_LENGTH, quoted(lesson_id))
    title = _bilingual_text(document.get("title"), "title", MAX_TITLE_LENGTH)
    scenes = document.get("scenes")
    if not isinstance(scenes, list) or not scenes:
        raise LessonError(QT_TR_NOOP("\"scenes\" must be a list of at least one scene"))
    if len(scenes) > MAX_SCENES:
        raise LessonError(QT_TR_NOOP("{0:,} scenes is more than the {1} a lesson may have"), len(scenes), MAX_SCENES)
    return lesson_id, title, scenes


def _scene(entry, strict: bool = False) -> Scene:
    if not isinstance(entry, dict):
        raise LessonProblem(QT_TR_NOOP("must be an object with a scenario, a view and a caption"))
    _known_keys(entry, SCENE_KEYS, Phrase(QT_TR_NOOP("the scene")))
    for key in ("scenario", "caption"):
        if key not in entry:
            raise LessonProblem(QT_TR_NOOP("\"{0}\" missing"), key)
    view, compare = _view(entry)
    head = entry.get("head", 0)
    if not _is_whole(head):
        raise LessonProblem(QT_TR_NOOP("\"head\" must be a head number (0, 1, ...), not {0}"), quoted(head))
    step = _step(entry.get("step"), view)
    scenario = _ref(entry["scenario"], "scenario")
    settings = _settings(entry.get("settings", {}))  # its type checked before a model's scene reads its keys
    layer, off = _model_part(entry, scenario, view)
    move_q = _move_q(entry.get("move_q"), view, scenario)
    if settings.scores_times is not None and view != "softmax":
        raise LessonProblem(QT_TR_NOOP("settings: \"scores_times\" multiplies the softmax view's scores: the view "
                                       "must be softmax, not {0}"), view)
    return Scene(
        scenario=scenario,
        caption=_bilingual_text(entry["caption"], "caption", MAX_TEXT_LENGTH, multiline=True),
        notes=_notes(entry, strict), view=view, head=head, query=_query(entry.get("query")), settings=settings,
        step=step, question=_question(entry.get("question"), strict),
        compare=None if compare is None else _ref(compare, "compare"), layer=layer, off=off, move_q=move_q)


def _view(entry: dict) -> tuple:
    """(the view, the other scenario of a comparison or None)."""
    view = entry.get("view", "head")
    if view not in VIEWS:
        raise LessonProblem(QT_TR_NOOP("unknown view {0} (the views are: {1})"), quoted(view), ", ".join(VIEWS))
    compare = entry.get("compare")
    if (view == "compare") != (compare is not None):
        raise LessonProblem(QT_TR_NOOP("the view \"compare\" needs \"compare\" (the other scenario), and only it "
                                       "has one"))
    return view, compare


def _step(step, view: str):
    """The guided step the scene opens at (None: all of the row), one that `view` shows."""
    if step is None:
        return None
    if not _is_whole(step) or step not in STEPS:
        raise LessonProblem(QT_TR_NOOP("\"step\" must be a guided step from {0} to {1}, not {2}"),
                            STEPS[0], STEPS[-1], quoted(step))
    if view not in STEP_VIEWS:
        raise LessonProblem(QT_TR_NOOP("the view {0} shows no guided step (those that do: {1})"), view,
                            ", ".join(STEP_VIEWS))
    if view != "layer" and step not in ROW_STEPS:
        raise LessonProblem(QT_TR_NOOP("step {0} is a layer's own: only the view layer shows it (the view {1} shows "
                                       "steps {2} to {3})"), step, view, ROW_STEPS[0], ROW_STEPS[-1])
    return step


def _notes(entry: dict, strict: bool) -> Bilingual:
    """The scene's notes (none: empty); `strict` refuses notes written but empty in both languages."""
    notes = _bilingual_text(entry.get("notes", {"ja": "", "en": ""}), "notes", MAX_TEXT_LENGTH, multiline=True)
    if strict and "notes" in entry and looks_empty(notes.ja) and looks_empty(notes.en):
        raise LessonProblem(QT_TR_NOOP("\"notes\" is empty in both languages: write the note, or leave \"notes\" "
                                       "out"))
    return notes


def _model_part(entry: dict, scenario: Ref, view: str) -> tuple[int, tuple]:
    """A real model's scene: (the layer shown, the heads switched off), checked as far as they can be
    without the model; any other scene has neither, nor a question about the next token."""
    question = entry.get("question")
    next_token = isinstance(question, dict) and question.get("hide") == "next-token"
    if scenario.kind != "model":
        given = [k for k in MODEL_KEYS if k in entry]
        if given:
            raise LessonProblem(QT_TR_NOOP("\"{0}\" is for a real model's scene ({{\"model\": \"TEXT\"}}) only"),
                                given[0])
        if next_token:
            raise LessonProblem(QT_TR_NOOP("the question hides the next token, which only a real model predicts; "
                                           "this scene's scenario is not one"))
        return 0, ()
    if view not in MODEL_VIEWS:
        raise LessonProblem(QT_TR_NOOP("the view {0} does not show a real model's layer (those that do: {1})"),
                            view, ", ".join(MODEL_VIEWS))
    if set(entry.get("settings", {})) - {"colour_scale"}:
        raise LessonProblem(QT_TR_NOOP("settings: a real model's scene takes only \"colour_scale\" (the model's "
                                       "mask and scale are its own)"))
    layer = entry.get("layer", 0)
    if not _is_whole(layer) or not 0 <= layer < MAX_LAYERS:
        raise LessonProblem(QT_TR_NOOP("\"layer\" must be a layer number (0, 1, ...), not {0}"), quoted(layer))
    off = entry.get("off", [])
    if not isinstance(off, list) or len(off) > MAX_LAYERS * MAX_HEADS or not all(
            isinstance(h, str) and re.fullmatch(r"[0-9]{1,3}\.[0-9]{1,3}", h) for h in off):
        raise LessonProblem(QT_TR_NOOP("\"off\" must list heads as \"LAYER.HEAD\" texts, such as [\"1.4\"], "
                                       "not {0}"), quoted(off))
    pairs = tuple(sorted({tuple(int(p) for p in h.split(".")) for h in off}))
    if len(pairs) != len(off):
        raise LessonProblem(QT_TR_NOOP("\"off\" names a head twice"))
    return layer, pairs


def _ref(entry, where: str) -> Ref:
    if not isinstance(entry, dict) or len(entry) != 1 or next(iter(entry)) not in REFERENCES:
        raise LessonProblem(QT_TR_NOOP("\"{0}\" must be one of {{\"preset\": ID}}, {{\"file\": \"PATH\"}}, "
                                       "{{\"embedded\": {{...a scenario...}}}} or {{\"model\": \"TEXT\"}}"), where)
    kind, value = next(iter(entry.items()))
    if kind == "model":
        if where == "compare":
            raise LessonProblem(QT_TR_NOOP("\"compare\": a real model's text cannot be compared"))
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_MODEL_TEXT:
            raise LessonProblem(QT_TR_NOOP("\"model\" must be the text the model reads, at most {0} characters"),
                                MAX_MODEL_TEXT)
        try:
            check_text(value)
        except AttnVizError as e:
            raise LessonProblem(QT_TR_NOOP("\"model\": {0}"), e) from None
        bad = first_control(value.replace("\n", ""))
        if bad is not None:
            raise LessonProblem(QT_TR_NOOP("\"model\" contains a control character ({0}), which AttnViz does not "
                                           "accept"), code_point(bad))
        return Ref(kind, value)
    if kind == "embedded":
        if not isinstance(value, dict) or value.get("format") != SCENARIO_FORMAT:
            raise LessonProblem(QT_TR_NOOP("\"{0}\": \"embedded\" must be a scenario document (\"format\": "
                                           "\"{1}\")"), where, SCENARIO_FORMAT)
        return Ref(kind, json.dumps(value, ensure_ascii=False, allow_nan=False))
    if not isinstance(value, str) or not value or len(value) > 1000:
        raise LessonProblem(QT_TR_NOOP("\"{0}\": \"{1}\" must be a non-empty text of at most 1,000 characters"),
                            where, kind)
    return Ref(kind, value)


def _move_q(value, view: str, scenario: Ref) -> tuple[float, ...] | None:
    """The q the scene moves its query to: numbers within AttnViz's range (its length is the head's d_k,
    checked when the scene is opened), in a view the class can watch it in, of a scenario that can be edited."""
    if value is None:
        return None
    if not (isinstance(value, list) and 0 < len(value) <= MAX_DIM
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and abs(x) <= MAX_ABS
                    for x in value)):
        raise LessonProblem(QT_TR_NOOP("\"move_q\" must be a list of numbers {0} (the query's q), not {1}"),
                            RANGE_TEXT, quoted(value))
    if view not in MOVE_VIEWS or scenario.kind == "model":
        raise LessonProblem(QT_TR_NOOP("\"move_q\" moves a toy scenario's q where the class watches it: the view must "
                                       "be one of {0}"), ", ".join(MOVE_VIEWS))
    return tuple(value)  # as written: a lesson file is written again byte for byte


def _query(value) -> Bilingual | None:
    if value is None:
        return None
    if _is_whole(value):
        return Bilingual(value, value)
    if isinstance(value, dict) and set(value) == set(LANGUAGES) and all(_is_whole(v) for v in value.values()):
        return Bilingual(value["ja"], value["en"])
    raise LessonProblem(QT_TR_NOOP("\"query\" must be a token position (0, 1, ...), or one per language "
                                   "({{\"ja\": 8, \"en\": 6}}), not {0}"), quoted(value))


def _settings(entry) -> SceneSettings:
    if not isinstance(entry, dict):
        raise LessonProblem(QT_TR_NOOP("\"settings\" must be an object"))
    _known_keys(entry, SETTINGS_KEYS, Phrase(QT_TR_NOOP("settings")))
    for key in ("causal", "scale", "layer_norm"):
        if key in entry and not isinstance(entry[key], bool):
            raise LessonProblem(QT_TR_NOOP("settings: \"{0}\" must be true or false, not {1}"), key, quoted(entry[key]))
    t = entry.get("temperature")
    low, high = TEMPERATURE_RANGE
    if t is not None and not (isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
                              and low <= t <= high):
        raise LessonProblem(QT_TR_NOOP("settings: \"temperature\" must be a number from {0:g} to {1:g}, not {2}"),
                            low, high, quoted(t))
    for key, allowed in (("colour_scale", COLOUR_SCALES), ("positions", POSITIONS), ("scores_times", SCORES_TIMES)):
        if key in entry and (entry[key] not in allowed or isinstance(entry[key], (bool, float))):
            raise LessonProblem(QT_TR_NOOP("settings: \"{0}\" must be one of {1}, not {2}"), key,
                                ", ".join(map(str, allowed)), quoted(entry[key]))
    return SceneSettings(entry.get("causal"), entry.get("scale"), None if t is None else float(t),
                         entry.get("colour_scale"), entry.get("positions"), entry.get("layer_norm"),
                         entry.get("scores_times"))


def _question(entry, strict: bool = False) -> Question | None:
    """The scene's question; `strict` refuses a "why" written but empty in both languages, as notes are."""
    if entry is None:
        return None
    if not isinstance(entry, dict):
        raise LessonProblem(QT_TR_NOOP("\"question\" must be an object with \"hide\" and \"text\""))
    _known_keys(entry, QUESTION_KEYS, Phrase(QT_TR_NOOP("the question")))
    if entry.get("hide") not in HIDES:
        raise LessonProblem(QT_TR_NOOP("question: \"hide\" must be one of {0}, not {1}"), ", ".join(HIDES),
                            quoted(entry.get("hide")))
    why = entry.get("why")
    said = Bilingual("", "") if why is None else _bilingual_text(why, "why", MAX_TEXT_LENGTH, multiline=True)
    if strict and why is not None and looks_empty(said.ja) and looks_empty(said.en):
        raise LessonProblem(QT_TR_NOOP("\"why\" is empty in both languages: write why, or leave \"why\" out"))
    return Question(entry["hide"], _bilingual_text(entry.get("text"), "question", MAX_TEXT_LENGTH, multiline=True),
                    said)


def _bilingual_text(value, where: str, most: int, multiline: bool = False) -> Bilingual:
    if not isinstance(value, dict) or set(value) != set(LANGUAGES) or not all(isinstance(v, str)
                                                                              for v in value.values()):
        raise LessonProblem(QT_TR_NOOP("\"{0}\" must be an object with a text in Japanese and one in English "
                                  "({{\"ja\": \"...\", \"en\": \"...\"}})"), where)
    for lang in LANGUAGES:
        text = value[lang]
        if len(text) > most:
            raise LessonProblem(QT_TR_NOOP("\"{0}\" ({1}) is {2:,} characters long; the most is {3:,}"),
                           where, lang, len(text), most)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise LessonProblem(QT_TR_NOOP("\"{0}\" ({1}) is not valid text"), where, lang) from None
        bad = first_control(text.replace("\n", "") if multiline else text)
        if bad is not None:
            raise LessonProblem(QT_TR_NOOP("\"{0}\" ({1}) contains a control character ({2}), which AttnViz does not "
                                      "accept"), where, lang, code_point(bad))
    if where == "title" and any(looks_empty(value[lang]) for lang in LANGUAGES):
        raise LessonProblem(QT_TR_NOOP("\"title\" must not be empty in either language"))
    if where in ("caption", "question") and all(looks_empty(value[lang]) for lang in LANGUAGES):  # " ", "\u200b"
        raise LessonProblem(QT_TR_NOOP("\"{0}\" is empty in both languages: the class would see nothing"), where)
    return Bilingual(value["ja"], value["en"])


def _known_keys(entry: dict, keys: tuple, where: Phrase) -> None:
    unknown = [k for k in entry if k not in keys]
    if unknown:
        raise LessonProblem(QT_TR_NOOP("{0}: unknown key {1} (the keys are: {2})"), where, quoted(unknown[0]),
                            ", ".join(keys))


def _is_whole(x) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)




# ---------------------------------------------------------------- writing

def dumps(lesson: Lesson) -> str:
    """The lesson as its file's text: loads(dumps(lesson)) == lesson, and a file dumps wrote is written
    again byte for byte."""
    document = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "id": lesson.id, "title": _texts(lesson.title),
                "scenes": [_scene_document(s) for s in lesson.scenes]}
    return to_json_text(document)


def _scene_document(scene: Scene) -> dict:
    entry: dict[str, Any] = {"scenario": _ref_document(scene.scenario), "view": scene.view, "head": scene.head}
    if scene.query is not None:
        entry["query"] = scene.query.ja if scene.query.ja == scene.query.en else _texts(scene.query)
    entry["settings"] = {k: getattr(scene.settings, k) for k in SETTINGS_KEYS if getattr(scene.settings, k) is not None}
    if scene.step is not None:
        entry["step"] = scene.step
    entry["caption"] = _texts(scene.caption)
    if scene.notes.ja or scene.notes.en:
        entry["notes"] = _texts(scene.notes)
    if scene.question is not None:
        entry["question"] = {"hide": scene.question.hide, "text": _texts(scene.question.text)}
        if scene.question.why.ja or scene.question.why.en:
            entry["question"]["why"] = _texts(scene.question.why)
    if scene.compare is not None:
        entry["compare"] = _ref_document(scene.compare)
    if scene.scenario.kind == "model":
        entry["layer"] = scene.layer
        entry["off"] = [f"{layer}.{head}" for layer, head in scene.off]
    if scene.move_q is not None:
        entry["move_q"] = list(scene.move_q)
    return entry


def _ref_document(ref: Ref) -> dict:
    return {ref.kind: json.loads(ref.value) if ref.kind == "embedded" else ref.value}


def _texts(b: Bilingual) -> dict:
    return {"ja": b.ja, "en": b.en}


def check(lesson: Lesson) -> None:
    """Refuse (LessonError) a lesson made in memory (the editor's) that its file would not open as: the
    same checks as reading it, its scenario files looked for in lesson.folder."""
    loads(dumps(lesson), lesson.folder)


def save(lesson: Lesson, path) -> None:
    """Write the lesson atomically (the old file, if any, stays whole until the new one is in place),
    after checking that it opens again (check)."""
    check(lesson)
    atomic_write(path, dumps(lesson).encode("utf-8"))
