"""`?` while a lesson is given lists every key the window answers then, as it answers it: the lesson's own
(Home / End, a number then Enter, S, B, R, A, N), what works in every scene and the teacher's tools; never
the digits as views (in a lesson they are a scene's number). Checked against the window's own shortcuts."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QLabel
from test_player import giving, press

from presented import presenting, unreadable

LESSON = {"en": ["Home / End", "a number, then Enter", "S", "B", "R", "A", "N", "→ / Space / PgDn", "← / PgUp",
                 "Esc", "F5", "Tab / Shift+Tab", "C", "V", "H", "?", "P", "I", "E", "K", "L", "Z", "+ / − / wheel", "T",
                 "a number, then T"],
          "ja": ["Home / End", "数字のあと Enter", "S", "B", "R", "A", "N", "→ / スペース / PgDn", "← / PgUp", "Esc",
                 "F5", "Tab / Shift+Tab", "C", "V", "H", "?", "P", "I", "E", "K", "L", "Z", "+ / − / ホイール", "T",
                 "数字のあと T"]}


def listed(w) -> list[str]:
    keys = w.classroom.keys
    return [label.text() for label in keys.findChildren(QLabel) if label.isVisible()]


def answered_letters(w) -> set[str]:
    """Every plain letter the window's enabled shortcuts answer now."""
    return {seq.toString() for action in w.actions() if action.isEnabled() for seq in action.shortcuts()
            if len(seq.toString()) == 1 and seq.toString().isalpha()}


def type_pixels(w) -> int:
    """The smallest type in the list."""
    return min(QFontInfo(label.font()).pixelSize() for label in w.classroom.keys.findChildren(QLabel)
               if label.isVisible())


def whole_on_screen(w) -> list[str]:
    keys = w.classroom.keys
    return [label.text() for label in keys.findChildren(QLabel) if label.isVisible() and (
        label.width() < label.sizeHint().width() or label.mapTo(keys, label.rect().bottomRight()).x() >= keys.width()
        or label.mapTo(keys, label.rect().bottomRight()).y() >= keys.height())]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_question_mark_in_a_lesson_lists_every_key_it_answers_and_no_digit_as_a_view(qtbot, lang):
    w = giving(qtbot, "attention", lang)
    press(w, qtbot, Qt.Key_Question)
    texts = listed(w)
    missing = [key for key in LESSON[lang] if key not in texts]
    assert missing == []
    assert not [d for d in "1234567890" if d in texts]  # a digit is part of a scene's number here
    assert answered_letters(w) - set(texts) == set()  # no letter the window answers goes unlisted
    assert unreadable(w.classroom.keys) == [] and whole_on_screen(w) == []
    assert type_pixels(w) >= 24  # as large as the screen holds it: above the least the back row reads
    press(w, qtbot, Qt.Key_Escape)
    assert not w.classroom.keys.isVisible() and w.lessons.active  # Esc closes the list, the lesson goes on


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_question_mark_presenting_lists_the_views_and_the_tools(qtbot, lang):
    w = presenting(qtbot, lang=lang)
    press(w, qtbot, Qt.Key_Question)
    texts = listed(w)
    assert [d for d in "1234567890" if d not in texts] == []
    assert [k for k in ("C", "V", "H", "P", "I", "E", "K", "L", "Z", "T", "?", "F5") if k not in texts] == []
    assert answered_letters(w) - set(texts) == set()
    assert "S" not in texts and "B" not in texts  # a lesson's keys: nothing without one
    assert unreadable(w.classroom.keys) == [] and whole_on_screen(w) == [] and type_pixels(w) >= 24
