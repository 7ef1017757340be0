"""The tutorial demo's controls: hide the future, ÷√d_k, temperature, and the query's q sliders."""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

from PySide6.QtCore import QEvent, QMargins, QRectF, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QFontInfo, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractSlider,
    QApplication,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSlider,
    QSpinBox,
    QStyle,
    QStyleOptionSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core import masks
from ...core.explain import fmt, fmt_temperature
from ...core.masks import MaskSpec
from ...core.scenario import MAX_TOKENS
from ..common.i18n import Retranslated, head_label, tr
from ..common.markup import rich, rich_tip
from ..look.fonts import LEAST_SHARE, readable_pixels
from ..look.theme import LargeMarks
from ..state.commands import SetRow, SetSettings, new_drag_id

TEMPERATURE_STEPS = 100   # slider positions per factor of ten
TEMPERATURE_DECADES = 2   # 0.01 to 100, every temperature a scenario may hold
# A drag, a click beside the handle or an arrow key lands on these, as a class would choose them;
# with Shift held, on every position (two significant digits: 0.05, 0.049, 1.3).
TEMPERATURE_SNAPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
Q_SLIDER_RANGE = 5.0      # the q sliders span at least −5 to 5 (wider for larger values) ...
Q_SLIDER_STEP = 0.1       # ... in steps of 0.1 (hold Shift while dragging) ...
Q_SLIDER_SNAP = 0.5       # ... or, dragged without Shift, of 0.5: "to 0" lands on 0 on a projector
MAX_Q_SLIDERS = 8         # wider heads are edited in the table


def temperature_to_position(t: float) -> int:
    """Logarithmic: 0.01 -> -200, 0.1 -> -100, 1 -> 0, 10 -> 100, 100 -> 200."""
    return round(math.log10(t) * TEMPERATURE_STEPS)


def position_to_temperature(position: int) -> float:
    """Two significant digits, so the number shown is the number used: -130 -> 0.05 (not 0.0501),
    -131 -> 0.049, 30 -> 2, 70 -> 5."""
    return float(f"{10 ** (position / TEMPERATURE_STEPS):.2g}")


def snapped_temperature(t: float) -> float:
    """The nearest of TEMPERATURE_SNAPS, on the slider's logarithmic scale."""
    return min(TEMPERATURE_SNAPS, key=lambda s: abs(math.log10(s) - math.log10(t)))


def next_temperature(t: float, up: bool) -> float:
    """The next of TEMPERATURE_SNAPS above (or below) t; the end one at the ends."""
    if up:
        return TEMPERATURE_SNAPS[min(bisect_right(TEMPERATURE_SNAPS, t * (1 + 1e-9)), len(TEMPERATURE_SNAPS) - 1)]
    return TEMPERATURE_SNAPS[max(bisect_left(TEMPERATURE_SNAPS, t * (1 - 1e-9)) - 1, 0)]


STEPS_UP = (QAbstractSlider.SliderSingleStepAdd, QAbstractSlider.SliderPageStepAdd)
STEPS_DOWN = (QAbstractSlider.SliderSingleStepSub, QAbstractSlider.SliderPageStepSub)


def fine_steps() -> bool:
    """Shift held: the sliders move in fine steps, not to the round values."""
    return bool(QApplication.keyboardModifiers() & Qt.ShiftModifier)


class LessonSlider(QSlider):
    """A horizontal slider as a class uses it on a projector.

    One press … release of the mouse is one gesture, with one drag id for every change it makes:
    a drag of the handle, and a press beside the handle held down (Qt repeats page steps towards
    the pointer: 1 → 2 → 5 → 10). Keys have no drag id: each press is its own undo step.

    Presenting (take_clicks), a click gives it the keyboard and ← / → then move it, though they are
    the guided steps' keys; Page Up / Down, Space, ↑ / ↓ stay the presentation's (a clicker sends
    them), and Esc gives ← / → back. Its focus is a thick frame, with room kept for it around the
    groove and the handle (the style draws them, and finds the handle under a click, inside it)."""

    TAKEN_KEYS = (Qt.Key_Left, Qt.Key_Right)

    def __init__(self, **kwargs):
        super().__init__(Qt.Horizontal, **kwargs)
        self.drag_id = None
        self.framed = False  # room for the focus frame: presenting only, the desk's layout unchanged
        self.sliderPressed.connect(self._begin)  # setSliderDown(True) without a mouse: a drag too
        self.sliderReleased.connect(self._end)

    def _begin(self):
        if self.drag_id is None:
            self.drag_id = new_drag_id()

    def _end(self):
        self.drag_id = None

    def mousePressEvent(self, event):
        self._begin()  # before Qt acts on the press: its first step belongs to the gesture
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event):
        super().mouseReleaseEvent(event)
        self._end()

    def event(self, event):
        """With the focus, ← / → (Shift too: fine steps) and Esc are this slider's, not shortcuts."""
        if event.type() == QEvent.ShortcutOverride and self._takes(event):
            event.accept()
            return True
        return super().event(event)

    def _takes(self, event) -> bool:
        plain = not event.modifiers() & ~(Qt.ShiftModifier | Qt.KeypadModifier)
        return plain and event.key() in (*self.TAKEN_KEYS, Qt.Key_Escape)

    def keyPressEvent(self, event):
        if event.key() == Qt.Key_Escape:
            self.clearFocus()  # the arrows step the lesson again
            return
        super().keyPressEvent(event)

    def take_clicks(self) -> None:
        """Presenting: a click (not Tab, the next view) gives it the keyboard; its frame has room."""
        self.setFocusPolicy(Qt.ClickFocus)
        if not self.framed:
            self.framed = True
            self.updateGeometry()

    def _frame_width(self) -> int:
        return 3  # every pixel of height it takes is taken from the step table's type

    def _room(self) -> int:
        return self._frame_width() + 1 if self.framed else 0  # the frame, and a gap to the handle

    def initStyleOption(self, option):
        super().initStyleOption(option)
        room = self._room()
        option.rect = option.rect.adjusted(room, room, -room, -room)

    def sizeHint(self):
        return super().sizeHint().grownBy(QMargins(*(self._room(),) * 4))

    def minimumSizeHint(self):
        return super().minimumSizeHint().grownBy(QMargins(*(self._room(),) * 4))

    def paintEvent(self, event):
        super().paintEvent(event)
        if self.hasFocus():  # Fusion's faint focus line is invisible on a projector
            self._paint_focus()

    def _paint_focus(self):
        """A frame in the highlight colour, and the handle filled with it: seen from the back row."""
        width, colour = self._frame_width(), self.palette().color(QPalette.Highlight)
        painter = QPainter(self)
        painter.setPen(QPen(colour, width))
        half = width / 2
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(half, half, -half, -half), width, width)
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        handle = self.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderHandle, self)
        painter.setPen(Qt.NoPen)
        painter.setBrush(colour)
        painter.drawRoundedRect(QRectF(handle).adjusted(1, 1, -1, -1), 2, 2)
        painter.end()


MASK_KINDS = masks.KINDS


def mask_name(kind: str) -> str:
    return {"none": tr("no mask"), "causal": tr("causal"), "window": tr("sliding window"),
            "prefix": tr("prefix LM"), "padding": tr("padding"), "custom": tr("hand-painted")}[kind]


def _rows_of(s):
    """The mask shown now, as rows of visible cells: where hand-painting starts."""
    spec = s.settings.mask or MaskSpec("causal" if s.settings.causal else "none")
    return masks.as_rows(masks.visible(spec, s.n))


class SettingsBar(Retranslated, QWidget):
    """causalToggle, scaleToggle and temperatureSlider, kept in step with the document.

    In presentation (`prefix` "presentation", no mask menu, the temperature `stacked`: its name and
    value on a line, its slider on the next) the same controls sit in the presentation panel, named
    presentationCausalToggle and so on. The temperature lands on round values (TEMPERATURE_SNAPS),
    on any two-digit one with Shift, and always says the value used."""

    def __init__(self, document, report, parent=None, prefix: str = "", with_masks: bool = True,
                 stacked: bool = False):
        super().__init__(parent)
        self.document = document
        self.report = report  # shows a refused change to the user
        name = (lambda base: prefix + base[0].upper() + base[1:]) if prefix else (lambda base: base)
        self.causal = QCheckBox(objectName=name("causalToggle"))
        self.mask_kind = QComboBox(objectName=name("maskSelector"))
        self.mask_kind.addItems([""] * len(MASK_KINDS))
        self.mask_kind.setSizeAdjustPolicy(QComboBox.AdjustToContents)  # after a language switch too
        self.mask_size = QSpinBox(objectName=name("maskSize"))
        self.mask_size.setRange(1, MAX_TOKENS)
        self.with_masks = with_masks
        self.scale = QCheckBox(objectName=name("scaleToggle"))
        self.temperature_name = QLabel()
        self.temperature = LessonSlider(objectName=name("temperatureSlider"))
        reach = TEMPERATURE_DECADES * TEMPERATURE_STEPS
        self.temperature.setRange(-reach, reach)
        self.temperature.setPageStep(10)
        self.temperature.setMinimumWidth(160)
        self.temperature.setMaximumWidth(320)
        self.temperature.actionTriggered.connect(self._snap_temperature)
        self.temperature_label = QLabel(objectName=name("temperatureValue"))
        self.temperature_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("T = 0.049 "))
        toggles = QHBoxLayout()
        for widget in (self.causal, self.mask_kind, self.mask_size, self.scale):
            toggles.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addLayout(toggles)
        if stacked:  # presenting: the name and the value used on a line, the slider as wide as given below
            named = QHBoxLayout()
            named.addWidget(self.temperature_name)
            named.addWidget(self.temperature_label)
            named.addStretch(1)
            layout.addLayout(named)
            layout.addWidget(self.temperature)
        else:
            for widget in (self.temperature_name, self.temperature, self.temperature_label):
                toggles.addWidget(widget)
        toggles.addStretch(1)
        self.causal.toggled.connect(lambda on: self._set(tr("Hide the future") if on else
                                                         tr("Show the future"), causal=on, mask=None))
        self.mask_kind.activated.connect(lambda i: self._set_mask(MASK_KINDS[i]))
        self.mask_size.valueChanged.connect(self._size_changed)
        # Steps of the spin box in a row are one undo step, until it is left (or Enter pressed).
        self._size_steps = new_drag_id()
        self.mask_size.editingFinished.connect(self._new_size_steps)
        self.scale.toggled.connect(lambda on: self._set(tr("Divide by √dₖ") if on else
                                                        tr("Do not divide by √dₖ"), scale=on))
        self.temperature.valueChanged.connect(self._temperature_moved)
        document.changed.connect(self.refresh)
        self.retranslate()
        self.refresh()

    def retranslate(self):
        self.causal.setText(tr("Hide the future (causal mask)"))
        for i, kind in enumerate(MASK_KINDS):
            self.mask_kind.setItemText(i, mask_name(kind))
        self.mask_kind.setToolTip(tr("Which keys each query may see. Sliding window: itself and the tokens "
                                     "just before it. Prefix LM: the first tokens see each other. Padding and "
                                     "hand-painted: Shift+click a heatmap cell to hide or show it."))
        self.mask_size.setToolTip(tr("The window's width, or the prefix's length, in tokens"))
        self.causal.setToolTip(tr("Each token may look only at itself and the tokens before it: the "
                                  "scores of later tokens become −∞, so their weights are exactly 0."))
        self.scale.setText(tr("÷ √dₖ"))
        self.scale.setToolTip(rich_tip(tr("Divide the scores q·k by √dₖ before softmax, so that long "
                                          "vectors do not make softmax all-or-nothing.")))
        self.temperature_name.setText(tr("Temperature"))
        tip = tr("The tutorial's \"scale strength\": a further divisor of the scores. Large: flat weights "
                 "(look a little everywhere); small: one sharp peak. It stops at 0.1, 0.2, 0.5, 1, 2, 5, 10; "
                 "hold Shift for the values between.")
        for widget in (self.temperature_name, self.temperature, self.temperature_label):
            widget.setToolTip(tip)

    def _size_changed(self, _):
        kind = self.document.scenario.settings.mask_kind
        if kind in ("window", "prefix"):
            self._set_mask(kind, self._size_steps)

    def _new_size_steps(self):
        self._size_steps = new_drag_id()

    def _set_mask(self, kind: str, drag_id: int | None = None):
        """none and causal are the simple flag; the others a MaskSpec (painting starts from
        the mask shown now)."""
        s = self.document.scenario
        if kind in ("none", "causal"):
            self._set(tr("Mask: {0}").format(mask_name(kind)), causal=kind == "causal", mask=None)
            return
        current = s.settings.mask or MaskSpec()
        size = self.mask_size.value()
        spec = MaskSpec(kind, window=size if kind == "window" else current.window,
                        prefix=min(size, s.n) if kind == "prefix" else current.prefix,
                        padding=current.padding if current.kind == "padding" else (),
                        custom=_rows_of(s) if kind == "custom" else None)
        self._set(tr("Mask: {0}").format(mask_name(kind)), drag_id, mask=spec)

    def _snap_temperature(self, action: int):
        """A drag, a click beside the handle or an arrow key lands on a round temperature (Shift: on
        any position). Qt lets an action's position be changed here, before the value takes it."""
        action = QAbstractSlider.SliderAction(action)  # the signal gives a plain int
        if fine_steps() or action == QAbstractSlider.SliderNoAction:
            return
        slider = self.temperature
        if action == QAbstractSlider.SliderMove:
            t = snapped_temperature(position_to_temperature(slider.sliderPosition()))
        elif action in STEPS_UP or action in STEPS_DOWN:
            t = next_temperature(position_to_temperature(slider.value()), up=action in STEPS_UP)
        else:  # to the minimum or the maximum: the ends are round already
            return
        slider.setSliderPosition(temperature_to_position(t))

    def _temperature_moved(self, position: int):
        t = position_to_temperature(position)
        self.temperature_label.setText(f"T = {fmt_temperature(t)}")
        if t != self.document.scenario.settings.temperature:
            self._set(tr("Temperature {0}").format(fmt_temperature(t)), drag_id=self.temperature.drag_id, temperature=t)

    def _set(self, text, drag_id=None, **changes):
        if not self.document.attempt(lambda: SetSettings(self.document, text, drag_id, **changes), self.report):
            self.refresh()

    def refresh(self):
        settings = self.document.scenario.settings
        # A model's weights are shown as they were computed: nothing here would change them.
        self.setVisible(not self.document.scenario.weights_only)
        self.setEnabled(self.document.scenario.live is None)  # a real model's settings are its own
        kind = settings.mask_kind
        with QSignalBlocker(self.causal), QSignalBlocker(self.scale), QSignalBlocker(self.temperature), \
                QSignalBlocker(self.mask_kind), QSignalBlocker(self.mask_size):
            self.causal.setChecked(kind == "causal")
            self.mask_kind.setCurrentIndex(MASK_KINDS.index(kind))
            self.mask_kind.setVisible(self.with_masks)
            self.mask_size.setVisible(self.with_masks and kind in ("window", "prefix"))
            if kind in ("window", "prefix"):
                self.mask_size.setValue(settings.mask.window if kind == "window" else settings.mask.prefix)
            self.scale.setChecked(settings.scale)
            self.temperature.setValue(temperature_to_position(settings.temperature))
        self.temperature_label.setText(f"T = {fmt_temperature(settings.temperature)}")


class QuerySliders(Retranslated, QWidget):
    """One slider per dimension of the selected query's q (the tutorial's 動物 / 食べ物 sliders).

    A drag snaps to steps of 0.5 (Shift: 0.1), so "to 0" lands on 0. The presentation panel
    has its own, named presentationQSlider0, ..., with sliders at least `slider_width` wide."""

    def __init__(self, document, report, parent=None, prefix: str = "", slider_width: int = 0):
        super().__init__(parent)
        self.setObjectName(prefix + ("QSliders" if prefix else "qSliders"))
        self.prefix = prefix
        self.slider_width = slider_width
        self.document = document
        self.report = report
        self.title = QLabel(objectName="qSlidersTitle", textFormat=Qt.RichText)
        self.title.setWordWrap(True)
        self.grid = QGridLayout()
        self.sliders: list[LessonSlider] = []
        self.values: list[QLabel] = []
        self.names: list[QLabel] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addLayout(self.grid)
        layout.addStretch(1)
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.refresh()

    def retranslate(self):
        self.refresh()

    def _ensure(self, count: int):
        while len(self.sliders) < count:
            i = len(self.sliders)
            slider = LessonSlider(objectName=f"{self.prefix}{'QSlider' if self.prefix else 'qSlider'}{i}")
            slider.setPageStep(round(Q_SLIDER_SNAP / Q_SLIDER_STEP))
            slider.setMinimumWidth(self.slider_width)
            slider.valueChanged.connect(lambda position, i=i: self._moved(i, position))
            name, value = QLabel(), QLabel()
            value.setMinimumWidth(self._value_width())
            self.grid.addWidget(name, i, 0)
            self.grid.addWidget(slider, i, 1)
            self.grid.addWidget(value, i, 2)
            self.sliders.append(slider)
            self.names.append(name)
            self.values.append(value)
        for i, widgets in enumerate(zip(self.sliders, self.names, self.values)):
            for widget in widgets:
                widget.setVisible(i < count)

    def _value_width(self) -> int:
        return self.fontMetrics().horizontalAdvance("−0.00 ")

    def changeEvent(self, event):
        """Presenting or zoomed, the values' room grows with their type (else "0.00" is cut)."""
        if event.type() in (QEvent.FontChange, QEvent.ApplicationFontChange):
            for value in self.values:
                value.setMinimumWidth(self._value_width())
        super().changeEvent(event)

    def _moved(self, i: int, position: int):
        d = self.document
        q = d.scenario.heads[d.active_head].q[d.query].copy()
        q[i] = round(position * Q_SLIDER_STEP, 6)
        if self.sliders[i].isSliderDown() and not QApplication.keyboardModifiers() & Qt.ShiftModifier:
            q[i] = round(q[i] / Q_SLIDER_SNAP) * Q_SLIDER_SNAP  # the handle follows the snapped value
        if q[i] == d.scenario.heads[d.active_head].q[d.query][i]:
            return
        if not d.attempt(lambda: SetRow(d, d.active_head, "q", d.query, q, self.sliders[i].drag_id), self.report):
            self.refresh()

    def refresh(self):
        d = self.document
        head = d.scenario.heads[d.active_head]
        token = d.scenario.tokens[d.query]
        editable = d.scenario.projection is None and not d.scenario.weights_only
        if head.d_k > MAX_Q_SLIDERS or not editable:
            self._ensure(0)
            reason = (tr("this file holds weights only") if d.scenario.weights_only else
                      tr("q is derived from X and W_q here") if not editable else
                      tr("d_k = {0}: edit q in the table").format(head.d_k))
            self.title.setText(rich(tr("q of {0}: {1}").format(token, reason)))
            return
        self._ensure(head.d_k)
        self.title.setText(rich(tr("q of {0} (what it is looking for)").format(token)))
        self.title.setVisible(not self.prefix)  # presenting: the chooser above says whose q it is
        for i, label in enumerate(head.dim_labels("q")):
            value = float(head.q[d.query][i])
            slider = self.sliders[i]
            with QSignalBlocker(slider):
                if not slider.isSliderDown():  # never move the ends under the user's hand
                    reach = round(max(Q_SLIDER_RANGE, math.ceil(abs(value))) / Q_SLIDER_STEP)
                    slider.setRange(-reach, reach)
                slider.setValue(round(value / Q_SLIDER_STEP))
            self.names[i].setText(label)
            self.values[i].setText(fmt(value, 2, fixed=True))
            slider.setToolTip(tr("Move the {0} component of the q of {1}: what {1} is looking for")
                              .format(label, token))


class Selectors(Retranslated, QWidget):
    """Which head is active and which query is explained (also set by clicking a panel), and,
    for a model's file with several layers, which layer is shown."""

    layerRequested = Signal(int)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.head_name, self.query_name, self.layer_name = QLabel(), QLabel(), QLabel()
        self.head = QComboBox(objectName="headSelector")
        self.query = QComboBox(objectName="querySelector")
        self.query.setMinimumContentsLength(6)
        self.layer = QComboBox(objectName="layerSelector")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        for widget in (self.layer_name, self.layer, self.head_name, self.head, self.query_name, self.query):
            layout.addWidget(widget)
        self.layer.activated.connect(lambda i: self.layerRequested.emit(i) if i != self._layer() else None)
        self.head.activated.connect(lambda i: document.select(head=i))
        self.query.activated.connect(lambda i: document.select(query=i))
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.retranslate()

    def _layer(self) -> int:
        layer = self.document.scenario.layer
        return layer[0] if layer else 0

    def retranslate(self):
        self.head_name.setText(tr("Head"))
        self.query_name.setText(tr("Query"))
        self.head.setToolTip(tr("The head whose q, k and v the tables show (or click its heatmap)"))
        self.query.setToolTip(tr("The query token whose arithmetic is explained step by step "
                                 "(or click its row in a heatmap)"))
        self.refresh()

    def refresh(self):
        s = self.document.scenario
        heads = [head_label(s, i) for i in range(len(s.heads))]
        # A scenario saved from one layer holds that layer only (the others are in the model's
        # file): it names its layer, and offers no choice that would show the same one again.
        switchable = s.layer is not None and (self.document.layers_in_file or s.live is not None)
        layers = [str(i) for i in range(s.layer[1])] if switchable else []
        self.layer.setVisible(switchable)
        self.layer_name.setVisible(s.layer is not None)
        fixed = not switchable and s.layer is not None
        self.layer_name.setText(tr("Layer {0} of {1}").format(*s.layer) if fixed else tr("Layer"))
        self.layer_name.setToolTip("" if switchable else tr("This file holds one layer of the model: open the "
                                                            "model's own file to see the others"))
        self.layer.setToolTip(tr("This model file holds several layers: show another one"))
        for box, items, current in ((self.head, heads, self.document.active_head),
                                    (self.query, list(s.tokens), self.document.query),
                                    (self.layer, layers, self._layer())):
            with QSignalBlocker(box):
                if [box.itemText(i) for i in range(box.count())] != items:
                    box.clear()
                    box.addItems(items)
                box.setCurrentIndex(current)


class PresentationControls(Retranslated, QWidget):
    """The tutorial's experiments without leaving full screen: the query, its q sliders (each at
    least a third of the screen wide), hide the future, ÷√d_k and the temperature, beside the
    step table. H (or the button) shows and hides them; every change is one undo step, as on
    the desk. Only a clicked slider takes the keyboard focus, and of its keys only ← / → (and Esc,
    which gives them back): a clicker's keys keep stepping."""

    def __init__(self, document, report, parent=None):
        super().__init__(parent)
        self._marks = None  # presenting: the style that draws its check boxes and handles large
        self.setObjectName("presentationControls")
        self.document = document
        self.toggle = QToolButton(objectName="presentationControlsToggle")
        self.toggle.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.query_name = QLabel()
        self.query = QComboBox(objectName="presentationQuery")
        self.query.activated.connect(lambda i: document.select(query=i))
        self.sliders = QuerySliders(document, report, prefix="presentation")
        self.settings = SettingsBar(document, report, prefix="presentation", with_masks=False, stacked=True)
        self.body = QWidget(objectName="presentationControlsBody")
        self._folded = False  # hidden for the step table's rows (fold), not by the teacher
        self._kept = False    # shown by the teacher while folded: not folded again for this scenario
        self._spare, self._deciding = 0, False  # the step table's spare height, and a decision coming
        self._unfolded_height = 0  # folded: how tall they were, the room they take back when shown
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.query_name)
        top.addWidget(self.query)
        top.addStretch(1)
        top.addWidget(self.toggle)  # stays when the rest is hidden: the mouse can bring it back
        self.query_row = QWidget()
        self.query_row.setLayout(top)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.sliders)
        body.addWidget(self.settings)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.query_row)
        layout.addWidget(self.body)
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        document.replaced.connect(self._unfold)
        self.retranslate()

    def changeEvent(self, event):
        if event.type() in (QEvent.FontChange, QEvent.ApplicationFontChange):
            self._size_marks()
        super().changeEvent(event)

    def _size_marks(self) -> None:
        """Presenting (type the back row reads), check boxes and slider handles as large as the type."""
        pixels = QFontInfo(self.font()).pixelSize()
        style = LargeMarks(pixels) if pixels >= readable_pixels(self, LEAST_SHARE) else None
        self._marks = style  # kept: a widget does not own the style it is given
        for widget in self.findChildren(QCheckBox) + self.findChildren(QSlider):
            widget.setStyle(style)  # None: the application's again

    def set_slider_width(self, pixels: int) -> None:
        """The q sliders and the temperature's, each at least `pixels` wide (a third of the screen)."""
        self.sliders.slider_width = pixels
        for slider in self.sliders.sliders + [self.settings.temperature]:
            slider.setMinimumWidth(pixels)
        self.settings.temperature.setMaximumWidth(16777215)  # QWIDGETSIZE_MAX: as wide as the panel

    def show_body(self, on: bool) -> None:
        """The controls shown or hidden (H, or as the teacher left them): shown while folded, they stay
        shown for this scenario, whatever the step table needs."""
        self._kept = on and self._folded
        self._folded = False
        self._set_body(on)

    def _set_body(self, on: bool) -> None:
        self.body.setVisible(on)
        self.query_name.setVisible(on)
        self.query.setVisible(on)
        self.retranslate()

    def fold(self, spare: int) -> None:
        """The step table above has `spare` pixels of height more than its rows need in type the back row
        reads. Fewer than none (a long sentence, a long caption under it): the controls fold away, their
        toggle stays (H shows them); folded, they come back once the table could spare their height.
        Decided when the window is laid out (the table is fitted many times on the way there)."""
        self._spare = spare
        if not self._deciding:
            self._deciding = True
            QTimer.singleShot(0, self, self._decide)

    def _decide(self) -> None:
        self._deciding = False
        if self._spare < 0 and self.shown() and not self._kept and self.isVisible():
            self._folded, self._unfolded_height = True, self.height()
            self._set_body(False)
        elif self._folded and self._spare >= self._unfolded_height - self.height():  # they fit again
            self._unfold()

    def _unfold(self) -> None:
        """Another scenario (a lesson's next scene), or room enough: the controls as the teacher had them,
        folded again only if the step table needs the room."""
        self._kept = False
        if self._folded:
            self._folded = False
            self._set_body(True)

    def shown(self) -> bool:
        return not self.body.isHidden()

    def retranslate(self):
        self.query_name.setText(tr("Query"))
        self.query.setToolTip(tr("The query token whose arithmetic is explained step by step "
                                 "(or click its row in a heatmap)"))
        self.toggle.setText(tr("Hide the controls (H)") if self.shown() else tr("Show the controls (H)"))
        self.toggle.setToolTip(rich_tip(tr("The query, its q sliders, the mask, ÷√d_k and the temperature, "
                                           "without leaving full screen")))
        self.refresh()

    def refresh(self):
        tokens = list(self.document.scenario.tokens)
        own = self.document.scenario.live is None  # a real model's settings are its own, its q too wide
        self.sliders.setVisible(own)
        self.settings.setVisible(own)
        with QSignalBlocker(self.query):
            if [self.query.itemText(i) for i in range(self.query.count())] != tokens:
                self.query.clear()
                self.query.addItems(tokens)
            self.query.setCurrentIndex(self.document.query)
        for widget in self.findChildren(QWidget):
            # The clicker's keys go to the window, not to a control; a clicked slider takes ← / → only.
            if isinstance(widget, LessonSlider):
                widget.take_clicks()
            else:
                widget.setFocusPolicy(Qt.NoFocus)
