"""Two scenarios side by side (seed 003's word orders, the はし pair), with B − A."""
import threading
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attnviz.cli import main
from attnviz.core import compute, load_preset
from attnviz.core.scenario import with_projection_options
from attnviz.gui.compare.dialog import CompareDialog, CompareFigure


def rope_pair():
    return tuple(with_projection_options(load_preset(p), positions="rope")
                 for p in ("position-nekoga", "position-suwatta"))


def test_the_difference_map_is_b_minus_a_word_by_word_for_every_head():
    a, b = rope_pair()
    figure = CompareFigure(a, b)
    order = [b.tokens.index(t) for t in a.tokens]  # B's place of each of A's words
    expected = [wb[np.ix_(order, order)] - wa for wa, wb in zip(compute(a).weights(), compute(b).weights())]
    assert len(figure.differences()) == len(a.heads) and figure.kinds() == 3
    for got, want in zip(figure.differences(), expected):
        np.testing.assert_allclose(got, want, atol=1e-15)
    assert figure.reach == max(float(np.abs(d).max()) for d in expected) > 0.2
    assert "A's word order" in figure.verdict() and "±0.30" in figure.verdict()


def test_the_word_orders_without_positions_are_the_same_weights_reordered():
    figure = CompareFigure(load_preset("position-nekoga"), load_preset("position-suwatta"))
    assert figure.same() and max(float(np.abs(d).max()) for d in figure.differences()) == 0
    assert figure.verdict() == "B − A is 0 everywhere: the same weights, reordered."
    assert not CompareFigure(*rope_pair()).same()


def test_different_words_are_shown_side_by_side_and_the_caption_says_why():
    figure = CompareFigure(load_preset("hashi-chopsticks"), load_preset("hashi-bridge"))
    assert figure.differences() == [] and figure.kinds() == 2 and len(figure.column_titles()) == 2
    assert "different words" in figure.verdict() and "ご飯" in figure.verdict() and "川" in figure.verdict()


def test_scenarios_of_different_lengths_are_shown_side_by_side_without_a_difference():
    figure = CompareFigure(load_preset("seed-demo"), load_preset("toy-3token"))
    assert figure.differences() == [] and figure.kinds() == 2
    assert "A has 10 tokens, B has 3" in figure.caption_text()


def test_two_layers_of_one_model_keep_their_difference_cell_by_cell(tmp_path):
    from attnviz.core.io import load_scenario
    rng = np.random.default_rng(3)
    w = np.tril(rng.random((2, 1, 4, 4)) + 0.1)
    np.savez(tmp_path / "m.npz", tokens=np.array(list("abca")), weights=w / w.sum(-1, keepdims=True))
    a, b = load_scenario(str(tmp_path / "m.npz"), 0), load_scenario(str(tmp_path / "m.npz"), 1)
    figure = CompareFigure(a, b)
    np.testing.assert_allclose(figure.differences()[0], compute(b).weights()[0] - compute(a).weights()[0])
    assert "word order" not in figure.verdict() and "word order" not in figure.column_titles()[2]


def test_the_colour_word_names_the_colour_of_a_gain():
    """The top of the difference map is a dark ochre, not yellow: the words say brown (黄土色)."""
    from attnviz.gui.common.i18n import install_language
    from attnviz.gui.look import colormaps
    r, g, b = (int(c) for c in colormaps.get("difference").lut[255])
    assert r > g > b and b < 60 and 0.299 * r + 0.587 * g + 0.114 * b < 170  # darker than any yellow
    figure = CompareFigure(*rope_pair())
    assert "brown gained it" in figure.column_titles()[2] and "yellow" not in figure.column_titles()[2]
    install_language("ja")
    assert "黄土色は増えた" in figure.column_titles()[2] and "黄は" not in figure.column_titles()[2]


def test_the_two_word_orders_are_one_click_from_the_help_menu(window, qtbot):
    window.menus.compare_orders_action.trigger()
    dialog = window.compare.dialog
    assert isinstance(dialog, CompareDialog) and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.figure is not None)
    # in the window's language (English here): the English versions of the pair
    assert dialog.figure.a.tokens == ("dog", "bites", "man") and dialog.figure.b.tokens == ("man", "bites", "dog")
    assert window.document.scenario.tokens == ("dog", "bites", "man")  # A is opened in the window too
    # the story: without positions B's weights are A's with rows and columns reordered
    order = [dialog.figure.b.tokens.index(t) for t in dialog.figure.a.tokens]
    wa, wb = dialog.figure.results[0].weights()[0], dialog.figure.results[1].weights()[0]
    np.testing.assert_allclose(wb[np.ix_(order, order)], wa, atol=1e-12)
    window.menus.compare_hashi_action.trigger()
    qtbot.waitUntil(lambda: window.compare.dialog.figure is not None)
    assert window.compare.dialog.figure.b.tokens == ("We", "fished", "from", "the", "river", "bank")


def svg_text(path):
    return "".join(t.text or "" for t in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}text"))


def test_export_compare_writes_both_scenarios_and_says_why_there_is_no_difference(tmp_path):
    assert main(["export", "hashi-chopsticks", "--compare", "hashi-bridge", "--lang", "en",
                 "-o", str(tmp_path / "pair.svg")]) == 0
    text = svg_text(tmp_path / "pair.svg")
    assert "A:" in text and "B:" in text and "money" in text and "river" in text  # the English "bank" pair
    assert "No B − A" in text and "different words" in text and "gained it" not in text
    assert main(["export", "position-nekoga", "--compare", "position-suwatta", "--lang", "ja",
                 "-o", str(tmp_path / "order.svg")]) == 0
    assert "同じ重みが並べ替わっているだけです" in svg_text(tmp_path / "order.svg")
    assert main(["export", "seed-demo", "--compare", "toy-3token", "--step", "-o", str(tmp_path / "x.png")]) == 2
    assert main(["export", "seed-demo", "--compare", "toy-3token", "-o", str(tmp_path / "x.csv")]) == 2
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "x.csv").exists()


def test_comparing_with_a_broken_file_says_why_in_the_interfaces_language_and_opens_nothing(window, tmp_path,
                                                                                              monkeypatch, qtbot):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from attnviz.gui.common.i18n import install_language
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "attnviz-scenario", "version": 1, "tok', encoding="utf-8")
    install_language("ja")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    window.compare.compare_with_file()
    qtbot.waitUntil(lambda: len(shown) > 0)  # read off the GUI thread
    assert len(shown) == 1 and "JSON が 1 行目" in shown[0] and window.compare.dialog is None
    assert not [d for d in window.findChildren(CompareDialog) if d.isVisible()]


# ---------------------------------------------------------------- built off the window's thread

@pytest.fixture
def layered(qtbot, tmp_path):
    """A window on layer 0 of a model's file of 2 layers, and the file."""
    from attnviz.gui import MainWindow
    rng = np.random.default_rng(1)
    w = np.tril(rng.random((2, 2, 6, 6)) + 0.1)
    path = tmp_path / "model.npz"
    np.savez(path, tokens=np.array(list("abcdef")), weights=(w / w.sum(-1, keepdims=True)).astype(np.float32))
    window = MainWindow(str(path))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    return window, path


@pytest.fixture
def gated(monkeypatch):
    """compute() in the comparison waits for the test's word, noting the thread it runs on."""
    from attnviz.gui.compare import dialog as compare
    gate, threads, real = threading.Event(), [], compare.compute

    def compute(s):
        threads.append(threading.current_thread())
        assert gate.wait(30)
        return real(s)
    monkeypatch.setattr(compare, "compute", compute)
    return gate, threads


def test_comparisons_are_built_off_the_windows_thread_which_keeps_answering(layered, gated, qtbot, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QFileDialog
    window, path = layered
    gate, threads = gated
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    for start in (lambda: window.compare.compare_layer(1), window.compare.compare_with_file,
                  window.menus.compare_orders_action.trigger):
        start()
        dialog = window.compare.dialog
        ticks = []
        timer = QTimer(interval=5, timeout=lambda ticks=ticks: ticks.append(1))
        timer.start()
        qtbot.waitUntil(lambda ticks=ticks: len(ticks) >= 3)  # the window's event loop turns while A and B are computed
        assert dialog.figure is None and dialog.progress.isVisible() and dialog.cancel_button.isVisible()
        gate.set()
        qtbot.waitUntil(lambda dialog=dialog: dialog.figure is not None, timeout=10000)
        gate.clear()
        timer.stop()
        qtbot.waitUntil(dialog.canvas.isVisible)
        assert not dialog.progress.isVisible()
    assert len(threads) == 6 and threading.main_thread() not in threads
    assert window.compare.dialog.figure.b.tokens == ("man", "bites", "dog")  # the window's language: English


def test_a_comparison_can_be_cancelled_while_it_is_built(layered, gated, qtbot):
    window, _ = layered
    gate, threads = gated
    window.compare.compare_layer(1)
    dialog = window.compare.dialog
    qtbot.waitUntil(lambda: len(threads) == 1)  # computing A
    work = dialog.future
    dialog.cancel_button.click()
    assert not dialog.isVisible() and window.compare.dialog is None
    gate.set()  # A is done: the worker stops at its next step, before B
    qtbot.waitUntil(work.done)
    assert len(threads) == 1 and work.exception() is None and window.compare.dialog is None


def test_the_same_words_not_as_often_each_are_not_subtracted_and_say_so():
    from attnviz.core.scenario import make_head, make_scenario

    def scenario(tokens):
        x = np.eye(3)
        return make_scenario(tokens, [make_head("h", x, x, x)])
    figure = CompareFigure(scenario(["猫", "猫", "が"]), scenario(["猫", "が", "が"]))
    assert figure.kinds() == 2 and "not as often each" in figure.verdict()
