"""The README followed step by step by a new user: what a minimal Linux needs comes before the
first command that needs it, the menu-entry steps name commands that exist, it reads in five minutes and
every link from it and from the guides leads somewhere."""
import re
from pathlib import Path

from attnviz.cli import build_parsers
from attnviz.display import XCB_LIBRARIES

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TEACHER = (ROOT / "docs" / "teacher.md").read_text(encoding="utf-8")
PAGES = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]


def section(title: str, text: str = README) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def test_the_x11_libraries_come_before_the_two_commands():
    two_commands = section("Two commands")
    apt = re.search(r"^sudo apt install (.+?)\s+#", two_commands, re.M)
    assert apt, "no apt line in 'Two commands'"
    assert apt.start() < two_commands.index("make run ")
    assert set(apt.group(1).split()) == set(XCB_LIBRARIES.values())  # what AttnViz itself asks for


def test_the_standalone_folder_installs_its_menu_entry_with_its_own_program():
    school = section("On a school PC without internet", TEACHER)
    assert "`AttnViz/AttnViz --install-desktop`" in school and "`--uninstall-desktop`" in school
    menu = school.split("**In the desktop")[1].split("\n\n")[0]
    assert "tools/install_desktop.py" not in TEACHER and "python" not in menu  # no Python on that PC
    _, window, _ = build_parsers()
    assert window.parse_args(["--install-desktop"]).install_desktop
    assert window.parse_args(["--uninstall-desktop"]).uninstall_desktop


def test_the_readme_reads_in_five_minutes_and_sends_each_kind_of_user_to_a_guide():
    assert README.count("\n") <= 250
    for guide in ("teacher.md", "user.md", "researcher.md", "developer.md", "bench/RESULTS.md"):
        assert f"](docs/{guide})" in README, guide


def anchor(title: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def test_every_link_in_the_readme_and_the_guides_leads_to_a_file_and_heading_that_exist():
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            file, _, heading = target.partition("#")
            linked = (page.parent / file).resolve() if file else page
            assert linked.exists(), f"{page.name}: {target}"
            if heading:
                titles = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.M)
                assert heading in {anchor(t) for t in titles}, f"{page.name}: {target}"
