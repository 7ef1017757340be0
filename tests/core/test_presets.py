"""Every built-in preset loads and tells the story it is there to tell."""
import numpy as np
import pytest

from attnviz.core import compute, list_presets, load_preset
from attnviz.core.scenario import with_row, with_settings

EXPECTED = ["seed-demo", "toy-3token", "hashi-chopsticks", "hashi-bridge", "taro-hanako",
            "projection-demo", "gpt2-small-shape", "gqa-demo", "position-nekoga", "position-suwatta"]


def weights_of(scenario, head=0):
    return compute(scenario).heads[head].weights


def row(scenario, token, head=0):
    return dict(zip(scenario.tokens, weights_of(scenario, head)[scenario.tokens.index(token)]))


def top(weights_by_token):
    return max(weights_by_token, key=weights_by_token.get)


def test_the_presets_of_the_design_are_all_there_in_teaching_order():
    assert [p.id for p in list_presets()] == EXPECTED
    for p in list_presets():
        assert p.title["ja"] and p.title["en"] and p.tab


def test_seed_demo_is_the_tutorials_ten_token_sentence_with_two_heads():
    s = load_preset("seed-demo")
    assert s.tokens == ("猫", "が", "魚", "を", "食べた", "。", "それ", "は", "新鮮", "だった")
    assert len(s.heads) == 2 and s.settings.causal
    assert s.heads[0].dim_labels("q")[:2] == ("動物", "食べ物")


def test_seed_demo_sore_attends_most_to_fish():
    assert top(row(load_preset("seed-demo"), "それ")) == "魚"


def test_seed_demo_sore_with_an_animal_only_query_attends_most_to_cat():
    s = load_preset("seed-demo")
    animal_only = with_row(s, 0, "q", s.tokens.index("それ"), [2, 0, 0, 0])  # 食べ物 = 0, 動物 up
    assert top(row(animal_only, "それ")) == "猫"


def test_seed_demo_fresh_gathers_the_fish_clue():
    assert top(row(load_preset("seed-demo"), "新鮮")) == "魚"


def test_seed_demo_cat_sees_fish_only_with_the_mask_off():
    s = load_preset("seed-demo")
    assert row(s, "猫")["魚"] == 0.0
    assert row(with_settings(s, causal=False), "猫")["魚"] > 0.5


def test_seed_demo_second_head_looks_at_the_previous_token_in_every_row():
    w = weights_of(load_preset("seed-demo"), head=1)
    assert w[0, 0] == 1.0
    for i in range(1, 10):
        assert np.argmax(w[i]) == i - 1
        assert w[i, i - 1] > 0.9


def test_toy_3token_is_exactly_the_worked_example():
    s = load_preset("toy-3token")
    h = s.heads[0]
    assert s.tokens == ("猫", "魚", "それ")
    assert h.k.tolist() == [[2, 0], [0, 2], [1, 1]] and h.v.tolist() == h.k.tolist()
    assert h.q[2].tolist() == [0, 2]
    trace = compute(s).heads[0]
    assert trace.weights[2] == pytest.approx([0.045, 0.769, 0.186], abs=0.002)
    assert trace.output[2] == pytest.approx([0.28, 1.72], abs=0.005)


def test_hashi_attends_to_the_meal_in_one_sentence_and_the_river_in_the_other():
    chopsticks, bridge = load_preset("hashi-chopsticks"), load_preset("hashi-bridge")
    # The same word, with the same q and k, in both sentences:
    i, j = chopsticks.tokens.index("はし"), bridge.tokens.index("はし")
    assert chopsticks.heads[0].q[i].tolist() == bridge.heads[0].q[j].tolist()
    assert chopsticks.heads[0].k[i].tolist() == bridge.heads[0].k[j].tolist()
    meal = row(chopsticks, "はし")
    river = row(bridge, "はし")
    assert {top(meal)} <= {"ご飯", "食べた"} and meal["ご飯"] + meal["食べた"] > 0.6
    assert {top(river)} <= {"川", "渡った"} and river["川"] + river["渡った"] > 0.6
    # ... so its output leans to 食事 (chopsticks) in one and 川・移動 (bridge) in the other.
    out_meal = compute(chopsticks).heads[0].output[i]
    out_river = compute(bridge).heads[0].output[j]
    assert out_meal[0] > out_meal[1] and out_river[1] > out_river[0]


def test_kanojo_attends_to_hanako_not_taro_or_the_book():
    weights = row(load_preset("taro-hanako"), "彼女")
    assert top(weights) == "花子"
    assert weights["花子"] > 2 * weights["太郎"] and weights["花子"] > 10 * weights["本"]


def test_projection_demo_has_the_whole_layer():
    s = load_preset("projection-demo")
    p = s.projection
    assert p.x.shape == (5, 4) and p.w_q.shape == p.w_o.shape == (4, 4) and p.n_heads == 2
    layer = compute(s).layer
    np.testing.assert_array_equal(layer.output, p.x + layer.projected)


def test_gpt2_small_shape_has_twelve_heads_of_sixty_four():
    s = load_preset("gpt2-small-shape")
    assert len(s.heads) == 12 and all(h.q.shape == (10, 64) for h in s.heads)
    w = np.stack(compute(s).weights())
    assert np.all(np.isfinite(w)) and np.allclose(w.sum(-1), 1)
