"""The forward pass at the machine's speed, counted rather than timed: every stage in float32, the
hidden half of the causal square never computed, per layer only the stream, q and one k and v per
K/V head kept, a pass's working memory bounded, and against transformers on 1,000 and 4,096 tokens
(tools/long_reference.py made tests/golden/smollm2/long.npz)."""
from __future__ import annotations

import os
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.attention import attention
from attnviz.core.compute import compute
from attnviz.core.lm import allocator, blocks, families, weights
from attnviz.core.lm.families import gemma3, gpt2, llama
from attnviz.core.lm.run import pass_bytes

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
FAMILIES = tuple(families.FAMILIES)  # every family registered: a new one is tested without a list here
needs_smollm2 = pytest.mark.real_model("smollm2")


def tiny(family: str):
    return lm.load(str(GOLDEN / "families" / family / "hf"))


@pytest.fixture(scope="module")
def smollm2():
    return lm.load()


@pytest.mark.parametrize("family", FAMILIES)
def test_every_stage_of_every_family_runs_in_float32(family, monkeypatch):
    seen = []

    def watch(name, f):
        def watched(*args, **kwargs):
            out = f(*args, **kwargs)
            arrays = [a for a in (*args, *kwargs.values(), *(out if isinstance(out, tuple) else (out,)))
                      if isinstance(a, np.ndarray) and a.size > 1]
            seen.extend((name, a.dtype) for a in arrays)
            return out
        return watched
    for module in (weights, llama, gemma3, gpt2):
        monkeypatch.setattr(module, "linear", watch("linear", weights.linear))
    monkeypatch.setattr(blocks, "attention_of", watch("attention", blocks.attention_of))
    monkeypatch.setattr(blocks, "attend", watch("attend", blocks.attend))
    monkeypatch.setattr(weights.Norm, "__call__", watch("norm", weights.Norm.__call__))
    model = tiny(family)
    result = lm.run(model, lm.encode(model, "猫が魚を食べた。The cat ate the fish.").ids)
    assert {name for name, _ in seen} >= {"linear", "attention", "norm"}
    assert {dtype for _, dtype in seen} == {np.dtype(np.float32)}, seen
    stored = [a for f in ("streams", "q", "k", "v") for a in getattr(result, f)]
    assert {a.dtype for a in stored} == {np.dtype(np.float32)}


@pytest.mark.parametrize("scale", [2, 40])
@pytest.mark.parametrize("window", [None, 3, 300])
@pytest.mark.parametrize("n", [1, 7, 300, 700])
def test_blocked_grouped_attention_is_the_cores_attention(n, window, scale):
    """The model's attention (blocks of queries, K/V heads shared, only the keys a block may see)
    against the core's attention() on every head's own repeated k and v, in float64, outputs and
    weights; with large scores (scale 40) the rows whose shift overflows are worked out again with
    their largest score."""
    rng = np.random.default_rng(n)
    q = rng.standard_normal((6, n, 8), dtype=np.float32) * scale
    k = rng.standard_normal((2, n, 8), dtype=np.float32) * 2
    v = rng.standard_normal((2, n, 8), dtype=np.float32)
    weights = np.zeros((6, n, n), dtype=np.float32)
    got = blocks.attend(q, k, v, window, weights)
    mask = None
    if window is not None:
        i, j = np.arange(n)[:, None], np.arange(n)[None, :]
        mask = np.where((j > i) | (j <= i - window), -np.inf, 0.0)
    expected = attention(q, np.repeat(k, 3, axis=0), np.repeat(v, 3, axis=0), mask=mask)
    assert got.dtype == np.float32 and np.isfinite(got).all()
    np.testing.assert_allclose(got, expected.output, atol=2e-5 * scale)
    np.testing.assert_allclose(weights, expected.weights, atol=2e-5 * scale)


def test_huge_edited_q_and_k_give_weights_not_nan():
    """A query's score with itself, rounded in float32, can miss by more than the shift's room when
    q and k run to thousands (an edit may give them up to a million): those rows take their largest
    score, and the output stays the softmax's."""
    rng = np.random.default_rng(0)
    n, d = 300, 64
    u = rng.standard_normal((1, n, d))
    k = (2e4 * u).astype(np.float32)  # each query meets its own key: the largest score, by far
    q = np.repeat(k, 3, axis=0)
    v = rng.standard_normal((1, n, d)).astype(np.float32)
    got = blocks.attend(q, k, v)
    mask = np.triu(np.full((n, n), -np.inf), 1)
    expected = attention(q.astype(float), np.repeat(k, 3, axis=0).astype(float), np.repeat(v, 3, axis=0).astype(float),
                         mask=mask).output
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, expected, atol=0.05)  # float32 scores of 10⁹ keep about two digits


def test_keys_after_a_query_scoring_past_float32s_range_change_nothing():
    """Each key scores higher than the one before it, by 2 in base 2: the keys a query may see
    score at most its own, while those after it in its block reach 2^254 and overflow before the
    mask zeroes them; those rows are worked out again and come out as the core's."""
    n, d = 300, 8
    position = np.arange(n, dtype=np.float32)
    k = np.zeros((1, n, d), dtype=np.float32)
    k[0, :, 0] = position * np.float32(2 / np.log2(np.e) * np.sqrt(d) / 40)
    q = np.zeros((1, n, d), dtype=np.float32)
    q[0, :, 0] = 40
    v = np.random.default_rng(0).standard_normal((1, n, d)).astype(np.float32)
    got = blocks.attend(q, k, v)
    expected = attention(q.astype(float), k.astype(float), v.astype(float), mask=np.triu(np.full((n, n), -np.inf), 1))
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, expected.output, atol=1e-4)


def test_the_hidden_half_of_the_causal_square_is_never_computed(monkeypatch):
    cells = []
    real = blocks._attend_block

    def counted(q1, k1, v1, start, end, window, *rest):
        low = 0 if window is None else max(0, start - window + 1)
        cells.append(len(q1) * (end - start) * (end - low))
        return real(q1, k1, v1, start, end, window, *rest)
    monkeypatch.setattr(blocks, "_attend_block", counted)
    n = 4096
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((1, n, 4), dtype=np.float32), rng.standard_normal((1, n, 4), dtype=np.float32)
    blocks.attend(q, k, k)
    assert sum(cells) <= n * (n + 1) / 2 + n * blocks.QUERY_BLOCK / 2  # the lower half, and half of each diagonal block
    cells.clear()
    blocks.attend(q, k, k, window=512)
    assert sum(cells) <= n * (512 + blocks.QUERY_BLOCK)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_last_layer_works_out_the_last_tokens_row_alone_and_the_rest_when_asked(family, monkeypatch):
    """The prediction needs the last layer's output at the last token only: its attention is that
    query's alone; the whole stream after it (the lens, a continuation) is the same layer worked
    out again when asked, and agrees with the row the pass kept."""
    model = tiny(family)
    ids = lm.encode(model, "The cat ate the fish. 猫が魚を食べた。").ids
    queries = []
    real = blocks._attend_block

    def counted(q1, k1, v1, start, end, *rest):
        queries.append(end - start)
        return real(q1, k1, v1, start, end, *rest)
    monkeypatch.setattr(blocks, "_attend_block", counted)
    result = lm.run(model, ids)
    c = model.config
    per_layer = len(ids) * c.n_kv_heads  # every query, one K/V group at a time
    assert sum(queries) == (c.n_layers - 1) * per_layer + c.n_kv_heads  # the last layer: one query a group
    final = lm.final_stream(model, result)
    assert final.shape == (len(ids), c.d) and lm.final_stream(model, result) is final  # worked out once
    np.testing.assert_allclose(final[-1], result.last, rtol=0, atol=1e-5 * np.abs(final).max())


@needs_smollm2
def test_a_run_keeps_per_layer_the_stream_q_and_one_k_and_v_per_kv_head(smollm2):
    n = 1000
    ids = np.random.default_rng(1).integers(0, 49152, n)
    result = lm.run(smollm2, ids)
    c = smollm2.config
    kept = sum(a.nbytes for f in ("streams", "q", "k", "v") for a in getattr(result, f))
    per_layer = (n * c.d + (c.n_heads + 2 * c.n_kv_heads) * n * c.d_head) * 4
    assert kept == c.n_layers * per_layer  # 184 MB at 1,000 tokens, where float64 and a k, v per head took 483
    assert result.k[0].shape == (c.n_kv_heads, n, c.d_head) and result.q[0].shape == (c.n_heads, n, c.d_head)


@needs_smollm2
def test_a_1000_token_pass_works_within_its_kept_arrays_and_a_few_layers_of_scratch(smollm2):
    n = 1000
    ids = np.random.default_rng(2).integers(0, 49152, n)
    lm.run(smollm2, ids[:10])
    tracemalloc.start()
    try:
        result = lm.run(smollm2, ids)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    kept = sum(a.nbytes for f in ("streams", "q", "k", "v") for a in getattr(result, f))
    scratch = 64 * 2**20  # one layer's feed-forward [n, 1536] ×3 and two blocks of scores [9, 256, n]
    assert peak <= kept + scratch, (peak / 2**20, kept / 2**20)


@needs_smollm2
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator is the one told to keep memory")
def test_a_second_pass_reuses_the_memory_the_first_freed(smollm2):
    """Pages given back to the system cost a fault each when taken again (16 µs on a virtual
    machine): the second of two 1,000-token passes takes almost none (41,000 without keep_freed)."""
    import resource
    ids = np.random.default_rng(4).integers(0, 49152, 1000)
    lm.run(smollm2, ids)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    lm.run(smollm2, ids)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert allocator.keep_freed(0) >= pass_bytes(smollm2.config, 1000)
    assert faults < 0.02 * pass_bytes(smollm2.config, 1000) / 4096, faults


def long_golden():
    path = GOLDEN / "smollm2" / "long.npz"
    if not path.is_file():
        return None
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


@needs_smollm2
@pytest.mark.parametrize("n", [1000, 4096])
def test_long_inputs_match_transformers(smollm2, n):
    golden = long_golden()
    assert golden is not None, "tools/long_reference.py writes tests/golden/smollm2/long.npz"
    ids = golden[f"n{n}_ids"]
    result = lm.run(smollm2, ids)
    np.testing.assert_allclose(result.probs[golden[f"n{n}_top_ids"]], golden[f"n{n}_top_probs"], atol=1e-4)
    rows = golden[f"n{n}_rows"]
    encoded = lm.Encoded("random ids", tuple(int(i) for i in ids), tuple(f"t{i}" for i in range(n)))
    for layer in (0, 15, 29):  # as the heatmaps show them: the core's attention on the run's q, k, v
        shown = compute(lm.scenario(smollm2, encoded, result, layer))
        np.testing.assert_allclose(np.stack([w[rows] for w in shown.weights()]), golden[f"n{n}_attn_l{layer}"],
                                   atol=1e-4)


@needs_smollm2
def test_the_layer_shown_first_takes_its_weights_from_the_pass_as_compute_would_give_them(smollm2):
    n = 800
    ids = tuple(int(i) for i in np.random.default_rng(3).integers(0, 49152, n))
    encoded = lm.Encoded("random ids", ids, tuple(f"t{i}" for i in range(n)))
    first = []
    lm.run(smollm2, ids, shown=lambda layer, q, k, v, kept: first.append(lm.first_layer(smollm2, encoded, layer,
                                                                                        q, k, v, kept)))
    (s, known), = first
    fresh = compute(s)
    assert known is not None and compute(s, (s, known)).heads[4] is known.heads[4]  # nothing worked out again
    for a, b in zip(known.heads, fresh.heads):
        np.testing.assert_allclose(a.weights, b.weights, atol=1e-6)
        np.testing.assert_allclose(a.output, b.output, atol=1e-5)
        np.testing.assert_array_equal(a.masked[n - 1], b.masked[n - 1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator is the one told to keep memory")
def test_with_one_heap_a_threads_large_block_freed_is_reused_not_taken_from_the_system_again():
    """The window's pass runs on a thread of its own and keeps a layer's weights (0.6 GB at 4,096
    tokens): glibc gives such a block to the system when it is freed, and the kernel zeroes every
    page of the next one. With one_heap, as `attnviz` starts, the second block is the first one's."""
    import subprocess
    script = """
import resource, threading, numpy as np
from attnviz.core.lm import allocator
print(allocator.one_heap())
allocator.keep_freed(2**30)
faults = []
def block():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    a = np.empty(200 * 2**20, dtype=np.uint8); a[::4096] = 1
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
for _ in range(2):
    t = threading.Thread(target=block); t.start(); t.join()
print(*faults)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "True"
    first, second = int(out[1]), int(out[2])
    assert first > 50 and second < first / 20, (first, second)  # 2 MB pages where the kernel gives them


SAME_ON_EVERY_THREAD = """
import threading
import numpy as np
from attnviz.core import lm
from attnviz.core.blas import use_one_thread
use_one_thread()                                   # as `attnviz` starts, on the main thread
model = lm.load()
ids = lm.encode(model, "The cat ate the fish. It was fresh.").ids
on_worker = []
worker = threading.Thread(target=lambda: on_worker.append(lm.run(model, ids)))  # the window's first pass
worker.start()
worker.join()
on_main = lm.run(model, ids)                       # `attnviz model`
print(np.array_equal(on_main.probs, on_worker[0].probs),
      all(np.array_equal(a, b) for a, b in zip(on_main.streams, on_worker[0].streams)))
"""


@needs_smollm2
def test_a_pass_on_the_windows_worker_thread_is_the_command_lines_bit_for_bit():
    """The window and `attnviz model` run the same pass with the same BLAS threads, whichever thread
    runs it. OPENBLAS_CORETYPE=Haswell: the kernels of AMD EPYC machines without AVX-512, whose
    sums come out differently when two BLAS threads share a product instead of one (on this
    machine's own kernels they do not, and the test would pass with the threads wrong)."""
    import subprocess
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                                            "MKL_NUM_THREADS")}
    env["OPENBLAS_CORETYPE"] = "Haswell"
    result = subprocess.run([sys.executable, "-c", SAME_ON_EVERY_THREAD], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]
