"""Error messages the window can show in the user's language, while the core stays Qt-free.

A message is an English template plus its values. QT_TR_NOOP only marks the
template so that pyside6-lupdate collects it into the translation file; the
window translates the template and fills in the values (gui.i18n.describe).
"""
from __future__ import annotations

import reprlib

_REPR = reprlib.Repr()  # Python 3.11's takes no arguments
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 2, 4, 4, 4
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = 40


def QT_TR_NOOP(template: str) -> str:  # noqa: N802 (the name lupdate looks for)
    return template


def quoted(value, most: int = 40) -> str:
    """`value` as a message quotes it: its repr in at most `most` characters (a 1 MB text or a list of
    a million items in a file is not echoed whole, nor made into a text first)."""
    text = _REPR.repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def cut(text: str, most: int = 40) -> str:
    """A text a user gave, as a message repeats it: at most `most` characters, "…" where it was cut."""
    return text if len(text) <= most else text[:most - 1] + "…"


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
