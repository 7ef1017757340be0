"""Issue 48: the command line's long steps (a 1B model's load and pass) show a progress line on a terminal's
stderr, written over in place and wiped before the output; a script reading stderr sees none of it."""
import io
from pathlib import Path

from attnviz.cli import main, model
from attnviz.cli.progress import Line

LLAMA = Path(__file__).resolve().parents[1] / "golden" / "families" / "llama" / "llama-f32.gguf"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_each_layer_is_told_in_place_and_the_line_is_wiped_at_the_end(monkeypatch, capsys):
    terminal = Terminal()
    monkeypatch.setattr(model, "Line", lambda: Line(terminal))
    assert main(["model", "ab a", "--model", str(LLAMA), "--memory", "fast"]) == 0
    written = terminal.getvalue()
    assert "\rloading the model, layer: 1 of 2\033[K\rloading the model, layer: 2 of 2\033[K" in written
    assert "\rrunning the model, layer: 2 of 2\033[K" in written and written.endswith("\r\033[K")
    assert capsys.readouterr().err == ""


def test_a_stderr_that_is_no_terminal_gets_no_progress(capsys):
    assert main(["model", "ab a", "--model", str(LLAMA)]) == 0
    assert capsys.readouterr().err == ""
    line = Line(io.StringIO())
    line("x")(1, 2)
    line.clear()
    assert line.stream.getvalue() == ""
