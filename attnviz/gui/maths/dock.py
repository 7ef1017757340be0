"""See the maths: the maths views' tabs in their dock (geometry, √d_k, softmax, kernel,
before/after, lines, x·W, softmax in three places), made when first shown, since they need pyqtgraph."""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QTabWidget, QWidget

from ..common.i18n import tr
from ..common.lazy import MathView

# The tabs in their order, by the command line's ids (`attnviz screenshot --presentation --view ID`).
TAB_IDS = ("geometry", "sqrt-dk", "softmax", "kernel", "before-after", "lines", "linear", "softmax-places")


class MathsPanel:
    def __init__(self, document, view, report, dock):
        self.document, self.view, self.report, self.dock = document, view, report, dock
        self.tabs: QTabWidget | None = None
        self.views: list = []
        # The views behind the step table's tab catch up when they come forward. (A third dock in
        # this tab group made Qt repaint the whole window at every edit: the lines view is one of
        # the maths tabs instead.)
        dock.visibilityChanged.connect(lambda shown: shown and QTimer.singleShot(0, dock, self._sync))

    def made(self) -> bool:
        return self.tabs is not None

    def widget(self) -> QTabWidget:
        """The tabs, made on first use."""
        if self.tabs is None:  # pyqtgraph's import (~170 ms measured) waits for the maths tabs
            from .geometry import GeometryView
            from .linear import LinearView
            from .lines import LinesView
            from .places import SoftmaxPlacesView
            from .views import DiffView, KernelView, SoftmaxView, SqrtDkExplorer
            d, view = self.document, self.view
            self.tabs = QTabWidget(objectName="mathsTabs")
            self.views = [GeometryView(d, self.report), SqrtDkExplorer(d, view), SoftmaxView(d), KernelView(d, view),
                          DiffView(d), LinesView(d), LinearView(d), SoftmaxPlacesView(d)]
            for view in self.views:
                self.tabs.addTab(view, "")
            self.dock.setWidget(self.tabs)
            self.retranslate()
        return self.tabs

    def lines(self):
        """The lines view (token to token), brought to the front."""
        view = self.tab_view("lines")
        self.tabs.setCurrentWidget(view)
        return view

    def present(self, tab_id: str | None, on: bool = True) -> QWidget:
        """Presenting, one view full screen: the tab `tab_id` (TAB_IDS) in front, its type presentation-sized,
        the tab bar hidden (the presentation's keys choose another). Off (or None): every view as on the
        desk, the tab bar back. Returns the tabs, the widget to show. An unknown id is a ValueError."""
        tabs = self.widget()
        index = TAB_IDS.index(tab_id) if tab_id is not None else None  # ValueError names the bad id
        on = on and index is not None
        if on:
            tabs.setCurrentIndex(index)
        for i, view in enumerate(self.views):
            view.set_presentation(on and i == index)
        tabs.tabBar().setVisible(not on)
        return tabs

    def tab_view(self, tab_id: str) -> QWidget:
        """The view of the tab `tab_id` (TAB_IDS), made if need be."""
        self.widget()
        return self.views[TAB_IDS.index(tab_id)]

    def retranslate(self) -> None:
        if self.tabs is not None:
            for i, text in enumerate((tr("Geometry"), tr("√dₖ"), tr("Softmax"), tr("Kernel"), tr("Before / after"),
                                      tr("Lines"), tr("Linear: x·W"), tr("Softmax: 3 places"))):
                self.tabs.setTabText(i, text)

    def _sync(self) -> None:
        widget = self.dock.widget()
        views = ([widget] if isinstance(widget, MathView) else []) + widget.findChildren(MathView)
        for view in views:
            view.sync_if_shown()
