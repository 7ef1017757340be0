"""No file AttnViz opens is ever unpickled: an array of Python objects that would run code when
loaded is refused, with a message, through every door that reads a model's arrays or a scenario
.npz, and the code never runs (the file it would create is not there)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from attnviz.core import ScenarioError, load_preset, load_scenario, save_scenario
from attnviz.core.io import holds_layers, load_with_meta
from attnviz.core.presets import open_named
from attnviz.core.summary import named_layers


class Tripwire:
    """Unpickled, it makes the folder `marker`: what a hostile file would do with a shell command."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def tripwired(marker, *texts) -> np.ndarray:
    return np.array([Tripwire(marker), *texts], dtype=object)


def weights(layers=2, n=2):
    w = np.tril(np.ones((layers, 1, n, n)))
    return (w / w.sum(-1, keepdims=True)).astype(np.float32)


# The hostile files, each with the tripwire in an array every door reads; each returns the file a user opens.

def qkv_npz(folder, marker):
    np.savez(folder / "m.npz", tokens=tripwired(marker, "b"), q=np.zeros((2, 1)), k=np.zeros((2, 1)),
             v=np.zeros((2, 1)))
    return folder / "m.npz"


def compressed_weights_npz(folder, marker):
    np.savez_compressed(folder / "w.npz", tokens=tripwired(marker, "b"), weights=weights())
    return folder / "w.npz"


def scenario_npz(folder, marker):
    """seed-demo saved as a scenario .npz, one of its arrays swapped for the tripwire."""
    path = folder / "s.npz"
    save_scenario(load_preset("seed-demo"), path)
    with np.load(path, allow_pickle=False) as saved:
        arrays = dict(saved)
    swapped = next(name for name in arrays if name != "attnviz")
    np.savez(path, **{**arrays, swapped: tripwired(marker)})
    return path


def tokens_npy(folder, marker):
    np.save(folder / "tokens.npy", tripwired(marker, "b"), allow_pickle=True)
    np.save(folder / "weights.npy", weights())
    return folder / "weights.npy"


def weights_npy(folder, marker):
    np.save(folder / "tokens.npy", np.array(["a", "b"]))
    np.save(folder / "weights.npy", tripwired(marker), allow_pickle=True)
    return folder / "weights.npy"


FILES = {"q, k, v .npz": qkv_npz, "weights .npz, compressed": compressed_weights_npz, "scenario .npz": scenario_npz,
         "tokens.npy beside weights.npy": tokens_npy, "weights.npy itself": weights_npy}


@pytest.fixture(params=FILES)
def hostile(request, tmp_path):
    """(the file to open, where its payload would make a folder if it ran)."""
    marker = tmp_path / "payload-ran"
    return FILES[request.param](tmp_path, marker), marker


def test_the_payload_runs_code_when_numpy_unpickles_it(hostile):
    """The refusals below mean something: read as np.load(allow_pickle=True) reads it, each file
    runs its payload."""
    path, marker = hostile
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=True) as archive:
            [archive[name] for name in archive.files]
    else:
        [np.load(f, allow_pickle=True) for f in path.parent.glob("*.npy")]
    assert marker.is_dir()


DOORS = {
    "load_scenario": lambda path: load_scenario(path),
    "a later layer": lambda path: load_scenario(path, 1),
    "load_with_meta (autosave, File → Open)": lambda path: load_with_meta(path),
    "open_named (the command line, recent files, compare)": lambda path: open_named(str(path)),
    "named_layers (stats, rollout, the overview)": lambda path: named_layers(str(path)),
}


@pytest.mark.parametrize("door", DOORS)
def test_every_door_refuses_a_pickle_and_never_runs_it(hostile, door):
    path, marker = hostile
    with pytest.raises(ScenarioError, match="pickles"):
        DOORS[door](path)
    assert not marker.exists()


def test_asking_whether_a_file_holds_layers_runs_nothing_either(hostile):
    path, marker = hostile
    holds_layers(path)
    assert not marker.exists()


@pytest.mark.parametrize("command", [["weights"], ["stats"], ["export", "-o", "x.png"], []])
def test_the_command_line_refuses_a_pickle_and_never_runs_it(tmp_path, command):
    """`attnviz weights|stats|export FILE` and `attnviz FILE` (which reads the file before the window opens)."""
    marker = tmp_path / "payload-ran"
    path = compressed_weights_npz(tmp_path, marker)
    args = command[:1] + [str(path)] + command[1:]
    result = subprocess.run([sys.executable, "-m", "attnviz", *args], capture_output=True, text=True,
                            encoding="utf-8", cwd=tmp_path, timeout=120,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 2 and "pickles" in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert not marker.exists() and not (tmp_path / "x.png").exists()
