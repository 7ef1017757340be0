"""multi_head_attention(): the layer of seed 002, head split, GQA, residual."""
import numpy as np
import pytest

from attnviz.core import attention, merge_heads, multi_head_attention, split_heads
from attnviz.core.attention import group_size, kv_group


def random_layer(seed, n=5, d=8, d_kv=8):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    return x, rng.normal(size=(d, d)), rng.normal(size=(d, d_kv)), rng.normal(size=(d, d_kv)), rng.normal(size=(d, d))


def test_split_takes_column_blocks_as_in_the_seed_and_merge_undoes_it():
    x = np.arange(24.0).reshape(3, 8)
    heads = split_heads(x, 4)
    assert heads.shape == (4, 3, 2)
    np.testing.assert_array_equal(heads[1], x[:, 2:4])  # Q_i = Q[:, i·d/h : (i+1)·d/h]
    np.testing.assert_array_equal(merge_heads(heads), x)


def test_split_refuses_a_width_that_does_not_divide():
    with pytest.raises(ValueError, match="not divisible"):
        split_heads(np.zeros((2, 5)), 2)


def test_one_head_equals_plain_attention_on_the_projections():
    x, w_q, w_k, w_v, w_o = random_layer(0)
    trace = multi_head_attention(x, w_q, w_k, w_v, w_o, 1, residual=False)
    single = attention(x @ w_q, x @ w_k, x @ w_v)
    np.testing.assert_allclose(trace.heads.weights[0], single.weights)
    np.testing.assert_allclose(trace.output, single.output @ w_o)


def test_each_head_is_attention_on_its_column_block_and_the_rest_follows_the_seed():
    x, w_q, w_k, w_v, w_o = random_layer(1)
    trace = multi_head_attention(x, w_q, w_k, w_v, w_o, 4)
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    outputs = []
    for i in range(4):
        block = slice(2 * i, 2 * i + 2)
        head = attention(q[:, block], k[:, block], v[:, block])  # ÷ √(d/h)
        np.testing.assert_allclose(trace.heads.weights[i], head.weights)
        outputs.append(head.output)
    concat = np.concatenate(outputs, axis=1)
    np.testing.assert_allclose(trace.concat, concat)
    np.testing.assert_allclose(trace.projected, concat @ w_o)
    np.testing.assert_array_equal(trace.output, x + trace.projected)  # O = X + Y'


def test_n_kv_heads_equal_to_n_heads_gives_every_head_its_own_k_and_v():
    x, w_q, w_k, w_v, w_o = random_layer(2)
    trace = multi_head_attention(x, w_q, w_k, w_v, w_o, 4, n_kv_heads=4)
    for i in range(4):
        block = slice(2 * i, 2 * i + 2)
        np.testing.assert_allclose(trace.k[i], (x @ w_k)[:, block])
        np.testing.assert_allclose(trace.v[i], (x @ w_v)[:, block])
    np.testing.assert_array_equal(trace.output, multi_head_attention(x, w_q, w_k, w_v, w_o, 4).output)


def test_grouped_query_heads_share_the_k_and_v_of_their_group():
    x, w_q, w_k, w_v, w_o = random_layer(3, d=8, d_kv=4)  # 4 heads of 2, 2 K/V groups
    trace = multi_head_attention(x, w_q, w_k, w_v, w_o, 4, n_kv_heads=2)
    k_groups = split_heads(x @ w_k, 2)
    for i in range(4):
        np.testing.assert_array_equal(trace.k[i], k_groups[i // 2])
    # ... which is the same as plain multi-head with K and V repeated per head:
    def repeat(w):
        return np.concatenate([w[:, 0:2], w[:, 0:2], w[:, 2:4], w[:, 2:4]], axis=1)
    plain = multi_head_attention(x, w_q, repeat(w_k), repeat(w_v), w_o, 4)
    np.testing.assert_allclose(trace.output, plain.output)


def test_groups_that_do_not_divide_the_heads_are_refused():
    with pytest.raises(ValueError, match="groups"):
        multi_head_attention(*random_layer(4, d=8, d_kv=6), 4, n_kv_heads=3)


def test_head_i_reads_the_k_and_v_of_group_i_over_the_group_size():
    assert group_size(4, 4) == 1 and group_size(9, 3) == 3 and group_size(8, 1) == 8
    assert kv_group(4, 9, 3) == (1, range(3, 6)) and kv_group(0, 4, 4) == (0, range(0, 1))
    for n_kv_heads in (0, 3, 16):
        with pytest.raises(ValueError, match="8 heads cannot share K/V"):
            group_size(8, n_kv_heads)
