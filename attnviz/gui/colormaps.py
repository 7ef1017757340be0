"""Colour maps for weights (0 to 1), as 256-entry lookup tables from pyqtgraph's set."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PySide6.QtGui import QColor

from ..core.messages import QT_TR_NOOP

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

MASK_FILL = QColor(236, 236, 236)   # masked (future) cells: light grey, hatched, with −∞
MASK_HATCH = QColor(175, 175, 175)
MASK_TEXT = QColor(80, 80, 80)


@dataclass(frozen=True)
class ColorMap:
    name: str
    lut: np.ndarray  # [256, 3] uint8

    def index(self, values: np.ndarray) -> np.ndarray:
        """0..1 -> 0..255 lookup indices (values outside are clipped)."""
        return np.clip(np.rint(np.asarray(values) * 255), 0, 255).astype(np.intp)

    def color(self, value: float) -> QColor:
        r, g, b = self.lut[self.index(value)]
        return QColor(int(r), int(g), int(b))

    def text_color(self, value: float) -> QColor:
        """Black on light cells, white on dark ones (relative luminance)."""
        r, g, b = self.lut[self.index(value)] / 255.0
        return QColor(0, 0, 0) if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else QColor(255, 255, 255)


@lru_cache(maxsize=None)
def get(name: str = DEFAULT) -> ColorMap:
    import pyqtgraph as pg  # only its colour tables are used here

    source, _ = SEQUENTIAL.get(name, SEQUENTIAL[DEFAULT])
    lut = pg.colormap.get(source).getLookupTable(0.0, 1.0, 256)[:, :3].astype(np.uint8)
    lut.setflags(write=False)
    return ColorMap(name if name in SEQUENTIAL else DEFAULT, lut)
