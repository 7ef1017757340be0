"""The handout of a lesson: an A4 PDF, one page per scene then the answers, its text selectable (the
caption's words and the scene's number found by pdftotext), a question's answer on the answers page and
never on the question's own page; in Japanese and in English."""
import re
import shutil
import subprocess
from types import SimpleNamespace

import pytest

from attnviz.core.lessons import builtin_lesson, list_lessons, open_scene
from attnviz.core.lessons.model import ModelRuns
from attnviz.gui.common.i18n import head_label, install_language
from attnviz.gui.heads.heatmap import mask_legend
from attnviz.gui.lessons.answers import answer_text
from attnviz.gui.lessons.handout import ANSWER_DECIMALS, TITLE_PT, choices, handout_bytes, switched_off
from attnviz.gui.lessons.overlays import plain
from attnviz.gui.lessons.player import LessonPlayer
from attnviz.gui.model.next_token import rows
from attnviz.gui.window.app import create_app

LESSONS = tuple(x.id for x in list_lessons())  # the real model's among them where it is installed
RUNS = ModelRuns()


def pages_of(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", data))


def flat(text: str) -> str:
    """Text as compared: no white space (a caption wraps wherever the page ends it), every character as it
    is (no NFKC: a search for 魚 must find 魚, never the radical ⿂ that Noto Sans CJK draws alike)."""
    return re.sub(r"\s+", "", text)


def page_texts(tmp_path, data: bytes, flatten: bool = True) -> list[str]:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text cannot be read back")
    path = tmp_path / "handout.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True, encoding="utf-8").stdout
    return [flat(page) if flatten else page for page in text.split("\f")[:pages_of(data)]]


def bbox_lines(tmp_path, data: bytes) -> list[list[tuple[str, float, float, float, float]]]:
    """Each page's lines of text as pdftotext finds them: (text, x0, y0, x1, y1) in points from the top left."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text cannot be read back")
    path = tmp_path / "handout.pdf"
    path.write_bytes(data)
    xml = subprocess.run(["pdftotext", "-enc", "UTF-8", "-bbox-layout", str(path), "-"], capture_output=True,
                         text=True, check=True, encoding="utf-8").stdout
    number = r'"([\d.]+)"'
    box = rf'xMin={number} yMin={number} xMax={number} yMax={number}'
    return [[(" ".join(re.findall(r"<word[^>]*>([^<]*)</word>", line)), *map(float, (x0, y0, x1, y1)))
             for x0, y0, x1, y1, line in re.findall(rf"<line {box}>(.*?)</line>", page, re.S)]
            for page in xml.split("<page ")[1:]]


def ink(tmp_path, data: bytes, page: int, box) -> float:
    """The share of dark pixels in `box` (x0, y0, x1, y1 in points) of page `page` (0-based), as printed."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed: the PDF cannot be rendered")
    path, dpi = tmp_path / "handout.pdf", 288
    path.write_bytes(data)
    x0, y0, x1, y1 = (round(v * dpi / 72) for v in box)
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", str(page + 1), "-l", str(page + 1), "-x", str(x0),
                    "-y", str(y0), "-W", str(x1 - x0), "-H", str(y1 - y0), "-singlefile", str(path),
                    str(tmp_path / "crop")], check=True)
    raw = (tmp_path / "crop.pgm").read_bytes()
    _, width, height, _, pixels = re.match(rb"(P5)\s+(\d+)\s+(\d+)\s+(\d+)\s(.*)", raw, re.S).groups()
    return sum(b < 128 for b in pixels) / max(1, int(width) * int(height))


@pytest.fixture(scope="module", params=[pytest.param((x, lang), id=f"{x}-{lang}", marks=[pytest.mark.real_model(
    "smollm2")] * builtin_lesson(x).needs_model) for x in LESSONS for lang in ("ja", "en")])
def handout(request, qapp):
    lesson_id, lang = request.param
    create_app()  # AttnViz's fonts (Noto Sans CJK) installed, as the autouse fixture does, which runs later
    install_language(lang)
    lesson = builtin_lesson(lesson_id)
    return lesson, lang, handout_bytes(lesson, lang, RUNS)


def test_a_handout_is_a4_with_a_page_per_scene_then_the_answers(handout):
    lesson, _, data = handout
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert pages_of(data) == len(lesson.scenes) + 1  # the answers of these lessons fit one page
    assert re.search(rb"/MediaBox\s*\[\s*0\s+0\s+595(\.\d+)?\s+84[12](\.\d+)?\s*\]", data)  # A4 portrait, points


def test_each_scene_page_has_its_number_and_caption_as_text(tmp_path, handout):
    lesson, lang, data = handout
    texts = page_texts(tmp_path, data)
    install_language(lang)
    for i, scene in enumerate(lesson.scenes):
        page = texts[i]
        assert flat(lesson.title[lang]) in page
        assert flat(("シーン {0} / {1}" if lang == "ja" else "Scene {0} / {1}").format(i + 1, len(lesson.scenes))) \
            in page  # digits after Latin letters kept (Noto Sans CJK's 'locl' would lose them)
        assert flat(plain(scene.caption[lang]))[:40] in page, (i + 1, scene.caption[lang])


def test_the_answers_are_on_the_last_page_and_not_on_the_questions_page(tmp_path, handout):
    lesson, lang, data = handout
    texts = page_texts(tmp_path, data)
    install_language(lang)
    asked = [(i, open_scene(lesson, i, lang, RUNS)) for i, s in enumerate(lesson.scenes) if s.question is not None]
    assert len(asked) >= 3
    for i, opened in asked:
        answer = flat(plain(answer_text(opened, lang, ANSWER_DECIMALS)))
        question = flat(plain(opened.scene.question.text[lang]))
        assert question in texts[i] and answer not in texts[i]
        assert question in texts[-1] and answer in texts[-1]
        if opened.answer.hide == "next-token":  # the likeliest tokens listed to circle, no probability
            top = f"{opened.run.run.probs.max():.1%}"
            assert all(flat(t) in texts[i] for t in choices(opened)) and len(choices(opened)) == 10
            said = answer_text(opened, lang, ANSWER_DECIMALS)
            assert opened.answer.next_text.replace(" ", "·") in said and top in said
        else:
            top = f"{opened.answer.weights[opened.answer.top_key]:.2f}"  # as a heatmap's cell would say it
            assert opened.scenario.tokens[opened.answer.top_key] in answer_text(opened, lang, ANSWER_DECIMALS)
        assert top not in texts[i] or top in flat(opened.scene.caption[lang]), (i + 1, top)


def test_no_page_up_to_a_questions_own_gives_its_answer_away(tmp_path, handout):
    """Neither the question's page nor any before it prints the weights it asks for: not its row in a
    heatmap (as the cells read, one after another), nor its winner's weight in a step table, unless the
    page's own caption says it (attention's page 2 at ÷√d_k printed the finished table: page 3's answer)."""
    lesson, lang, data = handout
    texts = [" ".join(page.split()) for page in page_texts(tmp_path, data, flatten=False)]
    checked = 0
    for i, scene in enumerate(lesson.scenes):
        if scene.question is None or scene.question.hide == "next-token":
            continue
        opened = open_scene(lesson, i, lang, RUNS)
        answer = opened.answer
        cells = " ".join("0" if w == 0 else f"{w:.2f}" for w in answer.weights)
        top = re.compile(rf"(?<![\d.]){answer.weights[answer.top_key]:.{ANSWER_DECIMALS}f}(?!\d)")
        for j in range(i + 1):
            if open_scene(lesson, j, lang, RUNS).scenario.tokens != opened.scenario.tokens:
                continue  # another sentence (dog bites man before man bites dog): reasoning from it is the lesson
            said = plain(lesson.scenes[j].caption[lang])
            assert cells not in texts[j] and (not top.search(texts[j]) or top.search(said)), (j + 1, i + 1, cells)
            checked += 1
        assert top.search(" ".join(texts[len(lesson.scenes):]))  # on the answers page
    assert checked >= 3 or lesson.needs_model


def test_maths_is_printed_as_maths_never_as_markup(tmp_path, handout):
    """d_k, W_o or Q_i as the lesson files write them are printed with their subscripts (dₖ, Wₒ, Qᵢ)."""
    _, _, data = handout
    assert not re.search(r"[dWQKVY]_[kvqoi0-9]", "".join(page_texts(tmp_path, data)))


def test_the_lessons_menu_offers_the_handout_of_each_built_in_lesson(qtbot, qapp):
    from PySide6.QtWidgets import QMenu, QWidget
    install_language("en")
    window, menu = QWidget(), QMenu()
    qtbot.addWidget(window)
    player = LessonPlayer.__new__(LessonPlayer)  # the menu needs no window's parts: only these
    player.window, player.lesson, player.class_screens = window, None, SimpleNamespace(room=None)
    player.editor = SimpleNamespace(fill_menu=lambda menu: None)  # making lessons' entries: test_editor.py's
    LessonPlayer.fill_menu(player, menu)
    handouts = next(a.menu() for a in menu.actions() if a.text() == "Handout (PDF)")
    assert [a.text() for a in handouts.actions()] == [builtin_lesson(x).title.en + "…" for x in LESSONS]


def test_the_mask_legend_keeps_its_words_and_every_line(tmp_path, handout):
    """Beside the colour bar, 見えない位置 / （マスク） is printed on its two lines, not broken inside a word
    (見えない位 / 置) with the third line cut off by the legend's room."""
    _, lang, data = handout
    install_language(lang)
    legends = [mask_legend(kind).split("\n") for kind in ("causal", "given", "none")]
    found = 0
    for number, lines in enumerate(bbox_lines(tmp_path, data)):
        texts = [flat(line[0]) for line in lines]
        for legend in legends:
            whole = [flat(x) for x in legend]
            starts = [i for i in range(len(texts)) if "".join(texts[i:i + len(legend) + 2]).startswith("".join(whole))]
            broken = [i for i in starts if texts[i:i + len(legend)] != whole]
            assert not broken, (number + 1, texts[broken[0]:broken[0] + len(legend) + 1])
            for i in starts:
                found += 1
                _, x0, y0, x1, y1 = lines[i + len(legend) - 1]
                assert ink(tmp_path, data, number, (x0, (y0 + y1) / 2, x1, y1)) > 0.02, \
                    (number + 1, legend)  # the last line's lower half is printed, not clipped away
    assert found


def test_a_real_model_page_shows_its_head_the_heads_off_its_next_token_and_a_readable_table(tmp_path, handout):
    """The scene's own head, "head 24.4 switched off", the next-token bars (each probability, before → after
    with a head off) unless the question hides them, and the step table's type at 8 pt or more."""
    lesson, lang, data = handout
    if not lesson.needs_model:
        pytest.skip("a lesson without the real model")
    texts, lines = page_texts(tmp_path, data), bbox_lines(tmp_path, data)
    install_language(lang)
    title = next(y1 - y0 for text, _, y0, _, y1 in lines[0] if flat(text) == flat(lesson.title[lang]))
    em = title / TITLE_PT  # a line's height, per point of its type
    tables = 0
    for i, scene in enumerate(lesson.scenes):
        opened, page = open_scene(lesson, i, lang, RUNS), texts[i]
        assert flat(head_label(opened.scenario, opened.head)) in page, i + 1
        for layer, head in scene.off:
            assert flat(switched_off(scene)) in page and f"{layer}.{head}" in page, i + 1
        found = rows(opened.run.model, opened.run.baseline, opened.run.run)
        if scene.question is not None and scene.question.hide == "next-token":
            assert all(f"{now:.1%}" not in page for _, now, _ in found[:3]), i + 1
        else:
            for token, now, before in found:
                shown = f"{now:.1%}" if before is None else f"{before:.1%}→{now:.1%}"
                assert flat(token) in page and shown in page, (i + 1, token, shown)
        sums = [y1 - y0 for text, _, y0, _, y1 in lines[i] if text == "Σ"]  # the table's last row
        tables += bool(sums)
        assert all(h / em >= 8 for h in sums), (i + 1, [round(h / em, 1) for h in sums])
    assert tables >= 4


def test_the_pdf_names_each_character_as_the_caption_writes_it(tmp_path, handout):
    """pdftotext gives each scene's title, caption and question back character for character: 魚, 見, 食 and
    ・ as written, not the Kangxi radicals ⿂, ⾒, ⾷ or ‧ that share their glyphs in Noto Sans CJK."""
    lesson, lang, data = handout
    texts = page_texts(tmp_path, data)
    for i, scene in enumerate(lesson.scenes):
        assert flat(lesson.title[lang]) in texts[i], i + 1
        assert flat(plain(scene.caption[lang])) in texts[i], (i + 1, scene.caption[lang])
        if scene.question is not None:
            assert flat(plain(scene.question.text[lang])) in texts[i], i + 1
    assert not re.search("[\u2e80-\u2fdf\u2027]", "".join(texts))


def test_a_comparison_fills_its_page(tmp_path, handout):
    """A, B and B − A one under another, as large as the page holds: from its first title to its caption
    the comparison takes more than half the page's height, and stays inside the margins."""
    lesson, lang, data = handout
    compared = [i for i, s in enumerate(lesson.scenes) if s.view == "compare" and s.question is None]
    if not compared:
        pytest.skip("a lesson without a comparison")
    lines = bbox_lines(tmp_path, data)
    for i in compared:
        top = next(y0 for text, _, y0, _, _ in lines[i] if text.startswith("A:"))
        bottom = max(y1 for text, _, _, _, y1 in lines[i] if text.startswith(("A：", "A: ")) and "B" in text)
        assert (bottom - top) / 842 > 0.5, (i + 1, round((bottom - top) / 842, 2))
        assert all(42 - 1 <= x0 and x1 <= 595 - 42 + 1 for _, x0, _, x1, _ in lines[i]), i + 1


def test_a_handout_that_would_draw_too_much_is_refused_before_the_scenes_past_the_limit_are_opened(qapp, monkeypatch):
    """Attacker round 17: 200 scenes of 2,048 tokens, each within its own limits, took 132 s to print."""
    from attnviz.gui.lessons import handout as module
    lesson = builtin_lesson("attention")
    n = [len(open_scene(lesson, i, "en").scenario.tokens) for i in range(3)]
    monkeypatch.setattr(module, "MOST_ROWS", sum(n[:2]))  # scenes 1 and 2 fit; scene 3 goes over
    opened = []
    monkeypatch.setattr(module, "scene_opened", lambda *a: opened.append(a[1]) or open_scene(lesson, a[1], "en"))
    with pytest.raises(module.HandoutError, match=rf"scenes 1 to 3 would draw {sum(n):,} rows of steps and [\d,]+ "
                                                  rf"heatmap cells; a handout draws at most {sum(n[:2]):,} and"):
        handout_bytes(lesson, "en")
    assert opened == [0, 1, 2]
