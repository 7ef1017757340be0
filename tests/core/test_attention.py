"""attention(): the tutorial's worked example, and the vectorised core against a plain loop."""
import math

import numpy as np
import pytest

from attnviz.core import attention, causal_mask, softmax


def loop_attention(q, k, v, causal, scale, temperature):
    """The seed's three steps, one query and one key at a time, in plain Python."""
    n_q, d_k = len(q), len(q[0])
    weights, outputs = [], []
    for i in range(n_q):
        scores = []
        for j in range(len(k)):
            s = sum(q[i][c] * k[j][c] for c in range(d_k))
            s = s / (math.sqrt(d_k) if scale else 1.0) / temperature
            scores.append(-math.inf if causal and j > i else s)
        top = max(scores)
        e = [math.exp(s - top) for s in scores]
        row = [x / sum(e) for x in e]
        weights.append(row)
        outputs.append([sum(row[j] * v[j][c] for j in range(len(v))) for c in range(len(v[0]))])
    return np.array(weights), np.array(outputs)


def test_worked_example_weights_and_output_match_the_tutorial():
    k = np.array([[2.0, 0], [0, 2], [1, 1]])  # 猫, 魚, それ ; v = k
    q = np.array([[0.0, 2]] * 3)
    trace = attention(q, k, k, causal=False)
    assert trace.weights[2] == pytest.approx([0.045, 0.769, 0.186], abs=0.002)
    assert trace.output[2] == pytest.approx([0.28, 1.72], abs=0.005)
    # The tutorial's exact values, before its rounding of 2.83 and 1.41:
    assert trace.weights[2] == pytest.approx([0.0454, 0.7679, 0.1867], abs=5e-5)
    assert trace.scores[2].tolist() == [0.0, 4.0, 2.0]
    assert trace.scaled[2] == pytest.approx([0, 4 / math.sqrt(2), 2 / math.sqrt(2)])


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_vectorised_core_equals_a_plain_loop(causal, scale, seed):
    rng = np.random.default_rng(seed)
    n, d_k, d_v = rng.integers(1, 9), rng.integers(1, 7), rng.integers(1, 5)
    q, k, v = rng.normal(size=(n, d_k)), rng.normal(size=(n, d_k)), rng.normal(size=(n, d_v))
    temperature = float(rng.uniform(0.2, 3))
    trace = attention(q, k, v, causal=causal, scale=scale, temperature=temperature)
    weights, output = loop_attention(q.tolist(), k.tolist(), v.tolist(), causal, scale, temperature)
    np.testing.assert_allclose(trace.weights, weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(trace.output, output, rtol=1e-12, atol=1e-12)


def test_leading_axes_are_heads_computed_independently():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 5, 4)), rng.normal(size=(3, 5, 4)), rng.normal(size=(3, 5, 2))
    batched = attention(q, k, v)
    for h in range(3):
        single = attention(q[h], k[h], v[h])
        np.testing.assert_array_equal(batched.weights[h], single.weights)
        np.testing.assert_array_equal(batched.output[h], single.output)


def test_causal_mask_is_zero_on_and_below_the_diagonal_and_minus_infinity_above():
    m = causal_mask(4)
    assert m.shape == (4, 4)
    assert np.all(m[np.tril_indices(4)] == 0)
    assert np.all(m[np.triu_indices(4, k=1)] == -np.inf)


def test_fewer_queries_than_keys_stand_at_the_last_positions():
    m = causal_mask(2, 4)  # queries for positions 2 and 3 of 4
    assert m.tolist() == [[0, 0, 0, -np.inf], [0, 0, 0, 0]]
    rng = np.random.default_rng(5)
    k, v = rng.normal(size=(4, 3)), rng.normal(size=(4, 2))
    q = rng.normal(size=(4, 3))
    full = attention(q, k, v)
    last = attention(q[2:], k, v)
    assert last.weights.shape == (2, 4)
    np.testing.assert_allclose(last.weights, full.weights[2:])


@pytest.mark.parametrize("t", [0.0, -1.0, np.inf, np.nan])
def test_a_temperature_that_is_not_positive_is_refused(t):
    with pytest.raises(ValueError, match="temperature"):
        attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), temperature=t)


def test_masked_scores_are_minus_infinity_and_their_weights_exactly_zero():
    rng = np.random.default_rng(2)
    q, k = rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    trace = attention(q, k, k)
    upper = np.triu_indices(6, k=1)
    assert np.all(trace.masked[upper] == -np.inf)
    assert np.all(trace.weights[upper] == 0.0)
    assert np.all(trace.weights[np.tril_indices(6)] > 0)


def test_scale_divides_by_root_d_k_and_temperature_divides_again():
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(4, 16)), rng.normal(size=(4, 16))
    np.testing.assert_allclose(attention(q, k, k).scaled, (q @ k.T) / 4)
    np.testing.assert_allclose(attention(q, k, k, scale=False).scaled, q @ k.T)
    np.testing.assert_allclose(attention(q, k, k, temperature=2.0).scaled, (q @ k.T) / 8)


def test_softmax_of_huge_scores_is_finite_because_the_max_is_subtracted():
    w = softmax(np.array([1000.0, 999.0, -1000.0]))
    assert np.all(np.isfinite(w))
    assert w == pytest.approx([1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1)), 0.0])


def test_softmax_of_a_row_with_no_visible_key_is_all_zero_not_nan():
    with np.errstate(all="raise"):
        w = softmax(np.array([[0.0, -np.inf], [-np.inf, -np.inf]]))
    assert w.tolist() == [[1.0, 0.0], [0.0, 0.0]]


def test_an_explicit_mask_replaces_the_causal_one():
    rng = np.random.default_rng(4)
    q, k = rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    window = np.array([[0, -np.inf, -np.inf], [0, 0, -np.inf], [-np.inf, 0, 0]])
    trace = attention(q, k, k, mask=window)
    assert trace.weights[2, 0] == 0.0 and trace.weights[2, 1] > 0


def test_inputs_are_never_modified():
    q = np.ones((3, 2))
    q.setflags(write=False)
    attention(q, q, q)  # would raise if the core wrote into its input


def test_recomputing_after_an_edit_reuses_the_unchanged_heads_and_equals_a_fresh_compute():
    from attnviz.core import compute, load_preset
    from attnviz.core.scenario import with_settings, with_value
    s = load_preset("gpt2-small-shape")
    first = compute(s)
    edited = with_value(s, 3, "k", 2, 5, 1.5)
    again = compute(edited, (s, first))
    assert again.heads[0] is first.heads[0] and again.heads[3] is not first.heads[3]
    for a, b in zip(again.heads, compute(edited).heads):
        np.testing.assert_array_equal(a.weights, b.weights)
        np.testing.assert_array_equal(a.output, b.output)
    cooler = with_settings(edited, temperature=0.5)  # settings change every head
    assert all(h is not g for h, g in zip(compute(cooler, (edited, again)).heads, again.heads))


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_a_long_inputs_edited_head_is_worked_out_in_parts_of_rows_and_is_the_cores_attention(cores, monkeypatch):
    """A long input (more than LEAN_CELLS) keeps only weights and outputs; an edit changes one head,
    whose rows then go to every core in parts: the same numbers as attention() on the whole head."""
    import importlib

    from attnviz.core.scenario import make_head, make_scenario, with_value
    computing = importlib.import_module("attnviz.core.compute")  # the module, not its compute()
    monkeypatch.setattr(computing.os, "cpu_count", lambda: cores)
    rng = np.random.default_rng(0)
    n = 700
    heads = [make_head(f"h{i}", *(rng.standard_normal((n, 8)) for _ in "qkv")) for i in range(9)]
    s = make_scenario([f"t{i}" for i in range(n)], heads)
    assert len(s.heads) * n * n > computing.LEAN_CELLS
    first = computing.compute(s)
    edited = with_value(s, 4, "q", n - 1, 0, 3.0)
    parts = []
    real = computing.lean_weights
    monkeypatch.setattr(computing, "lean_weights", lambda q, *rest: parts.append(len(q)) or real(q, *rest))
    again = computing.compute(edited, (s, first))
    assert sorted(parts) == sorted(np.diff(np.linspace(0, n, cores + 1).astype(int)).tolist())  # one head, in parts
    assert all(again.heads[i] is first.heads[i] for i in range(9) if i != 4)
    whole = attention(edited.heads[4].q, edited.heads[4].k, edited.heads[4].v, causal=True)
    np.testing.assert_allclose(again.heads[4].weights, whole.weights, atol=1e-6)
    np.testing.assert_allclose(again.heads[4].output, whole.output, atol=1e-5)
