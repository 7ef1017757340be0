"""The real model in numpy against its reference implementations (golden files from
tools/smollm2_reference.py: Hugging Face transformers and llama.cpp, run once offline)."""
import json
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import compute, lm
from attnviz.core.attention import attention
from attnviz.core.lm import Cancelled
from attnviz.core.scenario import MAX_TEXT_LENGTH, Change, with_head_off, with_value
from attnviz.core.text import first_control

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "smollm2"
pytestmark = pytest.mark.real_model("smollm2")


@pytest.fixture(scope="module")
def model():
    return lm.load()


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN / "forward.npz") as data:
        return {k: data[k] for k in data.files}


@pytest.fixture(scope="module")
def runs(model, golden):
    return {s: lm.run(model, golden[f"{s}_ids"]) for s in ("s0", "s1")}


def test_token_ids_are_exactly_those_of_the_models_own_tokenizer(model):
    sentences = json.loads((GOLDEN / "tokens.json").read_text(encoding="utf-8"))["sentences"]
    assert len(sentences) == 7  # English, Japanese, digits, emoji, whitespace, contractions, full-width
    for s in sentences:
        assert list(lm.encode(model, s["text"]).ids) == s["ids_llama_cpp"] == s["ids_transformers"], s["text"]


def test_the_model_file_is_the_one_the_goldens_were_made_from(model):
    import hashlib
    expected = json.loads((GOLDEN / "tokens.json").read_text(encoding="utf-8"))["sha256"]
    assert hashlib.sha256(model.path.read_bytes()).hexdigest() == expected


@pytest.mark.parametrize("s", ["s0", "s1"])
def test_logits_equal_the_reference_to_1e_3(model, golden, runs, s):
    ids = golden[f"{s}_last_logits_ids"]
    np.testing.assert_allclose(runs[s].logits[ids], golden[f"{s}_last_logits"], atol=1e-3)


@pytest.mark.parametrize("s", ["s0", "s1"])
def test_the_next_token_top_10_is_the_references(model, golden, runs, s):
    best = lm.top(model, runs[s].probs, 10)
    assert [i for i, _, _ in best] == golden[f"{s}_top10_ids"].tolist()
    np.testing.assert_allclose([p for _, _, p in best], golden[f"{s}_top10_probs"], atol=1e-5)
    assert [i for i, _, _ in best[:5]] == golden[f"{s}_llama_top10_ids"][:5].tolist()  # and llama.cpp's top 5


@pytest.mark.parametrize("s", ["s0", "s1"])
@pytest.mark.parametrize("layer", [0, 15, 29])
def test_every_heads_weights_equal_the_references(golden, runs, s, layer):
    r = runs[s]
    weights = attention(*(r.per_head(layer, m) for m in "qkv"), causal=True, scale=True).weights
    np.testing.assert_allclose(weights, golden[f"{s}_attn_l{layer}"], atol=2e-5)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-9)
    assert np.all(weights[:, np.triu_indices(weights.shape[-1], 1)[0], np.triu_indices(weights.shape[-1], 1)[1]] == 0)


@pytest.mark.parametrize("s", ["s0", "s1"])
def test_the_residual_stream_equals_the_references(golden, runs, s):
    for layer in (0, 15):
        np.testing.assert_allclose(runs[s].streams[layer], golden[f"{s}_hidden_l{layer}"], atol=2e-3, rtol=1e-4)


def test_switching_a_head_off_moves_the_prediction_as_the_reference_says(model, golden):
    result = lm.run(model, golden["s0_ids"], [lm.ablation(model, "3.2")])
    best = lm.top(model, result.probs, 10)
    assert [i for i, _, _ in best] == golden["s0_ablate_3_2_top10_ids"].tolist()
    np.testing.assert_allclose([p for _, _, p in best], golden["s0_ablate_3_2_top10_probs"], atol=1e-5)


def test_a_change_in_layer_l_runs_only_layers_l_and_after(model, golden, runs):
    base = runs["s0"]
    assert base.computed == tuple(range(30))
    changed = lm.run(model, golden["s0_ids"], [(12, 4, Change(off=True))], after=base)
    assert changed.computed == tuple(range(12, 30))
    for layer in range(12):  # the layers below were not run again: the very same arrays
        assert changed.q[layer] is base.q[layer] and changed.streams[layer] is base.streams[layer]
    assert not np.array_equal(changed.q[13], base.q[13])
    back = lm.run(model, golden["s0_ids"], [], after=changed)
    assert back.computed == tuple(range(12, 30))
    np.testing.assert_array_equal(back.probs, base.probs)  # undone: exactly the model's own prediction


def test_an_edited_head_in_a_scenario_carries_into_the_run(model, golden, runs):
    encoded = lm.Encoded("The cat ate the fish. It was fresh.", tuple(golden["s0_ids"].tolist()),
                            lm.encode(model, "The cat ate the fish. It was fresh.").labels)
    s = lm.scenario(model, encoded, runs["s0"], 5)
    np.testing.assert_allclose(compute(s).heads[3].weights,
                               attention(*(runs["s0"].matrix(5, m, 3) for m in "qkv")).weights)
    edited = with_value(s, 3, "k", 4, 0, 30.0)
    result = lm.run(model, encoded.ids, edited.live.changes, after=runs["s0"])
    assert result.computed[0] == 5 and result.matrix(5, "k", 3)[4, 0] == 30.0
    assert result.matrix(5, "k", 4)[4, 0] != 30.0  # head 4 shares head 3's K/V head: its copy is its own
    off = with_head_off(s, 3, True)
    assert off.live.changes[0][:2] == (5, 3) and off.live.changes[0][2].off
    assert with_head_off(off, 3, False).live.changes == ()


def test_tokens_are_labelled_with_text_not_byte_pieces(model):
    encoded = lm.encode(model, "猫が魚を食べた。それは新鮮だった。")
    assert encoded.labels[:3] == ("猫 1/3", "猫 2/3", "猫 3/3") and "を" in encoded.labels
    assert not any("\ufffd" in label for label in encoded.labels)
    assert lm.encode(model, "The cat").labels == ("The", "·cat")
    assert lm.encode(model, "a\n\tb").labels == ("a", "↵", "⇥", "b")


@pytest.mark.parametrize("text, message", [("", "empty"), ("word " * 5000, "tokens long"),
                                           ("a\udcffb", "not valid UTF-8: it holds <FF> at character 2"),
                                           ("\ud800", "U\\+D800 at character 1")])
def test_text_the_model_cannot_read_is_refused(model, text, message):
    with pytest.raises(lm.ModelError, match=message):
        lm.encode(model, text)


LONG = "=" * 9_995 + "\nThe end.\t"  # 10,005 characters, 163 tokens


@pytest.mark.parametrize("text, title", [
    ("def f(x):\n  return x", "def f(x):↵  return x"), ("a\tb\r\nc", "a⇥b^M↵c"),
    ("It was \u202efresh", "It was <U+202E>fresh"), ("zero\u200bwidth", "zero\u200bwidth"),
    ("猫🐱👨\u200d👩\u200d👧", "猫🐱👨\u200d👩\u200d👧"), (" ", "␣"), ("\n", "↵"), ("\u2028", "<U+2028>"),
    (LONG, "=" * 20)])
def test_any_text_a_user_can_paste_opens_as_a_scenario_titled_on_one_line(model, text, title):
    encoded = lm.encode(model, text)
    s = lm.scenario(model, encoded, lm.run(model, encoded.ids))
    assert title in s.title["en"] and title in s.title["ja"]
    assert len(s.title["en"]) <= MAX_TEXT_LENGTH and not any(first_control(t) for t in (*s.title.values(), *s.tokens))


def test_a_text_of_spaces_or_a_line_break_is_one_token(model):
    assert lm.encode(model, " ").ids == (216,) and lm.encode(model, "\n").labels == ("↵",)
    assert lm.encode(model, "   ").labels == ("␣␣␣",)


def test_a_title_longer_than_a_title_may_be_is_shortened(model):
    title = lm.title("SmolLM2", "a\n" * 6000)
    assert len(title["en"]) == MAX_TEXT_LENGTH and title["en"].endswith("…") and "a↵a↵" in title["en"]


def test_zero_width_characters_in_a_token_are_shown(model):
    labels = lm.encode(model, "a\u200bb \ufeffc \u00ad").labels
    assert "<U+200B> 1/2" in labels and "<U+FEFF> 1/3" in labels and any("<U+00AD>" in x for x in labels)
    assert not any(ch in "".join(labels) for ch in "\u200b\ufeff\u00ad")


def test_a_text_too_long_to_read_is_refused_before_it_is_tokenised(model, monkeypatch):
    monkeypatch.setattr(model.tokenizer.backend, "encode", lambda *a, **k: pytest.fail("tokenised"))
    with pytest.raises(lm.ModelError, match="is 1,100,000 characters long; the model reads at most 4,096 tokens"):
        lm.encode(model, "The cat ate the fish. " * 50_000)


def test_a_text_of_too_many_tokens_is_refused_by_their_count(model):
    with pytest.raises(lm.ModelError, match="is 75,000 tokens long; the model reads at most 4,096 here"):
        lm.encode(model, "a" * 300_000)


def test_a_text_longer_than_the_limits_tokens_can_be_is_refused_untokenised(model, monkeypatch):
    """SmolLM2's longest token stands for 81 characters: 4,096 of them are 331,776 at most. A character may be
    four tokens (U+E0001: 3.2 million of them took 2 GB to count), so more is refused before it is read."""
    monkeypatch.setattr(model.tokenizer.backend, "encode", lambda *a, **k: pytest.fail("tokenised"))
    with pytest.raises(lm.ModelError, match="is 400,000 characters long; the model reads at most 4,096 tokens "
                                            "here, of at most 81 characters each"):
        lm.encode(model, "\U000E0001" * 400_000)


def test_a_run_stops_between_layers_when_cancelled(model, golden):
    asked = []
    with pytest.raises(Cancelled):
        lm.run(model, golden["s0_ids"], cancelled=lambda: asked.append(1) or len(asked) > 2)
    assert len(asked) == 3  # layers 0 and 1 ran, layer 2 did not


def test_a_next_token_that_is_part_of_a_character_is_shown_in_hex(model):
    assert lm.token_text(model, 7365) == "<E3 81>" and lm.token_text(model, 2698) == " fish"


def test_a_stream_whose_squares_overflow_in_a_norm_is_refused_naming_the_file(tmp_path):
    """Weights each finite whose products pass float32's range: the norm's Σ x² was infinite, the stream made 0
    and every probability the same, shown as a result (attacker round 25: Q8_0 blocks of scale 65,504)."""
    from tests.gguf_writer import F32, tiny_llama
    path = tmp_path / "huge.gguf"
    embedding = np.full((258, 64), 1e30, np.float32)
    tiny_llama(path, tensors={"token_embd.weight": (embedding, F32)})
    model = lm.load(str(path))
    with pytest.raises(lm.ModelError, match=r"huge\.gguf: the model's numbers grow past float32's range \(a norm's "
                                            r"sum of squares is infinite\)"):
        lm.run(model, [5, 6, 7])


@pytest.mark.parametrize("pre", ["llama-bpe", "tekken"])
def test_a_llama_3_file_that_does_not_say_whether_it_wants_a_bos_gets_one_as_llama_cpp_gives_it(tmp_path, pre):
    from tests.gguf_writer import tiny_llama
    path = tmp_path / "no-bos.gguf"
    tiny_llama(path, metadata={"tokenizer.ggml.pre": pre, "tokenizer.ggml.add_bos_token": None,
                               "tokenizer.ggml.bos_token_id": 0})
    assert lm.encode(lm.load(str(path)), "ab").ids[0] == 0
