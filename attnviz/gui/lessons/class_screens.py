"""The class's screens while a lesson is given: J opens them (the room's server on the network the teacher
chooses, never every network unasked) and shows how to join, large: the address, the room code and a QR
code; J again hides that card. Every scene the projector shows reaches the students' page (its picture as
the window draws it, its caption in the page's language); a question's choices are the tokens its scene
lets the class click (the keys it may weigh, or the next tokens the bars list), one answer per device.

The counts come in on the presenter's screen (the number of devices too), and on the projector when the
teacher presses Q, and at the reveal beside the right answer. Ending the lesson, or the menu's entry, closes
the room; the answers are kept only for the CSV the teacher may save (Lessons → Save the class's answers).
"""
from __future__ import annotations

import hashlib
import ipaddress
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QBuffer, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QWidget

from ...class_screens.room import PORT, Poll, Room, Shown
from ...core.compute import compute, hidden
from ...core.files import atomic_write
from ...core.messages import AttnVizError
from ..common.i18n import current_language, tr
from ..look.fonts import presented, readable_pixels, weighted
from ..model.next_token import TOP, rows_with_ids

if TYPE_CHECKING:
    from ...class_screens.server import Server

PICTURE_WIDTH = 1280     # px at most: the scene's picture on a phone or a Chromebook, its text read when zoomed
PICTURE_MS = 1000        # the projector's picture looked at this often (a step, a guess, the pen)
SETTLE_MS = 200          # ... and this long after a scene or a reveal, once drawn
LOOPBACK = "127.0.0.1"
BAR_COLOUR = (255, 143, 0)   # a choice's count (the page's bars are the same)
RIGHT_COLOUR = (46, 125, 50)  # the right answer's, once revealed


def addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses on the networks it is on (IPv4, or IPv6 but not link-local, whose URL no
    browser opens; up, not the loopback): a room's network."""
    from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface  # only once the teacher opens the screens
    protocol = QAbstractSocket.NetworkLayerProtocol.IPv6Protocol if ipv6 else \
        QAbstractSocket.NetworkLayerProtocol.IPv4Protocol
    found = []
    for interface in QNetworkInterface.allInterfaces():
        flags = interface.flags()
        if not flags & QNetworkInterface.IsUp or not flags & QNetworkInterface.IsRunning or \
                flags & QNetworkInterface.IsLoopBack:
            continue
        for entry in interface.addressEntries():
            ip = entry.ip()
            if ip.protocol() == protocol and not ip.isLinkLocal():
                found.append(ip.toString())
    return sorted(found, key=lambda a: (not ipaddress.ip_address(a).is_private, a))


def _still_here(host: str) -> bool:
    """Whether the machine still has address `host` (IPv4 or IPv6, however written): every network's (`--bind
    0.0.0.0` or ::) and the loopback's (127.0.0.1, ::1) always."""
    ip = ipaddress.ip_address(host)
    always = {ipaddress.ip_address(LOOPBACK), ipaddress.ip_address("::1")}
    return ip.is_unspecified or ip in always or ip in {ipaddress.ip_address(a) for a in addresses(ip.version == 6)}


def reachable(host: str) -> str:
    """The address a device opens for a room served on `host`: `host` itself, or, for every network's
    (0.0.0.0, ::), this machine's first address on one (the loopback's where it is on none)."""
    if not ipaddress.ip_address(host).is_unspecified:
        return host
    ipv6 = ":" in host
    return next(iter(addresses(ipv6)), "::1" if ipv6 else LOOPBACK)


def choices_of(opened, parts) -> tuple[tuple[int, str], ...]:
    """What a student may answer to the scene's question: the keys the query can weigh (a token, numbered
    when it is written twice), or the next tokens the bars list (in the order of their text)."""
    answer = opened.answer
    if answer.hide == "next-token":
        run = opened.run
        likeliest = rows_with_ids(run.model, run.baseline, run.run)[:TOP]
        order = sorted(range(len(likeliest)), key=lambda r: (likeliest[r][1].lstrip("·").casefold(), r))  # the bars'
        return tuple((likeliest[r][0], likeliest[r][1]) for r in order)
    tokens = opened.scenario.tokens
    masked = hidden(compute(opened.scenario).heads[opened.head])[opened.query]  # keys the mask hides: no choice
    keys = [k for k in range(len(tokens)) if not masked[k]]
    return tuple((k, tokens[k] if tokens.count(tokens[k]) == 1 else f"{tokens[k]} ({k})") for k in keys)


def asked_of(opened) -> str:
    """What a scene's question asks of, in no language: its head, its query, its right answer and the weights
    the class predicts (rounded: the same scene drawn again gives the same), or the next token's id. A scene
    the lesson editor moved under another number asks something else; the window in another language does not."""
    answer = opened.answer
    if answer.hide == "next-token":  # the probabilities the bars list: another text, or a head off, moves them
        run = opened.run
        rows = rows_with_ids(run.model, run.baseline, run.run)[:TOP]
        return f"next {answer.next_token} probabilities {_digest([(i, p) for i, _, p, _ in rows])}"
    return f"head {opened.head} query {opened.query} right {answer.top_key} weights {_digest(answer.weights)}"


def _digest(values) -> str:
    """Numbers, rounded (the same scene worked out again gives the same), as a short hash."""
    return hashlib.sha256(np.round(np.asarray(values, np.float64), 6).tobytes()).hexdigest()[:16]


def right_choice(answer) -> int:
    return answer.next_token if answer.hide == "next-token" else answer.top_key


class Heard(QObject):
    """The room's changes (made on the server's thread) brought to the GUI thread."""

    changed = Signal()


class JoinCard(QWidget):
    """How to join, over the scene: the address, the room code and a QR code of the address, large."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("classJoinCard")
        self.url = self.code = ""
        self.joined = 0
        self.qr = None
        self.hide()

    def set_room(self, url: str, code: str) -> None:
        import segno  # only once the teacher opens the class's screens
        self.url, self.code = url, code
        self.qr = segno.make(url, error="m")
        self.update()

    def set_joined(self, joined: int) -> None:
        self.joined = joined
        self.update()

    def toggle(self) -> None:
        self.setVisible(not self.isVisible())
        if self.isVisible():
            self.setGeometry(self.parentWidget().rect())
            self.raise_()

    def font_pixels(self) -> int:
        """The card's smallest type."""
        return round(readable_pixels(self) * 1.4 * 1.5)

    def paintEvent(self, event):
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(255, 255, 255))
        side = min(self.height() - 80, self.width() // 2 - 80)
        if self.qr is not None:
            self._draw_qr(p, QRectF(40, (self.height() - side) / 2, side, side))
        text = QRectF(side + 100, 40, self.width() - side - 140, self.height() - 80)
        base = presented(QFont(QApplication.font()), self)
        lines = ((tr("Join the class:"), 1.4, False), (self.url, 1.6, True), (tr("Room code"), 1.4, False),
                 (self.code, 4.0, True), (tr("{0} devices joined").format(self.joined), 1.4, False))
        p.setPen(QColor(0, 0, 0))
        y = text.top()
        for words, share, bold in lines:
            font = weighted(base, bold=bold)
            font.setPixelSize(round(readable_pixels(self) * share * 1.5))
            p.setFont(font)
            box = p.boundingRect(QRectF(text.left(), y, text.width(), text.height()), Qt.TextWrapAnywhere, words)
            p.drawText(box, Qt.TextWrapAnywhere, words)
            y = box.bottom() + font.pixelSize() * 0.6

    def _draw_qr(self, p: QPainter, box: QRectF) -> None:
        """The QR code's modules as squares, with its quiet zone (read from across a room)."""
        rows = list(self.qr.matrix_iter(scale=1, border=4))
        cell = box.width() / len(rows)
        p.fillRect(box, QColor(255, 255, 255))
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if dark:
                    p.fillRect(QRectF(box.left() + x * cell, box.top() + y * cell, cell + 0.5, cell + 0.5),
                               QColor(0, 0, 0))


class TallyBars(QWidget):
    """The class's answers: one bar per choice with its count, the right one outlined once revealed."""

    def __init__(self, parent: QWidget | None = None, name: str = "classTally"):
        super().__init__(parent)
        self.setObjectName(name)
        self.poll: Poll | None = None
        self.counts: list[int] = []
        self.joined = 0
        self.hide()

    def set_tally(self, poll: Poll | None, counts: list[int], joined: int) -> None:
        self.poll, self.counts, self.joined = poll, counts, joined
        self.update()

    def lines(self) -> list[str]:
        """Each choice's line as drawn: its label and its count (✓ at the right one)."""
        if self.poll is None:
            return []
        return [f"{'✓ ' if value == self.poll.answer else ''}{label}  {count}"
                for (value, label), count in zip(self.poll.choices, self.counts)]

    def heading(self) -> str:
        return tr("The class's answers: {0} of {1} devices").format(sum(self.counts), self.joined)

    def paintEvent(self, event):
        """The heading, then per choice its label, a bar as long as its count (the longest across) and the count:
        orange, the right one green (✓) once revealed."""
        p = QPainter(self)
        p.fillRect(self.rect(), self.palette().window())
        p.setPen(self.palette().windowText().color())
        font = QFont(QApplication.font())
        font.setPixelSize(readable_pixels(self))
        p.setFont(weighted(font, bold=True))
        row = font.pixelSize() * 1.6
        p.drawText(QRectF(12, 6, self.width() - 24, row), Qt.AlignLeft | Qt.AlignVCenter, self.heading())
        p.setFont(font)
        if self.poll is None:
            return
        labels = [f"{'✓ ' if value == self.poll.answer else ''}{label}" for value, label in self.poll.choices]
        label_width = min(max((p.fontMetrics().horizontalAdvance(t) for t in labels), default=0) + 16,
                          self.width() * 0.4)
        count_width = p.fontMetrics().horizontalAdvance("000") + 12
        room = self.width() - 24 - label_width - count_width
        most = max(self.counts, default=0) or 1
        for i, (text, count) in enumerate(zip(labels, self.counts)):
            top = 6 + row * (i + 1)
            right = self.poll.choices[i][0] == self.poll.answer
            p.drawText(QRectF(12, top, label_width, row), Qt.AlignLeft | Qt.AlignVCenter, text)
            bar = QRectF(12 + label_width, top + row * 0.15, room * count / most, row * 0.7)
            p.fillRect(bar, QColor(*RIGHT_COLOUR) if right else QColor(*BAR_COLOUR))
            p.drawText(QRectF(self.width() - 12 - count_width, top, count_width, row), Qt.AlignRight | Qt.AlignVCenter,
                       str(count))

    def wanted_height(self) -> int:
        return round(readable_pixels(self) * 1.6 * (1 + len(self.lines())) + 12)


class ClassScreens:
    """The lesson player's class's screens: the room and its server, what it is told and what it shows."""

    def __init__(self, player):
        self.player, self.window = player, player.window
        self.room: Room | None = None
        self.period_over = False                   # the lesson ended since the room opened: the next is a new class
        self.where: tuple[str, int] | None = None  # the network and port it first opened on
        self.given = False                         # that network given (`--bind`), not asked for
        self.server: Server | None = None
        self.card = JoinCard(self.window)
        self.bars = TallyBars(self.window)        # on the projector: Q, or the reveal
        self.counts_shown = False
        self.heard = Heard()
        self.heard.changed.connect(self._heard, Qt.QueuedConnection)
        self.picture_timer = QTimer(self.window, interval=PICTURE_MS, timeout=self._look)
        self.last_picture: QImage | None = None
        self.pictures = 0  # pictures sent to the room (counted in tests)
        self.why = ""      # why the room could not open

    @property
    def on(self) -> bool:
        return self.server is not None

    # ------------------------------------------------------------- opening and closing

    def toggle(self) -> None:
        """J: the room opened (the network asked for when there are several), else the card shown or hidden."""
        if self.on:
            self.card.toggle()
            return
        again = self._host_again()
        host = again or self._choose_address()
        if host is None:
            return
        if self.open(host, given=again is not None and self.given) is None:
            self.window.warn(tr("Cannot open the class's screens"), self.why)
        else:
            self.card.toggle()

    def _host_again(self) -> str | None:
        """The network the room was on, while the machine still has that address: in the same period, or for the
        session where it was given (`--bind`); a new class, or an address the machine lost, asks again."""
        if self.where is None or (self.period_over and not self.given):
            return None
        return self.where[0] if _still_here(self.where[0]) else None

    def _choose_address(self) -> str | None:
        """The network asked for; not where the machine is on one only, unless it has lost the room's last."""
        found = addresses()
        if len(found) == 1 and (self.where is None or _still_here(self.where[0])):
            return found[0]
        items = found + [tr("{0} (this computer only)").format(LOOPBACK)]
        before = self.where[0] if self.where is not None else None
        at = len(found) if before == LOOPBACK else (found.index(before) if before in found else 0)
        item, ok = QInputDialog.getItem(self.window, tr("Open the class's screens"),
                                        tr("The network the class's devices are on:"), items, at, False)
        return None if not ok else (LOOPBACK if item == items[-1] else item)

    def open(self, host: str, port: int | None = None, given: bool = True) -> str | None:
        """The room opened on host:port (port None: PORT if free, else any); its URL, or None (`why` says why).
        A host `given` (not asked for: `--bind`) is kept for the session."""
        from ...class_screens.server import Server, ServerError  # aiohttp: not imported until the teacher asks
        room = Room(earlier=self.room, same_class=self.room is not None and not self.period_over)
        again = [self.where[1]] if self.where is not None and self.where[0] == host else []  # the URL it had
        for tried in ([port] if port is not None else [*again, PORT, 0]):
            server = Server(room, host, tried, reachable(host))
            try:
                server.start()
            except ServerError as e:
                why = str(e)
                continue
            break
        else:
            self.why = why
            return None
        self.room, self.server, self.period_over, self.given = room, server, False, given
        if self.where is None or self.where[0] != host:  # where it first opened on this network: tried first again
            self.where = (host, server.port)
        room.listen(self.heard.changed.emit)
        self.card.set_room(server.url, room.code)
        self.picture_timer.start()
        self.scene_shown()
        return server.url

    def stop_server(self) -> None:
        """The server stopped (its streams ended, its port closed), nothing of the window touched: what the
        command line does once the window's loop has ended."""
        self.picture_timer.stop()
        if self.server is not None:
            self.server.stop()
        self.server = None

    def close(self, ended: bool = False) -> None:
        """The room closed: the server stopped, the students' pages told nothing more. Its answers stay for the
        CSV; opened again in the same lesson it goes on as it was, unless the lesson has `ended` (the next
        class: its devices join anew)."""
        if ended:
            self.period_over = True
        if self.server is None:
            return
        self.stop_server()
        self.card.hide()
        self.bars.hide()
        self.counts_shown = False
        self._tell_presenter()

    # ------------------------------------------------------------- what the room is told

    def scene_shown(self) -> None:
        """The projector's scene changed: the room shows it (its question asked, with its choices)."""
        if not self.on:
            return
        player = self.player
        lesson, index = player.lesson, player.index
        scene, opened = lesson.scenes[index], self._opened()
        poll = None
        if scene.question is not None and opened is not None and opened.answer is not None:
            poll = Poll(str(index + 1), {lang: scene.question.text[lang] for lang in ("ja", "en")},
                        choices_of(opened, player.classroom.parts), asks=asked_of(opened))
        self.counts_shown = False
        # Its picture once the window has drawn it, between two events: grabbed here, in the middle of showing the
        # scene, a view would paint the new scenario with the old selection.
        self.last_picture = None
        QTimer.singleShot(SETTLE_MS, self._look)
        self.room.show(Shown(index + 1, len(lesson.scenes), {lang: scene.caption[lang] for lang in ("ja", "en")},
                             poll, b"", {lang: lesson.title[lang] for lang in ("ja", "en")}))
        asked = player.question.asked
        if poll is not None and (asked is None or not asked.revealed):  # the projector asks it afresh (R)
            self.room.ask_again()
        self.question_changed()

    def _opened(self):
        """The scene on screen as the player opened it; None while a real model's scene runs, or where it
        could not be shown (the player then holds the last scene's, which is no question of this one)."""
        player = self.player
        opened = player.question.opened
        if player.waiting or opened is None or opened.scene is not player.lesson.scenes[player.index]:
            return None
        return opened

    def question_changed(self) -> None:
        """A reveal: the right answer and the counts to every screen, the bars beside it on the projector."""
        if not self.on:
            return
        question = self.player.question
        if question.asked is not None and question.asked.revealed and question.answer is not None \
                and self._opened() is not None:
            counts = self.room.counts()
            if counts is not None and counts[0].answer is None:
                self.room.reveal(right_choice(question.answer))
                QTimer.singleShot(SETTLE_MS, self._look)  # the revealed row, drawn
            self.counts_shown = True
        self._heard()

    def toggle_counts(self) -> None:
        """Q: the class's counts on the projector and their screens, or hidden again (before the reveal)."""
        if not self.on or self.room.counts() is None:
            return
        self.counts_shown = not self.counts_shown
        self.room.show_counts(self.counts_shown)

    def taking_answers(self) -> bool | None:
        """Whether the question on screen takes answers; None: no question, or one revealed."""
        counts = self.room.counts() if self.on else None
        return None if counts is None or counts[0].answer is not None else counts[2]

    def take_answers(self, on: bool) -> None:
        """The teacher stops the answers (the class's devices say so) or takes them again."""
        if self.on:
            self.room.set_open(on)

    def save_csv(self) -> None:
        if self.room is None or not self.room.asked:
            self.window.warn(tr("Save the class's answers"), tr("No question has been asked with the class's "
                                                                "screens open."))
            return
        path, _ = QFileDialog.getSaveFileName(self.window, tr("Save the class's answers"), "answers.csv",
                                              tr("CSV (*.csv)"))
        if path:
            self.write_csv(path)

    def write_csv(self, path: str) -> bool:
        try:
            atomic_write(path, self.room.csv_text(current_language()).encode("utf-8"))
        except (OSError, AttnVizError) as e:
            self.window.warn(tr("Cannot save"), str(e))
            return False
        return True

    # ------------------------------------------------------------- the projector's picture

    def _look(self) -> None:
        """Each second: the projector as it is now, sent when it changed (a step, a guess, the pen)."""
        picture = self._picture()
        if picture and self.room is not None:
            self.room.picture_changed(picture)

    def _picture(self, force: bool = False) -> bytes:
        """The window as the class sees it, PICTURE_WIDTH wide, as PNG; b"" when it has not changed."""
        shown = [w for w in (self.card, self.bars) if w.isVisible()]  # the scene, not what covers it
        for w in shown:
            w.hide()
        image = self.window.grab().toImage()
        if image.width() > PICTURE_WIDTH:
            image = image.scaledToWidth(PICTURE_WIDTH, Qt.SmoothTransformation)
        for w in shown:
            w.show()
        if not force and image == self.last_picture:
            return b""
        self.last_picture = image
        buffer = QBuffer()
        buffer.open(QBuffer.WriteOnly)
        image.save(buffer, "PNG")
        self.pictures += 1
        return bytes(buffer.data())

    # ------------------------------------------------------------- what the room heard

    def _heard(self) -> None:
        """An answer, a device joined, a reveal: the counts on the presenter's screen and the projector's."""
        if self.room is None:
            return
        self.card.set_joined(self.room.joined)
        counts = self.room.counts()
        poll, numbers = (counts[0], counts[1]) if counts else (None, [])
        self.bars.set_tally(poll, numbers, self.room.joined)
        visible = self.on and poll is not None and self.counts_shown
        if visible:  # bottom right, over the controls, just above the caption: the scene's titles stay in view
            height = self.bars.wanted_height()
            width = max(self.window.width() // 3, 300)
            dock = self.player.dock
            bottom = dock.geometry().top() if dock.isVisible() else self.window.height()
            self.bars.setGeometry(self.window.width() - width - 20, max(0, bottom - height - 12), width, height)
            self.bars.raise_()
        self.bars.setVisible(visible)
        self._tell_presenter()

    def _tell_presenter(self) -> None:
        presenter = self.player.presenter
        presenter.show_tally(self.bars if self.on else None)
