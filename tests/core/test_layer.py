"""The whole layer of seed 002: projections, heads, concat, W_o, residual, GQA, LayerNorm, positions."""
import numpy as np
import pytest

from attnviz.core import compute, load_preset, multi_head_attention, split_heads
from attnviz.core.attention import layer_norm, rope, sinusoidal_positions
from attnviz.core.scenario import ScenarioError, with_projection_options, with_projection_value


def test_projection_mode_equals_multi_head_attention_stage_by_stage():
    s = load_preset("projection-demo")
    p = s.projection
    layer = compute(s).layer
    q = p.x @ p.w_q
    np.testing.assert_allclose(layer.q, split_heads(q, 2))
    for i, head in enumerate(s.heads):  # the heads the tables show are the layer's
        np.testing.assert_allclose(head.q, layer.q[i])
    np.testing.assert_allclose(layer.concat, np.concatenate(list(layer.heads.output), axis=1))
    np.testing.assert_allclose(layer.projected, layer.concat @ p.w_o)
    np.testing.assert_array_equal(layer.output, p.x + layer.projected)  # O = X + Y', exactly


def test_editing_x_or_a_w_matrix_moves_the_derived_q_k_v():
    s = load_preset("projection-demo")
    edited = with_projection_value(s, "w_q", 0, 0, 5.0)
    assert edited.projection.w_q[0, 0] == 5.0
    np.testing.assert_allclose(edited.heads[0].q, split_heads(edited.projection.x @ edited.projection.w_q, 2)[0])
    edited = with_projection_value(s, "x", 2, 1, -1.0)
    assert edited.heads[1].k[2].tolist() != s.heads[1].k[2].tolist()


def test_grouped_query_heads_share_k_and_v_and_equal_repeating_them():
    s = with_projection_options(load_preset("gqa-demo"), n_kv_heads=2)
    p = s.projection
    assert p.w_k.shape == (8, 4) and len(s.heads) == 4
    np.testing.assert_array_equal(s.heads[0].k, s.heads[1].k)
    np.testing.assert_array_equal(s.heads[2].v, s.heads[3].v)
    assert not np.array_equal(s.heads[1].k, s.heads[2].k)
    def wide(w):
        return np.concatenate([w[:, :2], w[:, :2], w[:, 2:], w[:, 2:]], axis=1)
    plain = multi_head_attention(p.x, p.w_q, wide(p.w_k), wide(p.w_v), p.w_o, 4)
    np.testing.assert_allclose(compute(s).layer.output, plain.output)


def test_groups_that_do_not_divide_the_heads_are_refused():
    with pytest.raises(ScenarioError, match="cannot share"):
        with_projection_options(load_preset("gqa-demo"), n_kv_heads=3)


def test_layer_norm_gives_each_row_zero_mean_and_unit_variance():
    x = np.random.default_rng(0).normal(3, 5, size=(6, 8))
    normed = layer_norm(x)
    np.testing.assert_allclose(normed.mean(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(normed.var(axis=1), 1, atol=1e-5)
    s = with_projection_options(load_preset("projection-demo"), layer_norm=True)
    layer = compute(s).layer
    np.testing.assert_allclose(layer.normed.mean(axis=1), 0, atol=1e-12)
    np.testing.assert_array_equal(layer.output, s.projection.x + layer.projected)  # the residual adds X


def swap(s_a, s_b):
    """Outputs of the two position presets, rows of B reordered to A's tokens."""
    out_a, out_b = compute(s_a).layer.output, compute(s_b).layer.output
    order = [s_b.tokens.index(t) for t in s_a.tokens]
    return out_a, out_b[order]


def test_without_positions_neko_ga_suwatta_and_suwatta_ga_neko_are_the_same_words_reordered():
    a, b = load_preset("position-nekoga"), load_preset("position-suwatta")
    assert sorted(a.tokens) == sorted(b.tokens) and a.tokens != b.tokens
    out_a, out_b = swap(a, b)
    np.testing.assert_allclose(out_a, out_b, atol=1e-12)


@pytest.mark.parametrize("positions", ["sinusoidal", "rope"])
def test_with_positions_the_order_changes_the_outputs(positions):
    a, b = (with_projection_options(load_preset(p), positions=positions)
            for p in ("position-nekoga", "position-suwatta"))
    out_a, out_b = swap(a, b)
    assert np.abs(out_a - out_b).max() > 0.05


def test_sinusoidal_encodings_and_rope_are_the_textbook_ones():
    pe = sinusoidal_positions(3, 4)
    np.testing.assert_allclose(pe[1], [np.sin(1), np.cos(1), np.sin(1 / 100), np.cos(1 / 100)])
    x = np.random.default_rng(1).normal(size=(5, 4))
    rotated = rope(x)
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=1), np.linalg.norm(x, axis=1))  # a rotation
    np.testing.assert_allclose(rotated[0], x[0])  # position 0 is not turned
    # q·k after RoPE depends on the distance between the positions only:
    q, k = np.random.default_rng(2).normal(size=(2, 4))
    def at(v, p):
        return rope(np.vstack([np.zeros((p, 4)), v[None]]))[p]
    assert at(q, 3) @ at(k, 1) == pytest.approx(at(q, 4) @ at(k, 2))
