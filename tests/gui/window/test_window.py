"""The window as a whole: opening, saving, the title, unsaved changes, Japanese text."""
import json
import os
import subprocess
import sys

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from attnviz.core import load_scenario
from attnviz.gui import MainWindow
from attnviz.gui.state import settings


def make(qtbot, scenario="seed-demo"):
    w = MainWindow(scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    return w


def test_the_window_opens_on_seed_demo_with_a_panel_per_head(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.document.scenario.tokens[6] == "It"  # the interface is English: seed-demo's English version
    assert w.findChild(object, "headPanel0") and w.findChild(object, "headPanel1")
    assert w.findChild(object, "headPanel2") is None
    assert w.findChild(object, "headPanel0").weights().shape == (10, 10)


def test_twelve_heads_get_twelve_panels(qtbot):
    w = make(qtbot, "gpt2-small-shape")
    assert [w.findChild(object, f"headPanel{i}") is not None for i in range(13)] == [True] * 12 + [False]


NO_FONTS_SCRIPT = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

def render(text):
    image = QImage(60, 40, QImage.Format_RGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.setFont(QApplication.font())
    p.drawText(image.rect(), Qt.AlignCenter, text)
    p.end()
    return image

app = QApplication([])
before = render("猫") == render("\\ue000")  # drawn as the missing-glyph box?
from attnviz.gui.window.app import create_app
create_app()
after = render("猫") == render("\\ue000")
print(before, after)
"""


def test_japanese_is_drawn_on_a_machine_with_no_fonts_at_all(tmp_path):
    """A fontconfig with no font folders: only the font AttnViz brings can draw 猫."""
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"<?xml version='1.0'?><fontconfig><cachedir>{tmp_path}</cachedir></fontconfig>")
    env = {**os.environ, "FONTCONFIG_FILE": str(conf), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", NO_FONTS_SCRIPT], capture_output=True, text=True, env=env)
    assert result.stdout.split() == ["True", "False"], result.stderr  # boxes before, glyphs after


def test_launching_from_the_command_line_keeps_the_files_name_for_the_title_and_save(qtbot, tmp_path, monkeypatch):
    from attnviz import cli
    from attnviz.core import load_preset, save_scenario
    path = tmp_path / "lesson.json"
    save_scenario(load_preset("toy-3token"), path)
    opened = []
    monkeypatch.setattr("attnviz.cli.window.display_problem", lambda: None)
    monkeypatch.setattr("attnviz.gui.window.start.run",
                        lambda scenario, lang=None, **model: opened.append(scenario) or 0)
    assert cli.main([str(path)]) == 0
    w = make(qtbot, opened[0])
    assert w.windowTitle() == "lesson.json[*] — AttnViz" and w.document.path == str(path)
    w.tokens.rename(0, "犬")
    assert w.files.save() and load_scenario(path).tokens[0] == "犬"


def test_the_title_shows_the_name_and_a_modified_mark(qtbot):
    w = make(qtbot)
    assert w.windowTitle() == "seed-demo[*] — AttnViz" and not w.isWindowModified()
    w.tokens.rename(0, "犬")
    assert w.isWindowModified()
    w.menus.undo_action.trigger()
    assert not w.isWindowModified()


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_window(qtbot, monkeypatch):
    w = make(qtbot)
    w.show()
    w.tokens.rename(0, "犬")
    asked = []
    monkeypatch.setattr(w.files, "ask_unsaved", lambda: asked.append(1) or QMessageBox.Cancel)
    assert not w.close()
    assert asked and w.isVisible()
    monkeypatch.setattr(w.files, "ask_unsaved", lambda: QMessageBox.Discard)
    assert w.close()


def test_opening_another_scenario_with_unsaved_changes_asks_first(qtbot, monkeypatch):
    w = make(qtbot)
    w.tokens.rename(0, "犬")
    monkeypatch.setattr(w.files, "ask_unsaved", lambda: QMessageBox.Cancel)
    assert not w.files.open_scenario("toy-3token")
    assert w.document.scenario.tokens[0] == "犬"


def test_save_writes_a_file_that_opens_again_with_the_edit(qtbot, tmp_path):
    w = make(qtbot)
    w.tokens.rename(0, "犬")
    path = tmp_path / "mine.json"
    assert w.files.save_to(str(path))
    assert w.windowTitle() == "mine.json[*] — AttnViz" and not w.isWindowModified()
    assert json.loads(path.read_text(encoding="utf-8"))["tokens"][0] == "犬"
    other = make(qtbot, str(path))
    assert other.document.scenario.tokens[0] == "犬"
    assert str(path) in settings.recent_files()


def test_a_broken_file_is_refused_with_a_message_and_the_open_scenario_stays(qtbot, tmp_path, monkeypatch):
    w = make(qtbot)
    w.tokens.rename(0, "犬")
    w.document.undo_stack.setClean()
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a[2]))
    assert not w.files.open_scenario(str(broken))
    assert warnings and "broken JSON" in warnings[0]
    assert w.document.scenario.tokens[0] == "犬"


def test_saving_into_a_missing_folder_says_so_and_keeps_the_work(qtbot, tmp_path, monkeypatch):
    w = make(qtbot)
    w.tokens.rename(0, "犬")
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a[2]))
    assert not w.files.save_to(str(tmp_path / "no" / "such" / "dir.json"))
    assert "does not exist" in warnings[0] and w.isWindowModified()


def test_new_from_preset_replaces_the_scenario_and_clears_the_history(qtbot):
    w = make(qtbot)
    w.menus.presets_menu.aboutToShow.emit()  # the menu is filled when it opens
    action = next(a for a in w.menus.presets_menu.actions() if a.text().startswith("toy-3token"))
    action.trigger()
    assert w.document.scenario.tokens == ("cat", "fish", "it")  # the English version: the window is English
    assert w.document.undo_stack.count() == 0
    assert w.findChild(object, "headPanel0").weights().shape == (3, 3)
    assert w.findChild(object, "qTable").model().rowCount() == 3


def test_screenshot_renders_the_window_offscreen_at_the_requested_size(tmp_path):
    out = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "attnviz", "screenshot", "seed-demo", "-o", str(out),
                             "--width", "1280", "--height", "800"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    colors = {image.pixelColor(x, y).name() for x in range(0, 1280, 40) for y in range(0, 800, 40)}
    assert len(colors) > 10  # a rendered window, not a blank image


def test_screenshot_refuses_a_name_that_is_not_png(tmp_path):
    result = subprocess.run([sys.executable, "-m", "attnviz", "screenshot", "seed-demo", "-o",
                             str(tmp_path / "shot.jpg")], capture_output=True, text=True)
    assert result.returncode == 2 and "PNG" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "shot.jpg").exists()
