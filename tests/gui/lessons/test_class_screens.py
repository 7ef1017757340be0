"""The class's screens while a lesson is given: the room opened on an address, the scene and its question
reaching the students, their answers counted on the presenter's screen and (Q, the reveal) the projector's,
J's card with the address, the code and a QR code drawn module by module, the CSV, and the room closed with
the lesson. The students are HTTP clients here (test_class_browser.py: real browsers)."""
import csv
import http.client
import io
import socket

import pytest
import segno
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu
from students import Student
from test_player import giving, press, settle

from attnviz.gui.lessons import class_screens

TOP_KEY = 1  # the attention lesson's scene 2: "which key does the query weigh most?"


@pytest.fixture
def lesson(qtbot):
    """The attention lesson at its first question, the presenter's view on the test's one screen, the
    room open on the loopback."""
    w = giving(qtbot, "attention", "en", TOP_KEY)
    w.lessons.presenter.start(QApplication.primaryScreen())
    w.lessons.go(TOP_KEY)
    settle()
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    assert url is not None, screens.why
    yield w, screens, url
    screens.close()


def test_the_question_reaches_the_students_with_the_keys_as_choices(lesson):
    w, screens, url = lesson
    state = Student(url, 1).state("ja")
    opened = w.lessons.question.opened
    assert state["scene"] == TOP_KEY + 1 and state["of"] == len(w.lessons.lesson.scenes)
    assert state["caption"] == w.lessons.scene().caption["ja"]
    q = state["question"]
    assert q["text"] == w.lessons.scene().question.text["ja"] and q["open"] and q["answer"] is None
    tokens = opened.scenario.tokens
    visible = [k for k in range(len(tokens)) if k <= opened.query or not opened.scenario.causal]
    assert [c["value"] for c in q["choices"]] == visible
    assert [c["label"].split(" (")[0] for c in q["choices"]] == [tokens[k] for k in visible]


def test_answers_come_in_on_the_presenter_s_screen_then_q_and_the_reveal_show_them_to_the_class(lesson, qtbot):
    w, screens, url = lesson
    presenter = w.lessons.presenter.screen_window
    students = [Student(url, i) for i in range(12)]
    choices = [c["value"] for c in students[0].state()["question"]["choices"]]
    right = w.lessons.question.answer.top_key
    wrong = next(c for c in choices if c != right)
    for i, s in enumerate(students):
        assert s.join() == 200
        assert s.answer(str(TOP_KEY + 1), right if i < 8 else wrong) == 200
    assert students[0].answer(str(TOP_KEY + 1), wrong) == 200  # changed its mind: 7 and 5
    expected = [7 if c == right else 5 if c == wrong else 0 for c in choices]
    qtbot.waitUntil(lambda: presenter.tally.counts == expected)
    assert presenter.tally.isVisible() and presenter.tally.heading() == "The class's answers: 12 of 12 devices"
    assert not screens.bars.isVisible() and students[3].state()["question"]["counts"] is None  # not yet
    press(w, qtbot, Qt.Key_Q)
    qtbot.waitUntil(lambda: screens.bars.isVisible())
    assert students[3].state()["question"]["counts"] == expected
    press(w, qtbot, Qt.Key_A)  # the reveal
    qtbot.waitUntil(lambda: students[5].state(mine=False)["question"]["answer"] == right)
    state = students[5].state()["question"]
    assert not state["open"] and state["counts"] == expected
    assert students[9].answer(str(TOP_KEY + 1), right) == 409  # answers closed with the reveal
    label = next(c["label"] for c in state["choices"] if c["value"] == right)
    qtbot.waitUntil(lambda: f"✓ {label}  7" in screens.bars.lines())
    image = screens.bars.grab().toImage()
    assert _has_colour(image, QColor(46, 125, 50)), "the right answer's bar is drawn green"
    assert screens.bars.geometry().intersects(w.rect())


def _has_colour(image: QImage, colour: QColor, tolerance: int = 60) -> bool:
    for y in range(0, image.height(), 3):
        for x in range(0, image.width(), 3):
            c = image.pixelColor(x, y)
            far = abs(c.red() - colour.red()) + abs(c.green() - colour.green()) + abs(c.blue() - colour.blue())
            if far < tolerance:
                return True
    return False


def test_the_students_see_the_projector_s_scene_and_follow_it(lesson, qtbot):
    w, screens, url = lesson
    student = Student(url, 3)
    qtbot.waitUntil(lambda: student.state(mine=False)["picture"] > 0)  # drawn once the scene is laid out
    first = student.state()
    status, png = student.ask("GET", "scene.png")
    picture = QImage.fromData(png, "PNG")
    assert status == 200 and not picture.isNull()
    assert picture.width() == min(w.width(), class_screens.PICTURE_WIDTH)
    while w.lessons.index == TOP_KEY:  # the reveal first, then the next scene (a clicker's Page Down)
        press(w, qtbot, Qt.Key_PageDown)
    qtbot.waitUntil(lambda: student.state(mine=False)["scene"] == TOP_KEY + 2)
    qtbot.waitUntil(lambda: student.state(mine=False)["picture"] > first["picture"])
    after = student.state()
    assert after["picture"] > first["picture"] and after["question"] is None
    assert student.ask("GET", "scene.png")[1] != png


def test_j_shows_the_address_the_code_and_a_qr_code_of_the_address(qtbot, monkeypatch):
    monkeypatch.setattr(class_screens, "addresses", lambda: ["127.0.0.1"])
    w = giving(qtbot, "attention", "ja", 0)
    screens = w.lessons.class_screens
    press(w, qtbot, Qt.Key_J)
    try:
        assert screens.on and screens.card.isVisible() and screens.card.geometry() == w.rect()
        assert screens.card.url == screens.server.url and screens.card.code == screens.room.code
        image = screens.card.grab().toImage()
        qr = segno.make(screens.server.url, error="m")
        rows = list(qr.matrix_iter(scale=1, border=4))
        side = min(image.height() - 80, image.width() // 2 - 80)
        cell = side / len(rows)
        top = (image.height() - side) / 2
        for y, row in enumerate(rows):  # every module drawn where it belongs, dark or light
            for x, dark in enumerate(row):
                c = image.pixelColor(int(40 + (x + 0.5) * cell), int(top + (y + 0.5) * cell))
                assert (c.lightness() < 128) == bool(dark), (x, y)
        assert screens.card.font_pixels() >= 20
        press(w, qtbot, Qt.Key_J)
        assert not screens.card.isVisible() and screens.on
    finally:
        screens.close()


def test_ending_the_lesson_closes_the_room(lesson):
    w, screens, url = lesson
    student = Student(url, 1)
    assert student.join() == 200
    w.lessons.end()
    assert not screens.on
    with pytest.raises(OSError):
        student.join()


def test_the_class_s_answers_are_saved_as_csv(lesson, qtbot, tmp_path, monkeypatch):
    w, screens, url = lesson
    students = [Student(url, i) for i in range(3)]
    for s in students:
        s.join()
    right = w.lessons.question.answer.top_key
    for s in students:
        s.answer(str(TOP_KEY + 1), right)
    target = tmp_path / "answers.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    press(w, qtbot, Qt.Key_A)
    screens.save_csv()
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert {r["question"] for r in rows} == {w.lessons.scene().question.text["en"]}
    mine = [r for r in rows if r["right"] == "yes"]
    assert len(mine) == 1 and mine[0]["count"] == "3"
    assert sum(int(r["count"]) for r in rows) == 3


# attacker round 40: R asked the question again on the projector while every page stayed revealed and closed
def test_r_after_the_reveal_asks_the_class_again_and_keeps_the_first_vote(lesson, qtbot):
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    right = w.lessons.question.answer.top_key
    wrong = next(c["value"] for c in student.state()["question"]["choices"] if c["value"] != right)
    assert student.answer(str(TOP_KEY + 1), wrong) == 200
    press(w, qtbot, Qt.Key_A)
    press(w, qtbot, Qt.Key_R)
    q = student.state()["question"]
    assert (q["key"], q["open"], q["answer"], q["counts"], q["mine"]) == (f"{TOP_KEY + 1}.2", True, None, None, None)
    assert screens.taking_answers() is True
    assert student.answer(str(TOP_KEY + 1), right) == 409  # a page still showing the first vote
    assert student.answer(q["key"], right) == 200
    rows = list(csv.DictReader(io.StringIO(screens.room.csv_text("en"))))
    first, again = rows[:len(rows) // 2], rows[len(rows) // 2:]
    assert [(r["count"], r["right"]) for r in first if r["count"] != "0"] == [("1", "no")]
    assert [(r["count"], r["right"]) for r in again if r["count"] != "0"] == [("1", "")]


# attacker round 40: once the lesson had ended (Esc), the menu no longer offered to save the answers it kept
def test_the_class_s_answers_can_be_saved_after_the_lesson_has_ended(lesson, qtbot, tmp_path, monkeypatch):
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    student.answer(str(TOP_KEY + 1), w.lessons.question.answer.top_key)
    w.lessons.end()
    menu = QMenu()
    w.lessons.fill_menu(menu)
    save = next(a for a in menu.actions() if a.text() == "Save the class's answers…")
    target = tmp_path / "answers.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    save.trigger()
    assert sum(int(r["count"]) for r in csv.DictReader(target.open(encoding="utf-8"))) == 1


# attacker round 41: a scene that could not be shown left the pages on the last scene's question, open; J then
# sent its words with the last scene's choices, and counted a tap the reveal never closed
def test_a_scene_that_cannot_be_shown_takes_the_class_to_it_with_no_question(lesson, qtbot, monkeypatch):
    from attnviz.core.lessons import LessonError
    from attnviz.gui.lessons import player
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    assert student.state()["question"]["open"]
    monkeypatch.setattr(player, "open_scene", lambda *a, **k: (_ for _ in ()).throw(LessonError("no such head")))
    monkeypatch.setattr(w, "warn", lambda *a: None)
    index = next(i for i, s in enumerate(w.lessons.lesson.scenes) if i > TOP_KEY and s.question)  # one asked
    w.lessons.go(index)
    state = student.state()
    assert state["scene"] == index + 1 and state["question"] is None
    screens.close()
    url = screens.open("127.0.0.1", 0)  # J at that scene
    assert Student(url, 2).state()["question"] is None


# attacker rounds 41–43: Esc, another lesson, then J dropped the first lesson's answers without a word; the
# room had a new code and port, so every page and a printed QR code found nothing; then the next class found
# the last one's devices and open answers, until the room was full
def test_a_room_opened_for_another_lesson_keeps_its_code_and_the_answers_but_not_the_class(lesson, qtbot):
    from attnviz.core.lessons import builtin_lesson
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    assert student.answer(str(TOP_KEY + 1), w.lessons.question.answer.top_key) == 200
    code, before = screens.room.code, screens.room.state("en")["picture"]
    press(w, qtbot, Qt.Key_Escape)
    assert w.lessons.open(builtin_lesson("attention"), TOP_KEY)  # the next period
    screens.toggle()  # J, where it was: no network asked for
    assert screens.on and screens.server.url == url and screens.room.code == code and screens.room.joined == 0
    qtbot.waitUntil(lambda: screens.room.state("en")["picture"] > before)  # a page loads the new picture
    q = Student(url, 2).state()["question"]
    assert q["open"] and q["counts"] is None and screens.room.counts()[1] == [0] * len(q["choices"])
    rows = list(csv.DictReader(io.StringIO(screens.room.csv_text("en"))))
    assert [r["count"] for r in rows if r["count"] != "0"] == ["1"]  # the first period's, kept for the CSV


def test_the_room_closed_and_opened_again_in_the_lesson_goes_on_as_it_was(lesson, qtbot):
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    assert student.answer(str(TOP_KEY + 1), w.lessons.question.answer.top_key) == 200
    screens.close()
    screens.toggle()
    assert screens.server.url == url and screens.room.joined == 1 and screens.room.joined_from["127.0.0.1"] == 1
    assert sum(screens.room.counts()[1]) == 1 and student.answer(str(TOP_KEY + 1), 0) == 200


# attacker round 44: another lesson given without Esc made the next reopening a new class; a port taken once
# moved the room for the rest of the session
def test_another_lesson_given_in_the_period_keeps_the_class_through_a_reopening(lesson, qtbot):
    from attnviz.core.lessons import builtin_lesson
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    assert w.lessons.open(builtin_lesson("multi-head"), 0)
    screens.close()
    screens.toggle()
    assert screens.room.joined == 1 and screens.room.joined_from["127.0.0.1"] == 1


def test_the_room_goes_back_to_the_port_it_first_opened_on(lesson, qtbot, monkeypatch):
    import socket
    w, screens, url = lesson
    monkeypatch.setattr(class_screens, "PORT", 0)
    first = screens.server.port
    screens.close()
    taken = socket.socket()
    taken.bind(("127.0.0.1", first))
    try:
        screens.toggle()
        assert screens.server.port != first
    finally:
        taken.close()
    screens.close()
    screens.toggle()
    assert screens.server.url == url


def test_nothing_is_served_but_the_room(lesson):
    w, screens, url = lesson
    c = http.client.HTTPConnection("127.0.0.1", screens.server.port, timeout=10)
    for path in ("/", "/attention", f"/{screens.room.code}/../", "/lessons", "/scene.png"):
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        assert r.status == 404, path
    c.close()


@pytest.mark.real_model("smollm2")
def test_a_next_token_question_offers_the_tokens_the_hidden_bars_list(qtbot):
    from attnviz.core.lessons import builtin_lesson
    lesson = builtin_lesson("real-model")
    index = next(i for i, s in enumerate(lesson.scenes) if s.question and s.question.hide == "next-token")
    w = giving(qtbot, "real-model", "en", index)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=120000)
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    try:
        q = Student(url, 1).state()["question"]
        bars = w.lessons.classroom.parts.next_token().bars
        assert bars.hiding()
        listed = [(bars.ids[r], bars.items[r][0]) for r in bars.drawn()]
        assert [(c["value"], c["label"]) for c in q["choices"]] == listed and len(listed) == 10
        right = w.lessons.question.answer.next_token
        assert right in [c["value"] for c in q["choices"]]
        student = Student(url, 2)
        student.join()
        assert student.answer(q["key"], right) == 200
        w.lessons.reveal()
        assert Student(url, 3).state(mine=False)["question"]["answer"] == right
    finally:
        screens.close()


# attacker round 40: the room opened (or the scene changed) while a real model's scene ran sent the pages the
# new scene's question with the last scene's choices, and a tap on it was counted
@pytest.mark.real_model("smollm2")
def test_a_model_scene_still_running_shows_the_class_no_question_until_it_has_run(qtbot):
    from attnviz.core.lessons import builtin_lesson
    scenes = builtin_lesson("real-model").scenes
    index = next(i for i, s in enumerate(scenes) if i > 0 and s.question and s.off)  # a head off: a run of its own
    w = giving(qtbot, "real-model", "en", index - 1)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=120000)
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    try:
        student = Student(url, 1)
        student.join()
        w.lessons.go(index)
        assert w.lessons.waiting
        state = student.state()
        assert state["scene"] == index + 1 and state["question"] is None
        qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=120000)
        q = student.state()["question"]
        bars = w.lessons.classroom.parts.next_token().bars
        assert q["key"] == str(index + 1) and [c["value"] for c in q["choices"]] == [bars.ids[r] for r in bars.drawn()]
        assert student.answer(q["key"], q["choices"][0]["value"]) == 200
    finally:
        screens.close()


@pytest.mark.real_model("smollm2")
def test_a_model_scene_whose_run_failed_shows_the_class_no_question(qtbot, monkeypatch):
    from PySide6.QtCore import QTimer

    from attnviz.core.lessons import builtin_lesson
    scenes = builtin_lesson("real-model").scenes
    index = next(i for i, s in enumerate(scenes) if i > 0 and s.question and s.off)
    w = giving(qtbot, "real-model", "en", index - 1)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=120000)
    runner = w.lessons.runner
    monkeypatch.setattr(runner, "run_scene", lambda runs, text, off: QTimer.singleShot(
        50, lambda: runner.scene_failed.emit((text, tuple(sorted(off))), "not installed")))
    w.lessons.go(index)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=5000)
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    try:
        state = Student(url, 1).state()
        assert state["scene"] == index + 1 and state["question"] is None
    finally:
        screens.close()


def test_the_teacher_stops_the_answers_and_takes_them_again_and_the_tally_needs_no_wait(lesson, qtbot):
    w, screens, url = lesson
    student = Student(url, 5)
    student.join()
    assert screens.taking_answers() is True
    screens.take_answers(False)
    assert student.answer(str(TOP_KEY + 1), 0) == 409 and not student.state()["question"]["open"]
    screens.take_answers(True)
    assert student.answer(str(TOP_KEY + 1), 0) == 200
    QApplication.processEvents()  # one turn of the event loop: the answer is on the presenter's screen
    assert w.lessons.presenter.screen_window.tally.counts[0] == 1
    w.lessons.reveal()
    assert screens.taking_answers() is None


def test_this_machine_s_addresses_are_listed_as_ipv4_without_the_loopback():
    import ipaddress
    found = class_screens.addresses()  # Qt's own list of the machine's networks, as J offers them
    assert all(ipaddress.ip_address(a).version == 4 and not ipaddress.ip_address(a).is_loopback for a in found)


def test_a_room_on_every_network_gives_an_address_a_device_can_open(qtbot, monkeypatch):
    """--bind 0.0.0.0: the URL and its QR code name this machine's address, not 0.0.0.0 (attacker round 35)."""
    monkeypatch.setattr(class_screens, "addresses", lambda ipv6=False: ["192.168.1.20"])
    assert class_screens.reachable("0.0.0.0") == "192.168.1.20"
    assert class_screens.reachable("10.0.0.5") == "10.0.0.5"
    monkeypatch.setattr(class_screens, "addresses", lambda ipv6=False: [])
    w = giving(qtbot, "attention", "en", TOP_KEY)
    screens = w.lessons.class_screens
    url = screens.open("0.0.0.0", 0)
    try:
        assert url == f"http://127.0.0.1:{screens.server.port}/{screens.room.code}/" == screens.card.url
        assert Student(url, 1).join() == 200
    finally:
        screens.close()


def test_another_lesson_given_with_the_room_open_asks_its_own_question(qtbot):
    """Multi-head's scene 4 answered (a key beyond the attention lesson's three), then the attention lesson
    opened at its scene 4 with the room still open: its question is open and new, Q and the reveal work, and the
    CSV keeps both (attacker round 35: the counts raised a ValueError at every answer, Q and A failed)."""
    from attnviz.core.lessons import builtin_lesson
    w = giving(qtbot, "multi-head", "en", 3)
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    try:
        first = Student(url, 1)
        wide = max(c["value"] for c in first.state()["question"]["choices"])
        assert first.join() == 200 and first.answer("4", wide) == 200
        assert w.lessons.open(builtin_lesson("attention"), 3)
        settle()
        q = first.state()["question"]
        assert q["open"] and q["answer"] is None and q["mine"] is None
        assert wide not in [c["value"] for c in q["choices"]]
        # a tap meant for the first lesson's question (its page behind) is refused, not counted for this one
        assert q["key"] == "4.2" and first.answer("4", q["choices"][0]["value"]) == 409
        assert first.answer(q["key"], q["choices"][0]["value"]) == 200
        screens.toggle_counts()
        assert first.state()["question"]["counts"][0] == 1
        press(w, qtbot, Qt.Key_A)
        settle()
        assert first.state()["question"]["answer"] == w.lessons.question.answer.top_key
        lessons = {row[0] for row in list(csv.reader(screens.room.csv_text("en").splitlines()))[1:]}
        assert lessons == {builtin_lesson("multi-head").title["en"], builtin_lesson("attention").title["en"]}
    finally:
        screens.close()


def test_q_a_scene_and_back_leave_the_counts_hidden_everywhere(lesson, qtbot):
    """The window hides the counts at every scene: the students' pages too (attacker round 35)."""
    w, screens, url = lesson
    student = Student(url, 1)
    student.join()
    student.answer(str(TOP_KEY + 1), 0)
    press(w, qtbot, Qt.Key_Q)
    assert screens.bars.isVisible() and student.state()["question"]["counts"] is not None
    w.lessons.go(TOP_KEY + 1)
    w.lessons.go(TOP_KEY)
    settle()
    assert not screens.bars.isVisible() and student.state()["question"]["counts"] is None
    press(w, qtbot, Qt.Key_Q)  # one Q shows them again
    assert screens.bars.isVisible() and student.state()["question"]["counts"] == screens.room.counts()[1]


def test_the_window_in_another_language_keeps_the_class_s_answers(lesson, qtbot):
    """The tokens the choices name change language with the window; the question, its answers and its counts do
    not (attacker round 36: [0, 5, 0] became [0, 0, 0], and each language added the question to the CSV)."""
    w, screens, url = lesson
    students = [Student(url, i) for i in range(5)]
    right = w.lessons.question.answer.top_key
    for s in students:
        assert s.join() == 200 and s.answer(str(TOP_KEY + 1), right) == 200
    before = screens.room.counts()[1]
    w.classroom.set_language("ja")
    settle()
    q = students[0].state()["question"]
    assert screens.room.counts()[1] == before and q["mine"] == right and screens.room.asked == 1
    assert [c["label"] for c in q["choices"]] != ["cat", "fish", "it"][:len(q["choices"])]  # the projector's tokens
    w.classroom.set_language("en")
    settle()
    assert screens.room.counts()[1] == before and screens.room.asked == 1


def test_a_scene_the_lesson_editor_moved_asks_its_own_question(qtbot):
    """A scene removed, and the lesson given again: the question now numbered 2 (the same words, on head 1) is
    not the old scene 2's, already revealed on head 0 (attacker round 36: the old reveal was kept, with its
    right answer, and new answers refused)."""
    import dataclasses

    from attnviz.core.lessons import builtin_lesson
    w = giving(qtbot, "why-it-works", "en", 1)
    lesson = builtin_lesson("why-it-works")
    question = lesson.scenes[0]
    editor = w.lessons.editor
    editor.lesson = dataclasses.replace(lesson, scenes=(lesson.scenes[1], question,
                                                        dataclasses.replace(question, head=1)))
    editor.dirty = False
    editor.give(1)
    settle()
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    try:
        student = Student(url, 1)
        assert student.join() == 200 and student.answer("2", w.lessons.question.answer.top_key) == 200
        press(w, qtbot, Qt.Key_A)
        settle()
        editor.remove(0)
        editor.give(1)
        settle()
        q = student.state()["question"]
        assert q["open"] and q["answer"] is None and q["mine"] is None and screens.room.asked == 2
        assert student.answer(q["key"], w.lessons.question.answer.top_key) == 200
    finally:
        screens.close()


@pytest.mark.real_model("smollm2")
def test_a_next_token_scene_given_with_another_text_asks_its_own_question(qtbot):
    """The lesson editor changed the text the model reads; the ten likeliest tokens and the right one stayed:
    still another question, open, no answers (attacker round 37: the old text's reveal was kept)."""
    import dataclasses

    from attnviz.core.lessons import builtin_lesson
    w = giving(qtbot, "real-model", "en", 1)
    qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)
    lesson = builtin_lesson("real-model")
    question = lesson.scenes[1]
    edited = dataclasses.replace(question, scenario=dataclasses.replace(
        question.scenario, value="The cat ate a fish. The fish was fresh. The cat"))
    editor = w.lessons.editor
    screens = w.lessons.class_screens
    try:
        for scenes in ((lesson.scenes[0], question), (lesson.scenes[0], edited)):
            editor.lesson, editor.dirty = dataclasses.replace(lesson, scenes=scenes), False
            editor.give(1)
            qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)
            settle()
            if not screens.on:
                url = screens.open("127.0.0.1", 0)
                student = Student(url, 1)
                assert student.join() == 200
                assert student.answer("2", student.state()["question"]["choices"][0]["value"]) == 200
                press(w, qtbot, Qt.Key_A)
                settle()
        q = student.state()["question"]
        assert q["open"] and q["answer"] is None and q["mine"] is None and screens.room.asked == 2
    finally:
        screens.close()


QUESTIONS = [(lesson.id, i) for lesson in __import__("attnviz.core.lessons", fromlist=["list_lessons"]).list_lessons()
             if not lesson.needs_model for i, scene in enumerate(lesson.scenes) if scene.question is not None]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_question_of_the_built_in_lessons_reaches_the_class_without_the_keys_the_mask_hides(qtbot, lang):
    from attnviz.core.compute import compute, hidden
    from attnviz.core.lessons import builtin_lesson
    w = giving(qtbot, "attention", lang, 0)
    screens = w.lessons.class_screens
    masked_somewhere = False
    url = screens.open("127.0.0.1", 0)
    try:
        for lesson_id, index in QUESTIONS:
            if w.lessons.lesson.id != lesson_id:  # another lesson: given from its start, the room opened again
                w.lessons.end()
                assert w.lessons.open(builtin_lesson(lesson_id), index)
                url = screens.open("127.0.0.1", 0)
            w.lessons.go(index)
            q = Student(url, 1).state(lang, mine=False)["question"]
            opened = w.lessons.question.opened
            masked = hidden(compute(opened.scenario).heads[opened.head])[opened.query]
            masked_somewhere |= bool(masked.any())
            assert [c["value"] for c in q["choices"]] == [k for k in range(len(masked)) if not masked[k]], \
                (lesson_id, index)
            assert q["text"] == w.lessons.scene().question.text[lang]
    finally:
        screens.close()
    assert masked_somewhere  # the lessons ask about a query whose future is hidden: those keys are no choice


# attacker round 45: the network first chosen was kept for the session (never asked again, and a room whose
# address the machine lost could never open again); a J that failed after Esc let the next one go on with the
# last class
@pytest.fixture
def networks(monkeypatch):
    """The machine's networks (loopback addresses, which bind here), as the test sets them; the network the
    dialog is asked for, and which it lists first."""
    found = {"now": ["127.0.0.2", "127.0.0.3"]}
    monkeypatch.setattr(class_screens, "addresses", lambda ipv6=False: list(found["now"]))
    asked = []

    def dialog(parent, title, label, items, current, editable):
        asked.append((items, current))
        return items[found.get("pick", 0)], True
    monkeypatch.setattr(class_screens.QInputDialog, "getItem", dialog)
    return found, asked


def test_a_network_the_machine_lost_is_asked_for_again(qtbot, networks, monkeypatch):
    found, asked = networks
    w = giving(qtbot, "attention", "en", TOP_KEY)
    screens = w.lessons.class_screens
    monkeypatch.setattr(class_screens, "PORT", 0)
    screens.toggle()
    assert screens.server.host == "127.0.0.2" and len(asked) == 1
    screens.close()
    screens.toggle()  # the same network, not asked again
    assert screens.server.host == "127.0.0.2" and len(asked) == 1
    screens.close()
    found["now"] = ["127.0.0.3", "127.0.0.4"]  # another Wi-Fi, or the address renewed
    screens.toggle()
    assert screens.on and screens.server.host == "127.0.0.3" and len(asked) == 2
    screens.close()


def test_the_next_class_is_asked_for_its_network_the_last_one_offered_first(qtbot, networks):
    from attnviz.core.lessons import builtin_lesson
    found, asked = networks
    w = giving(qtbot, "attention", "en", TOP_KEY)
    screens = w.lessons.class_screens
    found["pick"] = 1
    screens.toggle()
    url = screens.server.url
    press(w, qtbot, Qt.Key_Escape)  # the period is over
    assert w.lessons.open(builtin_lesson("attention"), TOP_KEY)
    settle()
    screens.toggle()
    assert len(asked) == 2 and asked[1][1] == 1 and screens.server.url == url  # its URL again, its port too
    screens.close()


def test_a_j_that_failed_after_the_period_leaves_the_next_one_a_new_class(qtbot, networks, monkeypatch):
    from attnviz.core.lessons import builtin_lesson
    found, asked = networks
    warned = []
    w = giving(qtbot, "attention", "en", TOP_KEY)
    monkeypatch.setattr(w, "warn", lambda title, message: warned.append(message))
    screens = w.lessons.class_screens
    screens.toggle()
    student = Student(screens.server.url, 1)
    student.join()
    assert student.answer(str(TOP_KEY + 1), w.lessons.question.answer.top_key) == 200
    press(w, qtbot, Qt.Key_Escape)
    assert w.lessons.open(builtin_lesson("attention"), TOP_KEY)
    settle()
    found["now"] = ["192.0.2.1"]  # a network the machine is not on: the room cannot open
    screens.toggle()
    assert not screens.on and warned == ["cannot serve on 192.0.2.1: Cannot assign requested address"]
    found["now"] = ["127.0.0.2"]
    screens.toggle()
    assert screens.on and screens.room.joined == 0 and sum(screens.room.counts()[1]) == 0
    screens.close()


def test_every_network_given_is_kept_through_a_reopening_and_the_next_class(qtbot, networks):
    """Attacker round 46: `--bind 0.0.0.0` is never among the machine's addresses, and J narrowed the room to
    one network (devices on the other lost it in the same period)."""
    from attnviz.core.lessons import builtin_lesson
    found, asked = networks
    w = giving(qtbot, "attention", "en", TOP_KEY)
    screens = w.lessons.class_screens
    screens.open("0.0.0.0", 0)
    screens.close()
    screens.toggle()
    assert screens.server.host == "0.0.0.0"
    press(w, qtbot, Qt.Key_Escape)
    assert w.lessons.open(builtin_lesson("attention"), TOP_KEY)
    settle()
    screens.toggle()
    assert screens.server.host == "0.0.0.0" and not asked
    screens.close()


@pytest.mark.parametrize("bind, asked_again", [(None, 1), ("127.0.0.3", 0)])
def test_the_network_the_command_line_picked_itself_is_asked_for_in_the_next_class(qtbot, networks, monkeypatch,
                                                                                    bind, asked_again):
    """Attacker round 47: `attnviz lesson … --class` without --bind picks the first network; that one was kept
    for the session as if the teacher had named it."""
    from attnviz.core.lessons import builtin_lesson
    from attnviz.gui.window import start
    found, asked = networks
    w = giving(qtbot, "attention", "en", TOP_KEY)
    app = QApplication.instance()
    monkeypatch.setattr(app, "exec", lambda: 0)  # the window's loop: over at once
    assert start._serve_class(app, w, bind, 0, []) == 0
    press(w, qtbot, Qt.Key_Escape)
    assert w.lessons.open(builtin_lesson("attention"), TOP_KEY)
    settle()
    w.lessons.class_screens.toggle()
    assert len(asked) == asked_again
    w.lessons.class_screens.close()


def _binds(host: str) -> bool:
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.bind((host, 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _binds("::1"), reason="this machine has no IPv6 loopback")
def test_an_ipv6_network_given_is_kept_through_a_reopening_and_the_next_class(qtbot, networks):
    """Attacker round 48: `--bind ::1` was never among the machine's (IPv4) addresses, so the next J moved the
    room to another network, in the same lesson too: every page open on it lost the room."""
    from attnviz.core.lessons import builtin_lesson
    found, asked = networks
    w = giving(qtbot, "attention", "en", TOP_KEY)
    screens = w.lessons.class_screens
    screens.open("::1", 0)
    url = screens.server.url
    screens.close()
    screens.toggle()
    assert screens.server.url == url
    press(w, qtbot, Qt.Key_Escape)
    assert w.lessons.open(builtin_lesson("attention"), TOP_KEY)
    settle()
    screens.toggle()
    assert screens.server.host == "::1" and not asked
    screens.close()


def test_a_lost_network_is_asked_for_even_where_one_is_left(qtbot, networks, monkeypatch):
    """Attacker round 48: the room's network lost and one other left, J moved the room there without a word."""
    found, asked = networks
    w = giving(qtbot, "attention", "en", TOP_KEY)
    screens = w.lessons.class_screens
    monkeypatch.setattr(class_screens, "PORT", 0)
    found["pick"] = 1
    screens.toggle()
    assert screens.server.host == "127.0.0.3" and len(asked) == 1
    screens.close()
    found["now"], found["pick"] = ["127.0.0.2"], 0
    screens.toggle()
    assert len(asked) == 2 and asked[1][0][0] == "127.0.0.2" and screens.server.host == "127.0.0.2"
    screens.close()
    screens.toggle()  # where it is now: not asked again
    assert len(asked) == 2
    screens.close()


def test_a_network_s_ipv6_address_is_found_among_the_machine_s_however_written(monkeypatch):
    """The IPv6 addresses are asked for an IPv6 host (`--bind fd00::2`, which no list of IPv4 ones holds)."""
    monkeypatch.setattr(class_screens, "addresses", lambda ipv6=False: ["fd00::2"] if ipv6 else ["192.168.1.20"])
    assert class_screens._still_here("fd00:0:0::2") and class_screens._still_here("192.168.1.20")
    assert not class_screens._still_here("fd00::3") and not class_screens._still_here("192.168.1.21")
