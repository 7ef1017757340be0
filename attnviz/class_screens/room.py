"""The class's room: what the students' screens may see (the scene on the big screen, its caption, its
question's choices) and the answers the class gives, counted. No Qt and no network: the window (or the
command line) tells the room what is shown, the server (server.py) asks it, from another thread; a lock
keeps the two apart.

Answers are anonymous: a device is a random id its browser made, nothing else is kept of it, and nothing
is written anywhere but the CSV the teacher asks for. A device answers a question once, and may change its
answer until the answers close (the reveal closes them).
"""
from __future__ import annotations

import csv
import io
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..core.text import csv_cell

# A room code is read aloud and typed on a phone: no O/0 or I/1 to mistake for each other.
PORT = 8765  # the port tried first (a fixed one: a QR code printed once still works); else any free
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_DEVICES = 200       # a class, a year's classes at an open day: no more devices join
DEVICE = re.compile(r"[0-9a-f]{32}")  # what a browser's crypto.getRandomValues makes: 128 random bits
RATE = 5.0              # requests a second a device may keep up (a student taps fast; a script does not pass)
BURST = 20              # ... and at once, after a pause (the page's first requests, an answer changed twice)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


class RoomError(Exception):
    """A request the room refuses, with the HTTP status the server answers with."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status


@dataclass(frozen=True)
class Poll:
    """A scene's question as the students answer it: its key (one per scene), its text in both languages,
    the choices (a key's position and its token, or a next token's id and its text) and, once revealed,
    the right one."""

    key: str
    text: dict[str, str]
    choices: tuple[tuple[int, str], ...]
    answer: int | None = None  # the right choice's value, set at the reveal
    # what the question is about beyond its words, in no language (the window's: its head, query, right answer
    # and the weights it is asked of); never sent to a student
    asks: str = ""

    def same_question(self, other: Poll) -> bool:
        """Whether `other` asks this question again: its words, its choices' values and what it asks of, the
        same; the choices' labels may be in another language."""
        return (self.text, [v for v, _ in self.choices], self.asks) == \
            (other.text, [v for v, _ in other.choices], other.asks)


@dataclass(frozen=True)
class Shown:
    """What the big screen shows, as the students' page shows it."""

    number: int                         # the scene, 1-based
    count: int                          # the lesson's scenes
    caption: dict[str, str]             # "ja" and "en"
    poll: Poll | None = None
    picture: bytes = b""                # the scene as a PNG
    title: dict[str, str] = field(default_factory=dict)


@dataclass
class Tally:
    """One question's answers: device → choice's value; open until the reveal (or the teacher) closes it."""

    poll: Poll                            # its key its own: the scene's, or "4.2" for the second asked at scene 4
    lesson: dict[str, str] = field(default_factory=dict)  # the title of the lesson that asked it
    scene: str = ""                       # the key the window gave: the scene's number
    answers: dict[str, int] = field(default_factory=dict)
    open: bool = True
    shown: bool = False  # the counts on the class's screens (the teacher's key), before the reveal

    def counts(self) -> list[int]:
        values = [value for value, _ in self.poll.choices]
        found = [0] * len(values)
        for value in self.answers.values():
            found[values.index(value)] += 1
        return found


class Bucket:
    """A token bucket per device: RATE a second, BURST at once; `clock` for tests that count, not time."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic,
                 most: int = 4096):
        self.rate, self.burst, self.clock, self.most = rate, burst, clock, most
        self.left: dict[str, tuple[float, float]] = {}

    def ready(self, who: str) -> bool:
        """Whether `who` may ask now (a token is left), none taken."""
        tokens, then = self.left.get(who, (float(self.burst), self.clock()))
        return min(self.burst, tokens + (self.clock() - then) * self.rate) >= 1

    def take(self, who: str) -> bool:
        now = self.clock()
        if len(self.left) >= self.most:  # those full again forgotten: as many kept as ask within a refill
            self.left = {k: v for k, v in self.left.items() if now - v[1] < self.burst / self.rate}
        tokens, then = self.left.get(who, (float(self.burst), now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.left[who] = (tokens, now)
            return False
        self.left[who] = (tokens - 1, now)
        return True


class Room:
    def __init__(self, code: str | None = None, most_devices: int = MAX_DEVICES, earlier: Room | None = None,
                 same_class: bool = False):
        """`earlier`: the room this one follows, its code kept (a page still open, or a QR code printed, finds
        the room again) and its counters going on (a page sees a new picture as new). `same_class`: the teacher
        closed it and opens it again in the same lesson: it goes on as it was, its devices (and how many each
        address joined), questions and answers. Else (another lesson, another class) the devices join anew, and
        the earlier questions are kept for the CSV only."""
        handed = earlier.handed_on() if earlier is not None else {}
        self.code: str = code or handed.get("code") or new_code()
        self.most_devices = most_devices
        self._lock = threading.Lock()
        self._shown: Shown | None = None
        self._tallies: dict[str, Tally] = {}  # a key's question, as it is asked now
        self._earlier: list[Tally] = handed.get("earlier", []) + ([] if same_class else handed.get("asked", []))
        self._asked: list[Tally] = handed.get("asked", []) if same_class else []  # asked in this class (the CSV)
        self._devices: set[str] = handed.get("devices", set()) if same_class else set()
        self.joined_from: Counter[str] = handed.get("joined_from", Counter()) if same_class else Counter()
        self._version = handed.get("version", 0)
        self._pictures = handed.get("pictures", 0)  # the picture's own version: a page loads it when it changed
        self._listeners: list[Callable[[], None]] = []

    def handed_on(self) -> dict:
        """What a room that follows this one may keep."""
        with self._lock:
            return {"code": self.code, "earlier": list(self._earlier), "asked": list(self._asked),
                    "devices": set(self._devices), "joined_from": Counter(self.joined_from),
                    "version": self._version + 1, "pictures": self._pictures + 1}

    # ------------------------------------------------------------- the teacher's side

    def listen(self, changed: Callable[[], None]) -> None:
        """`changed()` is called (on the thread that made the change) after every change."""
        self._listeners.append(changed)

    def show(self, shown: Shown) -> None:
        """The big screen's scene, its counts hidden until the teacher shows them. Its question is asked anew
        unless the same lesson asked it before at this scene (Poll.same_question: the class went back to it, or
        the window changed language: it keeps its answers). Another lesson's, or an edited one's, at the same
        scene is another question, with a key of its own ("4.2"): an answer a page sends for the first one is
        refused, not counted for it; the first one's answers are kept for the CSV."""
        with self._lock:
            self._shown = shown
            self._pictures += bool(shown.picture)
            poll = shown.poll
            if poll is not None:
                self._tallies[poll.key] = self._asking(poll, shown.title)
        self._changed()

    def _asking(self, poll: Poll, lesson: dict[str, str]) -> Tally:
        """The tally of `poll` at its scene: the one asked before, its labels as the window now gives them and
        its counts hidden, or a new one (the lock held)."""
        at = [t for t in self._asked if t.scene == poll.key]
        tally = next((t for t in reversed(at) if t.lesson == lesson and t.poll.same_question(poll)), None)
        if tally is None:
            return self._new_tally(poll, lesson, poll.key)
        tally.poll = replace(poll, key=tally.poll.key, answer=tally.poll.answer)
        tally.shown = False
        return tally

    def _new_tally(self, poll: Poll, lesson: dict[str, str], scene: str) -> Tally:
        """`poll` asked afresh at `scene`: keyed by the scene, or "4.2" where a question was asked there before,
        in this class or an earlier one (a page still showing the last class's is refused; the lock held)."""
        at = sum(t.scene == scene for t in self._earlier + self._asked)
        tally = Tally(replace(poll, key=scene if not at else f"{scene}.{at + 1}", answer=None), dict(lesson), scene)
        self._asked.append(tally)
        return tally

    def ask_again(self) -> None:
        """The current question, revealed, asked afresh (the teacher's R, or the scene shown again with its
        question hidden): a new vote, open and uncounted, with a key of its own ("4.2"); the first one's answers
        are kept for the CSV, and a tap from a page still showing it is refused."""
        with self._lock:
            tally = self._current()
            if tally is None or tally.poll.answer is None:
                return
            self._tallies[tally.scene] = self._new_tally(tally.poll, tally.lesson, tally.scene)
        self._changed()

    def picture_changed(self, picture: bytes) -> None:
        """The big screen drawn again (a step, a guess, the pen) in the same scene."""
        with self._lock:
            if self._shown is None:
                return
            self._shown = replace(self._shown, picture=picture)
            self._pictures += 1
        self._changed()

    def reveal(self, answer: int) -> None:
        """The current question's answer shown: answers close, the right choice and the counts go to every
        screen."""
        with self._lock:
            tally = self._current()
            if tally is None:
                return
            tally.poll = replace(tally.poll, answer=answer)
            tally.open = False
        self._changed()

    def set_open(self, on: bool) -> None:
        """The teacher closes (or opens again) the current question's answers."""
        self._set(lambda t: setattr(t, "open", on and t.poll.answer is None))

    def show_counts(self, on: bool) -> None:
        """The counts on the class's screens before the reveal (the teacher's key)."""
        self._set(lambda t: setattr(t, "shown", on))

    def _set(self, change: Callable[[Tally], None]) -> None:
        with self._lock:
            tally = self._current()
            if tally is None:
                return
            change(tally)
        self._changed()

    def counts(self) -> tuple[Poll, list[int], bool] | None:
        """The current question, its counts per choice and whether answers are open; None without one."""
        with self._lock:
            tally = self._current()
            return None if tally is None else (tally.poll, tally.counts(), tally.open)

    def has(self, device: str) -> bool:
        """`device` joined the room."""
        with self._lock:
            return device in self._devices

    @property
    def joined(self) -> int:
        with self._lock:
            return len(self._devices)

    def csv_text(self, lang: str) -> str:
        """Every question asked: its lesson, scene, question, each choice, how many chose it, and whether it was
        the answer. A lesson file's words are made safe for a spreadsheet (no cell runs as a formula)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["lesson", "scene", "question", "choice", "count", "right"])
        with self._lock:
            rows = [(t.lesson.get(lang, ""), t.scene, t.poll, t.counts()) for t in self._earlier + self._asked]
        for lesson, scene, poll, counts in rows:
            for (value, label), count in zip(poll.choices, counts):
                right = "" if poll.answer is None else ("yes" if value == poll.answer else "no")
                w.writerow([csv_cell(lesson), csv_cell(scene), csv_cell(poll.text.get(lang, "")), csv_cell(label),
                            count, right])
        return out.getvalue()

    @property
    def asked(self) -> int:
        with self._lock:
            return len(self._earlier) + len(self._asked)

    # ------------------------------------------------------------- the students' side

    def join(self, given: object) -> bool:
        """`given` joined (again: nothing changes); whether it is new to the room."""
        device = _device(given)
        with self._lock:
            if device not in self._devices and len(self._devices) >= self.most_devices:
                raise RoomError(429, f"the room is full ({self.most_devices} devices)")
            new = device not in self._devices
            self._devices.add(device)
        if new:
            self._changed()
        return new

    def answer(self, device: object, key: object, value: object) -> None:
        """`device`'s answer to the question `key`: one per device, changeable while answers are open."""
        device = _device(device)
        with self._lock:
            if device not in self._devices:
                raise RoomError(403, "join the room first")
            tally = self._current()
            if tally is None or key != tally.poll.key:
                raise RoomError(409, "that question is not being asked")
            if not tally.open:
                raise RoomError(409, "the answers are closed")
            if type(value) is not int or value not in [v for v, _ in tally.poll.choices]:
                raise RoomError(400, "not one of the choices")
            if tally.answers.get(device) == value:  # the same answer again: nothing to tell every page
                return
            tally.answers[device] = value
        self._changed()

    def state(self, lang: str, device: str | None = None) -> dict:
        """What a student's page shows, as JSON: the scene, its caption in `lang`, the question (its counts
        when the teacher shows them or at the reveal) and this device's answer."""
        with self._lock:
            shown, version = self._shown, self._version
            tally = self._current()
            if shown is None:
                return {"version": version, "scene": None}
            state: dict = {"version": version, "scene": shown.number, "of": shown.count,
                           "title": shown.title.get(lang, ""), "caption": shown.caption.get(lang, ""),
                           "picture": self._pictures if shown.picture else 0, "question": None,
                           "joined": device in self._devices}  # a page the next class does not know joins again
            if tally is not None:
                poll = tally.poll
                state["question"] = {
                    "key": poll.key, "text": poll.text.get(lang, ""), "open": tally.open,
                    "choices": [{"value": v, "label": label} for v, label in poll.choices],
                    "answer": poll.answer, "mine": tally.answers.get(device or ""),
                    "counts": tally.counts() if tally.shown or poll.answer is not None else None}
            return state

    def picture(self) -> bytes:
        with self._lock:
            return b"" if self._shown is None else self._shown.picture

    @property
    def version(self) -> int:
        return self._version

    # -------------------------------------------------------------

    def _current(self) -> Tally | None:
        """The tally of the question on the big screen (the lock held)."""
        poll = None if self._shown is None else self._shown.poll
        return None if poll is None else self._tallies[poll.key]

    def _changed(self) -> None:
        with self._lock:
            self._version += 1
        for changed in self._listeners:
            changed()


def _device(device: object) -> str:
    if not isinstance(device, str) or not DEVICE.fullmatch(device):
        raise RoomError(400, "a device is 32 hexadecimal digits")
    return device
