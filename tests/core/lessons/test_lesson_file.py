"""Lesson files: the format's round trip, the built-in lessons, and a scene's question answered from
its numbers."""
import json

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.lessons import (
    VIEWS,
    Bilingual,
    Lesson,
    LessonError,
    Question,
    Ref,
    Scene,
    SceneSettings,
    dumps,
    load,
    loads,
    open_scene,
    save,
)
from attnviz.core.lessons.builtin import ORDER, builtin_lesson, list_lessons
from attnviz.core.lessons.model import ModelRuns
from attnviz.core.lessons.scene import HIDES
from attnviz.core.paths import resource
from attnviz.core.presets import load_preset

BUILT_IN = list_lessons()
RUNS = ModelRuns()  # the real model's scenes, run once for the module


def small_lesson(**scene) -> dict:
    entry = {"scenario": {"preset": "toy-3token"}, "caption": {"ja": "計算例", "en": "The worked example"}, **scene}
    return {"format": "attnviz-lesson", "version": 1, "id": "mine", "title": {"ja": "私の授業", "en": "My lesson"},
            "scenes": [entry]}


def test_the_three_source_lessons_are_built_in_in_the_order_they_are_taught_then_the_real_models():
    assert ORDER == ("attention", "multi-head", "why-it-works", "real-model")
    installed = lm.bundled_model() is not None
    assert tuple(lesson.id for lesson in BUILT_IN) == (ORDER if installed else ORDER[:3])


def test_the_real_models_lesson_is_listed_only_where_the_model_is_installed(monkeypatch):
    monkeypatch.setattr(lm, "bundled_model", lambda: None)
    monkeypatch.setattr(lm.catalog, "bundled_model", lambda: None)
    assert [x.id for x in list_lessons()] == ["attention", "multi-head", "why-it-works"]
    assert builtin_lesson("real-model").needs_model  # still readable: `attnviz lesson real-model` says why not


@pytest.mark.parametrize("lesson", BUILT_IN, ids=lambda x: x.id)
def test_a_built_in_lesson_has_8_to_20_scenes_3_questions_and_every_text_in_both_languages(lesson):
    assert 8 <= len(lesson.scenes) <= 20
    assert sum(scene.question is not None for scene in lesson.scenes) >= 3
    assert lesson.title.ja.strip() and lesson.title.en.strip()
    for scene in lesson.scenes:
        assert scene.view in VIEWS
        assert scene.caption.ja.strip() and scene.caption.en.strip()
        assert scene.caption.ja != scene.caption.en
        if scene.question:
            assert scene.question.hide in HIDES
            assert scene.question.text.ja.strip() and scene.question.text.en.strip()


@pytest.mark.parametrize("lesson", BUILT_IN, ids=lambda x: x.id)
def test_a_built_in_lessons_file_is_as_dumps_writes_it(lesson):
    path = resource("lessons", f"{lesson.id}.attnviz-lesson.json")
    assert dumps(lesson) == path.read_text(encoding="utf-8")
    assert loads(dumps(lesson), lesson.folder) == lesson


@pytest.mark.parametrize("lesson", BUILT_IN, ids=lambda x: x.id)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_scene_opens_in_both_languages_and_every_question_has_an_answer(lesson, lang):
    for index, scene in enumerate(lesson.scenes):
        o = open_scene(lesson, index, lang, RUNS)
        assert 0 <= o.query < o.scenario.n and 0 <= o.head < len(o.scenario.heads)
        assert (o.compare is not None) == (scene.view == "compare")
        if scene.question:
            assert o.answer.weights[o.answer.top_key] == max(o.answer.weights)


def test_english_captions_speak_of_the_english_tokens():
    scene = builtin_lesson("attention").scenes[8]  # It → fish
    o = open_scene(builtin_lesson("attention"), 8, "en")
    assert o.scenario.tokens == load_preset("seed-demo", "en").tokens and o.scenario.tokens[o.query] == "It"
    assert "fish" in scene.caption.en and "魚" not in scene.caption.en and "魚" in scene.caption.ja


def test_a_question_is_answered_from_the_scene_with_its_settings():
    lesson = loads(json.dumps(small_lesson(question={"hide": "top-key", "text": {"ja": "?", "en": "?"}})))
    answer = open_scene(lesson, 0, "en").answer
    assert answer.top_key == 1 and round(answer.weights[1], 4) == 0.7679  # it → fish
    flat = loads(json.dumps(small_lesson(settings={"temperature": 100},
                                         question={"hide": "row", "text": {"ja": "?", "en": "?"}})))
    assert open_scene(flat, 0, "en").answer.weights[1] < 0.4


def test_a_query_may_differ_between_the_languages_versions():
    lesson = loads(json.dumps({**small_lesson(), "scenes": [{"scenario": {"preset": "taro-hanako"},
                                                            "query": {"ja": 8, "en": 6},
                                                            "caption": {"ja": "彼女", "en": "She"}}]}))
    assert lesson.scenes[0].query == Bilingual(8, 6)
    assert open_scene(lesson, 0, "ja").scenario.tokens[8] == "彼女"
    assert open_scene(lesson, 0, "en").scenario.tokens[6] == "She"


def test_every_field_round_trips(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "toy.attnviz.json").write_text(
        json.dumps({"format": "attnviz-scenario", "version": 1, "tokens": ["a", "b"],
                    "heads": [{"name": "h", "q": [[1], [0]], "k": [[1], [0]], "v": [[1], [0]]}]}))
    embedded = {"format": "attnviz-scenario", "version": 1, "tokens": ["x", "y", "z"],
                "heads": [{"name": "h", "q": [[1], [2], [3]], "k": [[1], [0], [2]], "v": [[1], [0], [1]]}]}
    lesson = Lesson("mine", Bilingual("私の", "Mine"), (
        Scene(Ref("preset", "position-nekoga"), Bilingual("位置", "positions"), Bilingual("メモ", "note"),
              view="compare", head=1, query=Bilingual(0, 1),
              settings=SceneSettings(causal=True, scale=False, temperature=0.5, colour_scale="log",
                                     positions="rope"), compare=Ref("preset", "position-suwatta")),
        Scene(Ref("file", "scenarios/toy.attnviz.json"), Bilingual("ファイル", "a file"), step=3, view="steps",
              query=Bilingual(1, 1)),
        Scene(Ref("embedded", json.dumps(embedded, ensure_ascii=False)), Bilingual("埋め込み", "embedded"),
              question=Question("top-key", Bilingual("どこ？", "where?")), query=Bilingual(2, 2)),
    ), str(tmp_path))
    path = tmp_path / "mine.attnviz-lesson.json"
    save(lesson, path)
    again = load(path)
    assert again == lesson and dumps(again) == path.read_text(encoding="utf-8")
    assert open_scene(again, 1, "ja").scenario.tokens == ("a", "b")
    assert open_scene(again, 2, "en").answer.top_key == 2
    o = open_scene(again, 0, "en")
    assert o.scenario.projection.positions == "rope" == o.compare.projection.positions
    assert o.scenario.settings.temperature == 0.5 and o.scenario.settings.scale is False


def test_a_lesson_made_in_memory_is_checked_before_it_is_saved(tmp_path):
    from attnviz.core.lessons import check
    good = Lesson("mine", Bilingual("私の", "Mine"), (Scene(Ref("preset", "seed-demo"), Bilingual("例", "ex"),
                                                           head=1),), str(tmp_path))
    check(good)
    bad = Lesson("mine", good.title, (good.scenes[0], Scene(Ref("preset", "toy-3token"), Bilingual("例", "ex"),
                                                             head=1)), str(tmp_path))
    path = tmp_path / "mine.attnviz-lesson.json"
    with pytest.raises(LessonError, match="scene 2: head 1 is out of range"):
        save(bad, path)
    assert not path.exists()


def test_a_lesson_read_from_text_without_a_folder_may_name_no_file():
    with pytest.raises(LessonError, match="scene 1: .*has no folder"):
        loads(json.dumps(small_lesson(scenario={"file": "toy.attnviz.json"})))


def test_the_normalisation_scene_shows_the_layer_with_layernorm_on_its_step_lit():
    lesson = builtin_lesson("multi-head")
    index = next(i for i, s in enumerate(lesson.scenes) if s.settings.layer_norm)
    o = open_scene(lesson, index, "en")
    assert o.scenario.projection.layer_norm and o.scene.view == "layer" and o.scene.step == 6  # LayerNorm's step
    plain = open_scene(lesson, index - 1, "en").scenario
    assert not np.allclose(o.scenario.heads[0].q, plain.heads[0].q)  # q made from the normalised X
