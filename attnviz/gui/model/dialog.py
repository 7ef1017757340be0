"""File → Real model…: the text the model reads, and which model (the built-in SmolLM2 by default)."""
from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from ...core import llama
from ..common.i18n import current_language, tr

EXAMPLES = {"ja": "猫が魚を食べた。それは新鮮だった。", "en": "The cat ate the fish. It was fresh."}


class ModelDialog(QDialog):
    def __init__(self, parent=None, text: str | None = None):
        super().__init__(parent)
        self.setObjectName("modelDialog")
        self.setWindowTitle(tr("Real model"))
        self.path = None  # None: the built-in model
        self.text = QPlainTextEdit(objectName="modelText")
        self.text.setPlainText(text or EXAMPLES.get(current_language(), EXAMPLES["en"]))
        self.text.selectAll()  # typing replaces the example; the arrow keys keep it
        self.which = QLabel(objectName="modelWhich", wordWrap=True)
        choose = QPushButton(tr("Another GGUF file…"), objectName="modelChoose")
        choose.clicked.connect(self._choose)
        buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.run = buttons.addButton(tr("Run"), QDialogButtonBox.AcceptRole)
        self.run.setObjectName("modelRun")
        self.run.setDefault(True)
        self.run.setToolTip(tr("Run (Ctrl+Enter)"))
        self.text.installEventFilter(self)  # Ctrl+Enter runs; Enter alone writes a new line
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        model_row = QHBoxLayout()
        model_row.addWidget(self.which, 1)
        model_row.addWidget(choose)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("The text the model reads (it runs on this computer, offline):")))
        layout.addWidget(self.text, 1)
        layout.addLayout(model_row)
        layout.addWidget(buttons)
        self.resize(640, 320)
        self._describe()

    def eventFilter(self, obj, event):
        if (obj is self.text and event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter)
                and event.modifiers() & Qt.ControlModifier):
            if self.run.isEnabled():
                self.run.click()
            return True
        return super().eventFilter(obj, event)

    def _describe(self):
        if self.path is not None:
            self.which.setText(tr("Model: {0}").format(self.path))
            self.run.setEnabled(True)
            return
        bundled = llama.bundled_model()
        if bundled is None and getattr(sys, "frozen", False):  # the standalone folder: no pip there
            self.which.setText(tr("This standalone AttnViz was built without the built-in model (SmolLM2-135M): "
                                  "choose a GGUF file of the llama architecture, or build AttnViz again with "
                                  "ATTNVIZ_BUNDLE_MODEL=1 make bundle."))
        elif bundled is None:
            self.which.setText(tr("The built-in model (SmolLM2-135M) is not installed. Install it with: {0}, "
                                  "or choose a GGUF file of the llama architecture.").format(llama.INSTALL_HINT))
        else:
            self.which.setText(tr("Model: SmolLM2-135M-Instruct (built in, 4-bit Q4_1 weights)"))
        self.run.setEnabled(bundled is not None)

    def _choose(self):
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose a model"), "", "GGUF (*.gguf);;* (*)")
        if path:
            self.path = path
            self._describe()

    def chosen_text(self) -> str:
        return self.text.toPlainText()
