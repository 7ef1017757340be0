"""The colour bar beside the heads, presented at 1920 × 1080: its title, every tick and the mask's legend
painted in type of 20 px or more (the font the painter holds when it draws each), each inside the bar,
whatever the colour scale, the mask and the language; on the desk it keeps its narrow width."""
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontInfo, QFontMetricsF, QPainter
from PySide6.QtWidgets import QApplication

from attnviz.gui.common.i18n import tr
from attnviz.gui.heads.view import BAR_MOST
from presented import presenting


def painted(widget, monkeypatch) -> list[tuple[int, str, QRectF, float]]:
    """(pixel size, text, where, width) of every text the widget's painter draws."""
    drawn, real = [], QPainter.drawText

    def record(painter, *args):
        where = next(a for a in args if isinstance(a, QRectF))
        text = next(a for a in args if isinstance(a, str))
        width = max(QFontMetricsF(painter.font()).horizontalAdvance(line) for line in text.split("\n"))
        drawn.append((QFontInfo(painter.font()).pixelSize(), text, QRectF(where), width))
        return real(painter, *args)
    monkeypatch.setattr(QPainter, "drawText", record)
    widget.grab()
    monkeypatch.undo()
    return drawn


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("scale", ["linear", "log"])
@pytest.mark.parametrize("preset", ["seed-demo", "taro-hanako", "hashi-bridge"])
def test_presented_every_text_of_the_colour_bar_is_20_px_or_more_and_inside_it(qtbot, monkeypatch, lang, scale,
                                                                              preset):
    w = presenting(qtbot, preset, lang)
    w.classroom.view.set("scale", scale)
    QApplication.processEvents()
    bar = w.parts.heads.colorbar
    for kind in ("causal", "hidden", "given"):  # the mask's legend: the future, hidden keys, a model's 0
        bar.set_mask_kind(kind)
        drawn = painted(bar, monkeypatch)
        texts = {t for _, t, _, _ in drawn}
        ticks = {tr(t) for _, t in bar.colormap.ticks()}
        assert ticks <= texts and tr("weight") in texts
        for pixels, text, where, width in drawn:
            assert pixels >= 20, (kind, text, pixels)
            assert where.left() >= 0 and where.left() + width <= bar.width() + 1, (text, where, width, bar.width())
    assert bar.isVisible() and bar.width() >= bar.sizeHint().width()


def test_on_the_desk_the_colour_bar_keeps_its_narrow_width(qtbot):
    w = presenting(qtbot)
    bar = w.parts.heads.colorbar
    presented = bar.width()
    w.classroom.set_presentation(False)
    QApplication.processEvents()
    assert bar.least_pixels == 0 and bar.sizeHint().width() <= BAR_MOST and bar.width() <= presented


def test_a_legend_too_wide_for_the_bar_wraps_rather_than_going_under_the_least_type():
    from attnviz.gui.heads.heatmap import fitted_legend
    from attnviz.gui.look.fonts import figure_font
    font, text = fitted_legend(figure_font(pixel_size=24), "masked\n(future)", 50, least_pixels=20)
    assert QFontInfo(font).pixelSize() == 20 and text.count("\n") >= 2  # wrapped, in 20 px
    font, _ = fitted_legend(figure_font(pixel_size=24), "masked\n(future)", 50)
    assert QFontInfo(font).pixelSize() == 18  # on paper and the desk: smaller, to LEAST_LEGEND
