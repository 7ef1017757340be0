"""The real model's forward pass against PyTorch and against the machine's own matrix speed.

Two long-lived child processes hold the same GGUF file (SmolLM2-135M): AttnViz's numpy pass and,
when torch and transformers are installed (`make bench` installs them), transformers' own model
with SDPA attention, PyTorch's fastest CPU path, each with every core. They are asked in turn
(AttnViz, PyTorch, AttnViz, ...) to run the same token ids, so the machine's noise falls on both
alike; each says how long its pass took. The FLOP floor is the pass's floating-point operations
(projections, feed-forward, the causal half of attention, the last token's logits) divided by the
speed numpy's float32 matrix product reaches on this machine (2,048² operands, every core).

    python bench/model_speed.py [--tokens 10 100 1000 4096] [--rounds 5]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ATTNVIZ = r"""
import json, sys, time
sys.path.insert(0, {root!r})
import numpy as np
from attnviz.core import lm
from attnviz.core.blas import model_threads, use_one_thread
from attnviz.core.lm.allocator import one_heap
one_heap()
use_one_thread()  # both as `attnviz` starts; the pass takes every core itself
model = lm.load()
print("ready", flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    if ask["what"] == "floor":
        a = np.random.default_rng(0).standard_normal((2048, 2048), dtype=np.float32)
        with model_threads():
            a @ a
            t = time.perf_counter(); [a @ a for _ in range(5)]; s = (time.perf_counter() - t) / 5
        print(json.dumps({{"gflops": 2 * 2048 ** 3 / s / 1e9}}), flush=True)
        continue
    ids = ask["ids"]
    t = time.perf_counter(); lm.run(model, ids); s = time.perf_counter() - t
    print(json.dumps({{"s": s}}), flush=True)
"""

TORCH = r"""
import json, os, sys, time
import torch
from transformers import AutoModelForCausalLM
torch.set_num_threads(os.cpu_count())
path = {path!r}
model = AutoModelForCausalLM.from_pretrained(os.path.dirname(path), gguf_file=os.path.basename(path),
                                             dtype=torch.float32, attn_implementation="sdpa").eval()
print("ready", flush=True)
for line in sys.stdin:
    ids = torch.tensor([json.loads(line)["ids"]])
    with torch.inference_mode():
        t = time.perf_counter(); model(ids, use_cache=False); s = time.perf_counter() - t
    print(json.dumps({{"s": s}}), flush=True)
"""


class Child:
    """A process that loads a model once, then answers one JSON line per JSON line asked."""

    def __init__(self, script: str, python: str = sys.executable):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "TQDM_DISABLE": "1"}
        self.process = subprocess.Popen([python, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=env)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the child did not load its model")

    def ask(self, what: dict) -> dict:
        self.process.stdin.write(json.dumps(what) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(60)


def torch_available() -> bool:
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        return False
    return True


def flops(config, n: int) -> float:
    """Floating-point operations of a pass over n tokens (a multiply-add is two)."""
    c = config
    q, kv = c.n_heads * c.d_head, c.n_kv_heads * c.d_head
    projections = 2 * n * c.d * (2 * q + 2 * kv)                    # W_q, W_k, W_v, W_o
    feed_forward = 2 * n * c.d * c.d_ff * (3 if c.family != "gpt2" else 2)
    attention = 2 * 2 * c.n_heads * c.d_head * n * (n + 1) / 2      # q·k and weights·v, the causal half
    vocabulary = 50_000  # the logits of the last token: small beside the rest at any length
    return c.n_layers * (projections + feed_forward + attention) + 2 * c.d * vocabulary


def measure(tokens, rounds: int) -> list[dict]:
    from attnviz.core import lm
    path = lm.bundled_model()
    if path is None:
        return []
    config = lm.load().config
    ours = Child(ATTNVIZ.format(root=str(ROOT)))
    theirs = Child(TORCH.format(path=str(path))) if torch_available() else None
    import numpy as np
    rng = np.random.default_rng(1234)
    out = []
    try:
        floor = ours.ask({"what": "floor"})["gflops"]
        for n in tokens:
            ids = rng.integers(0, 49152, n).tolist()
            ask = {"what": "run", "ids": ids}
            ours.ask(ask)  # warm-up, both
            if theirs:
                theirs.ask(ask)
            a, b = [], []
            for _ in range(rounds if n < 4096 else max(2, rounds // 2)):
                a.append(ours.ask(ask)["s"])
                if theirs:
                    b.append(theirs.ask(ask)["s"])
            mine = float(np.median(a))
            entry = {"tokens": n, "attnviz_s": mine, "gflop": flops(config, n) / 1e9, "floor_gflops": floor,
                     "floor_s": flops(config, n) / 1e9 / floor}
            entry["gflops"] = entry["gflop"] / mine
            entry["vs_floor"] = mine / entry["floor_s"]
            if theirs:
                entry["pytorch_s"] = float(np.median(b))
                entry["vs_pytorch"] = mine / entry["pytorch_s"]
                entry["pairs"] = [x / y for x, y in zip(a, b)]
            out.append(entry)
    finally:
        ours.close()
        if theirs:
            theirs.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, nargs="+", default=[10, 100, 1000, 4096])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    for entry in measure(args.tokens, args.rounds):
        print(json.dumps(entry))
    print(f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
