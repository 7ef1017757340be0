"""Help → "What am I looking at?": a short guide in the interface's language, offline."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox, QTextBrowser, QVBoxLayout

from ... import __version__
from ...core.paths import resource
from ..common.i18n import current_language, tr


def guide_html(lang: str) -> str:
    folder = resource("help")
    page = folder / f"guide_{lang}.html"
    return (page if page.is_file() else folder / "guide_en.html").read_text(encoding="utf-8")


class GuideDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("helpDialog")
        self.setWindowTitle(tr("What am I looking at?"))
        self.browser = QTextBrowser(objectName="helpText")
        self.browser.setOpenLinks(False)  # nothing in the guide leaves the app: no network, ever
        self.browser.setHtml(guide_html(current_language()))
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(760, 720)


def show_guide(parent) -> GuideDialog:
    dialog = GuideDialog(parent)
    dialog.show()  # not modal: the guide can stay open beside the window
    return dialog


def show_about(parent) -> None:
    QMessageBox.about(parent, tr("About AttnViz"), tr(
        "AttnViz {0}: see and edit attention in a Transformer, offline.\n"
        "Numbers: numpy; window: Qt (PySide6) and pyqtgraph; Japanese font: Noto Sans CJK "
        "(SIL Open Font License).").format(__version__))
