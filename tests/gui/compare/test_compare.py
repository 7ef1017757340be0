"""Two scenarios side by side (seed 003's word orders, the はし pair), with B − A."""
import threading
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attnviz.cli import main
from attnviz.core import compute, load_preset
from attnviz.gui.compare.dialog import CompareDialog, CompareFigure


def test_the_difference_map_is_b_minus_a_from_the_core_for_every_head():
    a, b = load_preset("hashi-chopsticks"), load_preset("hashi-bridge")
    figure = CompareFigure(a, b)
    expected = [wb - wa for wa, wb in zip(compute(a).weights(), compute(b).weights())]
    assert len(figure.differences()) == len(a.heads)
    for got, want in zip(figure.differences(), expected):
        np.testing.assert_array_equal(got, want)
    assert figure.reach == max(float(np.abs(d).max()) for d in expected)


def test_scenarios_of_different_lengths_are_shown_side_by_side_without_a_difference():
    figure = CompareFigure(load_preset("seed-demo"), load_preset("toy-3token"))
    assert figure.differences() == [] and figure.kinds() == 2
    assert "10" in figure.caption_text() and "3" in figure.caption_text()


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


def test_export_compare_writes_both_scenarios_and_their_difference(tmp_path):
    assert main(["export", "hashi-chopsticks", "--compare", "hashi-bridge", "--lang", "en",
                 "-o", str(tmp_path / "pair.svg")]) == 0
    text = "".join(t.text or "" for t in ET.parse(tmp_path / "pair.svg").getroot().iter("{http://www.w3.org/2000/svg}text"))
    assert "A:" in text and "B:" in text and "B − A" in text
    assert "ご飯" in text and "川" in text
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
