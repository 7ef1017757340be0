"""A model loads without a second copy of its weights: the most memory numpy ever held while
loading (tracemalloc) is within 10% of what the loaded model keeps, its big vocabulary matrix
dequantised once (a tied output is the embedding itself)."""
from __future__ import annotations

import tracemalloc

import pytest

from attnviz.core import lm


def loaded(source):
    tracemalloc.start()
    try:
        model = lm.load(source)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return model, peak


@pytest.mark.parametrize("source", [
    pytest.param(None, marks=pytest.mark.real_model("smollm2")),
    pytest.param(lm.GEMMA_ID, marks=pytest.mark.real_model("gemma3")),
], ids=["smollm2", "gemma3"])
def test_loading_holds_no_second_copy_of_the_weights(source):
    model, peak = loaded(source)
    assert model.output is model.embedding  # both models tie them: one matrix of vocabulary × d
    assert peak <= 1.10 * model.weight_bytes(), (peak, model.weight_bytes())
