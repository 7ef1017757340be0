"""Each built-in scenario tells a story; it must hold with the mask as the preset sets it and with
the mask toggled, since a student will toggle it (and ask why 猫 looked at だった)."""
import numpy as np
import pytest

from attnviz.core import compute, load_preset
from attnviz.core.scenario import with_settings

# (preset, head, query) -> the key it attends to most, with the mask on and with it off
PEAKS = {
    ("seed-demo", 0, "それ"): ("魚", "魚"),      # it → fish: the tutorial's point
    ("seed-demo", 0, "新鮮"): ("魚", "魚"),      # fresh is said of food
    ("seed-demo", 1, "猫"): ("猫", "猫"),        # no token before the first: itself, never だった
    ("toy-3token", 0, "それ"): ("魚", "魚"),
    ("hashi-chopsticks", 0, "はし"): ("はし", "ご飯"),  # unmasked (as the preset is): the meal
    ("hashi-bridge", 0, "はし"): ("川", "川"),          # the river, either way
    ("taro-hanako", 0, "彼女"): ("花子", "花子"),       # she → Hanako
}


def peak(scenario, causal: bool, head: int, query: str) -> str:
    s = with_settings(scenario, causal=causal, mask=None)
    i = s.tokens.index(query)
    return s.tokens[int(np.argmax(compute(s).heads[head].weights[i]))]


@pytest.mark.parametrize("where, expected", PEAKS.items(), ids=[f"{p}-{h}-{q}" for p, h, q in PEAKS])
def test_each_presets_story_holds_with_the_mask_on_and_off(where, expected):
    preset, head, query = where
    s = load_preset(preset)
    assert (peak(s, True, head, query), peak(s, False, head, query)) == expected


@pytest.mark.parametrize("causal", [True, False])
def test_the_previous_token_head_looks_one_token_back_masked_or_not(causal):
    s = with_settings(load_preset("seed-demo"), causal=causal, mask=None)
    w = compute(s).heads[1].weights
    assert [int(np.argmax(w[i])) for i in range(s.n)] == [0] + list(range(s.n - 1))


def test_hashi_attends_to_the_meal_in_one_sentence_and_the_river_in_the_other():
    """Same q and k for はし; the context's words differ, and so does where はし looks."""
    def top_two(s):
        w = compute(s).heads[0].weights[s.tokens.index("はし")]
        return {s.tokens[j] for j in np.argsort(-w)[:2]}
    assert top_two(load_preset("hashi-chopsticks")) == {"ご飯", "食べた"}
    assert top_two(load_preset("hashi-bridge")) == {"川", "渡った"}


def test_without_positions_and_mask_the_two_word_orders_give_the_same_outputs_reordered():
    neko, suwatta = load_preset("position-nekoga"), load_preset("position-suwatta")
    assert not neko.settings.causal and not suwatta.settings.causal
    order = [suwatta.tokens.index(t) for t in neko.tokens]
    np.testing.assert_allclose(compute(neko).layer.output, compute(suwatta).layer.output[order], atol=1e-12)
