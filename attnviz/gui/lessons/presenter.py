"""The presenter's side of a lesson: the scene's notes, where the lesson is, the guided step, the next
scene, the countdown, a clock and the teacher's keys.

With a second screen, the projector is the screen the window went full screen on, and PresenterWindow
fills another one (the laptop's), all of it: along the top "3 / 19", the guided step ("Step 2 of 5: ÷√dₖ"),
the countdown while one runs and the time of day with the time since the lesson began; the caption; the
notes in large type on the left and the next scene on the right (its first words, its picture as large as
the column leaves, how it is shown); the tools' keys along the bottom. It never takes the keyboard's focus,
so the clicker's keys stay the lesson's. With one screen the notes are the presenter's alone: N shows
them over the scene (NotesOverlay) for NOTES_SECONDS, or until N again.

The next scene's thumbnail is its selected head drawn with HeatmapPainter from its own scenario
(open_scene, then compute): a few milliseconds and no second window laid out off screen, and honest about
what it is: the weights of the head and query the scene selects, with its settings applied. The view the
scene presents is named beside it, since a maths view's picture is no heatmap.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QRect, QRectF, QSize, Qt, QTime, QTimer
from PySide6.QtGui import QFont, QGuiApplication, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ...core.compute import compute, hidden
from ...core.lessons import LessonError, open_scene
from ..classroom.tools import FLASH_COLOUR, short_tool_keys
from ..classroom.views import BY_ID
from ..common.i18n import head_label, tr
from ..common.markup import rich
from ..heads.heatmap import HeatmapData, HeatmapPainter, staged
from ..look import colormaps
from ..look.fonts import LEAST_SHARE, figure_font, presented, readable_pixels, weighted
from ..steps.stages import NUMBERS, STAGES, stage
from .caption import lesson_text
from .class_screens import TallyBars

NOTES_SECONDS = 8     # how long N shows the notes over the scene
NOTES_SHARE = 1.4     # the notes' type, as a share of the least the back row reads: read at a glance ...
NOTES_MOST = 2.6      # ... and larger still, up to this, as far as short notes leave their room empty
TOP_SHARE = 1.3       # "3 / 19", the step and the clock along the top: found at a glance
TIMER_SHARE = 2.4     # the countdown's digits (58 px on 1080 lines): the time left read from the desk's far side
TICK_MS = 1000        # the clock's second hand
NEXT_SHARE = 0.38     # of the presenter window's width: the next scene's column
NOTES_ROOM = 0.42     # of the other column's height: the notes; under them the projector's picture
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


def step_text(scene, number: int | None) -> str:
    """Where the scene's guided steps are ("Step 2 of 5: ÷ √dₖ"); a scene without them, how it is shown."""
    if number is None:
        view = tr("one big head") if scene.view == "head" else tr(BY_ID[scene.view].label)
        return tr("No guided step: {0}").format(view)
    if number not in NUMBERS:  # the layer view's own (split, concat, W_o, + X): not one of a row's five
        return tr("The layer's step: {0}").format(tr(stage(number).title))
    return tr("Step {0} of {1}: {2}").format(number, len(STAGES), tr(stage(number).title))


def keys_text(rows) -> str:
    """The tools' keys on one wrapped line, each key in bold: P pen · L pointer · ..."""
    return " &nbsp;·&nbsp; ".join(f"<b>{rich(key)}</b>&nbsp;{rich(text)}" for key, text in rows)


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


class Thumbnail(QLabel):
    """A picture drawn again at the size the layout gives it (all its column leaves): the next scene's, or
    the projector's."""

    def __init__(self, name: str):
        super().__init__(objectName=name, alignment=Qt.AlignCenter, wordWrap=True)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)  # its picture never pushes the layout
        self.draw = None  # size -> QPixmap, or None: no picture

    def show_picture(self, draw) -> None:
        self.draw = draw
        self._redraw()

    def show_text(self, text: str) -> None:
        self.draw = None
        self.setText(text)

    def _redraw(self) -> None:
        if self.draw is not None and self.width() > 0 and self.height() > 0:
            self.setPixmap(self.draw(self.size()))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._redraw()


class PresenterWindow(QWidget):
    """Full screen on the laptop: where the lesson is along the top, the notes left, the next scene right,
    the keys along the bottom."""

    def __init__(self, parent: QWidget):
        super().__init__(parent, Qt.Window | Qt.WindowDoesNotAcceptFocus)
        self.setObjectName("presenterWindow")
        self.setAttribute(Qt.WA_ShowWithoutActivating)  # the clicker's keys stay with the projector's window
        self.setFocusPolicy(Qt.NoFocus)
        self.where = QLabel(objectName="presenterWhere")
        self.step = QLabel(objectName="presenterStep", textFormat=Qt.PlainText)
        self.timer = QLabel(objectName="presenterTimer", alignment=Qt.AlignCenter)
        self.timer.hide()
        self.clock = QLabel(objectName="presenterClock", alignment=Qt.AlignRight | Qt.AlignVCenter)
        self.caption = QLabel(objectName="presenterCaption", textFormat=Qt.RichText, wordWrap=True)
        self.notes = QLabel(objectName="presenterNotes", textFormat=Qt.RichText, wordWrap=True,
                            alignment=Qt.AlignLeft | Qt.AlignTop)
        self.next_where = QLabel(objectName="presenterNextWhere")
        self.next_title = QLabel(objectName="presenterNextTitle", textFormat=Qt.RichText, wordWrap=True)
        self.thumbnail = Thumbnail("presenterThumbnail")
        self.now_title = QLabel(objectName="presenterNowTitle")
        self.now = Thumbnail("presenterNow")  # the projector's window as the class sees it, pen and all
        self.next_view = QLabel(objectName="presenterNextView", wordWrap=True)
        self.tally = TallyBars(name="presenterTally")  # the class's answers as they come in (its screens open)
        self.keys = QLabel(objectName="presenterKeys", textFormat=Qt.RichText, wordWrap=True)
        top = QHBoxLayout()
        top.setSpacing(40)
        for widget, stretch in ((self.where, 0), (self.step, 1), (self.timer, 0), (self.clock, 0)):
            top.addWidget(widget, stretch)
        nexts = QVBoxLayout()
        for widget, stretch in ((self.next_where, 0), (self.next_title, 0), (self.thumbnail, 1), (self.next_view, 0),
                                (self.tally, 0)):
            nexts.addWidget(widget, stretch)
        layout = QGridLayout(self)
        layout.setContentsMargins(30, 20, 30, 20)
        layout.setHorizontalSpacing(40)
        layout.setVerticalSpacing(16)
        layout.addLayout(top, 0, 0, 1, 2)
        layout.addWidget(self.caption, 1, 0, 1, 2)
        self.notes_area = scroller(self.notes)
        nows = QVBoxLayout()
        for widget, stretch in ((self.notes_area, NOTES_ROOM), (self.now_title, 0), (self.now, 1 - NOTES_ROOM)):
            nows.addWidget(widget, round(100 * stretch))
        layout.addLayout(nows, 2, 0)
        layout.addLayout(nexts, 2, 1)
        layout.addWidget(self.keys, 3, 0, 1, 2)
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
        for label in (self.caption, self.next_title, self.thumbnail, self.next_view, self.keys, self.now):
            label.setFont(base)
        self.next_where.setFont(weighted(base, bold=True))
        self.now_title.setFont(weighted(base, bold=True))
        for label, share in ((self.where, TOP_SHARE), (self.step, TOP_SHARE), (self.clock, TOP_SHARE),
                             (self.timer, TIMER_SHARE)):
            font = weighted(base, bold=True)
            font.setPixelSize(round(base.pixelSize() * share))
            label.setFont(font)
        self.fit_notes()

    def fit_notes(self) -> None:
        """The notes as large as their room holds them whole, from NOTES_SHARE to NOTES_MOST × the least
        type (long notes at the least of these scroll)."""
        base = presented(QFont(QApplication.font()), self).pixelSize()
        room = self.notes_area.viewport().size()
        share = NOTES_MOST
        while True:
            font = QFont(QApplication.font())
            font.setPixelSize(round(base * share))
            self.notes.setFont(font)
            if share <= NOTES_SHARE or self.notes.heightForWidth(room.width()) <= room.height():
                return
            share = max(NOTES_SHARE, share - 0.2)

    def set_notes(self, text: str) -> None:
        self.notes.setText(text)
        self.fit_notes()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.layout().activate()  # the notes' room as laid out at this size, before their type is fitted
        self.fit_notes()

    def show_timer(self, text: str | None, flashing: bool = False) -> None:
        """The countdown beside the step while one runs (None: none), lit at zero as the projector's is."""
        self.timer.setVisible(text is not None)
        self.timer.setText(text or "")
        colour = "rgb({0}, {1}, {2})".format(*FLASH_COLOUR)
        self.timer.setStyleSheet(f"background: {colour}; color: black; padding: 0 12px;" if flashing else
                                 "padding: 0 12px;")


def titles_in(window: QWidget) -> list[QRect]:
    """Where the titles on screen are, in `window`'s coordinates: every shown widget that says where it
    paints titles (`title_rects`: the heads' view)."""
    out = []
    for widget in window.findChildren(QWidget):
        rects = getattr(widget, "title_rects", None)
        if callable(rects) and widget.isVisible():
            out += [QRect(widget.mapTo(window, r.topLeft()), r.size()) for r in rects()]
    return out


def card_place(window: QRect, titles: list[QRect], height_for, caption: QRect | None = None) -> QRect:
    """Where the notes' card goes: at the bottom, over the caption (the teacher knows it; all of it, none
    of its lines half seen), across the window, else on its right or left half, each as tall as
    `height_for(width)` (at most OVERLAY_HEIGHT of the window): the first that covers no title, else the
    one that covers least of them."""
    m, half = OVERLAY_MARGIN, (window.width() - 3 * OVERLAY_MARGIN) // 2
    edge = 0 if caption is not None else m  # over the caption: down to the window's edge, and across it
    spans = ((window.left() + edge, window.width() - 2 * edge), (window.right() + 1 - m - half, half),
             (window.left() + m, half))
    bottom = window.bottom() + 1 - edge
    cards = []
    for left, width in spans:
        height = max(height_for(width), bottom - caption.top() + m if caption is not None else 0)
        height = min(height, round(window.height() * OVERLAY_HEIGHT))
        cards.append(QRect(left, bottom - height, width, height))

    def covered(card: QRect) -> int:
        return sum(card.intersected(t).width() * card.intersected(t).height() for t in titles)
    return min(cards, key=lambda card: (covered(card) > 0, covered(card)))  # the first clear one


class NotesOverlay(QWidget):
    """The notes over the scene for a moment (one screen): N shows them, N again hides them. The card goes
    where it covers none of the scene's titles (card_place)."""

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
        window = self.parentWidget()
        margins = self.layout().contentsMargins()

        def height_for(width: int) -> int:
            return self.label.heightForWidth(width - margins.left() - margins.right()) + margins.top() + \
                margins.bottom() + 4
        caption = window.findChild(QWidget, "lessonCaption")  # the lesson's strip under the scene
        strip = QRect(caption.mapTo(window, caption.rect().topLeft()), caption.size()) \
            if caption is not None and caption.isVisible() else None
        self.setGeometry(card_place(window.rect(), titles_in(window), height_for, strip))

    def paintEvent(self, event):
        """A card with a border: the notes are told apart from the scene under them at a glance."""
        p = QPainter(self)
        p.fillRect(self.rect(), self.palette().window())
        p.setPen(QPen(self.palette().highlight().color(), OVERLAY_BORDER))
        p.drawRect(self.rect().adjusted(1, 1, -2, -2))


class Presenter:
    """The player's presenter: the presenter window on a second screen, else the notes on N."""

    def __init__(self, window: QWidget, view, document=None, tools=None):
        self.window, self.view = window, view  # the view state: the colour map the thumbnail is drawn in
        self.document, self.tools = document, tools  # the guided step; classroom/tools.py's countdown and keys
        self.screen_window: PresenterWindow | None = None  # while a lesson is given on two screens
        self.overlay = NotesOverlay(window)
        self.notes = ""
        self.scene = None  # the scene on the projector
        self.started = 0.0
        self.clock = QTimer(window, interval=TICK_MS, timeout=self._tick)
        if document is not None:
            document.selectionChanged.connect(self._show_step)
        if tools is not None:
            tools.countdown.changed.connect(self._show_timer)

    def start(self, screen=None) -> None:
        """The lesson begins: the presenter window on `screen`, else another screen than the projector's
        if there is one."""
        self.started = time.monotonic()
        screen = screen or presenter_screen(self.window)
        if screen is None:
            return
        self.screen_window = PresenterWindow(self.window)
        self.screen_window.place(screen)
        self.clock.start()
        self._tick()
        self._show_timer()

    def stop(self) -> None:
        self.clock.stop()
        self.overlay.hide()
        self.scene = None
        if self.screen_window is not None:
            self.screen_window.close()
            self.screen_window.deleteLater()
            self.screen_window = None

    def show_scene(self, lesson, index: int, lang: str) -> None:
        """Scene `index` is on the projector: its notes, and on the presenter window its step, the next
        scene and the keys."""
        scene = self.scene = lesson.scenes[index]
        self.notes = notes_text(scene, lang)
        if self.overlay.isVisible():
            self.overlay.show_text(self.notes)
        w = self.screen_window
        if w is None:
            return
        w.where.setText(f"{index + 1} / {len(lesson.scenes)}")
        w.caption.setText(lesson_text(scene.caption[lang], readable_pixels(w, LEAST_SHARE)))
        w.set_notes(self.notes)
        w.keys.setText(keys_text(short_tool_keys(lesson=True)))
        w.now_title.setText(tr("On the projector"))
        self._show_clock()  # in the scene's language now, laid out with the rest, not at the next tick
        self._show_step()
        self._show_next(lesson, index + 1, lang)

    def _show_step(self) -> None:
        if self.screen_window is not None and self.scene is not None:
            stage_now = self.document.stage if self.document is not None else self.scene.step
            self.screen_window.step.setText(step_text(self.scene, stage_now))

    def _show_timer(self) -> None:
        countdown = self.tools.countdown if self.tools is not None else None
        if self.screen_window is not None and countdown is not None:
            self.screen_window.show_timer(tr("Timer {0}").format(countdown.text()) if countdown.shown else None,
                                          countdown.flashing())

    def _show_next(self, lesson, index: int, lang: str) -> None:
        w = self.screen_window
        if index >= len(lesson.scenes):
            w.next_where.setText(tr("The last scene: nothing follows."))
            w.next_title.clear()
            w.thumbnail.show_text("")
            w.next_view.clear()
            return
        scene = lesson.scenes[index]
        w.next_where.setText(tr("Next: {0} / {1}").format(index + 1, len(lesson.scenes)))
        caption = scene.caption[lang]
        w.next_title.setText(lesson_text(caption if len(caption) <= NEXT_WORDS else caption[:NEXT_WORDS] + "…",
                                         readable_pixels(w, LEAST_SHARE)))
        w.next_view.setText(view_label(scene))
        try:
            opened = open_scene(lesson, index, lang)
        except LessonError as e:  # said where the picture would be; the lesson goes on
            w.thumbnail.show_text(str(e))
            return
        colours = colormaps.get(self.view.colormap, scene.settings.colour_scale or self.view.scale)  # as projected
        background = w.palette().window().color()
        w.thumbnail.show_picture(lambda size: next_picture(opened, size, colours, background))

    def show_tally(self, bars) -> None:
        """The class's answers (class_screens.py's bars, None: its screens closed) on the presenter's screen."""
        w = self.screen_window
        if w is None:
            return
        w.tally.set_tally(bars.poll if bars else None, bars.counts if bars else [], bars.joined if bars else 0)
        w.tally.setVisible(bars is not None)
        w.tally.setFixedHeight(w.tally.wanted_height())

    def toggle_notes(self) -> None:
        """N: with one screen, the notes over the scene for a moment (two screens: they are on the laptop)."""
        if self.screen_window is None:
            self.overlay.toggle(self.notes)

    def keys(self) -> list[tuple[str, str]]:
        """The presenter's keys, as the `?` overlay lists them while a lesson is given."""
        return [] if self.screen_window is not None else [("N", tr("the presenter's notes for a moment (N: hidden)"))]

    def _tick(self) -> None:
        """Each second the clock, and the projector's picture (a step, a guess, the pen: within a second)."""
        if self.screen_window is not None:
            self._show_clock()
            self.mirror()

    def _show_clock(self) -> None:
        if self.screen_window is not None:
            self.screen_window.clock.setText(clock_text(QTime.currentTime(), time.monotonic() - self.started))

    def mirror(self) -> None:
        """The projector's window as the class sees it, scaled into the presenter's view."""
        picture = self.window.grab()
        self.screen_window.now.show_picture(lambda size: picture.scaled(size, Qt.KeepAspectRatio,
                                                                        Qt.SmoothTransformation))
