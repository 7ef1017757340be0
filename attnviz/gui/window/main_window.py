"""The main window: heads in the centre, q/k/v tables on the left, one query's steps below.

This module holds the layout, files and token editing; the classroom features
(language, look, zoom, presentation, guided steps) live in classroom.py.
"""
from __future__ import annotations

import os
import time

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QDialog, QDockWidget, QFileDialog, QInputDialog, QLabel,
                               QMainWindow, QMenu, QMessageBox, QProgressBar, QPushButton, QSplitter, QTabBar,
                               QTabWidget, QToolBar, QVBoxLayout, QWidget)

from ...core import load_scenario, save_scenario, session as sessions
from ...core.formats.scenario_json import too_large_for_json
from ...core.io import holds_layers
from ...core.messages import QT_TR_NOOP
from ...core.presets import DEFAULT_PRESET, list_presets, open_named
from ...core.scenario import Scenario, ScenarioError
from ..state import autosave, settings
from ..common.actions import make_action, name_actions
from ..classroom.classroom import Classroom
from ..state.commands import InsertToken, RemoveToken, RenameToken
from ..tables.controls import PresentationControls, QuerySliders, Selectors, SettingsBar
from ..model.runner import ModelRunner
from ..model.next_token import NextTokenView
from ..state.document import ScenarioDocument
from .errors import ErrorReporter
from ..export.files import export_data, export_figure, render_image
from ..export.dialog import ExportDialog
from ..look.fonts import install_fonts
from ..common.undo_keys import UndoKeys
from ..export.figure import Figure, FigureOptions
from ..maths.lines import LinesView
from ..heads.view import HeadsView
from ..common.i18n import current_language, describe, tr
from ..steps.table import StepView
from ..tables.vectors import VectorTables

FILE_FILTER = "AttnViz (*.json *.npz *.npy);;JSON (*.json);;NumPy (*.npz *.npy);;* (*)"
SAVE_FILTERS = {".json": "AttnViz JSON (*.json)", ".npz": "AttnViz compact (*.npz)"}
SESSION_FILTER = "AttnViz model session (*.attnviz-model.json)"
IMAGE_FILTER = "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"
DATA_FILTER = "CSV (*.csv);;NumPy (*.npz)"
CLIPBOARD_WIDTH = 1600
ORDER_PAIR = ("position-nekoga", "position-suwatta")  # seed 003: the same words in two orders
HASHI_PAIR = ("hashi-chopsticks", "hashi-bridge")     # one はし, two meanings


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
        # In an application AttnViz did not create (a notebook's %gui qt, another program) the
        # bundled Japanese font must be registered here, or 猫 is an empty box.
        install_fonts(QApplication.instance())
        self.setObjectName("mainWindow")
        loaded, source = resolve(scenario)
        self.document = ScenarioDocument(loaded, source, self)
        self.message = QLabel(objectName="messageLabel")
        self.message.setStyleSheet("color: #d0302b; font-weight: bold;")
        self.statusBar().addWidget(self.message, 1)
        self._build_views()
        self._build_actions()
        self.classroom = Classroom(self)
        self._build_menus()
        self.document.changed.connect(self._clear_message)
        self.document.replaced.connect(self._update_title)
        self.document.undo_stack.cleanChanged.connect(self._update_title)
        # The tables run the window's full height on the left, so all ten rows of q, k and v of
        # the tutorial's sentence fit on a 1920 × 1080 screen.
        self.setCorner(Qt.BottomLeftCorner, Qt.LeftDockWidgetArea)
        self.resize(1500, 950)
        self.resizeDocks([self.vectors_dock], [380], Qt.Horizontal)
        self.resizeDocks([self.steps_dock], [380], Qt.Vertical)
        self.classroom.restore()
        self._show_pipeline()
        self.retranslate()
        settings.set_last_scenario(source)
        self.autosave = self.errors = None

    # ------------------------------------------------------------- crashes and recovery

    def enable_recovery(self, folder=None) -> None:
        """Autosave unsaved work and catch unexpected errors (the app does this; tests may)."""
        try:
            self.autosave = autosave.Autosave(self.document, folder, self)
        except OSError as e:  # a read-only profile: work on, without the safety net, and say so
            self.report(tr("Unsaved work cannot be kept safe: the data folder cannot be written ({0})")
                        .format(e.strerror or e))
        else:
            self.autosave.failed.connect(self._autosave_failed)
        self.errors = ErrorReporter(self)
        self.errors.install()

    def _autosave_failed(self, reason: str) -> None:
        """Said once, in the status bar: editing goes on, the copy is only older."""
        self.statusBar().showMessage(tr("Unsaved work could not be copied to safety: {0}").format(reason), 15000)

    def offer_restore(self, folder=None) -> bool:
        """After a crash: offer the newest unsaved work a session left behind."""
        for copy in autosave.orphans(folder):
            if autosave.holds_session(copy):
                if self._offer_session(copy):
                    return True
                continue
            try:
                scenario, source, saved = autosave.read(copy)
            except Exception as e:  # noqa: BLE001 (unreadable, however: kept aside, never deleted, and said)
                self.tell_kept(autosave.set_aside(copy), e)
                continue
            if self.ask_restore(scenario, source, saved) != QMessageBox.Yes:
                autosave.remove(copy)
                continue
            self.document.replace(scenario, source)
            self.document.undo_stack.resetClean()  # restored work is unsaved work
            self._update_title()
            autosave.remove(copy)
            if self.autosave is not None:
                self.autosave.write_now()
            return True
        return False

    def _offer_session(self, copy) -> bool:
        """A real model's session left by a crash: run it again with every change, if wanted."""
        try:
            _, meta = sessions.read_session(copy)
        except Exception as e:  # noqa: BLE001 (unreadable, however: kept aside, never deleted, and said)
            self.tell_kept(autosave.set_aside(copy), e)
            return False
        if self.ask_restore(None, autosave.original_source(meta), autosave.saved_time(meta)) != QMessageBox.Yes:
            autosave.remove(copy)
            return False
        return self.open_session(str(copy), crash_copy=copy)

    def tell_kept(self, kept, error) -> None:
        QMessageBox.warning(self, tr("Unsaved work could not be restored"), tr(
            "AttnViz found a copy of unsaved work from a session that did not close properly, but cannot "
            "open it ({0}). It was not deleted: it is kept in {1}").format(describe(error), kept))

    def ask_restore(self, scenario, source, saved):
        name = source_name(source)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(saved)) if saved else "?"
        return QMessageBox.question(
            self, tr("Restore unsaved work?"),
            tr("AttnViz did not close properly last time. Unsaved changes to {0} from {1} were kept. "
               "Restore them?").format(name, when), QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)

    # ------------------------------------------------------------- layout

    def _build_views(self):
        d = self.document
        self.heads = HeadsView(d, self.report)
        self.setCentralWidget(self.heads)
        self.tables = VectorTables(d, self.report)
        self.tables.tokenMenuRequested.connect(self._token_menu)
        self.vectors_dock = self._dock("vectorsDock", self.tables, Qt.LeftDockWidgetArea)
        self.pipeline = None  # the layer view, made for scenarios with X and W matrices
        self.pipeline_dock = self._dock("pipelineDock", QWidget(), Qt.LeftDockWidgetArea)
        self.pipeline_dock.hide()  # tabbed beside the tables only when a scenario has a layer to show
        d.replaced.connect(self._show_pipeline)
        self.sliders = QuerySliders(d, self.report)
        self.steps = StepView(d)
        self.steps_split = QSplitter(Qt.Horizontal)
        self.steps_split.addWidget(self.sliders)
        self.steps_split.addWidget(self.steps)
        self.steps_split.setStretchFactor(1, 3)
        self.presenter = PresentationControls(d, self.report)  # shown beside the steps while presenting
        self.presenter.hide()
        column = QWidget(objectName="stepColumn")
        stack = QVBoxLayout(column)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.addWidget(self.steps_split, 1)
        stack.addWidget(self.presenter)
        self.steps_dock = self._dock("stepDock", column, Qt.BottomDockWidgetArea)
        self.maths_tabs = None  # built when first shown: the maths views need pyqtgraph
        self.maths_dock = self._dock("mathsDock", QWidget(), Qt.BottomDockWidgetArea)
        self.tabifyDockWidget(self.steps_dock, self.maths_dock)
        # The maths views behind the step table's tab catch up when they come forward. (A third
        # dock in this tab group made Qt repaint the whole window at every edit: the lines view
        # is one of the maths tabs instead.)
        self.maths_dock.visibilityChanged.connect(lambda shown: shown and QTimer.singleShot(
            0, lambda: [view.sync_if_shown() for view in _math_views(self.maths_dock.widget())]))
        self.steps_dock.raise_()
        self.maths_dock.visibilityChanged.connect(self._maths_shown)
        self._overview_basis, self.compare_dialog = (None, False), None  # what the open overview was made from
        d.changed.connect(self._follow_overview)
        d.undo_stack.indexChanged.connect(self._follow_overview)  # after a push: whether the file's numbers are shown
        self.overview_dialog, self._overview_of = None, None
        self._restoring = None  # a crash copy whose real-model session is being run again
        d.replaced.connect(self._close_stale_overview)
        self.runner = ModelRunner(d, self)  # the real model, run off the GUI thread
        self.runner.loaded.connect(self._model_ran)
        self.runner.failed.connect(self._model_failed)
        self.runner.cancelled.connect(self._model_cancelled)
        self.runner.restored.connect(self._session_restored)
        self.runner.mismatch.connect(self._session_mismatch)
        self.runner.progress.connect(self._model_progress)
        self.runner.ran.connect(lambda _: self._show_model_progress())
        self.progress = QProgressBar(objectName="modelProgress", minimumWidth=320)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.cancel_model = QPushButton(objectName="modelCancel")  # a new text: loading, tokenising, running
        self.cancel_model.clicked.connect(self.runner.cancel)
        self.cancel_model.hide()
        self.statusBar().addPermanentWidget(self.cancel_model)
        self.next_dock = self._dock("nextTokenDock", NextTokenView(self.runner), Qt.RightDockWidgetArea)
        self.next_dock.hide()
        self.selectors = Selectors(d)
        self.selectors.layerRequested.connect(self.open_layer)
        self.settings_bar = SettingsBar(d, self.report)
        self.toolbar = QToolBar(objectName="controlsToolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(self.selectors)
        self.toolbar.addSeparator()
        self.toolbar.addWidget(self.settings_bar)
        self.addToolBar(Qt.TopToolBarArea, self.toolbar)

    def showEvent(self, event):
        super().showEvent(event)
        if self.document.scenario.projection is not None:  # a tabbed dock comes forward once shown
            QTimer.singleShot(0, lambda: self._bring_forward(self.pipeline_dock))

    def _bring_forward(self, dock):
        """Make a tabbed dock the one shown. (QDockWidget.raise_() does not switch the tab
        while the window is being laid out; choosing the tab does.)"""
        dock.raise_()
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self:
                for i in range(bar.count()):
                    if bar.tabText(i) == dock.windowTitle():
                        bar.setCurrentIndex(i)

    def _show_pipeline(self):
        """The layer view comes forward when the scenario has X and W matrices, and goes otherwise;
        the q, k, v tables go away for a model's weights (there are none)."""
        self.vectors_dock.setVisible(not self.document.scenario.weights_only)
        self.vectors_dock.toggleViewAction().setEnabled(not self.document.scenario.weights_only)
        layered = self.document.scenario.projection is not None
        self.pipeline_dock.toggleViewAction().setEnabled(layered)
        live = self.document.scenario.live is not None
        self.next_dock.setVisible(live)
        self.next_dock.toggleViewAction().setEnabled(live)
        if layered and self.pipeline is None:
            from ..maths.pipeline import PipelineView
            self.pipeline = PipelineView(self.document, self.report)
            self.pipeline_dock.setWidget(self.pipeline)
        if layered and not self.tabifiedDockWidgets(self.vectors_dock):
            self.tabifyDockWidget(self.vectors_dock, self.pipeline_dock)
        self.pipeline_dock.setVisible(layered)
        if layered:
            QTimer.singleShot(0, lambda: self._bring_forward(self.pipeline_dock))

    def _maths_shown(self, shown: bool):
        """The maths views need room: the first time they come forward, give them half the height."""
        if shown and self.maths_tabs is None:
            self.maths()
            self.resizeDocks([self.maths_dock], [max(300, self.height() // 2)], Qt.Vertical)

    @property
    def lines(self) -> LinesView:
        """The lines view (token to token), the maths panel's last tab."""
        return self.maths().widget(self.maths_tabs.count() - 1)

    def show_lines(self) -> LinesView:
        self._bring_forward(self.maths_dock)
        self.maths().setCurrentWidget(self.lines)
        return self.lines

    def maths(self) -> QTabWidget:
        """The maths views (geometry, √d_k, softmax, kernel, before/after), made on first use."""
        if self.maths_tabs is None:
            from ..maths.geometry import GeometryView
            from ..maths.views import DiffView, KernelView, SoftmaxView, SqrtDkExplorer
            d = self.document
            self.maths_tabs = QTabWidget(objectName="mathsTabs")
            self.maths_views = [GeometryView(d, self.report), SqrtDkExplorer(d), SoftmaxView(d), KernelView(d),
                                DiffView(d), LinesView(d)]
            for view in self.maths_views:
                self.maths_tabs.addTab(view, "")
            self.maths_dock.setWidget(self.maths_tabs)
            self._name_maths_tabs()
        return self.maths_tabs

    def _name_maths_tabs(self):
        if self.maths_tabs is not None:
            for i, text in enumerate((tr("Geometry"), tr("√d_k"), tr("Softmax"), tr("Kernel"), tr("Before / after"),
                                      tr("Lines"))):
                self.maths_tabs.setTabText(i, text)

    def _dock(self, name, widget, area):
        dock = QDockWidget(self, objectName=name)
        dock.setWidget(widget)
        # Closable: the View menu's toggles need it (Qt disables them otherwise), and a closed
        # panel comes back from there.
        dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable |
                         QDockWidget.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def _build_actions(self):
        stack = self.document.undo_stack
        self.undo_action = stack.createUndoAction(self)
        self.undo_action.setShortcut(QKeySequence.Undo)
        self.redo_action = stack.createRedoAction(self)
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.addActions([self.undo_action, self.redo_action])
        self.undo_keys = UndoKeys(self, self.undo_action, self.redo_action)  # from every editor too
        self.open_action = self._action(self.open_dialog, QKeySequence.Open)
        self.real_model_action = self._action(self.real_model_dialog, "Ctrl+M")
        self.save_action = self._action(self.save, QKeySequence.Save)
        self.save_as_action = self._action(self.save_as, "Ctrl+Shift+S")
        self.quit_action = self._action(self.close, "Ctrl+Q")
        self.export_image_action = self._action(self.export_image_dialog, "Ctrl+E")
        self.export_data_action = self._action(self.export_data_dialog)
        self.copy_image_action = self._action(self.copy_image, "Ctrl+Shift+C")
        self.rename_action = self._action(self.rename_token_dialog, "F2")
        self.insert_before_action = self._action(lambda: self.insert_token_dialog(after=False))
        self.insert_after_action = self._action(lambda: self.insert_token_dialog(after=True))
        self.remove_action = self._action(self.remove_token)
        self.overview_action = self._action(self.overview, "Ctrl+Shift+O")
        self.reopen_action = self._action(settings.set_reopen_last, checkable=True)
        self.reopen_action.setChecked(settings.reopen_last())

    def _action(self, slot, *shortcuts, checkable=False) -> QAction:
        return make_action(self, slot, shortcuts, checkable)

    def _build_menus(self):
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.presets_menu = self.file_menu.addMenu("")
        self.presets_menu.aboutToShow.connect(self._fill_presets_menu)  # read the presets when asked
        self.file_menu.addAction(self.open_action)
        self.file_menu.addAction(self.real_model_action)
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.compare_menu = self.file_menu.addMenu("")
        self.compare_menu.aboutToShow.connect(self._fill_compare_menu)
        self.file_menu.addSeparator()
        for action in (self.save_action, self.save_as_action, None, self.export_image_action,
                       self.export_data_action, None, self.reopen_action, None, self.quit_action):
            self.file_menu.addSeparator() if action is None else self.file_menu.addAction(action)
        self.edit_menu = bar.addMenu("")
        for action in (self.undo_action, self.redo_action, None, self.copy_image_action, None,
                       self.rename_action, self.insert_before_action, self.insert_after_action,
                       self.remove_action):
            self.edit_menu.addSeparator() if action is None else self.edit_menu.addAction(action)
        self.view_menu = bar.addMenu("")
        for action in (self.vectors_dock.toggleViewAction(), self.pipeline_dock.toggleViewAction(),
                       self.steps_dock.toggleViewAction(), self.maths_dock.toggleViewAction(),
                       self.next_dock.toggleViewAction(), self.toolbar.toggleViewAction()):
            self.view_menu.addAction(action)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.overview_action)
        self.view_menu.addSeparator()
        self.classroom.fill_view_menu(self.view_menu)
        self.help_menu = bar.addMenu("")
        self.classroom.fill_help_menu(self.help_menu)
        self.help_menu.addSeparator()
        self.compare_orders_action = self.help_menu.addAction("")
        self.compare_orders_action.triggered.connect(lambda: self.compare_presets(*ORDER_PAIR))
        self.compare_hashi_action = self.help_menu.addAction("")
        self.compare_hashi_action.triggered.connect(lambda: self.compare_presets(*HASHI_PAIR))

    # ------------------------------------------------------------- language

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self):
        """Every text of the window in the current language (Qt sends LanguageChange on a switch)."""
        texts = {
            self.open_action: tr("&Open…"), self.save_action: tr("&Save"),
            self.real_model_action: tr("Real &model…"),
            self.save_as_action: tr("Save &As…"), self.quit_action: tr("&Quit"),
            self.export_image_action: tr("&Export image…"), self.export_data_action: tr("Export &data…"),
            self.copy_image_action: tr("&Copy image"), self.rename_action: tr("Re&name token…"),
            self.insert_before_action: tr("Insert token &before…"),
            self.insert_after_action: tr("Insert token &after…"), self.remove_action: tr("Re&move token"),
            self.reopen_action: tr("Open the last scenario at start"),
            self.undo_action: tr("&Undo"), self.redo_action: tr("&Redo"),
            self.compare_orders_action: tr("&Compare word orders: 猫が座った and 座ったが猫"),
            self.compare_hashi_action: tr("Compare はし: c&hopsticks and bridge"),
            self.overview_action: tr("Overview of every layer and &head…"),
        }
        tips = {
            self.compare_orders_action: tr("Without positions, attention alone cannot tell the two orders apart"),
            self.compare_hashi_action: tr("The same はし attends to the meal in one sentence and to the river in the other"),
            self.copy_image_action: tr("Put the active head's heatmap on the clipboard, for slides"),
            self.open_action: tr("Open a scenario file (.json) or q, k, v from a NumPy file (.npz)"),
            self.real_model_action: tr("Type a sentence and see a real language model's attention, layer by layer, "
                                       "and what it predicts next (offline)"),
            self.save_action: tr("Save the scenario, with every edit, as a .json file"),
            self.export_image_action: tr("Save a heatmap as PNG, SVG or PDF for slides and papers"),
            self.export_data_action: tr("Save the weights and q, k, v of every head as CSV or .npz"),
            self.rename_action: tr("Rename the selected query token"),
            self.insert_before_action: tr("Add a token before the selected one (its q, k, v start at 0)"),
            self.insert_after_action: tr("Add a token after the selected one (its q, k, v start at 0)"),
            self.remove_action: tr("Remove the selected token from every head"),
            self.undo_action: tr("Take back the last edit"), self.redo_action: tr("Do again what was taken back"),
            self.overview_action: tr("Every layer × head at a glance, their statistics, the means and attention "
                                     "rollout"),
        }
        name_actions(texts, tips)
        for menu, text in ((self.file_menu, tr("&File")), (self.presets_menu, tr("&New from preset")),
                           (self.recent_menu, tr("Open &recent")), (self.compare_menu, tr("Compare &with")),
                           (self.edit_menu, tr("&Edit")),
                           (self.view_menu, tr("&View")), (self.help_menu, tr("&Help"))):
            menu.setTitle(text)
        self.vectors_dock.setWindowTitle(tr("q, k, v of the active head"))
        self.steps_dock.setWindowTitle(tr("One query, step by step"))
        self.maths_dock.setWindowTitle(tr("See the maths"))
        self.pipeline_dock.setWindowTitle(tr("The layer: X to O"))
        self.next_dock.setWindowTitle(tr("Next token"))
        self.cancel_model.setText(tr("Cancel"))
        self.cancel_model.setToolTip(tr("Stop reading this text; the window stays as it is"))
        self._name_maths_tabs()
        self.toolbar.setWindowTitle(tr("Toolbar: head, query, mask, temperature"))
        self.classroom.retranslate()
        self._update_title()

    @staticmethod
    def _fill_with_presets(menu, chosen) -> None:
        """One action per preset (read when the menu opens), calling chosen(preset id)."""
        menu.clear()
        lang = current_language()
        for preset in list_presets():
            action = menu.addAction(f"{preset.id} — {preset.title_in(lang)}")
            action.triggered.connect(lambda _=False, p=preset.id: chosen(p))

    def _fill_presets_menu(self):
        self._fill_with_presets(self.presets_menu, self.open_scenario)

    def _fill_compare_menu(self):
        self._fill_with_presets(self.compare_menu, lambda p: self.compare_with(open_named(p)[0]))
        self.compare_menu.addSeparator()
        self.compare_menu.addAction(tr("A file…")).triggered.connect(self._compare_with_file)
        if self._other_layers():
            self.compare_menu.addAction(tr("Another layer of this model…")).triggered.connect(self._compare_layers)

    def _other_layers(self) -> bool:
        """Whether other layers of this model can be shown: a model's file or the real model's
        run, not a scenario saved from one layer (it holds that layer only)."""
        d = self.document
        layers = d.scenario.layer
        return layers is not None and layers[1] > 1 and (d.layers_in_file or d.scenario.live is not None)

    def _compare_with_file(self):
        path, _ = QFileDialog.getOpenFileName(self, tr("Compare with"), "", FILE_FILTER)
        if path:
            self.compare_with(lambda: load_scenario(path))  # read off the GUI thread

    def overview(self) -> None:
        """Every layer × head of what is open: a model's file (each layer read from the file, the
        one shown with its edits), the real model's run, or the one layer of a scenario."""
        from ...core import llama
        from ...core.files import stamp
        from ...core.io import load_scenario
        d, s = self.document, self.document.scenario
        if s.live is not None:
            self.runner.when_ready(lambda result: self._open_overview(
                s, s.layer[1], lambda layer: s if layer == s.layer[0] else llama.another_layer(s, result, layer)))
            return
        path, count = d.path, s.layer[1] if s.layer and d.path and holds_layers(d.path) else 1
        opened = d.disk_stamp

        def scenario_of(layer):
            if count == 1 or layer == s.layer[0]:
                return s  # the layer shown, with its edits
            if stamp(path) != opened:
                raise ScenarioError(QT_TR_NOOP("the model's file changed on disk since it was opened: open it "
                                               "again to see every layer"))
            other = load_scenario(path, layer)
            if other.tokens != s.tokens:
                raise ScenarioError(QT_TR_NOOP("the tokens shown were edited ({0} now, {1} in the file's other "
                                               "layers): open the file again to see every layer"), s.n, other.n)
            return other
        self._open_overview(s, count, scenario_of)

    def _open_overview(self, s, count: int, scenario_of):
        from ...core.summary import kv_groups
        from ..overview.dialog import OverviewDialog
        dialog = self.overview_dialog
        if dialog is not None:  # one overview at a time: the open one gathers again (Refresh)
            dialog.gather(s, count, scenario_of, kv_groups(s))
        else:
            dialog = OverviewDialog(s, count, scenario_of, self.display_name(), kv_groups(s), self,
                                    query=self.document.query, colormap=self.classroom.colormap)
            dialog.chosen.connect(self.show_head)
            dialog.refresh_requested.connect(self.overview)
            dialog.finished.connect(lambda *_: self._forget_overview(dialog))
            dialog.destroyed.connect(lambda: self._forget_overview(dialog))
            self.overview_dialog = dialog
        self._overview_of, self._overview_basis = self._model_key(), self._overview_numbers()
        dialog.show()
        dialog.raise_()

    def _forget_overview(self, dialog) -> None:
        if self.overview_dialog is dialog:
            self.overview_dialog = None

    def _model_key(self):
        """What an overview shows: this file, or the real model on this text (not a layer of it)."""
        live = self.document.scenario.live
        return (self.document.path, live.text if live is not None else None)

    def _overview_numbers(self) -> tuple:
        """(the scenario shown, whether it is a model file's layer as the file has it): with the
        changes a real model's scenario carries, what an overview's numbers depend on."""
        d = self.document
        return d.scenario, d.layers_in_file and not d.modified

    def _close_stale_overview(self, *_):
        """Another file or text opened: its overview no longer describes what the window shows."""
        if self.overview_dialog is not None and self._model_key() != self._overview_of:
            self.overview_dialog.close()

    def _follow_overview(self) -> None:
        """An edit, or a head switched off: the open overview says that its numbers are from before,
        with a button to gather them again (gathering every layer at each edit would take seconds);
        undone, they are current again."""
        if self.overview_dialog is None:
            return
        from ...core.scenario import same_changes, same_scenario
        (then, then_file), (now, now_file) = self._overview_basis, self._overview_numbers()
        if now.live is not None:  # any layer shown, with the same changes to the model
            current = then.live is not None and same_changes(then.live.changes, now.live.changes)
        else:  # any layer of the file as it is, or the very numbers the overview was made with
            current = (then_file and now_file) or same_scenario(then, now)
        self.overview_dialog.set_stale(not current)

    def show_head(self, layer: int, head: int) -> None:
        """Layer `layer` with head `head` active (the overview's click)."""
        d = self.document
        d.select(head=min(head, len(d.scenario.heads) - 1))
        if d.scenario.layer is not None and d.scenario.layer[0] != layer:
            self.open_layer(layer)

    def _compare_layers(self):
        s = self.document.scenario
        layer, ok = QInputDialog.getInt(self, tr("Compare with another layer"),
                                        tr("Layer (0 to {0}) to set beside layer {1}:").format(s.layer[1] - 1, s.layer[0]),
                                        (s.layer[0] + 1) % s.layer[1], 0, s.layer[1] - 1)
        if ok:
            self.compare_layer(layer)

    def compare_layer(self, layer: int) -> None:
        """The layer shown now (A) beside another layer of the same model (B), B − A per head."""
        from ...core import llama
        from ...core.io import load_scenario
        s, path = self.document.scenario, self.document.path
        if s.live is not None:
            self.runner.when_ready(lambda result: self.compare_with(lambda: llama.another_layer(s, result, layer)))
        else:
            self.compare_with(lambda: load_scenario(path, layer))  # read off the GUI thread

    def compare_presets(self, a: str, b: str) -> None:
        """Open preset `a` in the window and show it beside `b` (the Help menu's pairs)."""
        if self.open_scenario(a):
            self.compare_with(open_named(b)[0])

    def compare_with(self, other) -> "CompareDialog":
        """The scenario shown now (A) beside `other` (B, or a function that makes it, called off the
        GUI thread), with B − A for each head; built off the GUI thread, with progress and Cancel.
        If B cannot be made, say why and show nothing."""
        from ..compare.dialog import CompareDialog
        dialog = CompareDialog(self.document.scenario, other, self)
        dialog.failed.connect(lambda message: self.warn(tr("Cannot open"), message))
        dialog.finished.connect(lambda *_: self._forget_compare(dialog))  # closed, cancelled or failed
        self.compare_dialog = dialog
        dialog.show()
        return dialog

    def _forget_compare(self, dialog) -> None:
        if self.compare_dialog is dialog:
            self.compare_dialog = None

    # ------------------------------------------------------------- messages and title

    def report(self, message: str) -> None:
        """Show a refused input where the user is looking; nothing else changes."""
        self.message.setText(message)
        self.statusBar().setToolTip(message)

    def _clear_message(self):
        if self.message.text():  # clearing an empty label still repaints the status bar, at every edit
            self.message.clear()

    def display_name(self) -> str:
        live = self.document.scenario.live
        return live.model.config.name if live is not None and self.document.source is None else \
            source_name(self.document.source)

    def _update_title(self, *_):
        self.setWindowTitle(f"{self.display_name()}[*] — AttnViz")
        self.setWindowModified(self.document.modified)

    # ------------------------------------------------------------- files

    def open_scenario(self, name, layer: int = 0) -> bool:
        """Open a preset id or a file (one layer of a model's file); on failure say why and keep
        what is open."""
        if not self.maybe_save():
            return False
        if isinstance(name, str) and os.path.isfile(name) and sessions.looks_like_session(name):
            return self.open_session(name)
        try:
            scenario, source = resolve(name) if layer == 0 else open_named(str(name), layer)
        except ScenarioError as e:
            self.warn(tr("Cannot open"), describe(e))
            return False
        self.document.replace(scenario, source)
        settings.set_last_scenario(source)
        if source and not source.startswith("preset:"):
            settings.remember_recent(source)
        return True

    def open_layer(self, layer: int) -> bool:
        """Another layer of the model's file that is open (asking first about unsaved edits),
        keeping the head and the query, to compare one head across layers. A real model's
        layers come from its run, with every change made so far (a view, not an undo step)."""
        d = self.document
        if d.scenario.live is not None:
            head, query, scenario = d.active_head, d.query, d.scenario
            self.runner.when_ready(lambda result: self._show_model_layer(scenario, result, layer, head, query))
            return True
        source = d.source
        if not source or source.startswith("preset:") or not self._other_layers():
            return False
        head, query = d.active_head, d.query
        opened = self.open_scenario(source, layer)
        if opened:
            d.select(head=head, query=query)
        self.selectors.refresh()  # refused or cancelled: the chooser goes back to the layer shown
        return opened

    # ------------------------------------------------------------- the real model

    def real_model_dialog(self):
        from ..model.dialog import ModelDialog
        dialog = ModelDialog(self, self.document.scenario.live.text if self.document.scenario.live else None)
        if dialog.exec() == QDialog.Accepted:
            self.run_model(dialog.chosen_text(), dialog.path)

    def run_model(self, text: str, path=None) -> bool:
        """Read `text` with the real model (loaded once, off the GUI thread); it opens when it has run."""
        if not self.maybe_save():
            return False
        self.runner.start(text, path)
        return True

    def _model_progress(self, what: str, done: int, total: int):
        self._show_model_progress()
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.setFormat({"load": tr("Loading the model: %v of %m layers"),
                                 "tokens": tr("Reading the text…")}.get(what, tr("Running the model…")))
        self.progress.setToolTip(self.progress.format())

    def _show_model_progress(self):
        """The progress while the model works; Cancel while a new text is read."""
        self.progress.setVisible(self.runner.busy)
        self.cancel_model.setVisible(self.runner.reading())

    def _model_ran(self, model, encoded, result):
        from ...core import llama
        self._show_model_progress()
        try:
            scenario = llama.scenario(model, encoded, result, 0)
        except ScenarioError as e:  # said every time, not once a session as an unexpected error is
            self.warn(tr("Cannot run the model"), describe(e))
            return
        self.document.replace(scenario, None)
        self._update_title()

    # ------------------------------------------------------------- a real model's session

    def open_session(self, path: str, crash_copy=None) -> bool:
        """Open a saved real-model session: the model runs again with every change (off the GUI
        thread), and the layer, head and query come back as they were."""
        try:
            session, meta = sessions.read_session(path)
        except ScenarioError as e:
            self.warn(tr("Cannot open"), describe(e))
            return False
        source = autosave.original_source(meta) if crash_copy else os.path.abspath(path)
        self._restoring = crash_copy  # a crash copy is kept until its session is back on screen
        self.runner.start_session(session, source)
        return True

    def _session_restored(self, model, encoded, result, session, source):
        from ...core import llama
        self._show_model_progress()
        self.document.replace(llama.scenario(model, encoded, result, session.view.layer), source)
        self.document.select(head=session.view.head, query=session.view.query)
        if source and not self._restoring:
            settings.remember_recent(source)
        self._restored_copy()
        self._update_title()

    def _session_mismatch(self, session, error, source):
        self._show_model_progress()
        answer = QMessageBox.question(
            self, tr("The session's model cannot be had"),
            tr("{0}. Open the layer that was shown as a plain scenario instead (its numbers, without the "
               "model)?").format(describe(error)), QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
        copy, self._restoring = self._restoring, None
        if copy is not None:  # the changes in other layers live on in the copy, set aside
            self.tell_kept(autosave.set_aside(copy), error)
        if answer != QMessageBox.Yes:
            return
        try:
            scenario = sessions.shown_scenario(session)
        except ScenarioError as e:
            self.warn(tr("Cannot open"), describe(e))
            return
        self.document.replace(scenario, None)
        if copy is not None:
            self.document.undo_stack.resetClean()  # restored work is unsaved work
        self._update_title()

    def _restored_copy(self) -> None:
        """A crash copy's session is back: it is unsaved work again, copied anew, the old copy gone."""
        copy, self._restoring = self._restoring, None
        if copy is None:
            return
        self.document.undo_stack.resetClean()
        autosave.remove(copy)
        if self.autosave is not None:
            self.autosave.write_now()

    def _save_session(self, path: str) -> None:
        d = self.document
        identity = sessions.identity(d.scenario.live.model)
        sessions.save_session(sessions.session_of(d.scenario, d.active_head, d.query, identity), path)

    def _model_failed(self, message: str):
        self._show_model_progress()
        self.warn(tr("Cannot run the model"), message)

    def _model_cancelled(self):
        self._show_model_progress()
        self.report(tr("Cancelled: the window is as it was"))

    def _show_model_layer(self, scenario, result, layer, head, query):
        from ...core import llama
        d = self.document
        if d.scenario is not scenario or scenario.live.layer == layer:
            self.selectors.refresh()
            return
        d.show(llama.another_layer(scenario, result, layer))
        d.select(head=head, query=query)

    def open_dialog(self):
        path, _ = QFileDialog.getOpenFileName(self, tr("Open scenario"), self._folder(), FILE_FILTER)
        if path:
            self.open_scenario(path)

    def save(self) -> bool:
        """Save to the scenario's own file; a model's file (or none) asks for a new name. A real
        model's session is saved as a session (its text, model and every change)."""
        path = self.document.path
        if self.document.scenario.live is not None:
            return self.save_to(path) if path and sessions.is_session_path(path) else self.save_as()
        if path is None or os.path.splitext(path)[1].lower() not in SAVE_FILTERS or holds_layers(path):
            return self.save_as()
        return self.save_to(path)

    def save_as(self, path=None) -> bool:
        if self.document.scenario.live is not None:
            if not path:
                path, _ = QFileDialog.getSaveFileName(self, tr("Save the model session"), self._suggested_name(),
                                                      SESSION_FILTER)
            return bool(path) and self.save_to(sessions.session_path(path))
        if not path:
            suggestion = self._suggested_name()
            chosen = SAVE_FILTERS[os.path.splitext(suggestion)[1]]
            path, chosen = QFileDialog.getSaveFileName(self, tr("Save scenario"), suggestion,
                                                       ";;".join(SAVE_FILTERS.values()), chosen)
            path = _with_suffix(path, chosen) if path else path
        if not path:
            return False
        if os.path.splitext(path)[1].lower() not in SAVE_FILTERS:
            path += ".npz" if too_large_for_json(self.document.scenario) else ".json"
        return self.save_to(path)

    def _suggested_name(self) -> str:
        """The scenario's name, as .npz when it is too large for JSON; never the model's own file
        (a scenario holds one layer: saving it over the model's file would lose the others)."""
        d = self.document
        if d.scenario.live is not None:
            return os.path.join(self._folder(), sessions.session_path(self.display_name()))
        stem = self.display_name().rsplit(".", 1)[0]
        if d.path and holds_layers(d.path):
            stem += f"-layer{d.scenario.layer[0]}" if d.scenario.layer else "-edited"
        suffix = ".npz" if too_large_for_json(d.scenario) else ".json"
        return os.path.join(self._folder(), stem + suffix)

    def save_to(self, path: str) -> bool:
        path = os.path.abspath(path)
        if self.document.changed_on_disk(path) and self.ask_overwrite_changed(path) != QMessageBox.Save:
            return False
        try:
            if self.document.scenario.live is not None:
                self._save_session(path)
            else:
                save_scenario(self.document.scenario, path)
        except ScenarioError as e:
            self.warn(tr("Cannot save"), describe(e))
            return False
        self.document.mark_saved(path)
        settings.remember_recent(path)
        settings.set_last_scenario(path)
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

    def ask_overwrite_changed(self, path: str):
        """Another program (or another AttnViz) wrote the file since it was opened here."""
        return QMessageBox.warning(
            self, tr("The file changed on disk"),
            tr("{0} was changed by another program since AttnViz opened it. Saving replaces those changes "
               "with what you see here. Save anyway?").format(os.path.basename(path)),
            QMessageBox.Save | QMessageBox.Cancel, QMessageBox.Cancel)

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
            self.classroom.save()
            if self.autosave is not None:
                self.autosave.close()
            self.runner.shutdown()
            if self.errors is not None:
                self.errors.uninstall()
            event.accept()
        else:
            event.ignore()

    def _folder(self) -> str:
        path = self.document.path
        return os.path.dirname(path) if path else os.getcwd()

    def recent_files(self) -> list[str]:
        return settings.recent_files()

    def _fill_recent_menu(self):
        self.recent_menu.clear()
        for path in settings.recent_files():
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_scenario(p))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(tr("(none yet)")).setEnabled(False)

    # ------------------------------------------------------------- exports

    def figure(self, kind: str = "head", caption: bool = True) -> Figure:
        """What the window shows, as a figure: the active head, all heads, or the query's steps."""
        d = self.document
        options = FigureOptions(kind=kind, head=d.active_head, query=d.query, caption=caption,
                                colormap=self.classroom.colormap)
        return Figure(d.scenario, d.result, options)

    def export_image(self, path: str, kind: str = "head", width: int = 2400, caption: bool = True) -> bool:
        return self._export(lambda: export_figure(self.figure(kind, caption), path, width), path)

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
        return self._export(lambda: export_data(self.document.scenario, self.document.result, path), path)

    def _export(self, write, path: str) -> bool:
        """Write an export; a refused path or a failed write is said, and nothing else changes."""
        try:
            write()
        except ScenarioError as e:
            self.warn(tr("Cannot export"), describe(e))
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
            self.report(describe(e))
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


def _math_views(widget) -> list:
    from ..common.lazy import MathView
    return ([widget] if isinstance(widget, MathView) else []) + widget.findChildren(MathView)


def source_name(source: str | None) -> str:
    """What the title bar calls a scenario: its file's name, its preset id, or "untitled"."""
    if source is None:
        return tr("untitled")
    if source.startswith("preset:"):
        return source[len("preset:"):]
    return os.path.basename(source)


def _with_suffix(path: str, chosen_filter: str) -> str:
    """Add the chosen filter's suffix when the name has none (file dialogs differ in this)."""
    if os.path.splitext(path)[1]:
        return path
    start = chosen_filter.find("*.")
    return path + (chosen_filter[start + 1:chosen_filter.find(")", start)].split()[0] if start >= 0 else "")
