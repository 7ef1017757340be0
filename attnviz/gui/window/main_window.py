"""The main window: an assembly. It makes the document and the view state, the parts (layout.py)
and each feature's controller, wires them, and is the Shell they talk to it through
(common/shell.py): the title, the status bar, a parent for their dialogs.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QMessageBox, QWidget

from ..classroom.classroom import Classroom
from ..common.i18n import Retranslated, current_language
from ..compare.controller import CompareController
from ..export.controller import Exports
from ..lessons.player import LessonPlayer
from ..look.fonts import install_fonts
from ..model.controller import ModelController
from ..overview.controller import OverviewController
from ..research.controller import ResearchController
from ..state import settings
from ..state.document import ScenarioDocument
from ..state.files import Files, resolve, source_name
from ..state.view import ViewState
from ..steer.controller import SteerController
from ..tables.tokens import TokenEditing
from .layout import Parts
from .menus import Features, Menus
from .recovery import Recovery


class MainWindow(Retranslated, QMainWindow):
    def __init__(self, scenario=None, parent=None):
        super().__init__(parent)
        # In an application AttnViz did not create (a notebook's %gui qt, another program) the
        # bundled Japanese font must be registered here, or 猫 is an empty box.
        install_fonts(QApplication.instance())
        self.setObjectName("mainWindow")
        loaded, source = resolve(scenario)
        self.document = d = ScenarioDocument(loaded, source, self)
        self.view = ViewState(language=current_language())
        self.message = QLabel(objectName="messageLabel")
        self.message.setStyleSheet("color: #d0302b; font-weight: bold;")
        self.statusBar().addWidget(self.message, 1)
        self._build_features()
        self.parts.selectors.layerRequested.connect(self.open_layer)
        self.parts.tables.tokenMenuRequested.connect(self.tokens.menu)
        d.changed.connect(self._clear_message)
        d.replaced.connect(self.update_title)
        d.undo_stack.cleanChanged.connect(self.update_title)
        self.resize(1500, 950)
        self.resizeDocks([self.parts.vectors_dock], [380], Qt.Horizontal)
        self.resizeDocks([self.parts.steps_dock], [380], Qt.Vertical)
        self.classroom.restore()
        self.parts.show_pipeline()
        self.retranslate()
        settings.set_last_scenario(source)

    def _build_features(self) -> None:
        d, view = self.document, self.view
        self.recovery = Recovery(d, self, lambda path, crash_copy=None: self.model.open_session(path, crash_copy),
                                 lambda: self.files.save_as())
        self.model = ModelController(d, self, lambda: self.files.maybe_save(), self.recovery)
        for widget in (self.model.progress, self.model.cancel):
            self.statusBar().addPermanentWidget(widget)
        self.files = Files(d, self, self.model.open_session)
        self.parts = Parts(self, d, view, self.report, self.model.runner)
        self.overview = OverviewController(d, self, view, self.model.runner, self.show_head)
        self.compare = CompareController(d, self, view, self.model.runner, self.files)
        self.exports = Exports(d, self, view, self.files.folder)
        self.tokens = TokenEditing(d, self)
        self.classroom = Classroom(self.parts, d, view, self.overview, self.compare)
        self.lessons = LessonPlayer(self, d, view, self.classroom, self.files, self.model.runner)
        self.research = ResearchController(d, self, self.model.runner, lambda: self.files.maybe_save())
        self.steer = SteerController(d, self, self.model.runner)
        self.menus = Menus(self, self.parts, d.undo_stack, Features(
            self.files, self.model, self.exports, self.tokens, self.overview, self.compare, self.classroom,
            self.lessons, self.research, self.steer))

    # ------------------------------------------------------------- what features ask of the window (Shell)

    def dialog_parent(self) -> QWidget:
        return self

    def report(self, message: str) -> None:
        """Show a refused input where the user is looking; nothing else changes."""
        self.message.setText(message)
        self.statusBar().setToolTip(message)

    def warn(self, title: str, message: str) -> None:
        self.report(message)
        QMessageBox.warning(self, title, message)

    def show_status(self, message: str, milliseconds: int = 5000) -> None:
        self.statusBar().showMessage(message, milliseconds)

    def display_name(self) -> str:
        live = self.document.scenario.live
        return live.model.config.name if live is not None and self.document.source is None else \
            source_name(self.document.source)

    def update_title(self, *_) -> None:
        """The file and whether it has unsaved changes; during a lesson, the lesson and the scene (its
        scenario is no file of the teacher's: the taskbar and Alt+Tab say what is being given)."""
        if self.lessons.active:
            self.setWindowTitle(f"{self.lessons.title()} — AttnViz")
            self.setWindowModified(False)
            return
        self.setWindowTitle(f"{self.display_name()}[*] — AttnViz")
        self.setWindowModified(self.document.modified)

    def _clear_message(self):
        if self.message.text():  # clearing an empty label still repaints the status bar, at every edit
            self.message.clear()

    # ------------------------------------------------------------- across features

    def open_layer(self, layer: int) -> bool:
        """Another layer of what is open, keeping the head and the query: a real model's from its
        run (with every change made so far), a model file's from the file (asking first about
        unsaved edits)."""
        if self.document.scenario.live is not None:
            self.model.show_layer(layer, refused=self.parts.selectors.refresh)
            return True
        opened = self.files.open_layer(layer)
        self.parts.selectors.refresh()  # refused or cancelled: the chooser goes back to the layer shown
        return opened

    def show_head(self, layer: int, head: int) -> None:
        """Layer `layer` with head `head` active (the overview's click)."""
        d = self.document
        d.select(head=min(head, len(d.scenario.heads) - 1))
        if d.scenario.layer is not None and d.scenario.layer[0] != layer:
            self.open_layer(layer)

    # ------------------------------------------------------------- Qt's events

    def showEvent(self, event):
        super().showEvent(event)
        self.parts.restore_docks()
        if self.document.scenario.projection is not None:  # a tabbed dock comes forward once shown
            QTimer.singleShot(0, self, lambda: self.parts.bring_forward(self.parts.pipeline_dock))

    def retranslate(self):
        """Every text of the window in the current language (Qt sends LanguageChange on a switch)."""
        self.menus.retranslate()
        self.parts.retranslate()
        self.model.retranslate()
        self.classroom.retranslate()
        self.update_title()

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:  # a switch, not the first texts: what was opened stays
            # A preset not edited since it opened: its version in that language. At the next turn, once
            # every widget has its new texts: replacing the scenario rebuilds views, which must not
            # happen while Qt is still handing LanguageChange to them.
            QTimer.singleShot(0, self, self._follow_language)
        super().changeEvent(event)

    def _follow_language(self) -> None:
        if self.isVisible():  # a closed window keeps what it showed
            self.files.follow_language()

    def closeEvent(self, event):
        if self.files.maybe_save():
            self.classroom.save()
            self.recovery.close_autosave()
            self.model.runner.shutdown()
            self.recovery.stop_catching()
            event.accept()
        else:
            event.ignore()
