"""File → Export image… / Export data… and Edit → Copy image: what the window shows, written for
slides and papers; a refused path or a failed write is said, and nothing else changes."""
from __future__ import annotations

import os

from PySide6.QtWidgets import QApplication, QDialog, QFileDialog

from ...core.scenario import ScenarioError
from ..common.i18n import describe, tr
from ..state.files import with_suffix
from .dialog import ExportDialog
from .figure import Figure, FigureOptions
from .files import export_data, export_figure, render_image

IMAGE_FILTER = "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"
DATA_FILTER = "CSV (*.csv);;NumPy (*.npz)"
CLIPBOARD_WIDTH = 1600


class Exports:
    def __init__(self, document, shell, view, folder):
        self.document, self.shell, self.view = document, shell, view
        self.folder = folder  # where a suggested name goes: beside the open file

    def figure(self, kind: str = "head", caption: bool = True) -> Figure:
        """What the window shows, as a figure: the active head, all heads, or the query's steps."""
        d, view = self.document, self.view
        options = FigureOptions(kind=kind, head=d.active_head, query=d.query, caption=caption,
                                colormap=view.colormap, scale=view.scale)
        return Figure(d.scenario, d.result, options)

    def export_image(self, path: str, kind: str = "head", width: int = 2400, caption: bool = True) -> bool:
        return self._export(lambda: export_figure(self.figure(kind, caption), path, width), path)

    def export_data(self, path: str) -> bool:
        return self._export(lambda: export_data(self.document.scenario, self.document.result, path), path)

    def _export(self, write, path: str) -> bool:
        try:
            write()
        except ScenarioError as e:
            self.shell.warn(tr("Cannot export"), describe(e))
            return False
        self.shell.show_status(tr("Exported {0}").format(path))
        return True

    def image_dialog(self):
        dialog = ExportDialog(self.shell.dialog_parent())
        if dialog.exec() != QDialog.Accepted:
            return
        stem = self.shell.display_name().rsplit(".", 1)[0]
        suggestion = os.path.join(self.folder(), f"{stem}-{dialog.kind()}.png")
        path, chosen = QFileDialog.getSaveFileName(self.shell.dialog_parent(), tr("Export image"), suggestion,
                                                   IMAGE_FILTER)
        if path:
            self.export_image(with_suffix(path, chosen), dialog.kind(), dialog.width.value(),
                              dialog.caption.isChecked())

    def data_dialog(self):
        suggestion = os.path.join(self.folder(), self.shell.display_name().rsplit(".", 1)[0] + "-data.csv")
        path, chosen = QFileDialog.getSaveFileName(self.shell.dialog_parent(), tr("Export data"), suggestion,
                                                   DATA_FILTER)
        if path:
            self.export_data(with_suffix(path, chosen))

    def copy_image(self):
        """The active head's heatmap on the clipboard, ready to paste into a slide."""
        QApplication.clipboard().setImage(render_image(self.figure("head"), CLIPBOARD_WIDTH))
        self.shell.show_status(tr("Heatmap copied to the clipboard"))
