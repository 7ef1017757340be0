"""Every preset has an English version (resources/presets/en/, the same id): English words, the
same story, and the worked example's numbers; the Japanese version stays the original."""
import re

import numpy as np
import pytest

from attnviz.core import compute, list_presets, load_preset
from attnviz.core.presets import open_named, version_open
from attnviz.core.scenario import with_projection_options, with_row, with_settings

IDS = [p.id for p in list_presets()]
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")  # kana, kanji, full-width forms


def japanese_in(texts) -> list[str]:
    return [t for t in texts if JAPANESE.search(t)]


def row(scenario, token, head=0):
    w = compute(scenario).heads[head].weights[scenario.tokens.index(token)]
    return dict(zip(scenario.tokens, w))


def top(weights):
    return max(weights, key=weights.get)


@pytest.mark.parametrize("preset_id", IDS)
def test_every_presets_english_version_speaks_english(preset_id):
    s = load_preset(preset_id, "en")
    assert japanese_in(s.tokens) == []
    assert japanese_in(label for h in s.heads for label in (*h.labels, h.title("en"))) == []
    assert japanese_in([s.text("title", "en"), s.text("description", "en")]) == []
    assert s.focus is not None


@pytest.mark.parametrize("preset_id", IDS)
def test_the_japanese_version_stays_the_original_and_is_what_opens_without_a_language(preset_id):
    original = load_preset(preset_id)
    assert JAPANESE.search("".join(original.tokens))
    assert load_preset(preset_id, "ja").tokens == original.tokens == open_named(preset_id)[0].tokens
    english = load_preset(preset_id, "en")
    assert english.tokens != original.tokens  # the window tells the versions apart by their tokens
    assert (version_open(preset_id, original), version_open(preset_id, english)) == ("ja", "en")
    opened, source = open_named(preset_id, lang="en")
    assert opened.tokens == english.tokens and source == f"preset:{preset_id}"  # the same id in every language


def test_a_language_without_a_version_gets_the_original():
    assert load_preset("seed-demo", "fr").tokens == load_preset("seed-demo").tokens


def test_the_presets_list_titles_each_language_by_its_own_version():
    seed = next(p for p in list_presets() if p.id == "seed-demo")
    assert seed.title_in("en") == "The cat ate the fish. It was fresh."
    assert seed.title_in("ja") == "猫が魚を食べた。それは新鮮だった"


def test_the_cat_ate_the_fish_it_attends_to_fish_with_the_same_weights_as_sore():
    en, ja = load_preset("seed-demo", "en"), load_preset("seed-demo")
    assert en.tokens == ("The", "cat", "ate", "the", "fish", ".", "It", "was", "fresh", ".")
    assert en.heads[0].dim_labels("q") == ("animal", "food", "action", "grammar")
    assert en.tokens[en.focus] == "It" and len(en.heads) == 2 and en.settings.causal
    it, sore = row(en, "It"), row(ja, "それ")
    assert top(it) == "fish"
    for english, japanese in (("cat", "猫"), ("fish", "魚"), ("ate", "食べた"), ("It", "それ")):
        assert it[english] == pytest.approx(sore[japanese], abs=1e-12)


def test_food_to_zero_and_animal_up_moves_its_attention_from_fish_to_cat():
    s = load_preset("seed-demo", "en")
    animal_only = with_row(s, 0, "q", s.tokens.index("It"), [2, 0, 0, 0])
    assert top(row(animal_only, "It")) == "cat"
    assert top(row(s, "fresh")) == "fish"  # the clue "fresh" is gathered at fresh


@pytest.mark.parametrize("causal", [True, False])
def test_the_english_previous_token_head_looks_one_token_back(causal):
    s = with_settings(load_preset("seed-demo", "en"), causal=causal, mask=None)
    w = compute(s).heads[1].weights
    assert [int(np.argmax(w[i])) for i in range(s.n)] == [0] + list(range(s.n - 1))


def test_the_english_worked_example_has_the_tutorials_numbers():
    s = load_preset("toy-3token", "en")
    assert s.tokens == ("cat", "fish", "it")
    assert s.heads[0].k.tolist() == [[2, 0], [0, 2], [1, 1]] and s.heads[0].q[2].tolist() == [0, 2]
    trace = compute(s).heads[0]
    assert trace.weights[2] == pytest.approx([0.045, 0.769, 0.186], abs=0.002)
    assert trace.output[2] == pytest.approx([0.28, 1.72], abs=0.005)


def test_bank_attends_to_money_in_one_sentence_and_to_the_river_in_the_other():
    """The English pair for はし: one spelling, two meanings, the same q and k; the neighbours decide."""
    money, river = load_preset("hashi-chopsticks", "en"), load_preset("hashi-bridge", "en")
    i, j = money.tokens.index("bank"), river.tokens.index("bank")
    assert money.heads[0].q[i].tolist() == river.heads[0].q[j].tolist()
    assert money.heads[0].k[i].tolist() == river.heads[0].k[j].tolist()
    assert not money.settings.causal and not river.settings.causal
    to_money, to_river = row(money, "bank"), row(river, "bank")
    assert top(to_money) == "money" and to_money["money"] + to_money["paid"] > 0.6
    assert top(to_river) == "river" and to_river["river"] + to_river["fished"] > 0.6
    out_money, out_river = compute(money).heads[0].output[i], compute(river).heads[0].output[j]
    assert money.heads[0].labels[:2] == ("money", "river")
    assert out_money[0] > out_money[1] and out_river[1] > out_river[0]


def test_she_attends_to_hanako_not_taro_or_the_book():
    s = load_preset("taro-hanako", "en")
    weights = row(s, "She")
    assert s.tokens[s.focus] == "She" and top(weights) == "Hanako"
    assert weights["Hanako"] > 2 * weights["Taro"] and weights["Hanako"] > 10 * weights["book"]


def test_dog_bites_man_and_man_bites_dog_give_the_same_outputs_reordered_without_positions():
    a, b = load_preset("position-nekoga", "en"), load_preset("position-suwatta", "en")
    assert (a.tokens, b.tokens) == (("dog", "bites", "man"), ("man", "bites", "dog"))
    order = [b.tokens.index(t) for t in a.tokens]
    np.testing.assert_allclose(compute(a).layer.output, compute(b).layer.output[order], atol=1e-12)
    rope = [compute(with_projection_options(s, positions="rope")).layer.output for s in (a, b)]
    assert np.abs(rope[0] - rope[1][order]).max() > 1e-3  # positions tell them apart


@pytest.mark.parametrize("preset_id", ["projection-demo", "gqa-demo", "gpt2-small-shape"])
def test_the_layer_presets_english_versions_keep_the_shapes_and_weights(preset_id):
    en, ja = load_preset(preset_id, "en"), load_preset(preset_id)
    assert en.n == ja.n and len(en.heads) == len(ja.heads)
    if ja.projection is not None:
        for name in ("w_q", "w_k", "w_v", "w_o"):
            np.testing.assert_array_equal(getattr(en.projection, name), getattr(ja.projection, name))
