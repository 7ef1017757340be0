"""Issue 48: a model kept compact (its weights left in the mapped GGUF file, each layer dequantised
when a pass reaches it, the latest kept up to a bound) gives the numbers the float32 model gives,
holds at most its bound of weights, builds a layer only when a pass reaches it, and says its memory
before it loads; a model that would not fit is refused before anything is built. Files of the real
1–4B shapes are written here with random weights (bench/shapes.py), nothing downloaded."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.compute import compute
from attnviz.core.files import FileProblem
from attnviz.core.gguf import GGUF, StoredMatrix
from attnviz.core.lm import families, gguf_file, memory
from attnviz.core.lm.weights import LazyBlocks, distinct_bytes
from attnviz.core.scenario import Change, ScenarioError
from bench import shapes

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "families"
TOLERANCE = 1e-4


def gguf_sources():
    return [(family, source) for family in families.FAMILIES
            for source, about in json.loads((GOLDEN / family / "manifest.json").read_text("utf-8"))["sources"].items()
            if about["file"].endswith(".gguf")]


@pytest.mark.parametrize("family, source", gguf_sources(), ids=lambda x: x)
def test_a_compact_model_matches_transformers_as_the_float32_one_does(family, source):
    """Every family's golden GGUF files (F32, F16, Q8_0, Q4_K_M), kept compact: attention and
    probabilities within the tolerance of transformers' (the references tests/core/lm/test_families.py
    holds the float32 model to)."""
    manifest = json.loads((GOLDEN / family / "manifest.json").read_text("utf-8"))
    model = lm.load(str(GOLDEN / family / manifest["sources"][source]["file"]), way="compact")
    assert model.compact and isinstance(model.embedding, StoredMatrix)
    with np.load(GOLDEN / family / "reference.npz") as reference:
        for i, sentence in enumerate(manifest["sentences"]):
            key = f"{source}_s{i}"
            encoded = lm.encode(model, sentence)
            result = lm.run(model, encoded.ids)
            weights = [np.stack(compute(lm.scenario(model, encoded, result, layer)).weights())
                       for layer in range(model.config.n_layers)]
            np.testing.assert_allclose(np.stack(weights), reference[f"{key}_attn"], rtol=0, atol=TOLERANCE)
            np.testing.assert_allclose(result.probs, reference[f"{key}_probs"], rtol=0, atol=TOLERANCE)


SMALL = {"block_count": 6, "embedding_length": 256, "feed_forward_length": 512, "attention.head_count": 4,
         "attention.head_count_kv": 2, "vocab": 3000}


@pytest.fixture(scope="module")
def six_layers(tmp_path_factory) -> Path:
    return shapes.write_sized("llama", SMALL, "Q4_K", tmp_path_factory.mktemp("compact") / "six.gguf")


def test_compact_and_float32_give_the_same_numbers_and_compact_holds_only_its_bound(six_layers):
    fast = lm.load(str(six_layers), way="fast")
    layer_bytes = distinct_bytes([fast.blocks[0]])
    compact = gguf_file.load(six_layers, keep=2 * layer_bytes)
    ids = lm.encode(fast, "the cat sat on the mat").ids
    a, b = lm.run(fast, ids), lm.run(compact, ids)
    np.testing.assert_allclose(b.logits, a.logits, rtol=1e-5, atol=1e-5)
    for x, y in zip(a.q + a.k + a.v, b.q + b.k + b.v):
        np.testing.assert_array_equal(x, y)  # the same float32 weights: the same products, bit for bit
    assert len(compact.blocks.kept()) == 2 and distinct_bytes(compact.blocks.kept()) <= 2 * layer_bytes
    assert compact.weight_bytes() - 2 * layer_bytes <= 4 * 256  # beside them only the final norm's gain is held
    assert compact.weight_bytes() < fast.weight_bytes() / 3


def test_a_pass_builds_each_layer_once_and_an_edit_in_the_last_layers_builds_none(six_layers):
    model = lm.load(str(six_layers), way="fast")
    compact = gguf_file.load(six_layers, keep=2 * distinct_bytes([model.blocks[0]]))
    blocks = compact.blocks
    assert isinstance(blocks, LazyBlocks) and blocks.built == 0  # loading builds no layer
    ids = lm.encode(compact, "one two three four").ids
    first = lm.run(compact, ids)
    assert blocks.built == 6
    lm.run(compact, ids, [(5, 1, Change(off=True))], after=first)  # the last layer's head off: layer 5 is kept
    assert blocks.built == 6
    lm.run(compact, ids, [(4, 0, Change(off=True))], after=first)  # layers 4 and 5 are the two kept
    assert blocks.built == 6
    lm.run(compact, ids, [(1, 0, Change(off=True))], after=first)  # 1, 2, 3 built again (4, 5 were kept)
    assert blocks.built == 9


def test_the_unembedding_a_tile_at_a_time_is_the_whole_product_and_rows_are_the_tensors(six_layers, monkeypatch):
    g = GGUF(six_layers)
    stored, dense = g.matrix("token_embd.weight"), g.tensor("token_embd.weight")
    assert isinstance(stored, StoredMatrix) and len(stored) == 3000
    np.testing.assert_array_equal(stored[[5, 0, 2999, 5]], dense[[5, 0, 2999, 5]])
    np.testing.assert_array_equal(stored[7], dense[7])
    monkeypatch.setattr(StoredMatrix, "TILE_VALUES", 256 * 7)  # 7 rows a tile: 429 tiles, the last one short
    x = np.random.default_rng(0).standard_normal((3, 256)).astype(np.float32)
    np.testing.assert_allclose(stored.times_transposed(x), x @ dense.T, rtol=1e-5, atol=1e-6)


def test_a_matrix_s_tiles_are_dequantised_on_every_core_and_a_failing_one_is_raised_once_all_have_ended(
        six_layers, monkeypatch):
    g = GGUF(six_layers)
    stored, dense = g.matrix("token_embd.weight"), g.tensor("token_embd.weight")
    monkeypatch.setattr(StoredMatrix, "FILL_VALUES", 256 * 7)  # 7 rows a tile: 429 tiles
    threads, rows_of = set(), StoredMatrix.__getitem__

    def noted(self, ids):
        threads.add(threading.get_ident())
        if ids.start == 7 * 300:
            raise FileProblem("the file changed while it was read")
        return rows_of(self, ids)
    out = np.full(dense.shape, np.nan, np.float32)
    monkeypatch.setattr(StoredMatrix, "__getitem__", noted)
    with pytest.raises(FileProblem, match="changed while it was read"):
        stored.fill(out)
    done = ~np.isnan(out).any(axis=1)
    assert done.sum() == len(out) - 7 and not done[2100:2107].any()  # every other tile written, and whole
    np.testing.assert_array_equal(out[done], dense[done])
    assert len(threads) > 1 or (os.cpu_count() or 1) == 1


@pytest.mark.parametrize("compact", [False, True], ids=["fast", "compact"])
def test_a_block_is_read_from_its_file_a_tile_at_a_time_into_its_place(six_layers, monkeypatch, compact):
    """A block built from the file's stored matrices holds the numbers built from whole float32 arrays, bit for
    bit, and no tile read on the way holds more than the tile's values (no whole matrix dequantised beside the
    block), kept fast or compact."""
    g = GGUF(six_layers)
    family = families.FAMILIES["llama"]
    read = []
    rows_of = StoredMatrix.__getitem__

    def counted(self, ids):
        rows = rows_of(self, ids)
        read.append(rows.size)
        return rows
    monkeypatch.setattr(StoredMatrix, "__getitem__", counted)
    monkeypatch.setattr(StoredMatrix, "FILL_VALUES", 256 * 24)
    config = gguf_file._config(g)

    def norm(name):
        return gguf_file._norm(g, family, f"blk.2.{name}")
    stored = family.gguf_block(lambda name: g.matrix(f"blk.2.{name}"), norm, config)
    dense = family.gguf_block(lambda name: g.tensor(f"blk.2.{name}"), norm, config)
    for name in ("w_qkv", "w_in", "w_o", "w_down"):
        np.testing.assert_array_equal(getattr(stored, name), getattr(dense, name))
        assert getattr(stored, name).shape[0] == (512 if name == "w_down" else 256)  # (in, out), seen so
    assert max(read) == 256 * 24 and sum(read) == 256 * (256 + 2 * 128 + 256 + 2 * 512) + 512 * 256
    whole = []
    monkeypatch.setattr(GGUF, "tensor", lambda self, name: whole.append(name) or dense_tensor(self, name))
    model = gguf_file.load(six_layers, keep=memory.KEEP if compact else None)
    lm.run(model, [5, 6, 7])
    assert not [name for name in whole if name.startswith("blk.") and name.endswith(("q.weight", "up.weight"))]


dense_tensor = GGUF.tensor


def test_a_model_that_would_not_fit_is_refused_before_any_weight_is_built_naming_both_numbers(six_layers,
                                                                                               monkeypatch):
    monkeypatch.setattr(memory, "need", lambda *a: memory.Need(fast=6_000_000_000, compact=2_400_000_000))  # 1B's
    kept, weights = [], gguf_file._weights
    monkeypatch.setattr(gguf_file, "_weights", lambda g, family, c, progress, keep: kept.append(keep) or
                        weights(g, family, c, progress, keep))
    monkeypatch.setattr(memory, "free_bytes", lambda: 2_000_000_000)
    with pytest.raises(lm.ModelError, match="six needs about 2.4 GB even kept compact, but this computer has 2.0 GB "
                                            "free: close other programs"):
        lm.load(str(six_layers), way="auto")
    monkeypatch.setattr(memory, "free_bytes", lambda: 5_000_000_000)
    with pytest.raises(lm.ModelError, match=r"six needs about 6.0 GB in float32, but this computer has 5.0 GB free: "
                                            r"keep it compact \(2.4 GB\) or close other programs"):
        lm.load(str(six_layers), way="fast")
    assert kept == []  # refused before any weight was built
    assert lm.load(str(six_layers), way="auto").compact  # fits compact; fast would take over FAST_SHARE of it
    assert kept == [memory.KEEP]
    monkeypatch.setattr(memory, "free_bytes", lambda: 12_000_000_000)
    assert not lm.load(str(six_layers), way="auto").compact
    with pytest.raises(lm.ModelError, match="memory 'small': choose auto, compact, fast"):
        lm.load(str(six_layers), way="small")


def test_a_damaged_file_is_refused_for_its_damage_whatever_the_free_memory(monkeypatch, tmp_path):
    """The file's own checks come first: a model too large for the memory and damaged is named for its damage."""
    import gguf_writer
    make, message = gguf_writer.HOSTILE["an 800 MB model whose last weight is NaN"]
    make(tmp_path / "huge.gguf")
    monkeypatch.setattr(memory, "free_bytes", lambda: 1)
    with pytest.raises(ScenarioError, match=message):
        lm.load(str(tmp_path / "huge.gguf"))


def test_a_folder_is_held_in_float32_whichever_way_is_asked():
    folder = GOLDEN / "llama" / "hf"
    need = lm.catalog.hf_folder.need(folder)
    assert need.compact is None and need.as_dict() == {"compact": need.fast, "fast": need.fast}
    model = lm.load(str(folder), way="compact")
    assert not model.compact


@pytest.mark.parametrize("name, kind", [("llama-1b", "Q4_K"), ("qwen2-1.5b", "Q8_0"), ("gemma3-1b", "Q4_K"),
                                        ("gemma3-4b", "Q4_K")])
def test_a_real_shaped_model_runs_compact_holding_a_few_layers(tmp_path, name, kind):
    """Llama 3.2 1B's shapes (16 layers, d 2,048, 32 heads, 8 K/V heads, 128,256 tokens), Qwen 2.5 1.5B's,
    Gemma 3 1B's and Gemma 3 4B's, random weights: kept compact, a pass holds at most KEEP bytes of
    weights (the float32 model: 4 bytes a parameter), and says so up front."""
    path = shapes.write(name, kind, tmp_path / f"{name}.gguf")
    need = gguf_file.need(path)
    model = lm.load(str(path), way="compact")
    parameters = sum(t.size for t in GGUF(path).tensors.values())
    assert parameters > (3.5e9 if name.endswith("4b") else 0.99e9) and need.fast > 4 * parameters
    result = lm.run(model, lm.encode(model, "The cat ate the fish.").ids)
    assert np.isfinite(result.logits).all() and abs(result.probs.sum() - 1) < 1e-6
    assert len(result.probs) == shapes.SHAPES[name][1]["vocab"]
    assert model.blocks.built == model.config.n_layers
    assert 0 < model.weight_bytes() <= memory.KEEP
    assert need.compact < need.fast / 2


def test_the_listed_gemma_package_says_its_memory_once_its_file_is_joined(monkeypatch, tmp_path):
    """Gemma 3's package is listed before its first use (its file not joined yet: memory not known), then with
    the memory its joined file takes."""
    from attnviz.core.lm import catalog
    joined = GOLDEN / "gemma3" / "gemma3-q8_0.gguf"
    monkeypatch.setattr(catalog, "bundled_model", lambda: None)
    monkeypatch.setattr(catalog, "remembered", lambda: [])
    monkeypatch.setattr(catalog, "hf_cache", lambda: [])
    monkeypatch.setattr(catalog, "gemma_chunks", lambda: [joined])
    monkeypatch.setattr(catalog, "gemma_path", lambda: joined)
    monkeypatch.setattr(catalog, "_known_good", lambda target: False)
    assert [e.memory for e in lm.entries()] == [None]
    monkeypatch.setattr(catalog, "_known_good", lambda target: True)
    assert [e.memory for e in lm.entries()] == [gguf_file.need(joined).as_dict()]


def test_a_file_whose_sizes_lie_is_refused_by_its_shapes_before_its_memory_is_worked_out(tmp_path):
    """Attacker round 22: an embedding_length of 2²⁴ over 64-wide tensors was told to need 137 GB and to close
    other programs; the list said so too."""
    import gguf_writer
    gguf_writer.tiny_llama(tmp_path / "lying.gguf", metadata={"llama.embedding_length": 1 << 24,
                                                             "llama.attention.key_length": 16})
    with pytest.raises(ScenarioError, match="has shape"):
        gguf_file.need(tmp_path / "lying.gguf")
    with pytest.raises(ScenarioError, match="has shape"):
        lm.load(str(tmp_path / "lying.gguf"), way="fast")
    assert gguf_file.describe(tmp_path / "lying.gguf")["memory"] is None


def test_compact_is_offered_only_where_it_takes_less():
    small = memory.Need(fast=100_000_000, compact=120_000_000)  # a model whose weights are smaller than its file
    with pytest.raises(lm.ModelError) as refused:
        memory.choose(small, "fast", "tiny", free=50_000_000)
    assert str(refused.value) == ("tiny needs about 100 MB in float32, but this computer has 50 MB free: close "
                                  "other programs")


CUT_SHORT = """
import os, shutil, sys
from attnviz.core import lm
from attnviz.core.scenario import ScenarioError
source, copy, way, moved = sys.argv[1:5]
shutil.copy(source, copy)
model = lm.load(copy, way=way)
if moved:
    os.rename(copy, moved)  # moved, then cut: found by the descriptor kept, not by its name
os.truncate(moved or copy, 4096)  # `cp other.gguf model.gguf` over the open file: cut first, then written
try:
    lm.run(model, [1, 2, 3])
except ScenarioError as e:
    print(e)
"""


@pytest.mark.parametrize("way, moved", [("compact", ""), ("fast", ""), ("compact", "moved.gguf")])
def test_a_file_cut_short_while_a_compact_model_is_open_is_one_message_not_a_crash(tmp_path, way, moved):
    """Its pages past the new end are gone: read, they killed the process (SIGBUS, attacker round 35), unsaved
    work and all; moved first, then cut, too (attacker round 48). Before each read the file is looked at; a model
    made float32 (fast) has nothing left to read. In a process of its own: a crash there fails this test, not the
    test run."""
    import subprocess
    import sys
    source = GOLDEN / "llama" / "llama-q8_0.gguf"
    result = subprocess.run([sys.executable, "-c", CUT_SHORT, str(source), str(tmp_path / "m.gguf"), way,
                             str(tmp_path / moved) if moved else ""], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    said = f"{tmp_path / 'm.gguf'}: changed while AttnViz was reading it (it is shorter now): open it again\n"
    assert result.stdout == (said if way == "compact" else "")


@pytest.mark.parametrize("time_set_back, moved", [(False, False), (True, False), (False, True)],
                         ids=["written", "written-time-set-back", "moved-then-written"])
def test_a_file_written_over_while_a_compact_model_is_open_is_refused_not_read_as_other_weights(tmp_path,
                                                                                                 time_set_back, moved):
    """The same length, other bytes (`dd conv=notrunc`, a copy of another file of that size): a compact model
    reads its weights again at every pass, and ran on other numbers or warned of overflows (attacker round 45);
    also where its time of writing is set back (`touch -r`, `rsync --inplace -t`: attacker round 47)."""
    import shutil
    import time
    path = tmp_path / "m.gguf"
    shutil.copy(GOLDEN / "llama" / "llama-q8_0.gguf", path)
    model = lm.load(str(path), way="compact")
    before = lm.run(model, [1, 2, 3]).logits
    written = path.stat().st_mtime_ns
    time.sleep(0.05)  # past the file system's clock tick
    if moved:  # attacker round 48: the file under another name was no longer looked at
        path = path.rename(tmp_path / "moved.gguf")
    with open(path, "r+b") as f:
        f.seek(path.stat().st_size // 2)
        f.write(bytes(4096))
    if time_set_back:
        os.utime(path, ns=(written, written))
        assert path.stat().st_mtime_ns == written
    with pytest.raises(ScenarioError, match="has been written, moved or given other permissions since it was opened"):
        lm.run(model, [1, 2, 3])
    assert lm.run(lm.load(str(path), way="compact"), [1, 2, 3]).logits.shape == before.shape  # opened again: read
