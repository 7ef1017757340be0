"""Invariants of attention that must hold for any input a user can type."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnviz.core import attention

LIMIT = 1e6  # the largest magnitude AttnViz accepts in a cell
values = st.floats(-LIMIT, LIMIT, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw, max_n=8, max_d=6):
    n, d_k, d_v = draw(st.integers(1, max_n)), draw(st.integers(1, max_d)), draw(st.integers(1, max_d))
    q = draw(arrays(float, (n, d_k), elements=values))
    k = draw(arrays(float, (n, d_k), elements=values))
    v = draw(arrays(float, (n, d_v), elements=values))
    return q, k, v


causal = st.booleans()


@given(qkv(), causal)
def test_every_row_sums_to_one(data, causal):
    w = attention(*data, causal=causal).weights
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)


@given(qkv())
def test_masked_weights_are_exactly_zero(data):
    w = attention(*data, causal=True).weights
    assert np.all(w[np.triu_indices(len(w), k=1)] == 0.0)


@given(qkv(), causal)
def test_no_nan_or_inf_for_finite_inputs_up_to_a_million(data, causal):
    trace = attention(*data, causal=causal)
    for a in (trace.scores, trace.scaled, trace.weights, trace.output):
        assert np.all(np.isfinite(a))


@given(arrays(float, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=st.floats(-50, 50)),
       st.floats(-1e6, 1e6))
def test_adding_a_constant_to_a_row_of_scores_changes_nothing(scores, c):
    from attnviz.core import softmax
    np.testing.assert_allclose(softmax(scores + c), softmax(scores), atol=1e-8)


@given(qkv(), arrays(float, 6, elements=st.floats(-100, 100)), causal)
def test_shifting_every_key_by_one_vector_leaves_the_weights_alone(data, shift, causal):
    # k_j + a adds q_i·a to every score of row i: a constant per row, which softmax ignores.
    q, k, v = (np.clip(a, -100, 100) for a in data)
    a = shift[: k.shape[1]]
    before = attention(q, k, v, causal=causal).weights
    after = attention(q, k + a, v, causal=causal).weights
    np.testing.assert_allclose(after, before, atol=1e-7)


@given(qkv(max_n=6), st.randoms(use_true_random=False))
@settings(max_examples=60)
def test_without_the_mask_permuting_tokens_permutes_the_output(data, rnd):
    q, k, v = (a / 1e4 for a in data)  # keep rounding differences far below tolerance
    perm = np.array(rnd.sample(range(len(q)), len(q)))
    original = attention(q, k, v, causal=False)
    permuted = attention(q[perm], k[perm], v[perm], causal=False)
    np.testing.assert_allclose(permuted.output, original.output[perm], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(permuted.weights, original.weights[perm][:, perm], rtol=1e-9, atol=1e-12)


@given(qkv(), causal)
def test_a_huge_temperature_spreads_weight_evenly_over_the_visible_keys(data, causal):
    q, k, v = (np.clip(a, -10, 10) for a in data)
    w = attention(q, k, v, causal=causal, temperature=1e12).weights
    n = len(w)
    visible = np.tril(np.ones((n, n))) if causal else np.ones((n, n))
    expected = visible / visible.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(w, expected, atol=1e-9)


@given(st.integers(1, 1024), st.booleans(), st.sampled_from([0.01, 1.0, 100.0]))
@settings(max_examples=30, deadline=None)
def test_the_extremes_validation_allows_stay_finite(d_k, scale, temperature):
    """Every cell at ±1e6, d_k up to 1024, no ÷√d_k, T = 0.01: scores of 1e17, still finite."""
    rng = np.random.default_rng(d_k)
    q = rng.choice([-LIMIT, LIMIT], size=(4, d_k))
    k = rng.choice([-LIMIT, LIMIT], size=(4, d_k))
    trace = attention(q, k, k, scale=scale, temperature=temperature)
    assert np.all(np.isfinite(trace.scaled[np.tril_indices(4)])) and np.all(np.isfinite(trace.weights))
    np.testing.assert_allclose(trace.weights.sum(-1), 1.0)
