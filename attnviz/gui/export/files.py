"""Writing figures as PNG, SVG or PDF, and the numbers as CSV or .npz.

Each file is rendered in memory and written with core.files.atomic_write, so a bad
path or a full disk leaves no partial file behind.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSize, QSizeF
from PySide6.QtGui import QImage, QPageSize, QPainter, QPdfWriter

from ...core.files import atomic_write, os_problem
from ...core.io import save_data
from ...core.messages import QT_TR_NOOP
from ...core.scenario import ScenarioError
from .figure import Figure
from .pdf_text import named_as_written

IMAGE_FORMATS = (".png", ".svg", ".pdf")
WIDTH_RANGE = (200, 8000)  # pixels; 8000 × 8000 × 4 bytes is already 256 MB


class ExportError(ScenarioError):
    """An export that cannot be written; the message says why."""


def image_format(path) -> str:
    try:
        is_folder = Path(path).is_dir()
    except (OSError, ValueError) as e:  # a name too long for the file system, a NUL in it
        raise os_problem(path, e) from None
    if is_folder:
        raise ExportError(QT_TR_NOOP("{0}: is a folder; give a file name ending in .png, .svg or .pdf"), path)
    suffix = Path(path).suffix.lower()
    if suffix not in IMAGE_FORMATS:
        raise ExportError(QT_TR_NOOP("{0}: unknown image format '{1}'; use a name ending in .png, .svg or .pdf"),
                          path, suffix or '(none)')
    return suffix


def export_figure(figure: Figure, path, width: int = 1600) -> None:
    """PNG at `width` pixels (height from the figure's aspect ratio), or vector SVG / PDF."""
    suffix = image_format(path)
    render = {".png": lambda: png_bytes(render_image(figure, width)),
              ".svg": lambda: svg_bytes(figure), ".pdf": lambda: pdf_bytes(figure)}[suffix]
    atomic_write(path, render())


def render_image(figure: Figure, width: int) -> QImage:
    """The figure as pixels: drawn at the target size (not scaled up), so it is sharp at any width."""
    low, high = WIDTH_RANGE
    if not low <= width <= high:
        raise ExportError(QT_TR_NOOP("width {0} px is outside {1} to {2}"), width, low, high)
    size = figure.size()
    ratio = width / size.width()  # image pixels per logical pixel of the figure
    image = QImage(width, round(size.height() * ratio), QImage.Format_ARGB32)
    image.fill(0xFFFFFFFF)
    p = QPainter(image)
    p.scale(ratio, ratio)
    figure.paint(p, vector=False)
    p.end()
    return image


def png_bytes(image: QImage) -> bytes:
    return bytes(_write_to_buffer(lambda buffer: image.save(buffer, "PNG"), "PNG"))


def svg_bytes(figure: Figure) -> bytes:
    from PySide6.QtSvg import QSvgGenerator  # only when an SVG is asked for, not at start-up

    def paint(buffer):
        size = figure.size()
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QSize(round(size.width()), round(size.height())))
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle("AttnViz")
        generator.setDescription(figure.caption_text())
        p = QPainter(generator)
        figure.paint(p, vector=True)  # one <rect> per cell, text as <text>
        return p.end()
    return with_font_fallbacks(bytes(_write_to_buffer(paint, "SVG")))


# The Japanese fonts of Windows, macOS and Linux, then any sans-serif: an SVG opened on a machine
# without Noto Sans CJK still shows its labels (Qt names only the font it drew with).
SVG_FONTS = ("'Noto Sans CJK JP', 'Noto Sans JP', 'Hiragino Sans', 'Hiragino Kaku Gothic ProN', "
             "'Yu Gothic', 'Meiryo', 'MS Gothic', 'Source Han Sans JP', 'IPAexGothic', sans-serif")


def with_font_fallbacks(svg: bytes) -> bytes:
    return re.sub(rb'font-family="[^"]*"', f'font-family="{SVG_FONTS}"'.encode(), svg)


def pdf_bytes(figure: Figure) -> bytes:
    def paint(buffer):
        size = figure.size()
        writer = QPdfWriter(buffer)
        writer.setResolution(72)  # one logical pixel = one point: the page is the figure
        writer.setPageSize(QPageSize(QSizeF(size.width(), size.height()), QPageSize.Point))
        writer.setPageMargins(QMarginsF(0, 0, 0, 0))
        writer.setTitle("AttnViz")
        writer.setCreator("AttnViz")
        p = QPainter(writer)
        p.setRenderHint(QPainter.LosslessImageRendering, True)  # heatmap and colour bar: Flate, never JPEG
        figure.paint(p, vector=True)
        return p.end()
    return named_as_written(bytes(_write_to_buffer(paint, "PDF")))  # a paper's figure, searched: 魚, not ⿂


def _write_to_buffer(write, what: str) -> QByteArray:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    if not write(buffer):
        raise ExportError(QT_TR_NOOP("the {0} could not be rendered"), what)
    buffer.close()
    return data


def export_data(scenario, result, path) -> None:
    """The weights and the q, k, v of every head: a tidy .csv or a .npz of arrays."""
    save_data(scenario, result.weights(), path)
