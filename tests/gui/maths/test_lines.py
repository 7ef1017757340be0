"""The lines view: a line per query-key pair, as wide as its weight; masked pairs have none."""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from attnviz.core import compute
from attnviz.core.scenario import with_settings
from attnviz.gui.maths.lines import MAX_WIDTH, SHOWN_FROM, is_cjk, lines


@pytest.fixture
def view(window):
    view = window.parts.show_lines()
    view.sync()
    return view


def test_the_selected_querys_lines_are_as_wide_as_its_weights_and_masked_keys_have_none(window, view):
    d = window.document
    weights = compute(d.scenario).heads[d.active_head].weights[d.query]
    drawn = view.lines()
    assert {line.query for line in drawn} == {d.query}
    assert {line.key: line.width for line in drawn} == pytest.approx(
        {j: MAX_WIDTH * w for j, w in enumerate(weights) if w >= SHOWN_FROM})
    masked = set(range(d.query + 1, d.scenario.n))  # causal: the keys after それ
    assert masked and not masked & {line.key for line in drawn}
    assert view.hidden_keys() == masked  # drawn hatched instead


def test_every_query_of_every_head_in_its_colour_never_crosses_the_mask(window, view):
    view.which.setCurrentIndex(1)
    view.all_heads.setChecked(True)
    drawn = view.lines()
    assert {line.head for line in drawn} == {0, 1}
    assert all(line.key <= line.query for line in drawn)  # causal: no line into the future
    result = compute(window.document.scenario)
    expected = sum(int(np.sum(np.tril(t.weights) >= SHOWN_FROM)) for t in result.heads)
    assert len(drawn) == expected


def test_without_the_mask_a_token_draws_lines_to_later_keys(window, view):
    window.document.apply(with_settings(window.document.scenario, causal=False))
    view.sync()
    assert any(line.key > line.query for line in view.lines())
    assert view.hidden_keys() == set()


def test_japanese_tokens_are_laid_out_in_rows_and_a_click_on_a_query_selects_it(window, view, qtbot):
    assert view.horizontal()  # seed-demo's tokens are Japanese
    canvas = view.canvas
    _, _, boxes, _ = canvas.anchors(window.document.scenario.n)
    QTest.mouseClick(canvas, Qt.LeftButton, pos=QPoint(int(boxes[2].center().x()), int(boxes[2].center().y())))
    assert window.document.query == 2
    view.sync()
    assert {line.query for line in view.lines()} == {2}


def test_the_core_of_the_view_leaves_out_masked_pairs_and_faint_lines():
    w = np.array([[[1.0, 0, 0], [0.5, 0.5, 0], [0.005, 0.3, 0.695]]])
    masked = np.triu(np.ones((3, 3), bool), 1)[None]
    drawn = lines(w, masked, [0], None)
    assert [(line.query, line.key) for line in drawn] == [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]  # 0.005 is too faint
    assert is_cjk(["猫", "が"]) and not is_cjk(["The", "cat", "sat"])  # columns for English, rows for Japanese


def test_behind_its_tab_the_view_waits_and_catches_up_when_it_comes_forward(window, qtbot):
    from PySide6.QtWidgets import QApplication
    view = window.parts.show_lines()
    view.sync()
    window.parts.bring_forward(window.parts.steps_dock)
    QApplication.processEvents()
    refreshes = []
    view.refresh = (lambda original: lambda: (refreshes.append(1), original()))(view.refresh)
    for query in (2, 3, 4):
        window.document.select(query=query)
        QApplication.processEvents()
    assert refreshes == []  # nobody sees it: three edits cost nothing here
    window.parts.show_lines()
    qtbot.waitUntil(lambda: len(refreshes) == 1)
    assert {line.query for line in view.lines()} == {4}


def test_labels_too_wide_for_their_slot_turn_and_heads_never_share_a_colour(window):
    from attnviz.gui.maths.lines import HEAD_COLOURS
    assert len({c.name() for c in HEAD_COLOURS}) == len(HEAD_COLOURS) >= 12  # 9 or 12 heads, each its own
    view = window.parts.show_lines()
    canvas = view.canvas
    canvas.resize(300, 300)  # ten Japanese tokens in a narrow row: 30 px each
    _, _, boxes, _ = canvas.anchors(window.document.scenario.n)
    assert canvas.turned(boxes[0].width()) and boxes[0].height() > boxes[0].width()
    canvas.resize(2000, 300)
    _, _, boxes, _ = canvas.anchors(window.document.scenario.n)
    assert not canvas.turned(boxes[0].width())
