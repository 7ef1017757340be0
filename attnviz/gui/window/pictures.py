"""A real model's run and the workbench's results as PNG pictures, drawn by the window's own painters
without showing a window: a run's layer as the export figure draws every head (its tokens, its mask
hatched, the colour bar), a patching, attribution or sweep map as the workbench's LayerMap draws it.
What a notebook shows inline (attnviz.api registers them with IPython) and api.picture writes."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QGridLayout, QLabel, QVBoxLayout, QWidget

from ...core import lm
from ...core.compute import compute
from ...core.research import head_types
from ...core.research.attribution import Attribution
from ...core.research.continuation import Continuation
from ...core.research.head_types import HeadTypes
from ...core.research.lens import Lens
from ...core.research.patch import Patched
from ...core.research.sweep import Sweep
from ...display import display_problem
from ..export.figure import Figure, FigureOptions
from ..export.files import png_bytes, render_image
from ..research.map import LayerMap
from .app import create_app, use_offscreen

MAP_SIZE = (900, 620)    # px: a map picture, as a notebook's cell shows it
RUN_WIDTH = 1200


def app() -> QApplication:
    """The QApplication pictures are drawn in: the one running, else a new one, offscreen where no window could
    open (a notebook on a server), on the display where one could (so that api.show still opens a window)."""
    if QApplication.instance() is None and display_problem() is not None:
        use_offscreen()
    return create_app()


def run_png(model, encoded, result, layer: int = 0, width: int = RUN_WIDTH) -> bytes:
    """Every head of `layer` of a run: its weights, the tokens on both axes, the mask hatched, the colour bar."""
    app()
    scenario = lm.scenario(model, encoded, result, layer)
    figure = Figure(scenario, compute(scenario), FigureOptions(kind="all", caption=True))
    return png_bytes(render_image(figure, width))


def result_png(found, size: tuple[int, int] = MAP_SIZE) -> bytes:
    """A workbench result as its map (the head types: one map a type)."""
    app()
    page = QWidget()
    page.setAttribute(Qt.WA_DontShowOnScreen)
    layout = QVBoxLayout(page)
    layout.addWidget(QLabel(_title(found), wordWrap=True))
    width, height = size
    if isinstance(found, HeadTypes):
        layout.addLayout(_type_maps(found), 1)
    else:
        values, rows, columns, signed = _map_of(found)
        view = LayerMap()
        view.set_values(values, rows, columns, signed=signed, top=None if signed else 1.0)  # unsigned: p from 0 to 1
        layout.addWidget(view, 1)
        height = min(height, 120 + 28 * len(rows))  # a row or two (a continuation): no tall stripes
    page.resize(width, height)
    page.show()
    QApplication.processEvents()
    image = page.grab().toImage()
    page.close()
    return png_bytes(image)


def _map_of(found) -> tuple[np.ndarray, list[str], list[str], bool]:
    """(values [rows, columns], row names, column names, signed) of a result shown as one map."""
    if isinstance(found, Patched):
        rows = [str(r) for r in range(found.restored.shape[0])]
        return found.restored, rows, _columns(found.restored.shape[1], found.tokens, found.by != "head"), True
    if isinstance(found, Attribution):
        values = np.concatenate([found.heads, found.mlps[:, None]], axis=1)
        return values, [str(r) for r in range(len(values))], [*map(str, range(found.heads.shape[1])), "MLP"], True
    if isinstance(found, Sweep):
        return found.delta_logp, [str(r) for r in range(len(found.delta_logp))], \
            [str(h) for h in range(found.delta_logp.shape[1])], True
    if isinstance(found, Lens):
        values = found.token_p if found.token_p is not None else found.p[..., 0]
        return values, [str(r) for r in range(len(values))], _columns(values.shape[1], found.tokens, True), False
    if isinstance(found, Continuation):
        m = len(found.p)
        return found.p[None, :], ["p"], _columns(m, found.tokens[-m:] if len(found.tokens) >= m else (), True), False
    raise TypeError(f"no picture of {type(found).__name__}")


def _columns(n: int, tokens, by_token: bool) -> list[str]:
    return list(tokens) if by_token and len(tokens) == n else [str(i) for i in range(n)]


def _type_maps(found: HeadTypes) -> QGridLayout:
    grid = QGridLayout()
    for i, kind in enumerate(head_types.TYPES):
        scores = found.scores[kind]
        view = LayerMap()
        view.set_values(scores, [str(r) for r in range(len(scores))], [str(h) for h in range(scores.shape[1])],
                        signed=False, top=1.0)
        grid.addWidget(QLabel(kind), 0, i)
        grid.addWidget(view, 1, i)
    return grid


def _title(found) -> str:
    if isinstance(found, Patched):
        pairs = f", averaged over {found.pairs} pairs" if found.pairs > 1 else ""
        what = "your metric of each patched run" if found.metric == "own" else (
            f"the share of the logit difference restored (clean {found.clean:.2f}, corrupted {found.corrupted:.2f})")
        return f"Activation patching by {found.by}: {what}{pairs}. Rows: layers."
    if isinstance(found, Attribution):
        return f"Direct logit attribution to the logit {found.logit:.2f}. Rows: layers; columns: heads, then the MLP."
    if isinstance(found, Sweep):
        texts = f", averaged over {found.texts} texts" if found.texts > 1 else ""
        return (f"Each head {'set to its mean' if found.mean else 'switched off'} in turn: the change in log p "
                f"({found.logp:.2f}){texts}. Rows: layers; columns: heads.")
    if isinstance(found, Lens):
        what = "the followed token's probability" if found.token_p is not None else "the likeliest token's probability"
        return f"Logit lens: {what} after each layer (rows) at each position (columns)."
    if isinstance(found, HeadTypes):
        return "Head types: each head's score (0 to 1) on random tokens repeated once. Rows: layers; columns: heads."
    return "The continuation: the probability the model gave each of its tokens."
