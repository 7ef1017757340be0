"""core/layer.py: the boxes of the layer from X to O with their shapes, the arrows of GQA, the
numbers behind each box, and the residual of one token in two dimensions."""
import numpy as np
import pytest

from attnviz.core import compute, load_preset
from attnviz.core.attention import sinusoidal_positions
from attnviz.core.layer import SPLIT, flow, group_arrows, matrix, residual, rope_angles
from attnviz.core.scenario import with_projection_options


def boxes(f):
    return {b.key: b for column in f.columns for b in column}


def test_projection_demo_every_box_has_the_seeds_shape_with_the_real_numbers():
    s = load_preset("projection-demo")  # n = 5 tokens, d = 4, h = 2 heads
    f = flow(s.projection, s.n)
    b = boxes(f)
    expected = {"x": ((5, 4), "n × d"), "w_q": ((4, 4), "d × d"), "q": ((5, 4), "n × d"),
                "q:1": ((5, 2), "n × d/h"), "kv:0": ((5, 2), "n × d/h"), "scores:0": ((5, 5), "n × n"),
                "weights:1": ((5, 5), "n × n"), "heads:0": ((5, 2), "n × d/h"), "concat": ((5, 4), "n × d"),
                "w_o": ((4, 4), "d × d"), "projected": ((5, 4), "n × d"), "output": ((5, 4), "n × d")}
    for key, (shape, symbols) in expected.items():
        assert (tuple(b[key].shape), b[key].symbols) == (shape, symbols), key
    assert [c[0].key for c in f.columns][-4:] == ["w_o", "projected", "add", "output"]
    assert f.residual == (("x", "add"),) and f.sizes == dict(n=5, d=4, h=2, d_head=2, groups=2)
    layer = compute(s).layer
    for key, box in b.items():  # what a click shows has the shape the box says
        if key not in ("kv:0", "kv:1"):
            assert matrix(s.projection, layer, key).shape == tuple(box.shape), key
    assert matrix(s.projection, layer, "kv:0").shape == (5, 4)  # K_0 beside V_0


def test_the_guided_steps_are_the_boxes_of_each_heads_attention():
    s = load_preset("projection-demo")
    b = boxes(flow(s.projection, s.n))
    steps = {key: box.stages for key, box in b.items() if box.head == 1 and box.stages}
    assert steps == {"q:1": (SPLIT,),  # the split makes the head's Q_1, then its five steps its attention
                     "scores:1": (1,), "scaled:1": (2,), "masked:1": (3,), "weights:1": (4,), "heads:1": (5,)}


def test_gqa_one_arrow_from_each_group_to_each_head_that_reads_it():
    s = load_preset("gqa-demo")  # 4 heads, 2 K/V groups
    f = flow(s.projection, s.n)
    assert sorted(group_arrows(f)) == [("kv:0", "scores:0"), ("kv:0", "scores:1"),
                                       ("kv:1", "scores:2"), ("kv:1", "scores:3")]
    b = boxes(f)
    assert b["w_k"].shape == (8, 4) and b["k"].shape == (5, 4) and b["w_k"].symbols == "d × gd/h"
    assert b["scores:1"].name == "Q_{1}K_{0}ᵀ" and b["heads:3"].name == "· V_{1} = Y_{3}"
    layer = compute(s).layer
    np.testing.assert_array_equal(matrix(s.projection, layer, "kv:1"), np.hstack([layer.k[2], layer.v[2]]))
    np.testing.assert_array_equal(matrix(s.projection, layer, "k"), np.hstack([layer.k[0], layer.k[2]]))


@pytest.mark.parametrize("positions", ["sinusoidal", "rope"])
def test_positions_are_boxes_of_their_own(positions):
    s = with_projection_options(load_preset("position-nekoga"), positions=positions)
    f = flow(s.projection, s.n)
    b = boxes(f)
    layer = compute(s).layer
    if positions == "sinusoidal":
        assert ("positions", "stream") in f.arrows and f.residual == (("stream", "add"),)
        np.testing.assert_array_equal(matrix(s.projection, layer, "positions"), sinusoidal_positions(3, 4))
        assert f.turns == ()
    else:
        assert b["positions"].name == "RoPE" and b["q:0"].note == b["kv:1"].note == "RoPE"
        assert sorted(f.turns) == [("positions", k) for k in ("kv:0", "kv:1", "q:0", "q:1")]
        np.testing.assert_allclose(matrix(s.projection, layer, "positions"), [[0.0], [1.0], [2.0]])
    assert "positions" not in boxes(flow(load_preset("position-nekoga").projection, 3))


def test_rope_angles_are_p_over_base_to_the_2i_over_d():
    np.testing.assert_allclose(rope_angles(3, 4), [[0, 0], [1, 0.01], [2, 0.02]])


def test_the_residual_of_a_token_is_x_plus_y_prime_in_two_dimensions():
    s = load_preset("gqa-demo")
    layer = compute(s).layer
    x, y, o = residual(layer, 4, (2, 5))
    np.testing.assert_array_equal(x, s.projection.x[4, [2, 5]])
    np.testing.assert_array_equal(y, layer.projected[4, [2, 5]])
    np.testing.assert_allclose(o, x + y)
