"""CI names the real models it must have (ATTNVIZ_REQUIRE_MODELS=smollm2 in .ci/run): a run where one of
them is missing fails, saying which, instead of passing with its tests skipped."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attnviz.core import lm
from attnviz.core.lm import catalog

ROOT = Path(__file__).resolve().parents[2]


def pytest_run(require: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ATTNVIZ_REQUIRE_MODELS": require}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           "tests/house/test_required_models.py::test_nothing_but_the_session"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_nothing_but_the_session():
    assert True  # the run's outcome is what the test below reads


def test_a_required_model_that_is_missing_fails_the_run_and_is_named():
    missing = next((name for name, found in (("gemma3", catalog.gemma_chunks), ("smollm2", lm.bundled_model))
                    if found() is None), None)
    if missing is None:
        pytest.skip("both real models are installed here: none can be missing")
    done = pytest_run(missing)
    assert done.returncode == 1, done.stdout
    assert "is required here (ATTNVIZ_REQUIRE_MODELS) but not installed" in done.stdout


def test_ci_requires_the_built_in_model_and_a_run_with_it_passes():
    assert "ATTNVIZ_REQUIRE_MODELS=smollm2" in (ROOT / ".ci" / "run").read_text()
    if lm.bundled_model() is not None:
        assert pytest_run("smollm2").returncode == 0
