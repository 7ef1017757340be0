"""A model's terms of use, shown before its first use (Gemma 3: the Gemma Terms of Use, which
are not an open-source licence and restrict some uses); nothing runs until they are accepted."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout

from ...core.lm import catalog
from ...core.scenario import ScenarioError
from ..common.i18n import tr


class TermsDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("termsDialog")
        self.setWindowTitle(tr("Gemma 3: its terms of use"))
        intro = QLabel(tr("Gemma 3 270M is Google's model, used under the Gemma Terms of Use. They are not an "
                          "open-source licence: they restrict some uses (see section 3.2 and the Prohibited Use "
                          "Policy they name). AttnViz shows them once, before the model's first use on this "
                          "computer; accept them to use Gemma 3."), wordWrap=True, objectName="termsIntro")
        text = QPlainTextEdit(objectName="termsText", readOnly=True)
        text.setPlainText(catalog.terms_text() or tr("The terms are not in the Gemma 3 package: read them at "
                                                     "https://ai.google.dev/gemma/terms"))
        buttons = QDialogButtonBox()
        self.accept_button = buttons.addButton(tr("Accept"), QDialogButtonBox.AcceptRole)
        self.accept_button.setObjectName("termsAccept")
        buttons.addButton(tr("Decline"), QDialogButtonBox.RejectRole).setObjectName("termsDecline")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(text, 1)
        layout.addWidget(buttons)
        self.resize(720, 560)


def terms_accepted(parent, source) -> bool:
    """True when `source` may run: it has no terms to show, or they were shown and accepted now."""
    if not catalog.needs_terms(source):
        return True
    if TermsDialog(parent).exec() != QDialog.Accepted:
        return False
    try:
        catalog.accept_terms()
    except ScenarioError:
        pass  # not remembered on this computer: asked again next time, accepted for now
    return True
