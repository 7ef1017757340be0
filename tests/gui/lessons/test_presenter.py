"""The presenter's view of a lesson: with two screens the notes, "3 / 19", the caption, the next scene
and a clock on the screen that is not the projector; with one screen N shows the notes over the scene
for a moment. Two virtual screens need their own Qt platform: that test runs in a subprocess."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt, QTime
from PySide6.QtGui import QFontInfo
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QWidget
from test_player import giving, press, settle

from attnviz.core.lessons import builtin_lesson
from attnviz.gui.classroom.views import BY_ID
from attnviz.gui.lessons.presenter import PresenterWindow, clock_text, notes_text
from presented import unreadable

TESTS = Path(__file__).resolve().parents[1]

TWO_SCREENS = """
import json, sys, hashlib
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from attnviz.gui.window.app import create_app, isolate_settings
app = create_app()
isolate_settings()
from attnviz.core.lessons import builtin_lesson
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language
from presented import unreadable

def settle():
    for _ in range(4):
        app.processEvents()

def seen(w):
    p = w.lessons.presenter.screen_window
    if p is None or not p.isVisible():
        return None
    g = p.geometry()
    image = p.thumbnail.pixmap().toImage()
    picture = hashlib.sha1(bytes(image.constBits())).hexdigest() if not image.isNull() else None
    return {"screen": p.screen().name(), "geometry": [g.x(), g.y(), g.width(), g.height()],
            "where": p.where.text(), "notes": p.notes.text(), "clock": p.clock.text(),
            "thumbnail": picture, "unreadable": unreadable(p)}

install_language("ja")
w = MainWindow("seed-demo")
w.show()
screens = {s.name(): [s.geometry().x(), s.geometry().y(), s.geometry().width(), s.geometry().height()]
           for s in app.screens()}
w.windowHandle().setScreen(app.screens()[[s.name() for s in app.screens()].index("projector")])
w.move(0, 0)
settle()
w.lessons.open(builtin_lesson("attention"))
settle()
out = {"screens": screens, "first": seen(w), "main": w.screen().name(), "active": app.activeWindow() is w}
presses = 0
while w.lessons.index == 0 and presses < 8:
    QTest.keyClick(w, Qt.Key_PageDown)
    presses += 1
    settle()
out["second"], out["index"] = seen(w), w.lessons.index
w.classroom.set_language("en")
settle()
out["english"] = seen(w)
out["every_scene"] = []
for i in range(len(w.lessons.lesson.scenes)):  # every scene's notes and next scene readable, nothing cut
    w.lessons.go(i)
    settle()
    out["every_scene"] += [f"scene {i + 1}: {problem}" for problem in seen(w)["unreadable"]]
out["main_after"] = w.screen().name()
w.lessons.end()
settle()
out["ended"] = [t.objectName() for t in app.topLevelWidgets() if t.isVisible() and t is not w]
w.close()
print(json.dumps(out))
"""


def two_screens(tmp_path) -> dict:
    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"screens": [
        {"name": "projector", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "dpr": 1},
        {"name": "laptop", "x": 1920, "y": 0, "width": 1600, "height": 900, "logicalDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    result = subprocess.run([sys.executable, "-c", TWO_SCREENS, str(TESTS)], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def inside(geometry, screen) -> bool:
    x, y, w, h = geometry
    sx, sy, sw, sh = screen
    return sx <= x and sy <= y and x + w <= sx + sw and y + h <= sy + sh


def test_with_two_screens_the_presenter_window_follows_the_lesson_on_the_screen_that_is_not_the_projector(tmp_path):
    out = two_screens(tmp_path)
    lesson = builtin_lesson("attention")
    first, second = out["first"], out["second"]
    assert out["main"] == out["main_after"] == "projector"  # the scene stays on the projector
    assert out["active"]  # the clicker's keys go to the projector's window, not the presenter's
    assert first["screen"] == "laptop" and inside(first["geometry"], out["screens"]["laptop"])
    assert first["geometry"] == out["screens"]["laptop"]  # full screen there
    assert first["where"] == f"1 / {len(lesson.scenes)}" and first["notes"] == notes_text(lesson.scenes[0], "ja")
    assert "since the start" in first["clock"] or "開始から" in first["clock"]
    assert first["unreadable"] == [] and second["unreadable"] == [] and out["english"]["unreadable"] == []
    assert out["index"] == 1
    assert second["where"] == f"2 / {len(lesson.scenes)}" and second["notes"] == notes_text(lesson.scenes[1], "ja")
    assert None is not second["thumbnail"] != first["thumbnail"]  # the next scene: 3 now, not 2
    assert out["english"]["notes"] == notes_text(lesson.scenes[1], "en") != second["notes"]
    assert out["every_scene"] == []
    assert out["ended"] == []  # the lesson over, the presenter window closes


def test_with_one_screen_there_is_no_presenter_window_and_n_shows_the_notes_over_the_scene_until_n_again(qtbot):
    w = giving(qtbot, "attention", scene=1)
    assert w.lessons.presenter.screen_window is None
    assert not any(isinstance(t, PresenterWindow) and t.isVisible() for t in QApplication.topLevelWidgets())
    overlay = w.lessons.presenter.overlay
    assert not overlay.isVisible()  # the notes are the presenter's: hidden
    press(w, qtbot, Qt.Key_N)
    assert overlay.isVisible() and overlay.label.text() == notes_text(builtin_lesson("attention").scenes[1], "ja")
    assert unreadable(overlay) == []
    assert w.lessons.index == 1 and w.isFullScreen()  # nothing else moved
    press(w, qtbot, Qt.Key_N)
    assert not overlay.isVisible()


def test_the_notes_over_the_scene_go_after_a_few_seconds_and_follow_the_scene(qtbot):
    w = giving(qtbot, "attention", scene=1)
    overlay = w.lessons.presenter.overlay
    overlay.timer.setInterval(50)  # NOTES_SECONDS, shortened for the test
    press(w, qtbot, Qt.Key_N)
    press(w, qtbot, Qt.Key_PageUp)
    assert w.lessons.index == 0 and overlay.label.text() == notes_text(builtin_lesson("attention").scenes[0], "ja")
    qtbot.waitUntil(lambda: not overlay.isVisible(), timeout=2000)
    press(w, qtbot, Qt.Key_N)
    w.lessons.end()
    assert not overlay.isVisible()


def test_the_keys_list_names_n_while_a_lesson_is_given_with_one_screen(qtbot):
    def listed(w):
        return [label.text() for label in w.classroom.keys.findChildren(QLabel)]
    w = giving(qtbot, "attention", lang="en")
    press(w, qtbot, Qt.Key_Question)
    assert "N" in listed(w) and unreadable(w.classroom.keys) == []
    press(w, qtbot, Qt.Key_Question)
    w.lessons.end()
    w.classroom.set_presentation(True)  # presenting without a lesson: N is nothing
    press(w, qtbot, Qt.Key_Question)
    assert "N" not in listed(w)


def test_the_clock_says_the_time_of_day_and_the_time_since_the_lesson_began():
    assert clock_text(QTime(14, 5), 754) == "14:05  ·  0:12:34 since the start"
    assert clock_text(QTime(9, 0), 3 * 3600 + 7) == "09:00  ·  3:00:07 since the start"


def on_one_screen(qtbot, lang="en", scene=2):
    """A lesson given with the presenter's view on the test's one screen (as it is on a laptop's)."""
    w = giving(qtbot, "attention", lang, scene)
    presenter = w.lessons.presenter
    presenter.start(QApplication.primaryScreen())
    w.lessons.go(scene)
    settle()
    return w, presenter.screen_window


def covered(window) -> float:
    """The share of the window's area under its shown parts (texts, the notes, the two pictures)."""
    area = np.zeros((window.height(), window.width()), bool)
    for part in window.findChildren(QWidget):
        if part.isVisible() and isinstance(part, (QLabel, QScrollArea)) and part.parentWidget() is window:
            g = part.geometry()
            area[max(0, g.top()):g.bottom() + 1, max(0, g.left()):g.right() + 1] = True
    return float(area.mean())


@pytest.mark.parametrize("lang,step_two,step_three", [("en", "Step 2 of 5: ÷ √dₖ", "Step 3 of 5: mask the future"),
                                                      ("ja", "ステップ 2 / 5：÷ √dₖ", "ステップ 3 / 5：未来を隠す")])
def test_the_presenter_view_shows_the_guided_step_and_follows_it(qtbot, lang, step_two, step_three):
    w, p = on_one_screen(qtbot, lang)
    assert p.where.text() == "3 / 20" and p.step.text() == step_two
    press(w, qtbot, Qt.Key_PageDown)
    assert w.lessons.index == 2 and p.step.text() == step_three
    w.lessons.go(8)  # geometry: no guided step, said so with the view
    assert BY_ID["geometry"].label.split(":")[0] in p.step.text() or "幾何" in p.step.text()


def test_the_presenter_view_fills_its_screen_in_type_read_at_a_glance(qtbot):
    w, p = on_one_screen(qtbot)
    screen = QApplication.primaryScreen().geometry()
    assert p.geometry() == screen
    assert covered(p) > 0.85, covered(p)
    assert unreadable(p) == []
    # The next scene's picture and the projector's picture take the room their columns leave.
    for picture, least_width in ((p.thumbnail, 0.3), (p.now, 0.4)):
        pixmap = picture.pixmap()
        assert not pixmap.isNull() and pixmap.width() >= least_width * screen.width() - 40, picture.objectName()
        assert pixmap.height() >= 0.35 * screen.height(), picture.objectName()
    # Short notes are set large: at least twice the least type.
    assert QFontInfo(p.notes.font()).pixelSize() >= 2 * 20
    keys = p.keys.text()
    assert p.keys.isVisible() and p.keys.geometry().bottom() < screen.height()
    for key in ("P", "I", "E", "L", "Z", "T", "B"):
        assert f"<b>{key}</b>" in keys


def test_the_presenter_view_shows_the_timer_large_and_the_projector_with_the_pen(qtbot):
    w, p = on_one_screen(qtbot)
    assert not p.timer.isVisible()
    press(w, qtbot, Qt.Key_T)
    assert p.timer.isVisible() and "0:30" in p.timer.text() and QFontInfo(p.timer.font()).pixelSize() >= 48
    assert unreadable(p) == []
    press(w, qtbot, Qt.Key_T, 4)  # 1 min, 2 min, 5 min, none
    assert not p.timer.isVisible()
    before = p.now.pixmap().toImage()
    press(w, qtbot, Qt.Key_P)
    window = w.windowHandle()
    QTest.mousePress(window, Qt.LeftButton, Qt.NoModifier, QPoint(300, 300))
    QTest.mouseMove(window, QPoint(900, 500))
    QTest.mouseRelease(window, Qt.LeftButton, Qt.NoModifier, QPoint(900, 500))
    w.lessons.presenter._tick()  # the second's tick, now
    assert p.now.pixmap().toImage() != before  # the class's drawing is on the teacher's screen too
