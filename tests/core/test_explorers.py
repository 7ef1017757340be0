"""The numbers behind the maths views: √d_k, softmax overflow, linear attention."""
import math

import numpy as np

from attnviz.core.explorers import ScaleDemo, elu_plus_one, linear_attention_weights, softmax_steps, sqrt_dk_demo
from attnviz.core.masks import MaskSpec, visible


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
