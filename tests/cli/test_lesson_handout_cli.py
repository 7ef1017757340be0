"""`attnviz lesson ID|FILE --handout -o OUT.pdf [--lang ja|en]`: the handout written; bad input is one line on
stderr, exit 2, and nothing written."""
import os
import re
import subprocess
import sys

import pytest

from attnviz.cli import main
from attnviz.core.lessons import builtin_lesson


def test_the_handout_is_written_with_a_page_per_scene_and_the_answers(tmp_path):
    out = tmp_path / "h.pdf"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-m", "attnviz", "lesson", "why-it-works", "--handout", "-o", str(out),
                             "--lang", "en"], capture_output=True, text=True, env=env)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    pages = len(re.findall(rb"/Type\s*/Page\b", out.read_bytes()))
    assert pages == len(builtin_lesson("why-it-works").scenes) + 1


@pytest.mark.parametrize("argv, message", [
    (["--handout", "-o", "{tmp}/h.png"], "a handout is a PDF file"),
    (["--handout", "-o", "{tmp}/missing/h.pdf"], "does not exist"),
    (["--handout", "-o", "{tmp}/folder.pdf"], "a handout is a PDF file"),
    (["--handout"], "--handout needs -o OUT.pdf"),
    (["-o", "{tmp}/h.pdf"], "give --handout too"),
    (["--handout", "-o", "{tmp}/h.pdf", "--scene", "2"], "leave out --scene"),
    (["--handout", "--check", "-o", "{tmp}/h.pdf"], "not allowed with"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(capsys, tmp_path, argv, message):
    (tmp_path / "folder.pdf").mkdir()
    before = sorted(os.listdir(tmp_path))
    code = main(["lesson", "attention", *[a.format(tmp=tmp_path) for a in argv]])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert sorted(os.listdir(tmp_path)) == before

