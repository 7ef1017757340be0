"""All heads' panels in a grid that fits 2 heads and 12 alike, with the one shared colour bar."""
from __future__ import annotations

import math

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from .heatmap import ColorBar, HeadPanel


class HeadsView(QWidget):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.setObjectName("headsView")
        self.document = document
        self.panels: list[HeadPanel] = []
        self.grid = QGridLayout()
        self.grid.setSpacing(6)
        self.colorbar = ColorBar()
        self.description = QLabel(objectName="descriptionLabel")
        self.description.setWordWrap(True)
        self.description.setTextFormat(Qt.PlainText)
        row = QHBoxLayout()
        row.addLayout(self.grid, 1)
        row.addWidget(self.colorbar)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.description)
        layout.addLayout(row, 1)
        document.replaced.connect(self.rebuild)
        document.changed.connect(self.refresh)
        document.selectionChanged.connect(self.refresh)
        self.rebuild()

    def rebuild(self):
        """New panels only when the number of heads changes (a different scenario)."""
        count = len(self.document.scenario.heads)
        if count != len(self.panels):
            for panel in self.panels:
                self.grid.removeWidget(panel)
                panel.setParent(None)  # gone from findChild() now, not at the next event loop turn
                panel.deleteLater()
            self.panels = [HeadPanel(self.document, i, self) for i in range(count)]
            columns = math.ceil(math.sqrt(count))
            for i, panel in enumerate(self.panels):
                self.grid.addWidget(panel, i // columns, i % columns)
        self.show_description()
        self.refresh()

    def show_description(self, lang: str | None = None):
        """The scenario's story (what to look for), in the interface's language."""
        lang = lang or QLocale().name()[:2]
        text = self.document.scenario.text("description", lang)
        self.description.setText(text)
        self.description.setVisible(bool(text))

    def refresh(self):
        for panel in self.panels:
            panel.refresh()

    def panel(self, index: int) -> HeadPanel:
        return self.panels[index]
