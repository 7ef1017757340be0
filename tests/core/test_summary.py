"""Head statistics, means and attention rollout, each against a direct computation."""
import numpy as np
import pytest

import gguf_writer
from attnviz.core import load_preset
from attnviz.core.summary import (
    STATISTICS,
    STATS,
    head_stats,
    kv_groups,
    mean_over_heads,
    pooled,
    rollout,
    rollout_factor,
    similar,
    summarise,
)


def random_weights(shape, seed=0, causal=True):
    """Rows that sum to 1, with the future masked (exact zeros) when causal."""
    rng = np.random.default_rng(seed)
    w = rng.random(shape) ** 3
    if causal:
        w = np.where(np.tril(np.ones(shape[-2:], bool)), w, 0.0)
    return w / w.sum(axis=-1, keepdims=True)


def test_each_statistic_is_the_mean_over_rows_of_its_formula():
    w = random_weights((3, 7, 7))
    stats = head_stats(w)
    for h in range(3):
        rows = range(7)
        entropy = np.mean([-sum(x * np.log(x) for x in w[h, i] if x > 0) for i in rows])
        distance = np.mean([sum(w[h, i, j] * abs(i - j) for j in range(7)) for i in rows])
        np.testing.assert_allclose(stats[h], [entropy, distance, np.mean(w[h, :, 0]),
                                              np.mean([w[h, i, i - 1] for i in range(1, 7)]),
                                              np.mean([w[h, i, i] for i in rows])])


def test_known_heads_score_what_their_names_say():
    n = 6
    previous = np.eye(n, k=-1)
    previous[0, 0] = 1  # the first token has no previous one: it attends to itself
    sink = np.zeros((n, n))
    sink[:, 0] = 1
    uniform = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    stats = head_stats(np.array([previous, sink, np.eye(n), uniform]))
    assert stats[0, 3] == 1 and stats[1, 2] == 1 and stats[2, 4] == 1
    assert stats[2, 0] == 0 and stats[2, 1] == 0  # a self head is certain and looks nowhere else
    np.testing.assert_allclose(stats[3, 0], np.mean(np.log(np.arange(1, n + 1))))  # uniform over i+1 keys
    np.testing.assert_allclose(stats[1, 1], np.mean(np.arange(n)))  # the sink is i tokens back


def test_each_statistic_is_one_record_whose_function_fills_its_column():
    w = random_weights((3, 9, 9), 2)
    table = head_stats(w)
    assert STATS == tuple(stat.key for stat in STATISTICS) and table.shape == (3, len(STATISTICS))
    for column, stat in enumerate(STATISTICS):
        np.testing.assert_array_equal(table[:, column], stat.of(w))


def test_a_certain_head_has_an_entropy_of_plus_zero():
    """`attnviz stats` prints it: 0.0, never -0.0."""
    assert not np.signbit(head_stats(np.eye(4)[None])[0, 0])


def test_rollout_is_the_product_of_the_renormalised_layer_means():
    layers = [random_weights((4, 5, 5), seed) for seed in range(3)]
    means = [mean_over_heads(w) for w in layers]
    np.testing.assert_allclose(means[0], sum(layers[0]) / 4)
    factors = []
    for a in means:
        f = 0.5 * a + 0.5 * np.eye(5)
        factors.append(f / f.sum(axis=1, keepdims=True))
    products = rollout(means)
    np.testing.assert_allclose(products[0], factors[0])
    np.testing.assert_allclose(products[2], factors[2] @ factors[1] @ factors[0])
    for p in products:
        np.testing.assert_allclose(p.sum(axis=1), 1)  # rows still sum to 1
        assert np.all(np.triu(p, 1) == 0)  # causal layers roll out to a causal matrix


def test_identity_weights_roll_out_to_the_identity():
    eye = np.eye(4)[None].repeat(3, axis=0)
    np.testing.assert_array_equal(rollout([mean_over_heads(eye)] * 5)[-1], np.eye(4))
    np.testing.assert_array_equal(rollout_factor(np.eye(4)), np.eye(4))


def test_a_summary_gathered_layer_by_layer_matches_the_direct_computations():
    layers = [random_weights((3, 9, 9), seed) for seed in range(4)]
    s = summarise(list("abcdefghi"), iter(layers))
    assert (s.layers, s.heads) == (4, 3) and s.table().shape == (4, 3, 5)
    np.testing.assert_allclose(s.table()[2], head_stats(layers[2]))
    np.testing.assert_allclose(s.rollout_full, rollout([mean_over_heads(w) for w in layers])[-1])
    np.testing.assert_allclose(s.mean_over_layers(), np.mean([w.mean(axis=0) for w in layers], axis=0))
    assert s.thumbnails[1].shape == (3, 9, 9)  # small heads are kept whole


def test_find_heads_like_this_one_ranks_by_cosine_similarity():
    base = random_weights((6, 6), 1, causal=False).ravel()
    noise = np.random.default_rng(2).random(base.size)
    vectors = np.array([base, base * 2, noise, base + 0.1 * noise, -base + 1])
    assert similar(vectors, 0, 2) == [1, 3]  # a scaled copy is as alike as can be, then a noisy one
    layers = [np.eye(5)[None].repeat(2, axis=0), random_weights((2, 5, 5), 3)]
    assert summarise(list("abcde"), layers).like(0, 0, 1) == [(0, 1)]  # the other identity head


def test_large_heads_are_pooled_by_block_means():
    w = random_weights((2, 100, 100))
    small = pooled(w, 48)
    assert small.shape == (2, 34, 34)  # blocks of 3 tokens, the last one of 1
    np.testing.assert_allclose(small[1, 0, 0], w[1, :3, :3].mean())
    np.testing.assert_allclose(small[0, 33, 33], w[0, 99, 99])
    assert pooled(w, 100) is w


@pytest.mark.parametrize("preset, groups", [("gqa-demo", [0, 0, 1, 1]), ("seed-demo", None)])
def test_heads_sharing_k_and_v_are_recognised(preset, groups):
    assert kv_groups(load_preset(preset)) == groups


def test_declared_k_v_groups_are_the_ones_the_head_panels_name_however_alike_the_heads_look(tmp_path):
    """A projection regrouped to as many K/V heads as heads repeats W_k's blocks (heads 0 and 2
    look alike): no groups. A real model's head whose k was edited still reads its group."""
    from attnviz.core import lm
    from attnviz.core.scenario import with_projection_options, with_value
    assert kv_groups(with_projection_options(load_preset("gqa-demo"), n_kv_heads=4)) is None
    gguf_writer.tiny_llama(tmp_path / "t.gguf", heads=4, kv_heads=2)
    model = lm.load(tmp_path / "t.gguf")
    encoded = lm.encode(model, "ab a b")
    s = lm.scenario(model, encoded, lm.run(model, encoded.ids))
    assert kv_groups(s) == kv_groups(with_value(s, 1, "k", 0, 0, 5.0)) == [0, 0, 1, 1]


def test_the_weight_of_one_query_on_one_key_is_found_in_every_head():
    layers = [random_weights((3, 9, 9), seed) for seed in range(4)]
    s = summarise(list("abcdefghi"), layers)
    np.testing.assert_allclose(s.pair(6, 2), [w[:, 6, 2] for w in layers], rtol=1e-6)
    big = [random_weights((2, 300, 300), 5)]
    pooled_pair = summarise([str(i) for i in range(300)], big).pair(299, 0)
    np.testing.assert_allclose(pooled_pair[0], pooled(big[0], 128)[:, 99, 0], rtol=1e-5)  # blocks of 3 tokens


def test_statistics_of_float32_weights_match_float64_and_are_worked_out_a_block_at_a_time(monkeypatch):
    import attnviz.core.summary as summary
    w = random_weights((3, 40, 40), 7)
    i = np.arange(40)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = np.where(w > 0, -w * np.log(w), 0).sum(-1).mean(-1)
    distance = (w * np.abs(i[:, None] - i[None, :])).sum(-1).mean(-1)
    expected = np.stack([entropy, distance, w[:, :, 0].mean(-1), w[:, i[1:], i[1:] - 1].mean(-1),
                         w[:, i, i].mean(-1)], axis=-1)
    for block in (100, 40 * 40):  # blocks of 2 rows (their sums add up), and one block
        monkeypatch.setattr(summary, "BLOCK", block)
        np.testing.assert_allclose(head_stats(w), expected, rtol=1e-12)
        np.testing.assert_allclose(head_stats(w.astype(np.float32)), expected, rtol=2e-6, atol=1e-7)


def test_what_a_summary_keeps_is_bounded_whatever_the_number_of_layers_and_heads():
    from attnviz.core.summary import FLAT_CELLS, SHOWN_CELLS, THUMBNAIL_CELLS
    layers, heads, n = 256, 64, 300
    s = summarise([str(i) for i in range(n)], [random_weights((heads, n, n), seed) for seed in range(2)], layers)
    assert s.layers == 2  # two of the 256 layers it was sized for
    assert layers * s.thumbnails[0].size <= THUMBNAIL_CELLS and layers * s.flat[0].size <= FLAT_CELLS
    assert layers * s.means[0].size <= SHOWN_CELLS and layers * s.rollouts[0].size <= SHOWN_CELLS
    assert s.thumbnails[0].shape[1] >= 8  # still a picture
    small = summarise(list("abcdefghi"), [random_weights((3, 9, 9), 1)], 30)
    assert small.thumbnails[0].shape == (3, 9, 9) and small.flat_side == 128  # a small model loses nothing


def test_going_through_every_layer_is_refused_beyond_each_limit_with_its_numbers():
    from types import SimpleNamespace

    from attnviz.core.scenario import ScenarioError
    from attnviz.core.summary import MAX_MODEL_CELLS, MAX_MODEL_PRODUCTS, MAX_ROLLOUT, check_work

    def model(heads, n, d=None):
        head = SimpleNamespace(q=np.empty((n, d or 0)), v=np.empty((n, d or 0)))
        return SimpleNamespace(heads=[head] * heads, n=n, weights_only=d is None)
    check_work(model(16, 2048), MAX_MODEL_CELLS // (16 * 2048 ** 2))  # at the limit: fine
    with pytest.raises(ScenarioError, match=r"65 layers × 16 heads × 2,048 tokens² is 4,362,076,160 weights.*"
                                            r"at most 268,435,456 \(layers × heads × tokens²\)"):
        check_work(model(16, 2048), 65)
    layers = MAX_MODEL_PRODUCTS // (4096 ** 2 * 2048)
    check_work(model(1, 4096, 1024), layers)
    with pytest.raises(ScenarioError, match=r"at most 137,438,953,472 \(layers × heads × tokens² × \(d_k \+ d_v\)\)"):
        check_work(model(1, 4096, 1024), layers + 1)
    check_work(model(1, 4096), 9, rollout=False)  # no rollout asked for
    with pytest.raises(ScenarioError, match=r"rollout of 9 layers of 4,096 tokens .*\(layers × tokens³\); "
                                            f"AttnViz does at most {MAX_ROLLOUT:,}"):
        check_work(model(1, 4096), 9, rollout=True)
