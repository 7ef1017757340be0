"""The wheel (and so the wheelhouse and the bundle) carries every package of attnviz/: pyproject.toml
names them one by one, and a package left out would be missing only where AttnViz is installed."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_attnviz_is_in_the_wheel():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # (tomllib is Python 3.11's; 3.10 is supported)
    named = set(re.findall(r'"([\w.]+)"', re.search(r"^packages = \[(.*?)\]", text, re.S | re.M).group(1)))
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "attnviz").rglob("__init__.py")}
    assert found - named == set()
