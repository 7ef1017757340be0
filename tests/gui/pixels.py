"""What a painted picture shows, measured from its pixels: a cell's pixels, the pixels of a colour,
whether they form lines, and how legible one colour is on another (WCAG 2); the figures they are
taken from (tests/gui is on the path)."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage

from attnviz.core import compute, load_preset
from attnviz.gui.export.figure import Figure, FigureOptions

AWAY_FROM_TEXT = ((0.06, 0.3), (0.7, 0.94))  # bands of a cell above and below its value, inside its edges


def rgb(image: QImage) -> np.ndarray:
    """[height, width, 3] colours of the image, as floats."""
    image = image.convertToFormat(QImage.Format_RGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    bgra = rows[:, :image.width() * 4].reshape(image.height(), image.width(), 4)  # little-endian 0xAARRGGBB
    return bgra[..., 2::-1].astype(float)


def triple(color: QColor) -> np.ndarray:
    return np.array(color.getRgb()[:3], float)


def near(pixels: np.ndarray, color: QColor, within: float = 30.0) -> np.ndarray:
    """Where `pixels` ([..., 3]) have `color`, give or take antialiasing."""
    return np.linalg.norm(pixels - triple(color), axis=-1) <= within


def inked(pixels: np.ndarray, paper: QColor, ink: QColor, at_least: float = 0.4) -> np.ndarray:
    """Where `pixels` show `ink` on `paper`: colours between the two (a thin antialiased line never
    reaches its full colour), at least `at_least` of the way to the ink."""
    a, b = triple(paper), triple(ink)
    t = np.clip((pixels - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)
    off = np.linalg.norm(pixels - (a + t[..., None] * (b - a)), axis=-1)
    return (t >= at_least) & (off <= 20)


def cell(pixels: np.ndarray, g, i: int, j: int, rows=(0.0, 1.0), columns=(0.08, 0.92), scale: float = 1.0):
    """The pixels of cell (i, j) of the painter's geometry `g`, between the fractions `rows` of its
    height and `columns` of its width; `scale`: image pixels per logical pixel."""
    x0, y0 = g.grid.left() + j * g.cell_w, g.grid.top() + i * g.cell_h
    top, bottom = (round((y0 + f * g.cell_h) * scale) for f in rows)
    left, right = (round((x0 + f * g.cell_w) * scale) for f in columns)
    return pixels[top:bottom, left:right]


def beside_text(pixels: np.ndarray, g, i: int, j: int, scale: float = 1.0) -> np.ndarray:
    """[k, 3]: cell (i, j)'s pixels above and below its value, away from its edges (grid lines)."""
    return np.concatenate([cell(pixels, g, i, j, band, scale=scale).reshape(-1, 3) for band in AWAY_FROM_TEXT])


def bands(pixels: np.ndarray, g, i: int, j: int, scale: float = 1.0) -> list[np.ndarray]:
    """The two bands of `beside_text` as images ([h, w, 3] each), to look for lines in."""
    return [cell(pixels, g, i, j, band, scale=scale) for band in AWAY_FROM_TEXT]


def diagonal_runs(on: np.ndarray, step: int = 3) -> tuple[float, float]:
    """Of the pixels that are on, the share whose pixel `step` down and right is on too, and the
    share whose pixel `step` down and left is: stripes along x − y = c thinner than 2 × `step`
    and further apart give (≈1, ≈0); a filled area gives (1, 1), other lines less than (≈1, 0)."""
    k = step
    top = on[:-k, k:-k]
    count = top.sum()
    if not count:
        return 0.0, 0.0
    return float((top & on[k:, 2 * k:]).sum() / count), float((top & on[k:, :-2 * k]).sum() / count)


def luminance(colors) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB colours ([..., 3], 0..255)."""
    c = np.asarray(colors, float) / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a, b) -> np.ndarray:
    """WCAG 2 contrast ratio (1 to 21) of colours `a` and `b` ([..., 3]); 4.5 is legible body text."""
    la, lb = luminance(a), luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def background(pixels: np.ndarray) -> np.ndarray:
    """The commonest colour of `pixels` ([k, 3]): a cell's own colour, under its text."""
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    return colours[np.argmax(counts)]


def assert_hatched(pixels, g, i, j, look, scale: float = 1.0):
    """Cell (i, j) shows the mask's fill crossed by stripes of its hatch colour along x − y = c."""
    for band in bands(pixels, g, i, j, scale):
        stripes = inked(band, look.fill, look.hatch)
        assert 0.1 < stripes.mean() < 0.6, ((i, j), stripes.mean())  # lines: not nothing, not a fill
        assert near(band, look.fill).mean() > 0.2, (i, j)  # between them, the mask's own fill
        along, across = diagonal_runs(stripes)
        assert along > 0.8 and across < 0.3, ((i, j), along, across)


def assert_not_hatched(pixels, g, i, j, look, scale: float = 1.0):
    assert not inked(beside_text(pixels, g, i, j, scale), look.fill, look.hatch).any(), (i, j)


def figure(preset="seed-demo", **options) -> Figure:
    s = preset if not isinstance(preset, str) else load_preset(preset)
    return Figure(s, compute(s), FigureOptions(**options))


def pixel_in_cell(fig, image, head, i, j, fx=0.2, fy=0.2):
    """The image pixel at (fx, fy) inside cell (i, j): away from the value text in its centre."""
    g = fig.heatmap.geometry(fig.head_rect(head), fig.head_data(head))
    scale = image.width() / fig.size().width()
    point = QPointF(g.grid.left() + (j + fx) * g.cell_w, g.grid.top() + (i + fy) * g.cell_h) * scale
    return image.pixelColor(int(point.x()), int(point.y()))
