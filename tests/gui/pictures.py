"""Figures and their pixels, for the tests that look at what is drawn (tests/gui is on the path)."""
from PySide6.QtCore import QPointF

from attnviz.core import compute, load_preset
from attnviz.gui.export.figure import Figure, FigureOptions


def figure(preset="seed-demo", **options):
    s = preset if not isinstance(preset, str) else load_preset(preset)
    return Figure(s, compute(s), FigureOptions(**options))


def pixel_in_cell(fig, image, head, i, j, fx=0.2, fy=0.2):
    """The image pixel at (fx, fy) inside cell (i, j): away from the value text in its centre."""
    g = fig.heatmap.geometry(fig.head_rect(head), fig.head_data(head))
    scale = image.width() / fig.size().width()
    point = QPointF(g.grid.left() + (j + fx) * g.cell_w, g.grid.top() + (i + fy) * g.cell_h) * scale
    return image.pixelColor(int(point.x()), int(point.y()))
