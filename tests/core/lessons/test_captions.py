"""Every number a built-in lesson's caption, notes or question states is the core's: computed from the
scene (the scenario with the scene's settings, its head and query) by the check claims.py gives it, in
Japanese on the Japanese version of the preset and in English on the English one."""
import re
from types import SimpleNamespace

import pytest
from claims import CLAIMS

from attnviz.core.lessons import list_lessons, open_scene
from attnviz.core.lessons.builtin import builtin_ids, builtin_lesson
from attnviz.core.lessons.model import ModelRuns

NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?")  # 49,152 is one number
RUNS = ModelRuns()  # the real model's lesson: each scene's run, once for the module
SCENES = [pytest.param(lesson.id, n, marks=[pytest.mark.real_model("smollm2")] * lesson.needs_model)
          for lesson in list_lessons() for n in range(1, len(lesson.scenes) + 1)]


def opened(lesson_id: str, number: int, lang: str):
    lesson = next(x for x in list_lessons() if x.id == lesson_id)
    o = open_scene(lesson, number - 1, lang, RUNS)
    return SimpleNamespace(scene=o.scene, scenario=o.scenario, compare=o.compare, head=o.head, query=o.query,
                           lang=lang, run=o.run, answer=o.answer)


def said(scene, lang: str) -> str:
    texts = [scene.caption[lang], scene.notes[lang]] + ([scene.question.text[lang], scene.question.why[lang]]
                                                        if scene.question else [])
    return "\n".join(texts)


def pattern(text: str) -> re.Pattern:
    """`text` where it stands alone: "4" is not the 4 of "4.10" nor of "14"."""
    before = r"(?<![\d.])" if text[:1].isdigit() else ""
    after = r"(?!\d|\.\d)" if text[-1:].isdigit() else ""
    return re.compile(before + re.escape(text) + after)


def agrees(text: str, value) -> bool:
    if isinstance(value, str):
        return text.endswith(value)
    numbers = NUMBER.findall(text)
    assert len(numbers) == 1, f"a claim's text holds one number to check: {text!r}"
    written = numbers[0]
    decimals = len(written.split(".")[1]) if "." in written else 0
    if decimals == 0:
        return abs(float(value) - int(written.replace(",", ""))) < 1e-9
    return f"{float(value):.{decimals}f}" == written


def test_every_scene_of_every_built_in_lesson_has_its_claims_listed():
    lessons = [builtin_lesson(lesson_id) for lesson_id in builtin_ids()]  # the real model's too, installed or not
    assert set(CLAIMS) == {(lesson.id, n) for lesson in lessons for n in range(1, len(lesson.scenes) + 1)}


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("lesson_id, number", SCENES)
def test_every_number_said_is_the_cores(lesson_id, number, lang):
    o = opened(lesson_id, number, lang)
    remaining = said(o.scene, lang)
    claims = [((text if isinstance(text, str) else text[0 if lang == "ja" else 1]), check)
              for text, check in CLAIMS[(lesson_id, number)]]
    for text, check in sorted(((t, c) for t, c in claims if t is not None), key=lambda c: -len(c[0])):
        found = pattern(text)
        assert found.search(remaining) or found.search(said(o.scene, lang)), \
            f"scene {number} ({lang}) does not say {text!r}"
        value = check(o)
        assert agrees(text, value), f"scene {number} ({lang}) says {text!r}; the core computes {value!r}"
        remaining = found.sub(" ", remaining)
    assert not re.search(r"\d", remaining), \
        f"scene {number} ({lang}) states a number no claim checks: {remaining!r}"


def test_the_worked_examples_numbers_are_said_with_the_tutorials_rounding():
    scene = next(x for x in list_lessons() if x.id == "attention").scenes[4]
    for lang, rounds in (("ja", "丸めて"), ("en", "rounds")):
        text = scene.caption[lang]
        assert "[0.045, 0.769, 0.186]" in text and "[0.045, 0.768, 0.187]" in text and rounds in text


def test_it_attends_to_fish_with_068_in_both_languages():
    o = opened("attention", 9, "ja")
    assert o.scenario.tokens[o.query] == "それ" and "魚 0.68" in o.scene.caption["ja"]
    o = opened("attention", 9, "en")
    assert o.scenario.tokens[o.query] == "It" and "fish, 0.68" in o.scene.caption["en"]
