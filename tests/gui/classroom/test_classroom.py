"""In front of a class: languages, presentation mode, guided steps, zoom, looks, settings, help."""
import os
import re
import subprocess
import sys

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QFontInfo
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QMenu, QSlider, QTableView, QWidget

from attnviz.core import compute
from attnviz.core.explain import fmt
from attnviz.gui import MainWindow
from attnviz.gui.steps.stages import NUMBERS
from attnviz.gui.steps.table import MASK, SCALED, WEIGHT

SCORE, SCALE, MASKING, SOFTMAX, OUTPUT = NUMBERS  # the guided steps, in order


def panel(window, i=0):
    return window.findChild(QWidget, f"headPanel{i}")


def texts(window):
    """Every text a user can read in the window: labels, buttons, menus, actions, tooltips, headers."""
    found = []
    for w in window.findChildren(QWidget):
        for getter in ("text", "title", "toolTip", "windowTitle"):
            value = getattr(w, getter, None)
            if callable(value) and isinstance(w, (QLabel, QAbstractButton, QMenu, QSlider, QComboBox,
                                                  QTableView, QWidget)):
                try:
                    found.append(value())
                except TypeError:
                    pass
    for action in window.findChildren(QAction):
        found += [action.text(), action.toolTip()]
    model = window.findChild(QTableView, "stepTable").model()
    found += [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())]
    return [t for t in found if isinstance(t, str) and t.strip()]


# Words that stay as they are in the Japanese interface (terms of the tutorial, names, data).
LANGUAGE_NEUTRAL = {"softmax", "causal", "mask", "query", "key", "value", "attnviz", "viridis", "cividis",
                    "magma", "english", "cos", "sin", "numpy", "qt", "pyside6", "pyqtgraph", "noto", "sans",
                    "cjk", "sil", "open", "font", "license", "transformer", "attention", "json", "npz",
                    "gpt", "small", "esc", "png", "svg", "pdf", "csv", "shift", "pca", "elu", "max", "nan",
                    "exp", "rollout", "mlp"}  # names of models, keys, formats, functions, parts of a model


PRESET_IDS = re.compile("|".join(p.id for p in __import__("attnviz.core", fromlist=["x"]).list_presets()))


def english_words(text):
    text = PRESET_IDS.sub("", re.sub(r"<[^>]+>", "", text))  # markup and preset ids are not words
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)} - LANGUAGE_NEUTRAL


def test_switching_the_language_changes_menus_controls_and_step_table_headers(window):
    def visible():
        model = window.findChild(QTableView, "stepTable").model()
        return (window.menus.file_menu.title(), window.findChild(QWidget, "causalToggle").text(),
                model.headerData(0, Qt.Horizontal), window.findChild(QComboBox, "headSelector").itemText(0))
    assert visible() == ("&File", "Hide the future (causal mask)", "key", "0: semantic head")
    window.classroom.language_actions["ja"].trigger()
    assert visible() == ("ファイル(&F)", "未来を隠す（causal mask）", "キー", "0: 意味ヘッド")
    assert QSettings().value("language") == "ja"
    window.classroom.language_actions["en"].trigger()
    assert visible()[0] == "&File"


def test_the_japanese_interface_has_no_untranslated_text(window):
    window.parts.maths.widget()  # the maths views too
    window.classroom.set_language("ja")
    window.classroom.guided_action.trigger()  # the guide bar too
    leftovers = {t for t in texts(window) if english_words(t)}
    assert leftovers == set()


@pytest.mark.parametrize("first", ["en", "ja"])
def test_the_mask_chooser_shows_its_whole_choice_after_a_language_switch(window, first):
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QComboBox
    window.classroom.set_language(first)
    window.classroom.set_language("ja" if first == "en" else "en")
    QApplication.processEvents()
    chooser = window.findChild(QComboBox, "maskSelector")
    widest = max(QFontMetrics(chooser.font()).horizontalAdvance(chooser.itemText(i)) for i in range(chooser.count()))
    assert chooser.width() >= widest + 20  # the text and the arrow


def test_every_control_says_what_it_does_in_a_tooltip_in_both_languages(window):
    for lang in ("en", "ja"):
        window.classroom.set_language(lang)
        names = ["causalToggle", "scaleToggle", "temperatureSlider", "headSelector", "querySelector",
                 "qTable", "kTable", "vTable", "stepTable", "qSlider0", "headPanel0", "headPanel1"]
        for name in names:
            assert window.findChild(QWidget, name).toolTip(), (lang, name)
    assert "探している" in window.findChild(QLabel, "qCaption").toolTip()


def test_guided_steps_show_only_what_has_been_computed(window):
    d = window.document
    step_table = window.findChild(QTableView, "stepTable")
    trace = compute(d.scenario).heads[0]

    def press(action):
        action.trigger()
        QApplication.processEvents()  # the step table follows at the next event-loop turn
    press(window.classroom.next_action)
    assert d.stage == SCORE
    data = panel(window).data()
    assert data.only_row == d.query and not data.colored and not data.masked.any()
    assert data.row_text == tuple(fmt(x, 2, fixed=True) for x in trace.scores[d.query])
    assert [step_table.isColumnHidden(c) for c in (SCALED, MASK, WEIGHT)] == [True, True, True]
    assert not window.findChild(QLabel, "stepOutput").isVisible()
    assert "Step 1 of 5" in window.findChild(QLabel, "guideLabel").text()
    press(window.classroom.next_action)
    assert d.stage == SCALE
    assert panel(window).data().row_text == tuple(fmt(x, 2, fixed=True) for x in trace.scaled[d.query])
    assert not step_table.isColumnHidden(SCALED) and step_table.isColumnHidden(MASK)
    press(window.classroom.next_action)
    assert d.stage == MASKING and panel(window).data().masked[d.query].sum() == 3  # それ hides は, 新鮮, だった
    press(window.classroom.next_action)
    assert d.stage == SOFTMAX and panel(window).data().colored and not step_table.isColumnHidden(WEIGHT)
    press(window.classroom.next_action)
    assert d.stage == OUTPUT and window.findChild(QLabel, "stepOutput").isVisible()
    press(window.classroom.next_action)
    assert d.stage is None and panel(window).data().only_row is None
    press(window.classroom.previous_action)
    assert d.stage == OUTPUT


def test_presentation_mode_hides_the_editing_chrome_and_enlarges_the_active_head(window, qtbot):
    window.classroom.presentation_action.trigger()
    assert window.isFullScreen()
    assert not window.parts.vectors_dock.isVisible() and not window.parts.toolbar.isVisible()
    assert not window.menuBar().isVisible() and window.parts.steps_dock.isVisible()
    qtbot.wait(10)
    big, small = (panel(window, i).size() for i in (0, 1))
    assert big.width() * big.height() > 4 * small.width() * small.height()  # a thumbnail under the big head
    qtbot.keyClick(window, Qt.Key_Right)  # arrow keys step through the query's arithmetic
    assert window.document.stage == SCORE
    qtbot.keyClick(window, Qt.Key_Down)   # ... and move to the next query
    assert window.document.query == 7
    window.classroom.exit_presentation_action.trigger()
    assert not window.isFullScreen() and window.parts.vectors_dock.isVisible() and window.parts.toolbar.isVisible()


PRESENTATION_SIZES = """
import sys
from attnviz.gui.window.app import use_offscreen, create_app, isolate_settings
use_offscreen(1920, 1080)
app = create_app()
isolate_settings()
from PySide6.QtGui import QFontInfo
from attnviz.gui import MainWindow

w = MainWindow(sys.argv[1])
w.show()
w.classroom.set_presentation(True)
app.processEvents()
p = w.parts.heads.panels[w.document.active_head]
g = p.painter.geometry(p._content_rect(), p.data())
to_pt = 72 / p.logicalDpiY()
print(w.width(), w.height(), QFontInfo(g.label_font).pixelSize() * to_pt, g.value_font.pixelSize() * to_pt)
"""


@pytest.mark.parametrize("preset", ["seed-demo", "gpt2-small-shape"])
def test_presentation_type_is_at_least_24_points_for_ten_tokens_on_a_1920_by_1080_screen(preset):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    result = subprocess.run([sys.executable, "-c", PRESENTATION_SIZES, preset], capture_output=True,
                            text=True, env=env, timeout=60)
    width, height, label_pt, value_pt = result.stdout.split()
    assert (width, height) == ("1920", "1080"), result.stderr
    assert float(label_pt) >= 24 and float(value_pt) >= 24


def test_zoom_scales_every_text_and_actual_size_resets_it(window):
    before = QFontInfo(panel(window).painter.font).pixelSize()
    table_before = window.findChild(QTableView, "qTable").font().pointSizeF()
    window.classroom.zoom_in_action.trigger()
    window.classroom.zoom_in_action.trigger()
    assert window.classroom.zoom_factor == pytest.approx(1.25)
    assert QFontInfo(panel(window).painter.font).pixelSize() > before
    assert window.findChild(QTableView, "qTable").font().pointSizeF() > table_before
    window.classroom.zoom_reset_action.trigger()
    assert window.classroom.zoom_factor == pytest.approx(1.0)


def test_choosing_a_colour_map_recolours_the_heatmaps_and_the_exports(window):
    window.classroom.colormap_actions["grey"].trigger()
    assert panel(window).painter.colormap.name == "grey"
    assert window.exports.figure().heatmap.colormap.name == "grey"
    color = panel(window).painter.colormap.color(0.5)
    assert color.red() == color.green() == color.blue()  # a grey ramp: high contrast, no hue


def test_the_dark_look_darkens_the_window_and_the_panels(window):
    window.classroom.theme_actions["dark"].trigger()
    assert QApplication.palette().window().color().lightness() < 80
    assert panel(window).painter.background.lightness() < 80


def contrast(a, b) -> float:
    """WCAG contrast ratio of two QColors (1 to 21)."""
    def luminance(c):
        linear = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
                  for x in (c.redF(), c.greenF(), c.blueF())]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("look", ["light", "dark"])
def test_masked_rows_of_the_step_table_stay_readable_in_either_look(window, look):
    window.classroom.set_theme(look)
    model = window.findChild(QTableView, "stepTable").model()
    masked = window.document.scenario.tokens.index("は")  # after それ: hidden from it
    text = model.data(model.index(masked, 0), Qt.ForegroundRole).color()
    normal = QApplication.palette().text().color()
    base = QApplication.palette().base().color()
    assert contrast(text, base) >= 4.5           # readable from the back of the room ...
    assert contrast(normal, base) > contrast(text, base)  # ... and still dimmed



def test_settings_persist_from_one_window_to_the_next(qtbot, tmp_path):
    first = MainWindow("seed-demo")
    qtbot.addWidget(first)
    first.show()
    first.classroom.set_language("ja")
    first.classroom.colormap_actions["cividis"].trigger()
    first.classroom.zoom_in_action.trigger()
    first.resize(700, 650)  # within the offscreen screen (800 × 800): restoreGeometry clamps to it
    first.menus.reopen_action.trigger()
    size = first.size().toTuple()
    assert first.close()
    second = MainWindow("toy-3token")
    qtbot.addWidget(second)
    assert QSettings().value("language") == "ja"
    assert second.classroom.colormap == "cividis" and panel(second).painter.colormap.name == "cividis"
    assert second.classroom.zoom_factor == pytest.approx(1.1)
    assert second.size().toTuple() == size != (1500, 950)  # the saved size, not the default
    assert second.menus.reopen_action.isChecked()


def test_the_last_scenario_reopens_at_start_when_asked(qtbot, tmp_path):
    from attnviz.core import load_preset, save_scenario
    from attnviz.gui.state import settings
    from attnviz.gui.window.start import _start_scenario
    save_scenario(load_preset("toy-3token"), tmp_path / "lesson.json")
    w = MainWindow(str(tmp_path / "lesson.json"))
    qtbot.addWidget(w)
    assert _start_scenario()[1] == "preset:seed-demo"  # off by default: the README's seed-demo
    settings.set_reopen_last(True)
    assert _start_scenario()[1] == str(tmp_path / "lesson.json")


def test_the_guide_explains_query_key_value_and_the_worked_example_in_both_languages(window, qtbot):
    from attnviz.gui.classroom.help import show_guide
    dialog = show_guide(window)
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    assert "what this token is looking for" in text and "0.045×[2, 0]" in text and "[0.28, 1.72]" in text
    window.classroom.set_language("ja")
    dialog_ja = show_guide(window)
    qtbot.addWidget(dialog_ja)
    assert "検索ワード" in dialog_ja.browser.toPlainText() and dialog_ja.windowTitle() == "この画面の見かた"


def test_a_whole_session_works_with_the_network_cut_off(window, tmp_path, monkeypatch, qtbot):
    import socket
    attempts = []
    already = set(sys.modules)  # the class's screens' tests, run before in this process, may have imported them

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise OSError("network disabled by the test")
    for name in ("connect", "connect_ex", "sendto"):
        monkeypatch.setattr(socket.socket, name, refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    model = window.findChild(QTableView, "qTable").model()
    assert model.setData(model.index(6, 0), "2")
    window.classroom.set_language("ja")
    window.classroom.next_action.trigger()
    window.classroom.presentation_action.trigger()
    window.classroom.exit_presentation_action.trigger()
    assert window.exports.export_image(str(tmp_path / "h.png"), width=800)
    assert window.exports.export_image(str(tmp_path / "h.svg"), kind="all")
    assert window.files.save_to(str(tmp_path / "s.json"))
    window.exports.copy_image()
    from attnviz.gui.classroom.help import show_guide
    qtbot.addWidget(show_guide(window))
    assert attempts == []
    assert not {"PySide6.QtNetwork", "aiohttp", "segno"} & (set(sys.modules) - already)


def test_qts_own_dialogs_follow_the_language(window):
    from PySide6.QtCore import QCoreApplication
    window.classroom.set_language("ja")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "キャンセル"
    window.classroom.set_language("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
