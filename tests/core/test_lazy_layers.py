"""A model's file with many layers is read one layer at a time: its index once, a layer when it is
shown, and (compressed) never the layers before it twice."""
import zipfile

import numpy as np
import pytest

from attnviz.core.files import FileProblem
from attnviz.core.formats.model_arrays import MAX_MODEL_BYTES
from attnviz.core.formats.npz import Arrays, Member
from attnviz.core.io import load_scenario

LAYERS, HEADS, N = 12, 4, 128


def weights(rng):
    scores = rng.normal(size=(LAYERS, HEADS, N, N))
    scores = np.where(np.triu(np.ones((N, N), bool), 1), -np.inf, scores)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


@pytest.fixture(params=["stored", "compressed"])
def model_file(request, tmp_path):
    rng = np.random.default_rng(0)
    w = weights(rng)
    path = tmp_path / f"{request.param}.npz"
    save = np.savez if request.param == "stored" else np.savez_compressed
    save(path, tokens=np.array([f"t{i}" for i in range(N)]), weights=w)
    return path, w


def layer_bytes():
    return HEADS * N * N * 4


def weight_reads(arrays):
    return [layer for name, layer in arrays.reads if name == "weights"]


def test_opening_reads_one_layer_and_each_switch_one_more(model_file):
    path, w = model_file
    first = load_scenario(path, 0)
    arrays = Arrays.of(path, MAX_MODEL_BYTES)  # the loader's own index, kept
    assert weight_reads(arrays) == [0]
    np.testing.assert_array_equal(first.given, w[0])
    seventh = load_scenario(path, 7)
    assert Arrays.of(path, MAX_MODEL_BYTES) is arrays  # the archive's index was not read again
    assert weight_reads(arrays) == [0, 7]
    np.testing.assert_array_equal(seventh.given, w[7])
    np.testing.assert_array_equal(load_scenario(path, 11).given, w[11])
    np.testing.assert_array_equal(load_scenario(path, 3).given, w[3])
    assert weight_reads(arrays) == [0, 7, 11, 3]


def test_a_compressed_file_inflates_only_up_to_the_layer_shown_and_each_layer_once(tmp_path, monkeypatch):
    monkeypatch.setattr(Member, "EVERY", layer_bytes())  # a saved point every layer (4 MB in use)
    rng = np.random.default_rng(0)
    w = weights(rng)
    path = tmp_path / "c.npz"
    np.savez_compressed(path, tokens=np.array([f"t{i}" for i in range(N)]), weights=w)
    load_scenario(path, 0)
    arrays = Arrays.of(path, MAX_MODEL_BYTES)
    opened = arrays.inflated
    assert opened <= layer_bytes() + 4096  # layer 0 and the tokens, not the eleven others
    load_scenario(path, 5)
    load_scenario(path, 9)
    small = layer_bytes() // 16  # the tokens, read again with each layer, and the .npy header
    assert arrays.inflated - opened <= 9 * layer_bytes() + small  # up to layer 9's end, once
    before = arrays.inflated
    np.testing.assert_array_equal(load_scenario(path, 6).given, w[6])  # back: from a saved point
    assert arrays.inflated - before <= 2 * layer_bytes()  # from the point before layer 6, not from 0


def test_a_file_changed_on_disk_is_indexed_again(model_file):
    path, w = model_file
    load_scenario(path, 0)
    first = Arrays.of(path, MAX_MODEL_BYTES)
    np.savez(path, tokens=np.array([f"u{i}" for i in range(N)]), weights=w[::-1].copy())
    assert load_scenario(path, 0).tokens[0] == "u0"
    assert Arrays.of(path, MAX_MODEL_BYTES) is not first


@pytest.mark.parametrize("before_end", [100, 37, 1])
def test_a_compressed_layer_ending_in_a_long_repeat_reads_to_its_last_byte(tmp_path, monkeypatch, before_end):
    """zlib may hold output cut off at a stop after all its input is consumed (a run of zeros is one
    long repeat): that output must be drained, not called a truncated file."""
    header = 128  # the .npy header of `weights`
    monkeypatch.setattr(Member, "EVERY", header + LAYERS * layer_bytes() - before_end)  # a stop near the end
    w = weights(np.random.default_rng(1))
    w[-1, :, :, :] = 0
    w[-1, :, :, 0] = 1  # valid rows: all weight on the first key, then a long run of zeros
    path = tmp_path / "zeros.npz"
    np.savez_compressed(path, tokens=np.array([f"t{i}" for i in range(N)]), weights=w)
    for layer in (LAYERS - 1, 0, LAYERS - 1):
        np.testing.assert_array_equal(load_scenario(path, layer).given, w[layer])


def test_a_folder_of_npy_files_is_indexed_again_when_any_of_its_files_changes(tmp_path):
    w = weights(np.random.default_rng(2))[:2]
    np.save(tmp_path / "tokens.npy", np.array([f"t{i}" for i in range(N)]))
    np.save(tmp_path / "weights.npy", w)
    assert load_scenario(tmp_path / "weights.npy").tokens[0] == "t0"
    np.save(tmp_path / "tokens.npy", np.array([f"renamed{i}" for i in range(N)]))
    assert load_scenario(tmp_path / "weights.npy").tokens[0] == "renamed0"


# ---------------------------------------------------------------- every layer in turn: one pass

MANY, SMALL = 64, 16  # many small layers: each far smaller than Member.EVERY, the spacing of saved points


@pytest.fixture(params=["stored", "compressed"])
def many_layers(request, tmp_path):
    rng = np.random.default_rng(4)
    w = np.tril(rng.random((MANY, 2, SMALL, SMALL)) + 0.1)
    w = (w / w.sum(-1, keepdims=True)).astype(np.float32)
    path = tmp_path / f"{request.param}.npz"
    save = np.savez if request.param == "stored" else np.savez_compressed
    save(path, tokens=np.array([f"t{i}" for i in range(SMALL)]), head_names=np.array(["a", "b"]), weights=w)
    return path, w


def test_going_through_every_layer_reads_each_layer_once_and_the_tokens_once(many_layers):
    """What `attnviz stats`, `--rollout` and the overview do: one pass through the archive."""
    from attnviz.core.summary import layer_weights, named_layers
    path, w = many_layers
    first, count, scenario_of = named_layers(str(path))
    for layer, weights in enumerate(layer_weights(count, scenario_of)):
        np.testing.assert_array_equal(weights, w[layer])
    arrays = Arrays.of(path, MAX_MODEL_BYTES)
    assert weight_reads(arrays) == list(range(MANY))
    assert [name for name, _ in arrays.reads].count("tokens") == 1
    assert [name for name, _ in arrays.reads].count("head_names") == 1
    # compressed: every byte of the weights inflated once, never again from the start (that was
    # MANY² / 2 layers' worth: each layer started from the member's first byte)
    assert arrays.inflated <= w.nbytes + 4096


@pytest.mark.parametrize("method, name", [(zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "lzma")])
def test_other_compressions_are_refused_before_anything_is_unpacked(tmp_path, monkeypatch, method, name):
    import bz2
    import lzma
    path = tmp_path / f"{name}.npz"
    with zipfile.ZipFile(path, "w", method) as archive:
        for key, array in (("tokens", np.array(["a", "b"])), ("weights", np.array([[[1, 0], [0.5, 0.5]]]))):
            with archive.open(f"{key}.npy", "w") as out:
                np.lib.format.write_array(out, array)
    unpacked = []
    monkeypatch.setattr(bz2, "BZ2Decompressor", lambda *a: unpacked.append("bzip2"))
    monkeypatch.setattr(lzma, "LZMADecompressor", lambda *a, **k: unpacked.append("lzma"))
    with pytest.raises(FileProblem, match=f"compressed with {name}.*np.savez_compressed"):
        load_scenario(path)
    assert unpacked == []


def test_compressed_arrays_are_refused_beyond_what_may_be_inflated(tmp_path, monkeypatch):
    import attnviz.core.formats.npz as npz
    w = weights(np.random.default_rng(5))[:3]
    path = tmp_path / "c.npz"
    np.savez_compressed(path, tokens=np.array([f"t{i}" for i in range(N)]), weights=w)
    monkeypatch.setattr(npz, "MAX_INFLATED", w.nbytes)  # the weights fit, with the tokens they do not
    with pytest.raises(FileProblem, match="MB of compressed arrays.*np.savez, uncompressed"):
        load_scenario(path)
    np.savez(path, tokens=np.array([f"t{i}" for i in range(N)]), weights=w)  # stored: a seek per layer
    np.testing.assert_array_equal(load_scenario(path, 2).given, w[2])
