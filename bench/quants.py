"""AttnViz's own dequantisers against gguf's, side by side in one process (issue 48: the K-quants at
≥ 5× gguf's speed). Each round times both on the same 4 M values, in turn, so a busy machine slows both.

    .venv/bin/python bench/quants.py
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TYPES = ("Q4_K", "Q5_K", "Q6_K", "Q2_K", "Q3_K", "Q8_0", "Q4_0", "Q4_1")
VALUES = 1 << 22


def stored(name: str, rng) -> np.ndarray:
    """Random blocks of type `name` whose floats are small finite numbers (as a real file's are)."""
    from attnviz.core.gguf import TYPES as ALL
    quant = next(q for q in ALL.values() if q.name == name)
    blocks = rng.integers(0, 256, (VALUES // quant.per_block, quant.block_bytes), dtype=np.uint8)
    floats = rng.uniform(1e-3, 1e-2, (len(blocks), quant.float_bytes // 2)).astype(np.float16)
    blocks[:, quant.float_at:quant.float_at + quant.float_bytes] = floats.view(np.uint8)
    return blocks


def measure(rounds: int = 7) -> list[dict]:
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize

    from attnviz.core.quants import OWN
    rng, out = np.random.default_rng(0), []
    for name in TYPES:
        blocks, kind, ratios, ours = stored(name, rng), GGMLQuantizationType[name], [], []
        for _ in range(rounds):
            start = time.perf_counter()
            dequantize(blocks, kind)
            middle = time.perf_counter()
            OWN[name].dequantize(blocks)
            end = time.perf_counter()
            ratios.append((middle - start) / (end - middle))
            ours.append((end - middle) * 1e3)
        out.append({"type": name, "ratio": statistics.median(ratios), "own_ms": statistics.median(ours)})
    return out


if __name__ == "__main__":
    for e in measure():
        print(f"{e['type']:5} own {e['own_ms']:6.1f} ms per {VALUES:,} values, {e['ratio']:4.1f}× gguf's speed")
