"""N's notes card over the scene (one screen) covers none of the heads' titles: the big head's, the
thumbnails' under it, every head's side by side; it sits at the bottom over the caption (or on a side),
its type read from the back (20 px or more) and its text whole in it, in both languages."""
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontInfo
from test_player import giving, press  # tests/gui/lessons is on the path

from attnviz.core.lessons import builtin_lesson
from attnviz.gui.lessons.presenter import card_place, titles_in


def scene_of(lesson_id: str, view: str, heads: int = 2) -> int:
    """The first scene of `lesson_id` shown as `view`, with notes, on a scenario of `heads` heads or more."""
    from attnviz.core.lessons import open_scene
    lesson = builtin_lesson(lesson_id)
    return next(i for i, s in enumerate(lesson.scenes) if s.view == view and s.notes.ja and s.scenario.kind != "model"
                and len(open_scene(lesson, i, "ja").scenario.heads) >= heads)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("lesson_id, view", [("attention", "head"), ("attention", "heads"), ("multi-head", "head")])
def test_the_notes_card_covers_no_heads_title_and_reads_from_the_back(qtbot, lesson_id, view, lang):
    w = giving(qtbot, lesson_id, lang, scene=scene_of(lesson_id, view))
    titles = w.parts.heads.title_rects()
    assert len(titles) >= 2  # the big head's and a thumbnail's, or two side by side
    press(w, qtbot, Qt.Key_N)
    card = w.lessons.presenter.overlay
    assert card.isVisible()
    where = QRect(card.mapTo(w, card.rect().topLeft()), card.size())
    for title in titles_in(w):
        assert not where.intersects(title), (where, title)
    assert QFontInfo(card.label.font()).pixelSize() >= 20
    assert card.label.height() <= card.area.viewport().height() + 1  # whole: nothing to scroll to
    assert w.rect().contains(where)
    w.lessons.end()


def test_a_card_too_tall_for_the_bottom_goes_to_a_side_clear_of_the_titles():
    window = QRect(0, 0, 1920, 1080)
    titles = [QRect(10, 10, 600, 40), QRect(10, 800, 300, 60)]  # the big head's, a thumbnail's near the bottom
    card = card_place(window, titles, lambda width: 300)  # across, it would reach up over the thumbnail's
    assert card.left() > 310 and not any(card.intersects(t) for t in titles) and card.bottom() < 1080
    assert card_place(window, titles, lambda width: 150).width() > 1800  # low enough: across, at the bottom
