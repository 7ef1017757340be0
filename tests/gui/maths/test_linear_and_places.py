"""The two painted maths views as a class sees them, presented on 1920×1080 in both languages: x·W (seed 000)
and softmax in three places (seed 003 §4.3). The numbers drawn are core's, every text (subscripts too) is at
least 20 px, painted at that size, inside the screen, and no two texts overlap."""
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from attnviz.core.explain import fmt
from attnviz.core.explorers import linear_map, next_token_example, qkv_maps, temperature_examples
from attnviz.core.scenario import make_head, make_scenario
from attnviz.gui.common.i18n import tr
from attnviz.gui.common.markup import pieces, unmarked
from attnviz.gui.maths.canvas import fonts_of
from presented import LEAST_PIXELS, presenting, px, unreadable


def presented(qtbot, view_id, lang, preset="seed-demo"):
    """The window presenting `view_id` (its key: W or M), and the view."""
    w = presenting(qtbot, preset, lang)
    w.classroom.present_view(view_id)
    for _ in range(3):
        QApplication.processEvents()
    return w, w.parts.maths.tab_view(view_id)


def overlap(a: QRectF, b: QRectF) -> bool:
    both = a.intersected(b)
    return both.width() > 0.5 and both.height() > 0.5


def layout_problems(canvas, shapes_apart=()) -> list[str]:
    """Type under 20 px (a subscript's too), a text outside the canvas, two texts overlapping, or a text on
    a shape it should stand apart from (a bar, a bracket)."""
    drawing, room = canvas.drawing(), QRectF(canvas.rect())
    problems = [f"{t.text!r}: {px(f)} px" for t in drawing.texts for f in fonts_of(t) if px(f) < LEAST_PIXELS]
    problems += [f"{t.text!r} outside {room}" for t in drawing.texts if not room.contains(t.rect)]
    problems += [f"{a.text!r} overlaps {b.text!r}" for a, b in combinations(drawing.texts, 2)
                 if overlap(a.rect, b.rect)]
    problems += [f"{t.text!r} on a shape" for t in drawing.texts for s in shapes_apart if overlap(t.rect, s.rect)]
    return problems


def ink_rows(image, rect: QRectF) -> int:
    """How many pixel rows of `rect` hold ink (a text's strokes, dark or coloured, not a tint)."""
    rows = 0
    for y in range(int(rect.top()), int(rect.bottom())):
        if any(QColor(image.pixel(x, y)).lightness() < 150 for x in range(int(rect.left()), int(rect.right()))):
            rows += 1
    return rows


def texts(view) -> list:
    return view.canvas.drawing().texts


def find(view, s: str):
    found = [t for t in texts(view) if t.text == s]
    assert found, f"{s!r} not drawn"
    return found


# ---------------------------------------------------------------- x·W

@pytest.mark.parametrize("lang", ["ja", "en"])
def test_x_times_w_draws_the_seeds_numbers_shapes_and_sums_readably_with_nothing_overlapping(qtbot, lang):
    w, view = presented(qtbot, "linear", lang)
    assert w.parts.presented().currentWidget() is view and view.presenting
    drawing = view.canvas.drawing()
    brackets = [s for s in drawing.shapes if s.bracket]
    assert layout_problems(view.canvas, brackets) == [] and unreadable(view) == []
    assert view.canvas.width() >= 0.9 * 1920 and view.canvas.height() >= 0.7 * 1080
    m = linear_map()
    worked = max(t.type.pixels for t in drawing.texts)  # the worked example's numbers: the largest type
    numbers = [t.text for t in drawing.texts if t.type.pixels == worked and t.text not in "·="]
    assert numbers == ["2", "1", "1", "0", "1", "2", "2", "4"]  # x, W column by column, x·W = [2, 4]
    for j, s in enumerate(m.sums):  # each output's sum, weight × input: 1×2 + 0×1 = 2, 1×2 + 2×1 = 4
        assert [t.text for t in drawing.texts if t.text.endswith(s)] == [tr("output {0} = {1}").format(j + 1, s), s]
    assert "1×2 + 0×1 = 2" in m.sums and "1×2 + 2×1 = 4" in m.sums
    # The shapes under x, W and x·W, in that order, with · and = between them: 1 × 2 · 2 × 2 = 1 × 2.
    (middle,) = find(view, "2 × 2")
    shapes = sorted((t for t in drawing.texts if abs(t.rect.center().y() - middle.rect.center().y()) < 5),
                    key=lambda t: t.rect.left())
    assert [t.text for t in shapes] == ["1 × 2", "·", "2 × 2", "=", "1 × 2"]
    under = min(t.rect.top() for t in shapes)
    assert under > max(t.rect.bottom() for t in drawing.texts if t.type.pixels == worked)
    assert tr("input") in [t.text for t in drawing.texts] and tr("matrix") in [t.text for t in drawing.texts]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_w_q_w_k_w_v_give_q_k_v_with_their_subscripts_set_as_subscripts(qtbot, lang):
    _, view = presented(qtbot, "linear", lang)
    drawn = [t.text for t in texts(view)]
    assert not [t for t in drawn if "_" in unmarked(t)]  # never "W_q" raw
    for name, m in qkv_maps().items():
        (label,) = find(view, f"W_{name}")
        assert pieces(label.text) == [("W", False), (name, True)]
        assert LEAST_PIXELS <= px(label.type.sub) < px(label.type.main)  # smaller, and still read from the back
        assert name in drawn
        for s in m.sums:
            assert s in drawn
    q, k, v = (tuple(m.product.ravel()) for m in qkv_maps().values())
    assert len({q, k, v}) == 3


def test_presented_subscripts_stay_20_px_even_under_the_least_type(qtbot):
    """At the least presented type (24 px) a subscript at 0.72 of it would be 17 px: it is kept at 20."""
    _, view = presented(qtbot, "linear", "en")
    t = view.canvas.type(24)
    assert px(t.main) == 24 and px(t.sub) == LEAST_PIXELS
    view.set_presentation(False)
    assert px(view.canvas.type(24).sub) == 17  # on the desk, a subscript is the usual share of its line


def test_each_outputs_number_and_sum_are_in_the_colour_of_the_column_of_w_that_makes_it(qtbot):
    _, view = presented(qtbot, "linear", "en")
    colours = view.colours()
    drawing = view.canvas.drawing()
    worked = max(t.type.pixels for t in drawing.texts)
    product = [t for t in drawing.texts if t.type.pixels == worked and t.text in ("2", "4")][-2:]
    assert [t.colour for t in product] == colours
    for j, s in enumerate(linear_map().sums):
        assert find(view, tr("output {0} = {1}").format(j + 1, s))[0].colour == colours[j]
    tints = [s for s in drawing.shapes if s.colour is not None and not s.bracket]
    assert {s.colour.rgb() for s in tints} == {c.rgb() for c in colours}  # W's two columns, tinted (rgb: no alpha)


def test_the_painted_type_is_as_tall_as_its_font_says(qtbot):
    """In the rendered pixels: the smallest digits (the q, k, v sums) have the ink of type of 20 px or more."""
    _, view = presented(qtbot, "linear", "ja")
    image = view.canvas.grab().toImage()
    scale = image.height() / view.canvas.height()
    smallest = min(t.type.pixels for t in texts(view))
    assert smallest >= LEAST_PIXELS
    sums = find(view, qkv_maps()["k"].sums[1])[0]  # "1×2 + 1×1 = 3": digits, no descenders
    r = sums.rect
    ink = ink_rows(image, QRectF(r.left() * scale, r.top() * scale, r.width() * scale, r.height() * scale)) / scale
    assert ink >= 0.65 * sums.type.pixels >= 0.65 * LEAST_PIXELS  # a digit's height is ~0.73 of its type


# ---------------------------------------------------------------- softmax in three places

def panels(view) -> list[list[list]]:
    """The texts of each of the three panels (by thirds of the width), as rows from the top, each row's
    texts from the left."""
    third = view.canvas.width() / 3
    out = [[], [], []]
    for t in sorted(texts(view), key=lambda t: (t.rect.center().y(), t.rect.left())):
        rows = out[min(2, int(t.rect.center().x() // third))]
        if rows and abs(rows[-1][0].rect.center().y() - t.rect.center().y()) < 0.3 * t.type.line:
            rows[-1].append(t)
        else:
            rows.append([t])
    return [[sorted(r, key=lambda t: t.rect.left()) for r in rows] for rows in out]


def rows_of(panel, labels) -> list[list[str]]:
    """The rows of a panel that start with one of `labels`, as their texts."""
    return [[t.text for t in r] for r in panel if r[0].text in labels and len(r) > 1]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_softmax_in_three_places_draws_cores_numbers_readably_with_nothing_overlapping(qtbot, lang):
    w, view = presented(qtbot, "softmax-places", lang)
    d = w.document
    drawing = view.canvas.drawing()
    assert layout_problems(view.canvas, [s for s in drawing.shapes]) == [] and unreadable(view) == []
    attention, next_token, temperature = panels(view)
    # 1. The selected query's scores → weights in the active head: それ (It) → 魚 (fish) 0.68, in bold.
    trace = d.result.heads[d.active_head]
    visible = np.isfinite(trace.masked[d.query])
    expected = [[tok, fmt(x, 2), fmt(p, 2, fixed=True)] for tok, x, p, seen in
                zip(d.scenario.tokens, trace.masked[d.query], trace.weights[d.query], visible) if seen]
    assert rows_of(attention, d.scenario.tokens) == expected
    fish = {"ja": "魚", "en": "fish"}[lang]
    top = [r for r in attention if r[0].text == fish][0]
    assert top[-1].text == "0.68" and top[-1].type.main.bold() and top[0].type.main.bold()
    # 2. The example's logits → probabilities, its words in the interface's language.
    example = next_token_example()
    words = [tr(label) for label in example.labels]
    assert words[0] == {"ja": "食べた", "en": "ate"}[lang]
    assert rows_of(next_token, words) == [[tr(a), fmt(z, 2), fmt(p, 2, fixed=True)]
                                          for a, z, p in zip(example.labels, example.inputs, example.outputs)]
    # 3. The same logits ÷ T for T = 0.5, 1, 2, each under its heading.
    assert rows_of(temperature, words) == [[tr(a), fmt(z, 2), fmt(p, 2, fixed=True)]
                                           for _, e in temperature_examples()
                                           for a, z, p in zip(e.labels, e.inputs, e.outputs)]
    assert "p = softmax(z / T)" in [t.text for r in temperature for t in r]


def test_a_low_temperatures_bars_are_sharper_than_a_high_ones_and_every_bar_is_its_number(qtbot):
    _, view = presented(qtbot, "softmax-places", "en")
    shapes = view.canvas.drawing().shapes
    tracks = [s.rect for s in shapes if s.colour is None]
    fills = [s.rect for s in shapes if s.colour is not None]
    assert len(tracks) == len(fills) == 7 + 4 + 12  # seed-demo's It sees 7 keys; 4 candidates; 3 × 4
    shares = [f.width() / t.width() for f, t in zip(fills, tracks)]
    examples = [e for _, e in temperature_examples()]
    expected = np.concatenate([next_token_example().outputs, *(e.outputs for e in examples)])
    least = [1 / t.width() for t in tracks[7:]]  # a bar is at least a pixel wide: 0.0003 is still seen
    np.testing.assert_allclose(shares[7:], np.maximum(expected, least), atol=1e-6)
    sharp, flat = shares[11:15], shares[19:23]  # T = 0.5, T = 2
    assert max(sharp) > 0.9 > 0.6 > max(flat) and min(sharp) < min(flat)


def test_the_first_panel_follows_the_query_and_the_head(qtbot):
    w, view = presented(qtbot, "softmax-places", "en")
    d = w.document
    d.select(query=0)
    QApplication.processEvents()
    first = fmt(d.result.heads[0].masked[0][0], 2)
    assert rows_of(panels(view)[0], d.scenario.tokens) == [["The", first, "1.00"]]  # it sees only itself
    d.select(head=1, query=4)
    QApplication.processEvents()
    trace = d.result.heads[1]
    assert rows_of(panels(view)[0], d.scenario.tokens)[-1] == ["fish", fmt(trace.masked[4][4], 2),
                                                               fmt(trace.weights[4][4], 2, fixed=True)]
    assert view.caption.endswith("(1: previous-token head)")


def test_a_long_row_shows_its_largest_weights_and_says_how_many_more(qtbot):
    """taro-hanako without the mask: 13 keys, of which the 9 largest are drawn and the rest counted."""
    w, view = presented(qtbot, "softmax-places", "ja", preset="taro-hanako")
    d = w.document
    s = d.scenario
    d.replace(make_scenario(s.tokens, s.heads, replace(s.settings, causal=False), focus=s.focus), None)
    QApplication.processEvents()
    assert layout_problems(view.canvas) == []
    shown = rows_of(panels(view)[0], d.scenario.tokens)
    assert len(d.scenario.tokens) == 13 and len(shown) == 9
    assert any(t.text.startswith("ほかに 4 個のキー") for t in texts(view))


def test_a_file_of_weights_only_says_there_are_no_scores_and_still_shows_the_other_two(qtbot):
    w, view = presented(qtbot, "softmax-places", "en")
    n = 2
    heads = [make_head("head 0", *(np.zeros((n, 0)),) * 3)]
    w.document.replace(make_scenario(["a", "b"], heads, given=np.array([[[1.0, 0.0], [0.25, 0.75]]])), None)
    QApplication.processEvents()
    drawn = [t.text for t in texts(view)]
    assert any("weights only" in t for t in drawn) and "ate" in drawn and layout_problems(view.canvas) == []


# ---------------------------------------------------------------- a lesson's scenes name them

LESSON = """{"format": "attnviz-lesson", "version": 1, "id": "two-views",
 "title": {"ja": "線形変換と softmax", "en": "x·W and softmax"},
 "scenes": [
  {"scenario": {"preset": "toy-3token"}, "view": "linear",
   "caption": {"ja": "ベクトルに行列を掛ける", "en": "A vector times a matrix"}},
  {"scenario": {"preset": "seed-demo"}, "view": "softmax-places", "head": 1,
   "caption": {"ja": "softmax の 3 か所", "en": "Softmax in three places"}}]}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_lessons_scenes_show_the_two_views_filling_the_screen_below_the_caption(qtbot, lang):
    from attnviz.core.lessons import loads
    from attnviz.gui import MainWindow
    from attnviz.gui.common.i18n import install_language
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    assert w.lessons.open(loads(LESSON), 0)
    for _ in range(3):
        QApplication.processEvents()
    linear = w.parts.maths.tab_view("linear")
    assert w.classroom.presented_view == "linear" and linear.presenting and linear.canvas.isVisible()
    assert layout_problems(linear.canvas) == [] and "1×2 + 2×1 = 4" in [t.text for t in texts(linear)]
    w.lessons.go(1)
    for _ in range(3):
        QApplication.processEvents()
    places = w.parts.maths.tab_view("softmax-places")
    assert w.classroom.presented_view == "softmax-places" and places.canvas.isVisible()
    assert w.document.active_head == 1 and layout_problems(places.canvas) == []
    assert places.canvas.height() >= 0.6 * 1080 and places.canvas.width() >= 0.9 * 1920
