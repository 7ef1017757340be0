"""Research → Steer the model…: a direction added to the residual stream of the real model shown
(activation addition), made from two prompts or loaded from a .npy file, weighted by a slider α, at a
layer and a span of positions. Each change runs the model off the GUI thread (core/research/steer.py,
core.lm.run with its Steer) and puts the steered run in the window: the next-token panel shows before
→ after, the heads of the layer shown follow, Undo takes it back and a saved session keeps it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSlider,
    QSpinBox,
)

from ...core import lm
from ...core.numbers import MAX_ABS
from ...core.research import steer as steering
from ...core.scenario import ScenarioError, Steer
from ..common.background import BackgroundDialog
from ..common.i18n import Retranslated, describe, tr

PLUS, MINUS, ALPHA, LAYER = " love", " hate", 4.0, 6  # Turner et al.'s first example; SmolLM2 follows it at layer 6
SLIDER_STEP = 0.5  # α on the slider, from -SLIDER_STEPS·step to +; the box beside it takes any α


@dataclass(frozen=True)
class Asked:
    """What the panel asks for: where and how much, and the direction (given, or made from two prompts)."""

    layer: int
    alpha: float
    start: int
    stop: int | None
    direction: np.ndarray | None  # None: made from plus − minus at `layer`
    plus: str = ""
    minus: str = ""


class SteerDialog(Retranslated, BackgroundDialog):
    """`steered(live, steer or None, run)` when a steered (or unsteered) run of `live` is ready."""

    steered = Signal(object, object, object)

    def __init__(self, runner, parent=None):
        super().__init__(parent)
        self.setWindowFlag(Qt.Window)
        self.setObjectName("steer")
        self.runner = runner
        self.live = None        # the live scenario the controls are for
        self.tokens = ()
        self.loaded = None      # (file name, direction) from a .npy
        self.made = {}          # (model, plus, minus, layer) -> direction, made once
        self.model = None       # the model the loaded direction is for
        self._build()
        self.cancel_button.clicked.disconnect()
        self.cancel_button.clicked.connect(self.stop_work)
        self.progress.hide()
        self.cancel_button.hide()
        self.retranslate()

    def _build(self) -> None:
        form = QFormLayout()
        self.intro = QLabel(objectName="steerIntro", wordWrap=True)
        self.layer = QSpinBox(objectName="steerLayer")
        self.from_prompts = QRadioButton(objectName="steerFromPrompts", checked=True)
        self.plus, self.minus = QLineEdit(PLUS, objectName="steerPlus"), QLineEdit(MINUS, objectName="steerMinus")
        self.from_file = QRadioButton(objectName="steerFromFile")
        self.load_button = QPushButton(objectName="steerLoad", clicked=self.load)
        self.alpha_slider = QSlider(Qt.Horizontal, objectName="steerAlphaSlider", minimum=-40, maximum=40,
                                    tracking=False, tickPosition=QSlider.TicksBelow, tickInterval=8)
        self.alpha = QDoubleSpinBox(objectName="steerAlpha", decimals=4, minimum=-MAX_ABS, maximum=MAX_ABS,
                                    singleStep=SLIDER_STEP, value=ALPHA, keyboardTracking=False)
        self.start_token, self.stop_token = QComboBox(objectName="steerFrom"), QComboBox(objectName="steerTo")
        self.apply_button = QPushButton(objectName="steerApply", clicked=self.apply, default=True)
        self.remove_button = QPushButton(objectName="steerRemove", clicked=self.remove)
        self.said = QLabel(objectName="steerSaid", wordWrap=True, textInteractionFlags=Qt.TextSelectableByMouse)
        self.layout_.insertWidget(0, self.intro)
        self.layout_.insertLayout(1, form)
        self.layout_.insertWidget(2, self.said)
        prompts, file, alpha, span, buttons = (QHBoxLayout() for _ in range(5))
        for row, widgets in ((prompts, (self.from_prompts, self.plus, QLabel("−"), self.minus)),
                             (file, (self.from_file, self.load_button)), (alpha, (self.alpha_slider, self.alpha)),
                             (span, (self.start_token, QLabel("–"), self.stop_token)),
                             (buttons, (self.apply_button, self.remove_button))):
            for widget in widgets:
                row.addWidget(widget, 1 if isinstance(widget, (QLineEdit, QSlider, QComboBox)) else 0)
        for name, row in (("Layer", self.layer), ("Direction", prompts), ("", file), ("Alpha", alpha),
                          ("Positions", span), ("", buttons)):
            form.addRow(QLabel(objectName=f"steer{name}Label"), row)
        self.alpha_slider.valueChanged.connect(lambda step: self.alpha.setValue(step * SLIDER_STEP))
        self.alpha.valueChanged.connect(self._alpha_changed)
        for widget in (self.layer, self.start_token, self.stop_token):
            (widget.valueChanged if isinstance(widget, QSpinBox) else widget.activated).connect(self._moved)
        self.resize(760, 420)

    # ------------------------------------------------------------- what it steers

    def follow(self, live, tokens) -> None:
        """The window shows `live` (None: no real model): the controls fit its layers and tokens, and
        say its steer when it has one."""
        self.live = live
        if live is not None and live.model is not self.model:  # another model: a direction loaded is not its
            self.model, self.loaded = live.model, None
            self.from_prompts.setChecked(True)
        usable = live is not None
        for widget in (self.layer, self.plus, self.minus, self.from_prompts, self.from_file, self.load_button,
                       self.alpha_slider, self.alpha, self.start_token, self.stop_token, self.apply_button):
            widget.setEnabled(usable)
        if self.remove_button.hasFocus() and not (usable and live.steer is not None):
            self.apply_button.setFocus()  # not the next field, whose own Ctrl+Z would undo its typing, not the steer
        self.remove_button.setEnabled(usable and live.steer is not None)
        if not usable:
            self.said.setText(tr("Steering works on a real model's text: open one with File → Real model… "
                                 "(Ctrl+M), then come back here."))
            return
        self._fit(live, tokens)
        self.said.setText(self._saying(live.steer))

    def _fit(self, live, tokens) -> None:
        self.layer.blockSignals(True)
        self.layer.setRange(0, live.model.config.n_layers - 1)
        if live.steer is not None:
            self.layer.setValue(live.steer.layer)
        elif self.layer.value() == 0 and not self.tokens:
            self.layer.setValue(min(LAYER, live.model.config.n_layers - 1))
        self.layer.blockSignals(False)
        if tuple(tokens) != self.tokens:
            self.tokens = tuple(tokens)
            for box, chosen in ((self.start_token, 0), (self.stop_token, len(tokens) - 1)):
                box.clear()
                box.addItems([f"{i}: {token}" for i, token in enumerate(tokens)])
                box.setCurrentIndex(chosen)
        if live.steer is not None:
            self._show_steer(live.steer)

    def _show_steer(self, steer: Steer) -> None:
        """The controls as the steer in use has them: its own direction (a session's, an undo's) kept as if
        loaded, unless it is the one the panel made or loaded."""
        own = self.loaded is not None and self.loaded[1] is steer.direction or \
            any(made is steer.direction for made in self.made.values())
        if not own:
            self.loaded = (tr("the direction in use"), steer.direction)
            self.from_file.setChecked(True)
        self.start_token.setCurrentIndex(steer.start)
        self.stop_token.setCurrentIndex(len(self.tokens) - 1 if steer.stop is None else steer.stop - 1)
        self.alpha.blockSignals(True)
        self.alpha.setValue(steer.alpha)
        self.alpha.blockSignals(False)
        self._slider_at(steer.alpha)

    def _saying(self, steer: Steer | None) -> str:
        if steer is None:
            return tr("Not steered. Choose a direction and α, then Steer: the next-token panel shows before → after.")
        return tr("Steered: {0:+g} × a direction of length {1:.1f} added to the stream entering layer {2}, at tokens "
                  "{3} to {4}. Undo (Ctrl+Z) takes it back; a saved session keeps it.").format(
            steer.alpha, float(np.linalg.norm(steer.direction)), steer.layer, steer.start,
            len(self.tokens) - 1 if steer.stop is None else steer.stop - 1)

    # ------------------------------------------------------------- asking

    def asked(self) -> Asked:
        """The controls as a request; refused in one line when they cannot make one."""
        start, last = self.start_token.currentIndex(), self.stop_token.currentIndex()
        if last < start:
            raise lm.ModelError(tr("the last token steered comes before the first: choose them in order"))
        stop = None if last == len(self.tokens) - 1 else last + 1
        alpha = self.alpha.value()
        steer = self.live.steer if self.live is not None else None
        if steer is not None and round(steer.alpha, self.alpha.decimals()) == alpha:
            alpha = steer.alpha  # the box shows it rounded; the steer's own α goes on
        if self.from_file.isChecked():
            if self.loaded is None:
                raise lm.ModelError(tr("load a direction from a .npy file first"))
            return Asked(self.layer.value(), alpha, start, stop, self.loaded[1])
        plus, minus = self.plus.text(), self.minus.text()
        for text in (plus, minus):
            lm.check_text(text)
        made = self.made.get((self.live.model, plus, minus, self.layer.value()))
        return Asked(self.layer.value(), alpha, start, stop, made, plus, minus)

    def apply(self) -> None:
        if self.live is None:
            return
        try:
            asked = self.asked()
        except ScenarioError as e:
            self.said.setText(describe(e))
            return
        self.start(self._run_steered, self.live, asked, self._after(self.live))

    def remove(self) -> None:
        if self.live is not None and self.live.steer is not None:
            self.start(self._run_steered, self.live, None, self._after(self.live))

    def _after(self, live):
        """The run to start from: the layers below the steer's are not computed again."""
        latest = self.runner.latest
        return latest if latest is not None and latest.ids == live.ids else None

    def _alpha_changed(self, alpha: float) -> None:
        self._slider_at(alpha)
        self.apply()

    def _slider_at(self, alpha: float) -> None:
        self.alpha_slider.blockSignals(True)
        self.alpha_slider.setValue(round(alpha / SLIDER_STEP))
        self.alpha_slider.blockSignals(False)

    def _moved(self, *_) -> None:
        """Another layer or span moves a steer that is on; before one is, Steer applies them."""
        if self.live is not None and self.live.steer is not None:
            self.apply()

    def load(self) -> None:
        if self.live is None:
            return
        path, _ = QFileDialog.getOpenFileName(self, tr("A direction"), "", tr("NumPy arrays (*.npy)"))
        if not path:
            return
        try:
            self.loaded = (path, steering.load_direction(path, self.live.model.config.d))
        except ScenarioError as e:
            self.said.setText(describe(e))
            return
        self.from_file.setChecked(True)
        self.load_button.setToolTip(path)
        self.said.setText(tr("Loaded a direction of length {0:.1f}: Steer adds it.").format(
            float(np.linalg.norm(self.loaded[1]))))

    # ------------------------------------------------------------- off the GUI thread

    def _run_steered(self, step, live, asked: Asked | None, after):
        cancelled = self._stop.is_set
        step(0, 2)
        steer = None
        if asked is not None:
            direction = asked.direction if asked.direction is not None else steering.direction(
                live.model, asked.plus, asked.minus, asked.layer, cancelled)
            steer = Steer(asked.layer, direction, asked.alpha, asked.start, asked.stop)
        step(1, 2)
        result = lm.run(live.model, live.ids, live.changes, after=after, patch=live.patch, steer=steer,
                        cancelled=cancelled)
        return live, asked, steer, result

    def progress_text(self, done: int, total: int) -> str:
        return tr("Running the model with the direction added…")

    def show_result(self, result) -> None:
        self.message.clear()
        live, asked, steer, run = result
        if asked is not None and asked.direction is None:
            self.made[(live.model, asked.plus, asked.minus, asked.layer)] = steer.direction
        self.steered.emit(live, steer, run)

    def show_failure(self, message: str) -> None:
        self.message.clear()
        self.said.setText(message)

    def stop_work(self) -> None:
        """Cancel: the run stops at its next layer; the window stays as it was."""
        self._stop.set()
        self._run += 1
        self._finished()
        self.said.setText(tr("Cancelled: the window is as it was"))

    # ------------------------------------------------------------- language

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Steer the model"))
        self.retranslate_work()
        self.intro.setText(tr("Add a direction to the residual stream at one layer, weighted by α, and watch the "
                              "next token move (activation addition). The direction from two prompts is the mean "
                              "stream entering the layer over the first minus the same over the second."))
        for name, text in (("Layer", tr("Layer:")), ("Direction", tr("Direction:")), ("Alpha", tr("α:")),
                           ("Positions", tr("Tokens:"))):
            self.findChild(QLabel, f"steer{name}Label").setText(text)
        self.from_prompts.setText(tr("From two prompts:"))
        self.from_file.setText(tr("From a file:"))
        self.load_button.setText(tr("Load .npy…"))
        self.apply_button.setText(tr("Steer"))
        self.remove_button.setText(tr("Remove the steer"))
        self.alpha_slider.setToolTip(tr("α from −20 to 20; type any α in the box"))
        if self.live is not None or self.said.text():
            self.follow(self.live, self.tokens)
