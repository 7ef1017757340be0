"""The fonts AttnViz brings along, so that 猫 and 🐟 are never drawn as empty boxes: Noto Sans CJK
for Japanese, Noto Emoji (monochrome) for emoji on a machine that has no emoji font of its own."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

CJK_FAMILY = "Noto Sans CJK JP"
EMOJI_FAMILY = "Noto Emoji"
WEIGHT_AXIS = QFont.Tag("wght")


def _bundled_font() -> Path | None:
    try:
        import manimgx_fonts_cjk  # Noto Sans CJK, SIL OFL 1.1
    except ImportError:
        return None
    path = Path(manimgx_fonts_cjk.__file__).with_name("NotoSansCJK-VF.otf.ttc")
    return path if path.is_file() else None


def _bundled_emoji_font() -> Path | None:
    try:
        import manimgx_fonts  # Noto Emoji among other Noto fonts, SIL OFL 1.1
    except ImportError:
        return None
    path = Path(manimgx_fonts.__file__).with_name("NotoEmoji[wght].ttf")
    return path if path.is_file() else None


def install_emoji_font() -> bool:
    """Register the bundled Noto Emoji. Qt draws emoji with the machine's own emoji font when it
    has one (a colour one, say), and takes any glyph missing from the fonts it has registered, this
    one too. False when it could not be registered."""
    if EMOJI_FAMILY in QFontDatabase.families():
        return True
    path = _bundled_emoji_font()
    return path is not None and QFontDatabase.addApplicationFont(str(path)) >= 0


def install_fonts(app: QApplication) -> bool:
    """Register the bundled CJK font and make it the fallback of the UI font; emoji get
    theirs (install_emoji_font).

    Returns False when no CJK font could be registered (the system's fonts are
    then all there is); the caller may warn.
    """
    install_emoji_font()
    if CJK_FAMILY not in QFontDatabase.families():
        path = _bundled_font()
        if path is None or QFontDatabase.addApplicationFont(str(path)) < 0:
            return CJK_FAMILY in QFontDatabase.families()
    font = app.font()
    if CJK_FAMILY in font.families():
        return True  # done already (a MainWindow made in AttnViz's own app, or a second one)
    # Latin text keeps the platform's UI font; anything it lacks comes from Noto.
    font.setFamilies([font.family(), CJK_FAMILY])
    app.setFont(weighted(font))
    return True


def weighted(font: QFont, bold: bool | None = None) -> QFont:
    """Noto Sans CJK comes as a variable font whose default instance is Thin: ask for
    the regular (400) or bold (700) weight on its axis too, or Japanese looks faint."""
    font = QFont(font)
    if bold is not None:
        font.setBold(bold)
    font.setVariableAxis(WEIGHT_AXIS, 700 if font.bold() else 400)
    return font


def figure_font(pixel_size: float | None = None, point_size: float | None = None) -> QFont:
    """The font of heatmaps and figures, on screen and in files alike: Noto Sans CJK JP
    covers Latin, digits, −∞ and Japanese, so an SVG names one font and looks the same
    wherever it is opened."""
    font = QFont(QApplication.font())
    font.setFamilies([CJK_FAMILY, QApplication.font().family()])
    if pixel_size:
        font.setPixelSize(round(pixel_size))
    elif point_size:
        font.setPointSizeF(point_size)
    return selectable(weighted(font))


def selectable(font: QFont) -> QFont:
    """The font with Noto Sans CJK's 'locl' and ligatures off: 'locl' gives the digits after Latin
    letters ("head 0", "dₖ = 2", "q = [0, 2, 0, 0]") glyphs the PDF's map back to text does not name,
    so a copied or searched PDF loses them; a ligature makes "fish" copy as "ﬁsh". The glyphs drawn
    are the same."""
    font = QFont(font)
    for tag in ("locl", "liga"):
        font.setFeature(QFont.Tag(tag), 0)
    return font


def figure_font_like(font: QFont, factor: float = 1.0) -> QFont:
    """figure_font at `factor` × `font`'s size, whether that is given in points or (presenting) in pixels."""
    return figure_font(pixel_size=font.pixelSize() * factor) if font.pixelSize() > 0 else figure_font(
        point_size=font.pointSizeF() * factor)


LEAST_SHARE = 20 / 1080  # of the screen's height: the least any text may be presenting (20 px at 1080 lines)
READABLE_SHARE = 0.022  # of the screen's height: the least type shown while presenting (24 px on 1080 lines)


def readable_pixels(widget, share: float = READABLE_SHARE) -> int:
    """The smallest type a class reads from the back row on the screen `widget` is on (`share` of
    its height)."""
    screen = widget.screen() or QApplication.primaryScreen()
    return max(12, round(screen.geometry().height() * share))


def presented(font: QFont, widget) -> QFont:
    """`font` at least as large as the back row can read."""
    pixels = font.pixelSize() if font.pixelSize() > 0 else round(font.pointSizeF() * widget.logicalDpiY() / 72)
    out = QFont(font)
    out.setPixelSize(max(pixels, readable_pixels(widget)))
    return out
