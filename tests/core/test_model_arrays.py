"""Attention from your own model: .npz or .npy files of tokens and q, k, v or weights, per layer."""
import io
import zipfile

import numpy as np
import pytest

from attnviz.core import ScenarioError, compute, load_scenario, save_scenario
from attnviz.core.compute import hidden
from attnviz.core.scenario import same_scenario, with_token_inserted

TOKENS = np.array(["The", "cat", "sat", "down"])


def model_weights(layers, heads=3, n=4, seed=0):
    """Causal softmax weights as a model would dump them (float32, rows summing to 1)."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(layers, heads, n, n)) + np.triu(np.full((n, n), -np.inf), 1)
    w = np.exp(scores - scores.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)).astype(np.float32)


def test_weights_alone_open_and_are_shown_exactly(tmp_path):
    w = model_weights(1)[0]
    np.savez(tmp_path / "m.npz", tokens=TOKENS, weights=w, head_names=np.array(["a", "b", "c"]))
    s = load_scenario(tmp_path / "m.npz")
    assert s.weights_only and s.tokens == tuple(TOKENS) and [h.name for h in s.heads] == ["a", "b", "c"]
    result = compute(s)
    for i in range(3):
        np.testing.assert_array_equal(result.heads[i].weights, w[i].astype(float))
        assert np.all(np.isneginf(result.heads[i].masked[np.triu_indices(4, 1)]))  # the zeros: masked


def test_q_k_v_of_several_layers_open_one_layer_at_a_time(tmp_path):
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 5, 2, 4, 8))  # 5 layers, 2 heads, 4 tokens, 8 dims
    np.savez(tmp_path / "m.npz", tokens=TOKENS, q=q, k=k, v=v)
    assert load_scenario(tmp_path / "m.npz").layer == (0, 5)
    s = load_scenario(tmp_path / "m.npz", layer=3)
    assert s.layer == (3, 5)
    np.testing.assert_array_equal(s.heads[1].k, k[3, 1])
    with pytest.raises(ScenarioError, match="no layer 7: 'q' has layers 0 to 4"):
        load_scenario(tmp_path / "m.npz", layer=7)


def test_weights_of_several_layers(tmp_path):
    w = model_weights(4)
    np.savez(tmp_path / "m.npz", tokens=TOKENS, weights=w)
    s = load_scenario(tmp_path / "m.npz", layer=2)
    np.testing.assert_array_equal(compute(s).heads[0].weights, w[2, 0].astype(float))


def test_a_folder_of_npy_files_opens_from_any_of_them(tmp_path):
    np.save(tmp_path / "tokens.npy", TOKENS)
    np.save(tmp_path / "weights.npy", model_weights(2))
    s = load_scenario(tmp_path / "weights.npy", layer=1)
    assert s.layer == (1, 2) and s.n == 4 and s.heads[0].title("en") == "head 0"
    assert load_scenario(tmp_path / "tokens.npy").n == 4


@pytest.mark.parametrize("arrays, message", [
    (dict(weights=model_weights(1)[0]), "tokens"),
    (dict(tokens=TOKENS, weights=model_weights(1)[0][:, :3, :]),
     "'weights' has 3 rows per head but there are 4 tokens"),
    (dict(tokens=TOKENS, weights=np.where(np.eye(4) > 0, np.nan, model_weights(1)[0])),
     "head 0, row 1: the weights hold NaN"),
    (dict(tokens=TOKENS.reshape(2, 2), weights=model_weights(1)[0]), "one row of token texts"),
    (dict(tokens=np.arange(4), weights=model_weights(1)[0]), "must hold the token texts"),
    (dict(tokens=TOKENS, weights=model_weights(1)[0], head_names=np.array(["a"])), "1 head_names for 3 heads"),
    (dict(tokens=TOKENS, weights=model_weights(1)[None, None][0]), "(layers, heads, n, n)"),
    (dict(tokens=TOKENS, weights=model_weights(1)[0] * 2), "from 0 to 1"),
    (dict(tokens=TOKENS, weights=model_weights(1)[0] * 0.5), "add up to 0.5000, not 1"),
    (dict(tokens=TOKENS), "no 'weights' array, and no 'q', 'k', 'v' array either"),
    (dict(tokens=TOKENS, q=np.zeros((2, 5, 4, 8)), k=np.zeros((2, 5, 4, 8)), v=np.zeros((3, 5, 4, 8))),
     "different numbers of layers"),
])
def test_malformed_model_files_are_refused_with_a_message(tmp_path, arrays, message):
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ScenarioError, match=message):
        load_scenario(tmp_path / "bad.npz")


def test_tokens_saved_as_bytes_are_read_as_text(tmp_path):
    np.savez(tmp_path / "m.npz", tokens=np.array([t.encode() for t in ["猫", "が"]]), weights=model_weights(1, n=2)[0])
    assert load_scenario(tmp_path / "m.npz").tokens == ("猫", "が")


def test_loaded_weights_round_trip_through_a_scenario_file_and_keep_their_tokens(tmp_path):
    np.savez(tmp_path / "m.npz", tokens=TOKENS, weights=model_weights(3), head_names=np.array(["a", "b", "c"]))
    s = load_scenario(tmp_path / "m.npz", layer=1)
    save_scenario(s, tmp_path / "s.json")
    back = load_scenario(tmp_path / "s.json")
    assert same_scenario(back, s) and back.layer == (1, 3)
    with pytest.raises(ScenarioError, match="cannot be added or removed"):
        with_token_inserted(s, 0, "A")


def test_two_hundred_and_fifty_six_tokens_by_twelve_heads_open(tmp_path):
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(3, 12, 256, 64)).astype(np.float32)
    np.savez_compressed(tmp_path / "m.npz", tokens=np.array([f"t{i}" for i in range(256)]), q=q, k=k, v=v)
    s = load_scenario(tmp_path / "m.npz")
    assert len(s.heads) == 12 and s.n == 256
    assert np.allclose(compute(s).heads[11].weights.sum(-1), 1)


def test_weights_of_4096_tokens_open_in_the_models_own_float32(tmp_path):
    """Long inputs open weights-only up to 4,096 tokens, kept as stored (float32: half the memory)."""
    n = 4096
    w = model_weights(1, heads=2, n=n)[0]
    tokens = np.array([f"t{i}" for i in range(n)])
    np.savez(tmp_path / "long.npz", tokens=tokens, weights=w)
    s = load_scenario(tmp_path / "long.npz")
    assert s.n == n and s.given.dtype == np.float32
    trace = compute(s).heads[1]
    np.testing.assert_array_equal(trace.weights[n - 1], w[1, n - 1])
    assert trace.scores is trace.masked and np.isneginf(trace.masked[0, 1])  # one array of logs, not three
    np.testing.assert_array_equal(hidden(trace), w[1] == 0)  # masked cells, told without taking every log
    np.savez(tmp_path / "longer.npz", tokens=np.append(tokens, "one more"), weights=model_weights(1, 1, n + 1)[0])
    with pytest.raises(ScenarioError, match="4,097 tokens is more than the 4,096"):
        load_scenario(tmp_path / "longer.npz")


def test_q_k_v_of_2048_tokens_open_while_their_weights_fit_the_cell_limit(tmp_path):
    rng = np.random.default_rng(2)
    tokens = np.array([f"t{i}" for i in range(2048)])
    q = rng.normal(size=(4, 2048, 2))  # 4 heads × 2048² = 2**24 weights: the most computed
    np.savez(tmp_path / "four.npz", tokens=tokens, q=q, k=q, v=q)
    assert len(load_scenario(tmp_path / "four.npz").heads) == 4
    np.savez(tmp_path / "five.npz", tokens=tokens, q=q[:1].repeat(5, 0), k=q[:1].repeat(5, 0), v=q[:1].repeat(5, 0))
    with pytest.raises(ScenarioError, match="5 heads of 2048 tokens is too large"):
        load_scenario(tmp_path / "five.npz")


def test_a_broken_layer_of_a_model_says_which_layer(tmp_path):
    good = model_weights(1)[0]
    np.savez(tmp_path / "m.npz", tokens=TOKENS, weights=np.stack([good, np.where(np.eye(4) > 0, np.nan, good)]))
    assert load_scenario(tmp_path / "m.npz", 0).n == 4
    with pytest.raises(ScenarioError, match="layer 1, head 0, row 1: the weights hold NaN"):
        load_scenario(tmp_path / "m.npz", 1)


# ---------------------------------------------------------------- broken and hostile .npz files

def write(tmp_path, content, name="s.json"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def npz(tmp_path, **arrays):
    path = tmp_path / "model.npz"
    np.savez(path, **arrays)
    return path


def test_q_k_v_load_from_an_npz_of_heads(tmp_path):
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 2, 4, 5))
    s = load_scenario(npz(tmp_path, tokens=np.array(["a", "b", "c", "d"]), q=q, k=k, v=v))
    assert s.tokens == ("a", "b", "c", "d") and len(s.heads) == 2
    np.testing.assert_array_equal(s.heads[1].k, k[1])


def test_an_npz_with_pickled_objects_is_refused_without_unpickling(tmp_path):
    evil = np.array([{"__reduce__": "rm -rf"}], dtype=object)
    path = npz(tmp_path, tokens=evil, q=np.zeros((1, 1)), k=np.zeros((1, 1)), v=np.zeros((1, 1)))
    with pytest.raises(ScenarioError, match="pickles"):
        load_scenario(path)


@pytest.mark.parametrize("arrays, message", [
    (dict(q=np.zeros((2, 2)), k=np.zeros((2, 2)), v=np.zeros((2, 2))), "tokens"),
    (dict(tokens=np.array(["a", "b"]), q=np.zeros((2, 2)), k=np.zeros((2, 2))), "'v'"),
    (dict(tokens=np.array(["a", "b"]), q=np.zeros((2, 2)), k=np.zeros((3, 2)), v=np.zeros((2, 2))),
     "'k' has 3 rows per head but there are 2 tokens"),
    (dict(tokens=np.array(["a"]), q=np.array([["x"]]), k=np.zeros((1, 1)), v=np.zeros((1, 1))), "not numbers"),
])
def test_malformed_npz_files_are_refused_with_a_message(tmp_path, arrays, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(npz(tmp_path, **arrays))


def test_a_truncated_npz_is_refused(tmp_path):
    good = npz(tmp_path, tokens=np.array(["a"]), q=np.ones((1, 1)), k=np.ones((1, 1)), v=np.ones((1, 1)))
    data = good.read_bytes()
    with pytest.raises(ScenarioError, match="not a valid .npz"):
        load_scenario(write(tmp_path, data[: len(data) // 2], "cut.npz"))


def test_an_npz_whose_header_promises_more_data_than_it_holds_is_refused(tmp_path):
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": "<f8", "fortran_order": False, "shape": (10 ** 11,)})
    path = tmp_path / "forged.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("tokens.npy", _npy_bytes(np.array(["a"])))
        z.writestr("q.npy", buffer.getvalue() + b"\0" * 64)
    with pytest.raises(ScenarioError, match="more data than the file holds"):
        load_scenario(path)


def _npy_bytes(a):
    buffer = io.BytesIO()
    np.save(buffer, a, allow_pickle=False)
    return buffer.getvalue()


def test_an_npz_with_stray_members_and_non_string_head_names_is_handled(tmp_path):
    path = tmp_path / "odd.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", b"not an array")
        for name, a in dict(tokens=np.array(["a", "b"]), q=np.ones((2, 2)), k=np.ones((2, 2)),
                            v=np.ones((2, 2))).items():
            z.writestr(f"{name}.npy", _npy_bytes(a))
    assert load_scenario(path).tokens == ("a", "b")  # the stray member is ignored
    bad = npz(tmp_path, tokens=np.array(["a"]), q=np.ones((1, 1)), k=np.ones((1, 1)), v=np.ones((1, 1)),
              head_names=np.array([1.5]))
    with pytest.raises(ScenarioError, match="head_names"):
        load_scenario(bad)


def test_more_heads_and_tokens_than_memory_allows_are_refused(tmp_path):
    q = np.zeros((64, 1024, 1))
    path = npz(tmp_path, tokens=np.array([f"t{i}" for i in range(1024)]), q=q, k=q, v=q)
    with pytest.raises(ScenarioError, match="too large to show"):
        load_scenario(path)
