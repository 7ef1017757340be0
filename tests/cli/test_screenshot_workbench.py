"""`attnviz screenshot SCENARIO --view patch|lens|attribution|sweep|heads-table|explain`: a tab of the research
workbench, run with its example inputs on the built-in model, captured without a display."""
import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtGui import QImage

from attnviz.cli import main
from attnviz.gui.window import screenshots

OUTLINE = np.array([230, 90, 0])  # the map's strongest cells are outlined in this orange (research/map.py)


def shoot(path, view):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    result = subprocess.run([sys.executable, "-m", "attnviz", "screenshot", "seed-demo", "--view", view, "--lang", "en",
                             "--width", "1400", "--height", "900", "-o", str(path)],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    image = QImage(str(path)).convertToFormat(QImage.Format_RGB888)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return pixels[:, :image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def outlined(pixels) -> int:
    return int((np.abs(pixels - OUTLINE).sum(axis=2) < 40).sum())


@pytest.mark.real_model("smollm2")
def test_a_workbench_tab_is_captured_with_its_result_drawn(tmp_path):
    patch, heads = shoot(tmp_path / "patch.png", "patch"), shoot(tmp_path / "heads.png", "heads-table")
    assert patch.shape == heads.shape == (900, 1400, 3)
    assert outlined(patch) > 200        # the patching map is drawn, its three strongest cells outlined
    assert outlined(heads) < 50         # the head types are a table: no map
    assert np.abs(patch - heads).mean() > 5


@pytest.mark.parametrize("options, says", [
    (["--presentation"], "--view patch is a tab of the research workbench, a window of its own: leave out"),
    (["--step", "1"], "leave out --presentation and --step"),
    (["-o", "/nowhere/x.png"], "the folder /nowhere does not exist"),  # before the model and the tab's work
])
def test_a_workbench_tab_that_cannot_be_made_or_written_is_refused_before_work(capsys, tmp_path, monkeypatch,
                                                                                options, says):
    monkeypatch.setattr(screenshots, "workbench_screenshot", lambda *a: pytest.fail("the work began"))
    output = [] if "-o" in options else ["-o", str(tmp_path / "x.png")]
    assert main(["screenshot", "seed-demo", "--view", "patch", *options, *output]) == 2
    assert says in capsys.readouterr().err and not (tmp_path / "x.png").exists()
