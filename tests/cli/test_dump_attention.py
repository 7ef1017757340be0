"""docs/dump_attention.py, the script a user runs with their own torch and transformers: when the
libraries are missing, the Hub cannot be reached or the output folder does not exist, one clear
line and exit status 2, never a traceback. Nothing here reaches for the network: the libraries
are stand-ins (or made missing) and HF_HUB_OFFLINE=1 is set anyway."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "dump_attention.py"

# Runs the script with torch and transformers as the test makes them: missing (None), or
# stand-ins whose loading raises what transformers raises when the Hub cannot be reached.
RUN = """
import json, runpy, sys, types
missing, error = json.loads(sys.argv[1])
calls = []

def from_pretrained(name, **kwargs):
    calls.append(name)
    raise {"OSError": OSError, "RuntimeError": RuntimeError}[error[0]](error[1])

sys.modules["torch"] = types.ModuleType("torch")
transformers = types.ModuleType("transformers")
for name in ("AutoModel", "AutoTokenizer"):
    setattr(transformers, name, types.SimpleNamespace(from_pretrained=from_pretrained))
sys.modules["transformers"] = transformers
for name in missing:
    sys.modules[name] = None  # import raises ModuleNotFoundError
sys.argv = ["dump_attention.py", *sys.argv[2:]]
try:
    runpy.run_path(SCRIPT, run_name="__main__")
finally:
    print(json.dumps(calls))
""".replace("SCRIPT", repr(str(SCRIPT)))

HUB_DOWN = ("OSError", "We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find "
                       "them in the cached files.\nCheck your internet connection or see how to run the library "
                       "in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.")


def dump(tmp_path, missing=(), error=HUB_DOWN, out="cat.npz", model="no-such-org/no-such-model"):
    import json
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([sys.executable, "-c", RUN, json.dumps([list(missing), list(error)]),
                             "--model", model, "--text", "The cat sat.", "--out", str(tmp_path / out)],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    *_, calls = result.stdout.splitlines() or [""]
    return result, json.loads(calls) if calls else None


def one_clear_line(result):
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dump_attention.py: error: ")
    return lines[0]


def test_the_hub_out_of_reach_is_said_in_one_line_with_what_to_do(tmp_path):
    result, calls = dump(tmp_path)
    line = one_clear_line(result)
    assert calls == ["no-such-org/no-such-model"]  # it did try to load, and failed
    assert "cannot load the model 'no-such-org/no-such-model'" in line and "couldn't connect" in line
    assert "network" in line and "HF_HUB_OFFLINE" in line
    assert not (tmp_path / "cat.npz").exists()


def test_any_other_failure_to_load_is_one_line_too(tmp_path):
    result, _ = dump(tmp_path, error=("RuntimeError", "ConnectError: [Errno 101] Network is unreachable"))
    assert "Network is unreachable" in one_clear_line(result)


@pytest.mark.parametrize("missing", [["torch"], ["transformers"]])
def test_missing_libraries_are_named_with_the_pip_line_to_install_them(tmp_path, missing):
    result, _ = dump(tmp_path, missing=missing)
    line = one_clear_line(result)
    assert f"{missing[0]} is not installed" in line and "pip install torch transformers numpy" in line


def test_an_output_folder_that_does_not_exist_is_refused_before_the_model_is_fetched(tmp_path):
    result, calls = dump(tmp_path, out="missing/cat.npz")
    assert "does not exist" in one_clear_line(result)
    assert calls == []  # no download, no run
