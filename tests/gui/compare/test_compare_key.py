"""The comparison while presenting, by its key (C): lesson 003's word orders and はし from full
screen at 1920 × 1080, and the compare window of its own full screen (F5 in it, Esc out)."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QLabel

from attnviz.core.align import largest
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language
from attnviz.gui.compare.controller import partner, presented_pairs
from attnviz.gui.compare.dialog import CompareDialog
from presented import presenting, unreadable  # tests/gui is on the path

ROPE = 2  # the positions control's index


def press(window, qtbot, key):
    qtbot.keyClick(window, key)
    QApplication.processEvents()


def compared(window, qtbot, key=Qt.Key_C):
    """Press C (or Tab …) and wait for the comparison on the stage."""
    press(window, qtbot, key)
    dialog = window.parts.presented()
    assert isinstance(dialog, CompareDialog) and not dialog.isWindow()
    qtbot.waitUntil(lambda: dialog.figure is not None and dialog.canvas.isVisible(), timeout=10000)
    dialog.canvas.grab()  # painted once: every panel laid out
    return dialog


def full_screen(window):
    return window.isFullScreen() and (window.width(), window.height()) == (1920, 1080)


def test_the_pairs_are_the_help_menus_in_either_language():
    assert partner("preset:position-nekoga") == "position-suwatta"
    assert partner("preset:hashi-bridge") == "hashi-chopsticks"
    assert partner("preset:seed-demo") is None and partner(None) is None and partner("/tmp/x.json") is None
    assert presented_pairs("preset:position-suwatta") == [(None, "position-nekoga"),
                                                          ("hashi-chopsticks", "hashi-bridge")]
    assert presented_pairs(None) == [("position-nekoga", "position-suwatta"), ("hashi-chopsticks", "hashi-bridge")]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_c_compares_the_word_orders_0_without_positions_and_not_with_rope_still_full_screen(qtbot, lang):
    w = presenting(qtbot, "position-nekoga", lang)
    dialog = compared(w, qtbot)
    figure = dialog.figure
    assert figure.a.tokens == w.document.scenario.tokens and figure.kinds() == 3  # A, B and B − A
    assert sorted(figure.b.tokens) == sorted(figure.a.tokens) and figure.b.tokens != figure.a.tokens
    assert figure.same() and largest(figure.differences()) == 0
    assert full_screen(w) and dialog.width() >= 1900 and dialog.height() >= 1000
    assert unreadable(w) == [] and QFontInfo(figure.font).pixelSize() * dialog.canvas.scale() >= 20
    old = dialog.figure
    dialog.positions.setCurrentIndex(ROPE)
    qtbot.waitUntil(lambda: dialog.figure is not old and dialog.canvas.isVisible(), timeout=10000)
    dialog.canvas.grab()
    assert dialog.figure.a.projection.positions == dialog.figure.b.projection.positions == "rope"
    assert largest(dialog.figure.differences()) > 0
    assert full_screen(w) and w.parts.presented() is dialog and dialog.width() >= 1900
    assert unreadable(w) == []


def test_c_again_shows_the_other_pair_and_esc_goes_back_then_leaves(qtbot):
    w = presenting(qtbot, "seed-demo")  # no pair of its own: the built-in pairs, word orders first
    press(w, qtbot, Qt.Key_5)
    first = compared(w, qtbot)
    assert first.figure.a.tokens == ("dog", "bites", "man") and first.figure.same()
    assert "C:" in first.hint.text() and first.hint.isVisible()
    second = compared(w, qtbot)
    assert "bank" in second.figure.a.tokens and second.figure.kinds() == 2  # different words: no B − A
    assert unreadable(w) == []
    press(w, qtbot, Qt.Key_Escape)
    assert w.classroom.presented_view == "softmax" and w.classroom.presenting and full_screen(w)
    press(w, qtbot, Qt.Key_Escape)
    assert not w.classroom.presenting


def test_the_presentations_keys_work_from_the_comparison(qtbot):
    w = presenting(qtbot, "hashi-bridge", "ja")
    dialog = compared(w, qtbot)
    assert dialog.figure.a.tokens == w.document.scenario.tokens and "ご飯" in dialog.figure.b.tokens
    dialog.positions.setFocus()  # a control of the comparison has the focus
    press(w, qtbot, Qt.Key_2)
    assert w.classroom.presented_view == "steps" and w.parts.presented() is not dialog
    compared(w, qtbot)
    press(w, qtbot, Qt.Key_Tab)
    assert w.classroom.presented_view == "heads" and full_screen(w)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_keys_overlay_lists_c(qtbot, lang):
    w = presenting(qtbot, "seed-demo", lang)
    press(w, qtbot, Qt.Key_Question)
    labels = [label.text() for label in w.classroom.keys.findChildren(QLabel) if label.isVisible()]
    assert "C" in labels
    named = labels[labels.index("C") + 1]
    assert ("2 つの文を比べる" if lang == "ja" else "Compare two sentences") in named
    assert unreadable(w.classroom.keys) == []


# ------------------------------------------------------------- the compare window of its own


def desk_comparison(qtbot):
    install_language("en")
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    w.menus.compare_orders_action.trigger()
    dialog = w.compare.dialog
    qtbot.waitUntil(lambda: dialog.figure is not None and dialog.canvas.isVisible(), timeout=10000)
    return w, dialog


def presented_type(dialog):
    return [QFontInfo(label.font()).pixelSize() for label in (dialog.note, dialog.positions_name)] + \
        [QFontInfo(dialog.figure.font).pixelSize()]


def test_f5_in_the_compare_window_presents_it_rope_keeps_it_full_screen_and_esc_leaves(qtbot):
    w, dialog = desk_comparison(qtbot)
    dialog.activateWindow()
    qtbot.keyClick(dialog, Qt.Key_F5)
    qtbot.waitUntil(lambda: full_screen(dialog))
    assert min(presented_type(dialog)) >= 20
    old = dialog.figure
    dialog.positions.setCurrentIndex(ROPE)
    qtbot.waitUntil(lambda: dialog.figure is not old and dialog.canvas.isVisible(), timeout=10000)
    QApplication.processEvents()
    assert full_screen(dialog) and min(presented_type(dialog)) >= 20
    dialog.canvas.grab()
    assert unreadable(dialog) == []
    qtbot.keyClick(dialog, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isFullScreen())
    assert dialog.isVisible() and max(presented_type(dialog)) < 20  # back on the desk, not closed


def test_full_screen_by_the_window_manager_gets_the_presented_type(qtbot):
    w, dialog = desk_comparison(qtbot)
    dialog.showFullScreen()  # F11 or the title bar's button
    qtbot.waitUntil(lambda: full_screen(dialog))
    assert dialog.presenting and min(presented_type(dialog)) >= 20
    old = dialog.figure
    dialog.positions.setCurrentIndex(ROPE)
    qtbot.waitUntil(lambda: dialog.figure is not old, timeout=10000)
    QApplication.processEvents()
    assert full_screen(dialog)
