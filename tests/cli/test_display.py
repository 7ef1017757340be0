"""Before Qt starts: a missing display or missing X11 libraries get one line with the fix."""
import ctypes.util

from attnviz.cli import main
from attnviz.display import display_problem


def test_no_display_is_reported_with_what_to_do(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert "no display" in display_problem()


def test_missing_x11_libraries_are_named_with_the_install_command(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None if name == "xcb-cursor" else name)
    assert display_problem().endswith("sudo apt install libxcb-cursor0")


def test_offscreen_rendering_needs_no_display(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.delenv("DISPLAY", raising=False)
    assert display_problem() is None


def test_the_window_command_exits_2_with_the_problem_instead_of_crashing(monkeypatch, capsys):
    monkeypatch.setattr("attnviz.cli.window.display_problem", lambda: "no display to open a window on")
    assert main(["toy-3token"]) == 2
    assert capsys.readouterr().err == "attnviz: error: no display to open a window on\n"
