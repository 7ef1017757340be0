"""A real model's scenes: the built-in model reads the lesson's text, some heads switched off; the scene
opens from its run (run once and kept), its question about the next token answered by the run."""
import json

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.lessons import LessonError, builtin_lesson, dumps, loads, open_scene
from attnviz.core.lessons.model import ModelRuns

TEXT = "The cat ate the fish. The fish was fresh. The cat"
needs_model = pytest.mark.real_model("smollm2")


def lesson(**scene) -> str:
    entry = {"scenario": {"model": TEXT}, "caption": {"ja": "本物のモデル", "en": "A real model"}, **scene}
    return json.dumps({"format": "attnviz-lesson", "version": 1, "id": "mine",
                       "title": {"ja": "私の授業", "en": "My lesson"}, "scenes": [entry]})


class Counting(ModelRuns):
    """ModelRuns counting the forward passes it makes."""

    def __init__(self):
        super().__init__()
        self.passes = 0

    def get(self, text, off, cancelled=None):
        before = len(self._runs)
        found = super().get(text, off, cancelled)
        self.passes += len(self._runs) - before
        return found


@pytest.fixture(scope="module")
def runs():
    return Counting()


@needs_model
def test_a_scene_with_a_head_off_shows_the_models_run_with_that_head_off(runs):
    x = loads(lesson(view="head", layer=1, head=4, off=["1.4"],
                     question={"hide": "next-token", "text": {"ja": "次は？", "en": "Next?"}}))
    o = open_scene(x, 0, "en", runs)
    assert o.scenario.live is not None and o.scenario.live.layer == 1 and o.head == 4
    assert [(layer, head, c.off) for layer, head, c in o.scenario.live.changes] == [(1, 4, True)]
    assert o.run.run.changes == o.scenario.live.changes
    model = o.run.model
    ids = lm.encode(model, TEXT).ids
    direct = lm.run(model, ids, o.scenario.live.changes)
    assert np.allclose(o.run.run.probs, direct.probs, atol=1e-9)  # the same as running it afresh
    assert o.answer.next_token == int(np.argmax(direct.probs)) and o.answer.next_text == " was"
    assert o.run.baseline.changes == () and lm.token_text(model, int(np.argmax(o.run.baseline.probs))) == " ate"


@needs_model
def test_each_text_and_heads_off_is_run_once_and_kept(runs):
    x = loads(lesson(view="head", layer=24, head=4, off=["24.4"]))
    open_scene(x, 0, "ja", runs)
    passes = runs.passes
    open_scene(x, 0, "en", runs)
    open_scene(x, 0, "ja", runs)
    assert runs.passes == passes and runs.has(TEXT, ((24, 4),)) and runs.has(TEXT, ())


@needs_model
def test_a_layer_or_a_head_the_model_lacks_is_refused_before_the_model_runs(runs):
    for scene, said in (({"layer": 30}, "layer 30 is out of range: the model has layers 0 to 29"),
                        ({"off": ["3.9"]}, "3.9 is not a head of the model"),
                        ({"head": 9}, "head 9 is out of range")):
        x = loads(lesson(**scene))
        passes = runs.passes
        with pytest.raises(LessonError, match=f"scene 1: .*{said}"):
            open_scene(x, 0, "en", runs)
        assert runs.passes == passes or "head 9" in said


def test_a_model_scene_without_a_model_to_run_it_says_so():
    x = loads(lesson())
    with pytest.raises(LessonError, match="scene 1: the real model reads this scene's text, and no model was given"):
        open_scene(x, 0, "en")


@pytest.mark.parametrize("scene, said", [
    ({"view": "softmax"}, "the view softmax does not show a real model's layer"),
    ({"settings": {"causal": False}}, "a real model's scene takes only \"colour_scale\""),
    ({"settings": None}, "\"settings\" must be an object"),  # issue 45, round 14: a TypeError traceback
    ({"settings": 1.5}, "\"settings\" must be an object"),
    ({"off": "1.4"}, "\"off\" must list heads as \"LAYER.HEAD\" texts"),
    ({"off": ["1.4", "1.4"]}, "names a head twice"),
    ({"off": ["1.x"]}, "\"off\" must list heads"),
    ({"layer": -1}, "\"layer\" must be a layer number"),
    ({"layer": True}, "\"layer\" must be a layer number"),
    ({"scenario": {"model": ""}}, "\"model\" must be the text the model reads"),
    ({"scenario": {"model": "x" * 501}}, "at most 500 characters"),
    ({"scenario": {"model": "a\x07b"}}, "control character"),
    ({"view": "compare", "compare": {"preset": "seed-demo"}}, "the view compare does not show a real model's layer"),
    ({"scenario": {"preset": "seed-demo"}, "view": "compare", "compare": {"model": TEXT}}, "cannot be compared"),
])
def test_a_broken_model_scene_is_refused_with_one_line(scene, said):
    with pytest.raises(LessonError) as e:
        loads(lesson(**scene))
    assert said in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("scene, said", [
    ({"layer": 3}, "\"layer\" is for a real model's scene"),
    ({"off": ["1.4"]}, "\"off\" is for a real model's scene"),
    ({"question": {"hide": "next-token", "text": {"ja": "次", "en": "next"}}}, "only a real model predicts"),
])
def test_a_preset_scene_takes_no_model_part(scene, said):
    text = lesson(**scene).replace(json.dumps({"model": TEXT}), json.dumps({"preset": "seed-demo"}))
    with pytest.raises(LessonError, match=said):
        loads(text)


def test_a_model_scene_is_written_and_read_back_the_same():
    x = loads(lesson(view="heads", layer=16, off=["24.4", "1.4"]))
    assert x.scenes[0].off == ((1, 4), (24, 4))
    assert loads(dumps(x)) == x and dumps(loads(dumps(x))) == dumps(x)


def test_the_real_models_lesson_has_three_questions_about_its_heads_and_its_prediction():
    x = builtin_lesson("real-model")
    assert x.needs_model and 8 <= len(x.scenes) <= 20
    hides = [s.question.hide for s in x.scenes if s.question]
    assert len(hides) >= 3 and hides.count("next-token") >= 3
    assert any(s.off for s in x.scenes)  # a head switched off, and the prediction moving


def test_a_lesson_whose_real_model_scenes_take_too_many_passes_is_refused_before_any_runs():
    """Each text is a pass of the model, and each set of heads switched off in it another: 200 scenes of their own
    texts took 12 minutes to check. Counted when the lesson is read, without the model."""
    def scene(i: int, off: list[str]) -> dict:
        return {"scenario": {"model": f"{TEXT} {i}"}, "off": off, "caption": {"ja": "本物", "en": "Real"}}

    def lesson_of(scenes) -> str:
        return json.dumps({"format": "attnviz-lesson", "version": 1, "id": "many",
                           "title": {"ja": "多い", "en": "Many"}, "scenes": scenes})
    eight = [scene(i, ["1.4"]) for i in range(8)]  # 16 passes: the most
    assert len(loads(lesson_of(eight)).scenes) == 8
    with pytest.raises(LessonError, match=r"^scene 9: the real model's scenes up to this one read 17 texts or sets "
                                          r"of heads switched off; a lesson may have at most 16"):
        loads(lesson_of([*eight, scene(8, [])]))
    assert len(loads(lesson_of([*eight, scene(0, ["1.4"]), scene(3, [])])).scenes) == 10  # the same passes again
