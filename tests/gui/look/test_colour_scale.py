"""Linear, log or per-row colour scale: one choice for every view, colour bar and export."""
import numpy as np
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage

from attnviz.gui.export.files import export_figure
from attnviz.gui.look import colormaps
from pixels import figure, pixel_in_cell  # tests/gui is on the path


def distance(a, b):
    return max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue()))


def test_the_log_scale_tells_one_in_ten_thousand_from_one_and_the_row_scale_lifts_each_row(qapp):
    cmap = colormaps.get(scale="log")
    low, high = (cmap.color(float(cmap.places(w))) for w in (1e-4, 1.0))
    assert distance(low, high) > 100
    np.testing.assert_allclose(cmap.places([1e-4, 1e-3, 0.01, 0.1, 1]), [0, 0.25, 0.5, 0.75, 1])
    np.testing.assert_allclose(colormaps.get(scale="row").places(np.array([[0.1, 0.2, 0.05], [0.5, 0.5, 0]])),
                               [[0.5, 1, 0.25], [1, 1, 0]])
    assert colormaps.get().places(0.03) == 0.03


def test_choosing_the_log_scale_recolours_the_heatmaps_and_exports_and_is_remembered(window, tmp_path):
    weight = float(figure("seed-demo").head_data(0).weights[6, 0])  # それ → 猫: 0.03, dark on the linear scale
    window.classroom.scale_actions["log"].trigger()
    assert window.view.scale == "log" and QSettings().value("colourScale") == "log"
    fig = window.exports.figure("all", caption=False)  # what File → Export image writes
    export_figure(fig, tmp_path / "log.png", width=2000)
    got = pixel_in_cell(fig, QImage(str(tmp_path / "log.png")), 0, 6, 0)
    cmap = colormaps.get(scale="log")
    assert distance(got, cmap.color(float(cmap.places(weight)))) <= 8
    assert distance(got, cmap.color(weight)) > 60  # visibly brighter than on the linear scale
    panel = window.parts.heads.panels[0]  # the window's own heatmap, repainted on the new scale
    image = panel.grab().toImage()
    g = panel.painter.geometry(panel._content_rect(), panel.shown())
    cell = image.pixelColor(int(g.grid.left() + 0.2 * g.cell_w), int(g.grid.top() + 6.2 * g.cell_h))
    assert distance(cell, cmap.color(float(cmap.places(weight)))) <= 8
