"""Runs and workbench results as pictures (api.picture; inline in a notebook): PNGs drawn by the window's own
painters, a run's heads with the mask drawn, a map with its strongest cells outlined."""
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

from attnviz import api
from attnviz.core.lm.shown import ModelError
from attnviz.core.scenario import ScenarioError
from attnviz.gui.look import colormaps

LLAMA = str(Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "hf")
OUTLINE = np.array([230, 90, 0])


@pytest.fixture(scope="module")
def m():
    return api.load(LLAMA)


def pixels(data: bytes) -> np.ndarray:
    image = QImage.fromData(data).convertToFormat(QImage.Format_RGB888)
    assert not image.isNull()
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, :image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def count(image: np.ndarray, rgb) -> int:
    return int((np.abs(image - np.array(rgb)).sum(axis=2) < 12).sum())


def test_a_run_is_its_layers_heads_with_the_mask_drawn_and_shows_inline(qapp, m):
    run = m.run("hello there, you")
    png = api.picture(run)
    image = pixels(png)
    assert image.shape[1] == 1200 and png == run._repr_png_()
    mask = colormaps.LIGHT_MASK
    assert count(image, mask.fill.getRgb()[:3]) > 2000   # the future, hatched over the mask's fill, in every head
    assert count(image, mask.hatch.getRgb()[:3]) > 200
    assert count(image, colormaps.get().color(1.0).getRgb()[:3]) > 100  # the first token sees only itself: 1.00
    other = pixels(api.picture(run, layer=1))
    assert other.shape == image.shape and np.abs(other - image).mean() > 1  # another layer, other weights
    with pytest.raises(ModelError, match="layer 2: the model has layers 0 to 1"):
        api.picture(run, layer=2)


def test_a_workbench_result_is_its_map_the_strongest_cells_outlined(qapp, m, tmp_path):
    found = api.sweep(m, "hello there, you", "#5")
    png = api.picture(found, tmp_path / "sweep.png")
    assert (tmp_path / "sweep.png").read_bytes() == png
    image = pixels(png)
    assert count(image, OUTLINE) > 100
    types_png = pixels(api.picture(api.head_types(m, length=8)))
    assert count(types_png, colormaps.get().color(0.0).getRgb()[:3]) > 100  # scores from 0 to 1, viridis


@pytest.mark.parametrize("thing, path, says", [
    (5, None, "picture: give a run or a workbench result, not int"),
    ("run", "out.svg", "is not a PNG file's name: give one ending in .png"),
])
def test_what_is_no_picture_is_refused_in_one_line(qapp, m, tmp_path, thing, path, says):
    thing = m.run("hi") if thing == "run" else thing
    with pytest.raises(ScenarioError, match=says):
        api.picture(thing, None if path is None else tmp_path / path)
    assert not (tmp_path / "out.svg").exists()


def test_under_ipython_every_results_class_displays_as_its_picture(monkeypatch):
    registered = {}

    class Formatter:
        def for_type(self, kind, function):
            registered[kind] = function
    shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={"image/png": Formatter()}))
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    api._in_notebooks()
    assert set(registered) == set(api.PICTURED) and set(registered.values()) == {api.picture}
