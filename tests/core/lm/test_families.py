"""Every family against transformers + torch (float64, eager attention), from tiny random-weight
models kept as Hugging Face folders and as GGUF files written by llama.cpp's own converter and
quantiser (tools/family_reference.py made them): the same token ids, every layer's attention
weights and the next-token probabilities within 1e-4, in English and Japanese."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFReader

from attnviz.core import lm
from attnviz.core.compute import compute
from attnviz.core.lm import families

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "families"
FAMILIES = tuple(families.FAMILIES)  # every family registered: a new one is tested without a list here
TOLERANCE = 1e-4


def sources():
    if not GOLDEN.is_dir():
        return []
    return [(family, source) for family in FAMILIES
            for source in json.loads((GOLDEN / family / "manifest.json").read_text(encoding="utf-8"))["sources"]]


@pytest.mark.parametrize("family, source", sources(), ids=lambda x: x)
def test_a_family_matches_transformers_from_its_folder_and_every_gguf(family, source):
    manifest = json.loads((GOLDEN / family / "manifest.json").read_text(encoding="utf-8"))
    model = lm.load(str(GOLDEN / family / manifest["sources"][source]["file"]))
    assert model.config.family == family
    with np.load(GOLDEN / family / "reference.npz") as reference:
        for i, sentence in enumerate(manifest["sentences"]):
            key = f"{source}_s{i}"
            encoded = lm.encode(model, sentence)
            assert list(encoded.ids) == reference[f"{key}_ids"].tolist(), sentence
            result = lm.run(model, encoded.ids)
            weights = [np.stack(compute(lm.scenario(model, encoded, result, layer)).weights())
                       for layer in range(model.config.n_layers)]
            np.testing.assert_allclose(np.stack(weights), reference[f"{key}_attn"], rtol=0, atol=TOLERANCE)
            np.testing.assert_allclose(result.probs, reference[f"{key}_probs"], rtol=0, atol=TOLERANCE)


def test_gemma_3s_sliding_layers_attend_within_their_window_and_say_so():
    if not GOLDEN.is_dir():
        pytest.skip("tests/golden/families is not there")
    model = lm.load(str(GOLDEN / "gemma3" / "hf"))
    encoded = lm.encode(model, "The cat ate the fish. It was fresh.")
    result = lm.run(model, encoded.ids)
    for layer, sliding in enumerate(model.config.sliding):
        s = lm.scenario(model, encoded, result, layer)
        weights = np.stack(compute(s).weights())
        far = np.tril(np.ones_like(weights[0], dtype=bool), -model.config.window)
        assert (s.settings.mask_kind == "window") == sliding
        assert (weights[:, far] == 0).all() == sliding or not far.any()


def token_cases():
    if not GOLDEN.is_dir():
        return []
    families = json.loads((GOLDEN / "tokens.json").read_text(encoding="utf-8"))["families"]
    return [(family, source, name) for family in FAMILIES for source in ("hf", "gguf")
            for name in families[family][source] if name in golden_texts()]


def golden_texts() -> dict:
    return json.loads((GOLDEN / "tokens.json").read_text(encoding="utf-8"))["texts"]


@pytest.mark.parametrize("family, source, name", token_cases(), ids=lambda x: x)
def test_the_files_own_tokenizer_gives_transformers_ids(family, source, name):
    """English, Japanese, code, emoji, whitespace, full-width forms and a typed special token,
    with and without the BOS the model asks for, as transformers' tokenizer of the same file."""
    golden = json.loads((GOLDEN / "tokens.json").read_text(encoding="utf-8"))
    text = golden["texts"][name]
    expected = golden["families"][family][source][name]
    path = GOLDEN / family / ("hf" if source == "hf" else f"{family}-f32.gguf")
    tokenizer = lm.load(str(path)).tokenizer
    assert [t.id for t in tokenizer.encode(text, bos=True)] == expected["with_special"], text
    assert [t.id for t in tokenizer.encode(text, bos=False)] == expected["without_special"], text


def test_gemma_3s_gguf_reads_its_sliding_layers_rope_base_as_its_folder_does(tmp_path):
    """Attacker round 14: gemma3.rope.freq_base_swa was never read, the sliding layers always at 10,000."""
    if not GOLDEN.is_dir():
        pytest.skip("tests/golden/families is not there")
    gguf = tmp_path / "gemma3.gguf"
    shutil.copy(GOLDEN / "gemma3" / "gemma3-f32.gguf", gguf)
    field = GGUFReader(gguf, "r+").fields["gemma3.rope.freq_base_swa"]
    field.parts[field.data[0]][0] = 50_000.0  # written through the reader's memory map
    folder = tmp_path / "hf"
    shutil.copytree(GOLDEN / "gemma3" / "hf", folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config["rope_parameters"]["sliding_attention"]["rope_theta"] = 50_000.0
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    ids = lm.encode(lm.load(str(folder)), "The cat ate the fish. It was fresh.").ids
    probs = {name: lm.run(lm.load(str(path)), ids).probs
             for name, path in (("gguf", gguf), ("folder", folder), ("10,000", GOLDEN / "gemma3" / "hf"))}
    np.testing.assert_allclose(probs["gguf"], probs["folder"], rtol=0, atol=TOLERANCE)
    assert np.abs(probs["gguf"] - probs["10,000"]).max() > 100 * TOLERANCE  # the base tells them apart
