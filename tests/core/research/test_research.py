"""The research workbench's numbers: against PyTorch hooks on the same GGUF file
(tools/research_reference.py made tests/golden/research/smollm2.npz), the attribution's sum
identity in every family, batched reruns against single ones, head-type scores against the
weights themselves, and tokens named by text or id."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.lm import families
from attnviz.core.research import attribution, batch, continuation, head_types, lens, parts, patch, sweep
from attnviz.core.research.answer import one_token
from attnviz.core.scenario import Change, StreamPatch

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
FAMILIES = tuple(families.FAMILIES)  # every family registered: a new one is tested without a list here
needs_smollm2 = pytest.mark.real_model("smollm2")
TOLERANCE = 1e-4


def tiny(family: str):
    return lm.load(str(GOLDEN / "families" / family / "hf"))


@pytest.fixture(scope="module")
def smollm2():
    return lm.load()


@pytest.fixture(scope="module")
def golden():
    return np.load(GOLDEN / "research" / "smollm2.npz")


@pytest.fixture(scope="module")
def prompts(smollm2, golden):
    clean, corrupted = (lm.run(smollm2, golden[k]) for k in ("clean_ids", "corrupted_ids"))
    return clean, corrupted, int(golden["answer"]), int(golden["against"])


# ------------------------------------------------------------- against PyTorch

@needs_smollm2
def test_patching_each_head_restores_what_pytorch_hooks_restore(smollm2, golden, prompts):
    clean, corrupted, answer, against = prompts
    found = patch.patch(smollm2, clean, corrupted, answer, against, "head")
    assert abs(found.clean - golden["clean_diff"]) < TOLERANCE
    assert abs(found.corrupted - golden["corrupted_diff"]) < TOLERANCE
    ours = np.array([found.restored[layer, head] for layer, head in golden["heads"]])
    assert np.abs(ours - golden["patched_heads"]).max() < TOLERANCE
    assert found.restored.shape == (30, 9) and found.restored.max() > 0.2  # heads that carry Paris vs Rome


@needs_smollm2
def test_patching_the_residual_stream_at_a_position_restores_what_pytorch_hooks_restore(smollm2, golden, prompts):
    clean, corrupted, answer, against = prompts
    found = patch.patch(smollm2, clean, corrupted, answer, against, "position")
    ours = np.array([found.restored[layer, p] for layer, p in golden["positions"]])
    assert np.abs(ours - golden["patched_positions"]).max() < TOLERANCE
    assert found.restored[0, 2] > 0.7  # "iffel" entering layer 0 brings most of Paris back


@needs_smollm2
def test_the_logit_lens_gives_pytorchs_probabilities(smollm2, golden, prompts):
    clean, _, answer, _ = prompts
    found = lens.logit_lens(smollm2, clean, 5, answer)
    for row, layer in enumerate(golden["lens_layers"]):
        z = parts.logits_of(smollm2, parts.residual(smollm2, clean, layer + 1))
        p = np.exp(parts.log_softmax(z))
        assert np.abs(np.take_along_axis(p, golden["lens_ids"][row], axis=-1) - golden["lens_p"][row]).max() < TOLERANCE
        assert np.abs(found.p[layer] - golden["lens_p"][row]).max() < TOLERANCE  # its own top 5, the same ones
    assert found.rank[-1, -1] == 1 and found.rank[0, -1] > 1000  # Paris: found late, first at the end


@needs_smollm2
def test_each_heads_direct_contribution_is_pytorchs(smollm2, golden, prompts):
    clean, _, answer, _ = prompts
    found = attribution.head_attribution(smollm2, clean, answer)
    assert np.abs(found.heads - golden["attr_heads"]).max() < TOLERANCE
    assert np.abs(found.mlps - golden["attr_mlps"]).max() < TOLERANCE
    assert abs(found.embedding - golden["attr_embedding"]) < TOLERANCE
    assert abs(found.logit - golden["attr_logit"]) < TOLERANCE


@needs_smollm2
@pytest.mark.parametrize("mean", [False, True])
def test_the_sweeps_change_in_log_p_is_pytorchs(smollm2, golden, prompts, mean):
    clean, _, answer, _ = prompts
    found = sweep.sweep(smollm2, clean, answer, mean)
    ours = np.array([found.delta_logp[layer, head] for layer, head in golden["heads"]])
    assert np.abs(ours - golden["sweep_mean" if mean else "sweep_zero"]).max() < TOLERANCE


# ------------------------------------------------------------- in every family

@pytest.mark.parametrize("family", FAMILIES)
def test_the_parts_add_up_to_the_logit_exactly_with_the_norms_scale_frozen(family):
    model = tiny(family)
    result = lm.run(model, lm.encode(model, "猫が魚を食べた。The cat ate the fish.").ids, ((1, 0, Change(off=True)),))
    for token in np.argsort(-result.logits)[:3]:
        found = attribution.head_attribution(model, result, int(token))
        assert abs(found.total - found.logit) < 1e-4 * max(1.0, abs(found.logit))
        assert np.all(found.heads[1, 0] == 0)  # a head switched off writes nothing


@pytest.mark.parametrize("family", FAMILIES)
def test_a_batch_of_variants_gives_what_each_rerun_gives(family):
    model = tiny(family)
    c = model.config
    ids = lm.encode(model, "The cat ate the fish. 猫が魚を食べた。").ids
    base = lm.run(model, ids, ((c.n_layers - 1, 0, Change(off=True)),))  # a change above: every variant keeps it
    other = lm.run(model, lm.encode(model, "The dog ate the bone. 犬が骨を食べた。").ids[:len(ids)])
    given = parts.head_outputs(model, other, 0)
    stream = base.streams[1].copy()
    stream[2] = other.streams[1][2]
    variants = [({0: Change(out=given[0])}, None), ({1: Change(off=True)}, None)]
    got = batch.rerun_last(model, base, 0, variants)
    for (changes, _), row in zip(variants, got):
        single = lm.run(model, ids, base.changes + tuple((0, h, ch) for h, ch in changes.items()))
        assert np.abs(row - single.logits).max() < 1e-4 * np.abs(single.logits).max()
    row = batch.rerun_last(model, base, 1, [({}, stream)])[0]
    single = lm.run(model, ids, base.changes, after=base, patch=StreamPatch(1, 2, other.streams[1][2]))
    assert np.abs(row - single.logits).max() < 1e-4 * np.abs(single.logits).max()
    assert np.abs(row - base.logits).max() > 1e-3  # the patch changed the answer


def test_a_patched_run_starts_at_the_patched_layer_and_keeps_the_layers_below():
    model = tiny("llama")  # two layers
    ids = lm.encode(model, "The cat ate the fish.").ids
    base = lm.run(model, ids)
    patch = StreamPatch(1, 0, base.streams[1][0] + 1)
    patched = lm.run(model, ids, after=base, patch=patch)
    assert patched.computed == (1,) and patched.streams[0] is base.streams[0] and patched.patch is patch
    assert np.array_equal(patched.streams[1][0], patch.x)
    assert np.array_equal(patched.streams[1][1:], base.streams[1][1:])
    assert np.abs(patched.logits - base.logits).max() > 1e-4
    assert lm.run(model, ids, after=patched, patch=StreamPatch(1, 0, patch.x.copy())) is patched  # the same patch
    # taken away: the stream entering layer 1 was kept patched, so the run starts a layer below it
    unpatched = lm.run(model, ids, after=patched)
    assert unpatched.computed == (0, 1) and unpatched.patch is None
    np.testing.assert_allclose(unpatched.logits, base.logits, rtol=0, atol=1e-6)
    np.testing.assert_allclose(unpatched.streams[1], base.streams[1], rtol=0, atol=1e-6)
    for bad in (StreamPatch(2, 0, patch.x), StreamPatch(1, -1, patch.x), StreamPatch(1, len(ids), patch.x),
                StreamPatch(1, 0, patch.x[:-1])):  # no such layer or position, or not the model's width
        with pytest.raises(ValueError, match="patch of the stream"):
            lm.run(model, ids, after=base, patch=bad)


def test_a_position_cell_applied_live_restores_what_the_map_says():
    """A cell of the map by position, applied as the window applies it (lm.run with its
    StreamPatch), restores the share of the logit difference the map shows there."""
    model = tiny("llama")
    ids = lm.encode(model, "The cat ate the fish.").ids
    other = ids[:2] + (ids[2] + 1,) + ids[3:]  # one token changed: as long in tokens
    clean, corrupted = lm.run(model, ids), lm.run(model, other)
    answer, against = int(np.argmax(clean.logits)), int(np.argmax(corrupted.logits))
    found = patch.patch(model, clean, corrupted, answer, against, by="position")
    for layer, position in ((0, 2), (1, len(clean.ids) - 1)):
        live = lm.run(model, corrupted.ids, patch.changes_of(model, clean, corrupted, "position", layer, position),
                      after=corrupted, patch=patch.stream_patch(clean, "position", layer, position))
        restored = (patch.logit_difference(live, answer, against) - found.corrupted) / (found.clean - found.corrupted)
        assert abs(restored - found.restored[layer, position]) < 1e-4
    assert patch.stream_patch(clean, "head", 1, 2) is None


# ------------------------------------------------------------- head types

def test_head_types_are_measured_on_random_tokens_repeated_once_after_bos(smollm2_or_tiny):
    model = smollm2_or_tiny
    ids = head_types.repeated_tokens(model, 20, seed=3)
    bos = () if model.tokenizer.bos is None else (model.tokenizer.bos,)
    assert ids[:len(bos)] == bos and ids[len(bos):len(bos) + 20] == ids[len(bos) + 20:]
    assert len(set(ids[len(bos):len(bos) + 20])) == 20 and head_types.repeated_tokens(model, 20, seed=3) == ids


@pytest.fixture(scope="module")
def smollm2_or_tiny():
    return lm.load() if lm.bundled_model() is not None else tiny("llama")


def test_head_type_scores_are_the_weights_own_means(smollm2_or_tiny):
    model = smollm2_or_tiny
    found = head_types.head_types(model, length=12, seed=1)
    result = lm.run(model, found.ids)
    first, n = len(found.ids) - 24, len(found.ids)
    for layer, head in [(0, 0), (model.config.n_layers - 1, model.config.n_heads - 1)]:
        w = parts.head_weights(model, result, layer)[head].astype(np.float64)
        expect = {"previous": np.mean([w[i, i - 1] for i in range(1, n)]),
                  "induction": np.mean([w[i, i - 11] for i in range(first + 12, n)]),
                  "duplicate": np.mean([w[i, i - 12] for i in range(first + 12, n)]),
                  "sink": np.mean([w[i, 0] for i in range(1, n)]),
                  "local": np.mean([w[i, i - 2:i + 1].sum() for i in range(2, n)])}
        for kind, value in expect.items():
            assert abs(found.scores[kind][layer, head] - value) < 1e-9, kind


@needs_smollm2
def test_smollm2s_induction_and_previous_token_heads_are_found(smollm2):
    found = head_types.head_types(smollm2)
    assert {(layer, head) for layer, head, _ in found.top("induction", 3)} <= {(17, 3), (17, 4), (18, 6), (18, 7)}
    assert (16, 0) in {(layer, head) for layer, head, _ in found.top("previous", 3)}


# ------------------------------------------------------------- tokens, continuations

@needs_smollm2
def test_a_token_is_named_by_its_text_or_its_id_and_anything_else_is_refused(smollm2):
    assert one_token(smollm2, " Paris") == 7042 and one_token(smollm2, "#7042") == 7042
    with pytest.raises(lm.ModelError, match="'Paris is' is 2 tokens for this model \\('Paris' \\| ' is'\\)"):
        one_token(smollm2, "Paris is")
    with pytest.raises(lm.ModelError, match="#49152: the model's token ids go from 0 to 49,151"):
        one_token(smollm2, "#49152")
    with pytest.raises(lm.ModelError, match="give a token"):
        one_token(smollm2, "")


def test_a_continuations_tokens_have_the_probability_and_rank_the_model_gave_them():
    model = tiny("llama")
    prompt = lm.encode(model, "The cat").ids
    whole = lm.encode(model, "The cat ate the fish").ids
    found = continuation.continuation(model, lm.run(model, whole), len(prompt), k=3)
    alone = lm.run(model, prompt)
    first = whole[len(prompt)]
    assert abs(found.p[0] - alone.probs[first]) < 1e-5
    assert found.rank[0] == 1 + (alone.probs > alone.probs[first]).sum()
    assert found.rivals[0, 0] == int(np.argmax(alone.probs)) and len(found.target) == len(whole) - len(prompt)


def test_the_lens_refuses_a_text_too_long_before_any_work():
    model = tiny("llama")
    result = lm.run(model, [5] * (lens.MAX_LENS_TOKENS + 1))
    with pytest.raises(lm.ModelError, match="at most 512 tokens"):
        lens.logit_lens(model, result)


def test_patching_refuses_prompts_of_other_lengths_and_answers_that_do_not_differ():
    model = tiny("llama")
    a, b = lm.run(model, [5, 6, 7]), lm.run(model, [5, 6])
    with pytest.raises(lm.ModelError, match="3 tokens and the corrupted one 2"):
        patch.patch(model, a, b, 1, 2)
    with pytest.raises(lm.ModelError, match="same logit difference"):
        patch.patch(model, a, a, 1, 2)


def test_a_text_is_read_with_or_without_the_bos_token_and_ids_are_read_as_given():
    model = tiny("gemma3")
    assert lm.encode(model, "The cat").labels == ("⟨BOS⟩", "The", "·cat")
    assert lm.encode(model, "The cat", bos=False).labels == ("The", "·cat")
    assert lm.encode_ids(model, [2, 5]).ids == (2, 5)
    with pytest.raises(lm.ModelError, match=f"token id {len(model.output)}: the model.s ids go from 0 to"):
        lm.encode_ids(model, [2, len(model.output)])
    with pytest.raises(lm.ModelError, match="at least one"):
        lm.encode_ids(model, [])


def test_a_models_head_types_are_measured_once_whatever_asks_again(monkeypatch):
    model = tiny("llama")
    first = head_types.head_types(model)
    runs = []

    def counted(*args, **kwargs):
        runs.append(1)
        raise lm.Cancelled()
    monkeypatch.setattr(head_types, "run", counted)
    assert head_types.head_types(model) is first and runs == []  # the overview's refresh, the workbench
    with pytest.raises(lm.Cancelled):  # another sequence is measured anew
        head_types.head_types(model, length=12)
    assert runs == [1]


# attacker round 30: a tokenizer that puts an EOS after every text, and SentencePiece's space before one
def test_a_continuation_on_a_model_that_ends_every_text_with_an_eos_is_its_target_alone(tmp_path):
    from tests.gguf_writer import tiny_llama
    path = tmp_path / "eos.gguf"
    tiny_llama(path, metadata={"tokenizer.ggml.add_eos_token": True, "tokenizer.ggml.eos_token_id": 3,
                               "tokenizer.ggml.add_bos_token": True, "tokenizer.ggml.bos_token_id": 0})
    model = lm.load(str(path))
    whole, found = continuation.explained(model, "ab", " a b")
    own = lm.encode(model, "ab a b").ids  # BOS, ab, Ġa, Ġ, b, EOS
    assert whole.ids == own and own[-1] == 3
    assert found.target == own[2:-1] and list(found.columns()["position"]) == [2, 3, 4]
    alone = lm.run(model, own[:2])
    assert abs(found.p[0] - alone.probs[own[2]]) < 1e-5


BYTES = ("<0x0A>", "<0x21>")  # SentencePiece's byte fallback: a line break, "!"


def spm_model(tmp_path, metadata=None):
    """A SentencePiece vocabulary with a space before the text (Llama 2's), two byte tokens and the "!" one of
    them is written as."""
    from tests.gguf_writer import F32, tiny_llama
    tokens = ["<unk>", "<s>", "</s>", *BYTES, "▁", "e", "s", "es", "ess", "▁e", "▁es", "▁ess", "▁▁", "q", "▁q", "▁qq",
              "!"]
    path = tmp_path / "spm.gguf"
    tiny_llama(path, metadata={
        "tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.merges": None,
        "tokenizer.ggml.scores": [0.0, 0.0, 0.0, 0.0, 0.0, *(-float(i) for i in range(1, len(tokens) - 4))],
        "tokenizer.ggml.token_type": [2, 3, 3, 6, 6, *[1] * (len(tokens) - 5)], "tokenizer.ggml.pre": None,
        "tokenizer.ggml.bos_token_id": 1, "tokenizer.ggml.add_bos_token": True, **(metadata or {})},
        tensors={"token_embd.weight": (np.zeros((len(tokens), 64), np.float32), F32)})
    return lm.load(str(path)), tokens


def test_a_sentencepiece_token_is_named_by_its_text_as_the_next_token_list_writes_it(tmp_path):
    model, tokens = spm_model(tmp_path)
    at = tokens.index
    assert lm.encode(model, "ess", bos=False).ids == (at("▁ess"),)  # SentencePiece reads 'ess' as ▁ess
    assert one_token(model, "ess") == at("ess") and one_token(model, " ess") == at("▁ess")
    assert one_token(model, "es") == at("es") and one_token(model, " es") == at("▁es") and one_token(model, "#4") == 4
    for i in range(5, len(tokens)):  # every token by the text it is listed with
        assert one_token(model, lm.token_text(model, i)) == i, tokens[i]
    # "!" is written alike by its byte token and its own: the one the tokenizer makes of "!" is named
    assert lm.token_text(model, at("<0x21>")) == "!" and one_token(model, "!") == at("!")
    with pytest.raises(lm.ModelError, match=r"'qq' is no token of this model; it reads the text as ' qq' \(#16\)"):
        one_token(model, "qq")
    with pytest.raises(lm.ModelError, match="'ess!' is 2 tokens"):  # judged whole, not by its first token
        one_token(model, "ess!")
    most = model.tokenizer.longest
    with pytest.raises(lm.ModelError, match="has 1,001 characters; no token of this model is written with more than "
                                            f"{most - 1}"):  # its longest label: <unk>
        one_token(model, "e" * 1001)


def test_a_gguf_chat_template_gets_the_bos_and_eos_as_their_text_as_llama_cpp_gives_it(tmp_path):
    chat = {"tokenizer.chat_template": "{{ bos_token }}{{ messages[0]['content'] }}{{ eos_token }}",
            "tokenizer.ggml.add_bos_token": False, "tokenizer.ggml.bos_token_id": 3, "tokenizer.ggml.eos_token_id": 15}
    model, tokens = spm_model(tmp_path, chat)
    assert tokens[3] == "<0x0A>" and tokens[15] == "▁q"
    assert model.tokenizer.chat("es") == "\nes q"  # the byte token as its line break, ▁q as " q"


# attacker round 32: a padding row named as the list labels it; a GGUF's special tokens as llama.cpp gives them
def test_an_embedding_s_padding_row_is_named_by_its_label(tmp_path):
    import json
    import shutil

    from safetensors.numpy import load_file, save_file
    folder = tmp_path / "padded"
    shutil.copytree(Path(__file__).resolve().parents[2] / "golden" / "families" / "qwen2" / "hf", folder)
    weights = load_file(folder / "model.safetensors")
    for name in ("lm_head.weight", "model.embed_tokens.weight"):  # 8 rows past the tokenizer's 512, as Qwen2.5's
        weights[name] = np.concatenate([weights[name], np.zeros((8, weights[name].shape[1]), weights[name].dtype)])
    save_file(weights, folder / "model.safetensors")
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "vocab_size": 520}))
    model = lm.load(str(folder))
    assert lm.token_text(model, 515) == "⟨515⟩" and one_token(model, "⟨515⟩") == 515


def test_a_gguf_template_gets_control_tokens_as_written_and_unused_ones_as_nothing(tmp_path):
    chat = {"tokenizer.chat_template": "[{{ bos_token }}|{{ eos_token }}]{{ messages[0]['content'] }}",
            "tokenizer.ggml.add_bos_token": False, "tokenizer.ggml.bos_token_id": 15, "tokenizer.ggml.eos_token_id": 16}
    types = [2, 3, 3, 6, 6, *[1] * 10, 4, 5, 1]  # ▁q user-defined, ▁qq unused
    model, tokens = spm_model(tmp_path, {**chat, "tokenizer.ggml.token_type": types})
    assert (tokens[15], tokens[16]) == ("▁q", "▁qq")
    assert model.tokenizer.chat("es") == "[▁q|]es"


def test_a_label_longer_than_what_is_tokenised_still_names_its_token(tmp_path):
    from attnviz.core.lm.tokens import byte_characters
    from tests.gguf_writer import F32, tiny_llama
    tokens = [*byte_characters(), "ab", "Ġa", byte_characters()[0x80] * 400]  # 400 stray bytes: <80 80 … 80>
    path = tmp_path / "long.gguf"
    tiny_llama(path, metadata={"tokenizer.ggml.tokens": tokens},
               tensors={"token_embd.weight": (np.zeros((len(tokens), 64), np.float32), F32)})
    model = lm.load(str(path))
    label = lm.token_text(model, len(tokens) - 1)
    assert len(label) == 1201 and one_token(model, label) == len(tokens) - 1
    with pytest.raises(lm.ModelError, match="'xxxxx.*' is 1001 tokens"):  # shorter than that label: tokenised
        one_token(model, "x" * 1001)
