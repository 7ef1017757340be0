"""Colour maps for weights (0 to 1), as 256-entry lookup tables from pyqtgraph's set."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PySide6.QtGui import QColor

from ...core.messages import QT_TR_NOOP
from ...core.paths import resource

# name -> (pyqtgraph map, shown name). All are perceptually ordered; viridis and
# cividis stay readable with red-green colour blindness, CET-L1 is a plain grey
# ramp for high-contrast projectors and black-and-white handouts.
SEQUENTIAL = {
    "viridis": ("viridis", QT_TR_NOOP("Viridis (colour-blind safe)")),
    "cividis": ("cividis", QT_TR_NOOP("Cividis (colour-blind safe)")),
    "grey": ("CET-L1", QT_TR_NOOP("Grey (high contrast)")),
    "magma": ("magma", QT_TR_NOOP("Magma")),
}
DEFAULT = "viridis"

# How a weight becomes a place on the colour map, for every view and export at once. Long
# inputs spread each row thinly: on the linear scale nearly every cell is dark.
SCALES = {
    "linear": QT_TR_NOOP("Linear (0 to 1)"),
    "log": QT_TR_NOOP("Logarithmic (0.0001 to 1)"),
    "row": QT_TR_NOOP("Each row to its largest weight"),
}
LOG_FLOOR = 1e-4     # the log scale's darkest value: 10⁻⁴ and below
_scale = ["linear"]


def scale() -> str:
    return _scale[0]


def set_scale(name: str) -> None:
    _scale[0] = name if name in SCALES else "linear"


def scaled(values, row_max=None) -> np.ndarray:
    """Weights (0..1) -> places on the colour map (0..1) on the current scale. `row_max`: the
    largest weight of each value's row (by default the last axis's maximum)."""
    w = np.asarray(values)
    w = w if w.dtype == np.float32 else w.astype(np.float64, copy=False)  # float32 weights stay float32
    if _scale[0] == "log":
        with np.errstate(divide="ignore"):
            return np.clip((np.log10(np.maximum(w, LOG_FLOOR)) + 4) / 4, 0, 1)
    if _scale[0] == "row":
        top = np.max(w, axis=-1, keepdims=True) if row_max is None and w.ndim else row_max
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(np.asarray(top) > 0, w / np.where(np.asarray(top) > 0, top, 1), 0.0)
    return w


def scale_ticks() -> list[tuple[float, str]]:
    """(place on the colour bar, its label: translated where it is words) for the current scale."""
    if _scale[0] == "log":
        return [(0.0, "0.0001"), (0.25, "0.001"), (0.5, "0.01"), (0.75, "0.1"), (1.0, "1")]
    if _scale[0] == "row":
        return [(0.0, "0"), (0.5, QT_TR_NOOP("½ max")), (1.0, QT_TR_NOOP("max"))]
    return [(v, f"{v:g}") for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
# For signed differences (after − before, softmax − linear): blue below 0, yellow above,
# a colour-blind-safe diverging map; not offered for weights.
DIVERGING = {"difference": ("CET-CBD1", "difference")}
# The grey ramp stops short of white, so a weight of 1 keeps an edge on a white page.
RANGES = {"grey": (0.0, 0.8)}


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
    name: str
    lut: np.ndarray  # [256, 3] uint8

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
def get(name: str = DEFAULT) -> ColorMap:
    name = name if name in SEQUENTIAL or name in DIVERGING else DEFAULT
    lut = np.frombuffer(bytes.fromhex(_tables()[name]), dtype=np.uint8).reshape(256, 3).copy()
    lut.setflags(write=False)
    return ColorMap(name, lut)
