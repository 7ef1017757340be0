"""Hostile lesson files: each refused with one line naming the scene (1-based) and what is wrong, before
anything it names outside its folder is opened."""
import json
import os

import pytest

from attnviz.core.files import FileProblem
from attnviz.core.lessons import LessonError, load, loads
from attnviz.core.lessons.file import MAX_DEPTH, MAX_FILE_BYTES


def lesson_text(*scenes, **top) -> str:
    scenes = scenes or ({},)
    entries = [{"scenario": {"preset": "toy-3token"}, "caption": {"ja": "例", "en": "example"}, **s} for s in scenes]
    document = {"format": "attnviz-lesson", "version": 1, "id": "hostile", "title": {"ja": "題", "en": "title"},
                "scenes": entries, **top}
    return json.dumps({k: v for k, v in document.items() if v is not None})


def refused(text, message, folder=None):
    with pytest.raises(LessonError) as caught:
        loads(text, folder)
    said = str(caught.value)
    assert message in said and "\n" not in said, said
    return said


def scene_scenario(preset_document) -> dict:
    return {"scenario": {"embedded": preset_document}}


@pytest.mark.parametrize("scene, message", [
    ({"view": "3d"}, "scene 1: unknown view '3d'"),
    ({"view": None}, "scene 1: unknown view None"),
    ({"scenario": {"preset": "nope"}}, "scene 1: unknown preset 'nope'"),
    ({"scenario": {"preset": "../presets/seed-demo"}}, "scene 1: unknown preset"),
    ({"scenario": "seed-demo"}, "scene 1: \"scenario\" must be one of"),
    ({"scenario": {"preset": "seed-demo", "file": "x.json"}}, "scene 1: \"scenario\" must be one of"),
    ({"head": 1}, "scene 1: head 1 is out of range: the scenario has heads 0 to 0"),
    ({"head": -1}, "scene 1: head -1 is out of range"),
    ({"head": "0"}, "scene 1: \"head\" must be a head number"),
    ({"head": True}, "scene 1: \"head\" must be a head number"),
    ({"query": 3}, "scene 1: query 3 is out of range"),
    ({"query": {"ja": 0}}, "scene 1: \"query\" must be a token position"),
    ({"query": 2.0}, "scene 1: \"query\" must be a token position"),
    ({"step": 11}, "scene 1: \"step\" must be a guided step from 1 to 10, not 11"),
    ({"step": 2, "view": "softmax"}, "scene 1: the view softmax shows no guided step"),
    ({"step": 8}, "scene 1: step 8 is a layer's own: only the view layer shows it (the view head shows steps 1 to 5)"),
    ({"step": 6, "view": "layer", "scenario": {"preset": "projection-demo"}},
     "scene 1: step 6 is not one of this layer's steps (7, 1, 2, 3, 4, 5, 8, 9, 10): LayerNorm's comes only with"),
    ({"step": 7, "view": "layer"}, "scene 1: the view layer needs a layer scenario"),
    ({"settings": {"temperature": 0}}, "scene 1: settings: \"temperature\" must be a number from 0.01 to 100"),
    ({"settings": {"temperature": "hot"}}, "scene 1: settings: \"temperature\" must be a number"),
    ({"settings": {"causal": 1}}, "scene 1: settings: \"causal\" must be true or false"),
    ({"settings": {"colour_scale": "rainbow"}}, "scene 1: settings: \"colour_scale\" must be one of"),
    ({"settings": {"positions": "rope"}}, "scene 1: settings: \"positions\" needs a layer scenario"),
    ({"settings": {"layer_norm": True}}, "scene 1: settings: \"layer_norm\" needs a layer scenario"),
    ({"settings": {"layer_norm": "on"}}, "scene 1: settings: \"layer_norm\" must be true or false"),
    ({"settings": {"scores_times": 7}, "view": "softmax"},
     "scene 1: settings: \"scores_times\" must be one of 1, 10, 100, 1000, not 7"),
    ({"settings": {"scores_times": 1000.0}, "view": "softmax"}, "scene 1: settings: \"scores_times\" must be one of"),
    ({"settings": {"scores_times": 1000}}, "scene 1: settings: \"scores_times\" multiplies the softmax view's scores: "
                                           "the view must be softmax, not head"),
    ({"settings": {"mask": "none"}}, "scene 1: settings: unknown key 'mask'"),
    ({"settings": []}, "scene 1: \"settings\" must be an object"),
    ({"caption": "only one language"}, "scene 1: \"caption\" must be an object with a text in Japanese"),
    ({"caption": {"ja": "例", "en": "ex", "fr": "ex"}}, "scene 1: \"caption\" must be an object"),
    ({"caption": {"ja": "例", "en": "a\x1b[31mred"}}, "scene 1: \"caption\" (en) contains a control character"),
    ({"caption": {"ja": "例", "en": "x" * 10_001}}, "scene 1: \"caption\" (en) is 10,001 characters long"),
    ({"caption": {"ja": "", "en": " \n "}}, "scene 1: \"caption\" is empty in both languages"),
    ({"question": {"hide": "row", "text": {"ja": " ", "en": ""}}}, "scene 1: \"question\" is empty in both"),
    ({"caption": {"ja": "\u3000", "en": "\u200b"}}, "scene 1: \"caption\" is empty in both languages"),  # draw nothing
    ({"question": {"hide": "row", "text": {"ja": "\u200b", "en": "\ufeff "}}}, "scene 1: \"question\" is empty in"),
    # attacker round 15: default-ignorable and unassigned code points draw nothing either
    ({"caption": {"ja": "\u17b4", "en": "\u17b5"}}, "scene 1: \"caption\" is empty in both languages"),
    ({"caption": {"ja": "\ufffc", "en": "\ufffc "}}, "scene 1: \"caption\" is empty in both languages"),  # round 16
    ({"caption": {"ja": "\u0302", "en": "\u20dd\u0330"}}, "scene 1: \"caption\" is empty in both"),  # marks, round 18
    ({"caption": {"ja": "\u2065\ufff0", "en": "\U000e0080"}}, "scene 1: \"caption\" is empty in both languages"),
    ({"question": {"hide": "row", "text": {"ja": "\u180b", "en": "\U000e0fff"}}}, "scene 1: \"question\" is empty"),
    ({"question": {"hide": "everything", "text": {"ja": "?", "en": "?"}}}, "scene 1: question: \"hide\" must be"),
    ({"question": {"hide": "row"}}, "scene 1: \"question\" must be an object with a text"),
    ({"question": {"hide": "next-token", "text": {"ja": "?", "en": "?"}}}, "scene 1: the question hides the next"),
    ({"view": "compare"}, "scene 1: the view \"compare\" needs \"compare\""),
    ({"compare": {"preset": "seed-demo"}}, "scene 1: the view \"compare\" needs \"compare\""),
    ({"view": "compare", "compare": {"preset": "nope"}}, "scene 1: unknown preset 'nope'"),
    ({"script": "import os"}, "scene 1: the scene: unknown key 'script'"),
    (scene_scenario({"format": "attnviz-scenario", "version": 1, "tokens": ["a"], "heads": [
        {"name": "h", "q": [["nan"]], "k": [[1]], "v": [[1]]}]}), "scene 1: head 0 (h): q, row 1, column 1"),
    (scene_scenario({"format": "something-else"}), "scene 1: \"scenario\": \"embedded\" must be a scenario"),
])
def test_a_bad_scene_is_refused_naming_it(scene, message):
    refused(lesson_text({}, scene), message.replace("scene 1", "scene 2"))


@pytest.mark.parametrize("top, message", [
    ({"version": 2}, "written by a newer AttnViz (lesson format version 2)"),
    ({"version": "1"}, "\"version\" must be a whole number"),
    ({"format": "attnviz-scenario"}, "not an AttnViz lesson"),
    ({"id": "../../etc"}, "\"id\" must be a name of letters"),
    ({"id": None}, "\"id\" must be a name of letters"),
    ({"title": {"ja": "", "en": ""}}, "\"title\" must not be empty"),
    ({"scenes": []}, "\"scenes\" must be a list of at least one scene"),
    ({"scenes": "all of them"}, "\"scenes\" must be a list"),
    ({"macros": []}, "the lesson: unknown key 'macros'"),
])
def test_a_bad_lesson_is_refused(top, message):
    text = lesson_text()
    document = {**json.loads(text), **top}
    refused(json.dumps(document), message)


def test_a_scene_that_is_no_object_is_named():
    document = json.loads(lesson_text())
    document["scenes"].append(["a", "list"])
    refused(json.dumps(document), "scene 2: must be an object")


def test_too_many_scenes_are_refused():
    refused(lesson_text(*[{}] * 201), "201 scenes is more than the 200")


def test_broken_json_says_where():
    refused(lesson_text()[:-3], "broken JSON at line 1")


def test_nan_and_huge_integers_are_refused_while_parsing():
    refused(lesson_text().replace('"version": 1', '"version": NaN'), "NaN, which is not a number JSON allows")
    refused(lesson_text().replace('"version": 1', '"version": ' + "9" * 5000), "an integer of 5,000 digits")
    # attacker round 35: 1e400 in an embedded scenario was infinity, a traceback where it was written back
    embedded = {"scenario": {"embedded": {"format": "attnviz-scenario", "note": 1.0}},
                "caption": {"ja": "あ", "en": "a"}}
    refused(lesson_text(embedded).replace('"note": 1.0', '"note": 1e400'),
            "holds the number 1e400, past what a float holds")


def test_deep_nesting_is_refused():
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    refused(lesson_text({"caption": {"ja": "x", "en": "x"}}).replace('"hostile"', '"hostile", "x": ' + deep),
            "nested")
    very_deep = "[" * 200_000 + "]" * 200_000
    refused(lesson_text().replace('"hostile"', '"hostile", "x": ' + very_deep), "nested far too deeply")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.attnviz-lesson.json"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no memory, no disk
    with pytest.raises(FileProblem, match="too large for a lesson"):
        load(path)
    refused(" " * (MAX_FILE_BYTES + 1), "too large for a lesson")


def test_a_file_of_millions_of_values_is_refused_before_parsing():
    refused("[" + "0," * 2_000_001 + "0]", "far more than a lesson has")


def test_a_pipe_or_a_folder_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe.attnviz-lesson.json")
    with pytest.raises(FileProblem, match="not a regular file"):
        load(tmp_path / "pipe.attnviz-lesson.json")
    with pytest.raises(FileProblem, match="is a folder, not a lesson file"):
        load(tmp_path)


def write_scenario(path):
    path.write_text(json.dumps({"format": "attnviz-scenario", "version": 1, "tokens": ["a", "b"],
                                "heads": [{"name": "h", "q": [[1], [0]], "k": [[1], [0]], "v": [[1], [0]]}]}))


@pytest.mark.parametrize("name, message", [
    ("../outside.attnviz.json", "climbs out of the lesson's folder"),
    ("inside/../../outside.attnviz.json", "climbs out of the lesson's folder"),
    ("..\\outside.attnviz.json", "climbs out of the lesson's folder"),
    ("/etc/passwd", "must be a path relative to the lesson's folder"),
    ("C:\\Windows\\win.ini", "must be a path relative to the lesson's folder"),
    ("\\\\server\\share\\x.json", "must be a path relative to the lesson's folder"),
    ("link/outside.attnviz.json", "leads out of the lesson's folder (through a link)"),
    ("escape.attnviz.json", "leads out of the lesson's folder (through a link)"),
    ("notes.txt", "must be a scenario file (.json or .npz)"),
    ("missing.attnviz.json", "no such file"),
    ("", "must be a non-empty text"),
])
def test_a_scenario_file_outside_the_lessons_folder_is_refused(tmp_path, name, message):
    folder, outside = tmp_path / "lesson", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    write_scenario(tmp_path / "outside.attnviz.json")
    write_scenario(outside / "outside.attnviz.json")
    (folder / "link").symlink_to(outside)
    (folder / "escape.attnviz.json").symlink_to(tmp_path / "outside.attnviz.json")
    (folder / "notes.txt").write_text("{}")
    path = folder / "mine.attnviz-lesson.json"
    path.write_text(lesson_text({}, {"scenario": {"file": name}}))
    with pytest.raises(FileProblem) as caught:
        load(path)
    assert "scene 2:" in str(caught.value) and message in str(caught.value), str(caught.value)


def test_a_scenario_file_inside_the_folder_opens_through_a_link_that_stays_inside(tmp_path):
    (tmp_path / "scenarios").mkdir()
    write_scenario(tmp_path / "scenarios" / "two.attnviz.json")
    (tmp_path / "here").symlink_to(tmp_path / "scenarios")
    path = tmp_path / "mine.attnviz-lesson.json"
    path.write_text(lesson_text({"scenario": {"file": "here/two.attnviz.json"}}))
    assert load(path).scenes[0].scenario.value == "here/two.attnviz.json"


def test_a_broken_scenario_file_is_named_with_its_scene(tmp_path):
    (tmp_path / "broken.attnviz.json").write_text('{"format": "attnviz-scenario", "version": 1, "tokens": [')
    path = tmp_path / "mine.attnviz-lesson.json"
    path.write_text(lesson_text({}, {}, {"scenario": {"file": "broken.attnviz.json"}}))
    with pytest.raises(FileProblem, match="scene 3: .*broken.attnviz.json: broken JSON"):
        load(path)


def test_an_answer_tying_with_thousands_of_tokens_is_said_in_one_short_line():
    """Attacker round 17: 2,047 tying tokens made a 20 KB line."""
    from attnviz.core.lessons import open as opening
    names = [f"t{i}" for i in range(2048)]
    with pytest.raises(opening.LessonProblem) as refused:
        opening._stands_alone(["0.00"] * 2048, 0, names)
    said = str(refused.value.error)
    assert "ties on screen (0.00): t0 and t1, t2, t3, t4, t5 (+2,042); a question" in said and len(said) < 200


def test_a_key_given_twice_is_refused_not_the_last_one_taken():
    """Attacker round 23: json keeps the last of two keys, so an empty caption first and a full one after
    passed --check while a reader of the file saw the empty one."""
    text = lesson_text().replace('"caption": {', '"caption": {"ja": "", "en": ""}, "caption": {', 1)
    refused(text, 'gives "caption" twice in one object')


def test_a_lessons_questions_are_checked_within_a_budget_of_work_counted_before_it_is_done(monkeypatch):
    """Attacker round 23: 200 questions on a scenario of 64 heads × 512 tokens (a 60 KB file) took 120 s to
    open, on the window's thread. The weights each question works out are counted first; past the budget the
    lesson is refused naming the scene, and that scene's weights are never worked out."""
    from attnviz.core.lessons import open as opening
    worked = []
    real = opening.compute
    monkeypatch.setattr(opening, "compute", lambda s, *a: worked.append(s) or real(s, *a))
    # toy-3token: one head of 3 tokens, each question checked in both languages, 2 × 9 weights counted each time
    monkeypatch.setattr(opening, "MOST_CHECKED_CELLS", 3 * 2 * 3 ** 2)
    question = {"question": {"hide": "row", "text": {"ja": "どれ？", "en": "Which?"}}}
    loads(lesson_text(question))
    worked.clear()
    said = refused(lesson_text(*[question] * 4), "scene 2: the questions up to this one need 72 attention "
                                                 "weights worked out")
    assert len(worked) == 3 and "at most 54" in said  # scene 1 in both languages, scene 2 in one; its other never
