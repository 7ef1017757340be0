"""Error messages the window can show in the user's language, while the core stays Qt-free.

A message is an English template plus its values. QT_TR_NOOP only marks the
template so that pyside6-lupdate collects it into the translation file; the
window translates the template and fills in the values (gui.i18n.describe).
"""
from __future__ import annotations


def QT_TR_NOOP(template: str) -> str:  # noqa: N802 (the name lupdate looks for)
    return template


class Phrase:
    """Part of a message (which head, which matrix) translated along with it: a template and
    its values, like the message itself."""

    def __init__(self, template: str, *values):
        self.template = template
        self.values = values

    def __str__(self) -> str:
        return self.template.format(*self.values) if self.values else self.template


class AttnVizError(ValueError):
    """Bad input; str() is the English message, .template and .values allow translation."""

    def __init__(self, template: str, *values):
        super().__init__(template, *values)
        self.template = template
        self.values = values

    __str__ = Phrase.__str__  # the same filling in of the template
