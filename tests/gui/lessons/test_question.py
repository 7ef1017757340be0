"""Questions, predict then reveal: a scene's question hides its answer (the query's row in its head's
heatmap drawn without colour, the step table's eˣ and weights, the output, the geometry's weights)
until A or → reveals it; a click on a key is the class's guess, marked right (green ✓) or wrong (red ✗)."""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextDocumentFragment
from test_player import giving, press, settle  # tests/gui/lessons is on the path

from attnviz.core.lessons import builtin_lesson, open_scene
from attnviz.gui.common.asked import RIGHT_COLOUR, WRONG_COLOUR
from attnviz.gui.heads.heatmap import NEUTRAL_FILL
from attnviz.gui.steps.table import DOT, EXP, SCALED, WEIGHT

# (lesson, scene index) of a question in the view "head", one per built-in lesson
HEAD_QUESTIONS = [("attention", 3), ("multi-head", 3), ("why-it-works", 3)]


def panel_of(w):
    return w.parts.heads.panel(w.document.active_head)


def cell_rect(panel, row, column):
    g = panel.painter.geometry(panel._content_rect(), panel.shown())
    return g.grid.left() + column * g.cell_w, g.grid.top() + row * g.cell_h, g.cell_w, g.cell_h


def pixel(panel, x, y):
    image = panel.grab().toImage()
    ratio = image.devicePixelRatio()
    c = image.pixelColor(round(x * ratio), round(y * ratio))
    return c.red(), c.green(), c.blue()


def cell_fill(panel, row, column):
    """The colour of a cell near its corner: away from its text and from a guess's frame."""
    x, y, cw, ch = cell_rect(panel, row, column)
    return pixel(panel, x + cw * 0.25, y + ch * 0.82)


def frame_colour(panel, row, column):
    x, y, cw, ch = cell_rect(panel, row, column)
    width = max(3.0, min(8.0, min(cw, ch) * 0.1))
    return pixel(panel, x + width, y + ch / 2)


def band(panel, row, column):
    """The middle of a cell, where its number is written: what a ✓ or ✗ must leave alone."""
    x, y, cw, ch = cell_rect(panel, row, column)
    return [pixel(panel, x + cw * f, y + ch * g) for f in (0.3, 0.5, 0.7, 0.8) for g in (0.35, 0.5, 0.65)]


def click_key(w, qtbot, column):
    panel = panel_of(w)
    x, y, cw, ch = cell_rect(panel, w.document.query, column)
    qtbot.mouseClick(panel, Qt.LeftButton, pos=QPoint(round(x + cw / 2), round(y + ch / 2)))
    settle()


def near(a, b, tolerance=40):
    return max(abs(int(x) - int(y)) for x, y in zip(a, b)) <= tolerance


def read(label) -> str:
    """A rich-text label as the class reads it (subscripts as plain letters)."""
    return QTextDocumentFragment.fromHtml(label.text()).toPlainText()


def scores_shown(steps) -> list[str]:
    """The texts of the step table's q·k, ÷√d, eˣ and weight cells of the keys in view (not masked)."""
    model, numbers = steps.model, steps.model.numbers()
    return [model.index(j, c).data() for j in range(len(numbers)) if not numbers.hidden[j]
            for c in (DOT, SCALED, EXP, WEIGHT) if not steps.table.isColumnHidden(c)]


def seen_keys(w):
    d = w.document
    masked = panel_of(w).data().masked[d.query]
    return [j for j in range(d.scenario.n) if not masked[j]]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("lesson_id,index", HEAD_QUESTIONS)
def test_a_question_hides_its_row_and_the_step_tables_weights_until_revealed(qtbot, lesson_id, index, lang):
    w = giving(qtbot, lesson_id, lang, index)
    panel, steps, query = panel_of(w), w.parts.steps, w.document.query
    for j in seen_keys(w):  # no weight's colour in the hidden row: the plain fill, "?"
        assert near(cell_fill(panel, query, j), NEUTRAL_FILL.getRgb()[:3], 6)
    hidden = scores_shown(steps)  # every score tells the answer: the largest q·k is the largest weight
    assert hidden and set(hidden) == {"?"}
    assert not steps.output.isVisible() and not steps.note.isVisible() and not steps.sum_table.isVisible()
    press(w, qtbot, Qt.Key_A)
    assert w.lessons.index == index and w.lessons.question.asked.revealed
    fills = [cell_fill(panel, query, j) for j in seen_keys(w)]
    assert not any(near(f, NEUTRAL_FILL.getRgb()[:3], 6) for f in fills)  # the weights' colours now
    if w.document.stage is None or w.document.stage >= 4:
        assert not steps.table.isColumnHidden(WEIGHT)
    assert "?" not in scores_shown(steps) and any(any(ch.isdigit() for ch in t) for t in scores_shown(steps))


@pytest.mark.parametrize("lang,right_word", [("ja", "正解"), ("en", "right")])
def test_a_click_on_the_right_key_then_reveal_marks_it_right(qtbot, lang, right_word):
    w = giving(qtbot, "attention", lang, 7)  # それ / It → 魚 / fish
    answer = open_scene(builtin_lesson("attention"), 7, lang).answer
    press(w, qtbot, Qt.Key_A)  # revealed with no guess: the cell as it reads unmarked
    unmarked = band(panel_of(w), w.document.query, answer.top_key)
    press(w, qtbot, Qt.Key_R)  # the scene again, its question asked anew
    click_key(w, qtbot, answer.top_key)
    asked = w.lessons.question.asked
    assert asked.guess == answer.top_key and not asked.revealed
    assert near(frame_colour(panel_of(w), asked.row, answer.top_key), (240, 120, 0))  # outlined, orange
    press(w, qtbot, Qt.Key_A)
    word = w.document.scenario.tokens[answer.top_key]
    verdict = w.lessons.caption.verdict
    assert verdict.isVisible() and word in verdict.text() and right_word in verdict.text()
    assert ("不正解" not in verdict.text()) if lang == "ja" else ("wrong" not in verdict.text())
    assert near(frame_colour(panel_of(w), asked.row, answer.top_key), RIGHT_COLOUR)
    assert band(panel_of(w), asked.row, answer.top_key) == unmarked  # the ✓ on the corner, the number clear


@pytest.mark.parametrize("lang,wrong_word", [("ja", "不正解"), ("en", "wrong")])
def test_a_wrong_key_is_marked_wrong_and_the_answer_said(qtbot, lang, wrong_word):
    w = giving(qtbot, "attention", lang, 7)
    answer = open_scene(builtin_lesson("attention"), 7, lang).answer
    wrong = next(j for j in seen_keys(w) if j != answer.top_key)
    click_key(w, qtbot, wrong)
    press(w, qtbot, Qt.Key_A)
    tokens = w.document.scenario.tokens
    text = w.lessons.caption.verdict.text()
    assert wrong_word in text and tokens[wrong] in text and tokens[answer.top_key] in text
    assert w.lessons.question.asked.right is False
    assert near(frame_colour(panel_of(w), w.document.query, wrong), WRONG_COLOUR)


def test_a_key_clicked_in_the_step_table_is_the_guess(qtbot):
    w = giving(qtbot, "attention", "en", 3)  # cat, fish, it: fish is the answer
    table = w.parts.steps.table
    rect = table.visualRect(table.model().index(1, 0))
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    settle()
    assert w.lessons.question.asked.guess == 1
    press(w, qtbot, Qt.Key_A)
    assert w.lessons.question.asked.right and "✓" in table.model().index(1, 0).data()


def test_right_arrow_reveals_first_then_moves_on_and_back_asks_again(qtbot):
    w = giving(qtbot, "attention", "ja", 7)  # no guided step
    press(w, qtbot, Qt.Key_Right)
    assert w.lessons.index == 7 and w.lessons.question.asked.revealed
    assert "答え" in w.lessons.caption.verdict.text()  # no guess: the answer said
    press(w, qtbot, Qt.Key_Right)
    assert w.lessons.index == 8
    press(w, qtbot, Qt.Key_Left)
    assert w.lessons.index == 7 and w.lessons.question.pending  # hidden again, to predict anew
    assert set(scores_shown(w.parts.steps)) == {"?"}
    press(w, qtbot, Qt.Key_A)
    qtbot.keyClicks(w, "11")  # the next question on the same head and query: asked afresh, not revealed
    press(w, qtbot, Qt.Key_Return)
    assert w.lessons.index == 10 and w.lessons.question.pending


def test_the_geometry_question_shows_no_weight_until_revealed(qtbot):
    w = giving(qtbot, "why-it-works", "en", 0)
    arrows = w.parts.maths.tab_view("geometry").arrows
    labels = [a[5] for a in arrows.arrows if a[0] == "k"]
    assert labels and not any("w =" in t or "q·k" in t for t in labels)
    assert len({a[4] for a in arrows.arrows if a[0] == "k"}) == 1  # every k as thin
    press(w, qtbot, Qt.Key_A)
    assert any("w =" in a[5] for a in arrows.arrows if a[0] == "k")


def test_a_scene_without_a_question_hides_nothing(qtbot):
    w = giving(qtbot, "attention", "en", 2)
    assert builtin_lesson("attention").scenes[2].question is None
    assert w.lessons.question.asked is None and not w.lessons.caption.verdict.isVisible()
    assert np.all(panel_of(w).data().asked is None)


@pytest.mark.parametrize("lang, expected", [
    ("ja", "魚 0.68 → 0.22、猫 0.03 → 0.12 (T = 1 → 5)"),
    ("en", "fish 0.68 → 0.22, The 0.03 → 0.12 (T = 1 → 5)")])
def test_a_rows_reveal_says_what_changed_with_its_numbers_and_why(qtbot, lang, expected):
    """Attention scene 11 asks how T = 5 changes It's row: the reveal says it before → after (the winner,
    and the key that gained most), the setting that changed it, and the lesson's why."""
    w = giving(qtbot, "attention", lang, 10)
    explanation = w.lessons.caption.explanation
    assert not explanation.isVisible()  # nothing said before the reveal
    press(w, qtbot, Qt.Key_A)
    said = read(explanation)
    assert explanation.isVisible() and expected in said
    assert builtin_lesson("attention").scenes[10].question.why[lang] in said
    press(w, qtbot, Qt.Key_R)  # asked again: the explanation goes with the answer
    assert not explanation.isVisible()


@pytest.mark.parametrize("lesson_id, index, lang, expected", [
    ("attention", 1, "en", "fish 0.77"),                  # a top key: the winner and its weight
    ("multi-head", 0, "ja", "ご飯 0.34、食べた 0.28"),     # a row with no setting changed: its two largest
    ("why-it-works", 3, "en", "fish 0.68 → 0.96 (÷√dk: on → off)"),  # ÷√d_k switched off, k set as a subscript
    ("attention", 14, "en", "fish 0.00 → 0.59, The 0.50 → 0.03 (hide the future: on → off)"),
])
def test_every_reveal_gives_the_answers_numbers(qtbot, lesson_id, index, lang, expected):
    w = giving(qtbot, lesson_id, lang, index)
    press(w, qtbot, Qt.Key_A)
    assert expected in read(w.lessons.caption.explanation)


def scripts_px(label) -> list[float]:
    """The type of each subscript and power in a rich-text label, as Qt sets it (two thirds of its own)."""
    from PySide6.QtGui import QTextCharFormat, QTextDocument
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    sizes, block = [], doc.begin()
    while block.isValid():
        for fragment in (it.fragment() for it in block):
            f = fragment.charFormat()
            if f.verticalAlignment() in (QTextCharFormat.AlignSubScript, QTextCharFormat.AlignSuperScript):
                px = f.font().pixelSize() if f.font().pixelSize() > 0 else label.font().pixelSize()
                sizes.append(px * 2 / 3)
        block = block.next()
    return sizes


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_captions_subscripts_and_powers_are_set_in_20_px_or_more(qtbot, lang):
    """Multi-head scene 7 writes Q_iK_iᵀ, attention scene 5 e^2.83: set as maths, and read from the back."""
    w = giving(qtbot, "multi-head", lang, 6)
    assert len(scripts_px(w.lessons.caption.caption)) >= 2 and min(scripts_px(w.lessons.caption.caption)) >= 20
    w.lessons.go(next(i for i, s in enumerate(builtin_lesson("multi-head").scenes) if "Y" in s.caption.en
                      and "W_o" in s.caption.en))
    assert min(scripts_px(w.lessons.caption.caption)) >= 20
    w = giving(qtbot, "attention", lang, 4)
    assert len(scripts_px(w.lessons.caption.caption)) >= 2 and min(scripts_px(w.lessons.caption.caption)) >= 20


def test_a_jump_from_a_question_to_a_scene_of_fewer_tokens_draws_it(qtbot):
    """multi-head's scene 4 asks about query 8; scene 7 has 5 tokens: the hidden row is let go before the new
    scenario is drawn (it was drawn with row 8 still hidden: an IndexError in the heatmap's paint)."""
    from test_player import giving
    w = giving(qtbot, "multi-head", "ja", 3)
    assert w.lessons.question.pending and w.lessons.question.asked.row >= 5
    w.lessons.go(6)
    w.grab()
    assert len(w.document.scenario.tokens) == 5 and w.lessons.index == 6
