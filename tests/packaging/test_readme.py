"""The README followed step by step by a new user: what a minimal Linux needs comes before the
first command that needs it, and the menu-entry steps name commands that exist."""
import re
from pathlib import Path

from attnviz.cli import build_parsers
from attnviz.display import XCB_LIBRARIES

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    return README[start:README.index("\n## ", start + 1)]


def test_the_x11_libraries_come_before_the_two_commands():
    two_commands = section("Two commands")
    apt = re.search(r"^sudo apt install (.+?)\s+#", two_commands, re.M)
    assert apt, "no apt line in 'Two commands'"
    assert apt.start() < two_commands.index("make run ")
    assert set(apt.group(1).split()) == set(XCB_LIBRARIES.values())  # what AttnViz itself asks for


def test_the_standalone_folder_installs_its_menu_entry_with_its_own_program():
    school = section("On a school PC without internet")
    assert "`AttnViz/AttnViz --install-desktop`" in school and "`--uninstall-desktop`" in school
    menu = school.split("**In the desktop")[1].split("\n\n")[0]
    assert "tools/install_desktop.py" not in README and "python" not in menu  # no Python on that PC
    _, window, _ = build_parsers()
    assert window.parse_args(["--install-desktop"]).install_desktop
    assert window.parse_args(["--uninstall-desktop"]).uninstall_desktop
