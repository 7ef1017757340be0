"""The stored colour tables are pyqtgraph's, and the ones offered are safe choices."""
import json
import sys
from pathlib import Path

import numpy as np

from attnviz.core.paths import resource
from attnviz.gui.look import colormaps

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
import make_colormaps  # noqa: E402


def test_the_stored_tables_equal_pyqtgraphs():
    stored = json.loads(resource("colormaps.json").read_text())
    assert stored == make_colormaps.tables(), "run python tools/make_colormaps.py"


def test_every_map_runs_from_dark_to_light_so_weight_reads_as_brightness():
    for name in colormaps.WEIGHT_MAPS:
        lut = colormaps.get(name).lut.astype(float)
        lightness = lut @ [0.2126, 0.7152, 0.0722]
        assert lightness[-1] > lightness[0] + 100, name


def test_no_map_colour_is_close_to_the_masked_cells_fill():
    fill = np.array(colormaps.LIGHT_MASK.fill.getRgb()[:3], float)
    for name in colormaps.WEIGHT_MAPS:
        distance = np.linalg.norm(colormaps.get(name).lut.astype(float) - fill, axis=1)
        assert distance.min() > 25, name
