"""File → Export image…: what to export, at what width, with or without a caption."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
)

from ..common.i18n import tr
from .files import WIDTH_RANGE


class ExportDialog(QDialog):
    def __init__(self, parent=None, kind="head", width=2400, caption=True):
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(tr("Export image"))
        self.kinds = QButtonGroup(self)
        layout = QVBoxLayout(self)
        for name, text in (("head", tr("The active head's heatmap")),
                           ("all", tr("All heads in one grid")),
                           ("step", tr("The selected query: its steps beside the heatmap"))):
            button = QRadioButton(text, objectName=f"export_{name}")
            button.setChecked(name == kind)
            button.kind = name
            self.kinds.addButton(button)
            layout.addWidget(button)
        form = QFormLayout()
        self.width = QSpinBox(objectName="exportWidth")
        self.width.setRange(*WIDTH_RANGE)
        self.width.setSingleStep(100)
        self.width.setValue(width)
        self.width.setSuffix(" px")
        self.width.setToolTip(tr("Width of a PNG in pixels; SVG and PDF are vector and scale freely"))
        form.addRow(tr("PNG width"), self.width)
        self.caption = QCheckBox(tr("Caption with the head's name and the settings"), objectName="exportCaption")
        self.caption.setChecked(caption)
        layout.addLayout(form)
        layout.addWidget(self.caption)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def kind(self) -> str:
        return self.kinds.checkedButton().kind
