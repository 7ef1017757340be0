"""Writes resources/icons/: AttnViz's icon as SVG, PNG (16 to 256 px), .ico (Windows) and .icns (macOS).

    python tools/make_icon.py

The icon is what the app shows: a causal attention heatmap, the future hatched away, one
bright cell per row where a token looks. Drawn once here; the files are committed.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256)
N = 4
# Viridis at 0.15, 0.45, 0.75, 1.0: dark to yellow; each row's brightest cell is where it looks.
COLOURS = {0.15: "#472c7a", 0.3: "#3b518b", 0.45: "#2c718e", 0.6: "#21908d", 0.75: "#27ad81", 1.0: "#fde725"}
WEIGHTS = [[1.0], [0.45, 1.0], [0.3, 1.0, 0.15], [0.15, 0.6, 1.0, 0.3]]


def svg() -> str:
    cell, pad, gap = 52, 24, 6
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">',
             '<defs><pattern id="h" width="13" height="13" patternUnits="userSpaceOnUse">'
             '<rect width="13" height="13" fill="#f0e9de"/><path d="M-3,3 l6,-6 M0,13 l13,-13 M10,16 l6,-6" '
             'stroke="#a89c8c" stroke-width="3"/></pattern></defs>',
             '<rect x="4" y="4" width="248" height="248" rx="40" fill="#1d2330"/>']
    for i in range(N):
        for j in range(N):
            x, y = pad + j * (cell + gap), pad + i * (cell + gap)
            fill = COLOURS[WEIGHTS[i][j]] if j <= i else "url(#h)"
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" rx="6" fill="{fill}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QByteArray, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (kept alive)
    OUT.mkdir(parents=True, exist_ok=True)
    text = svg()
    (OUT / "attnviz.svg").write_text(text, encoding="utf-8")
    renderer = QSvgRenderer(QByteArray(text.encode()))
    images = {}
    for size in SIZES:
        image = QImage(size, size, QImage.Format_ARGB32)
        image.fill(Qt.transparent)
        p = QPainter(image)
        p.setRenderHint(QPainter.Antialiasing)
        renderer.render(p)
        p.end()
        images[size] = image
        image.save(str(OUT / f"attnviz-{size}.png"))
    images[256].save(str(OUT / "attnviz.ico"))   # Windows: the executable's and the taskbar's icon
    images[256].save(str(OUT / "attnviz.icns"))  # macOS: the .app bundle's icon
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
