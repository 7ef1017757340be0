"""The window's parts and where they sit: the heads in the centre, the q/k/v tables (or the layer
from X to O) on the left, one query's steps (or the maths) below, the next token on the right,
the toolbar above; and the same parts rearranged for a projector."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTabBar,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ..common.i18n import tr
from ..heads.view import QWIDGETSIZE_MAX, HeadsView
from ..layer.view import LayerView
from ..maths.dock import MathsPanel
from ..model.next_token import NextTokenView
from ..steps.table import StepView
from ..tables.controls import PresentationControls, QuerySliders, Selectors, SettingsBar
from ..tables.vectors import VectorTables


class Parts:
    def __init__(self, window, document, view, report, runner):
        self.window, self.document = window, document
        d = document
        self.heads = HeadsView(d, view, report)
        # Presenting another view than the heads, it is lent to the stage, which takes the heads' place.
        self.stage = QWidget(objectName="presentedStage")
        QVBoxLayout(self.stage).setContentsMargins(0, 0, 0, 0)
        self.centre = QStackedWidget(objectName="centre")
        self.centre.addWidget(self.heads)
        self.centre.addWidget(self.stage)
        window.setCentralWidget(self.centre)
        self._lent = None  # (the widget on the stage, how it goes back)
        self._docks_to_restore = None  # the remembered dock layout, restored once the window is shown
        self.presenting = False  # the docks' visibility is the presentation's until it ends
        self._replaced = False   # another scenario was opened while presenting
        self.notice = QLabel(objectName="presentedNotice", wordWrap=True, alignment=Qt.AlignCenter)
        self.notice.hide()  # presented instead of a view this scenario does not have
        self.tables = VectorTables(d, report)
        self.vectors_dock = self._dock("vectorsDock", self.tables, Qt.LeftDockWidgetArea)
        self.pipeline = None  # the layer view, made for scenarios with X and W matrices
        self.pipeline_dock = self._dock("pipelineDock", QWidget(), Qt.LeftDockWidgetArea)
        self.pipeline_dock.hide()  # tabbed beside the tables only when a scenario has a layer to show
        self.report = report
        self.sliders = QuerySliders(d, report)
        self.steps = StepView(d, view)
        self.steps_split = QSplitter(Qt.Horizontal)
        self.steps_split.addWidget(self.sliders)
        self.steps_split.addWidget(self.steps)
        self.steps_split.setStretchFactor(1, 3)
        self.presenter = PresentationControls(d, report)  # shown beside the steps while presenting
        self.presenter.hide()
        self.steps.spare.connect(self.presenter.fold)  # a long sentence's rows before the controls
        column = QWidget(objectName="stepColumn")
        stack = QVBoxLayout(column)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.addWidget(self.steps_split, 1)
        stack.addWidget(self.presenter)
        self.steps_dock = self._dock("stepDock", column, Qt.BottomDockWidgetArea)
        self.maths_dock = self._dock("mathsDock", QWidget(), Qt.BottomDockWidgetArea)
        self.maths = MathsPanel(d, view, report, self.maths_dock)
        window.tabifyDockWidget(self.steps_dock, self.maths_dock)
        self.steps_dock.raise_()
        self.maths_dock.visibilityChanged.connect(self._maths_shown)
        self.next_dock = self._dock("nextTokenDock", NextTokenView(runner), Qt.RightDockWidgetArea)
        self.next_dock.hide()
        self.selectors = Selectors(d)
        self.settings_bar = SettingsBar(d, report)
        self.toolbar = QToolBar(objectName="controlsToolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(self.selectors)
        self.toolbar.addSeparator()
        self.toolbar.addWidget(self.settings_bar)
        window.addToolBar(Qt.TopToolBarArea, self.toolbar)
        # The tables run the window's full height on the left, so all ten rows of q, k and v of
        # the tutorial's sentence fit on a 1920 × 1080 screen.
        window.setCorner(Qt.BottomLeftCorner, Qt.LeftDockWidgetArea)
        d.replaced.connect(self.show_pipeline)

    def _dock(self, name, widget, area) -> QDockWidget:
        dock = QDockWidget(self.window, objectName=name)
        dock.setWidget(widget)
        # Closable: the View menu's toggles need it (Qt disables them otherwise), and a closed
        # panel comes back from there.
        dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable |
                         QDockWidget.DockWidgetClosable)
        self.window.addDockWidget(area, dock)
        return dock

    def docks(self) -> list[QDockWidget]:
        """In the View menu's order."""
        return [self.vectors_dock, self.pipeline_dock, self.steps_dock, self.maths_dock, self.next_dock]

    def retranslate(self) -> None:
        for dock, title in ((self.vectors_dock, tr("q, k, v of the active head")),
                            (self.steps_dock, tr("One query, step by step")), (self.maths_dock, tr("See the maths")),
                            (self.pipeline_dock, tr("The layer: X to O")), (self.next_dock, tr("Next token"))):
            dock.setWindowTitle(title)
        self.toolbar.setWindowTitle(tr("Toolbar: head, query, mask, temperature"))
        self.maths.retranslate()

    def bring_forward(self, dock) -> None:
        """Make a tabbed dock the one shown. (QDockWidget.raise_() does not switch the tab
        while the window is being laid out; choosing the tab does.)"""
        dock.raise_()
        for bar in self.window.findChildren(QTabBar):
            if bar.parent() is self.window:
                for i in range(bar.count()):
                    if bar.tabText(i) == dock.windowTitle():
                        bar.setCurrentIndex(i)

    def show_pipeline(self, *_) -> None:
        """The layer view comes forward when the scenario has X and W matrices, and goes otherwise;
        the q, k, v tables go away for a model's weights (there are none)."""
        s, window = self.document.scenario, self.window
        layered = s.projection is not None
        if layered and self.pipeline is None:
            self.pipeline = LayerView(self.document, self.report)
            self.pipeline_dock.setWidget(self.pipeline)
        if self.presenting:  # the presentation keeps its layout; the desk is laid out for it on leaving
            self._replaced = True
            return
        self.vectors_dock.setVisible(not s.weights_only)
        self.vectors_dock.toggleViewAction().setEnabled(not s.weights_only)
        self.pipeline_dock.toggleViewAction().setEnabled(layered)
        self.next_dock.setVisible(s.live is not None)
        self.next_dock.toggleViewAction().setEnabled(s.live is not None)
        if layered and not window.tabifiedDockWidgets(self.vectors_dock):
            window.tabifyDockWidget(self.vectors_dock, self.pipeline_dock)
        self.pipeline_dock.setVisible(layered)
        if layered:
            QTimer.singleShot(0, self.window, lambda: self.bring_forward(self.pipeline_dock))

    def _maths_shown(self, shown: bool) -> None:
        """The maths views need room: the first time they come forward, give them half the height."""
        if shown and not self.maths.made():
            self.maths.widget()
            self.window.resizeDocks([self.maths_dock], [max(300, self.window.height() // 2)], Qt.Vertical)

    def show_lines(self):
        self.bring_forward(self.maths_dock)
        return self.maths.lines()

    # ------------------------------------------------------------- what the classroom is given

    def dialog_parent(self) -> QWidget:
        return self.window

    def next_token(self) -> QWidget:
        return self.next_dock.widget()

    def saved_layout(self) -> tuple:
        return self.window.saveGeometry(), self.window.saveState()

    def restore_layout(self, geometry, state) -> None:
        """The remembered size now; the docks' layout once the window is shown (restore_docks)."""
        if geometry is not None:
            self.window.restoreGeometry(geometry)
        self._docks_to_restore = state

    def restore_docks(self) -> None:
        """On first show. Restored while hidden, Qt 6 keeps the layout pending until the window system
        gives the window its size (up to 150 ms more), and docks moved meanwhile (a lesson going
        full screen at start-up) crash inside it. Restored while visible, it is applied at once."""
        state, self._docks_to_restore = self._docks_to_restore, None
        if state is not None:
            self.window.restoreState(state)

    def screen_size(self):
        return self.window.screen().geometry().size()

    def hide_chrome(self) -> None:
        """Presenting: the menus, toolbar, tables and maths go; the steps move beside the heads."""
        w = self.window
        self.presenting, self._replaced = True, False
        for widget in (w.menuBar(), w.statusBar(), self.toolbar, self.vectors_dock, self.pipeline_dock,
                       self.maths_dock, self.sliders):
            widget.hide()  # the layer too: at desk size beside the big head, it squeezed the head
        w.addDockWidget(Qt.RightDockWidgetArea, self.steps_dock)
        self.steps_dock.show()
        for dock in (self.steps_dock, self.next_dock):
            dock.setTitleBarWidget(QWidget(dock))  # no title bar: its small type is not for the back row
        # The steps' tab beside the maths' on a desk restored from the settings leaves its tab bar behind,
        # which Qt keeps shown where the desk had it: no height while presenting, it never shows over a
        # lesson's caption grown over there.
        for bar in self._dock_tab_bars():
            bar.setMaximumHeight(0)

    def _dock_tab_bars(self) -> list[QTabBar]:
        return self.window.findChildren(QTabBar, options=Qt.FindDirectChildrenOnly)

    def fill_screen(self, steps_share: float, slider_share: float) -> None:
        """Full screen, the steps and controls a fixed share of its width beside the heads (so the
        big head keeps its large type); a real model's next token above the steps, a third of
        the height."""
        w = self.window
        w.showFullScreen()
        size = self.screen_size()
        _lay_out()  # a dock just shown (a real model's next token) may have grown the window
        if w.size() != size:  # full screen comes later from the window system: the docks' share is of the screen
            w.resize(size)
        self.presenter.set_slider_width(int(size.width() * slider_share))
        w.resizeDocks([self.steps_dock], [int(size.width() * steps_share)], Qt.Horizontal)
        if self.next_dock.isVisible():
            # Of the height the strips across the whole screen leave (a lesson's caption): shares of the
            # screen's own would ask for more than there is, and the window would grow past the screen.
            across = [d for d in w.findChildren(QDockWidget) if d.isVisible() and d.parent() is w
                      and d not in (self.next_dock, self.steps_dock) and w.dockWidgetArea(d) == Qt.BottomDockWidgetArea]
            room = size.height() - sum(d.height() for d in across)
            w.resizeDocks([self.next_dock, self.steps_dock], [room // 3, room * 2 // 3], Qt.Vertical)
        _lay_out()
        if w.size() != size:  # the docks, shared out anew, fit the screen again
            w.resize(size)
            _lay_out()

    def leave(self, geometry, state) -> None:
        """Back to the desk as it was before presenting."""
        w = self.window
        for widget in (w.menuBar(), w.statusBar(), self.sliders):
            widget.show()
        for dock in (self.steps_dock, self.next_dock):
            dock.setTitleBarWidget(None)  # the desk's title bar again
        for bar in self._dock_tab_bars():
            bar.setMaximumHeight(QWIDGETSIZE_MAX)
        self.present(None)  # after the sliders: the step table goes back beside them at the sizes they had
        _lay_out()  # the views given back are laid out before the desk's sizes return
        w.showNormal()
        w.restoreState(state)
        w.restoreGeometry(geometry)
        self.presenting = False
        if self._replaced:
            self.show_pipeline()

    # ------------------------------------------------------------- one view presented at a time

    def present(self, view, side_by_side: bool = False, overview=None, compare=None) -> QWidget | None:
        """Presenting, `view` (a classroom/views.py record) fills the screen: the heads (the big one with
        the steps beside it, or every head side by side), or another view lent to the stage. None:
        everything back where it was on the desk. Returns the widget presented."""
        self._give_back()
        if view is None or view.id == "heads":
            self.centre.setCurrentWidget(self.heads)
            self.steps_dock.setVisible(view is not None and not side_by_side)
            self.next_dock.setVisible(view is not None and not side_by_side and self.document.scenario.live is not None)
            return self.heads if view is not None else None
        self.steps_dock.hide()
        self.next_dock.hide()
        widget, back = self._borrow(view, overview, compare)
        self._lent = (widget, back)
        self.stage.layout().addWidget(widget)
        widget.show()
        self.centre.setCurrentWidget(self.stage)
        self.window.activateWindow()  # the overview was a window of its own: the keys are the window's again
        self.window.setFocus()
        return widget

    def _borrow(self, view, overview, compare=None):
        """The widget presenting `view`, and how it goes back to its place on the desk."""
        if view.id == "compare":  # a comparison made for the stage: closed when another view is chosen
            dialog = compare()
            dialog.lend()
            return dialog, dialog.close
        if view.id == "steps":  # the step table with the controls below it (H), as beside the big head
            column = self.steps_dock.widget()
            return column, lambda: self.steps_dock.setWidget(column)
        if view.maths_tab is not None:
            tabs = self.maths.widget()
            tabs.setCurrentIndex(view.maths_tab)
            tabs.tabBar().hide()  # one view, full screen: Tab and the number keys choose another
            return tabs, lambda: (tabs.tabBar().show(), self.maths_dock.setWidget(tabs))
        if view.id == "layer":
            if self.document.scenario.projection is None or self.pipeline is None:
                return self._notice(tr("This scenario has no layer from X to O to show: open projection-demo, "
                                       "gqa-demo or a position preset."))
            widget = self.pipeline_dock.widget()
            return widget, lambda: self.pipeline_dock.setWidget(widget)
        dialog, was_open = overview()  # the overview's dialog, shown inside the window while presented
        if dialog is None:  # a real model's: made once its run is ready
            return self._notice(tr("The overview is being gathered: press 0 again in a moment."))
        flags = dialog.windowFlags()
        dialog.setWindowFlags(Qt.Widget)
        return dialog, lambda: (dialog.setParent(self.window, flags), dialog.setVisible(was_open))

    def _notice(self, text: str):
        self.notice.setText(text)
        return self.notice, lambda: (self.notice.hide(), self.notice.setParent(None))

    def _give_back(self) -> None:
        if self._lent is None:
            return
        widget, back = self._lent
        self._lent = None
        self.stage.layout().removeWidget(widget)
        back()

    def presented(self) -> QWidget | None:
        """The widget on the stage (None while the heads are presented, or on the desk)."""
        return self._lent[0] if self._lent else None


def _lay_out() -> None:
    """Lay out now what the lines above changed: the layout requests alone. All posted events
    would include a model run's queued signals, whose handlers then run inside the presentation
    being laid out (the whole test suite crashed there, in a lesson's scenes)."""
    QApplication.sendPostedEvents(None, QEvent.LayoutRequest)
