"""Making a lesson: scenes added from what the window shows (Ctrl+Shift+A, a caption typed in the dialog), the
editor's list reordered and trimmed, the lesson saved, checked by `attnviz lesson FILE --check` and given."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QMessageBox, QWidget

from attnviz.core.formats.document import scenario_to_dict
from attnviz.core.lessons import Bilingual, Ref, builtin_lesson, load
from attnviz.core.scenario import with_settings
from attnviz.gui.common.i18n import install_language
from presented import presenting  # tests/gui is on the path

ROOT = Path(__file__).resolve().parents[3]


def settle():
    for _ in range(3):
        QApplication.processEvents()


def add(window, qtbot, ja, en=""):
    """Ctrl+Shift+A, the caption typed, OK; what the dialog said of the scene."""
    window.activateWindow()  # the window's key: the caption's dialog before this one has closed
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key_A, Qt.ControlModifier | Qt.ShiftModifier)
    dialog = window.lessons.editor.caption_dialog
    assert dialog.isVisible()
    dialog.caption["ja"].setText(ja)
    dialog.caption["en"].setText(en)
    about = dialog.about.text()
    dialog.accept()
    settle()
    return about


def type_into(window, matrix, row, col, text):
    model = window.findChild(object, f"{matrix}Table").model()
    return model.setData(model.index(row, col), text, Qt.EditRole)


def three_scenes(window, qtbot):
    """A preset on the desk; the same with the mask off, at guided step 2, presenting softmax; an edited one."""
    assert "query 6 (それ) / 6 (It)" in add(window, qtbot, "猫の例", "The cat")  # the query in each version
    window.findChild(QWidget, "causalToggle").click()
    window.document.set_stage(2)
    window.classroom.set_presentation(True)
    window.classroom.present_view("softmax")
    settle()
    about = add(window, qtbot, "", "Softmax without the mask")
    window.classroom.set_presentation(False)
    assert type_into(window, "q", 6, 0, "2.5")
    assert "query 6 (それ)" in add(window, qtbot, "編集した例", "Edited")  # embedded: one version
    return about


def saved(window, monkeypatch, path, title_en=None):
    """Edit the lesson…, perhaps the English title typed, Save… to `path`."""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    editor = window.lessons.editor
    editor.edit()
    if title_en is not None:
        editor.dialog.title["en"].setText(title_en)
    editor.dialog.buttons["save"].click()
    return editor


def test_three_window_states_become_three_scenes_that_save_and_load_the_same(window, qtbot, monkeypatch, tmp_path):
    about = three_scenes(window, qtbot)
    assert "step is left out" in about  # the softmax view shows no guided step: the dialog says so
    lesson = window.lessons.editor.lesson
    one, two, three = lesson.scenes
    assert (one.scenario.kind, one.scenario.value, one.view, one.head, one.step) == ("preset", "seed-demo", "head",
                                                                                     0, None)
    assert one.query == Bilingual(6, 6) and one.caption == Bilingual("猫の例", "The cat")  # それ and It
    assert one.settings.causal is True and one.settings.colour_scale == "linear"
    assert (two.scenario.kind, two.view, two.settings.causal, two.step) == ("preset", "softmax", False, None)
    assert two.caption == Bilingual("Softmax without the mask", "Softmax without the mask")  # one typed: both
    assert three.scenario.kind == "embedded" and three.view == "head"
    assert json.loads(three.scenario.value) == json.loads(json.dumps(scenario_to_dict(window.document.scenario)))
    path = tmp_path / "mine.attnviz-lesson.json"
    editor = saved(window, monkeypatch, path, title_en="")  # left empty: the Japanese title for both
    assert path.is_file() and not editor.dirty and editor.dialog.message.text() == ""
    assert load(path).scenes == lesson.scenes and load(path).id == "mine"
    assert load(path).title == Bilingual("私の授業", "私の授業")


def test_the_editor_lists_the_scenes_and_moves_and_removes_them(window, qtbot):
    three_scenes(window, qtbot)
    editor = window.lessons.editor
    first, second, third = editor.lesson.scenes
    editor.edit()
    listed = editor.dialog.scenes
    assert [listed.item(i).text()[:3] for i in range(3)] == ["1. ", "2. ", "3. "]
    assert "The cat" in listed.item(0).text() and "Softmax" in listed.item(1).text()
    editor.dialog.buttons["down"].click()                     # scene 1 down
    assert editor.lesson.scenes == (second, first, third) and listed.currentRow() == 1
    editor.dialog.buttons["up"].click()
    assert editor.lesson.scenes == (first, second, third)
    listed.setCurrentRow(2)
    assert not editor.dialog.buttons["down"].isEnabled()
    editor.dialog.buttons["remove"].click()
    assert editor.lesson.scenes == (first, second) and listed.count() == 2


def test_caption_and_notes_edited_in_both_languages(window, qtbot):
    add(window, qtbot, "最初", "First")
    editor = window.lessons.editor
    editor.edit()
    editor.dialog.buttons["edit"].click()
    texts = editor.dialog.texts_dialog
    texts.caption["en"].setText("The first")
    texts.notes["ja"].setPlainText("答え：魚")
    texts.accept()
    scene = editor.lesson.scenes[0]
    assert scene.caption == Bilingual("最初", "The first") and scene.notes == Bilingual("答え：魚", "答え：魚")
    assert "The first" in editor.dialog.scenes.item(0).text()  # in the interface's language


def test_the_editor_authors_a_question_its_answer_worked_out_live(window, qtbot, monkeypatch, tmp_path):
    """Question…: what it hides, its text and why in both languages, the answer shown as the class will see it
    revealed; saved, the lesson file asks it and `attnviz lesson --check` reads it."""
    add(window, qtbot, "それの重み", "The weights of It")  # seed-demo, query それ / It
    editor = window.lessons.editor
    editor.edit()
    editor.dialog.buttons["question"].click()
    dialog = editor.dialog.question_dialog
    assert "nothing is hidden" in dialog.answer.text() and dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    dialog.hide_choice.setCurrentIndex(dialog.hide_choice.findData("row"))
    assert dialog.answer.text() == "魚 0.68, 食べた 0.09 / fish 0.68, ate 0.09"  # live, in each version's words
    dialog.hide_choice.setCurrentIndex(dialog.hide_choice.findData("top-key"))
    assert dialog.answer.text() == "魚 0.68 / fish 0.68"
    assert dialog.hide_choice.findData("next-token") == -1  # a toy scenario predicts no next token
    dialog.text["ja"].setText("「それ」が一番見るのは？")
    dialog.why["en"].setText("Both point to food.")
    dialog.accept()
    question = editor.lesson.scenes[0].question
    assert (question.hide, question.text.en, question.why.ja) == ("top-key", "「それ」が一番見るのは？",
                                                                 "Both point to food.")  # one language: both
    path = tmp_path / "asked.attnviz-lesson.json"
    saved(window, monkeypatch, path)
    assert json.loads(path.read_text(encoding="utf-8"))["scenes"][0]["question"]["why"]["ja"] == "Both point to food."
    assert load(path).scenes[0].question == question


def test_a_question_that_ties_on_screen_cannot_be_authored(window, qtbot):
    """At T = 30 the weights of 。 read 0.17 for five keys: the dialog says so and OK stays off."""
    window.document.select(query=5)
    window.document.show(with_settings(window.document.scenario, temperature=30))
    add(window, qtbot, "平ら", "Flat")
    editor = window.lessons.editor
    editor.edit()
    editor.dialog.buttons["question"].click()
    dialog = editor.dialog.question_dialog
    dialog.hide_choice.setCurrentIndex(dialog.hide_choice.findData("top-key"))
    assert "ties on screen (0.17)" in dialog.answer.text()
    assert not dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    dialog.hide_choice.setCurrentIndex(dialog.hide_choice.findData(""))  # no question: fine again
    assert dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()


def test_a_scene_added_while_presenting_is_confirmed_on_the_screen(window, qtbot):
    window.classroom.set_presentation(True)
    settle()
    add(window, qtbot, "発表中", "While presenting")
    notice = window.lessons.editor.notice
    assert notice.isVisible() and "Scene 1 added" in notice.text()
    assert notice.font().pixelSize() >= 20  # read from the back, as the caption is
    notice.timer.timeout.emit()  # a few seconds later
    assert not notice.isVisible()


def test_the_saved_lesson_checks_on_the_command_line_and_is_given_with_scene_2s_settings(window, qtbot, monkeypatch,
                                                                                         tmp_path):
    three_scenes(window, qtbot)
    path = tmp_path / "mine.attnviz-lesson.json"
    saved(window, monkeypatch, path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "attnviz", "lesson", str(path), "--check"], capture_output=True,
                            text=True, env=env, encoding="utf-8")
    assert (result.returncode, result.stdout, result.stderr) == (0, "3 scenes\n", "")
    window.document.undo_stack.setClean()  # the edit made for scene 3: no question before the lesson
    assert window.lessons.open_path(str(path), 1)
    settle()
    d = window.document
    assert window.classroom.presenting and window.classroom.presented_view == "softmax"
    assert d.scenario.settings.causal is False and d.query == 6 and d.stage is None
    assert window.lessons.caption.where.text() == "2 / 3"


def test_a_refused_save_says_why_in_the_editor_and_changes_nothing(window, qtbot, monkeypatch, tmp_path):
    add(window, qtbot, "a" * 10_001)  # longer than a caption may be
    path = tmp_path / "long.attnviz-lesson.json"
    editor = saved(window, monkeypatch, path)
    assert "Not saved" in editor.dialog.message.text() and "10,001" in editor.dialog.message.text()
    assert not path.exists() and editor.dirty and editor.path is None


def test_a_built_in_lesson_given_is_edited_and_saved_as_a_new_file(window, qtbot, monkeypatch, tmp_path):
    assert window.lessons.open(builtin_lesson("multi-head"))
    window.lessons.end()
    editor = window.lessons.editor
    editor.edit()
    assert editor.dialog.scenes.count() == len(builtin_lesson("multi-head").scenes)
    editor.dialog.buttons["remove"].click()
    builtin = Path(builtin_lesson("multi-head").folder) / "multi-head.attnviz-lesson.json"
    before = builtin.read_bytes()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(builtin), ""))
    editor.dialog.buttons["save"].click()
    assert "built-in" in editor.dialog.message.text() and builtin.read_bytes() == before
    path = tmp_path / "my-heads.attnviz-lesson.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    editor.dialog.buttons["save"].click()
    assert load(path).scenes == builtin_lesson("multi-head").scenes[1:]


def compared(window, qtbot, presses=1):
    """C pressed `presses` times while presenting; the comparison on the stage once it is built."""
    for _ in range(presses):
        qtbot.keyClick(window, Qt.Key_C)
        settle()
    qtbot.waitUntil(lambda: window.classroom.comparison() is not None)
    dialog = window.parts.presented()
    assert window.classroom.presented_view == "compare" and dialog.isVisible()
    return dialog


def given_again(window, qtbot, path, index=0):
    """The saved lesson given from scene `index`: the comparison it shows, once built."""
    window.document.undo_stack.setClean()  # the window's own edits: no question before the lesson
    assert window.lessons.open_path(str(path), index)
    settle()
    qtbot.waitUntil(lambda: window.classroom.comparison() is not None)
    assert window.classroom.presented_view == "compare"
    return window.parts.presented()


def test_the_presented_comparison_is_added_as_a_compare_scene_and_given_again_the_same(qtbot, monkeypatch,
                                                                                        tmp_path):
    w = presenting(qtbot, "hashi-chopsticks", "en")  # a pair's preset: C sets it beside its partner
    w.document.select(query=5)
    shown = compared(w, qtbot).figure
    about = add(w, qtbot, "はし", "bank")
    assert "the comparison of She paid money into the bank and We fished from the river bank" in about
    assert "query 0 (はし) / 5 (bank)" in about  # the window's query (the story's) in each version
    path = tmp_path / "bank.attnviz-lesson.json"
    editor = saved(w, monkeypatch, path)
    assert "the comparison of She paid money" in editor.dialog.scenes.item(0).text()
    (scene,) = load(path).scenes
    assert (scene.view, scene.scenario, scene.compare) == ("compare", Ref("preset", "hashi-chopsticks"),
                                                            Ref("preset", "hashi-bridge"))
    assert scene.step is None and load(path).scenes == editor.lesson.scenes
    again = given_again(w, qtbot, path).figure
    assert (again.a.tokens, again.b.tokens) == (shown.a.tokens, shown.b.tokens)
    assert again.a.tokens[5] == "bank" and again.b.tokens[4] == "river"


def test_a_pair_shown_from_another_scenario_names_that_pair(window, qtbot, monkeypatch, tmp_path):
    window.classroom.set_presentation(True)
    settle()
    shown = compared(window, qtbot, presses=2).figure  # seed-demo has no partner: the word orders, then はし
    add(window, qtbot, "はし", "bank")
    path = tmp_path / "pair.attnviz-lesson.json"
    saved(window, monkeypatch, path)
    (scene,) = load(path).scenes
    assert (scene.scenario, scene.compare) == (Ref("preset", "hashi-chopsticks"), Ref("preset", "hashi-bridge"))
    assert scene.head == 0 and scene.query == Bilingual(0, 5)  # はし and bank, the pair's own story
    again = given_again(window, qtbot, path).figure
    assert (again.a.tokens, again.b.tokens) == (shown.a.tokens, shown.b.tokens)


def test_the_comparisons_positions_are_the_scenes_and_both_stay_presets(qtbot, monkeypatch, tmp_path):
    w = presenting(qtbot, "position-nekoga", "ja")
    dialog = compared(w, qtbot)
    dialog.positions.setCurrentIndex(2)  # RoPE for A and B, from the comparison's own control
    qtbot.waitUntil(lambda: not dialog.working and dialog.figure.a.projection.positions == "rope")
    shown = dialog.figure
    assert "「猫が座った」と「座ったが猫」の比較" in add(w, qtbot, "語順とRoPE", "Word order with RoPE")
    path = tmp_path / "rope.attnviz-lesson.json"
    saved(w, monkeypatch, path)
    (scene,) = load(path).scenes
    assert (scene.scenario, scene.compare) == (Ref("preset", "position-nekoga"), Ref("preset", "position-suwatta"))
    assert scene.settings.positions == "rope"
    again = given_again(w, qtbot, path).figure
    assert (again.a.tokens, again.b.tokens) == (shown.a.tokens, shown.b.tokens)
    assert again.a.projection.positions == again.b.projection.positions == "rope"
    for before, after in ((shown.a, again.a), (shown.b, again.b)):
        assert all(np.array_equal(x.q, y.q) for x, y in zip(before.heads, after.heads))


def test_an_edited_a_is_embedded_beside_its_preset_partner_each_with_its_own_temperature(qtbot, monkeypatch,
                                                                                          tmp_path):
    from attnviz.gui.state.commands import SetSettings
    w = presenting(qtbot, "hashi-chopsticks", "en")
    d = w.document
    d.push(SetSettings(d, "T", temperature=2.0))  # A only: the partner C sets beside it keeps T = 1
    shown = compared(w, qtbot).figure
    assert (shown.a.settings.temperature, shown.b.settings.temperature) == (2.0, 1.0)
    add(w, qtbot, "温度", "Temperature")
    path = tmp_path / "warm.attnviz-lesson.json"
    saved(w, monkeypatch, path)
    (scene,) = load(path).scenes
    assert scene.scenario.kind == "embedded" and scene.compare == Ref("preset", "hashi-bridge")
    assert scene.settings.temperature is None  # not shared: given again, each keeps its own
    again = given_again(w, qtbot, path).figure
    assert (again.a.tokens, again.b.tokens) == (shown.a.tokens, shown.b.tokens)
    assert (again.a.settings.temperature, again.b.settings.temperature) == (2.0, 1.0)


def test_a_lessons_compare_scene_being_given_is_added_again_with_both_scenarios_embedded(window, qtbot):
    lesson = builtin_lesson("why-it-works")
    index = next(i for i, s in enumerate(lesson.scenes) if s.view == "compare" and s.settings.positions == "rope")
    assert window.lessons.open(lesson, index)
    qtbot.waitUntil(lambda: window.classroom.comparison() is not None)
    shown = window.parts.presented().figure
    add(window, qtbot, "もう一度", "Again")  # the lesson given is the one edited: the scene goes at its end
    scene = window.lessons.editor.lesson.scenes[-1]
    assert (scene.view, scene.scenario.kind, scene.compare.kind, scene.settings.positions) == (
        "compare", "embedded", "embedded", "rope")  # the lesson's scenarios are no preset opened in the window
    window.lessons.editor.give(len(window.lessons.editor.lesson.scenes) - 1)
    settle()
    qtbot.waitUntil(lambda: window.classroom.comparison() is not None)
    again = window.parts.presented().figure
    assert (again.a.tokens, again.b.tokens) == (shown.a.tokens, shown.b.tokens)
    assert "RoPE" in again.a.text("title", "en") and "RoPE" in again.b.text("title", "en")


def test_a_comparison_still_being_built_is_refused_with_the_reason(window, qtbot, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: said.append(a[2]))
    window.classroom.set_presentation(True)
    dialog = compared(window, qtbot)
    dialog.positions.setCurrentIndex(1)  # built again, off the GUI thread
    assert dialog.working
    qtbot.keyClick(window, Qt.Key_A, Qt.ControlModifier | Qt.ShiftModifier)
    assert said and "still being built" in said[0] and window.lessons.editor.lesson is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_lessons_menu_offers_adding_and_editing_in_the_interfaces_language(window, lang):
    install_language(lang)
    menu = window.menus.lessons_menu
    window.lessons.fill_menu(menu)
    texts = [a.text() for a in menu.actions()]
    add_text = {"ja": "この画面を場面として追加…", "en": "Add this as a scene…"}[lang]
    assert add_text in texts
    assert window.lessons.editor.add_action.shortcut().toString() == "Ctrl+Shift+A"


def test_the_editors_list_writes_a_captions_maths_with_its_subscripts(window, qtbot):
    window.lessons.open(builtin_lesson("multi-head"), 0)  # given: the lesson to edit
    window.lessons.end()
    editor = window.lessons.editor
    editor.edit()
    listed = [editor.dialog.scenes.item(i).text() for i in range(editor.dialog.scenes.count())]
    assert any("QᵢKᵢᵀ" in text for text in listed) and not any("_" in text for text in listed)
