"""A PDF's text as it was written. Noto Sans CJK's cmap gives one glyph to an ideograph and to the
radical that looks like it (魚 and ⿂, 見 and ⾒), and Qt's PDF writer names each glyph in the file's
ToUnicode map by the lowest code point mapped to it: the radical. Copied or searched, a PDF then reads
⿂ for 魚. No font feature does it ('locl' and 'liga' off change nothing), and Qt has no setting for
it, so the maps Qt wrote are corrected here, name for name (the same length: every offset stays)."""
from __future__ import annotations

import re
from functools import lru_cache

from PySide6.QtGui import QRawFont

from ..look.fonts import figure_font

RADICALS = range(0x2E80, 0x2FE0)  # CJK and Kangxi radicals: Noto Sans CJK draws ⿂ with 魚's glyph, ...
LOOKALIKES = RADICALS, (0x2027,)  # ... and ‧ with ・'s


@lru_cache(maxsize=1)
def _ideographs() -> tuple[QRawFont, dict[int, int]]:
    """Noto Sans CJK, and the first CJK character (U+3000–U+9FFF: kana, punctuation, ideographs) of
    each glyph it has one for."""
    raw = QRawFont.fromFont(figure_font(pixel_size=12))
    chars = "".join(map(chr, range(0x3000, 0xA000)))
    first: dict[int, int] = {}
    for ch, glyph in zip(chars, raw.glyphIndexesForString(chars)):
        if glyph:
            first.setdefault(glyph, ord(ch))
    return raw, first


def written(code: int) -> int:
    """The character a text means by a glyph Qt names `code`. Noto Sans CJK's cmap gives one glyph to
    both 魚 and the radical ⿂ (and to ・ and ‧), and Qt's PDF names a glyph by the lowest code point the
    font maps to it: the radical, so a copied or searched handout read ⿂ for 魚. No font feature does it
    ('locl' and 'liga' off change nothing): the glyphs are the ideographs' own."""
    if not any(code in block for block in LOOKALIKES):
        return code
    raw, first = _ideographs()
    return first.get(raw.glyphIndexesForString(chr(code))[0], code)


def named_as_written(data: bytes) -> bytes:
    """The PDF with Noto Sans CJK's glyphs named in its ToUnicode maps by the characters the text has
    (see written): each name is four hex digits, so every length and offset in the file stays."""
    def rename(match):
        return b"<%04X>" % written(int(match[1], 16))

    def ranges(section):  # Qt's maps: "<lo> <hi> [<name> ...]" and "<code> <code> <name>"
        return re.sub(rb"\[[^\]]*\]|(?<=> )<[0-9A-F]{4}>(?=\s*$)",
                      lambda m: re.sub(rb"<([0-9A-F]{4})>", rename, m[0]), section[0], flags=re.M)
    out = bytearray(data)
    # Noto Sans CJK by its PostScript name, or by none: FreeType before 2.13 (Debian 12's 2.12.1) names
    # no instance of a variable font whose family has a space and no 'name' ID 25 or 16, as Noto Sans
    # CJK's has not, and Qt then writes "/BaseFont /". Another nameless font (Noto Emoji) holds no
    # radical in its map, so `written` leaves its names as they are.
    for number in re.findall(rb"/BaseFont /(?:NotoSansCJK[^\s/]*)?\s[^>]*?/ToUnicode (\d+) 0 R", data):
        found = re.search(rb"\n%s 0 obj\s*<< /Length (\d+) >>\s*stream\r?\n" % number, data)
        if found is None:  # a filtered stream: not what Qt writes
            continue
        start, end = found.end(), found.end() + int(found[1])
        cmap = re.sub(rb"beginbfrange.*?endbfrange", ranges, data[start:end], flags=re.S)
        assert len(cmap) == end - start
        out[start:end] = cmap
    return bytes(out)
