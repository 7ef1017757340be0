"""`attnviz screenshot SCENARIO --presentation --view ID`: each presented view, as its key shows it."""
import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtGui import QImage

from attnviz.cli import main
from attnviz.gui.classroom.views import IDS

YELLOW = np.array([253, 231, 37])  # viridis at 1: seed-demo's 猫 row, in each head's top-left cell


def shoot(path, scenario, *options):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    result = subprocess.run([sys.executable, "-m", "attnviz", "screenshot", scenario, "--presentation", *options,
                             "--lang", "en", "-o", str(path)], capture_output=True, text=True, env=env, timeout=180)
    assert result.returncode == 0, result.stderr
    image = QImage(str(path)).convertToFormat(QImage.Format_RGB888)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return pixels[:, :image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def yellow_in(pixels) -> bool:
    return bool((np.abs(pixels - YELLOW).sum(axis=2) < 30).sum() > 400)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("views")
    images = {view: shoot(folder / f"{view}.png", "projection-demo" if view == "layer" else "seed-demo", "--view", view)
              for view in IDS}
    images[None] = shoot(folder / "default.png", "seed-demo")
    return images


def test_every_view_is_rendered_at_1920_by_1080_and_each_is_its_own(shots):
    for view, pixels in shots.items():
        assert pixels.shape == (1080, 1920, 3), view
    views = list(shots)
    for i, a in enumerate(views):
        for b in views[i + 1:]:
            assert np.abs(shots[a] - shots[b]).mean() > 1, (a, b)


def test_heads_are_side_by_side_and_the_default_is_the_big_head_beside_the_steps(shots):
    heads, default = shots["heads"], shots[None]
    assert yellow_in(heads[:, :900]) and yellow_in(heads[:, 960:1800])   # each half holds a head's 1.00 cell
    assert yellow_in(default[:, :900]) and not yellow_in(default[:, 1100:])  # the steps: no heatmap there


def test_the_views_without_heatmaps_fill_the_screen_instead_of_the_heads(shots):
    for view in ("steps", "geometry", "softmax", "lines", "before-after"):
        assert not yellow_in(shots[view]), view
    assert yellow_in(shots["kernel"]) and yellow_in(shots["overview"])  # their own heatmaps and thumbnails


def test_the_overview_is_refused_on_the_desk_with_a_clear_message(capsys, tmp_path):
    code = main(["screenshot", "seed-demo", "--view", "overview", "-o", str(tmp_path / "o.png")])
    assert code == 2 and "--presentation" in capsys.readouterr().err and not (tmp_path / "o.png").exists()
