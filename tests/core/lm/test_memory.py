"""A model loads without a second copy of its weights: the most memory numpy ever held while
loading (tracemalloc) is within 10% of what the loaded model keeps, its big vocabulary matrix
dequantised once (a tied output is the embedding itself)."""
from __future__ import annotations

import tracemalloc

import pytest

from attnviz.core import lm
from attnviz.core.lm import catalog


def loaded(source):
    tracemalloc.start()
    try:
        model = lm.load(source)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return model, peak


@pytest.mark.parametrize("source", [
    pytest.param(None, marks=pytest.mark.skipif(lm.bundled_model() is None,
                                                reason="the built-in model is not installed")),
    pytest.param(lm.GEMMA_ID, marks=pytest.mark.skipif(catalog.gemma_chunks() is None,
                                                       reason="the Gemma 3 package is not installed")),
], ids=["smollm2", "gemma3"])
def test_loading_holds_no_second_copy_of_the_weights(source):
    model, peak = loaded(source)
    assert model.output is model.embedding  # both models tie them: one matrix of vocabulary × d
    assert peak <= 1.10 * model.weight_bytes(), (peak, model.weight_bytes())
