"""One layer at a time, measured: the memory a model's file takes to open at a layer, and to go
through every layer, is a layer's or a few, never the file's (tracemalloc sees NumPy's buffers)."""
import tracemalloc

import numpy as np
import pytest

from attnviz.core.io import load_scenario
from attnviz.core.presets import list_presets
from attnviz.core.summary import head_stats, layer_weights, named_layers

LAYERS, HEADS, N = 24, 4, 256
LAYER_BYTES = HEADS * N * N * 4  # float32: 1 MiB; the file's weights are LAYERS of them


@pytest.fixture(scope="module", params=["stored", "compressed"])
def model_file(request, tmp_path_factory):
    rng = np.random.default_rng(0)
    w = rng.random((LAYERS, HEADS, N, N), dtype=np.float32) * np.tril(np.ones((N, N), np.float32))
    w /= w.sum(-1, keepdims=True)
    path = tmp_path_factory.mktemp("layers") / f"{request.param}.npz"
    save = np.savez if request.param == "stored" else np.savez_compressed
    save(path, tokens=np.array([f"t{i}" for i in range(N)]), weights=w)
    return path, w


def peak_bytes(work) -> int:
    """The most memory `work()` held at once, over what was held before it (the presets' list, read
    once on the first name looked up and kept, is read before)."""
    list_presets()
    tracing = tracemalloc.is_tracing()  # already, for the whole run (python -X tracemalloc): left on
    if not tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        before = tracemalloc.get_traced_memory()[0]
        work()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        if not tracing:
            tracemalloc.stop()


def test_opening_a_late_layer_takes_about_one_layers_memory(model_file):
    """The layer's bytes and its checks (finite, rows summing to one), not the 23 before it."""
    path, w = model_file
    opened = []
    peak = peak_bytes(lambda: opened.append(load_scenario(path, LAYERS - 2)))
    np.testing.assert_array_equal(opened[0].given, w[LAYERS - 2])
    assert peak < 2 * LAYER_BYTES, peak / LAYER_BYTES


def test_going_through_every_layer_holds_a_few_layers_never_the_file(model_file):
    """What `attnviz stats` does: it holds the first layer (named_layers keeps its scenario), the
    layer the caller still has, the one being read and its checks' temporaries: not the file."""
    path, w = model_file
    seen = []

    def every_layer():
        first, count, scenario_of = named_layers(str(path))
        for weights in layer_weights(count, scenario_of):
            seen.append(head_stats(weights))
    peak = peak_bytes(every_layer)
    assert len(seen) == LAYERS
    np.testing.assert_allclose(seen[-1], head_stats(w[-1]))
    assert peak < 4 * LAYER_BYTES, peak / LAYER_BYTES  # a sixth of the file's weights
