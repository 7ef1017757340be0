"""The research workbench's work on the real model, timed: a sweep of every head (zero and mean
ablation), patching by head and by position, the logit lens, the attribution and the head types,
each beside one forward pass of the same text (the anchor: the issue asks for a sweep of every
head "in seconds"), and the sweep against the same ablations rerun one at a time (what batching
the variants of a layer saves). Medians of a few rounds, the workbench's own functions (core/research).

    python bench/research.py [--rounds 3] [--quick]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

CLEAN = "The Eiffel Tower is in the city of"
CORRUPTED = "The Colosseum is in the city of"
# about 30 tokens, as the sweep
TEXT = ("When Mary and John went to the store on a warm afternoon in May, they bought bread and milk, "
        "and then John gave a drink to")


def median_seconds(work, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return float(np.median(samples))


def one_by_one(model, result, token: int) -> None:
    """The sweep as it would be without batching: each head switched off, rerun from its layer alone."""
    from attnviz.core import lm
    from attnviz.core.scenario import Change
    c = model.config
    for layer in range(c.n_layers):
        for head in range(c.n_heads):
            lm.run(model, result.ids, ((layer, head, Change(off=True)),), after=result)


def figures(source=None, rounds: int = 3, quick: bool = False) -> list[dict]:
    from attnviz.core import lm
    from attnviz.core.research import attribution, head_types, lens, patch, sweep
    from attnviz.core.research.answer import one_token
    model = lm.load(source)
    c = model.config
    result = lm.run(model, lm.encode(model, TEXT).ids)
    token = int(np.argmax(result.logits))
    clean, corrupted = (lm.run(model, lm.encode(model, t).ids) for t in (CLEAN, CORRUPTED))
    answer, against = one_token(model, " Paris"), one_token(model, " Rome")
    heads = c.n_layers * c.n_heads
    work = {
        "one forward pass": lambda: lm.run(model, result.ids),
        f"sweep of {heads} heads (zero)": lambda: sweep.sweep(model, result, token),
        f"sweep of {heads} heads (mean)": lambda: sweep.sweep(model, result, token, mean=True),
        "patching by head": lambda: patch.patch(model, clean, corrupted, answer, against, "head"),
        "patching by position": lambda: patch.patch(model, clean, corrupted, answer, against, "position"),
        "logit lens": lambda: lens.logit_lens(model, result),
        "attribution": lambda: attribution.head_attribution(model, result, token),
        "head types": lambda: head_types._measured(model, head_types.REPEAT, 0, None, None),
    }
    out = []
    for what, job in work.items():
        out.append({"model": c.name, "what": what, "tokens": len(result.ids), "s": median_seconds(job, rounds)})
    if not quick:  # the sweep beside the same ablations one at a time, in turn
        batched, single = [], []
        for _ in range(2):
            batched.append(median_seconds(lambda: sweep.sweep(model, result, token), 1))
            single.append(median_seconds(lambda: one_by_one(model, result, token), 1))
        out.append({"model": c.name, "what": "sweep ÷ the same reruns one at a time", "tokens": len(result.ids),
                    "ratio": float(np.median(np.array(batched) / np.array(single))), "one_at_a_time_s": min(single)})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for entry in figures(rounds=args.rounds, quick=args.quick):
        print(json.dumps(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
