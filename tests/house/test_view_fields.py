"""Every view-state field the code names as text (`view.set("colormap", ...)`, `view.subscribe(("colormap",
"scale"), ...)`) is one ViewState declares: a misspelt name fails here, before any window runs it."""
import ast
from pathlib import Path

from attnviz.gui.state.view import FIELDS

PACKAGE = Path(__file__).resolve().parents[2] / "attnviz"
CALLS = {"set", "subscribe", "subscribers"}


def texts(node) -> list[str]:
    """The texts an argument can be: a literal, a tuple of them, either branch of `a if c else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple):
        return [t for e in node.elts for t in texts(e)]
    if isinstance(node, ast.IfExp):
        return texts(node.body) + texts(node.orelse)
    return []


def named_fields() -> list[tuple[str, int, str]]:
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CALLS \
                    and ast.unparse(node.func.value).split(".")[-1] == "view" and node.args:
                found += [(path.name, node.lineno, name) for name in texts(node.args[0])]
    return found


def test_every_field_named_in_the_code_is_declared():
    found = named_fields()
    assert len(found) >= 15 and {name for _, _, name in found} >= {"colormap", "scale", "presenting", "language"}
    assert [f for f in found if f[2] not in FIELDS] == []
