"""GGUF files read with numpy: metadata, every supported quantisation, and every broken file refused."""
import struct

import numpy as np
import pytest

import gguf_writer
from attnviz.core import llama
from attnviz.core.files import FileProblem
from attnviz.core.gguf import F16, F32, GGUF, Q4_0, Q4_1, Q8_0


@pytest.mark.parametrize("kind, tolerance", [(F32, 0), (F16, 1e-3), (Q8_0, 0.02), (Q4_0, 0.2), (Q4_1, 0.1)])
def test_each_quantisation_dequantises_to_what_was_stored(tmp_path, kind, tolerance):
    values = np.random.default_rng(0).normal(0, 1, (3, 64)).astype(np.float32)
    gguf_writer.write(tmp_path / "t.gguf", {"general.architecture": "llama"}, {"w": (values, kind)})
    g = GGUF(tmp_path / "t.gguf")
    got = g.tensor("w")
    assert got.shape == (3, 64) and got.dtype == np.float32
    np.testing.assert_allclose(got, values, atol=tolerance * np.abs(values).max())


def test_metadata_of_every_kind_is_read(tmp_path):
    meta = {"general.architecture": "llama", "n": 7, "x": 0.5, "yes": True, "words": ["猫", "が"], "ids": [1, 2]}
    gguf_writer.write(tmp_path / "t.gguf", meta, {})
    assert GGUF(tmp_path / "t.gguf").metadata == meta


def broken(tmp_path, name, data: bytes):
    (tmp_path / name).write_bytes(data)
    return tmp_path / name


GOOD = b"GGUF" + struct.pack("<IQQ", 3, 0, 0)


@pytest.mark.parametrize("data, message", [
    (b"PK\x03\x04 not a model", "does not start with GGUF"),
    (b"GGUF" + struct.pack("<I", 1), "version 1"),
    (GOOD[:10], "truncated"),
    (b"GGUF" + struct.pack("<IQQ", 3, 10 ** 12, 0), "declares"),
    (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 2 ** 40), "a text of"),
    (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<IIQ", 9, 5, 2 ** 40),
     "a list of"),
    (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<I", 99), "unknown type"),
])
def test_a_broken_or_hostile_gguf_is_refused_with_a_message(tmp_path, data, message):
    with pytest.raises(FileProblem, match=message):
        GGUF(broken(tmp_path, "bad.gguf", data))


def test_a_tensor_beyond_the_end_of_the_file_is_refused(tmp_path):
    gguf_writer.write(tmp_path / "t.gguf", {}, {"w": (np.zeros((4, 32), np.float32), F32)})
    data = (tmp_path / "t.gguf").read_bytes()
    with pytest.raises(FileProblem, match="does not fit the file"):
        GGUF(broken(tmp_path, "cut.gguf", data[:-64]))


def test_an_unsupported_quantisation_is_named(tmp_path):
    gguf_writer.write(tmp_path / "t.gguf", {}, {"w": (np.zeros((1, 32), np.float32), F32)})
    data = bytearray((tmp_path / "t.gguf").read_bytes())
    at = data.index(b"w") + 1 + 4 + 16  # the tensor's type, after its name, dims and shape
    data[at:at + 4] = struct.pack("<I", 12)  # Q4_K
    with pytest.raises(FileProblem, match="quantised as type 12"):
        GGUF(broken(tmp_path, "k.gguf", bytes(data))).tensor("w")


def test_another_architecture_is_refused_by_name(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "g.gguf", arch="gpt2")
    with pytest.raises(FileProblem, match="is a 'gpt2' model; AttnViz runs models of the llama architecture"):
        llama.load(tmp_path / "g.gguf")


def test_a_tiny_llama_loads_and_runs(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf")
    model = llama.load(tmp_path / "t.gguf")
    encoded = llama.encode(model, "ab a b")
    result = llama.run(model, encoded.ids)
    assert len(result.q) == 2 and result.q[0].shape == (4, len(encoded.ids), 16)
    assert result.probs.shape == (len(model.vocabulary),) and abs(result.probs.sum() - 1) < 1e-9
