"""The house's import arrows: no circle anywhere in attnviz/, between modules or between the window's
feature rooms (gui/*/), counting imports made inside functions too (they are circles all the same,
only broken at run time)."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "attnviz"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported(name: str, path: Path) -> set[str]:
    """The attnviz modules `name` imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names}
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen, todo = set(), list(graph.get(start, ()))
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo.extend(graph.get(v, ()))
    return seen


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of more than one module that each reach all the others (a few hundred modules:
    reachability from each is quick enough)."""
    reach = {v: reachable(graph, v) for v in graph}
    groups = {frozenset({v} | {w for w in reach[v] if v in reach.get(w, ())}) for v in graph}
    return sorted(sorted(g) for g in groups if len(g) > 1)


def room(module: str) -> str | None:
    """A module's feature room in the window: attnviz.gui.heads.view -> heads."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "gui" else None


def test_the_search_finds_a_circle_when_there_is_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_is_read_from_the_code():
    assert "attnviz.core.attention" in GRAPH["attnviz.core.compute"]
    assert "attnviz.gui.window.main_window" in GRAPH["attnviz.gui.window.start"]


def test_no_module_imports_itself_through_others():
    assert circles(GRAPH) == []


def test_no_feature_room_of_the_window_imports_another_in_a_circle():
    rooms = {}
    for module, targets in GRAPH.items():
        if room(module):
            rooms.setdefault(room(module), set()).update(
                room(t) for t in targets if room(t) and room(t) != room(module))
    assert circles(rooms) == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("attnviz.core")))
def test_the_core_never_imports_the_window(module):
    assert not {t for t in GRAPH[module] if t.startswith("attnviz.gui")}
