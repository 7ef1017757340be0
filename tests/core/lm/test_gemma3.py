"""The real Gemma 3 270M (Q4_K_M, from its optional package) against transformers loading the same
GGUF (tools/family_reference.py wrote tests/golden/gemma3/): the same token ids, the ten likeliest
next tokens and their probabilities, and the attention of a sliding layer (0) and the two global
ones it checks (5, 17), within 1e-4, on a Japanese, an English and a second Japanese sentence."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.compute import compute
from attnviz.core.lm import catalog

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "gemma3"
TOLERANCE = 1e-4

pytestmark = pytest.mark.real_model("gemma3")


@pytest.fixture(scope="module")
def gemma():
    return lm.load(lm.GEMMA_ID)


def golden():
    manifest = json.loads((GOLDEN / "manifest.json").read_text(encoding="utf-8"))
    return manifest, np.load(GOLDEN / "reference.npz")


def test_gemma_3_reads_as_the_file_says(gemma):
    c = gemma.config
    assert (c.family, c.n_layers, c.n_heads, c.n_kv_heads, c.d_head) == ("gemma3", 18, 4, 1, 256)
    assert (c.d, c.d_ff) == (640, 2048)
    assert [i for i in range(c.n_layers) if not c.is_sliding(i)] == [5, 11, 17] and c.window == 512
    assert (c.base(0), c.base(5)) == (10_000.0, 1_000_000.0)
    assert gemma.licence == catalog.GEMMA_LICENCE and len(gemma.vocabulary) == 262_144


@pytest.mark.parametrize("i", range(3))
def test_gemma_3_matches_transformers_on_the_same_file(gemma, i):
    manifest, reference = golden()
    text = manifest["sentences"][i]
    encoded = lm.encode(gemma, text)
    assert list(encoded.ids) == reference[f"s{i}_ids"].tolist(), text
    result = lm.run(gemma, encoded.ids)
    best = np.argsort(-result.probs, kind="stable")[:10]
    assert best.tolist() == reference[f"s{i}_top10_ids"].tolist()
    np.testing.assert_allclose(result.probs[best], reference[f"s{i}_top10_probs"], rtol=0, atol=TOLERANCE)
    for layer in manifest["attn_layers"]:
        weights = np.stack(compute(lm.scenario(gemma, encoded, result, layer)).weights())
        np.testing.assert_allclose(weights, reference[f"s{i}_attn_l{layer}"], rtol=0, atol=TOLERANCE)


def test_the_seed_sentence_is_word_like_tokens_on_gemma_3(gemma):
    labels = lm.encode(gemma, "猫が魚を食べた。それは新鮮だった。").labels
    assert labels == ("⟨BOS⟩", "猫", "が", "魚", "を食べ", "た", "。", "それは", "新鮮", "だった", "。")
