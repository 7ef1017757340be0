"""The teacher's own tools while presenting, each on one key: a pen (P; I its next colour, E erases),
a laser pointer (L), a zoom under the pointer (Z; + / − or the wheel 2× to 4×) and a countdown timer
(T: 30 s, 1 min, 2 min, 5 min, none; in a lesson a number then T, that many seconds).

Each is a sheet over the whole window (a child widget raised above the scene, following its size),
so it works over every presented view and changes nothing in the document: the pen's strokes live
on their sheet only, and neither an export (a Figure drawn from the scenario) nor a screenshot (a
window of its own) ever has them, unless the teacher asks: K keeps the screen with its drawing as a
PNG in the pictures folder. The blank screen (B) is the lesson's (lessons/overlays.py).
"""
from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, QRectF, QSize, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QCursor,
    QFont,
    QFontMetrics,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QRadialGradient,
)
from PySide6.QtWidgets import QApplication, QToolTip, QWidget

from ...core.files import FileProblem, atomic_write, os_problem
from ..common.actions import make_action
from ..common.i18n import describe, tr
from ..export.files import png_bytes
from ..look.fonts import readable_pixels, weighted
from .notice import Notice

# Every size is a share of the screen's height, so a stroke or the dot looks the same on any projector.
PEN_COLOURS = ((220, 30, 30), (30, 90, 230), (20, 150, 60), (0, 0, 0))  # red, blue, green, black
PEN_WIDTH = 6 / 1080
POINTER_CORE = 11 / 1080   # the dot's radius ...
POINTER_HALO = 36 / 1080   # ... and its soft halo's: a dot found at a glance from the back
POINTER_COLOUR = (255, 25, 25)
ZOOM_FACTORS = (2.0, 2.5, 3.0, 3.5, 4.0)
ZOOM_RENDER = 2            # the window drawn at twice its pixels for the zoom: text stays sharp, 2× exactly
ZOOM_SETTLE_MS = 80        # after a change, the window's views redraw (next turn, pyqtgraph) before a new picture
TIMER_PRESETS = (30, 60, 120, 300)  # seconds: T goes round them, then no timer
TIMER_MOST = 99 * 60 + 59  # a typed number of seconds beyond this is this
TIMER_TYPE = 84 / 1080     # the timer's digits (about 60 px of ink at 1080 lines: read across a classroom)
TIMER_TICK_MS = 200        # the display checks the clock this often: the seconds turn on time
FLASH_SECONDS = 4          # at zero the card flashes this long, then stays at 0:00
FLASH_PERIOD = 0.4         # s: one flash on, one off
FLASH_COLOUR = (255, 170, 60)
CARD_MARGIN = 16           # px between the timer's card and the window's corner
CORNER_PREFERENCE = 0.03  # of the card's area: the top right kept unless another corner hides less by more
CARD_PADDING = 14          # px around the timer's digits inside its card: it covers as little of the scene as it can
KEPT_NAME = "attnviz-%Y-%m-%d-%H%M%S"  # a kept screen's file name: in the order they were kept, none overwritten


def screen_pixels(widget: QWidget, share: float) -> int:
    screen = widget.screen() or QApplication.primaryScreen()
    return max(1, round(screen.geometry().height() * share))


class Sheet(QWidget):
    """A transparent sheet over the whole window, following its size; mouse clicks pass through
    unless it takes them (the pen drawing, the zoom panning)."""

    def __init__(self, parent: QWidget, name: str):
        super().__init__(parent)
        self.setObjectName(name)
        self.setFocusPolicy(Qt.NoFocus)  # the clicker's keys stay the window's
        self.take_mouse(False)
        parent.installEventFilter(self)
        self.hide()

    def take_mouse(self, on: bool) -> None:
        self.setAttribute(Qt.WA_TransparentForMouseEvents, not on)
        self.setMouseTracking(on)

    def eventFilter(self, watched, event):
        if watched is self.parentWidget() and event.type() == QEvent.Resize:
            self.setGeometry(watched.rect())
        return False

    def lift(self) -> None:
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()


class PenSheet(Sheet):
    """Strokes drawn with the mouse (a tablet's pen arrives as the mouse too). While the pen is on the
    sheet takes every click, so a click draws and never edits a number or makes a guess."""

    def __init__(self, parent: QWidget):
        super().__init__(parent, "penSheet")
        self.strokes: list[tuple[QColor, QPainterPath]] = []
        self.colour = QColor(*PEN_COLOURS[0])
        self.drawing = False

    def set_drawing(self, on: bool) -> None:
        self.drawing = on
        self.take_mouse(on)
        self.setCursor(pen_cursor(self.colour)) if on else self.unsetCursor()
        if on or self.strokes:
            self.lift()
        else:
            self.hide()

    def set_colour(self, colour: QColor) -> None:
        self.colour = QColor(colour)
        if self.drawing:
            self.setCursor(pen_cursor(self.colour))

    def clear(self) -> None:
        self.strokes.clear()
        if not self.drawing:
            self.hide()
        self.update()

    def width_px(self) -> int:
        return screen_pixels(self, PEN_WIDTH)

    def mousePressEvent(self, event):
        if event.button() != Qt.LeftButton:
            return
        path = QPainterPath(event.position())
        path.lineTo(event.position() + QPointF(0.01, 0))  # a click alone leaves a dot
        self.strokes.append((QColor(self.colour), path))
        self.update()

    def mouseMoveEvent(self, event):
        if event.buttons() & Qt.LeftButton and self.strokes:
            path = self.strokes[-1][1]
            before = path.currentPosition()
            path.lineTo(event.position())
            margin = self.width_px()
            self.update(QRectF(before, event.position()).normalized().toAlignedRect().adjusted(
                -margin, -margin, margin, margin))

    def paintEvent(self, event):
        if not self.strokes:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        for colour, path in self.strokes:
            p.setPen(QPen(colour, self.width_px(), Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
            p.drawPath(path)


def pen_cursor(colour: QColor) -> QCursor:
    """The pen's cursor: a dot of its colour ringed in white, so the colour is seen before drawing."""
    pixmap = QPixmap(24, 24)
    pixmap.fill(Qt.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor(255, 255, 255), 2))
    p.setBrush(colour)
    p.drawEllipse(QRectF(3, 3, 18, 18))
    p.end()
    return QCursor(pixmap, 12, 12)


class PointerSheet(Sheet):
    """The laser pointer: a bright red dot with a soft halo where the mouse is; the cursor hidden."""

    def __init__(self, parent: QWidget):
        super().__init__(parent, "pointerSheet")
        self.at: QPoint | None = None

    def move_to(self, point: QPoint) -> None:
        before, self.at = self.at, QPoint(point)
        for where in (before, self.at):
            if where is not None:
                self.update(self._spot(where))

    def _spot(self, at: QPoint) -> QRect:
        r = screen_pixels(self, POINTER_HALO) + 2
        return QRect(at.x() - r, at.y() - r, 2 * r + 1, 2 * r + 1)

    def paintEvent(self, event):
        if self.at is None:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        halo, core = screen_pixels(self, POINTER_HALO), screen_pixels(self, POINTER_CORE)
        centre = QPointF(self.at)
        glow = QRadialGradient(centre, halo)
        for stop, alpha in ((0.0, 220), (core / halo, 170), (0.6, 70), (1.0, 0)):
            glow.setColorAt(stop, QColor(*POINTER_COLOUR, alpha))
        p.setPen(Qt.NoPen)
        p.setBrush(QBrush(glow))
        p.drawEllipse(centre, halo, halo)
        p.setBrush(QColor(*POINTER_COLOUR))
        p.setPen(QPen(QColor(255, 255, 255, 220), max(1, core // 5)))  # a light rim: seen on red cells too
        p.drawEllipse(centre, core, core)


class ZoomSheet(Sheet):
    """The window magnified around the pointer: the point under the pointer stays under it, so moving
    the mouse to an edge brings that edge into view. The picture is the window drawn at ZOOM_RENDER
    times its pixels (sharp text), taken again whenever the scene changes under it."""

    def __init__(self, parent: QWidget):
        super().__init__(parent, "zoomSheet")
        self.factor = ZOOM_FACTORS[0]
        self.picture: QPixmap | None = None
        self.at = QPoint()

    def source(self) -> QRectF:
        """The part of the window shown, in the window's pixels."""
        w, h, f = self.width(), self.height(), self.factor
        x, y = self.at.x(), self.at.y()
        return QRectF(x - x / f, y - y / f, w / f, h / f)

    def mouseMoveEvent(self, event):
        self.at = event.position().toPoint()
        self.update()

    def wheelEvent(self, event):
        self.step(1 if event.angleDelta().y() > 0 else -1)

    def step(self, direction: int) -> None:
        i = ZOOM_FACTORS.index(self.factor) + direction
        self.factor = ZOOM_FACTORS[min(max(i, 0), len(ZOOM_FACTORS) - 1)]
        self.update()

    def paintEvent(self, event):
        if self.picture is None:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.SmoothPixmapTransform)
        s, ratio = self.source(), self.picture.devicePixelRatio()
        p.drawPixmap(QRectF(self.rect()), self.picture, QRectF(s.x() * ratio, s.y() * ratio,
                                                               s.width() * ratio, s.height() * ratio))
        self._badge(p)

    def _badge(self, p: QPainter) -> None:
        """'2× · Esc' in a corner: the teacher sees the zoom is on and how to leave it."""
        font = weighted(QFont(self.font()), bold=True)
        font.setPixelSize(readable_pixels(self))
        text = tr("Zoom {0}× · Esc: back").format(f"{self.factor:g}")
        box = QFontMetrics(font).boundingRect(text).adjusted(-12, -6, 12, 6)
        box.moveTopLeft(QPoint(CARD_MARGIN, CARD_MARGIN))
        p.fillRect(box, QColor(0, 0, 0, 170))
        p.setFont(font)
        p.setPen(QColor(255, 255, 255))
        p.drawText(box, Qt.AlignCenter, text)


class Countdown(QObject):
    """A countdown in whole seconds read from a clock (time.monotonic; a test gives its own), so it
    keeps time whatever the event loop does; `changed` at each tick while it runs or flashes."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None, clock=time.monotonic):
        super().__init__(parent)
        self.clock = clock
        self.seconds = 0          # the length it was set to; 0: no timer
        self.ends = 0.0           # the clock's time at zero
        self.rang = False         # zero reached (the flash and the beep once)
        self.timer = QTimer(self, interval=TIMER_TICK_MS, timeout=self.tick)

    @property
    def shown(self) -> bool:
        return self.seconds > 0

    def start(self, seconds: int) -> None:
        self.seconds = min(max(int(seconds), 0), TIMER_MOST)
        self.ends = self.clock() + self.seconds
        self.rang = False
        self.timer.start() if self.shown else self.timer.stop()
        self.changed.emit()

    def stop(self) -> None:
        self.start(0)

    def cycle(self) -> None:
        """T: 30 s → 1 min → 2 min → 5 min → none, each from its start; a timer at zero goes."""
        if not self.shown:
            return self.start(TIMER_PRESETS[0])
        later = [s for s in TIMER_PRESETS if s > self.seconds]
        self.start(later[0] if later and not self.rang else 0)

    def remaining(self) -> int:
        """Whole seconds left, rounded up: 0:30 for the first second, 0:00 only at zero."""
        if not self.shown:
            return 0
        return max(0, math.ceil(self.ends - self.clock()))

    def text(self) -> str:
        minutes, seconds = divmod(self.remaining(), 60)
        return f"{minutes}:{seconds:02}"

    def flashing(self) -> bool:
        """At zero, on and off for FLASH_SECONDS: a signal seen without a sound."""
        over = self.clock() - self.ends
        return self.shown and 0 <= over < FLASH_SECONDS and int(over / FLASH_PERIOD) % 2 == 0

    def tick(self) -> None:
        if self.shown and self.remaining() == 0 and not self.rang:
            self.rang = True
            QApplication.beep()  # a soft sound where the system has one; nothing where it has not
        if self.rang and self.clock() - self.ends >= FLASH_SECONDS:
            self.timer.stop()  # 0:00 stays on screen until T
        self.changed.emit()


def written(image, paper: QColor) -> float:
    """The share of the image's pixels that are not the paper: text, lines, cells."""
    image = image.convertToFormat(QImage.Format_RGB32)
    if image.isNull():
        return 0.0
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    rgb = pixels[:, :image.width() * 4].reshape(image.height(), image.width(), 4)[..., 2::-1].astype(int)
    return float((np.abs(rgb - np.array(paper.getRgb()[:3])).sum(axis=-1) > 60).mean())


class TimerCard(QWidget):
    """The countdown in a corner of the projected window, in digits read across the room."""

    def __init__(self, parent: QWidget, countdown: Countdown):
        super().__init__(parent)
        self.setObjectName("timerCard")
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.countdown = countdown
        countdown.changed.connect(self.refresh)
        parent.installEventFilter(self)
        self.hide()

    def type_font(self) -> QFont:
        font = weighted(QFont(QApplication.font()), bold=True)
        font.setPixelSize(screen_pixels(self, TIMER_TYPE))
        return font

    def refresh(self) -> None:
        if not self.countdown.shown:
            self.hide()
            return
        if not self.isVisible():  # raised once: a list opened over it later (?, S) stays over it
            self.place()
            self.show()
            self.raise_()
        self.update()

    def corners(self) -> list[QRect]:
        """Where the card may go: the top right first (a colour bar's top, a table's header: the least read),
        else the top left; never the bottom, where a lesson's caption is."""
        ink = QFontMetrics(self.type_font()).tightBoundingRect("00:00")  # the digits, not the font's line
        size = QSize(ink.width() + 2 * CARD_PADDING, ink.height() + 2 * CARD_PADDING)
        window = self.parentWidget().rect().adjusted(CARD_MARGIN, CARD_MARGIN, -CARD_MARGIN, -CARD_MARGIN)
        right, left = QRect(QPoint(), size), QRect(QPoint(), size)
        right.moveTopRight(window.topRight())
        left.moveTopLeft(window.topLeft())
        return [right, left]

    def place(self) -> None:
        """The top corner whose scene underneath the card would hide least (the right one unless the left hides
        clearly less): a label of the scene is not covered where a blank corner is free."""
        shown = self.isVisible()
        self.setVisible(False)  # the scene as it is without the card
        window = self.parentWidget()
        covered = [written(window.grab(rect).toImage(), window.palette().window().color()) for rect in self.corners()]
        self.setVisible(shown)
        best = min(range(len(covered)), key=lambda i: covered[i] - (CORNER_PREFERENCE if i == 0 else 0))
        self.setGeometry(self.corners()[best])

    def eventFilter(self, watched, event):
        if watched is self.parentWidget() and event.type() == QEvent.Resize and self.isVisible():
            self.place()
        return False

    def paintEvent(self, event):
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        flash = self.countdown.flashing()
        card = QColor(*FLASH_COLOUR) if flash else QColor(self.palette().window().color())
        p.setPen(QPen(self.palette().highlight().color(), 3))
        p.setBrush(card)
        p.drawRoundedRect(QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5), 12, 12)
        p.setFont(self.type_font())
        p.setPen(QColor(0, 0, 0) if flash else self.palette().windowText().color())
        text = self.countdown.text()
        ink = QFontMetrics(self.type_font()).tightBoundingRect(text)  # centred by its ink, as the card is sized
        x, y = (self.width() - ink.width()) / 2 - ink.left(), (self.height() - ink.height()) / 2 - ink.top()
        p.drawText(QPointF(x, y), text)


class NoTooltips(QObject):
    """Eats every tooltip event (the application's filter while the pointer or the pen is on)."""

    def eventFilter(self, watched, event):
        return event.type() == QEvent.ToolTip


class Tools(QObject):
    """The tools' keys (enabled while presenting), their sheets over `window`, and what turns them off:
    a new scene clears the drawing and ends the zoom, Esc ends the zoom and then the pen and pointer,
    leaving the presentation ends them all."""

    def __init__(self, window: QWidget, document=None):
        super().__init__(window)
        self.window = window
        self.pen = PenSheet(window)
        self.zoom = ZoomSheet(window)
        self.pointer = PointerSheet(window)
        self.countdown = Countdown(self)
        self.timer_card = TimerCard(window, self.countdown)
        self.colour_index = 0
        self.mouse: QPoint | None = None  # where the mouse last moved, in the window (global: QCursor)
        self._hidden_cursor = False
        self._no_tooltips = NoTooltips(self)
        self._regrab = QTimer(self, singleShot=True, interval=ZOOM_SETTLE_MS, timeout=self._take_picture)
        # The timer's corner chosen again once a new scene is drawn.
        self._replace = QTimer(self, singleShot=True, interval=ZOOM_SETTLE_MS,
                               timeout=lambda: self.timer_card.isVisible() and self.timer_card.place())
        self.typed_seconds = lambda: None  # a lesson's typed number, taken by T (the player sets it)
        self.notice = Notice(window)
        self.kept_folder = kept_folder  # where K puts the screen (a test gives its own)
        self.actions = {name: make_action(window, slot, keys) for name, slot, keys in (
            ("pen", self.toggle_pen, ["P"]),
            ("colour", self.next_colour, ["I"]),
            ("erase", self.erase, ["E"]),
            ("pointer", self.toggle_pointer, ["L"]),
            ("zoom", self.toggle_zoom, ["Z"]),
            ("timer", self.timer_key, ["T"]),
            ("keep", self.keep, ["K"]),
        )}
        # Only while zoomed: otherwise + and − are nobody's, and Ctrl++ / Ctrl+− stay the text's size.
        self.zoom_actions = (make_action(window, lambda: self.zoom.step(+1), ["+", "=", "Num++"]),
                             make_action(window, lambda: self.zoom.step(-1), ["-", "Num+-"]))
        if document is not None:  # the zoom's picture follows what the window shows
            for signal in (document.changed, document.selectionChanged, document.replaced):
                signal.connect(self.picture_changed)
        self.set_enabled(False)

    def set_enabled(self, on: bool) -> None:
        """Presenting only: on the desk these letters are typed into tables."""
        for action in self.actions.values():
            action.setEnabled(on)
        # Where the mouse is, for the dot and the zoom: seen by the window's own system window, which every
        # mouse move over it reaches first (the application's filter would see every event of every kind).
        handle = self.window.windowHandle()
        if handle is not None:
            handle.installEventFilter(self) if on else handle.removeEventFilter(self)
        if not on:
            self.stop()
        self._zoom_keys()

    # ------------------------------------------------------------- the pen

    def toggle_pen(self) -> None:
        self.pen.set_drawing(not self.pen.drawing)
        self._stack()
        self._quiet_tooltips()

    def next_colour(self) -> None:
        """I: the pen's next colour (red, blue, green, black), the pen on."""
        self.colour_index = (self.colour_index + 1) % len(PEN_COLOURS)
        self.pen.set_colour(QColor(*PEN_COLOURS[self.colour_index]))
        if not self.pen.drawing:
            self.toggle_pen()

    def erase(self) -> None:
        self.pen.clear()

    # ------------------------------------------------------------- the pointer

    def toggle_pointer(self) -> None:
        on = not self.pointer.isVisible()
        if on:
            self.pointer.at = self._mouse()
            self.pointer.lift()
            self._stack()
        else:
            self.pointer.hide()
        self._hide_cursor(on)
        self._quiet_tooltips()

    def _quiet_tooltips(self) -> None:
        """While the teacher points or draws, no tooltip comes up under the mouse on the projector."""
        quiet = self.pointer.isVisible() or self.pen.drawing
        app = QApplication.instance()
        app.installEventFilter(self._no_tooltips) if quiet else app.removeEventFilter(self._no_tooltips)
        if quiet:
            QToolTip.hideText()

    def _hide_cursor(self, on: bool) -> None:
        if on and not self._hidden_cursor:
            QApplication.setOverrideCursor(Qt.BlankCursor)
        elif not on and self._hidden_cursor:
            QApplication.restoreOverrideCursor()
        self._hidden_cursor = on

    def eventFilter(self, watched, event):
        """Every mouse move in the window is seen (and moves the dot while it is on); clicks go on through."""
        if event.type() in (QEvent.MouseMove, QEvent.TabletMove):
            self.mouse = self.window.mapFromGlobal(event.globalPosition().toPoint())
            if self.pointer.isVisible():
                self.pointer.move_to(self.mouse)
        return False

    def _mouse(self) -> QPoint:
        """Where the mouse is in the window: as last seen moving, else as the system says."""
        return QPoint(self.mouse) if self.mouse is not None else self.window.mapFromGlobal(QCursor.pos())

    # ------------------------------------------------------------- the zoom

    def toggle_zoom(self) -> None:
        if self.zoom.isVisible():
            return self.end_zoom()
        self.zoom.factor = ZOOM_FACTORS[0]
        self.zoom.at = self._mouse()
        if not self.window.rect().contains(self.zoom.at):
            self.zoom.at = self.window.rect().center()
        self._take_picture()
        self.zoom.take_mouse(True)
        self.zoom.lift()
        self._stack()
        self._zoom_keys()

    def end_zoom(self) -> None:
        self._regrab.stop()
        self.zoom.hide()
        self.zoom.picture = None
        self._zoom_keys()

    def _zoom_keys(self) -> None:
        for action in self.zoom_actions:
            action.setEnabled(self.zoom.isVisible())

    def picture_changed(self) -> None:
        """What the window shows changed (a step, a query, a lesson's answer revealed): the zoom takes it again."""
        if self.zoom.isVisible():
            self._regrab.start()

    def _take_picture(self) -> None:
        """The window as it is under the sheets, drawn at ZOOM_RENDER × its pixels; the pen's strokes
        included (they are what the teacher points at), the zoom, the dot and the timer not (they are
        drawn on top, once)."""
        self.zoom.picture = self._scene(ZOOM_RENDER)
        self.zoom.update()

    def _scene(self, scale: int) -> QPixmap:
        """The window and the pen's strokes at `scale` × its pixels, without what is drawn over them once
        (the zoom, the dot, the timer, a notice)."""
        above = [w for w in (self.zoom, self.pointer, self.timer_card, self.notice) if w.isVisible()]
        for widget in above:
            widget.setVisible(False)
        picture = QPixmap(self.window.size() * scale)
        picture.setDevicePixelRatio(scale)
        picture.fill(self.window.palette().window().color())
        self.window.render(picture)
        for widget in above:
            widget.setVisible(True)
        return picture

    # ------------------------------------------------------------- keeping the drawing

    def keep(self) -> None:
        """K: the scene as the class sees it, the drawing included, saved as a PNG file (a new name each
        time); the notice says where, or why it could not be."""
        folder = Path(self.kept_folder())
        path = folder / (time.strftime(KEPT_NAME) + ".png")
        for n in range(2, 100):
            if not path.exists():
                break
            path = folder / (time.strftime(KEPT_NAME) + f"-{n}.png")
        try:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise os_problem(folder, e) from None
            atomic_write(path, png_bytes(self._scene(1).toImage()))
        except FileProblem as e:
            return self.notice.say(tr("Not kept: {0}").format(describe(e)))
        self.notice.say(tr("Kept, with the drawing: {0}").format(path))

    # ------------------------------------------------------------- the timer

    def timer_key(self) -> None:
        """T: a typed number (a lesson's digits) is that many seconds; otherwise the next preset."""
        seconds = self.typed_seconds()
        self.countdown.start(seconds) if seconds is not None else self.countdown.cycle()

    # ------------------------------------------------------------- all of them

    def _stack(self) -> None:
        """Drawn in this order, top last: the strokes, the zoom (which shows them magnified), the dot,
        the timer."""
        for sheet in (self.pen, self.zoom, self.pointer, self.timer_card):
            if sheet.isVisible():
                sheet.raise_()

    def scene_changed(self) -> None:
        """Another scene (or view): the strokes were about the one before; the zoom ends; the timer goes on, in
        the corner where it hides least of the new scene."""
        self.pen.clear()
        self.end_zoom()
        self._stack()
        if self.timer_card.isVisible():
            self._replace.start()

    def escape(self) -> bool:
        """Esc: the zoom ends, else the pen is put down, else the pointer goes; True if it did one."""
        if self.zoom.isVisible():
            self.end_zoom()
        elif self.pen.drawing:
            self.toggle_pen()
        elif self.pointer.isVisible():
            self.toggle_pointer()
        else:
            return False
        return True

    def stop(self) -> None:
        """Leaving the presentation: every tool off, the drawing gone, no timer."""
        self.end_zoom()
        if self.pointer.isVisible():
            self.toggle_pointer()
        self.pen.set_drawing(False)
        self._quiet_tooltips()
        self.pen.clear()
        self.countdown.stop()


def kept_folder() -> Path:
    """The pictures folder's AttnViz folder (the home folder's when the system names no pictures folder)."""
    pictures = QStandardPaths.writableLocation(QStandardPaths.PicturesLocation) or str(Path.home())
    return Path(pictures) / "AttnViz"


def tool_keys(lesson: bool = False) -> list[tuple[str, str]]:
    """The tools' keys as the `?` list shows them (in a lesson, a typed number is the timer's seconds)."""
    typed = [(tr("a number, then T"), tr("a timer of that many seconds"))] if lesson else []
    return [
        ("P", tr("the pen on / off: draw with the mouse")),
        ("I", tr("pen colour: red → blue → green → black")),
        ("E", tr("erase the drawing")),
        ("K", tr("keep the screen, drawing and all (Pictures/AttnViz)")),
        ("L", tr("the laser pointer on / off")),
        ("Z", tr("zoom in at the mouse (Esc: back)")),
        (tr("+ / − / wheel"), tr("zoomed: 2× to 4×")),
        ("T", tr("timer: 30 s, 1 min, 2 min, 5 min, off")),
        *typed,
    ]


def short_tool_keys(lesson: bool = False) -> list[tuple[str, str]]:
    """The same in a word each, for the presenter's view (with a lesson's blank screen, B, beside them)."""
    lesson_only = [(tr("90 T"), tr("a 90 s timer")), ("B", tr("black screen"))] if lesson else []
    return [("P", tr("pen")), ("I", tr("pen colour")), ("E", tr("erase")), ("L", tr("pointer")),
            ("Z", tr("zoom (+ / −, Esc)")), ("T", tr("timer")), ("K", tr("keep")), *lesson_only]
