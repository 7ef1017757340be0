"""The comparison in the compare window, on the desk and in front of the class (full screen,
type ≥ 20 px at 1920 × 1080, nothing cut), in Japanese and English."""
import subprocess
import sys

import pytest
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QFontInfo, QFontMetrics, QFontMetricsF, QImage
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel

from attnviz.cli import main
from attnviz.gui.common.i18n import install_language
from attnviz.gui.compare.dialog import CompareDialog
from attnviz.gui.export.figure import MARGIN
from attnviz.gui.look.fonts import weighted

LEAST = 20  # pixels, at 1920 × 1080


def open_pair(window, qtbot, action):
    getattr(window.menus, action).trigger()
    dialog = window.compare.dialog
    qtbot.waitUntil(lambda: dialog.figure is not None, timeout=10000)
    qtbot.waitUntil(dialog.canvas.isVisible)
    return dialog


def test_the_word_orders_say_the_same_weights_reordered_in_the_dialog(window, qtbot):
    dialog = open_pair(window, qtbot, "compare_orders_action")
    assert "the same weights, reordered" in dialog.note.text()
    assert dialog.figure.kinds() == 3 and dialog.figure.same()
    install_language("ja")
    dialog = open_pair(window, qtbot, "compare_orders_action")
    assert "同じ重みが並べ替わっているだけです" in dialog.note.text()


def test_the_hashi_pair_is_side_by_side_and_says_the_words_differ(window, qtbot):
    dialog = open_pair(window, qtbot, "compare_hashi_action")
    assert dialog.figure.kinds() == 2 and dialog.figure.differences() == []
    assert "different words" in dialog.note.text() and "B − A" not in dialog.figure.column_titles()[-1]


def visible_text_widgets(dialog):
    return [w for kind in (QLabel, QAbstractButton, QComboBox) for w in dialog.findChildren(kind) if w.isVisible()]


def assert_presented(dialog):
    assert dialog.isFullScreen() and dialog.width() == 1920 and dialog.height() == 1080
    for widget in visible_text_widgets(dialog):
        assert QFontInfo(widget.font()).pixelSize() >= LEAST, widget.objectName()
        if isinstance(widget, QLabel):
            room = widget.contentsRect()
            needed = QFontMetrics(widget.font()).boundingRect(QRect(0, 0, room.width(), 100000),
                                                                int(Qt.TextWordWrap), widget.text())
            assert needed.width() <= room.width() and needed.height() <= room.height(), widget.text()
        if isinstance(widget, QComboBox):  # the longest choice fits
            assert widget.width() >= widget.sizeHint().width()
    canvas, figure = dialog.canvas, dialog.figure
    scale = canvas.scale()
    size = figure.size()
    # the figure fills the screen below the note, at about its own size: its type is its size
    assert 0.95 <= scale <= 1.3
    assert max(size.width() * scale / canvas.width(), size.height() * scale / canvas.height()) >= 0.97
    assert QFontInfo(figure.font).pixelSize() * scale >= LEAST  # colour bars, caption
    bold = QFontMetricsF(weighted(figure.font, bold=True))
    for title in figure.column_titles():
        needed = bold.boundingRect(QRectF(0, 0, figure.side - MARGIN, 100000), int(Qt.TextWordWrap), title)
        assert needed.width() <= figure.side - MARGIN and needed.height() <= figure._label_height(), title
    for painter, rect, data in figure.panels():
        g = painter.geometry(rect, data)
        assert g.label_font.pixelSize() * scale >= LEAST
        assert g.value_font is not None and g.value_font.pixelSize() * scale >= LEAST
        fm = QFontMetricsF(g.label_font)
        for token in data.tokens:  # no row label elided ("座…")
            assert fm.horizontalAdvance(token) <= g.row_label_width - fm.height() * 0.25, token
        assert g.grid.right() <= rect.right() + 1 and g.grid.bottom() <= rect.bottom() + 1


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("action", ["compare_orders_action", "compare_hashi_action"])
def test_presenting_the_comparison_opens_full_screen_readable_and_uncut(window, qtbot, lang, action):
    install_language(lang)
    window.classroom.set_presentation(True)
    dialog = open_pair(window, qtbot, action)
    qtbot.waitUntil(lambda: dialog.isFullScreen() and dialog.width() == 1920)
    dialog.canvas.grab()  # painted once: every panel laid out
    assert_presented(dialog)
    assert dialog.positions.isVisible() == (action == "compare_orders_action")
    window.classroom.set_presentation(False)  # the window leaves presentation: the comparison too
    assert not dialog.isFullScreen() and dialog.figure.presented == 0
    assert QFontInfo(dialog.figure.font).pixelSize() < LEAST


def test_set_presentation_on_an_open_comparison(window, qtbot):
    dialog = open_pair(window, qtbot, "compare_orders_action")
    assert not dialog.isFullScreen()
    dialog.set_presentation(True)
    qtbot.waitUntil(lambda: dialog.isFullScreen() and dialog.width() == 1920)
    dialog.canvas.grab()
    assert_presented(dialog)
    dialog.set_presentation(False)
    assert isinstance(dialog, CompareDialog) and not dialog.isFullScreen()


def test_the_presented_comparison_screenshot_is_the_full_screen(tmp_path):
    out = tmp_path / "pair.png"
    result = subprocess.run([sys.executable, "-m", "attnviz", "screenshot", "position-nekoga", "--presentation",
                             "--compare", "position-suwatta", "--lang", "ja", "-o", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1920, 1080)
    # not a blank page: the viridis weights and the pale B − A are drawn
    colours = {image.pixel(x, y) for x in range(0, 1920, 40) for y in range(0, 1080, 40)}
    assert len(colours) > 20


def test_bad_screenshot_combinations_are_one_line_and_status_2(capsys, tmp_path):
    out = str(tmp_path / "x.png")
    for argv in (["--step", "2"], ["--view", "lines"]):
        assert main(["screenshot", "position-nekoga", "--compare", "position-suwatta", "-o", out, *argv]) == 2
    assert main(["screenshot", "position-nekoga", "--compare", str(tmp_path / "missing.json"), "-o", out]) == 2
    assert main(["screenshot", "position-nekoga", "--compare", "position-suwatta", "-o", str(tmp_path / "x.jpg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 4 and "missing.json" in err and "--compare" in err
    assert not (tmp_path / "x.png").exists()


def test_positions_on_in_the_comparison_make_the_word_orders_differ_and_off_again_the_same(window, qtbot):
    """Seed 003 in the compare window: RoPE on for A and B, B − A appears; none, it is 0 again."""
    dialog = open_pair(window, qtbot, "compare_orders_action")
    assert dialog.positions.isVisible() and dialog.positions.currentIndex() == 0
    for index, positions, same in ((2, "rope", False), (1, "sinusoidal", False), (0, "none", True)):
        old = dialog.figure
        dialog.positions.setCurrentIndex(index)
        qtbot.waitUntil(lambda old=old: dialog.figure is not old and dialog.canvas.isVisible(), timeout=10000)
        assert dialog.figure.a.projection.positions == dialog.figure.b.projection.positions == positions
        assert dialog.figure.same() is same
        assert ("the same weights, reordered" in dialog.note.text()) is same
        # The interface is English: the pair is the English presets' (dog bites man / man bites dog).
        assert dialog.figure.titles() == {"rope": ("dog bites man (RoPE)", "man bites dog (RoPE)"),
                                          "sinusoidal": ("dog bites man (sinusoidal positions)",
                                                         "man bites dog (sinusoidal positions)"),
                                          "none": ("dog bites man (no positions)",
                                                   "man bites dog (no positions)")}[positions]
    assert len(dialog.findChildren(type(dialog.canvas))) == 1  # the old figures' canvases are gone
    assert window.document.scenario.projection.positions == "none"  # the window's A is left as it was


def test_the_positions_choice_is_only_for_two_layers(window, qtbot):
    dialog = open_pair(window, qtbot, "compare_hashi_action")
    assert not dialog.positions.isVisible()
