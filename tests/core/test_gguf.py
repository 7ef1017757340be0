"""GGUF files read with numpy: metadata, every supported quantisation, and every broken file refused."""
import shutil
import struct
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from gguf import GGMLQuantizationType
from gguf.quants import dequantize as reference_dequantize

import gguf_writer
from attnviz.core import gguf, lm
from attnviz.core.files import FileProblem
from attnviz.core.gguf import BF16, F16, F32, GGUF, Q4_0, Q4_1, Q8_0

FAMILIES = Path(__file__).resolve().parents[1] / "golden" / "families"


@pytest.mark.parametrize("kind, tolerance", [(F32, 0), (F16, 1e-3), (BF16, 1e-2), (Q8_0, 0.02), (Q4_0, 0.2),
                                             (Q4_1, 0.1)])
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
    data[at:at + 4] = struct.pack("<I", 15)  # Q8_K: a type of intermediate results, which gguf does not dequantise
    with pytest.raises(FileProblem, match="quantised as type 15"):
        GGUF(broken(tmp_path, "k.gguf", bytes(data))).tensor("w")


def test_another_architecture_is_refused_by_name(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "g.gguf", arch="mamba")
    with pytest.raises(FileProblem, match="is a 'mamba' model; AttnViz runs models of the families llama,"):
        lm.load(tmp_path / "g.gguf")


def test_a_tiny_llama_loads_and_runs(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf")
    model = lm.load(tmp_path / "t.gguf")
    encoded = lm.encode(model, "ab a b")
    result = lm.run(model, encoded.ids)
    assert len(result.q) == 2 and result.q[0].shape == (4, len(encoded.ids), 16)
    assert result.probs.shape == (len(model.vocabulary),) and abs(result.probs.sum() - 1) < 1e-9


# ---------------------------------------------------------------- at the door: nothing built before a file is accepted

@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile-gguf")
    for i, (make, _) in enumerate(gguf_writer.HOSTILE.values()):
        make(folder / f"{i}.gguf")
    yield folder
    shutil.rmtree(folder)


@pytest.mark.parametrize("i, name", list(enumerate(gguf_writer.HOSTILE)))
def test_a_hostile_gguf_is_refused_with_its_reason_before_its_vocabulary_or_weights_are_built(
        hostile, monkeypatch, i, name):
    built = []
    real_strings, real_dequantize = gguf.GGUF._strings, gguf.dequantize
    monkeypatch.setattr(gguf.GGUF, "_strings", lambda self, f: built.append("texts") or real_strings(self, f))
    monkeypatch.setattr(gguf, "dequantize", lambda *a: built.append("weights") or real_dequantize(*a))
    with pytest.raises(FileProblem) as refused:
        lm.load(hostile / f"{i}.gguf")
    assert gguf_writer.HOSTILE[name][1] in str(refused.value) and len(str(refused.value)) < 300  # no value echoed whole
    assert built == [] or (name in gguf_writer.READS_TEXTS and set(built) == {"texts"})


def test_a_bos_id_of_minus_1_means_none_when_no_bos_is_added(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf", metadata={"tokenizer.ggml.bos_token_id": -1,
                                                         "tokenizer.ggml.eos_token_id": -1})
    model = lm.load(tmp_path / "t.gguf")
    assert model.tokenizer.bos is None and lm.encode(model, "ab").ids == (256,)


def test_a_bos_id_in_range_is_added_first_when_the_file_says_so(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf", metadata={"tokenizer.ggml.bos_token_id": 257,
                                                         "tokenizer.ggml.add_bos_token": True})
    assert lm.encode(lm.load(tmp_path / "t.gguf"), "ab").ids == (257, 256)


def test_values_of_keys_attnviz_does_not_read_are_stepped_over_unbuilt(tmp_path):
    """Two lists of a million numbers, 100,000 empty texts and a text of 1 MB under keys no one
    reads: the model loads, and opening the file allocates almost nothing."""
    junk = {"junk.a": gguf_writer.Zeros(gguf_writer.U64, 1 << 20), "junk.b": gguf_writer.Zeros(gguf_writer.U8, 1 << 20),
            "junk.texts": gguf_writer.Zeros(gguf_writer.STRING, 100_000), "junk.text": "x" * (1 << 20)}
    gguf_writer.tiny_llama(tmp_path / "t.gguf", metadata=junk)
    tracemalloc.start()
    try:
        g = GGUF(tmp_path / "t.gguf")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024  # built, the lists alone would take 18 MB
    assert g.fields["junk.texts"].count == 100_000
    assert lm.encode(lm.load(tmp_path / "t.gguf"), "ab").ids == (256,)


def test_the_items_of_a_list_are_counted_before_the_list_is_walked(tmp_path):
    """Four lists of a million numbers, then a list that says it holds a million texts but is
    cut off at once: refused for the count, before any of its texts is looked for."""
    meta = {f"junk.{i}": gguf_writer.Zeros(gguf_writer.U8, 1 << 20) for i in range(4)}
    meta["tokenizer.ggml.tokens"] = gguf_writer.Zeros(gguf_writer.STRING, 1 << 20)
    gguf_writer.write(tmp_path / "t.gguf", {"general.architecture": "llama", **meta}, {})
    data = (tmp_path / "t.gguf").read_bytes()
    head = data.index(b"tokenizer.ggml.tokens") + len(b"tokenizer.ggml.tokens") + 4 + 4 + 8
    with pytest.raises(FileProblem, match="holds more than 4,194,304 values in its lists"):
        GGUF(broken(tmp_path, "cut.gguf", data[:head]))


def test_a_list_of_texts_is_built_only_within_its_limit(tmp_path, monkeypatch):
    gguf_writer.write(tmp_path / "t.gguf", {"words": ["猫" * 100] * 100}, {})
    monkeypatch.setattr(gguf, "MAX_LIST_BYTES", 29_999)  # the list holds 30,000 bytes of text
    g = GGUF(tmp_path / "t.gguf")
    assert g.fields["words"].count == 100
    with pytest.raises(FileProblem, match="holds a list of texts of 30,000 bytes"):
        g.metadata["words"]


def test_a_key_of_more_than_1024_bytes_is_refused(tmp_path):
    gguf_writer.write(tmp_path / "t.gguf", {"k" * 1025: 1}, {})
    with pytest.raises(FileProblem, match="a text of 1,025 bytes"):
        GGUF(tmp_path / "t.gguf")
    gguf_writer.write(tmp_path / "t.gguf", {"k" * 1024: 1}, {})
    assert GGUF(tmp_path / "t.gguf").metadata["k" * 1024] == 1


ALWAYS_FINITE = {"NVFP4"}  # gguf decodes its FP8 scales and FP4 values to finite numbers whatever the bytes


@pytest.mark.parametrize("kind", sorted(gguf.TYPES), ids=lambda k: gguf.TYPES[k].name)
def test_the_scan_for_nan_agrees_with_dequantising_on_any_bytes(kind):
    """Random bytes (a damaged file): the scan of the stored bytes says non-finite exactly when
    the dequantised values hold a NaN or an infinity; and every value AttnViz dequantises is the
    one gguf's own dequantize gives."""
    rng = np.random.default_rng(kind)
    block_bytes = gguf.TYPES[kind].block_bytes
    seen = set()
    for _ in range(300):
        raw = rng.integers(0, 256, 4 * block_bytes, dtype=np.uint8)
        with np.errstate(all="ignore"):
            ours = gguf.dequantize(raw, kind)
            theirs = reference_dequantize(raw.reshape(-1, block_bytes), GGMLQuantizationType(kind)).reshape(-1)
            expected = not np.isfinite(ours).all()
        np.testing.assert_array_equal(ours, theirs.astype(np.float32))
        assert gguf._non_finite(raw.reshape(-1, block_bytes), gguf.TYPES[kind]) == expected
        seen.add(expected)
    assert seen == ({False} if gguf.TYPES[kind].name in ALWAYS_FINITE else {True, False})


@pytest.mark.parametrize("kind", [F32, F16, BF16, Q8_0, Q4_0, Q4_1])
def test_a_tensor_with_a_nan_or_an_infinity_is_found(tmp_path, kind):
    values = np.random.default_rng(0).normal(0, 1, (4, 64)).astype(np.float32)
    bad = {"nan": values.copy(), "inf": values.copy()}
    bad["nan"][3, 40], bad["inf"][0, 0] = np.nan, -np.inf
    gguf_writer.write(tmp_path / "t.gguf", {}, {"good": (values, kind), "nan": (bad["nan"], kind),
                                                "inf": (bad["inf"], kind)})
    g = GGUF(tmp_path / "t.gguf")
    assert g.finite("good") and not g.finite("nan") and not g.finite("inf")


def test_a_folder_or_a_file_that_is_not_gguf_is_named_as_such(tmp_path):
    with pytest.raises(FileProblem, match="is a folder, not a GGUF model file"):
        GGUF(tmp_path)
    (tmp_path / "empty.gguf").write_bytes(b"")
    with pytest.raises(FileProblem, match="is not a GGUF model file"):
        GGUF(tmp_path / "empty.gguf")


def test_the_numbers_attnviz_knows_its_own_types_by_are_ggmls():
    from gguf import GGMLQuantizationType

    from attnviz.core.gguf import TYPES
    assert (F32, F16, BF16, Q4_0, Q4_1, Q8_0) == tuple(int(GGMLQuantizationType[n]) for n in
                                                       ("F32", "F16", "BF16", "Q4_0", "Q4_1", "Q8_0"))
    assert TYPES[Q4_1].name == "Q4_1"


def test_the_types_read_are_attnvizs_own_and_every_one_gguf_dequantises_asked_of_gguf():
    """No copied list: the 25 types gguf 0.19 read are there, and whatever a newer gguf reads too (NVFP4 in
    the one installed here); a type gguf lists but cannot dequantise is not."""
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType
    from gguf.quants import dequantize

    from attnviz.core import quants
    from attnviz.core.gguf import TYPES
    names = {t.name for t in TYPES.values()}
    assert {"F32", "F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K",
            "IQ1_S", "IQ1_M", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS", "IQ3_S", "IQ4_NL", "IQ4_XS", "TQ1_0",
            "TQ2_0", "MXFP4"} <= names
    for kind, (_, block_bytes) in GGML_QUANT_SIZES.items():
        try:
            dequantize(np.zeros((1, block_bytes), np.uint8), kind)
            read = True
        except NotImplementedError:
            read = False
        assert (kind.name in names) == (read or kind.name in quants.OWN), kind.name
    assert all(TYPES[int(GGMLQuantizationType[n])].own is quants.OWN[n].dequantize for n in quants.OWN)


@pytest.mark.parametrize("kind", sorted(gguf.TYPES), ids=lambda k: gguf.TYPES[k].name)
def test_dequantising_random_or_0xff_bytes_warns_nothing(kind):
    """Issue 45: IQ, TQ and MXFP4 tensors of damaged bytes were refused, but numpy's RuntimeWarnings reached
    the terminal first. Whatever the bytes, no warning; the scan still says whether they are finite."""
    import warnings
    block_bytes = gguf.TYPES[kind].block_bytes
    rng = np.random.default_rng(kind)
    for raw in (np.full(4 * block_bytes, 0xFF, np.uint8), *(rng.integers(0, 256, 4 * block_bytes, dtype=np.uint8)
                                                         for _ in range(50))):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            gguf.dequantize(raw, kind)


@pytest.mark.parametrize("name", ["Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K"])
def test_attnvizs_own_k_quant_decoders_give_ggufs_values_bit_for_bit(name):
    """Issue 48: the K-quants people download are decoded by AttnViz's own numpy, and every value is
    gguf's to the last bit: 2,048 super-blocks of random bytes (every sub-block's scale, minimum and
    high bits take every value) with finite scales, as a real file's are."""
    from attnviz.core import quants
    quant = next(q for q in gguf.TYPES.values() if q.name == name)
    rng = np.random.default_rng(48)
    blocks = rng.integers(0, 256, (2048, quant.block_bytes), dtype=np.uint8)
    floats = rng.uniform(1e-3, 1e-2, (2048, quant.float_bytes // 2)).astype(np.float16)
    blocks[:, quant.float_at:quant.float_at + quant.float_bytes] = floats.view(np.uint8)
    ours = quants.OWN[name].dequantize(blocks)
    theirs = reference_dequantize(blocks, GGMLQuantizationType[name]).reshape(-1).astype(np.float32)
    assert np.isfinite(ours).all() and len(np.unique(ours)) > 1000
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


@pytest.mark.parametrize("replaced, by, says", [
    (b"general.file_type", b"llama.block_count", "holds the key llama.block_count twice"),
    (b"blk.0.attn_k.weight", b"blk.0.attn_q.weight", "holds the tensor blk.0.attn_q.weight twice"),
])
def test_a_key_or_a_tensor_named_twice_is_refused(tmp_path, replaced, by, says):
    """Attacker round 21: the last of two went in silently (a model of another depth, a weight read from
    another's data); gguf's own reader refuses both."""
    golden = FAMILIES / "llama" / "llama-f32.gguf"
    data = golden.read_bytes()
    assert data.count(replaced) == 1
    (tmp_path / "twice.gguf").write_bytes(data.replace(replaced, by))
    with pytest.raises(FileProblem, match=says):
        lm.load(str(tmp_path / "twice.gguf"))


@pytest.mark.parametrize("types, says", [
    (gguf_writer.Typed(gguf_writer.ARRAY, [1.0] * 258, gguf_writer.FLOAT32), "is not a list of whole numbers"),
    (gguf_writer.Typed(gguf_writer.ARRAY, [True] * 258, gguf_writer.BOOL), "is not a list of whole numbers"),
    (gguf_writer.Typed(gguf_writer.ARRAY, [1] * 257 + [99], gguf_writer.I32), "holds 99, not a token type from 0 "
                                                                              "to 6"),
    (gguf_writer.Typed(gguf_writer.ARRAY, [1] * 257 + [-7], gguf_writer.I32), "holds -7, not a token type"),
], ids=["floats", "flags", "99", "-7"])
def test_token_types_that_are_not_llama_cpps_are_refused(tmp_path, types, says):
    gguf_writer.tiny_llama(tmp_path / "t.gguf", metadata={"tokenizer.ggml.token_type": types})
    with pytest.raises(FileProblem, match=f"its tokenizer.ggml.token_type {says}"):
        lm.load(str(tmp_path / "t.gguf"))


def test_a_text_that_is_not_utf_8_is_named_by_its_key(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf", metadata={"general.name": "Tiny XX"})
    data = (tmp_path / "t.gguf").read_bytes()
    (tmp_path / "t.gguf").write_bytes(data.replace(b"Tiny XX", b"Tiny \xff\xfe"))
    with pytest.raises(FileProblem, match="its general.name is not valid UTF-8 text"):
        lm.load(str(tmp_path / "t.gguf"))


def test_a_special_token_id_below_minus_1_is_refused(tmp_path):
    """Attacker round 53: transformers reads a negative id as a token counted from the vocabulary's end."""
    gguf_writer.tiny_llama(tmp_path / "t.gguf", metadata={"tokenizer.ggml.padding_token_id": -2})
    with pytest.raises(FileProblem, match="its tokenizer.ggml.padding_token_id is -2, not a token id from 0 to 257"):
        lm.load(str(tmp_path / "t.gguf"))
