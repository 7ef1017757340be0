"""Every message the core can show is a template the window translates, never a finished
English f-string: a Japanese teacher reads why a file was refused in Japanese."""
import ast
import importlib
import inspect
from pathlib import Path

import pytest

from attnviz.core.files import problem
from attnviz.core.messages import QT_TR_NOOP, AttnVizError, Phrase

CORE = Path(__file__).resolve().parents[2] / "attnviz" / "core"
MODULES = sorted(p.relative_to(CORE).as_posix() for p in CORE.rglob("*.py"))  # formats/ too
# The errors a user may read (a plain ValueError from the attention core means a caller's bug).
SHOWN = {name for m in MODULES for name, value in
         inspect.getmembers(importlib.import_module("attnviz.core." + m.removesuffix(".py").replace("/", ".")),
                            inspect.isclass)
         if issubclass(value, AttnVizError)}


def message_arguments(tree):
    """The message argument of every error, problem() and Phrase built in a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in SHOWN or name == "Phrase":
                yield node, node.args[:1]
            elif name == "problem":
                yield node, node.args[1:2]


@pytest.mark.parametrize("module", MODULES)
def test_no_core_message_is_an_f_string(module):
    assert {"ScenarioError", "FileProblem", "ModelError", "NumberError"} <= SHOWN
    tree = ast.parse((CORE / module).read_text(encoding="utf-8"))
    finished = [node.lineno for node, args in message_arguments(tree)
                if any(isinstance(a, ast.JoinedStr) for a in args)]
    assert finished == [], f"{module}: lines {finished} build a message with an f-string; use QT_TR_NOOP and values"


def test_a_file_problem_reads_in_english_and_carries_its_parts_for_translation():
    where = Phrase(QT_TR_NOOP("head {0} ({1})"), 2, "previous token")
    error = problem("/tmp/x.json", QT_TR_NOOP("{0}: rows have different lengths ({1})"), where, [2, 3])
    assert str(error) == "/tmp/x.json: head 2 (previous token): rows have different lengths ([2, 3])"
    assert error.values[1].template == "{0}: rows have different lengths ({1})"
