"""The main window: heads in the centre, q/k/v tables on the left, one query's steps below."""
from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QDialog, QDockWidget, QFileDialog, QInputDialog, QLabel,
                               QMainWindow, QMenu, QMessageBox, QSplitter, QToolBar)

from ..core import save_scenario
from ..core.presets import DEFAULT_PRESET, list_presets, open_named
from ..core.scenario import Scenario, ScenarioError
from .commands import InsertToken, RemoveToken, RenameToken
from .controls import QuerySliders, Selectors, SettingsBar
from .document import ScenarioDocument
from .export import export_data, export_figure, render_image
from .export_dialog import ExportDialog
from .figure import Figure, FigureOptions
from .heads_view import HeadsView
from .step_table import StepView
from .tables import VectorTables
from .i18n import tr

MAX_RECENT = 8
FILE_FILTER = "AttnViz scenario (*.json);;NumPy q, k, v (*.npz);;All files (*)"
IMAGE_FILTER = "PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"
DATA_FILTER = "CSV table (*.csv);;NumPy arrays (*.npz)"
CLIPBOARD_WIDTH = 1600



def resolve(scenario) -> tuple[Scenario, str | None]:
    """A Scenario, (Scenario, source), a preset id or a file path -> (Scenario, source)."""
    if isinstance(scenario, Scenario):
        return scenario, None
    if isinstance(scenario, tuple):
        return scenario
    return open_named(str(scenario) if scenario else DEFAULT_PRESET)


class MainWindow(QMainWindow):
    def __init__(self, scenario=None, parent=None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        loaded, source = resolve(scenario)
        self.document = ScenarioDocument(loaded, source, self)
        self.message = QLabel(objectName="messageLabel")
        self.message.setStyleSheet("color: #b00020; font-weight: bold;")
        self.statusBar().addWidget(self.message, 1)
        self._build_views()
        self._build_actions()
        self._build_menus()
        self.document.changed.connect(self._clear_message)
        self.document.replaced.connect(self._update_title)
        self.document.undo_stack.cleanChanged.connect(self._update_title)
        self._update_title()
        self.resize(1500, 950)
        self.resizeDocks([self.vectors_dock], [380], Qt.Horizontal)
        self.resizeDocks([self.steps_dock], [300], Qt.Vertical)

    # ------------------------------------------------------------- layout

    def _build_views(self):
        d = self.document
        self.heads = HeadsView(d)
        self.setCentralWidget(self.heads)
        self.tables = VectorTables(d, self.report)
        self.tables.tokenMenuRequested.connect(self._token_menu)
        self.vectors_dock = self._dock(tr("q, k, v of the active head"), "vectorsDock", self.tables,
                                       Qt.LeftDockWidgetArea)
        self.sliders = QuerySliders(d, self.report)
        self.steps = StepView(d)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.sliders)
        split.addWidget(self.steps)
        split.setStretchFactor(1, 3)
        self.steps_dock = self._dock(tr("One query, step by step"), "stepDock", split,
                                     Qt.BottomDockWidgetArea)
        self.selectors = Selectors(d)
        self.settings_bar = SettingsBar(d, self.report)
        toolbar = QToolBar(tr("Controls"), objectName="controlsToolbar")
        toolbar.setMovable(False)
        toolbar.addWidget(self.selectors)
        toolbar.addSeparator()
        toolbar.addWidget(self.settings_bar)
        self.addToolBar(Qt.TopToolBarArea, toolbar)
        self.toolbar = toolbar

    def _dock(self, title, name, widget, area):
        dock = QDockWidget(title, self, objectName=name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        return dock

    def _build_actions(self):
        stack = self.document.undo_stack
        self.undo_action = stack.createUndoAction(self, tr("&Undo"))
        self.undo_action.setShortcut(QKeySequence.Undo)
        self.redo_action = stack.createRedoAction(self, tr("&Redo"))
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.open_action = self._action(tr("&Open…"), self.open_dialog, QKeySequence.Open)
        self.save_action = self._action(tr("&Save"), self.save, QKeySequence.Save)
        self.save_as_action = self._action(tr("Save &As…"), self.save_as, QKeySequence("Ctrl+Shift+S"))
        self.quit_action = self._action(tr("&Quit"), self.close, QKeySequence("Ctrl+Q"))
        self.export_image_action = self._action(tr("&Export image…"), self.export_image_dialog,
                                                QKeySequence("Ctrl+E"))
        self.export_data_action = self._action(tr("Export &data…"), self.export_data_dialog)
        self.copy_image_action = self._action(tr("&Copy image"), self.copy_image, QKeySequence("Ctrl+Shift+C"))
        self.rename_action = self._action(tr("Re&name token…"), self.rename_token_dialog, QKeySequence("F2"))
        self.insert_before_action = self._action(tr("Insert token &before…"),
                                                 lambda: self.insert_token_dialog(after=False))
        self.insert_after_action = self._action(tr("Insert token &after…"),
                                                lambda: self.insert_token_dialog(after=True))
        self.remove_action = self._action(tr("Re&move token"), self.remove_token)

    def _action(self, text, slot, shortcut=None):
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_menus(self):
        bar = self.menuBar()
        file_menu = bar.addMenu(tr("&File"))
        self.presets_menu = file_menu.addMenu(tr("&New from preset"))
        for preset in list_presets():
            title = preset.title.get("en", preset.id)
            action = self.presets_menu.addAction(f"{preset.id} — {title}")
            action.triggered.connect(lambda _=False, p=preset.id: self.open_scenario(p))
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu(tr("Open &recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.save_as_action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_image_action)
        file_menu.addAction(self.export_data_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu(tr("&Edit"))
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.copy_image_action)
        edit_menu.addSeparator()
        for action in (self.rename_action, self.insert_before_action, self.insert_after_action,
                       self.remove_action):
            edit_menu.addAction(action)
        view_menu = bar.addMenu(tr("&View"))
        view_menu.addAction(self.vectors_dock.toggleViewAction())
        view_menu.addAction(self.steps_dock.toggleViewAction())
        view_menu.addAction(self.toolbar.toggleViewAction())

    # ------------------------------------------------------------- messages and title

    def report(self, message: str) -> None:
        """Show a refused input where the user is looking; nothing else changes."""
        self.message.setText(message)
        self.statusBar().setToolTip(message)

    def _clear_message(self):
        self.message.clear()

    def display_name(self) -> str:
        source = self.document.source
        if source is None:
            return tr("untitled")
        if source.startswith("preset:"):
            return source[len("preset:"):]
        return os.path.basename(source)

    def _update_title(self, *_):
        self.setWindowTitle(f"{self.display_name()}[*] — AttnViz")
        self.setWindowModified(self.document.modified)

    # ------------------------------------------------------------- files

    def open_scenario(self, name) -> bool:
        """Open a preset id or a file; on failure say why and keep what is open."""
        if not self.maybe_save():
            return False
        try:
            scenario, source = resolve(name)
        except ScenarioError as e:
            self.warn(tr("Cannot open"), str(e))
            return False
        self.document.replace(scenario, source)
        if source and not source.startswith("preset:"):
            self._remember_recent(source)
        return True

    def open_dialog(self):
        path, _ = QFileDialog.getOpenFileName(self, tr("Open scenario"), self._folder(), FILE_FILTER)
        if path:
            self.open_scenario(path)

    def save(self) -> bool:
        path = self.document.path
        if path is None or not path.lower().endswith(".json"):
            return self.save_as()
        return self.save_to(path)

    def save_as(self, path=None) -> bool:
        if not path:
            suggestion = os.path.join(self._folder(), self.display_name().rsplit(".", 1)[0] + ".json")
            path, _ = QFileDialog.getSaveFileName(self, tr("Save scenario"), suggestion,
                                                  "AttnViz scenario (*.json)")
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        return self.save_to(path)

    def save_to(self, path: str) -> bool:
        try:
            save_scenario(self.document.scenario, path)
        except ScenarioError as e:
            self.warn(tr("Cannot save"), str(e))
            return False
        self.document.mark_saved(os.path.abspath(path))
        self._remember_recent(os.path.abspath(path))
        self._update_title()
        return True

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current scenario (saved, discarded or unchanged)."""
        if not self.document.modified:
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.Save:
            return self.save()
        return answer == QMessageBox.Discard

    def ask_unsaved(self):
        return QMessageBox.question(
            self, tr("Unsaved changes"),
            tr("{0} has changes that are not saved. Save them?").format(self.display_name()),
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)

    def warn(self, title: str, message: str) -> None:
        self.report(message)
        QMessageBox.warning(self, title, message)

    def closeEvent(self, event):
        if self.maybe_save():
            event.accept()
        else:
            event.ignore()

    def _folder(self) -> str:
        path = self.document.path
        return os.path.dirname(path) if path else os.getcwd()

    def _remember_recent(self, path: str):
        settings = QSettings()
        recent = [p for p in (settings.value("recentFiles", []) or []) if p != path]
        settings.setValue("recentFiles", [path] + recent[:MAX_RECENT - 1])

    def recent_files(self) -> list[str]:
        value = QSettings().value("recentFiles", []) or []
        return [value] if isinstance(value, str) else list(value)

    def _fill_recent_menu(self):
        self.recent_menu.clear()
        for path in self.recent_files():
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_scenario(p))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(tr("(none yet)")).setEnabled(False)

    # ------------------------------------------------------------- exports

    def figure(self, kind: str = "head", caption: bool = True) -> Figure:
        """What the window shows, as a figure: the active head, all heads, or the query's steps."""
        d = self.document
        options = FigureOptions(kind=kind, head=d.active_head, query=d.query, caption=caption)
        return Figure(d.scenario, d.result, options)

    def export_image(self, path: str, kind: str = "head", width: int = 2400, caption: bool = True) -> bool:
        try:
            export_figure(self.figure(kind, caption), path, width)
        except ScenarioError as e:
            self.warn(tr("Cannot export"), str(e))
            return False
        self.statusBar().showMessage(tr("Exported {0}").format(path), 5000)
        return True

    def export_image_dialog(self):
        dialog = ExportDialog(self)
        if dialog.exec() != QDialog.Accepted:
            return
        suggestion = os.path.join(self._folder(), f"{self.display_name().rsplit('.', 1)[0]}-{dialog.kind()}.png")
        path, chosen = QFileDialog.getSaveFileName(self, tr("Export image"), suggestion, IMAGE_FILTER)
        if path:
            self.export_image(_with_suffix(path, chosen), dialog.kind(), dialog.width.value(),
                              dialog.caption.isChecked())

    def export_data(self, path: str) -> bool:
        try:
            export_data(self.document.scenario, self.document.result, path)
        except ScenarioError as e:
            self.warn(tr("Cannot export"), str(e))
            return False
        self.statusBar().showMessage(tr("Exported {0}").format(path), 5000)
        return True

    def export_data_dialog(self):
        suggestion = os.path.join(self._folder(), self.display_name().rsplit(".", 1)[0] + "-data.csv")
        path, chosen = QFileDialog.getSaveFileName(self, tr("Export data"), suggestion, DATA_FILTER)
        if path:
            self.export_data(_with_suffix(path, chosen))

    def copy_image(self):
        """The active head's heatmap on the clipboard, ready to paste into a slide."""
        image = render_image(self.figure("head"), CLIPBOARD_WIDTH)
        QApplication.clipboard().setImage(image)
        self.statusBar().showMessage(tr("Heatmap copied to the clipboard"), 5000)

    # ------------------------------------------------------------- tokens

    def _push(self, make_command) -> bool:
        try:
            self.document.push(make_command())
        except ScenarioError as e:
            self.report(str(e))
            return False
        return True

    def rename_token(self, index: int, name: str) -> bool:
        return self._push(lambda: RenameToken(self.document, index, name))

    def insert_token(self, index: int, name: str) -> bool:
        ok = self._push(lambda: InsertToken(self.document, index, name))
        if ok:
            self.document.select(query=index)
        return ok

    def remove_token(self, index: int | None = None) -> bool:
        index = self.document.query if index is None or index is False else index
        return self._push(lambda: RemoveToken(self.document, index))

    def rename_token_dialog(self, index=None):
        index = self.document.query if index is None or index is False else index
        old = self.document.scenario.tokens[index]
        name, ok = QInputDialog.getText(self, tr("Rename token"), tr("New name for {0}:").format(old), text=old)
        if ok and name != old:
            self.rename_token(index, name)

    def insert_token_dialog(self, after: bool, index=None):
        index = self.document.query if index is None else index
        name, ok = QInputDialog.getText(self, tr("Insert token"),
                                        tr("Token to insert (its q, k and v start at 0):"))
        if ok:
            self.insert_token(index + 1 if after else index, name)

    def _token_menu(self, index: int, position):
        self.document.select(query=index)
        menu = QMenu(self)
        menu.addAction(tr("Rename…"), lambda: self.rename_token_dialog(index))
        menu.addAction(tr("Insert before…"), lambda: self.insert_token_dialog(False, index))
        menu.addAction(tr("Insert after…"), lambda: self.insert_token_dialog(True, index))
        menu.addAction(tr("Remove"), lambda: self.remove_token(index))
        menu.popup(position)


def _with_suffix(path: str, chosen_filter: str) -> str:
    """Add the chosen filter's suffix when the name has none (file dialogs differ in this)."""
    if os.path.splitext(path)[1]:
        return path
    start = chosen_filter.find("*.")
    return path + (chosen_filter[start + 1:chosen_filter.find(")", start)] if start >= 0 else "")
