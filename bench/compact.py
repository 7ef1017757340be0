"""Models of 1–4B parameters (issue 48): load time, peak memory and a 128-token pass on a file of Llama 3.2
1B's shapes (bench/shapes.py, random weights, Q4_K), AttnViz kept compact and fast against transformers'
GGUF loader + PyTorch on the same file; and AttnViz compact on a Gemma 3 4B-shaped file. Each is a process
of its own (its peak resident memory is its own), run in turn, round after round, so the machine's noise
falls on all alike; the ratios are taken round by round.

    python bench/compact.py [--rounds 2] [--folder /tmp]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TOKENS = 128

ATTNVIZ = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from attnviz.core import lm
from attnviz.core.blas import use_one_thread
from attnviz.core.lm import gguf_file, memory
from attnviz.core.lm.allocator import one_heap
one_heap()
use_one_thread()  # as `attnviz` starts; the pass takes every core itself
start = time.perf_counter()
model = gguf_file.load({path!r}, keep=memory.KEEP if {compact!r} else None)
loaded = time.perf_counter()
lm.run(model, list(range(1000, 1000 + {tokens})))
ran = time.perf_counter()
print(json.dumps({{"load_s": loaded - start, "pass_s": ran - loaded,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

TORCH = r"""
import json, os, resource, time
import torch
from transformers import AutoModelForCausalLM
torch.set_num_threads(os.cpu_count())
path = {path!r}
start = time.perf_counter()
model = AutoModelForCausalLM.from_pretrained(os.path.dirname(path), gguf_file=os.path.basename(path),
                                             dtype=torch.float32, attn_implementation="sdpa").eval()
loaded = time.perf_counter()
with torch.no_grad():
    model(torch.tensor([list(range(1000, 1000 + {tokens}))]))
ran = time.perf_counter()
print(json.dumps({{"load_s": loaded - start, "pass_s": ran - loaded,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def child(script: str) -> dict:
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(rounds: int = 2, folder: str | None = None, reference: bool = True) -> dict:
    """{"file_mb", "compact": [...], "fast": [...], "transformers": [...], "4b": {...}}: each run's figures."""
    from bench import shapes
    with tempfile.TemporaryDirectory(prefix="attnviz-bench-compact-", dir=folder) as where:
        one_b = shapes.write("llama-1b", "Q4_K", Path(where) / "llama-1b-q4_k.gguf")
        out: dict = {"file_mb": one_b.stat().st_size / 2**20, "compact": [], "fast": [], "transformers": []}
        for _ in range(rounds):
            for way in ("compact", "fast"):
                out[way].append(child(ATTNVIZ.format(root=str(ROOT), path=str(one_b), compact=way == "compact",
                                                     tokens=TOKENS)))
            if reference:
                out["transformers"].append(child(TORCH.format(path=str(one_b), tokens=TOKENS)))
        one_b.unlink()
        four_b = shapes.write("gemma3-4b", "Q4_K", Path(where) / "gemma3-4b-q4_k.gguf")
        out["4b"] = {**child(ATTNVIZ.format(root=str(ROOT), path=str(four_b), compact=True, tokens=TOKENS)),
                     "file_mb": four_b.stat().st_size / 2**20}
    return out


def ratios(runs: dict, way: str, figure: str) -> float:
    """AttnViz's figure ÷ transformers', round by round, the median."""
    return statistics.median(a[figure] / b[figure] for a, b in zip(runs[way], runs["transformers"]))


def report(runs: dict) -> list[tuple[str, str, float, float | None, str]]:
    """(name, unit, value, target, better) rows: the issue's targets."""
    rows = []
    for way in ("compact", "fast"):
        peak = statistics.median(r["peak_mb"] for r in runs[way])
        rows.append((f"1B Q4_K, {way}: peak memory", "MB", peak,
                     1.5 * runs["file_mb"] + 1024 if way == "compact" else None, "lower"))
        if runs["transformers"]:
            rows.append((f"1B Q4_K, {way}: load ÷ transformers'", "×", ratios(runs, way, "load_s"), 0.25, "lower"))
            rows.append((f"1B Q4_K, {way}: {TOKENS}-token pass ÷ transformers'", "×", ratios(runs, way, "pass_s"),
                         2.0 if way == "compact" else 1.0, "lower"))
    if runs["transformers"]:
        rows.append(("1B Q4_K, transformers: peak memory", "MB",
                     statistics.median(r["peak_mb"] for r in runs["transformers"]), None, "lower"))
    four = runs["4b"]
    rows.append(("4B Q4_K, compact: peak memory", "MB", four["peak_mb"], 1.5 * four["file_mb"] + 1024, "lower"))
    rows.append((f"4B Q4_K, compact: load + {TOKENS}-token pass", "s", four["load_s"] + four["pass_s"], None, "lower"))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--folder", help="where the files are written (default: the system's temporary folder)")
    args = parser.parse_args()
    runs = measure(args.rounds, args.folder)
    print(json.dumps(runs))
    for name, unit, value, target, _ in report(runs):
        print(f"{name:45} {value:9.2f} {unit}" + (f"   (target {target:.2f})" if target is not None else ""))
