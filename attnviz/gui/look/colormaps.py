"""Colour maps for weights (0 to 1), as 256-entry lookup tables from pyqtgraph's set."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PySide6.QtGui import QColor

from ...core.messages import QT_TR_NOOP
from ...core.paths import resource
from ..state.view import FIELDS


@dataclass(frozen=True)
class Map:
    """One colour map: its 256 colours are pyqtgraph's `source` between `low` and `high`
    (tools/make_colormaps.py stores them in resources/colormaps.json)."""

    name: str
    source: str
    label: str           # shown in View → Colour map (marked for translation); "" when not offered
    low: float = 0.0
    high: float = 1.0

    @property
    def for_weights(self) -> bool:
        return bool(self.label)


# All are perceptually ordered; viridis and cividis stay readable with red-green colour
# blindness, the grey ramp is for high-contrast projectors and black-and-white handouts (it
# stops short of white, so a weight of 1 keeps an edge on a white page). The diverging map is
# for signed differences (after − before, softmax − linear: blue below 0, yellow above), not
# offered for weights.
MAPS = {m.name: m for m in (
    Map("viridis", "viridis", QT_TR_NOOP("Viridis (colour-blind safe)")),
    Map("cividis", "cividis", QT_TR_NOOP("Cividis (colour-blind safe)")),
    Map("grey", "CET-L1", QT_TR_NOOP("Grey (high contrast)"), high=0.8),
    Map("magma", "magma", QT_TR_NOOP("Magma")),
    Map("difference", "CET-CBD1", ""),
)}
WEIGHT_MAPS = tuple(name for name, m in MAPS.items() if m.for_weights)  # View → Colour map, in this order
DEFAULT = FIELDS["colormap"]  # the view state's first colour map

# How a weight becomes a place on the colour map, for every view and export at once. Long
# inputs spread each row thinly: on the linear scale nearly every cell is dark.
SCALES = {
    "linear": QT_TR_NOOP("Linear (0 to 1)"),
    "log": QT_TR_NOOP("Logarithmic (0.0001 to 1)"),
    "row": QT_TR_NOOP("Each row to its largest weight"),
}
LOG_FLOOR = 1e-4     # the log scale's darkest value: 10⁻⁴ and below


def scaled(values, scale: str, row_max=None) -> np.ndarray:
    """Weights (0..1) -> places on the colour map (0..1) on `scale`. `row_max`: the largest
    weight of each value's row (by default the last axis's maximum)."""
    w = np.asarray(values)
    w = w if w.dtype == np.float32 else w.astype(np.float64, copy=False)  # float32 weights stay float32
    if scale == "log":
        with np.errstate(divide="ignore"):
            return np.clip((np.log10(np.maximum(w, LOG_FLOOR)) + 4) / 4, 0, 1)
    if scale == "row":
        top = np.max(w, axis=-1, keepdims=True) if row_max is None and w.ndim else row_max
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(np.asarray(top) > 0, w / np.where(np.asarray(top) > 0, top, 1), 0.0)
    return w


def scale_ticks(scale: str) -> list[tuple[float, str]]:
    """(place on the colour bar, its label: translated where it is words) for `scale`."""
    if scale == "log":
        return [(0.0, "0.0001"), (0.25, "0.001"), (0.5, "0.01"), (0.75, "0.1"), (1.0, "1")]
    if scale == "row":
        return [(0.0, "0"), (0.5, QT_TR_NOOP("½ max")), (1.0, QT_TR_NOOP("max"))]
    return [(v, f"{v:g}") for v in (0.0, 0.25, 0.5, 0.75, 1.0)]


@dataclass(frozen=True)
class MaskLook:
    """How masked (future) cells are drawn: a warm paper tone no colour map uses, hatched, −∞."""

    fill: QColor
    hatch: QColor
    text: QColor    # −∞ on a masked cell's fill
    dimmed: QColor  # a masked key's row in the step table, on the page: dimmed, still readable


LIGHT_MASK = MaskLook(QColor(240, 233, 222), QColor(160, 148, 134), QColor(90, 80, 70), QColor(90, 80, 70))
DARK_MASK = MaskLook(QColor(62, 57, 52), QColor(120, 110, 100), QColor(215, 205, 192), QColor(158, 148, 136))


def mask_look(background: QColor) -> MaskLook:
    return DARK_MASK if background.lightness() < 128 else LIGHT_MASK


@dataclass(frozen=True)
class ColorMap:
    """A colour map on a colour scale: what every view and export colours weights with."""

    name: str
    lut: np.ndarray  # [256, 3] uint8
    scale: str = "linear"

    def places(self, weights, row_max=None) -> np.ndarray:
        """Weights -> places on this map (0..1), on this map's scale."""
        return scaled(weights, self.scale, row_max)

    def ticks(self) -> list[tuple[float, str]]:
        return scale_ticks(self.scale)

    def index(self, values: np.ndarray) -> np.ndarray:
        """0..1 -> 0..255 lookup indices (values outside are clipped), one byte each: computed in
        place in the values' own precision (12 heads of 2,048² are 50 million of them)."""
        values = np.asarray(values)
        scaled = np.asarray(np.multiply(values, 255, dtype=values.dtype if values.dtype.kind == "f" else np.float64))
        np.rint(scaled, out=scaled)
        np.clip(scaled, 0, 255, out=scaled)
        return scaled.astype(np.uint8)

    def color(self, value: float) -> QColor:
        r, g, b = self.lut[self.index(value)]
        return QColor(int(r), int(g), int(b))

    def text_color(self, value: float) -> QColor:
        """Black on light cells, white on dark ones (relative luminance)."""
        return QColor(0, 0, 0) if self.light(value) else QColor(255, 255, 255)

    def light(self, values):
        """True where the colour of `values` is light enough for black text (any shape, at once)."""
        rgb = self.lut[self.index(values)] / 255.0
        return rgb @ np.array([0.2126, 0.7152, 0.0722]) > 0.45


@lru_cache(maxsize=None)
def _tables() -> dict:
    """pyqtgraph's tables, stored by tools/make_colormaps.py (importing pyqtgraph at every
    start would cost a quarter of a second)."""
    text = resource("colormaps.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def get(name: str = DEFAULT, scale: str = "linear") -> ColorMap:
    """The map `name` on `scale` (unknown names: the default map, the linear scale)."""
    name = name if name in MAPS else DEFAULT
    return ColorMap(name, _lut(name), scale if scale in SCALES else "linear")


@lru_cache(maxsize=None)
def _lut(name: str) -> np.ndarray:
    lut = np.frombuffer(bytes.fromhex(_tables()[name]), dtype=np.uint8).reshape(256, 3).copy()
    lut.setflags(write=False)
    return lut
