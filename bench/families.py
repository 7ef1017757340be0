"""Model folders of real sizes for the families without a real model here (qwen2, qwen3, gpt2):
random weights in the shapes of SmolLM2-135M (qwen2 with its biases, qwen3 with its QK-norm) and
of GPT-2 small, float32 safetensors, written as Hugging Face folders with the tiny golden
models' tokenizers. `make bench` loads them to measure each family's memory and speed."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "families"
SMOLLM2_SHAPE = {"hidden_size": 576, "num_hidden_layers": 30, "num_attention_heads": 9, "num_key_value_heads": 3,
                 "head_dim": 64, "intermediate_size": 1536, "vocab_size": 49152, "max_position_embeddings": 8192}
SIZES = {
    "qwen2": SMOLLM2_SHAPE,
    "qwen3": {**SMOLLM2_SHAPE, "layer_types": ["full_attention"] * 30},
    "gpt2": {"n_embd": 768, "n_layer": 12, "n_head": 12, "n_inner": None, "vocab_size": 50257, "n_positions": 1024,
             "n_ctx": 1024},
}


class _NoHead:
    """What expected_shapes asks of a folder's tensors: tied embeddings, no separate lm_head."""

    def has(self, name: str) -> bool:
        return False


def write(family: str, folder: Path, seed: int = 0) -> Path:
    """A folder of `family` at its SIZES, random N(0, 0.02) weights and norms near 1."""
    from safetensors.numpy import save_file

    from attnviz.core.lm import hf_folder
    tiny = GOLDEN / family / "hf"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(tiny / name, folder / name)
    config = {**json.loads((tiny / "config.json").read_text(encoding="utf-8")), **SIZES[family],
              "tie_word_embeddings": True}
    (folder / "config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    c = hf_folder._config(folder, config)
    rng = np.random.default_rng(seed)
    tensors = {}
    for name, shape in hf_folder.expected_shapes(c, config["vocab_size"], _NoHead()).items():
        if len(shape) == 1 and ("norm" in name or "ln_" in name) and name.endswith("weight"):
            tensors[name] = (1 + 0.1 * rng.standard_normal(shape)).astype(np.float32)
        else:
            tensors[name] = (0.02 * rng.standard_normal(shape, dtype=np.float32))
    save_file(tensors, str(folder / "model.safetensors"))
    return folder
