"""Maths set as maths wherever a lesson's words reach the screen: every built-in lesson's captions,
questions, the whys of their answers and the presenter's notes, in both languages, rendered as the
caption strip, the presenter's notes and the scene list (S) render them, read back as the class reads
them, show no underscore (Q_iK_iᵀ as Qᵢ Kᵢᵀ, YW_o as YWₒ, d_k as dₖ) and no caret; the multi-head lesson's
scenes 7 and 10 set their subscripts as subscripts on the projector."""
import re

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from attnviz.core.lessons import builtin_lesson
from attnviz.core.lessons.builtin import builtin_ids
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language
from attnviz.gui.lessons.caption import CaptionBar, lesson_text
from attnviz.gui.lessons.overlays import plain
from attnviz.gui.lessons.presenter import notes_text


def read(html: str) -> str:
    """Rich text as the reader sees it."""
    document = QTextDocument()
    document.setHtml(html)
    return document.toPlainText()


def texts_on_screen(bar: CaptionBar, scene, lang: str) -> dict[str, str]:
    """Each text of `scene` as the lesson renders it, read back."""
    question = scene.question.text[lang] if scene.question else ""
    bar.show_scene(1, 1, scene.caption[lang], question)
    shown = {"caption": read(bar.caption.text()), "question": read(bar.question.text()),
             "notes": read(notes_text(scene, lang)), "scene list": plain(scene.caption[lang])}
    if scene.question is not None and scene.question.why[lang]:
        shown["why"] = read(lesson_text(scene.question.why[lang]))
    return shown


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("lesson_id", builtin_ids())
def test_no_built_in_lessons_text_shows_subscript_or_power_markup(qtbot, lesson_id, lang):
    bar = CaptionBar()
    qtbot.addWidget(bar)
    marked = 0
    for number, scene in enumerate(builtin_lesson(lesson_id).scenes, start=1):
        for where, text in texts_on_screen(bar, scene, lang).items():
            assert "_" not in text and "^" not in text, (lesson_id, number, lang, where, text)
        marked += "<sub>" in bar.caption.text()
    assert marked or lesson_id == "real-model"  # the lessons' maths do reach their captions


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_multi_head_scenes_of_q_i_k_i_and_y_w_o_set_them_as_subscripts_on_the_projector(qtbot, lang):
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    lesson = builtin_lesson("multi-head")
    want = {6: ["Q<sub>i</sub>K<sub>i</sub>ᵀ", "V<sub>i</sub>"], 9: ["YW<sub>o</sub>", "W<sub>o</sub>"]}
    for index, marks in want.items():
        assert w.lessons.open(lesson, index) if not w.lessons.active else (w.lessons.go(index) or True)
        QApplication.processEvents()
        shown = w.lessons.caption.caption
        text = re.sub(r"<sub [^>]*>", "<sub>", shown.text())  # its type set for the back row (caption.py)
        assert shown.isVisible() and all(m in text for m in marks), shown.text()
        assert "_" not in read(shown.text())
    w.lessons.end()
