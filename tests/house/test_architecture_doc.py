"""docs/ARCHITECTURE.md lists every module of attnviz/ in its tree, one per line, and no module
that is not there: a newcomer finds where a thing lives from the tree and that page alone."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"


def listed(text: str) -> set[str]:
    """The paths the first code block's tree names: a folder line ends its name with '/', a file
    line starts with its name; indentation says which folder a line is in."""
    tree = text.split("```", 2)[1]
    folders: list[tuple[int, str]] = []
    paths = set()
    for line in tree.splitlines():
        match = re.match(r"( *)(\S+)", line)
        if not match:
            continue
        indent, name = len(match.group(1)), match.group(2)
        while folders and folders[-1][0] >= indent:
            folders.pop()
        path = "/".join([f for _, f in folders] + [name.rstrip("/")])
        if name.endswith("/"):
            folders.append((indent, name.rstrip("/")))
        paths.add(path)
    return paths


def modules() -> set[str]:
    return {str(p.relative_to(ROOT)) for p in (ROOT / "attnviz").rglob("*.py") if p.name != "__init__.py"}


def test_the_reader_follows_the_trees_folders():
    assert listed("```\na/\n  b/\n    c.py  what c does\n  d.py\ne.py\n```") == {"a", "a/b", "a/b/c.py", "a/d.py",
                                                                              "e.py"}


def test_every_module_is_in_the_architecture_tree():
    assert modules() - listed(DOC.read_text(encoding="utf-8")) == set()


def test_the_tree_names_no_module_that_is_gone():
    shown = {p for p in listed(DOC.read_text(encoding="utf-8")) if p.startswith("attnviz/") and p.endswith(".py")}
    assert shown - modules() == set()
