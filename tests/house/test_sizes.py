"""The main window stays an assembly: its features live in their rooms, not in it."""
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "attnviz" / "gui"


def test_the_main_window_is_at_most_250_lines():
    lines = (GUI / "window" / "main_window.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250


def test_no_feature_fetches_a_dialog_or_view_from_the_window_by_name():
    """Dialogs and views are given what they need (the view state, the Shell), never found with getattr."""
    offenders = [str(p.relative_to(GUI)) for p in GUI.rglob("*.py")
                 if "getattr(self.window" in p.read_text(encoding="utf-8")
                 or "getattr(window" in p.read_text(encoding="utf-8")]
    assert offenders == []
