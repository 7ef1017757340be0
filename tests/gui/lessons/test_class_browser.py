"""The class's screens in real browsers: Debian's chromium (installed by `make test` from the system's
packages, never downloaded here) driven by Selenium through its own chromedriver, two pages (one in
Japanese, one in English) among 40 simulated students. The pages show the projector's scene and its caption,
their buttons answer, the answers reach the presenter's screen, and the reveal reaches the pages."""
import contextlib
import os
import shutil
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from students import Student
from test_player import giving, press, settle

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                reason="chromium and chromedriver are not installed (make test installs them "
                                       "where it may: sudo apt install chromium chromium-driver)")
SIMULATED = 40
TOP_KEY = 1  # the attention lesson's scene 2 asks which key the query weighs most


def browser(lang: str, folder):
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never looks for a driver or a browser online
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--lang={lang}", f"--user-data-dir={folder}", "--window-size=412,915"):  # a phone's
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    return webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))


@pytest.fixture
def lesson(qtbot):
    w = giving(qtbot, "attention", "en", TOP_KEY)
    w.lessons.presenter.start(QApplication.primaryScreen())
    w.lessons.go(TOP_KEY)
    settle()
    screens = w.lessons.class_screens
    url = screens.open("127.0.0.1", 0)
    assert url is not None, screens.why
    qtbot.waitUntil(lambda: screens.room.picture() != b"")  # drawn by the window's loop, which Selenium's waits stop
    yield w, screens, url
    screens.close()


def wait(driver, check, seconds: float = 20):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds).until(lambda d: check(d))


def test_two_browsers_among_forty_students_follow_the_scene_answer_and_see_the_reveal(lesson, qtbot, tmp_path):
    from selenium.webdriver.common.by import By
    w, screens, url = lesson
    scene = w.lessons.scene()
    right = w.lessons.question.answer.top_key
    students = [Student(url, 1000 + i) for i in range(SIMULATED)]
    choices = [c["value"] for c in students[0].state()["question"]["choices"]]

    def class_answers(first):
        for i in range(first, SIMULATED, 4):
            assert students[i].join() == 200
            assert students[i].answer(str(TOP_KEY + 1), choices[i % len(choices)]) == 200
    crowd = [threading.Thread(target=class_answers, args=(k,)) for k in range(4)]
    for t in crowd:
        t.start()
    pages = {lang: browser(lang, tmp_path / lang) for lang in ("ja", "en")}
    try:
        for lang, page in pages.items():
            page.get(url)
            caption = scene.caption[lang].strip()
            wait(page, lambda d: d.find_element(By.ID, "caption").text == caption)  # noqa: B023 (waited for here)
            wait(page, lambda d: d.execute_script("return document.getElementById('scene').naturalWidth") > 0)
            assert page.find_element(By.ID, "asked").text == scene.question.text[lang].strip()
            buttons = page.find_elements(By.CSS_SELECTOR, "#choices button")
            assert [int(b.get_attribute("data-value")) for b in buttons] == choices
            assert min(b.size["height"] for b in buttons) >= 48  # a thumb's target on a phone
            button = next(b for b in buttons if int(b.get_attribute("data-value")) == right)
            button.click()
            wait(page, lambda d: "mine" in d.find_element(By.CSS_SELECTOR, f"#choices button[data-value='{right}']")
                 .get_attribute("class"))
        for t in crowd:
            t.join()
        tally = w.lessons.presenter.screen_window.tally
        expected = [sum(1 for i in range(SIMULATED) if choices[i % len(choices)] == c) + 2 * (c == right)
                    for c in choices]
        qtbot.waitUntil(lambda: tally.counts == expected, timeout=10000)
        assert tally.joined == SIMULATED + 2
        press(w, qtbot, Qt.Key_A)  # the reveal
        for lang, page in pages.items():
            verdict = {"ja": "正解！", "en": "Right!"}[lang]
            wait(page, lambda d: d.find_element(By.ID, "verdict").text == verdict)  # noqa: B023 (waited for here)
            marked = page.find_elements(By.CSS_SELECTOR, "#choices button.right")
            assert [int(b.get_attribute("data-value")) for b in marked] == [right]
            counts = [int(b.find_element(By.CLASS_NAME, "count").text)
                      for b in page.find_elements(By.CSS_SELECTOR, "#choices button")]
            assert counts == expected
            page.save_screenshot(str(tmp_path / f"page-{lang}.png"))
    finally:
        for page in pages.values():
            page.quit()


@contextlib.contextmanager
def refused_at_first(url, tmp_path, monkeypatch, limit: str, value: int):
    """A page opened while the server's `limit` is 0 (it says the connection is lost), the limit then set back
    to `value` by the test through the yielded `lift`."""
    from selenium.webdriver.common.by import By

    from attnviz.class_screens import server as server_module
    monkeypatch.setattr(server_module, limit, 0)
    page = browser("en", tmp_path / "page")
    try:
        page.get(url)
        wait(page, lambda d: d.find_element(By.ID, "status").text.startswith("Connection lost"))
        yield page, lambda: monkeypatch.setattr(server_module, limit, value)
    finally:
        page.quit()


def caption_shown(page, caption: str) -> None:
    from selenium.webdriver.common.by import By
    wait(page, lambda d: d.find_element(By.ID, "caption").text == caption.strip(), 30)


def test_a_page_the_room_refused_a_stream_tries_again_and_follows_the_scene(lesson, qtbot, tmp_path, monkeypatch):
    """A stream refused (the room's screens at their limit, a device too fast): the browser never tries such a
    one again by itself, and the page stayed on its scene for good (attacker round 37). It tries again, after
    1 s, 2 s, 4 s…"""
    w, screens, url = lesson
    with refused_at_first(url, tmp_path, monkeypatch, "MAX_STREAMS", 400) as (page, lift):
        lift()
        w.lessons.go(TOP_KEY + 1)
        settle()
        caption_shown(page, w.lessons.scene().caption["en"])


def test_a_page_whose_join_was_refused_for_a_passing_limit_joins_again(lesson, qtbot, tmp_path, monkeypatch):
    """A join refused for pace (a second tab of a device tapping fast, an address's share): the page said "The
    room is full." and never followed (attacker round 38). It joins again after 1 s, 2 s, 4 s…"""
    w, screens, url = lesson
    with refused_at_first(url, tmp_path, monkeypatch, "ADDRESS_DEVICES", 60) as (page, lift):
        lift()
        caption_shown(page, w.lessons.scene().caption["en"])
        assert screens.room.joined == 1


def test_the_language_button_while_a_join_waits_to_be_tried_again_leaves_it_waiting(lesson, qtbot, tmp_path,
                                                                                   monkeypatch):
    """The only button on a page that has not joined yet: it cancelled the join waiting to be tried again, and
    the page followed the scenes with every answer thrown away (attacker round 39). The join goes on, and the
    answers count."""
    from selenium.webdriver.common.by import By
    w, screens, url = lesson
    with refused_at_first(url, tmp_path, monkeypatch, "ADDRESS_DEVICES", 60) as (page, lift):
        page.find_element(By.ID, "language").click()
        wait(page, lambda d: d.find_element(By.ID, "status").text.startswith("接続が切れました"))
        lift()
        caption_shown(page, w.lessons.scene().caption["ja"])
        assert screens.room.joined == 1
        page.find_elements(By.CSS_SELECTOR, "#choices button")[0].click()
        qtbot.waitUntil(lambda: sum(screens.room.counts()[1]) == 1, timeout=10000)


@contextlib.contextmanager
def kept_into_the_next_class(lesson, qtbot, tmp_path):
    """A page joined in one class, kept open while the lesson ends and the next class opens the room at the same
    address, following it again: the next class knows none of the last one's devices."""
    from selenium.webdriver.common.by import By
    w, screens, url = lesson
    page = browser("en", tmp_path)
    try:
        page.get(url)
        caption_shown(page, w.lessons.scene().caption["en"])
        qtbot.waitUntil(lambda: screens.room.joined == 1, timeout=10000)
        screens.close(ended=True)
        screens.toggle()  # the next class, at the same address
        assert screens.room.joined == 0 and screens.server.url == url
        wait(page, lambda d: d.find_element(By.ID, "status").text == "", 30)  # following again
        yield page
    finally:
        page.quit()


def test_a_page_the_room_no_longer_knows_joins_again_and_its_tap_counts(lesson, qtbot, tmp_path):
    """A page kept open had its first tap refused, joined again, and the tap was lost (attacker round 44)."""
    from selenium.webdriver.common.by import By
    screens = lesson[1]
    with kept_into_the_next_class(lesson, qtbot, tmp_path) as page:
        page.find_elements(By.CSS_SELECTOR, "#choices button")[0].click()
        qtbot.waitUntil(lambda: sum(screens.room.counts()[1]) == 1, timeout=10000)
        assert screens.room.joined == 1


def test_a_page_kept_open_into_the_next_class_is_counted_there_before_it_taps(lesson, qtbot, tmp_path):
    """Attacker round 46: it followed the next class's scenes, but the presenter read "0 devices joined"
    until its student tapped."""
    screens = lesson[1]
    with kept_into_the_next_class(lesson, qtbot, tmp_path):
        qtbot.waitUntil(lambda: screens.room.joined == 1, timeout=10000)
