"""IOI activation patching over a dataset, AttnViz against TransformerLens on the same GGUF file.

The indirect-object task (Wang et al. 2022) as a researcher runs it: 50 prompt pairs, each clean
prompt ("When Mary and John went to the store, John gave a drink to" → " Mary") beside its
corrupted twin (the second "John" made "Mary": the answer flips), every prompt 14 tokens. Each of
SmolLM2-135M's 270 heads has its output (every position) patched from the clean run into the
corrupted one; the metric is the logit difference (answer − against) restored, per pair, averaged
over the pairs.

* AttnViz: `api.patch(m, pairs)`, from the texts (each pair run clean and corrupted, then
  patched layer by layer, each patched pass starting at its layer).
* TransformerLens 4.3: `TransformerBridge` over transformers' model of the same GGUF file
  (dequantised to float32, eager attention, as the bridge requires), the clean batch cached at
  `hook_z` only, then `patching.get_act_patch_attn_head_out_all_pos` over the batch of 50: its
  documented way, one whole forward pass of the batch per head.

Two long-lived child processes, each with every core, are asked in turn (AttnViz, TransformerLens,
AttnViz, ...), so the machine's noise falls on both alike; the figure is AttnViz's time ÷
TransformerLens's, pair by pair, and the two maps' largest difference shows they did the same work.
TransformerLens runs in a throwaway venv (build/bench-tl, which `make bench` makes; or --reference).

    python bench/ioi.py [--pairs 50] [--rounds 3] [--reference PYTHON]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "build" / "bench-tl" / "bin" / "python"
sys.path.insert(0, str(ROOT))

NAMES = ("Mary John Tom James Anna Sarah David Paul Kate Lisa Mark Emma Jack Alice Bob Peter Laura Sam Ben "
         "Dan Amy Jane Mike Steve Rose Lucy Eric Adam Ruth Ann").split()  # one token each, with a space before
TEMPLATES = ("When {a} and {b} went to the store, {s} gave a drink to",
             "When {a} and {b} went to the park, {s} gave a ball to",
             "After {a} and {b} went to the office, {s} gave a letter to")


def dataset(n: int = 50) -> list[tuple[str, str, str, str]]:
    """n (clean, corrupted, answer, against) pairs: names in a fixed order, never the same twice in a pair."""
    pairs = []
    for i in range(n):
        a, b = NAMES[i % len(NAMES)], NAMES[(7 * i + 3) % len(NAMES)]
        if a == b:
            b = NAMES[(i + 1) % len(NAMES)]
        template = TEMPLATES[i % len(TEMPLATES)]
        pairs.append((template.format(a=a, b=b, s=b), template.format(a=a, b=b, s=a), " " + a, " " + b))
    return pairs


ATTNVIZ = r"""
import json, sys, time
from attnviz import api
from attnviz.core.blas import use_one_thread
from attnviz.core.lm.allocator import one_heap
from bench.ioi import dataset
one_heap()
use_one_thread()  # both as `attnviz` starts; the pass takes every core itself
m = api.load()
print("ready", flush=True)
for line in sys.stdin:
    pairs = dataset(json.loads(line)["pairs"])
    t = time.perf_counter(); found = api.patch(m, pairs); s = time.perf_counter() - t
    print(json.dumps({"s": s, "map": found.restored.tolist()}), flush=True)
"""

TRANSFORMER_LENS = r"""
import json, os, sys, time, warnings
warnings.filterwarnings("ignore")
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
from transformer_lens import patching
from transformer_lens.model_bridge import TransformerBridge
from bench.ioi import dataset
torch.set_num_threads(os.cpu_count())
path = {path!r}
where, name = os.path.dirname(path), os.path.basename(path)
tokenizer = AutoTokenizer.from_pretrained(where, gguf_file=name)
hf = AutoModelForCausalLM.from_pretrained(where, gguf_file=name, dtype=torch.float32, attn_implementation="eager")
model = TransformerBridge.boot_transformers(name, hf_model=hf.eval(), tokenizer=tokenizer)
model.eval()
print("ready", flush=True)
ids = lambda texts: torch.tensor([tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts])
for line in sys.stdin:
    pairs = dataset(json.loads(line)["pairs"])
    t = time.perf_counter()
    with torch.no_grad():
        clean, corrupted = ids([p[0] for p in pairs]), ids([p[1] for p in pairs])
        answer, against = ids([p[2] for p in pairs])[:, 0], ids([p[3] for p in pairs])[:, 0]
        def difference(logits):
            last = logits[:, -1]
            return last[torch.arange(len(pairs)), answer] - last[torch.arange(len(pairs)), against]
        clean_logits, cache = model.run_with_cache(clean, names_filter=lambda n: n.endswith("hook_z"))
        top, base = difference(clean_logits), difference(model(corrupted))
        restored = lambda logits: ((difference(logits) - base) / (top - base)).mean()
        found = patching.get_act_patch_attn_head_out_all_pos(model, corrupted, cache, restored)
    s = time.perf_counter() - t
    print(json.dumps({{"s": s, "map": found.tolist()}}), flush=True)
"""


def figures(pairs: int = 50, rounds: int = 3, reference: str | os.PathLike = REFERENCE) -> dict:
    """{"attnviz_s": [...], "transformer_lens_s": [...], "ratios": [...], "largest_difference": x}, or
    {"skipped": why} when the reference cannot run."""
    if not Path(reference).exists():
        return {"skipped": f"no TransformerLens at {reference} (make bench makes build/bench-tl)"}
    import numpy as np

    from attnviz.core import lm
    from bench.model_speed import Child
    ours = Child(ATTNVIZ)
    try:
        theirs = Child(TRANSFORMER_LENS.format(path=str(lm.bundled_model())), python=str(reference))
    except RuntimeError:
        ours.close()
        return {"skipped": f"TransformerLens did not start at {reference}"}
    times: dict[str, list[float]] = {"attnviz_s": [], "transformer_lens_s": []}
    maps = {}
    for _ in range(rounds):
        for key, child in (("attnviz_s", ours), ("transformer_lens_s", theirs)):
            answer = child.ask({"pairs": pairs})
            times[key].append(answer["s"])
            maps[key] = np.array(answer["map"])
    ours.close()
    theirs.close()
    ratios = [a / b for a, b in zip(times["attnviz_s"], times["transformer_lens_s"])]
    return {**times, "ratios": ratios, "pairs": pairs, "heads": int(maps["attnviz_s"].size),
            "largest_difference": float(np.max(np.abs(maps["attnviz_s"] - maps["transformer_lens_s"])))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reference", default=str(REFERENCE), help="a Python with transformer_lens 4.3")
    args = parser.parse_args()
    print(json.dumps(figures(args.pairs, args.rounds, args.reference)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
