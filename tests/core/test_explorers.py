"""The numbers behind the maths views: √d_k, softmax overflow, linear attention, x·W, softmax's three places."""
import math
import re

import numpy as np

from attnviz.core.attention import softmax
from attnviz.core.compute import compute
from attnviz.core.explain import MINUS
from attnviz.core.explorers import (
    NEXT_TOKEN_LOGITS,
    ScaleDemo,
    distribution,
    elu_plus_one,
    linear_attention_weights,
    linear_map,
    next_token_example,
    qkv_maps,
    softmax_steps,
    sqrt_dk_demo,
    temperature_examples,
)
from attnviz.core.masks import MaskSpec, visible
from attnviz.core.presets import load_preset


def test_without_root_d_k_rows_saturate_to_one_hot_at_d_k_256_and_with_it_they_do_not():
    runs = [{d.d_k: d for d in sqrt_dk_demo(seed=seed)} for seed in range(10)]
    unscaled = np.mean([ScaleDemo.peak(r[256].unscaled) for r in runs])
    scaled = np.mean([ScaleDemo.peak(r[256].scaled) for r in runs])
    assert unscaled > 0.85 and scaled < 0.45  # the largest weight of a row: near 1 versus spread out
    # ... while at d_k = 2 the division hardly matters:
    assert np.mean([ScaleDemo.peak(r[2].unscaled) for r in runs]) < 0.5


def test_the_demo_depends_only_on_the_seed():
    a, b = sqrt_dk_demo(seed=3), sqrt_dk_demo(seed=3)
    assert all(np.array_equal(x.unscaled, y.unscaled) for x, y in zip(a, b))
    assert not np.array_equal(sqrt_dk_demo(seed=4)[0].scaled, a[0].scaled)


def test_scores_around_a_thousand_overflow_without_the_max_subtraction_and_not_with_it():
    steps = softmax_steps([1000.0, 999.0, 998.0])
    assert steps.overflows and np.isinf(steps.exp_naive).all() and np.isnan(steps.naive).all()
    assert np.all(np.isfinite(steps.weights)) and steps.shifted.tolist() == [0, -1, -2]
    e = np.exp([0.0, -1.0, -2.0])
    np.testing.assert_allclose(steps.weights, e / e.sum())


def test_small_scores_give_the_same_softmax_both_ways_and_masked_keys_stay_zero():
    steps = softmax_steps([1.0, 2.0, -np.inf])
    assert not steps.overflows
    np.testing.assert_allclose(steps.naive, steps.weights)
    assert steps.weights[2] == 0.0


def test_linear_attention_weights_equal_a_direct_computation():
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=(2, 5, 3))
    mask = visible(MaskSpec("causal"), 5)
    w = linear_attention_weights(q, k, mask)
    def phi(v):  # elu(x) + 1
        return [x + 1 if x > 0 else math.exp(x) for x in v]
    for i in range(5):
        row = [sum(a * b for a, b in zip(phi(q[i]), phi(k[j]))) if j <= i else 0.0 for j in range(5)]
        np.testing.assert_allclose(w[i], np.array(row) / sum(row))
    assert np.all(elu_plus_one(rng.normal(size=100) * 10) > 0)


# ---------------------------------------------------------------- x·W (seed 000)

def added_up(written: str) -> float:
    """A written sum read back: "1×2 + 0×1 = 2" -> the value of its terms (and its right side checked)."""
    terms, total = written.replace(MINUS, "-").split(" = ")
    value = sum(math.prod(float(f.strip("()")) for f in term.split("×")) for term in terms.split(" + "))
    assert math.isclose(value, float(total), abs_tol=1e-9), written
    return value


def test_the_seeds_example_is_2_1_times_w_giving_2_4_with_its_shapes_and_sums_weight_times_input():
    m = linear_map()
    assert m.x.tolist() == [[2, 1]] and m.product.tolist() == [[2, 4]]
    # The seed: output 1 = 1×(1st) + 0×(2nd), output 2 = 1×(1st) + 2×(2nd): W's columns are those weights.
    assert m.w[:, 0].tolist() == [1, 0] and m.w[:, 1].tolist() == [1, 2]
    assert m.shapes == ("1 × 2", "2 × 2", "1 × 2")
    assert m.sums == ("1×2 + 0×1 = 2", "1×2 + 2×1 = 4")  # weight × input, in the seed's order


def test_a_written_sum_is_the_products_number_for_any_matrix():
    rng = np.random.default_rng(2)
    x, w = rng.normal(size=3).round(2), rng.normal(size=(3, 4)).round(1)
    m = linear_map(x, w)
    assert m.shapes == ("1 × 3", "3 × 4", "1 × 4")
    np.testing.assert_allclose([added_up(s) for s in m.sums], (x @ w).ravel(), atol=1e-9)
    for j, s in enumerate(m.sums):  # each term is W[i, j] × x[i]
        firsts = [float(t.split("×")[0].strip("()").replace(MINUS, "-")) for t in s.split(" = ")[0].split(" + ")]
        np.testing.assert_allclose(firsts, w[:, j])


def test_w_q_w_k_w_v_make_three_different_vectors_from_the_same_x():
    maps = qkv_maps()
    assert list(maps) == ["q", "k", "v"]
    assert maps["q"].product.tolist() == linear_map().product.tolist()  # W_q is the seed's W
    products = [tuple(m.product.ravel()) for m in maps.values()]
    assert len(set(products)) == 3
    for m in maps.values():
        assert m.x.tolist() == [[2, 1]]
        np.testing.assert_array_equal(m.product, m.x @ m.w)
        assert [added_up(s) for s in m.sums] == m.product.ravel().tolist()


# ---------------------------------------------------------------- softmax in three places (seed 003 §4.3)

def test_in_attention_the_bars_are_the_querys_visible_keys_with_the_traces_weights():
    s = load_preset("seed-demo", "ja")
    trace = compute(s).heads[0]
    d = distribution(s.tokens, trace.masked[s.focus])
    assert d.labels == s.tokens[:s.focus + 1]  # それ sees itself and what comes before, nothing after
    np.testing.assert_allclose(d.outputs, trace.weights[s.focus][:s.focus + 1])
    np.testing.assert_array_equal(d.inputs, trace.masked[s.focus][:s.focus + 1])
    assert d.labels[d.top] == "魚" and round(d.outputs[d.top], 2) == 0.68 and d.left_out == 0


def test_a_long_row_shows_its_largest_weights_in_order_and_counts_the_rest():
    x = np.r_[np.arange(14.0), -np.inf]
    d = distribution([f"t{i}" for i in range(15)], x, most=10)
    assert d.labels == tuple(f"t{i}" for i in range(5, 14))  # the nine largest, in the sentence's order
    assert d.left_out == 5  # t0 … t4; the masked t14 is not counted
    assert math.isclose(d.left_out_share, softmax(x)[:5].sum())
    assert math.isclose(d.outputs.sum() + d.left_out_share, 1.0)


def test_the_next_token_example_is_softmax_of_its_logits():
    d = next_token_example()
    assert len(d.labels) == 4 and d.inputs.tolist() == list(NEXT_TOKEN_LOGITS)
    np.testing.assert_allclose(d.outputs, np.exp(NEXT_TOKEN_LOGITS) / np.exp(NEXT_TOKEN_LOGITS).sum())
    assert d.top == 0


def test_the_temperature_divides_the_logits_and_a_low_one_is_sharper_than_a_high_one():
    examples = dict(temperature_examples())
    assert list(examples) == [0.5, 1.0, 2.0]
    for t, d in examples.items():
        np.testing.assert_allclose(d.inputs, np.array(NEXT_TOKEN_LOGITS) / t)
    np.testing.assert_allclose(examples[1.0].outputs, next_token_example().outputs)

    def entropy(p):
        return -(p * np.log(p)).sum()
    sharp, plain, flat = examples[0.5].outputs, examples[1.0].outputs, examples[2.0].outputs
    assert sharp.max() > plain.max() > flat.max() and entropy(sharp) < entropy(plain) < entropy(flat)
    assert all(d.top == 0 for d in examples.values())  # the order stays: only the sharpness changes


def test_every_written_number_of_the_views_is_plain_text():
    """No e-notation or minus-hyphen reaches the sums the class reads."""
    m = linear_map([-0.5, 1e-3], [[1, 2], [3, 4]])
    assert not [s for s in m.sums if re.search(r"e[-+]|-", s)]
