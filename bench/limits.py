"""The largest model files AttnViz accepts, and how long each command takes on them.

    .venv/bin/python bench/limits.py                 # every file, every command (about 20 minutes)
    .venv/bin/python bench/limits.py rollout-4096    # only these files
    .venv/bin/python bench/limits.py --keep DIR      # write the files in DIR and leave them there

Each file sits at one of the limits (core/summary.py: MAX_MODEL_CELLS, MAX_MODEL_PRODUCTS,
MAX_ROLLOUT; core/formats/npz.py: MAX_INFLATED; core/scenario.py: the limits of one layer) and is
written layer by layer (the largest is 1 GB on disk, never in memory). Every command runs in a
fresh process, as a user runs it; the table gives its wall time and peak memory. The promise
(docs/user.md, "The limits"): every command answers within 30 s on a busy two-core machine.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnviz.core.formats.npz import MAX_INFLATED  # noqa: E402
from attnviz.core.scenario import MAX_GIVEN_CELLS  # noqa: E402
from attnviz.core.summary import MAX_MODEL_CELLS, MAX_MODEL_PRODUCTS, MAX_ROLLOUT  # noqa: E402

BUDGET_S = 30.0
PEAK = ("import runpy, sys\nsys.argv = ['attnviz'] + sys.argv[1:]\ntry:\n"
        "    runpy.run_module('attnviz', run_name='__main__')\nfinally:  # the peak since exec, not the parent's\n"
        "    print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')), file=sys.stderr)\n")


def causal_rows(rng, heads: int, n: int, dense: bool) -> np.ndarray:
    """[heads, n, n] float32 rows summing to 1 with the future masked: random (dense, which
    compresses poorly), or all weight on the first token (a hostile file's kind: tiny packed)."""
    if not dense:
        w = np.zeros((heads, n, n), np.float32)
        w[..., 0] = 1
        return w
    w = rng.random((heads, n, n), dtype=np.float32)
    w *= np.tril(np.ones((n, n), np.float32))
    w /= w.sum(axis=-1, keepdims=True)
    return w


def write_model(path: Path, layers: int, heads: int, n: int, method: int = zipfile.ZIP_STORED,
                dense: bool = True, d: int | None = None, dtype: str = "<f4") -> None:
    """tokens and weights [layers, heads, n, n] (or q, k, v [layers, heads, n, d]), a layer at a time."""
    rng = np.random.default_rng(0)
    with zipfile.ZipFile(path, "w", method, allowZip64=True, compresslevel=1) as archive:
        with archive.open("tokens.npy", "w") as out:
            np.lib.format.write_array(out, np.array([f"t{i}" for i in range(n)]))
        names = ("weights",) if d is None else ("q", "k", "v")
        for name in names:
            shape = (layers, heads, n, n if d is None else d)
            with archive.open(f"{name}.npy", "w", force_zip64=True) as out:
                np.lib.format.write_array_header_1_0(out, {"descr": dtype, "fortran_order": False, "shape": shape})
                layer = causal_rows(rng, heads, n, dense) if d is None else rng.normal(size=(heads, n, d))
                layer = layer.astype(dtype)
                for _ in range(layers):  # the same layer again: as costly to read, quick to write
                    out.write(layer.tobytes())


# name -> (layers, heads, tokens, options): each at a limit
FILES = {
    # layers × heads × tokens² = MAX_MODEL_CELLS: in float16 (widening it to float32 is the slowest
    # read), and in float32
    "cells-float16": (MAX_MODEL_CELLS // MAX_GIVEN_CELLS, 16, 2048, {"dtype": "<f2"}),
    "cells-float32": (MAX_MODEL_CELLS // MAX_GIVEN_CELLS, 16, 2048, {}),
    # as many weights as a file's deflated arrays may unpack to (MAX_INFLATED), dense rows
    # (4,095 tokens: 4,096 would be a few bytes over with the tokens)
    "inflated-dense": (MAX_INFLATED // (MAX_GIVEN_CELLS * 4), 4, 4095, {"method": zipfile.ZIP_DEFLATED}),
    # the same, one-hot rows: a few megabytes on disk
    "inflated-small": (MAX_INFLATED // (MAX_GIVEN_CELLS * 4), 4, 4095,
                       {"method": zipfile.ZIP_DEFLATED, "dense": False}),
    # the rollout's limit, layers × tokens³ = MAX_ROLLOUT: with as many heads as MAX_MODEL_CELLS allows,
    # at the longest input the command prints (tokens² ≤ cli.arguments.MAX_PRINTED), and at 256 layers
    "rollout-2048": (MAX_ROLLOUT // 2048 ** 3, MAX_MODEL_CELLS // (MAX_ROLLOUT // 2048 ** 3 * 2048 ** 2), 2048, {}),
    "rollout-2896": (MAX_ROLLOUT // 2896 ** 3, 4, 2896, {}),
    "rollout-256-layers": (256, 1, round((MAX_ROLLOUT / 256) ** (1 / 3)) - 1, {}),
    # q, k, v at MAX_MODEL_PRODUCTS: layers × heads × tokens² × (d_k + d_v), 1,024 dimensions
    "products-qkv": (MAX_MODEL_PRODUCTS // (4096 ** 2 * 2048), 1, 4096, {"d": 1024}),
    "products-qkv-64": (MAX_MODEL_CELLS // (64 * 256 ** 2), 64, 256, {"d": 64}),  # at MAX_MODEL_CELLS too
    # the most layers × heads: the overview's grid and what it keeps
    "heads-256x64": (256, 64, 64, {}),
    "layers-256x1x2": (256, 1, 2, {}),
}


def commands(path: Path, layers: int, out: Path) -> dict[str, list[str]]:
    p = str(path)
    found = {
        "weights": ["weights", p],
        "weights --head 0": ["weights", p, "--head", "0"],
        "weights --head 0 csv": ["weights", p, "--head", "0", "--format", "csv"],
        "weights --layer last": ["weights", p, "--layer", str(layers - 1), "--head", "0"],
        "export -o FILE.csv": ["export", p, "-o", str(out / "data.csv")],
        "stats": ["stats", p],
        "weights --rollout": ["weights", p, "--rollout"],
        "export": ["export", p, "-o", str(out / "head.png")],
        "export --overview": ["export", p, "--overview", "-o", str(out / "overview.png")],
        "export --compare": ["export", p, "--compare", p, "--compare-layer", str(layers - 1),
                             "-o", str(out / "compare.png")],
        "screenshot": ["screenshot", p, "-o", str(out / "window.png")],
    }
    if layers == 1:
        del found["weights --layer last"]
    return found


def run(argv: list[str]) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit status, the last line on stderr)."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", PEAK, *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                                 "HOME": tempfile.gettempdir(), "ATTNVIZ_DATA_DIR": tempfile.gettempdir()})
    seconds = time.perf_counter() - start
    lines = result.stderr.strip().splitlines()
    peak = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else float("nan")  # VmHWM is in kB
    said = next((line for line in reversed(lines[:-1]) if line.strip()), "")
    return seconds, peak, result.returncode, said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *FILES], help="files to try (default: all)")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="attnviz-limits-"))
    folder.mkdir(parents=True, exist_ok=True)
    worst = 0.0
    print(f"{'file':<20} {'command':<22} {'s':>6} {'MB':>6}  status")
    try:
        for name in args.names or FILES:
            layers, heads, n, options = FILES[name]
            path = folder / f"{name}.npz"
            if not path.exists():
                write_model(path, layers, heads, n, **options)
            print(f"{name}: {layers} layers × {heads} heads × {n} tokens"
                  f"{', d = ' + str(options['d']) if 'd' in options else ''}, {path.stat().st_size / 2**20:,.1f} MB"
                  f" on disk", flush=True)
            for label, argv in commands(path, layers, folder).items():
                seconds, peak, code, said = run(argv)
                worst = max(worst, seconds)
                print(f"{'':<20} {label:<22} {seconds:6.1f} {peak:6.0f}  {code} {said[:90]}", flush=True)
            if not args.keep:
                path.unlink()
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"slowest: {worst:.1f} s (budget {BUDGET_S:.0f} s)")
    return 0 if worst <= BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
