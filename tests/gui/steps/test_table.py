"""The step table as a class reads it in front of the screen: the worked example's arithmetic
written out, Σ always in view, eˣ with the digits the tutorial's numbers have, no minus zero and
no e-notation, readable and unclipped at 1920 × 1080 in both languages."""
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo, QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel, QTableView, QWidget

from attnviz.core import compute, load_preset
from attnviz.core.scenario import with_settings, with_token_inserted
from attnviz.gui import MainWindow
from attnviz.gui.steps.stages import NUMBERS
from attnviz.gui.steps.table import COLUMNS, DOT, EXP, KEY, SCALED, WEIGHT, K

SOFTMAX, OUTPUT = NUMBERS[3], NUMBERS[4]
MINUS_ZERO = re.compile("\u22120(\\.0+)?(?![0-9])")  # '−0', '−0.00', not '−0.004'
E_NOTATION = re.compile(r"[0-9]e[+\-\u2212]?[0-9]")


def opened(qtbot, scenario="seed-demo", lang="en", presenting=True, stage=None):
    # The Japanese worked example in either interface language: a preset id would be swapped for
    # its English version by the language switch, a scenario is kept as it is.
    w = MainWindow(load_preset(scenario) if isinstance(scenario, str) else scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    w.classroom.set_language(lang)
    if presenting:
        w.classroom.set_presentation(True)
    w.document.set_stage(stage)
    settle()
    return w


def settle():
    for _ in range(3):  # the step table follows at the next turns of the event loop
        QApplication.processEvents()


def steps_of(w):
    return w.parts.steps


def cells(table, row):
    model = table.model()
    return [model.data(model.index(row, c)) for c in range(COLUMNS)]


def shown_rect(widget, window):
    """Where `widget` is on the window, clipped by every widget it sits in."""
    rect = widget.rect().translated(widget.mapTo(window, widget.rect().topLeft()))
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        rect &= parent.rect().translated(parent.mapTo(window, parent.rect().topLeft()))
        parent = parent.parentWidget()
    return rect & window.rect()


# ---------------------------------------------------------------- the worked example, written out

@pytest.mark.parametrize("lang", ["ja", "en"])
def test_presenting_the_worked_example_shows_k_and_the_dot_products_written_out(qtbot, lang):
    w = opened(qtbot, "toy-3token", lang)
    table = w.findChild(QTableView, "stepTable")
    assert not table.isColumnHidden(K) and not table.isColumnHidden(DOT)
    assert [cells(table, j)[c] for j in range(3) for c in (KEY, K, DOT)] == [
        "猫", "[2, 0]", "0×2 + 2×0 = 0", "魚", "[0, 2]", "0×0 + 2×2 = 4", "それ", "[1, 1]", "0×1 + 2×1 = 2"]
    fm = QFontMetrics(table.font())
    for column in (K, DOT):  # written out in full, not cut
        assert all(fm.horizontalAdvance(cells(table, j)[column]) <= table.columnWidth(column) for j in range(3))
    assert QFontInfo(table.font()).pixelSize() >= 20


def test_presenting_seed_demo_writes_out_its_four_products(qtbot):
    w = opened(qtbot, "seed-demo")
    table = w.findChild(QTableView, "stepTable")
    fish = w.document.scenario.tokens.index("魚")
    assert not table.isColumnHidden(DOT) and cells(table, fish)[DOT] == "0×0 + 2×3 + 0×0 + 0×0 = 6"
    w.document.set_stage(NUMBERS[0])  # step 1, q·k alone: room for k too
    settle()
    assert not table.isColumnHidden(K) and cells(table, fish)[K] == "[0, 3, 0, 0]"


def test_a_long_sentence_presents_the_results_of_q_dot_k_only(qtbot):
    w = opened(qtbot, "taro-hanako")  # 13 tokens: beyond a worked example
    table = w.findChild(QTableView, "stepTable")
    assert table.isColumnHidden(K) and "×" not in cells(table, 0)[DOT]


@pytest.mark.parametrize("presenting", [True, False])
def test_the_output_is_written_in_the_sentences_order(qtbot, presenting):
    w = opened(qtbot, "seed-demo", presenting=presenting)
    text = w.findChild(QLabel, "stepOutput").text().replace("\u00a0", " ")
    assert text.startswith("5. output of それ = 0.034×[3, 0, 0, 0] + 0.034×[0, 0, 0, 1] + 0.680×[0, 3, 0, 0]")


# ---------------------------------------------------------------- Σ always in view

def longer(name: str, more: int):
    """A preset with `more` tokens appended: more keys than the presented step table shows at once."""
    s = load_preset(name)
    for i in range(more):
        s = with_token_inserted(s, s.n, f"w{i}")
    return s


@pytest.mark.parametrize("scenario", ["taro-hanako+30", "seed-demo"])
def test_the_sum_row_stays_in_view_when_the_keys_scroll(qtbot, scenario):
    long = scenario == "taro-hanako+30"  # 43 keys (up to 30 fit at 1920 × 1080, the controls folded away)
    w = opened(qtbot, longer("taro-hanako", 30) if long else scenario)
    pinned = w.findChild(QTableView, "stepSum")
    table = w.findChild(QTableView, "stepTable")
    if long:
        qtbot.waitUntil(lambda: table.verticalScrollBar().maximum() > 0, timeout=5000)
    assert pinned.isVisible() and cells(pinned, 0)[KEY] == "Σ"
    numbers = steps_of(w).model.numbers()
    assert cells(pinned, 0)[EXP] == numbers.total().exp and cells(pinned, 0)[WEIGHT] == "1.000"
    cell = pinned.visualRect(pinned.model().index(0, EXP))
    row = cell.translated(pinned.viewport().mapTo(w, pinned.rect().topLeft()))
    assert shown_rect(pinned.viewport(), w).contains(row)  # on screen, not scrolled away
    assert table.isRowHidden(table.model().rowCount() - 1)  # not twice
    for c in range(COLUMNS):  # its columns under the table's
        assert pinned.columnWidth(c) == table.columnWidth(c) and pinned.isColumnHidden(c) == table.isColumnHidden(c)
    if long:  # the keys scroll; Σ does not
        table.verticalScrollBar().setValue(table.verticalScrollBar().maximum())
        assert pinned.isVisible() and shown_rect(pinned.viewport(), w).contains(row)


def test_the_sum_row_follows_the_guided_steps_and_the_edits(qtbot):
    w = opened(qtbot, "toy-3token", presenting=False)
    pinned = w.findChild(QTableView, "stepSum")
    w.document.set_stage(NUMBERS[2])
    settle()
    assert not pinned.isVisible()
    w.document.set_stage(SOFTMAX)
    settle()
    assert pinned.isVisible() and cells(pinned, 0)[EXP] == "22.03"
    model = w.findChild(QTableView, "qTable").model()
    model.setData(model.index(2, 1), "0")  # q of それ = [0, 0]: every eˣ is 1
    settle()
    assert cells(pinned, 0)[EXP] == "3.00"


def test_every_key_stays_in_the_table_when_tokens_come_and_go(qtbot):
    from attnviz.gui.state.commands import InsertToken, RemoveToken
    w = opened(qtbot, "seed-demo", presenting=False)
    table, d = w.findChild(QTableView, "stepTable"), w.document
    d.select(query=9)
    for command in (lambda: InsertToken(d, 3, "新"), lambda: InsertToken(d, 0, "古"), lambda: RemoveToken(d, 0)):
        d.push(command())
        settle()
        hidden = [r for r in range(table.model().rowCount()) if table.isRowHidden(r)]
        assert hidden == [d.scenario.n]  # Σ only, pinned below; the key that took its row is shown


# ---------------------------------------------------------------- the numbers a class checks by hand

def test_the_worked_examples_numbers_agree_with_seed_000(qtbot):
    """q = [0, 2], k = v = [2, 0], [0, 2], [1, 1]: every number a class computes from the tutorial."""
    w = opened(qtbot, "toy-3token", "ja")
    table = w.findChild(QTableView, "stepTable")
    rows = [cells(table, j) for j in range(3)]
    assert [r[SCALED] for r in rows] == ["0.000", "2.828", "1.414"]  # 0, 4, 2 ÷ √2
    assert [r[EXP] for r in rows] == ["1.00", "16.92", "4.11"]      # e to the 0, 2.828.., 1.414..
    assert cells(w.findChild(QTableView, "stepSum"), 0)[EXP] == "22.03"
    assert [r[WEIGHT] for r in rows] == ["0.045", "0.768", "0.187"]
    by_hand = np.array([1.00, 16.92, 4.11]) / 22.03
    np.testing.assert_allclose(by_hand, [float(r[WEIGHT]) for r in rows], atol=6e-4)
    assert w.findChild(QLabel, "stepOutput").text().replace("\u00a0", " ").endswith(
        "0.045×[2, 0] + 0.768×[0, 2] + 0.187×[1, 1]\n= [0.277, 1.723]")
    # where the tutorial rounds first (2.83, 1.41), the note beside the table says so, as powers
    note = w.findChild(QLabel, "stepNote")
    assert note.isVisible()
    for text in ("e<sup>2.83</sup> ≈ 16.95", "e<sup>1.41</sup> ≈ 4.10", "22.05", "0.769"):
        assert text in note.text()
    assert "^" not in note.text()


def test_seed_demos_sore_row_its_exponentials_and_their_sum(qtbot):
    w = opened(qtbot, "seed-demo", stage=SOFTMAX)
    table = w.findChild(QTableView, "stepTable")
    assert [cells(table, j)[EXP] for j in range(10)] == \
        ["1.00", "1.00", "20.09", "1.00", "2.72", "1.00", "2.72", "0", "0", "0"]
    assert cells(w.findChild(QTableView, "stepSum"), 0)[EXP] == "29.52"
    assert [cells(table, j)[WEIGHT] for j in (0, 2, 4)] == ["0.034", "0.680", "0.092"]  # 1, 20.09, 2.72 / 29.52
    assert table.model().headerData(EXP, Qt.Horizontal) == "4.\neˣ"


def test_small_temperatures_say_in_words_when_the_max_is_subtracted(qtbot):
    s = with_settings(load_preset("seed-demo"), temperature=0.02)  # 6 ÷ √4 ÷ 0.02 = 150
    w = opened(qtbot, s, "en", stage=SOFTMAX)
    table = w.findChild(QTableView, "stepTable")
    header = table.model().headerData(EXP, Qt.Horizontal)
    assert "subtracting the max" in header and "^" not in header
    words = w.findChild(QLabel, "stepShifted")
    assert words.isVisible() and "150.000" in words.text() and "too large" in words.text()
    assert cells(table, 0)[EXP] == "7.18×10⁻⁶⁶" and cells(table, 2)[EXP] == "1.00"
    w.classroom.set_language("ja")
    settle()
    assert "最大値を" in table.model().headerData(EXP, Qt.Horizontal) and "150.000" in words.text()
    w.classroom.set_language("en")


def test_at_t_0_05_the_exponentials_are_powers_of_ten_not_e_notation(qtbot):
    s = with_settings(load_preset("seed-demo"), temperature=0.05)
    w = opened(qtbot, s, stage=SOFTMAX)
    table = w.findChild(QTableView, "stepTable")
    assert cells(table, 2)[EXP] == "1.14×10²⁶" and cells(table, 2)[SCALED] == "60.000"
    assert not w.findChild(QLabel, "stepShifted").isVisible()  # 60 is still written out as eˣ
    texts = [t for j in range(10) for t in cells(table, j)] + cells(w.findChild(QTableView, "stepSum"), 0)
    assert not any(E_NOTATION.search(t) for t in texts if t)


def test_an_exported_step_figure_writes_powers_of_ten(tmp_path):
    from attnviz.gui.export.figure import Figure, FigureOptions
    from attnviz.gui.export.files import export_figure
    s = with_settings(load_preset("seed-demo"), temperature=0.05)
    export_figure(Figure(s, compute(s), FigureOptions(kind="step", query=6)), tmp_path / "s.svg")
    text = "".join(t.text or "" for t in ET.parse(tmp_path / "s.svg").getroot().iter("{http://www.w3.org/2000/svg}text"))
    assert "×10" in text and "0.05" in text and not E_NOTATION.search(text)


def visible_texts(w):
    """Every text the window shows: labels, and the cells and headers of its tables."""
    texts = [label.text() for label in w.findChildren(QLabel) if label.isVisible()]
    for table in w.findChildren(QTableView):
        if not table.isVisible():
            continue
        model = table.model()
        for r in range(model.rowCount()):
            texts += [model.data(model.index(r, c)) for c in range(model.columnCount()) if not table.isColumnHidden(c)]
        texts += [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())]
    return [t for t in texts if isinstance(t, str)]


@pytest.mark.parametrize("presenting", [True, False])
def test_no_minus_zero_anywhere_on_screen(qtbot, presenting):
    w = opened(qtbot, "seed-demo", presenting=presenting)
    q = w.findChild(QTableView, "qTable").model()
    q.setData(q.index(6, 0), "-0.0001")  # それ's 動物: a hair below zero
    k = w.findChild(QTableView, "kTable").model()
    k.setData(k.index(1, 2), "-0.0004")
    settle()
    found = [t for t in visible_texts(w) if MINUS_ZERO.search(t)]
    assert found == []
    assert any("\u22120.0001" in t or "(\u22120.000" in t or "0.000" in t for t in visible_texts(w))


# ---------------------------------------------------------------- readable from the back, nothing cut

def unclipped_problems(w):
    """Texts of the step view smaller than 20 px or wider than the room they have."""
    view = steps_of(w)
    problems = []
    for label in view.findChildren(QLabel):
        if label.isVisible() and label.text():
            if QFontInfo(label.font()).pixelSize() < 20:
                problems.append(("small", label.objectName(), QFontInfo(label.font()).pixelSize()))
            if label.wordWrap() and label.heightForWidth(label.width()) > label.height() + 1:
                problems.append(("cut", label.objectName(), label.text()[:40]))
    for table in (view.table, view.sum_table):
        if table.isVisible():
            problems += table_problems(view, table)
    return problems


def table_problems(view, table) -> list:
    """A table's type under 20 px, its columns wider than its viewport, a cell or header cut."""
    problems = [("small", table.objectName(), QFontInfo(font).pixelSize())
                for font in (table.font(), table.horizontalHeader().font()) if QFontInfo(font).pixelSize() < 20]
    bold_font = view.model.data(view.model.index(view.model.sum_row, KEY), Qt.FontRole)
    cell_fm = QFontMetrics(bold_font if bold_font is not None else view.model.font or table.font())
    heads = QFontMetrics(table.horizontalHeader().font())
    model = table.model()
    columns = [c for c in range(COLUMNS) if not table.isColumnHidden(c)]
    shown = sum(table.columnWidth(c) for c in columns)
    if shown > table.viewport().width() + 1:
        problems.append(("wide", table.objectName(), shown, table.viewport().width()))
    for c in columns:
        texts = [model.data(model.index(r, c)) for r in range(model.rowCount())]
        problems += [("cut", table.objectName(), r, c, text) for r, text in enumerate(texts)
                     if text and cell_fm.horizontalAdvance(text) > table.columnWidth(c)]
        header = model.headerData(c, Qt.Horizontal)
        if table is view.table and header and \
                max(heads.horizontalAdvance(line) for line in header.split("\n")) > table.columnWidth(c):
            problems.append(("cut header", c, header))
    return problems


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("scenario", ["toy-3token", "seed-demo", "taro-hanako"])
@pytest.mark.parametrize("stage", [None, SOFTMAX, OUTPUT])
def test_the_presented_step_view_is_readable_and_nothing_is_cut(qtbot, lang, scenario, stage):
    w = opened(qtbot, scenario, lang, stage=stage)
    assert w.screen().geometry().size().toTuple() == (1920, 1080)
    assert unclipped_problems(w) == []
    w.classroom.set_language("en")


def test_the_guides_softmax_step_says_softmax_once_and_writes_e_to_the_x(qtbot):
    w = opened(qtbot, "seed-demo", "ja", stage=SOFTMAX)
    guide = w.findChild(QWidget, "guideLabel").text()
    assert guide.count("softmax") == 1 and "softmax：各スコア x を eˣ に変え、その合計 Σ で割ります。" in guide
    assert "^" not in guide and "_" not in guide
    w.classroom.set_language("en")
    settle()
    guide = w.findChild(QWidget, "guideLabel").text()
    assert guide.count("softmax") == 1 and "eˣ = 0" in guide and "^" not in guide


def test_the_type_is_fitted_again_when_the_table_is_given_another_height(qtbot):
    """The table's height changes after its type was fitted (the window goes full screen, a label
    under it comes or goes): the rows fill it again, without a gap above Σ and without scrolling."""
    s = with_settings(load_preset("seed-demo"), temperature=0.02)  # the words about eˣ under the table
    w = MainWindow(s)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    w.classroom.set_presentation(True)
    w.document.set_stage(SOFTMAX)
    w.resize(1920, 1080)
    settle()
    table = w.findChild(QTableView, "stepTable")
    rows = [r for r in range(table.model().rowCount()) if not table.isRowHidden(r)]
    bottom = table.rowViewportPosition(rows[-1]) + table.rowHeight(rows[-1])
    assert table.viewport().height() - 3 <= bottom <= table.viewport().height()  # no gap, nothing cut
