"""Writes resources/colormaps.json: the 256-colour tables of the maps AttnViz offers.

They come from pyqtgraph's colour maps; storing the tables spares every start of the
app the import of pyqtgraph (a quarter of a second). tests/gui/look/test_colormaps.py
checks that they still equal pyqtgraph's.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def tables() -> dict:
    import pyqtgraph as pg

    from attnviz.gui.look.colormaps import MAPS
    out = {}
    for name, m in MAPS.items():
        lut = pg.colormap.get(m.source).getLookupTable(m.low, m.high, 256)[:, :3]
        out[name] = "".join(f"{int(r):02x}{int(g):02x}{int(b):02x}" for r, g, b in lut)
    return out


if __name__ == "__main__":
    path = ROOT / "resources" / "colormaps.json"
    path.write_text(json.dumps(tables(), indent=1) + "\n", encoding="utf-8")
    print(path)
