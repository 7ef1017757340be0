"""Giving a lesson from full screen: every scene of every built-in lesson shown in both languages with its
caption, the clicker's keys through the scenes and their guided steps, what the class tried kept and reset,
and never a dialog (tests/gui/conftest.py fails any)."""
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSlider

from attnviz.core import layer
from attnviz.core.lessons import builtin_lesson, list_lessons, open_scene
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language
from pixels import rgb  # tests/gui is on the path
from presented import unreadable


def giving(qtbot, lesson_id, lang="ja", scene=0):
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert w.lessons.open(builtin_lesson(lesson_id), scene)
    settle()
    return w


def step_table_problems(steps) -> list[str]:
    """Every key's row of the presented step table in view (up to ten keys: a longer sentence's rows
    scroll under the pinned Σ), and no shown cell's text cut (each row in its own font: the best key's is
    bold)."""
    from PySide6.QtGui import QFontMetrics
    table, model, problems = steps.table, steps.model, []
    rows = [r for r in range(model.rowCount()) if not table.isRowHidden(r)]
    bottom = table.rowViewportPosition(rows[-1]) + table.rowHeight(rows[-1]) if rows else 0
    if 0 < len(rows) <= 10 and bottom > table.viewport().height():
        problems.append("the last key's row is out of view")
    shown = [c for c in range(model.columnCount()) if not table.isColumnHidden(c)]
    if sum(table.columnWidth(c) for c in shown) > table.viewport().width():
        problems.append("the last column is out of view")
    for r in rows:
        for c in range(model.columnCount()):
            text = model.data(model.index(r, c))
            font = model.data(model.index(r, c), Qt.FontRole) or table.font()
            if not table.isColumnHidden(c) and text and \
                    QFontMetrics(font).horizontalAdvance(text) + 6 > table.columnWidth(c):  # Qt's 3 px a side
                problems.append(f"row {r} column {c}: {text!r} cut")
    return problems


def settle():
    for _ in range(3):
        QApplication.processEvents()


def press(w, qtbot, key, times=1):
    for _ in range(times):
        qtbot.keyClick(w, key)
        settle()


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("lesson_id", [pytest.param(x.id, marks=[pytest.mark.real_model("smollm2")] * x.needs_model)
                                       for x in list_lessons()])
def test_page_down_gives_every_scene_of_a_built_in_lesson_with_its_caption_and_no_dialog(qtbot, lesson_id, lang):
    w = giving(qtbot, lesson_id, lang)
    lesson = builtin_lesson(lesson_id)
    before = None
    for index, scene in enumerate(lesson.scenes):
        qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)  # a real model's scene: run, then shown
        settle()
        assert w.lessons.index == index and w.isFullScreen() and w.classroom.presenting
        opened = open_scene(lesson, index, lang, w.lessons.runs)
        d = w.document
        assert (d.active_head, d.query, d.stage) == (opened.head, opened.query, scene.step)
        assert d.scenario.tokens == opened.scenario.tokens and d.scenario.settings == opened.scenario.settings
        assert w.lessons.caption.where.text() == f"{index + 1} / {len(lesson.scenes)}"
        assert w.lessons.caption.caption.isVisible() and unreadable(w.lessons.caption) == []
        if w.parts.steps_dock.isVisible():
            assert step_table_problems(w.parts.steps) == [], index + 1
        picture = rgb(w.grab().toImage())
        assert picture.std() > 10 and (before is None or not np.array_equal(picture, before))  # drawn, and new
        before = picture
        if scene.question is not None:
            press(w, qtbot, Qt.Key_PageDown)  # a question's answer first (test_question.py)
            assert w.lessons.index == index and w.lessons.question.asked.revealed
        after = lesson.scenes[index + 1] if index + 1 < len(lesson.scenes) else None
        # → walks a layer's steps in the layer's order, a head's five elsewhere; up to the step before the
        # next scene's when it goes on in the same scenario and view, only its own when it shows it another way
        order = layer.steps(d.scenario.projection) if scene.view == "layer" else (1, 2, 3, 4, 5)
        last = None if scene.step is None else order[-1]
        if scene.step is not None and after is not None and after.step is not None and after.scenario == scene.scenario:
            last = order[max(order.index(scene.step), order.index(after.step) - 1)] \
                if after.view == scene.view and after.step in order else scene.step
        steps = 0 if scene.step is None else order.index(last) - order.index(scene.step)
        press(w, qtbot, Qt.Key_PageDown, steps)  # the scene's guided steps first ...
        assert w.lessons.index == index and d.stage == last
        press(w, qtbot, Qt.Key_PageDown)         # ... then the next scene
    assert w.lessons.index == len(lesson.scenes) - 1  # the last scene stays, and says it is the end
    assert w.lessons.caption.verdict.isVisible() and "Esc" in w.lessons.caption.verdict.text()
    assert unreadable(w.lessons.caption) == []
    assert not w.document.modified
    title = w.windowTitle()  # the lesson and the scene, not "untitled"
    assert lesson.title[lang] in title and str(len(lesson.scenes)) in title and "untitled" not in title.lower()


def test_back_home_end_and_a_number_with_enter_move_through_the_lesson(qtbot):
    w = giving(qtbot, "attention")
    count = len(builtin_lesson("attention").scenes)
    press(w, qtbot, Qt.Key_End)
    assert w.lessons.index == count - 1
    press(w, qtbot, Qt.Key_PageUp)
    assert w.lessons.index == count - 2
    press(w, qtbot, Qt.Key_Home)
    assert w.lessons.index == 0
    qtbot.keyClicks(w, "12")
    assert "12" in w.lessons.caption.typed.text() and w.lessons.index == 0 and w.classroom.presented_view == "linear"
    press(w, qtbot, Qt.Key_Return)
    assert w.lessons.index == 11 and w.lessons.caption.where.text() == f"12 / {count}"
    qtbot.keyClicks(w, "99")
    press(w, qtbot, Qt.Key_Return)
    assert w.lessons.index == 11 and "99" in w.lessons.caption.typed.text()  # said, nothing moves


def test_what_the_class_tried_is_kept_between_scenes_and_r_puts_the_scene_back(qtbot):
    w = giving(qtbot, "attention", scene=9)  # the experiment's scene: the class switches the mask off
    d = w.document
    lessons = builtin_lesson("attention")
    original = open_scene(lessons, 9, "ja").scenario
    from attnviz.gui.state.commands import SetSettings
    d.push(SetSettings(d, "mask off", causal=False))
    assert d.modified
    press(w, qtbot, Qt.Key_PageDown)  # next scene: no question asked
    assert w.lessons.index == 10
    press(w, qtbot, Qt.Key_PageUp)    # back: as the class left it
    assert w.lessons.index == 9 and d.scenario.settings.causal is False
    press(w, qtbot, Qt.Key_R)
    assert d.scenario.settings == original.settings and not d.modified


def test_s_lists_the_scenes_and_enter_goes_to_the_one_chosen(qtbot):
    w = giving(qtbot, "why-it-works")
    query = w.document.query
    press(w, qtbot, Qt.Key_S)
    scenes = w.lessons.scenes
    assert scenes.isVisible() and scenes.list.count() == len(builtin_lesson("why-it-works").scenes)
    assert unreadable(scenes) == []
    assert "Enter" in scenes.hint.text() and "↑" in scenes.hint.text()
    for key in (Qt.Key_Down,) * 5 + (Qt.Key_Up,):  # the keys go where a keyboard sends them: the list
        qtbot.keyClick(QApplication.focusWidget(), key)
    assert scenes.list.currentRow() == 4 and w.lessons.index == 0 and w.document.query == query
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    settle()
    assert not scenes.isVisible() and w.lessons.index == 4


def test_the_scene_list_picks_with_a_click_and_esc_closes_it_where_it_was(qtbot):
    w = giving(qtbot, "why-it-works", scene=2)
    press(w, qtbot, Qt.Key_S)
    scenes = w.lessons.scenes
    assert scenes.list.currentRow() == 2
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_End)
    assert scenes.list.currentRow() == scenes.list.count() - 1
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Escape)
    settle()
    assert not scenes.isVisible() and w.lessons.index == 2
    press(w, qtbot, Qt.Key_S)
    item = scenes.list.item(6)
    qtbot.mouseClick(scenes.list.viewport(), Qt.LeftButton, pos=scenes.list.visualItemRect(item).center())
    settle()
    assert not scenes.isVisible() and w.lessons.index == 6


def test_b_blanks_the_screen_and_b_brings_it_back(qtbot):
    w = giving(qtbot, "attention")
    press(w, qtbot, Qt.Key_B)
    picture = rgb(w.grab().toImage())
    assert (picture < 10).mean() > 0.99  # black
    press(w, qtbot, Qt.Key_PageDown)
    assert w.lessons.index == 0  # a blank screen takes no step
    press(w, qtbot, Qt.Key_B)
    assert not w.lessons.blank.isVisible() and rgb(w.grab().toImage()).std() > 10


def test_esc_ends_the_lesson_on_the_desk_without_asking(qtbot):
    w = giving(qtbot, "multi-head", "en", scene=3)
    d = w.document
    from attnviz.gui.state.commands import SetSettings
    d.push(SetSettings(d, "T", temperature=2.0))
    press(w, qtbot, Qt.Key_Escape)
    assert not w.lessons.active and not w.classroom.presenting and not w.isFullScreen()
    assert not w.lessons.dock.isVisible() and not d.modified


def test_a_compare_scene_shows_the_lessons_pair_with_the_scenes_positions(qtbot):
    lesson = builtin_lesson("why-it-works")
    index = next(i for i, s in enumerate(lesson.scenes) if s.view == "compare" and s.settings.positions == "rope")
    w = giving(qtbot, "why-it-works", "en", scene=index)
    qtbot.waitUntil(lambda: w.classroom.comparison() is not None)  # built off the GUI thread, as the others wait
    dialog = w.parts.presented()
    assert w.classroom.presented_view == "compare" and dialog.isVisible()
    dialog_figure = dialog.figure
    assert "RoPE" in dialog_figure.a.text("title", "en") and "RoPE" in dialog_figure.b.text("title", "en")


def test_the_worked_examples_scenes_tell_one_guided_step_each(qtbot):
    w = giving(qtbot, "attention", scene=1)  # scenes 2, 3, 4: toy-3token at steps 1 (q·k), 2 (÷√d_k), 4 (softmax)
    press(w, qtbot, Qt.Key_A)  # scene 2's question answered
    press(w, qtbot, Qt.Key_PageDown)
    assert (w.lessons.index, w.document.stage) == (2, 2)  # the next scene goes on where scene 2 stopped
    press(w, qtbot, Qt.Key_PageDown)
    assert (w.lessons.index, w.document.stage) == (2, 3)  # the mask, before scene 4's softmax
    press(w, qtbot, Qt.Key_PageDown)
    assert (w.lessons.index, w.document.stage) == (3, 4)


def test_a_scene_moves_its_q_as_the_class_watches_and_r_plays_it_again(qtbot):
    """Attention scene 10 (seed 000's experiment): the food slider of それ's q goes to 0 and animal rises to 2,
    a frame at a time, every view following; at the end the scene's scenario, それ → 猫, nothing to save."""
    w = giving(qtbot, "attention", scene=9)
    d, moving = w.document, w.lessons.moving
    opened = open_scene(builtin_lesson("attention"), 9, "ja")
    query = d.query
    assert moving.active and d.scenario.heads[0].q[query][1] > 1.5  # where it starts: food (a frame or two in)
    assert list(opened.start.heads[0].q[query]) == [0, 2, 0, 0]
    seen = []
    while moving.active:
        moving.tick()
        q = d.scenario.heads[0].q[query]
        seen.append((q[0], q[1], d.result.heads[0].weights[query].argmax()))
    assert len(seen) >= 10 and not d.modified
    assert np.array_equal(d.scenario.heads[0].q, opened.scenario.heads[0].q)  # the scene's scenario at the end
    animal, food, _ = zip(*seen)
    assert list(animal) == sorted(animal) and list(food) == sorted(food, reverse=True)  # steadily, no jumps back
    assert 0 < animal[len(seen) // 2] < 2  # the class sees it on its way
    assert d.scenario.tokens[seen[0][2]] == "魚" and d.scenario.tokens[seen[-1][2]] == "猫"
    sliders = [s for s in w.findChildren(QSlider) if s.isVisible()]
    assert sliders  # the q sliders on the presented controls, at the scene's values
    press(w, qtbot, Qt.Key_R)
    assert moving.active and d.scenario.heads[0].q[query][1] > 1.5  # again, from the start (a frame or two in)
    moving.finish()  # a screenshot's: at rest at once
    assert not moving.active and np.array_equal(d.scenario.heads[0].q, opened.scenario.heads[0].q)


def test_the_overflow_scene_multiplies_the_softmax_views_scores_by_1000(qtbot):
    lesson = builtin_lesson("why-it-works")
    index = next(i for i, s in enumerate(lesson.scenes) if s.settings.scores_times == 1000)
    w = giving(qtbot, "why-it-works", "en", scene=index)
    softmax = w.parts.maths.tab_view("softmax")
    assert w.classroom.presented_view == "softmax" and softmax.factor.currentText() == "× 1000"
    press(w, qtbot, Qt.Key_PageUp)  # the scene before: the scores as they are
    assert softmax.factor.currentText() == "× 1"


def test_the_tutorials_rounding_note_waits_for_the_step_that_computes_the_weights(qtbot):
    """At ÷√d_k (attention scene 3) the note on the tutorial's rounding would state scene 4's answer."""
    w = giving(qtbot, "attention", "en", scene=2)
    note = w.parts.steps.note
    assert w.document.stage == 2 and not note.isVisible()
    press(w, qtbot, Qt.Key_PageDown)  # the mask
    assert w.document.stage == 3 and not note.isVisible()
    w.lessons.go(4)  # scene 5: softmax, the question answered and the weights computed
    settle()
    assert note.isVisible() and "0.769" in note.text()


def test_a_layer_scene_walks_the_layers_own_steps_to_plus_x(qtbot):
    """A lesson's layer scene from its split: → lights a head's five, concat, × W_o and + X in the layer's
    order, then the lesson goes on (it stopped at step 5, never reaching concat)."""
    from attnviz.core import layer
    from attnviz.core.lessons import loads
    text = json.dumps({"format": "attnviz-lesson", "version": 1, "id": "mine", "title": {"ja": "題", "en": "title"},
                       "scenes": [{"scenario": {"preset": "projection-demo"}, "view": "layer", "step": layer.SPLIT,
                                   "caption": {"ja": "層", "en": "the layer"}},
                                  {"scenario": {"preset": "seed-demo"}, "caption": {"ja": "次", "en": "next"}}]})
    w = giving(qtbot, "attention")
    assert w.lessons.open(loads(text), 0)
    settle()
    seen = [w.document.stage]
    while w.lessons.index == 0:
        press(w, qtbot, Qt.Key_PageDown)
        seen.append(w.document.stage if w.lessons.index == 0 else "next")
    assert seen == [layer.SPLIT, 1, 2, 3, 4, 5, layer.CONCAT, layer.W_O, layer.RESIDUAL, "next"]
    press(w, qtbot, Qt.Key_PageUp)  # back into the scene: from where it starts
    assert (w.lessons.index, w.document.stage) == (0, layer.SPLIT)


def test_the_multi_head_lessons_split_scene_hands_over_to_the_heads_scene(qtbot):
    w = giving(qtbot, "multi-head", "en", scene=5)  # the split (7); scene 7 shows a head's softmax
    press(w, qtbot, Qt.Key_PageDown)
    assert w.lessons.index == 6 and w.document.stage == 4
