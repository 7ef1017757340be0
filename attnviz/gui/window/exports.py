"""Figures for slides and papers written without a window or a display (`attnviz export`): a head,
all heads or a query's steps; A beside B; every layer × head of a model. The window itself is not
built: `attnviz export` does without main_window's 0.3 s of imports."""
from __future__ import annotations

import os

from ...core import compute
from ...core.summary import check_work, kv_groups, layer_weights, named_layers, summarise
from ..common.i18n import install_language, system_language
from ..compare.dialog import CompareFigure
from ..export.figure import Figure, FigureOptions
from ..export.files import export_figure, image_format
from ..look import colormaps
from ..overview.dialog import OverviewFigure
from .app import create_app, use_offscreen


def export_comparison(a, b, path: str, width: int = 2400, caption: bool = True, lang: str | None = None,
                      scale: str = "linear") -> None:
    """Write A beside B and B − A without a window or a display."""
    image_format(path)  # refuse a wrong suffix before starting Qt
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    export_figure(CompareFigure(a, b, caption=caption, colormap=colormaps.get(scale=scale)), path, width)


def export_overview(name: str, path: str, width: int = 2400, caption: bool = True, lang: str | None = None,
                    scale: str = "linear") -> None:
    """Every layer × head of a model's file (or a scenario's one layer) as one grid."""
    image_format(path)  # refuse a wrong suffix before reading every layer
    first, count, scenario_of = named_layers(name)
    check_work(first, count)  # before a second layer is read
    summary = summarise(first.tokens, layer_weights(count, scenario_of), count, rollout=False)  # not drawn
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    title = os.path.basename(name) if os.path.exists(name) else name  # a file's name, or a preset's id
    export_figure(OverviewFigure(summary, title, kv_groups(first), caption=caption,
                                 colormap=colormaps.get(scale=scale)), path, width)


def export(scenario, path: str, kind: str = "head", head: int = 0, query: int | None = None,
           width: int = 2400, caption: bool = True, lang: str | None = None, scale: str = "linear") -> None:
    """Write one figure (a head, all heads, or a query's steps) without a window or a display."""
    image_format(path)  # refuse a wrong suffix before starting Qt
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    figure = Figure(scenario, compute(scenario), FigureOptions(kind=kind, head=head, query=query,
                                                               caption=caption, scale=scale))
    export_figure(figure, path, width)
