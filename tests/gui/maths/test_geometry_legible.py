"""The geometry view as the class sees it presented at 1920 × 1080: arrows pointing the same way (それ's q
along 食べ物 with the k of 魚, 食べた and 新鮮) are drawn side by side, each seen in its own colour, none
under another; no two labels overlap, and no label lies on another arrow; and in a lesson's question
(why-it-works scene 1, the top key hidden) a click on a key's arrow or label is the class's guess, marked
on the arrow and in the caption, then right or wrong once revealed."""
import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication

from attnviz.core.lessons import builtin_lesson
from attnviz.gui import MainWindow
from attnviz.gui.common.asked import GUESS_COLOUR, RIGHT_COLOUR
from attnviz.gui.common.i18n import install_language
from attnviz.gui.maths.geometry import KEY_COLOR, QUERY_COLOR, _crosses, _distance_to_segment
from pixels import near, rgb


def settle():
    for _ in range(4):
        QApplication.processEvents()


def presenting_geometry(qtbot, lang):
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    w.classroom.set_presentation(True)
    w.classroom.present_view("geometry")
    settle()
    view = w.parts.maths.tab_view("geometry")
    view.plot.viewport().repaint()  # the labels are placed as the arrows are painted
    return w, view


def on_screen(view, pixels_from_origin) -> QPoint:
    """Where a point of the paint (pixels from the origin, y downwards) is in the plot's viewport."""
    arrows = view.arrows
    per_pixel = arrows.pixelLength(pg.Point(1, 0))  # data units per screen pixel, as the paint has them
    data = QPointF(pixels_from_origin[0] * per_pixel, -pixels_from_origin[1] * per_pixel)
    return view.plot.mapFromScene(arrows.mapToScene(data))


def drawn(view, token: int, kind: str = "k"):
    return next(d for d in view.arrows.drawn if d[0][0] == kind and d[0][1] == token)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_arrows_the_same_way_lie_side_by_side_each_seen_and_no_label_lies_on_another(qtbot, lang):
    w, view = presenting_geometry(qtbot, lang)
    tokens = w.document.scenario.tokens
    fish, ate, query = tokens.index("魚" if lang == "ja" else "fish"), tokens.index("食べた" if lang == "ja"
                                                                                   else "ate"), w.document.query
    arrows = view.arrows
    shafts = [(start, tip) for _a, start, tip, _b in arrows.drawn]
    # Apart: the outer half of every arrow is farther from every other arrow than their pens are wide.
    for i, (a, start, tip, _) in enumerate(arrows.drawn):
        for j, (b, other_start, other_tip, _) in enumerate(arrows.drawn):
            if i == j:
                continue
            width = (a[4] + b[4]) * arrows.thickness / 2
            outer = [start + t * (tip - start) for t in np.linspace(0.5, 1.0, 9)]
            assert max(_distance_to_segment(p, other_start, other_tip) for p in outer) > width, (a[5], b[5])
    # Seen: the middle of ate's k and of fish's k shows the keys' colour, not the query's over it.
    image = rgb(view.plot.viewport().grab().toImage())
    for token in (fish, ate):
        _a, start, tip, _ = drawn(view, token)
        for t in (0.6, 0.8):
            spot = on_screen(view, start + t * (tip - start))
            around = image[spot.y() - 1:spot.y() + 2, spot.x() - 1:spot.x() + 2]
            assert near(around, KEY_COLOR, 60).any() and not near(around, QUERY_COLOR, 60).all(), (token, t)
    _a, start, tip, _ = drawn(view, query, "q")
    assert not np.any(start)  # the query's q where it is: the others moved beside it
    # Labels: none over another, none across another's arrow.
    boxes = [(i, box) for i, (_a, _s, _t, box) in enumerate(arrows.drawn) if box is not None]
    assert len(boxes) == len(arrows.arrows)
    for n, (i, box) in enumerate(boxes):
        assert not any(box.intersects(other) for _, other in boxes[n + 1:]), arrows.drawn[i][0][5]
        assert not any(_crosses(box, *shaft) for j, shaft in enumerate(shafts) if j != i), arrows.drawn[i][0][5]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_click_on_a_keys_arrow_or_label_in_the_geometry_question_is_the_class_guess(qtbot, lang):
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    lesson = builtin_lesson("why-it-works")
    index = next(i for i, s in enumerate(lesson.scenes) if s.view == "geometry" and s.question is not None)
    assert w.lessons.open(lesson, index)
    settle()
    view = w.parts.maths.tab_view("geometry")
    view.plot.viewport().repaint()
    question = w.lessons.question
    assert question.pending and question.clickable and "A" in w.lessons.caption.verdict.text()
    tokens = w.document.scenario.tokens
    cat, fish = tokens.index("猫" if lang == "ja" else "cat"), tokens.index("魚" if lang == "ja" else "fish")
    _a, start, tip, box = drawn(view, cat)
    qtbot.mouseClick(view.plot.viewport(), Qt.LeftButton, pos=on_screen(view, (box.center().x(), box.center().y())))
    settle()
    assert question.asked.guess == cat and tokens[cat] in w.lessons.caption.verdict.text()
    assert drawn(view, cat)[0][3].getRgb()[:3] == GUESS_COLOUR  # marked on its arrow
    _a, start, tip, _box = drawn(view, fish)
    qtbot.mouseClick(view.plot.viewport(), Qt.LeftButton, pos=on_screen(view, start + 0.7 * (tip - start)))
    settle()
    assert question.asked.guess == fish  # its shaft: another guess
    qtbot.keyClick(w, Qt.Key_A)
    settle()
    view.plot.viewport().repaint()
    assert question.asked.revealed and question.asked.right
    arrow = drawn(view, fish)[0]
    assert arrow[3].getRgb()[:3] == RIGHT_COLOUR and arrow[5].endswith("✓")
    w.lessons.end()
