"""Every code block of the README and of docs/ runs as written: `sh` blocks command by command in one
folder (so a file one line writes is there for the next), `python` blocks in a fresh interpreter
(`>>>` blocks are doctests: tests/core/research/test_api_docs.py), `json` blocks read. A command that opens
the window is parsed by the window's own parser, and the files it names looked for; set-up steps
(apt, pip, venv) are named as such; `make` targets exist in the Makefile. `text` blocks are output or
synopses (the command line's is checked against the parsers by tests/cli/test_cli.py)."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from attnviz.cli import build_parsers

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "bench").glob("*.md"))]
KINDS = ("sh", "python", "json", "text")
SET_UP = ("sudo", "pip", "source", ".", ".venv\\Scripts\\activate")  # the machine's, not AttnViz's: not run here
# a command that opens the window unless one of these says what it writes instead
WINDOW_UNLESS = {"lesson": ("--check", "--screenshot", "--save", "--handout")}
COMMANDS, WINDOW, NAMES = build_parsers()


def blocks(path: Path) -> list[tuple[str, str, int]]:
    """(kind, text, line) of each fenced block."""
    found, lines, at = [], path.read_text(encoding="utf-8").split("\n"), None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            if at is None:
                at, kind = number, line[3:].strip()
            else:
                found.append((kind, "\n".join(lines[at:number - 1]), at))
                at = None
    return found


ALL = [(path, *b) for path in DOCS for b in blocks(path)]


def named(kind: str) -> list:
    """The blocks of `kind`; a python block of `>>>` lines is a doctest (tests/core/research/test_api_docs.py)."""
    return [pytest.param(path, text, id=f"{path.relative_to(ROOT)}:{line}") for path, k, text, line in ALL
            if k == kind and not text.lstrip().startswith(">>>")]


def test_every_block_says_what_it_is():
    unnamed = [f"{path.relative_to(ROOT)}:{line}" for path, kind, _, line in ALL if kind not in KINDS]
    assert not unnamed, f"blocks without one of {KINDS}: {unnamed}"
    assert {kind for _, kind, _, _ in ALL} == set(KINDS)


def commands(text: str) -> list[list[str]]:
    """Each command of a shell block, comments dropped, continued lines joined, `a && b` split."""
    out = []
    for line in text.replace("\\\n", " ").split("\n"):
        words = shlex.split(line, comments=True, posix=True) if "\\S" not in line else line.split("#")[0].split()
        while words:
            part = words.index("&&") if "&&" in words else len(words)
            out.append(words[:part])
            words = words[part + 1:]
    return out


def opens_window(args: list[str]) -> bool:
    if not args or args[0] not in NAMES:
        return True
    return args[0] in WINDOW_UNLESS and not set(WINDOW_UNLESS[args[0]]) & set(args)


def attnviz(args: list[str], folder: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "attnviz", *args], cwd=folder, env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=600)


def check_window_line(args: list[str], folder: Path, promised: set) -> None:
    parsed = (COMMANDS if args and args[0] in NAMES else WINDOW).parse_args(args)
    for value in vars(parsed).values():
        if isinstance(value, str) and re.search(r"\.(npz|npy|json)$", value):
            assert (folder / value).exists() or value in promised, \
                f"the window is opened on {value}, which no line before wrote"


MAKE_TARGETS = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))


@pytest.mark.real_model("smollm2")
@pytest.mark.parametrize("path, text", named("sh"))
def test_a_shell_block_runs_line_by_line(path, text, tmp_path):
    promised = set()  # what a line not run here (a script needing transformers) says it writes
    for words in commands(text):
        if words[0] == "attnviz":
            args = words[1:]
            if opens_window(args):
                check_window_line(args, tmp_path, promised)
            else:
                done = attnviz(args, tmp_path)
                assert done.returncode == 0 and not done.stderr, (words, done.stderr)
        elif words[0] == "make":
            target = next((w for w in words[1:] if "=" not in w), "run")
            assert target in MAKE_TARGETS, words
        elif words[0] == "python" and words[1:2] != ["-m"]:
            assert (ROOT / words[1]).is_file(), words
            assert subprocess.run([sys.executable, ROOT / words[1], "--help"], capture_output=True).returncode == 0
            promised.update(words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--out", "-o"))
        else:
            assert words[0] in SET_UP or words[:3] == ["python", "-m", "venv"], f"unknown step {words}"


PRELUDE = """\
import attnviz.api as _api
_show = _api.show
def _shown(run, *a, **k):  # the window opened for real, without waiting for it to close
    window = _show(run, *a, block=False, **k)
    assert window.isVisible()
    print("window shown")
_api.show = _shown
"""


@pytest.mark.real_model("smollm2")
@pytest.mark.parametrize("path, text", named("python"))
def test_a_python_block_runs(path, text, tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", PRELUDE + text], cwd=tmp_path, env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr, done.stderr
    if "api.show(" in text:
        assert "window shown" in done.stdout


@pytest.mark.parametrize("path, text", named("json"))
def test_a_json_block_is_json(path, text):
    assert isinstance(json.loads(text), dict)
