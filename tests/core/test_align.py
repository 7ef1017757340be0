"""B − A word by word: the same tokens lined up (seed 003's 猫が座った / 座ったが猫), or none."""
import numpy as np

from attnviz.core import compute, load_preset
from attnviz.core.align import align, differences, in_a_order, largest
from attnviz.core.scenario import with_projection_options, with_settings


def word_order_pair(**projection):
    a, b = load_preset("position-nekoga"), load_preset("position-suwatta")
    if projection:
        a, b = (with_projection_options(s, **projection) for s in (a, b))
    return a, b


def difference_of(a, b):
    return differences(compute(a).weights(), compute(b).weights(), align(a.tokens, b.tokens))


def test_repeated_tokens_are_matched_by_occurrence():
    alignment = align(["を", "猫", "を", "見た"], ["見た", "を", "を", "猫"])
    assert alignment.order == (1, 3, 2, 0)  # A's 1st を is B's 1st (place 1), A's 2nd を B's 2nd (place 2)
    assert alignment.aligned and alignment.reordered
    b = np.arange(16.0).reshape(4, 4)
    assert in_a_order(b, alignment)[0, 2] == b[1, 2]  # A's (1st を, 2nd を) is B's (place 1, place 2)


def test_different_words_are_not_aligned_and_say_which():
    alignment = align(load_preset("hashi-chopsticks").tokens, load_preset("hashi-bridge").tokens)
    assert not alignment.aligned and not alignment.reordered
    assert alignment.only_in_a() == ["使って", "ご飯", "食べた"]  # を and はし are in both (A's を twice)
    assert alignment.only_in_b() == ["川", "に", "かかる", "渡った"]
    assert differences([np.eye(6)], [np.eye(6)], alignment) is None
    twice = align(["a", "a", "b"], ["a", "b", "b"])  # the same words, not as often each
    assert not twice.aligned and twice.only_in_a() == twice.only_in_b() == []


def test_the_same_order_is_aligned_but_not_reordered():
    alignment = align(["猫", "が"], ["猫", "が"])
    assert alignment.aligned and not alignment.reordered


def test_word_orders_without_positions_have_the_same_weights_reordered():
    a, b = word_order_pair()
    assert a.projection.positions == "none" and not a.settings.causal  # the presets as shipped
    found = difference_of(a, b)
    assert len(found) == 2 and largest(found) == 0.0
    # by position (no lining up) they differ: the lining up is what makes them equal
    assert max(float(np.abs(wb - wa).max()) for wa, wb in zip(compute(a).weights(), compute(b).weights())) > 0.1


def test_positions_make_the_word_orders_differ():
    for positions in ("rope", "sinusoidal"):
        assert largest(difference_of(*word_order_pair(positions=positions))) > 0.05, positions


def test_the_causal_mask_carries_order_too():
    """With the mask on, A's 猫 (first) sees only itself and B's 猫 (last) sees every word: the
    cell (猫, 座った) is masked in A, weight 0, and B − A there is B's whole weight."""
    a, b = (with_settings(s, causal=True) for s in word_order_pair())
    found = difference_of(a, b)
    wb = in_a_order(compute(b).weights()[0], align(a.tokens, b.tokens))
    assert found[0][0, 2] == wb[0, 2] > 0
    assert largest(found) > 0.5
