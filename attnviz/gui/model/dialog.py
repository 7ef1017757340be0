"""File → Real model…: the text the model reads, which model reads it (the models AttnViz finds,
or a GGUF file or Hugging Face folder chosen here), and whether as a chat message."""
from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from ...core import lm
from ...core.lm import catalog, memory
from ...core.scenario import ScenarioError
from ..common.i18n import current_language, describe, tr
from ..state import settings

EXAMPLES = {"ja": "猫が魚を食べた。それは新鮮だった。", "en": "The cat ate the fish. It was fresh."}


class ModelDialog(QDialog):
    def __init__(self, parent=None, text: str | None = None, source=None, chat: bool = False):
        super().__init__(parent)
        self.setObjectName("modelDialog")
        self.setWindowTitle(tr("Real model"))
        self.text = QPlainTextEdit(objectName="modelText")
        self.text.setPlainText(text or EXAMPLES.get(current_language(), EXAMPLES["en"]))
        self.text.selectAll()  # typing replaces the example; the arrow keys keep it
        self.models = QComboBox(objectName="modelList")
        self.models.setToolTip(tr("The models AttnViz finds: the built-in one, Gemma 3 when installed, "
                                  "files and folders opened before, the Hugging Face cache"))
        self.models.currentIndexChanged.connect(lambda _: self._describe())
        choose = QPushButton(tr("Another GGUF file…"), objectName="modelChoose")
        choose.clicked.connect(self._choose)
        folder = QPushButton(tr("A Hugging Face folder…"), objectName="modelFolder")
        folder.clicked.connect(self._choose_folder)
        self.which = QLabel(objectName="modelWhich", wordWrap=True)
        self.memory = QComboBox(objectName="modelMemory")
        self.memory.setToolTip(tr("Compact: the weights stay in the file and each layer is dequantised when a pass "
                                  "reaches it (a 1B model in about its file's size). Fast: every weight in float32 "
                                  "(4 bytes a parameter), the quickest edits. Automatic: fast when it fits easily."))
        for way in memory.WAYS:
            self.memory.addItem("", way)
        self.memory.setCurrentIndex(max(0, self.memory.findData(settings.model_memory())))
        self.chat = QCheckBox(tr("Read it as a chat message (the model's chat template)"), objectName="modelChat")
        self.chat.setToolTip(tr("The text is put in the model's chat template as a user's message, ready for "
                                "its answer, as an instruct model was trained to read it"))
        buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.run = buttons.addButton(tr("Run"), QDialogButtonBox.AcceptRole)
        self.run.setObjectName("modelRun")
        self.run.setDefault(True)
        self.run.setToolTip(tr("Run (Ctrl+Enter)"))
        self.text.installEventFilter(self)  # Ctrl+Enter runs; Enter alone writes a new line
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        model_row = QHBoxLayout()
        model_row.addWidget(QLabel(tr("Model:")))
        model_row.addWidget(self.models, 1)
        model_row.addWidget(choose)
        model_row.addWidget(folder)
        memory_row = QHBoxLayout()
        memory_row.addWidget(QLabel(tr("Memory:")))
        memory_row.addWidget(self.memory, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("The text the model reads (it runs on this computer, offline):")))
        layout.addWidget(self.text, 1)
        layout.addLayout(model_row)
        layout.addWidget(self.which)
        layout.addLayout(memory_row)
        layout.addWidget(self.chat)
        layout.addWidget(buttons)
        self.resize(760, 360)
        self._problems: dict[str, str] = {}  # a chosen path that cannot be described -> why
        self._fill(source)
        self.chat.setChecked(chat and self.chat.isEnabled())

    def eventFilter(self, obj, event):
        if (obj is self.text and event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter)
                and event.modifiers() & Qt.ControlModifier):
            if self.run.isEnabled():
                self.run.click()
            return True
        return super().eventFilter(obj, event)

    # ------------------------------------------------------------- the list

    def _fill(self, source) -> None:
        """The models found, the one in use (or the built-in one) chosen."""
        try:
            found = lm.entries()
        except (ScenarioError, OSError):
            found = []
        for entry in found:
            self.models.addItem(_label(entry), entry)
        if source is not None and self._index_of(source) < 0:
            self._add_path(str(source))
        at = self._index_of(source if source is not None else lm.BUILTIN_ID)
        self.models.setCurrentIndex(max(at, 0))
        self._describe()

    def _index_of(self, source) -> int:
        for i in range(self.models.count()):
            entry = self.models.itemData(i)
            if source in (entry.id, entry.path):
                return i
        return -1

    def _add_path(self, path: str) -> None:
        """A file or folder chosen here, first in the list and chosen; described from its header."""
        at = self._index_of(path)
        if at < 0:
            try:
                entry = catalog.entry_of(path)
            except (ScenarioError, OSError) as e:  # said again, whole, when it is run
                entry = catalog.Entry(path, "", path, 0, 0, "", "", "chosen")
                self._problems[path] = describe(e) if isinstance(e, ScenarioError) else str(e)
            self.models.insertItem(0, _label(entry), entry)
            at = 0
        self.models.setCurrentIndex(at)

    def _describe(self) -> None:
        entry = self.entry()
        self.chat.setEnabled(entry is not None and entry.chat)
        if not self.chat.isEnabled():
            self.chat.setChecked(False)
        self.run.setEnabled(entry is not None)
        self._memory_figures(entry.memory if entry is not None else None)
        if entry is None:
            self.which.setText(self._no_model())
        elif entry.path in self._problems:
            self.which.setText(self._problems[entry.path])
        else:
            self.which.setText(_about(entry))

    def _memory_figures(self, need: dict | None) -> None:
        """Each way's item with the memory it takes for the chosen model, when its header says."""
        compact = need is not None and need["compact"] != need["fast"]
        for i, way in enumerate(memory.WAYS):
            name = {"auto": tr("Automatic"), "compact": tr("Compact"), "fast": tr("Fast (float32)")}[way]
            if need is not None and way != "auto":
                name = tr("{0}: about {1}").format(name, memory.said(need[way]))
            self.memory.setItemText(i, name)
        self.memory.model().item(memory.WAYS.index("compact")).setEnabled(need is None or compact)
        if need is not None and not compact and self.memory.currentData() == "compact":
            self.memory.setCurrentIndex(memory.WAYS.index("auto"))  # a folder is held in float32 either way

    def _no_model(self) -> str:
        if getattr(sys, "frozen", False):  # the standalone folder: no pip there
            return tr("This standalone AttnViz was built without the built-in model (SmolLM2-135M): "
                      "choose a GGUF file of the llama architecture, or build AttnViz again with "
                      "ATTNVIZ_BUNDLE_MODEL=1 make bundle.")
        return tr("The built-in model (SmolLM2-135M) is not installed. Install it with: {0}, "
                  "or choose a GGUF file of the llama architecture.").format(lm.INSTALL_HINT)

    def _choose(self):
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose a model"), "", "GGUF (*.gguf);;* (*)")
        if path:
            self._add_path(path)

    def _choose_folder(self):
        path = QFileDialog.getExistingDirectory(self, tr("Choose a Hugging Face model folder"))
        if path:
            self._add_path(path)

    # ------------------------------------------------------------- what was chosen

    def entry(self):
        return self.models.currentData()

    @property
    def source(self):
        """What lm.load() opens: None for the built-in model, an id, or a path."""
        entry = self.entry()
        if entry is None or entry.source == "builtin":
            return None
        return entry.id if entry.source == "package" else entry.path

    def chosen_text(self) -> str:
        return self.text.toPlainText()

    def chosen_chat(self) -> bool:
        return self.chat.isChecked()

    def chosen_memory(self) -> str:
        """How the model's weights are to be kept: a way of core.lm.memory.WAYS."""
        return self.memory.currentData()


def _label(entry) -> str:
    """One line of the list: the model, its family, storage and size."""
    if not entry.family:
        return entry.path
    size = f"{entry.bytes / 1e6:,.0f} MB"
    params = f"{entry.parameters / 1e6:,.0f}M"
    builtin = tr(" (built in)") if entry.source == "builtin" else ""
    return f"{entry.id}{builtin} — {entry.family}, {params}, {entry.quantisation}, {size}"


def _about(entry) -> str:
    """The line under the list: where the model is and under which licence."""
    licence = entry.licence or tr("not stated in the file")
    where = {"builtin": tr("built into AttnViz"), "package": tr("from its package, joined on first use"),
             "hf-cache": tr("in the Hugging Face cache")}.get(entry.source, entry.path)
    return tr("{0}: {1}. Licence: {2}.").format(entry.id, where, licence)
