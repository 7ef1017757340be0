"""Light and dark looks (Fusion style, so they are the same on every platform)."""
from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory

THEMES = ("light", "dark")
_default_palette: QPalette | None = None
_default_style: str | None = None


_current = "light"


def apply_theme(name: str) -> str:
    """Switch the look; a no-op when it is already on (restyling reaches every widget)."""
    global _default_palette, _default_style, _current
    app = QApplication.instance()
    if _default_palette is None:
        _default_palette, _default_style = QPalette(app.palette()), app.style().name()
    dark = name == "dark"
    if ("dark" if dark else "light") == _current:
        return _current
    _current = "dark" if dark else "light"
    app.setStyle(QStyleFactory.create("Fusion" if dark else _default_style) or QStyleFactory.create("Fusion"))
    app.setPalette(dark_palette() if dark else _default_palette)
    QApplication.sendPostedEvents()  # every widget takes the new colours now
    return "dark" if dark else "light"


def dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor(30, 30, 30), QColor(45, 45, 45), QColor(230, 230, 230)
    for role, color in ((QPalette.Window, window), (QPalette.WindowText, text), (QPalette.Base, base),
                        (QPalette.AlternateBase, window), (QPalette.Text, text), (QPalette.Button, window),
                        (QPalette.ButtonText, text), (QPalette.ToolTipBase, window), (QPalette.ToolTipText, text),
                        (QPalette.Highlight, QColor(230, 120, 0)), (QPalette.HighlightedText, QColor(0, 0, 0)),
                        (QPalette.PlaceholderText, QColor(150, 150, 150))):
        p.setColor(role, color)
    p.setColor(QPalette.Disabled, QPalette.Text, QColor(120, 120, 120))
    p.setColor(QPalette.Disabled, QPalette.ButtonText, QColor(120, 120, 120))
    return p


class LargeMarks(QProxyStyle):
    """The application's style with check boxes and slider handles as large as `pixels` type: on a
    projector the style's own 13 px marks are too small to see, let alone to hit."""

    SIZED = {QStyle.PM_IndicatorWidth: 1.0, QStyle.PM_IndicatorHeight: 1.0, QStyle.PM_ExclusiveIndicatorWidth: 1.0,
             QStyle.PM_ExclusiveIndicatorHeight: 1.0, QStyle.PM_SliderLength: 1.1, QStyle.PM_SliderThickness: 1.0,
             QStyle.PM_SliderControlThickness: 1.0}

    def __init__(self, pixels: int):
        super().__init__(QStyleFactory.create(QApplication.style().name()))  # its own copy: a proxy owns its base
        self.pixels = pixels

    def pixelMetric(self, metric, option=None, widget=None):
        share = self.SIZED.get(metric)
        return round(self.pixels * share) if share is not None else super().pixelMetric(metric, option, widget)
