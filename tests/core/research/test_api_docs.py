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
