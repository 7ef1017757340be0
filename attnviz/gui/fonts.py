"""The Japanese font AttnViz brings along, so 猫 is never drawn as an empty box."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

CJK_FAMILY = "Noto Sans CJK JP"


def _bundled_font() -> Path | None:
    try:
        import manimgx_fonts_cjk  # Noto Sans CJK, SIL OFL 1.1
    except ImportError:
        return None
    path = Path(manimgx_fonts_cjk.__file__).with_name("NotoSansCJK-VF.otf.ttc")
    return path if path.is_file() else None


def install_fonts(app: QApplication) -> bool:
    """Register the bundled CJK font and make it the fallback of the UI font.

    Returns False when no CJK font could be registered (the system's fonts are
    then all there is); the caller may warn.
    """
    if CJK_FAMILY not in QFontDatabase.families():
        path = _bundled_font()
        if path is None or QFontDatabase.addApplicationFont(str(path)) < 0:
            return CJK_FAMILY in QFontDatabase.families()
    font = app.font()
    # Latin text keeps the platform's UI font; anything it lacks comes from Noto.
    font.setFamilies([font.family(), CJK_FAMILY])
    app.setFont(font)
    return True


def ui_font(point_size: float | None = None, bold: bool = False) -> QFont:
    """The application font (with its CJK fallback) at another size."""
    font = QFont(QApplication.font())
    if point_size:
        font.setPointSizeF(point_size)
    font.setBold(bold)
    return font
