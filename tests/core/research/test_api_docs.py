"""The Python API's examples, in docs/API.md and attnviz/api.py's docstring, run as written."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from attnviz import api
from attnviz.core import lm

pytestmark = pytest.mark.real_model("smollm2")
DOCS = Path(__file__).resolve().parents[3] / "docs" / "API.md"


def test_the_api_documents_examples_run_as_written():
    result = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 30 and result.failed == 0


def test_the_api_modules_own_examples_run_as_written():
    result = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


def test_bad_arguments_to_the_api_are_refused_with_what_to_give():
    m = api.load()
    with pytest.raises(lm.ModelError, match="layers 0 to 29 and heads 0 to 8"):
        m.run("The cat", off=[(30, 0)])
    with pytest.raises(lm.ModelError, match="shape \\(2, 64\\)"):
        m.run("The cat", edits={(0, 0): {"q": [[1.0]]}})
    with pytest.raises(lm.ModelError, match="a text or token ids"):
        m.run()
    with pytest.raises(lm.ModelError, match="layer 30: the model has layers 0 to 29"):
        m.run("The cat").weights(30)


def test_the_api_refuses_what_the_command_line_refuses_in_its_words_and_takes_numpys_ids():
    """Issue 45: length 0 gave NaN scores and five warnings; numpy ids were called out of range; a list of
    texts was called empty."""
    import subprocess
    import sys

    import numpy as np
    m = api.load()
    said = subprocess.run([sys.executable, "-m", "attnviz", "heads", "--length", "0"], capture_output=True, text=True,
                          timeout=120).stderr
    for length in (0, -3, 501, 2.5, True):
        with pytest.raises(lm.ModelError, match=f"length: '{length}' is not a number from 2 to 500"):
            api.head_types(m, length=length)
    assert "'0' is not a number from 2 to 500" in said
    ids = m.run("The cat ate").ids
    assert m.run(ids=np.array(ids)).tokens == m.run(ids=[np.int64(i) for i in ids]).tokens == m.run(ids=ids).tokens
    for bad in ([1.0], [True], ["5"]):
        with pytest.raises(lm.ModelError, match="token id"):
            m.run(ids=bad)
    with pytest.raises(lm.ModelError, match="a list of texts is not run as a batch"):
        m.run(["The cat", "The dog"])
