"""Hugging Face folders whose embedding and tokenizer differ in size, as real ones do (Qwen 2
pads its embedding to 151,936 rows for 151,646 tokens)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from attnviz.core import lm
from attnviz.core.files import FileProblem

TINY = Path(__file__).resolve().parents[2] / "golden" / "families" / "qwen2" / "hf"


def with_rows(tmp_path, rows: int) -> Path:
    """The tiny Qwen 2 with `rows` embedding and output rows (its tokenizer unchanged)."""
    folder = tmp_path / "qwen2"
    shutil.copytree(TINY, folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    tensors = load_file(str(folder / "model.safetensors"))
    for name in ("model.embed_tokens.weight", "lm_head.weight"):
        if name in tensors:
            w = tensors[name]
            pad = np.full((max(rows - len(w), 0), w.shape[1]), 0.5, np.float32)  # padding rows that win
            tensors[name] = np.concatenate([w[:rows], pad])
    save_file(tensors, str(folder / "model.safetensors"))
    config["vocab_size"] = rows
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def test_a_padded_embedding_row_can_be_predicted_and_is_named_by_its_id(tmp_path):
    model = lm.load(str(with_rows(tmp_path, 600)))
    assert len(model.vocabulary) < 600
    result = lm.run(model, lm.encode(model, "The cat").ids)
    best = lm.top(model, result.probs, 600)
    padded = [(i, text) for i, text, _ in best if i >= len(model.vocabulary)]
    assert padded and all(text == f"⟨{i}⟩" for i, text in padded)


def test_a_tokenizer_with_more_tokens_than_embedding_rows_is_refused_in_one_line(tmp_path):
    with pytest.raises(FileProblem, match="one row per token is needed") as refused:
        lm.load(str(with_rows(tmp_path, 300)))
    assert "\n" not in str(refused.value)
