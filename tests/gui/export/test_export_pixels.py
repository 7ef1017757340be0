"""The causal triangle in exported files: above the diagonal the mask's fill and hatching, below it
the colour map's colours, in a PNG's pixels and in an SVG's elements; and with the mask off, neither."""
import math
import re
import xml.etree.ElementTree as ET

import numpy as np
from PySide6.QtGui import QColor, QImage

from attnviz.core import compute, load_preset
from attnviz.core.scenario import with_settings
from attnviz.gui.export.figure import Figure, FigureOptions
from attnviz.gui.export.files import export_figure, render_image
from attnviz.gui.look import colormaps
from pixels import assert_hatched, assert_not_hatched, beside_text, rgb, triple

SVG = "{http://www.w3.org/2000/svg}"
LOOK = colormaps.LIGHT_MASK  # exports are drawn on white


def figure(causal=True) -> Figure:
    s = load_preset("seed-demo")  # causal: the 45 cells right of the diagonal are masked
    s = s if causal else with_settings(s, causal=False)
    return Figure(s, compute(s), FigureOptions(caption=False))


def layout(fig):
    """(the head's HeatmapData, the painter's geometry of it, in the figure's logical pixels)."""
    data = fig.head_data(0)
    return data, fig.heatmap.geometry(fig.head_rect(0), data)


def map_colour(fig, weight) -> np.ndarray:
    return triple(fig.heatmap.colormap.color(float(weight)))


# ---------------------------------------------------------------- PNG

def test_a_pngs_masked_triangle_is_hatched_and_the_rest_has_the_maps_colours(tmp_path):
    fig = figure()
    export_figure(fig, tmp_path / "h.png", width=1600)
    image = QImage(str(tmp_path / "h.png"))
    pixels, scale = rgb(image), image.width() / fig.size().width()
    data, g = layout(fig)
    assert np.array_equal(data.masked, np.triu(np.ones((10, 10), bool), 1))
    for i, j in np.ndindex(data.masked.shape):
        if data.masked[i, j]:
            assert_hatched(pixels, g, i, j, LOOK, scale)
        else:
            assert_not_hatched(pixels, g, i, j, LOOK, scale)
            beside = beside_text(pixels, g, i, j, scale)
            assert np.abs(beside - map_colour(fig, data.weights[i, j])).max() <= 6, (i, j)


def test_a_png_without_the_mask_has_no_hatching_and_every_cell_the_maps_colour():
    fig = figure(causal=False)
    pixels = rgb(render_image(fig, 1600))
    scale = 1600 / fig.size().width()
    data, g = layout(fig)
    assert not data.masked.any()
    for i, j in np.ndindex(data.masked.shape):
        assert_not_hatched(pixels, g, i, j, LOOK, scale)
        assert np.abs(beside_text(pixels, g, i, j, scale) - map_colour(fig, data.weights[i, j])).max() <= 6


# ---------------------------------------------------------------- SVG

def hex_colour(color: QColor) -> str:
    return color.name().lower()


def matrix(group) -> np.ndarray:
    """The group's transform as a 3 × 3 matrix (Qt writes matrix(a,b,c,d,e,f) on each group)."""
    found = re.fullmatch(r"matrix\(([^)]*)\)", (group.get("transform") or "matrix(1,0,0,1,0,0)").strip())
    a, b, c, d, e, f = map(float, found.group(1).split(","))
    return np.array([[a, c, e], [b, d, f], [0, 0, 1]])


def placed(group, points) -> np.ndarray:
    """[k, 2] points of an element of `group`, in the figure's coordinates."""
    points = np.asarray(points, float).reshape(-1, 2)
    return (matrix(group) @ np.c_[points, np.ones(len(points))].T).T[:, :2]


def in_cells(g, points) -> np.ndarray:
    """[k, 2] (column, row) of points in cell units: cell (i, j) spans [j, j + 1] × [i, i + 1]."""
    return np.c_[(points[:, 0] - g.grid.left()) / g.cell_w, (points[:, 1] - g.grid.top()) / g.cell_h]


def svg_cells(root, g):
    """{fill colour: [(row, column), ...]} of the SVG's <rect>s the size of one cell of the grid."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        for rect in group.findall(f"{SVG}rect"):
            w, h = float(rect.get("width")), float(rect.get("height"))
            if abs(w - g.cell_w) > 0.01 or abs(h - g.cell_h) > 0.01:
                continue
            u, v = in_cells(g, placed(group, [float(rect.get("x")), float(rect.get("y"))]))[0]
            if -0.01 < u < 9.99 and -0.01 < v < 9.99:
                found.setdefault(group.get("fill"), []).append((round(v), round(u)))
    return found


NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"


def hatch_vertices(root, g) -> np.ndarray:
    """[k, 2] vertices, in cell units, of the paths filled with the hatch colour over the grid (the
    colour bar's swatch is hatched too, beside it)."""
    found = []
    for group in root.iter(f"{SVG}g"):
        if group.get("fill") != hex_colour(LOOK.hatch):
            continue
        for path in group.findall(f"{SVG}path"):
            points = in_cells(g, placed(group, re.findall(rf"({NUMBER}),({NUMBER})", path.get("d"))))
            found += [p for p in points if -0.01 <= p[0] <= 10.01 and -0.01 <= p[1] <= 10.01]
    return np.array(found).reshape(-1, 2)


def touching(point, eps=0.01):
    """The cells whose closed square holds `point` (column, row in cell units)."""
    u, v = point
    return [(i, j) for i in range(math.floor(v - eps), math.floor(v + eps) + 1)
            for j in range(math.floor(u - eps), math.floor(u + eps) + 1) if 0 <= i < 10 and 0 <= j < 10]


def svg_root(fig, tmp_path):
    export_figure(fig, tmp_path / "h.svg")
    return ET.parse(tmp_path / "h.svg").getroot()


def test_an_svgs_masked_triangle_is_mask_filled_cells_under_stripes_cut_to_them(tmp_path):
    fig = figure()
    data, g = layout(fig)
    root = svg_root(fig, tmp_path)
    cells = svg_cells(root, g)
    masked = {(int(i), int(j)) for i, j in np.argwhere(data.masked)}
    assert sorted(cells.pop(hex_colour(LOOK.fill))) == sorted(masked)  # the fill: exactly the masked cells
    for colour, where in cells.items():  # every other cell: its weight's colour on the map
        for i, j in where:
            assert (i, j) not in masked and colour == hex_colour(fig.heatmap.colormap.color(data.weights[i, j]))
    assert sum(len(where) for where in cells.values()) == 100 - len(masked)
    stripes = hatch_vertices(root, g)
    assert len(stripes) > 4 * len(masked)
    for point in stripes:  # every corner of the stripes lies on a masked cell ...
        assert any(data.masked[i, j] for i, j in touching(point)), point
    for i, j in masked:  # ... and stripes cross every masked cell
        assert sum((i, j) in touching(point) for point in stripes) >= 2, (i, j)


def test_an_svg_without_the_mask_has_no_mask_fill_and_no_stripes_over_the_grid(tmp_path):
    fig = figure(causal=False)
    _, g = layout(fig)
    root = svg_root(fig, tmp_path)
    cells = svg_cells(root, g)
    assert hex_colour(LOOK.fill) not in cells and sum(len(where) for where in cells.values()) == 100
    assert len(hatch_vertices(root, g)) == 0

