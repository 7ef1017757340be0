"""The teacher's own tools while presenting, seen as the class sees them (the window grabbed at 1920 × 1080):
the pen's strokes where the mouse went, in each colour, gone with E or a new scene and never in an export;
the pointer's red dot at the mouse; the zoom making a line of known length 2× and 3× as long; the timer
counting down in digits at least 48 px tall, driven by a clock the test turns."""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attnviz.core.lessons import builtin_lesson
from attnviz.gui import MainWindow
from attnviz.gui.classroom import tools as tools_module
from attnviz.gui.classroom.tools import (
    CORNER_PREFERENCE,
    FLASH_COLOUR,
    FLASH_SECONDS,
    PEN_COLOURS,
    POINTER_COLOUR,
    written,
)
from attnviz.gui.common.i18n import install_language
from pixels import near, rgb
from presented import presenting

RED, BLUE = (QColor(*PEN_COLOURS[i]) for i in (0, 1))


def settle():
    for _ in range(3):
        QApplication.processEvents()


def press(w, key):
    QTest.keyClick(w, key)
    settle()


def giving(qtbot, lang="en", scene=1):  # the worked example's first scene
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert w.lessons.open(builtin_lesson("attention"), scene)
    settle()
    return w


def drag(w, points):
    """The mouse pressed at the first point, moved through the others, released: as the window system
    sends it, to whatever is on top there."""
    window = w.windowHandle()
    QTest.mousePress(window, Qt.LeftButton, Qt.NoModifier, points[0])
    for p in points[1:]:
        QTest.mouseMove(window, p)
    QTest.mouseRelease(window, Qt.LeftButton, Qt.NoModifier, points[-1])
    settle()


def line(a: QPoint, b: QPoint, n: int = 12) -> list[QPoint]:
    return [QPoint(round(a.x() + (b.x() - a.x()) * t / n), round(a.y() + (b.y() - a.y()) * t / n))
            for t in range(n + 1)]


def seen(w) -> np.ndarray:
    return rgb(w.grab().toImage())


def inked(picture, points, colour) -> float:
    """The share of `points` drawn in `colour`."""
    return float(np.mean([near(picture[p.y(), p.x()], colour, 40) for p in points]))


STROKE = line(QPoint(300, 250), QPoint(700, 330))
OTHER = line(QPoint(900, 600), QPoint(1200, 700))


def test_the_pen_draws_where_the_mouse_moves_in_each_colour_and_its_clicks_make_no_guess(qtbot):
    w = giving(qtbot, scene=3)  # a question: a click on a key would be the class's guess
    assert inked(seen(w), STROKE, RED) < 0.2
    press(w, Qt.Key_P)
    drag(w, STROKE)
    picture = seen(w)
    assert inked(picture, STROKE, RED) == 1.0
    assert inked(picture, [p + QPoint(0, 40) for p in STROKE], RED) < 0.2  # a line, not a smear
    press(w, Qt.Key_I)  # the next colour
    drag(w, OTHER)
    picture = seen(w)
    assert inked(picture, OTHER, BLUE) == 1.0 and inked(picture, STROKE, RED) == 1.0
    # A click on a key of the hidden row draws a dot: no guess, nothing edited.
    panel = w.parts.heads.panel(w.document.active_head)
    g = panel.painter.geometry(panel._content_rect(), panel.shown())
    cell = panel.mapTo(w, QPointF(g.grid.left() + 1.5 * g.cell_w, g.grid.top() + (w.document.query + 0.5) * g.cell_h)
                       .toPoint())
    drag(w, [cell])
    assert w.lessons.question.asked.guess is None and not w.document.modified
    assert inked(seen(w), [cell], BLUE) == 1.0
    press(w, Qt.Key_P)  # the pen put down: the same click is the class's guess again
    drag(w, [cell])
    assert w.lessons.question.asked.guess == 1
    assert inked(seen(w), STROKE, RED) == 1.0  # the drawing stays until E or the next scene


def test_e_erases_the_drawing_and_a_new_scene_starts_clean(qtbot):
    w = giving(qtbot)
    press(w, Qt.Key_P)
    drag(w, STROKE)
    assert inked(seen(w), STROKE, RED) == 1.0
    press(w, Qt.Key_E)
    assert inked(seen(w), STROKE, RED) < 0.2
    drag(w, STROKE)  # the pen is still on after E
    assert inked(seen(w), STROKE, RED) == 1.0
    index = w.lessons.index
    while w.lessons.index == index:
        press(w, Qt.Key_PageDown)
    assert inked(seen(w), STROKE, RED) < 0.2
    drag(w, STROKE)
    press(w, Qt.Key_End)
    assert inked(seen(w), STROKE, RED) < 0.2


def test_presenting_without_a_lesson_the_pen_draws_and_another_view_starts_clean(qtbot):
    w = presenting(qtbot)
    press(w, Qt.Key_P)
    drag(w, STROKE)
    assert inked(seen(w), STROKE, RED) == 1.0
    press(w, Qt.Key_Tab)
    assert inked(seen(w), STROKE, RED) < 0.2
    drag(w, STROKE)
    press(w, Qt.Key_Escape)  # the pen put down, the presentation kept, the drawing too
    assert w.classroom.presenting and inked(seen(w), STROKE, RED) == 1.0
    press(w, Qt.Key_F5)  # leaving takes the drawing away
    assert not w.classroom.presenting and not w.classroom.tools.pen.isVisible()
    assert inked(seen(w), STROKE, RED) < 0.2


def test_the_drawing_is_never_in_an_export(qtbot, tmp_path):
    w = giving(qtbot, scene=6)  # the ten tokens' heads: the stroke crosses the big heatmap
    press(w, Qt.Key_P)
    across = line(QPoint(100, 300), QPoint(800, 700), 40)
    drag(w, across)
    assert inked(seen(w), across, RED) == 1.0
    w.exports.copy_image()  # Edit → Copy image: the figure for a slide
    image = QApplication.clipboard().image()
    assert not image.isNull() and not near(rgb(image), RED, 40).any()
    path = tmp_path / "head.png"
    assert w.exports.export_image(str(path))  # File → Export image…
    exported = QImage(str(path))
    assert not exported.isNull() and not near(rgb(exported), RED, 40).any()


def test_k_keeps_the_screen_with_its_drawing_as_a_png_and_says_where(qtbot, tmp_path):
    w = giving(qtbot, scene=6)
    tools = w.classroom.tools
    tools.kept_folder = lambda: tmp_path / "kept"  # made when the first screen is kept
    press(w, Qt.Key_P)
    drag(w, STROKE)
    press(w, Qt.Key_L)  # the dot is drawn over the scene once, never kept
    press(w, Qt.Key_K)
    press(w, Qt.Key_K)  # twice: two files, the first not overwritten
    files = sorted((tmp_path / "kept").glob("attnviz-*.png"), key=lambda f: f.stat().st_mtime_ns)
    assert len(files) == 2
    for file in files:
        kept = rgb(QImage(str(file)))
        assert kept.shape[:2] == (w.height(), w.width())
        assert inked(kept, STROKE, RED) == 1.0
        assert not near(kept, QColor(*POINTER_COLOUR), 30).any()
    notice = tools.notice
    assert notice.isVisible() and notice.text() == f"Kept, with the drawing: {files[-1]}"
    assert w.document.modified is False  # keeping changes nothing in the work


def test_a_screen_that_cannot_be_kept_says_why_and_the_drawing_stays(qtbot, tmp_path):
    w = giving(qtbot)
    blocked = tmp_path / "a file"
    blocked.write_text("")
    w.classroom.tools.kept_folder = lambda: blocked / "AttnViz"  # a folder inside a file: cannot be made
    press(w, Qt.Key_P)
    drag(w, STROKE)
    press(w, Qt.Key_K)
    notice = w.classroom.tools.notice
    assert notice.isVisible() and notice.text().startswith("Not kept:") and "AttnViz" in notice.text()
    assert inked(seen(w), STROKE, RED) == 1.0
    assert blocked.read_text() == "" and not list(tmp_path.glob("**/*.png"))


def test_the_pointer_is_a_red_dot_at_the_mouse_with_the_cursor_hidden(qtbot):
    w = giving(qtbot)
    dot = QColor(*POINTER_COLOUR)
    QTest.mouseMove(w.windowHandle(), QPoint(600, 400))
    press(w, Qt.Key_L)
    assert QApplication.overrideCursor() is not None and QApplication.overrideCursor().shape() == Qt.BlankCursor
    for at in (QPoint(600, 400), QPoint(1300, 250)):
        QTest.mouseMove(w.windowHandle(), at)
        settle()
        picture = seen(w)
        assert near(picture[at.y(), at.x()], dot, 40)
        assert near(picture[at.y(), at.x() + 8], dot, 60)  # a dot seen from the back: wider than 16 px
        assert not near(picture[at.y(), at.x() + 60], dot, 60)  # and not a blot
    assert not near(seen(w)[400, 600], dot, 60)  # it left the first place
    press(w, Qt.Key_L)
    assert QApplication.overrideCursor() is None and not near(seen(w)[250, 1300], dot, 60)


def red_run(picture, y: int) -> int:
    """The length in pixels of the red run along row y (the pen's horizontal line, magnified or not)."""
    columns = np.flatnonzero(near(picture[y], RED, 60))
    return int(columns.max() - columns.min() + 1) if columns.size else 0


def test_the_zoom_magnifies_under_the_pointer_two_to_four_times_and_esc_brings_it_back(qtbot):
    w = giving(qtbot)
    press(w, Qt.Key_P)
    drag(w, line(QPoint(850, 520), QPoint(1050, 520), 20))  # a line of known length: 200 px (and its caps)
    press(w, Qt.Key_P)
    before = red_run(seen(w), 520)
    assert 200 <= before <= 215
    modified, undo = w.document.modified, w.document.undo_stack.count()
    QTest.mouseMove(w.windowHandle(), QPoint(950, 520))  # the line's middle stays where it is
    press(w, Qt.Key_Z)
    QTest.mouseMove(w.windowHandle(), QPoint(950, 520))
    settle()
    zoom = w.classroom.tools.zoom
    assert zoom.isVisible() and zoom.factor == 2
    assert red_run(seen(w), 520) == pytest.approx(2 * before, abs=8)
    press(w, Qt.Key_Plus)
    press(w, Qt.Key_Plus)
    assert zoom.factor == 3 and red_run(seen(w), 520) == pytest.approx(3 * before, abs=10)
    wheel = QWheelEvent(QPointF(950, 520), QPointF(950, 520), QPoint(), QPoint(0, -120), Qt.NoButton, Qt.NoModifier,
                        Qt.NoScrollPhase, False)
    QApplication.sendEvent(zoom, wheel)  # the wheel towards the teacher: less
    assert zoom.factor == 2.5
    for _ in range(5):
        press(w, Qt.Key_Plus)
    assert zoom.factor == 4  # no further
    press(w, Qt.Key_Escape)  # back, still presenting, the same scene, nothing changed
    assert not zoom.isVisible() and w.classroom.presenting and w.lessons.index == 1
    assert red_run(seen(w), 520) == before
    assert (w.document.modified, w.document.undo_stack.count()) == (modified, undo)


def test_the_zoom_follows_a_step_taken_under_it(qtbot):
    w = giving(qtbot, scene=2)  # the worked example's guided steps
    QTest.mouseMove(w.windowHandle(), QPoint(1400, 400))
    press(w, Qt.Key_Z)
    first = w.classroom.tools.zoom.picture.toImage()
    stage = w.document.stage
    press(w, Qt.Key_PageDown)
    assert w.document.stage == stage + 1 and w.classroom.tools.zoom.isVisible()
    qtbot.waitUntil(lambda: w.classroom.tools.zoom.picture.toImage() != first, timeout=2000)


def test_the_zoom_follows_an_answer_revealed_under_it(qtbot):
    w = giving(qtbot, scene=3)  # a question: A reveals its answer, the document unchanged
    QTest.mouseMove(w.windowHandle(), QPoint(400, 600))
    press(w, Qt.Key_Z)
    first = w.classroom.tools.zoom.picture.toImage()
    press(w, Qt.Key_A)
    assert w.lessons.question.asked.revealed and w.classroom.tools.zoom.isVisible()
    qtbot.waitUntil(lambda: w.classroom.tools.zoom.picture.toImage() != first, timeout=2000)


class Clock:
    """The time the countdown reads, turned by the test."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def digits_height(card) -> int:
    """The height in pixels of the ink of the timer's digits (the text colour on its card)."""
    picture = rgb(card.grab().toImage())
    ink = near(picture, card.palette().windowText().color(), 80)
    inner = ink[8:-8, 8:-8]  # inside the card's border
    rows = np.flatnonzero(inner.any(axis=1))
    return int(rows.max() - rows.min() + 1) if rows.size else 0


def test_t_starts_a_timer_counting_down_in_large_digits_then_goes_round_its_lengths(qtbot, monkeypatch):
    w = giving(qtbot)
    clock = Clock()
    tools = w.classroom.tools
    tools.countdown.clock = clock
    beeps = []
    monkeypatch.setattr(tools_module.QApplication, "beep", lambda: beeps.append(1))
    card = tools.timer_card
    assert not card.isVisible()
    press(w, Qt.Key_T)
    assert card.isVisible() and tools.countdown.text() == "0:30"
    assert digits_height(card) >= 48  # read across the classroom
    g = card.geometry()
    assert g.top() < 40 and (g.right() > w.width() - 40 or g.left() < 40)  # in a top corner
    clock.now += 12.2
    tools.countdown.tick()
    assert tools.countdown.text() == "0:18"
    clock.now += 17.7
    tools.countdown.tick()
    assert tools.countdown.text() == "0:01" and not beeps
    clock.now += 0.2
    tools.countdown.tick()
    assert tools.countdown.text() == "0:00" and beeps == [1]
    assert tools.countdown.flashing()
    assert near(rgb(card.grab().toImage())[card.height() // 2, 12], QColor(*FLASH_COLOUR), 30)
    clock.now += FLASH_SECONDS + 1
    tools.countdown.tick()
    assert not tools.countdown.timer.isActive() and card.isVisible() and tools.countdown.text() == "0:00"
    assert beeps == [1]  # once
    press(w, Qt.Key_T)  # a timer at zero: T takes it away
    assert not card.isVisible()
    for expected in ("0:30", "1:00", "2:00", "5:00"):
        press(w, Qt.Key_T)
        assert card.isVisible() and tools.countdown.text() == expected
    press(w, Qt.Key_T)
    assert not card.isVisible()


def test_the_timer_takes_the_top_corner_that_hides_least_of_the_scene(qtbot):
    w = giving(qtbot)  # the first scene: the top right is blank, the top left holds the guided step's words
    tools = w.classroom.tools
    tools.countdown.clock = Clock()
    press(w, Qt.Key_T)
    card = tools.timer_card
    right, left = card.corners()
    assert card.geometry() == right

    def hidden(rect):
        card.hide()
        share = written(w.grab(rect).toImage(), w.palette().window().color())
        card.show()
        return share
    assert hidden(right) + CORNER_PREFERENCE < hidden(left)
    press(w, Qt.Key_P)  # the teacher writes all over the top right: the card gives way
    for y in range(right.top(), right.bottom(), 6):
        drag(w, [QPoint(right.left(), y), QPoint(right.right(), y)])
    card.place()
    assert card.geometry() == left and hidden(left) + CORNER_PREFERENCE < hidden(right)
    press(w, Qt.Key_End)  # another scene: the corner is chosen again once it is drawn, the count goes on
    assert card.isVisible()
    qtbot.waitUntil(lambda: card.geometry() == right, timeout=2000)


def test_a_number_then_t_is_a_timer_of_that_many_seconds_and_enter_then_jumps_nowhere(qtbot):
    w = giving(qtbot)
    tools = w.classroom.tools
    tools.countdown.clock = Clock()
    QTest.keyClicks(w, "90")
    settle()
    press(w, Qt.Key_T)
    assert tools.countdown.text() == "1:30" and tools.timer_card.isVisible()
    assert "90" not in w.lessons.caption.typed.text()
    press(w, Qt.Key_Return)
    assert w.lessons.index == 1  # the digits were the timer's
    QTest.keyClicks(w, "3")
    press(w, Qt.Key_Return)
    assert w.lessons.index == 2  # and a number then Enter still jumps
    assert tools.timer_card.isVisible()  # the timer goes on over the next scene


def test_every_tool_is_put_away_when_the_lesson_ends(qtbot):
    w = giving(qtbot)
    tools = w.classroom.tools
    for key in (Qt.Key_P, Qt.Key_L, Qt.Key_T, Qt.Key_Z):
        press(w, key)
    drag(w, STROKE)
    w.lessons.end()
    settle()
    assert not any(s.isVisible() for s in (tools.pen, tools.pointer, tools.zoom, tools.timer_card))
    assert QApplication.overrideCursor() is None and not tools.pen.strokes
    press(w, Qt.Key_P)  # on the desk P is a letter, not the pen
    assert not tools.pen.drawing


def test_no_tooltip_comes_up_on_the_projector_while_the_teacher_points_or_draws(qtbot):
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtGui import QHelpEvent
    w = giving(qtbot, scene=2)
    table = w.parts.steps.table.viewport()
    where = table.rect().center()

    class Seen(QObject):
        got = 0

        def eventFilter(self, watched, event):
            self.got += event.type() == QEvent.ToolTip
            return False
    seen = Seen()
    table.installEventFilter(seen)  # after the application's filters: what reaches the table

    def tooltip_taken() -> bool:
        before = seen.got
        QApplication.sendEvent(table, QHelpEvent(QEvent.ToolTip, where, table.mapToGlobal(where)))
        return seen.got == before
    assert not tooltip_taken()
    press(w, Qt.Key_L)
    assert tooltip_taken()
    press(w, Qt.Key_L)
    assert not tooltip_taken()
    press(w, Qt.Key_P)
    assert tooltip_taken()
    press(w, Qt.Key_Escape)  # the pen put away
    assert not tooltip_taken()
