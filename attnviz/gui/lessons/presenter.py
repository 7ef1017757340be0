"""The presenter's side of a lesson: the scene's notes, where the lesson is, the next scene and a clock.

With a second screen, the projector is the screen the window went full screen on, and PresenterWindow
fills another one (the laptop's): the notes in large type, "3 / 19" and the caption, the next scene's
thumbnail and the time of day with the time since the lesson began. It never takes the keyboard's focus,
so the clicker's keys stay the lesson's. With one screen the notes are the presenter's alone: N shows
them over the scene (NotesOverlay) for NOTES_SECONDS, or until N again.

The next scene's thumbnail is its selected head drawn with HeatmapPainter from its own scenario
(open_scene, then compute): a few milliseconds and no second window laid out off screen, and honest about
what it is: the weights of the head and query the scene selects, with its settings applied. The view the
scene presents is named beside it, since a maths view's picture is no heatmap.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QRectF, QSize, Qt, QTime, QTimer
from PySide6.QtGui import QFont, QGuiApplication, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QFrame, QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from ...core.compute import compute, hidden
from ...core.lessons import LessonError, open_scene
from ..classroom.views import BY_ID
from ..common.i18n import head_label, tr
from ..common.markup import rich
from ..heads.heatmap import HeatmapData, HeatmapPainter, staged
from ..look import colormaps
from ..look.fonts import figure_font, presented, weighted
from ..steps.stages import stage
from .caption import lesson_text

NOTES_SECONDS = 8     # how long N shows the notes over the scene
NOTES_SHARE = 1.4     # the notes' type, as a share of the least the back row reads: read at a glance
TICK_MS = 1000        # the clock's second hand
NEXT_SHARE = 0.38     # of the presenter window's width: the next scene's column
THUMBNAIL_HEIGHT = 0.45  # of its height: the next scene's picture
NEXT_WORDS = 90       # characters of the next scene's caption: a reminder at a glance, the picture below it
OVERLAY_HEIGHT = 0.6  # of the window's height at most: the notes over the scene leave the rest of it seen
OVERLAY_MARGIN = 24   # px between the notes' card and the window's edges
OVERLAY_BORDER = 3    # px: the card's border


def presenter_screen(window: QWidget):
    """Where the presenter window goes: a screen other than the projector (the window's own), the
    primary one when it is another, else the first other; None with one screen."""
    projector = window.screen()
    others = [s for s in QGuiApplication.screens() if s is not projector]
    primary = QGuiApplication.primaryScreen()
    return primary if primary in others else (others[0] if others else None)


def clock_text(now: QTime, elapsed: float) -> str:
    """The time of day and the time since the lesson began (14:05 · 0:12:34)."""
    hours, rest = divmod(int(elapsed), 3600)
    return tr("{0}  ·  {1} since the start").format(now.toString("HH:mm"), f"{hours}:{rest // 60:02}:{rest % 60:02}")


def notes_text(scene, lang: str) -> str:
    """A scene's notes as rich text, their line breaks kept; a notice when it has none."""
    notes = scene.notes[lang].strip()
    if not notes:
        none = tr("No notes for this scene.")
        return f"<i>{rich(none)}</i>"
    return "<br>".join(lesson_text(line) for line in notes.split("\n"))


def view_label(scene) -> str:
    """How the scene is shown: its view, and its guided step when it has one."""
    view = tr("one big head, step by step") if scene.view == "head" else tr(BY_ID[scene.view].label)
    if scene.step is None:
        return tr("Shown as: {0}").format(view)
    return tr("Shown as: {0}, step {1}: {2}").format(view, scene.step, tr(stage(scene.step).title))


def next_picture(opened, size: QSize, colormap, background) -> QPixmap:
    """The scene's selected head as a heatmap, its query's row marked (at its guided step: that row only,
    with the step's numbers, as the big head shows it), `size` pixels."""
    trace = compute(opened.scenario).heads[opened.head]
    data = staged(HeatmapData(tokens=opened.scenario.tokens, weights=trace.weights, masked=hidden(trace),
                              title=head_label(opened.scenario, opened.head), selected_row=opened.query),
                  trace, opened.query, opened.scene.step)
    pixmap = QPixmap(size)
    pixmap.fill(background)
    painter = HeatmapPainter(colormap, font=figure_font(pixel_size=max(12, size.height() // 22)),
                             background=background)
    p = QPainter(pixmap)
    painter.paint(p, QRectF(pixmap.rect()), data)
    p.end()
    return pixmap


def scroller(label: QLabel) -> QScrollArea:
    """Notes of any length: a label as tall as its lines, scrolled when taller than its room."""
    area = QScrollArea(widgetResizable=True, frameShape=QFrame.NoFrame)
    area.setWidget(label)
    area.setFocusPolicy(Qt.NoFocus)
    return area


class PresenterWindow(QWidget):
    """Full screen on the laptop: the notes left, the next scene right, where the lesson is above."""

    def __init__(self, parent: QWidget):
        super().__init__(parent, Qt.Window | Qt.WindowDoesNotAcceptFocus)
        self.setObjectName("presenterWindow")
        self.setAttribute(Qt.WA_ShowWithoutActivating)  # the clicker's keys stay with the projector's window
        self.setFocusPolicy(Qt.NoFocus)
        self.where = QLabel(objectName="presenterWhere")
        self.clock = QLabel(objectName="presenterClock", alignment=Qt.AlignRight | Qt.AlignVCenter)
        self.caption = QLabel(objectName="presenterCaption", textFormat=Qt.RichText, wordWrap=True)
        self.notes = QLabel(objectName="presenterNotes", textFormat=Qt.RichText, wordWrap=True,
                            alignment=Qt.AlignLeft | Qt.AlignTop)
        self.next_where = QLabel(objectName="presenterNextWhere")
        self.next_title = QLabel(objectName="presenterNextTitle", textFormat=Qt.RichText, wordWrap=True)
        self.thumbnail = QLabel(objectName="presenterThumbnail", alignment=Qt.AlignCenter)
        self.next_view = QLabel(objectName="presenterNextView", wordWrap=True)
        nexts = QVBoxLayout()
        for widget in (self.next_where, self.next_title, self.thumbnail, self.next_view):
            nexts.addWidget(widget)
        nexts.addStretch(1)
        layout = QGridLayout(self)
        layout.setContentsMargins(30, 20, 30, 20)
        layout.setHorizontalSpacing(40)
        layout.addWidget(self.where, 0, 0)
        layout.addWidget(self.clock, 0, 1)
        layout.addWidget(self.caption, 1, 0, 1, 2)
        layout.addWidget(scroller(self.notes), 2, 0)
        layout.addLayout(nexts, 2, 1)
        layout.setRowStretch(2, 1)
        layout.setColumnStretch(0, round(100 * (1 - NEXT_SHARE)))
        layout.setColumnStretch(1, round(100 * NEXT_SHARE))

    def place(self, screen) -> None:
        """Full screen on `screen`, its type sized for that screen."""
        self.create()
        self.windowHandle().setScreen(screen)
        self.setGeometry(screen.geometry())
        self.setWindowState(Qt.WindowFullScreen)  # not showFullScreen(): it would take the focus
        self.show()
        self.fit_type()

    def fit_type(self) -> None:
        base = presented(QFont(QApplication.font()), self)
        for label in (self.caption, self.next_title, self.thumbnail, self.next_view):
            label.setFont(base)
        for label in (self.where, self.clock, self.next_where):
            label.setFont(weighted(base, bold=True))
        notes = QFont(base)
        notes.setPixelSize(round(base.pixelSize() * NOTES_SHARE))
        self.notes.setFont(notes)

    def thumbnail_size(self) -> QSize:
        screen = self.screen().geometry()
        return QSize(round(screen.width() * NEXT_SHARE) - 40, round(screen.height() * THUMBNAIL_HEIGHT))


class NotesOverlay(QWidget):
    """The notes over the top of the scene for a moment (one screen): N shows them, N again hides them."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("lessonNotes")
        self.label = QLabel(objectName="lessonNotesText", textFormat=Qt.RichText, wordWrap=True,
                            alignment=Qt.AlignLeft | Qt.AlignTop)
        self.area = scroller(self.label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(30, 20, 30, 20)
        layout.addWidget(self.area)
        self.timer = QTimer(self, singleShot=True, interval=NOTES_SECONDS * 1000, timeout=self.hide)
        self.hide()

    def toggle(self, text: str) -> None:
        if self.isVisible():
            self.hide()
        else:
            self.show_text(text)
            self.show()
            self.raise_()
            self.timer.start()

    def show_text(self, text: str) -> None:
        """The notes' text and the overlay as tall as they need, at most OVERLAY_HEIGHT of the window."""
        font = presented(QFont(QApplication.font()), self)
        font.setPixelSize(round(font.pixelSize() * NOTES_SHARE))
        self.label.setFont(font)
        self.label.setText(text)
        window = self.parentWidget().rect()
        width = window.width() - 2 * OVERLAY_MARGIN
        margins = self.layout().contentsMargins()
        needed = self.label.heightForWidth(width - margins.left() - margins.right()) + margins.top() + \
            margins.bottom() + 4
        self.setGeometry(window.x() + OVERLAY_MARGIN, window.y() + OVERLAY_MARGIN, width,
                         min(needed, round(window.height() * OVERLAY_HEIGHT)))

    def paintEvent(self, event):
        """A card with a border: the notes are told apart from the scene under them at a glance."""
        p = QPainter(self)
        p.fillRect(self.rect(), self.palette().window())
        p.setPen(QPen(self.palette().highlight().color(), OVERLAY_BORDER))
        p.drawRect(self.rect().adjusted(1, 1, -2, -2))


class Presenter:
    """The player's presenter: the presenter window on a second screen, else the notes on N."""

    def __init__(self, window: QWidget, view):
        self.window, self.view = window, view  # the view state: the colour map the thumbnail is drawn in
        self.screen_window: PresenterWindow | None = None  # while a lesson is given on two screens
        self.overlay = NotesOverlay(window)
        self.notes = ""
        self.started = 0.0
        self.clock = QTimer(window, interval=TICK_MS, timeout=self._tick)

    def start(self) -> None:
        """The lesson begins: the presenter window on another screen than the projector, if there is one."""
        self.started = time.monotonic()
        screen = presenter_screen(self.window)
        if screen is None:
            return
        self.screen_window = PresenterWindow(self.window)
        self.screen_window.place(screen)
        self.clock.start()
        self._tick()

    def stop(self) -> None:
        self.clock.stop()
        self.overlay.hide()
        if self.screen_window is not None:
            self.screen_window.close()
            self.screen_window.deleteLater()
            self.screen_window = None

    def show_scene(self, lesson, index: int, lang: str) -> None:
        """Scene `index` is on the projector: its notes, and on the presenter window the next scene."""
        scene = lesson.scenes[index]
        self.notes = notes_text(scene, lang)
        if self.overlay.isVisible():
            self.overlay.show_text(self.notes)
        w = self.screen_window
        if w is None:
            return
        w.where.setText(f"{index + 1} / {len(lesson.scenes)}")
        w.caption.setText(lesson_text(scene.caption[lang]))
        w.notes.setText(self.notes)
        self._show_next(lesson, index + 1, lang)

    def _show_next(self, lesson, index: int, lang: str) -> None:
        w = self.screen_window
        if index >= len(lesson.scenes):
            w.next_where.setText(tr("The last scene: nothing follows."))
            w.next_title.clear()
            w.thumbnail.clear()
            w.next_view.clear()
            return
        scene = lesson.scenes[index]
        w.next_where.setText(tr("Next: {0} / {1}").format(index + 1, len(lesson.scenes)))
        caption = scene.caption[lang]
        w.next_title.setText(lesson_text(caption if len(caption) <= NEXT_WORDS else caption[:NEXT_WORDS] + "…"))
        w.next_view.setText(view_label(scene))
        try:
            opened = open_scene(lesson, index, lang)
        except LessonError as e:  # said where the picture would be; the lesson goes on
            w.thumbnail.setText(str(e))
            return
        scale = scene.settings.colour_scale or self.view.scale  # as the projector will colour it
        w.thumbnail.setPixmap(next_picture(opened, w.thumbnail_size(), colormaps.get(self.view.colormap, scale),
                                           w.palette().window().color()))

    def toggle_notes(self) -> None:
        """N: with one screen, the notes over the scene for a moment (two screens: they are on the laptop)."""
        if self.screen_window is None:
            self.overlay.toggle(self.notes)

    def keys(self) -> list[tuple[str, str]]:
        """The presenter's keys, as the `?` overlay lists them while a lesson is given."""
        return [] if self.screen_window is not None else [("N", tr("the presenter's notes for a moment (N: hidden)"))]

    def _tick(self) -> None:
        if self.screen_window is not None:
            self.screen_window.clock.setText(clock_text(QTime.currentTime(), time.monotonic() - self.started))
