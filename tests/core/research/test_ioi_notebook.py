"""docs/examples/ioi.ipynb, the researcher's IOI notebook, runs as written (on fewer pairs): a dataset
of pairs patched with a metric of its own, a steering vector that turns the next token, a DataFrame.
Its cells are run in order in one namespace, as a kernel would; what Jupyter would show inline is
each result's picture (tests/core/research/test_tables.py checks those)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.real_model("smollm2")
NOTEBOOK = Path(__file__).resolve().parents[3] / "docs" / "examples" / "ioi.ipynb"


def cells(kind: str) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == kind]


def test_the_notebook_is_stored_without_outputs():
    stored = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert stored["nbformat"] == 4
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in stored["cells"]
               if c["cell_type"] == "code")


def test_the_ioi_notebook_runs_on_attnviz_alone():
    pytest.importorskip("pandas")
    code = cells("code")
    assert "N = 50" in code[0]
    namespace: dict = {}
    for i, source in enumerate(code):
        exec(compile(source.replace("N = 50", "N = 2"), f"{NOTEBOOK.name} cell {i}", "exec"), namespace)
    p, pairs, m = namespace["p"], namespace["pairs"], namespace["m"]
    assert len(pairs) == p.pairs == 2 and p.metric == "own" and p.restored.shape == (30, 9)
    differences = []
    for _, corrupted, answer, against in pairs:
        logits = m.run(corrupted).logits
        differences.append(logits[m.token(answer)] - logits[m.token(against)])
    assert np.median(p.restored) == pytest.approx(np.mean(differences), abs=0.05)  # most heads change nothing
    assert p.restored.max() > np.mean(differences) + 2  # and the name movers bring the answer back
    assert namespace["steered"].next_tokens(1)[0][0] == " Love"
    frame = namespace["frame"]
    assert list(frame.columns) == ["layer", "head", "restored"] and len(frame) == 270
    assert float(frame["restored"].max()) == pytest.approx(float(p.restored.max()))
