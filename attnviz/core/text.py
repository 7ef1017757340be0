"""Text that comes from users and files: names that can be seen, and outputs a name cannot corrupt.

A token, head name or label is shown in cells, saved in JSON, CSV and SVG, and printed
to terminals. Control characters would split CSV rows, make SVG malformed XML or drive
a terminal; invisible characters make a name that looks empty. Typed names and scenario
files refuse them; a model's files (written by a tokenizer, where "\\n" is a real token)
get them replaced by visible stand-ins.
"""
from __future__ import annotations

import re
import unicodedata

# Bidirectional overrides and isolates reorder what is shown around them ("Trojan source");
# line and paragraph separators break a line wherever they are drawn.
_LAYOUT_CONTROLS = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x2028, 0x2029}
# Letters and symbols that draw nothing (fillers, the blank braille cell, the object replacement character
# with no object to stand for).
_BLANK_LOOKING = {0x115F, 0x1160, 0x180E, 0x2800, 0x3164, 0xFFA0, 0x034F, 0xFFFC}
# What builds an emoji out of several characters: the joiner, the variation selectors, the tags of
# a subdivision's flag. Inside a text they draw nothing on their own but are not hidden content.
_EMOJI_PARTS = {0x200D, 0xFE0E, 0xFE0F} | set(range(0xE0020, 0xE0080))
_SURROGATE = re.compile("[\ud800-\udfff]")
CSV_RISKY_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_control(ch: str) -> bool:
    """C0, DEL, C1, the layout controls, and the noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF and
    the last two of every plane), which XML, and so SVG, may not hold."""
    code = ord(ch)
    return (unicodedata.category(ch) == "Cc" or code in _LAYOUT_CONTROLS or 0xFDD0 <= code <= 0xFDEF
            or code & 0xFFFE == 0xFFFE)


# Unicode's Default_Ignorable_Code_Point beyond the format characters (Cf) and the above: what a font
# draws nothing for, assigned (Khmer's inherent vowels, Mongolian's selectors, variation selectors) or
# kept for it (U+2065, U+FFF0–U+FFF8, the rest of plane 14).
_IGNORABLE = ((0x17B4, 0x17B5), (0x180B, 0x180F), (0x2060, 0x206F), (0xFE00, 0xFE0F), (0xFFF0, 0xFFF8),
              (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _is_blank(ch: str) -> bool:
    """Draws nothing: a space, a control or format character, a filler, a default-ignorable code point, or one
    Unicode has not assigned (no font draws it as anything but a box)."""
    code, category = ord(ch), unicodedata.category(ch)
    return (category in ("Cc", "Cf", "Zs", "Zl", "Zp") or category == "Cn" and not is_control(ch)  # noncharacters:
            or code in _BLANK_LOOKING or any(low <= code <= high for low, high in _IGNORABLE))     # refused as such


def looks_empty(text: str) -> bool:
    """True when nothing of `text` would be seen: spaces, zero-width and filler characters only, and marks
    (a circumflex, an enclosing circle) with no letter to sit on."""
    return all(_is_blank(ch) or unicodedata.category(ch) in ("Mn", "Me") for ch in text)


def first_control(text: str) -> str | None:
    """The first control character in `text`, or None."""
    return next((ch for ch in text if is_control(ch)), None)


def code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def visible(text: str) -> str:
    """Control characters as visible stand-ins: a newline as ↵, a tab as ⇥, the other C0 controls
    and DEL in caret notation (^[ for escape, ^@ for NUL: the bundled font draws the Unicode control
    pictures as boxes), the rest as <U+XXXX>, a file name's byte that is not UTF-8 as <FF>; a name of
    blanks as ␣ per space (or <U+200B>)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in "\n\t":
            out.append("↵" if ch == "\n" else "⇥")
        elif code < 0x20 or code == 0x7F:
            out.append("^" + chr(code ^ 0x40))
        elif is_control(ch):
            out.append(f"<{code_point(ch)}>")
        elif 0xD800 <= code <= 0xDFFF:  # no UTF-8 holds a lone surrogate: a file name's byte, or U+D800
            out.append(_surrogate_shown(ch))
        else:
            out.append(ch)
    shown = "".join(out)
    if looks_empty(shown):
        shown = "".join("\u2423" if ch == " " else f"<{code_point(ch)}>" for ch in shown)
    return shown or "\u2205"  # ∅: an empty string from a model is still a token


def marked_invisible(text: str) -> str:
    """Characters that draw nothing inside a text (a zero-width space, a direction mark, the
    byte-order mark, a soft hyphen, a filler) as <U+XXXX>, so a model's token holding one does
    not look like another token; spaces, and what builds an emoji, stay as they are."""
    if text.isascii():
        return text
    return "".join(f"<{code_point(ch)}>" if _is_blank(ch) and unicodedata.category(ch) != "Zs"
                   and ord(ch) not in _EMOJI_PARTS and not _is_variation_selector(ch) else ch for ch in text)


def _is_variation_selector(ch: str) -> bool:
    code = ord(ch)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def not_unicode(text: str) -> tuple[str, int] | None:
    """(what, where) of the first lone surrogate in `text`, or None when every character is one
    UTF-8 can write. A command line's bytes that are not UTF-8 arrive as such surrogates (Python's
    surrogateescape): they are shown as the byte, <FF>; any other as U+D800."""
    found = _SURROGATE.search(text)
    if found is None:
        return None
    code = ord(found.group())
    return (f"<{code - 0xDC00:02X}>" if 0xDC80 <= code <= 0xDCFF else code_point(found.group())), found.start()


def shortened(text: str, limit: int) -> str:
    """At most `limit` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def csv_cell(text: str) -> str:
    """A text field for a spreadsheet: one that would run as a formula (=, +, -, @) or whose
    first character a spreadsheet drops (tab, CR) gets a leading apostrophe; controls become
    visible, so no field can split a row."""
    risky = text.startswith(CSV_RISKY_STARTS)
    text = visible(text) if first_control(text) else text
    return "'" + text if risky else text


def terminal_safe(text: str) -> str:
    """For printing: every control character but the newline made visible (no escape sequences
    reach the terminal from a token or a file name), and a file name's bytes that are not UTF-8 as <FF>
    (printed as they are, they stopped the command with a UnicodeEncodeError)."""
    if text.isprintable():  # at C speed: 300 MB of weights
        return text
    if any(is_control(ch) for ch in set(text) - {"\n"}):
        text = "\n".join(visible(line) if first_control(line) else line for line in text.split("\n"))
    return _SURROGATE.sub(lambda found: _surrogate_shown(found.group()), text)


def _surrogate_shown(ch: str) -> str:
    return f"<{ord(ch) - 0xDC00:02X}>" if 0xDC80 <= ord(ch) <= 0xDCFF else f"<{code_point(ch)}>"
