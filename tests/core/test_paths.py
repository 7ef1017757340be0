"""Resources are found from the checkout (the wheel and the bundle: tests/packaging)."""
from pathlib import Path

from attnviz.core.paths import resource, resource_root

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_reads_the_resources_at_the_top_of_the_repository():
    assert resource_root() == ROOT / "resources"  # the design card's layout
    assert not (ROOT / "attnviz" / "resources").exists()
    for part in ("presets/seed-demo.json", "translations/attnviz_ja.qm", "help/guide_ja.html", "colormaps.json",
                 "icons/attnviz.svg"):
        assert resource(*part.split("/")).is_file(), part
