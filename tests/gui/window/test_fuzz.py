"""Thousands of random actions, valid and invalid, with a fixed seed: after every one, each
panel draws exactly what the core computes, nothing is NaN, and no exception escapes."""
import random

import numpy as np
from PySide6.QtWidgets import QApplication, QMessageBox, QTableView, QWidget

from attnviz.core import compute, list_presets
from attnviz.gui.steps.table import WEIGHT

ACTIONS = 3000
SEED = 20261129
GARBAGE = ["abc", "", "nan", "inf", "-inf", "1e400", "-", "１e９", "２.５", "－１", "0x1F", "1,5", " ", "🐱",
           "1e6", "-1e6", "1e-300", "3.14159", "−2"]
NAMES = ["猫", "犬", "", "  ", "🐟", "a" * 41, "を", "token"]


def check(window):
    """After the event loop has run, what each view holds to draw (not rebuilt on asking)
    equals the core's numbers."""
    s = window.document.scenario
    d = window.document
    result = compute(s)
    assert len(window.parts.heads.panels) == len(s.heads)
    for i, (panel, trace) in enumerate(zip(window.parts.heads.panels, result.heads)):
        held = panel._data.weights  # the picture the panel paints, as the redraw logic left it
        np.testing.assert_array_equal(held, trace.weights)
        assert np.all(np.isfinite(held))
        before_masking = i == d.active_head and d.stage in (1, 2)  # guided steps: no mask drawn yet
        if not before_masking:
            np.testing.assert_array_equal(panel._data.masked, np.isneginf(trace.masked))
    for matrix in "qkv":
        assert window.findChild(QTableView, f"{matrix}Table").model().rowCount() == s.n
    step = window.findChild(QTableView, "stepTable").model()
    assert step.rowCount() == s.n + 1  # the keys and Σ
    shown = [step.data(step.index(j, WEIGHT)) for j in range(s.n)]
    expected = result.heads[d.active_head].weights[d.query]
    assert all(abs(float(text) - w) <= 5e-4 for text, w in zip(shown, expected)), \
        (shown, expected.tolist(), d.active_head, d.query)


class User:
    """A user doing random things to the window: each method one kind of action, drawn by weight."""

    def __init__(self, window, rng: random.Random):
        self.window, self.rng, self.d = window, rng, window.document
        self.presets = [p.id for p in list_presets() if p.id != "gpt2-small-shape"] * 3 + ["gpt2-small-shape"]

    def actions(self) -> list:
        w, rng, d = self.window, self.rng, self.d
        return [
            (20, lambda: self.cell_edit(f"{rng.uniform(-10, 10):.3g}")),
            (10, lambda: self.cell_edit(rng.choice(GARBAGE))),
            (8, lambda: w.menus.undo_action.trigger()),
            (5, lambda: w.menus.redo_action.trigger()),
            (4, lambda: w.findChild(QWidget, "causalToggle").click()),
            (3, lambda: w.findChild(QWidget, "scaleToggle").click()),
            (6, lambda: self.slider("temperatureSlider")),
            (6, lambda: self.slider(f"qSlider{rng.randrange(4)}")),
            (6, lambda: d.select(head=rng.randrange(len(d.scenario.heads)))),
            (6, lambda: d.select(query=rng.randrange(d.scenario.n))),
            (6, self.tokens),
            (4, lambda: w.classroom.next_step()),
            (3, self.masks),
            (1, lambda: w.files.open_scenario(rng.choice(self.presets))),
        ]

    def cell_edit(self, text):
        m = self.window.findChild(QTableView, f"{self.rng.choice('qkv')}Table").model()
        if m.rowCount() and m.columnCount():
            m.setData(m.index(self.rng.randrange(m.rowCount()), self.rng.randrange(m.columnCount())), text)

    def slider(self, name):
        widget = self.window.findChild(QWidget, name)
        if widget is not None and not widget.isHidden():
            widget.setSliderDown(self.rng.random() < 0.5)
            for _ in range(self.rng.randint(1, 4)):
                widget.setValue(self.rng.randint(widget.minimum(), widget.maximum()))
            widget.setSliderDown(False)

    def tokens(self):
        n, choice, rng = self.d.scenario.n, self.rng.random(), self.rng
        if choice < 0.4 and n < 16:
            self.window.tokens.insert(rng.randint(0, n), rng.choice(NAMES))
        elif choice < 0.8:
            self.window.tokens.remove(rng.randrange(n))
        else:
            self.window.tokens.rename(rng.randrange(n), rng.choice(NAMES))

    def masks(self):
        kinds = ("none", "causal", "window", "prefix", "padding", "custom")
        rng = self.rng
        box = self.window.findChild(QWidget, "maskSelector")
        if rng.random() < 0.5:
            box.setCurrentIndex(rng.randrange(len(kinds)))
            box.activated.emit(box.currentIndex())
            self.window.findChild(QWidget, "maskSize").setValue(rng.randint(1, 6))
        else:  # Shift+click a cell: paints a painted mask, pads a token, or is refused
            panels = self.window.parts.heads.panels
            n = self.d.scenario.n
            panels[rng.randrange(len(panels))]._paint_mask(rng.randrange(n), rng.randrange(n))


def test_random_actions_never_break_the_window(qtbot, monkeypatch):
    from attnviz.gui import MainWindow
    # Not shown: painting every one of 3,000 steps would make this test minutes long;
    # window.grab() below paints it all every 200 steps instead.
    window = MainWindow("seed-demo")
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    monkeypatch.setattr(window.files, "ask_unsaved", lambda: QMessageBox.Discard)
    rng = random.Random(SEED)
    d = window.document
    actions = User(window, rng).actions()
    weights = [w for w, _ in actions]
    changes, refusals = [], []
    d.changed.connect(lambda: changes.append(1))
    message = window.findChild(QWidget, "messageLabel")
    for step in range(ACTIONS):
        message.clear()
        rng.choices([a for _, a in actions], weights)[0]()
        QApplication.processEvents()  # as the event loop would, between two user actions
        check(window)
        if message.text():
            refusals.append(message.text())
        if step % 200 == 0:
            window.grab()  # paint everything now and then: drawing must not fail either
    # The run really edited and really was refused: it cannot pass by doing nothing.
    assert len(changes) > ACTIONS // 3 and len(refusals) > ACTIONS // 20
