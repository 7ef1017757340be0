"""The real model's lesson, given: a scene runs the model off the GUI thread the first time (its caption
says so meanwhile), then opens from the kept run; a question about the next token hides the bars (the
likeliest tokens listed in the order of their text, no bar, no number) until it is revealed; a click on
a token is the class's guess, right when the model makes it the likeliest; a head switched off in the
lesson shows before → after; what the class switched off in a scene is kept while the lesson is open."""
import threading

import numpy as np
import pytest
from PySide6.QtCore import Qt
from test_player import giving, press, settle  # tests/gui/lessons is on the path

from attnviz.core import lm
from attnviz.gui.common.asked import RIGHT_COLOUR, WRONG_COLOUR
from attnviz.gui.model.next_token import BAR
from attnviz.gui.state.commands import SetHeadOff

pytestmark = pytest.mark.real_model("smollm2")
NEXT_QUESTION = 1   # scene 2: which token comes after "The cat"?
ONE_FOUR_OFF = 5    # scene 6: head 1.4 switched off, the prediction moves


def given(qtbot, scene, lang="en"):
    w = giving(qtbot, "real-model", lang, scene)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)
    settle()
    return w


def bars_of(w):
    return w.findChild(object, "nextTokenView").bars


def bar_pixels(bars) -> int:
    """How many pixels of the bars' colour the panel draws."""
    image = bars.grab().toImage()
    pixels = np.array([[image.pixelColor(x, y).getRgb()[:3] for x in range(0, image.width(), 2)]
                       for y in range(0, image.height(), 2)])
    return int((np.abs(pixels - np.array([BAR.red(), BAR.green(), BAR.blue()])).max(axis=2) < 12).sum())


def click_token(w, qtbot, text: str):
    """Click the listed token `text` (as the model writes it: " ate")."""
    bars = bars_of(w)
    drawn = bars.drawn()
    from PySide6.QtGui import QFontMetricsF

    from attnviz.gui.look.fonts import figure_font_like
    cells = bars._choice_cells(QFontMetricsF(figure_font_like(bars.font())), len(drawn))
    row = next(r for r, index in enumerate(drawn) if lm.token_text(w.model.runner.model, bars.ids[index]) == text)
    qtbot.mouseClick(bars, Qt.LeftButton, pos=cells[row].center().toPoint())
    settle()


def test_a_scene_not_yet_run_says_the_model_is_reading_then_shows_the_models_layer(qtbot):
    w = giving(qtbot, "real-model", "en", 0)  # no settle for the run: the caption says what is happening
    assert w.lessons.caption.verdict.text() == "The model is reading the text…" or not w.lessons.waiting
    qtbot.waitUntil(lambda: w.document.scenario.live is not None, timeout=60000)
    live = w.document.scenario.live
    assert live.text == w.lessons.scene().scenario.value and live.layer == 0 and w.isFullScreen()
    assert w.document.scenario.tokens[-1] == "·cat" and len(w.document.scenario.heads) == 9


def test_the_lesson_opens_on_the_model_reading_with_a_progress_bar_never_on_the_scene_before(qtbot, monkeypatch):
    """While the model reads scene 1's text, everything above its caption is the reading's cover: what is
    happening, large, and a progress bar; the toy demo the window showed before is nowhere in view."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QProgressBar

    from attnviz.gui.model.runner import ModelRunner
    release = threading.Event()
    run_scene = ModelRunner._run_scene
    monkeypatch.setattr(ModelRunner, "_run_scene", lambda self, *a: release.wait(60) and run_scene(self, *a))
    w = giving(qtbot, "real-model", "ja", 0)
    reading = w.lessons.reading
    assert w.lessons.waiting and reading.isVisible()
    assert reading.label.text() == "モデルが文を読んでいます…" and reading.label.font().pixelSize() >= 20
    assert reading.findChild(QProgressBar).isVisible()
    caption_top = w.lessons.dock.geometry().top()
    assert reading.geometry().top() == 0 and reading.geometry().bottom() + 1 >= caption_top - 1
    assert reading.width() == w.width()
    w.parts.bring_forward(w.parts.steps_dock)  # as the window does on a later turn (seen under X: the steps'
    qtbot.wait(300)                            # output over the cover): the cover comes back on top
    for x in range(10, w.width(), 40):  # nothing of the scene before is on top anywhere above the caption
        for y in range(10, caption_top - 10, 40):
            on_top = w.childAt(QPoint(x, y))
            assert on_top is reading or reading.isAncestorOf(on_top), (x, y, on_top)
    image = w.grab().toImage()
    yellow = sum(1 for x in range(0, w.width(), 4) for y in range(0, caption_top, 4)
                 if abs(image.pixelColor(x, y).red() - 253) < 20 and abs(image.pixelColor(x, y).green() - 231) < 20
                 and image.pixelColor(x, y).blue() < 80)  # viridis' 1.00: the toy demo's first cell
    assert yellow == 0
    release.set()
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)
    settle()
    assert not reading.isVisible() and w.document.scenario.live is not None


def test_a_question_on_the_next_token_hides_the_bars_and_lists_the_tokens_alphabetically(qtbot):
    w = given(qtbot, NEXT_QUESTION)
    bars = bars_of(w)
    assert bars.hiding() and bar_pixels(bars) == 0  # no bar drawn, so no length to read the answer from
    listed = [bars.items[r][0] for r in bars.drawn()]
    assert len(listed) == 10 and listed == sorted(listed, key=lambda t: (t.lstrip("·").casefold(), t))
    assert "·ate" in listed and listed[0] != "·ate"
    assert w.parts.heads.panel(0).data().asked is None  # the weights are not what is asked: shown
    press(w, qtbot, Qt.Key_A)
    assert not bars.hiding() and bar_pixels(bars) > 100
    assert bars.items[0][0] == "·ate" and w.lessons.caption.verdict.text() == "The answer: ·ate"


def test_a_click_on_the_likeliest_token_is_marked_right_and_another_wrong(qtbot):
    w = given(qtbot, NEXT_QUESTION)
    click_token(w, qtbot, " was")
    assert w.lessons.caption.verdict.text() == "Your guess: ·was (A or → shows the answer)"
    click_token(w, qtbot, " ate")
    press(w, qtbot, Qt.Key_PageDown)  # a clicker's → reveals first
    assert w.lessons.index == NEXT_QUESTION and w.lessons.question.asked.right is True
    assert w.lessons.caption.verdict.text() == "Your guess: ·ate — right"
    bars = bars_of(w)
    assert bars.asked.colour() == RIGHT_COLOUR and bars.asked.mark() == "✓"
    press(w, qtbot, Qt.Key_R)  # asked again, hidden
    click_token(w, qtbot, " had")
    press(w, qtbot, Qt.Key_A)
    assert w.lessons.question.asked.right is False and bars_of(w).asked.colour() == WRONG_COLOUR
    assert w.lessons.caption.verdict.text() == "Your guess: ·had — wrong (the answer: ·ate)"


def test_a_click_on_the_heatmap_is_no_guess_of_the_next_token(qtbot):
    w = given(qtbot, NEXT_QUESTION)
    w.parts.heads.guessed.emit(3)
    settle()
    assert w.lessons.question.asked.guess is None


def test_a_head_switched_off_in_the_lesson_shows_the_prediction_before_and_after(qtbot):
    w = given(qtbot, ONE_FOUR_OFF, "ja")
    press(w, qtbot, Qt.Key_A)
    items = w.findChild(object, "nextTokenView").items()
    was, ate = (next(x for x in items if x[0] == t) for t in ("·was", "·ate"))
    assert items[0][0] == "·was" and f"{was[1]:.1%}" == "32.6%"
    assert f"{ate[2]:.1%}" == "39.4%" and f"{ate[1]:.1%}" == "15.0%"  # before → after, as the notes say
    assert [(layer, head) for layer, head, _ in w.document.scenario.live.changes] == [(1, 4)]


def test_a_head_the_class_switched_off_is_kept_when_coming_back_and_r_undoes_it(qtbot):
    w = given(qtbot, 7)  # the last scene: try it yourself
    d = w.document
    d.push(SetHeadOff(d, 2, True))
    qtbot.waitUntil(lambda: w.model.runner.current() is not None, timeout=60000)
    moved = w.model.runner.current().probs
    press(w, qtbot, Qt.Key_PageUp)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)
    press(w, qtbot, Qt.Key_PageDown)
    settle()
    qtbot.waitUntil(lambda: w.model.runner.current() is not None, timeout=60000)
    assert [(layer, head) for layer, head, _ in d.scenario.live.changes] == [(1, 2)]
    assert np.allclose(w.model.runner.current().probs, moved)
    press(w, qtbot, Qt.Key_R)
    assert d.scenario.live.changes == () and not d.modified


def test_a_real_models_layer_with_a_head_off_is_added_as_a_scene_saved_and_given_again(qtbot, tmp_path):
    from test_editor import add

    from attnviz.core.lessons import load
    w = given(qtbot, 7)
    d = w.document
    d.push(SetHeadOff(d, 2, True))
    d.select(head=2, query=5)
    w.lessons.end()  # on the desk, the real model's layer 1 with head 1.2 off
    settle()
    about = add(w, qtbot, "ヘッド 1.2 を止める", "Head 1.2 off")
    assert "layer 1" in about and "1.2" in about
    path = tmp_path / "mine.attnviz-lesson.json"
    assert w.lessons.editor.save_to(str(path))
    scenes = load(str(path)).scenes  # the lesson given, and the scene added after its last
    scene = scenes[-1]
    assert len(scenes) == 9
    assert (scene.scenario.kind, scene.scenario.value) == ("model", w.lessons.runs.get(
        scene.scenario.value, ()).encoded.text)
    assert (scene.view, scene.layer, scene.off, scene.head, scene.query.en) == ("head", 1, ((1, 2),), 2, 5)
    assert w.lessons.open_path(str(path), 8)
    qtbot.waitUntil(lambda: not w.lessons.waiting and w.document.scenario.live is not None, timeout=60000)
    live = w.document.scenario.live
    assert [(layer, head) for layer, head, _ in live.changes] == [(1, 2)] and w.document.active_head == 2


def test_a_real_models_layer_with_typed_q_is_no_scene_and_says_why(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox
    from test_editor import type_into
    w = given(qtbot, 7)
    w.lessons.end()
    settle()
    assert type_into(w, "q", 0, 0, "1.5")
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: said.append(a[2]) or QMessageBox.Ok)
    monkeypatch.setattr(w, "warn", lambda title, text: said.append(text))
    w.lessons.editor.add_scene() if hasattr(w.lessons.editor, "add_scene") else qtbot.keyClick(
        w, Qt.Key_A, Qt.ControlModifier | Qt.ShiftModifier)
    settle()
    assert said and "not keep q, k or v typed into them" in said[-1]
    w.document.undo_stack.setClean()  # the typed value is this test's, not work to ask about at closing


def test_the_first_scene_shows_the_nine_heads_its_caption_speaks_of(qtbot):
    w = given(qtbot, 0, "ja")
    shown = [p.index for p in w.parts.heads.panels if p.isVisible()]
    assert shown == list(range(9)) and "9 個のヘッドすべて" in w.lessons.scene().caption.ja
    assert "all 9 of layer 0's heads" in w.lessons.scene().caption.en


def test_a_revealed_row_of_the_real_model_shows_its_largest_weight_and_most_keys_in_the_step_table(qtbot):
    w = given(qtbot, 2)  # scene 3: where will the last "cat" look in head 16.0? (13 keys)
    steps = w.parts.steps
    press(w, qtbot, Qt.Key_A)
    numbers, table = steps.model.numbers(), steps.table
    best = int(np.argmax(numbers.weights))
    rect = table.visualRect(steps.model.index(best, 0))
    assert 0 <= rect.top() and rect.bottom() <= table.viewport().height()  # the answer's row in view
    in_view = [j for j in range(len(numbers)) if 0 <= table.visualRect(steps.model.index(j, 0)).top()
               and table.visualRect(steps.model.index(j, 0)).bottom() <= table.viewport().height()]
    assert len(in_view) == len(numbers), in_view  # every key: the desk's help under the bars, the formula's
    output = steps.output.text()                   # fraction and the output's terms give way
    assert output.count("×") == 0 and output.count("=") == 1 and "…" in output  # its vector, on one line
    status = bars_of(w).parentWidget().status
    assert not status.isVisible()  # "Edit a head's q, k or v…": desk help, not for the class


def test_the_nine_heads_of_a_real_sentence_are_drawn_in_type_the_back_row_reads(qtbot):
    from PySide6.QtGui import QFontMetricsF

    w = given(qtbot, 0)  # scene 1: the nine heads of layer 0 side by side, 13 tokens
    shown = [p for p in w.parts.heads.panels if p.isVisible() and not p.thumbnail]
    assert len(shown) == 9
    for panel in shown:
        g = panel.painter.geometry(panel._content_rect(), panel.shown())
        # the labels at 1920×1080 (every other row's where the rows are shorter than the type: nine heads at
        # once show their patterns, the one big head every label)
        assert g.label_font.pixelSize() >= 20
        assert g.cell >= 18
        # the values: readable, or left out for the colours to tell (at 12 px they were neither)
        assert g.value_font is None or (g.value_font.pixelSize() >= 20 and
                                        QFontMetricsF(g.value_font).horizontalAdvance("0.00") <= g.cell_w)


def test_a_real_models_layer_with_a_patch_or_a_given_output_is_no_scene_and_says_why(qtbot):
    """A lesson says again which heads are off; a stream or an output put in from elsewhere (the
    workbench's patches, a mean ablation) it cannot say, so such a layer is refused, not saved without it."""
    from attnviz.core.lessons import Bilingual
    from attnviz.core.scenario import Change, StreamPatch
    from attnviz.gui.lessons.editor import NotAScene, model_scene
    model = lm.load()
    encoded = lm.encode(model, "The cat ate the fish.")
    own = lm.run(model, encoded.ids)
    caption = Bilingual("a", "a")
    for changes, patch in ((((2, 1, Change(off=True)),), None), ((), StreamPatch(3, 1, own.streams[3][2])),
                           (((2, 1, Change(out=np.zeros((len(encoded.ids), model.config.d_head)))),), None)):
        result = lm.run(model, encoded.ids, changes, patch=patch)
        s = lm.scenario(model, encoded, result, 2)
        if patch is None and not any(c.out is not None for _, _, c in changes):
            assert model_scene(s, 1, 3, None, "heads", "each", caption).off == ((2, 1),)
            continue
        with pytest.raises(NotAScene, match="not keep an output or a stream put in from elsewhere"):
            model_scene(s, 1, 3, None, "heads", "each", caption)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_nine_heads_titles_are_whole(qtbot, lang):
    """Each GQA head's title says its group and the heads sharing it, never cut short (…), side by side."""
    w = given(qtbot, 0, lang)
    for panel in (p for p in w.parts.heads.panels if p.isVisible()):
        title = panel.data().title
        shown = panel.painter._title_text(title, panel._content_rect().width())
        assert "…" not in shown and shown.replace("\n", "").replace(" ", "") == title.replace(" ", ""), shown
