"""Each maths view presented by itself on a 1920×1080 projector: every text at least 20 px (Qt's
widgets, pyqtgraph's ticks, labels and titles, the figures' captions and numbers), nothing cut short,
the drawing filling the screen, in Japanese and in English; and the desk's look back when it ends."""
import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from attnviz.gui.common.i18n import install_language
from attnviz.gui.maths.dock import TAB_IDS
from attnviz.gui.maths.views import CAPTION_FLAGS
from presented import LEAST_PIXELS as LEAST
from presented import px, shown, widget_problems


@pytest.fixture
def stage(window, qtbot):
    """A 1920×1080 widget the presented maths tabs fill, as the presentation shows them."""
    widget = QWidget()
    widget.resize(1920, 1080)
    QVBoxLayout(widget).setContentsMargins(0, 0, 0, 0)
    qtbot.addWidget(widget)
    return widget


def present(window, stage, qtbot, tab_id, lang="en"):
    install_language(lang)
    tabs = window.parts.maths.present(tab_id, True)
    stage.layout().addWidget(tabs)
    stage.show()
    qtbot.waitExposed(stage)
    qtbot.wait(50)
    QApplication.processEvents()
    return window.parts.maths.tab_view(tab_id)


def plot_problems(plot, axes=("left", "bottom"), title=False) -> list[str]:
    """pyqtgraph keeps its own sizes: the tick fonts, the axis labels' HTML size, the title's row."""
    problems = []
    for name in axes:
        axis = plot.getAxis(name)
        tick = axis.style["tickFont"]
        if tick is None or px(tick) < LEAST:
            problems.append(f"{name} ticks: {tick and px(tick)} px")
        if axis.label.isVisible():
            size = axis.labelStyle.get("font-size", "")
            if not size.endswith("px") or int(size[:-2]) < LEAST:
                problems.append(f"{name} label: font-size {size!r}")
    if title:
        item = plot.getPlotItem()
        size = item.titleLabel.opts.get("size", "")
        if not size.endswith("px") or int(size[:-2]) < LEAST:
            problems.append(f"title: size {size!r}")
        needed = item.titleLabel.item.boundingRect().height()
        if item.titleLabel.height() < needed * 0.9:
            problems.append(f"title cut: {item.titleLabel.height():.0f} px high for {needed:.0f}")
    return problems


def heatmap_problems(maps) -> list[str]:
    """The figures' own text: captions whole, labels and numbers readable (or no numbers at all)."""
    problems = []
    caption_font = maps.caption_font()
    fm = QFontMetricsF(caption_font)
    if px(caption_font) < LEAST:
        problems.append(f"captions: {px(caption_font)} px")
    for i, (data, _) in enumerate(maps.items):
        room = maps.caption_rect(i)
        need = fm.boundingRect(QRectF(0, 0, room.width(), 10_000), CAPTION_FLAGS, data.title)
        if need.height() > room.height() or need.width() > room.width():
            problems.append(f"caption {data.title!r} cut")
        painter = maps.painter_for(i)
        g = painter.geometry(maps.rect_of(i), data.__class__(data.tokens, data.weights, data.masked))
        if px(g.label_font) < LEAST:
            problems.append(f"map {i} labels: {px(g.label_font)} px")
        if g.value_font is not None and g.value_font.pixelSize() < LEAST:
            problems.append(f"map {i} numbers: {g.value_font.pixelSize()} px")
        widest = ("+" if painter.signed else "") + "0.00"
        if g.value_font is not None and QFontMetricsF(g.value_font).horizontalAdvance(widest) > g.cell_w:
            problems.append(f"map {i} numbers wider than their cells")
    for painter in maps.bars():
        if px(painter.font) < LEAST:
            problems.append(f"colour bar: {px(painter.font)} px")
    return problems


def ink_height(image, rect) -> int:
    """How many pixel rows of `rect` in `image` hold dark ink (text drawn there)."""
    rows = 0
    for y in range(int(rect.top()), int(rect.bottom())):
        if any(QColor(image.pixel(x, y)).lightness() < 110 for x in range(int(rect.left()), int(rect.right()), 1)):
            rows += 1
    return rows


# ------------------------------------------------------------- each view, both languages

@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("tab_id", TAB_IDS)
def test_a_presented_maths_view_has_readable_type_and_nothing_cut(window, stage, qtbot, tab_id, lang):
    if tab_id == "before-after":
        window.parts.maths.tab_view(tab_id).pin_weights()  # pinned: the maps (and their captions) are shown
    view = present(window, stage, qtbot, tab_id, lang)
    tabs = window.parts.maths.widget()
    assert tabs.currentWidget() is view and not tabs.tabBar().isVisible()  # one view, full screen
    assert px(view.font()) >= LEAST
    problems = widget_problems(view)
    if tab_id == "geometry":
        problems += plot_problems(view.plot)
        if px(view.arrows.font) < LEAST:
            problems.append(f"arrow labels: {px(view.arrows.font)} px")
        drawing = view.plot
    elif tab_id == "softmax":
        for plot in (view.plots.scores, view.plots.weights):
            problems += plot_problems(plot, title=True)
        drawing = view.plots
    elif tab_id == "lines":
        if px(view.canvas.font_()) < LEAST:
            problems.append(f"tokens: {px(view.canvas.font_())} px")
        drawing = view.canvas
    elif tab_id in ("linear", "softmax-places"):  # painted: every text's rectangle and type (test_linear_and_places)
        from test_linear_and_places import layout_problems
        problems += layout_problems(view.canvas)
        drawing = view.canvas
    else:
        problems += heatmap_problems(view.maps)
        drawing = view.maps
    assert problems == []
    # The drawing fills the screen it is given: most of its width, and much of its height.
    assert drawing.width() >= 0.9 * 1920 and drawing.height() >= 0.3 * 1080


def test_presenting_makes_the_tick_labels_drawn_larger(window, stage, qtbot):
    """In the rendered pixels, not only in the fonts: the geometry plot's tick numbers are drawn taller."""
    view = present(window, stage, qtbot, "geometry")

    def tick_ink():
        axis = view.plot.getAxis("bottom")
        band = axis.mapRectToScene(QRectF(0, 0, axis.size().width(), axis.size().height()))  # not its grid lines
        rect = view.plot.mapFromScene(band).boundingRect()
        image = view.plot.grab().toImage()
        return ink_height(image, QRectF(rect).adjusted(40, 8, -40, -2).intersected(QRectF(image.rect())))

    presented = tick_ink()
    window.parts.maths.present("geometry", False)
    qtbot.wait(50)
    desk = tick_ink()
    assert presented >= 14 and presented > desk * 1.4  # digits of 24 px type are ~ 17 px of ink


def test_leaving_restores_the_desks_type_and_tabs(window, stage, qtbot):
    maths = window.parts.maths
    app_px = px(QApplication.font())
    for tab_id in TAB_IDS:
        present(window, stage, qtbot, tab_id)
        maths.present(tab_id, False)
        view = maths.tab_view(tab_id)
        assert px(view.font()) == app_px and not view.presenting
        assert all(px(w.font()) == app_px for w in shown(view, QLabel))
    assert maths.widget().tabBar().isVisibleTo(maths.widget())
    geometry = maths.tab_view("geometry")
    geometry.refresh()
    assert px(geometry.plot.getAxis("bottom").style["tickFont"]) == app_px  # pyqtgraph's too
    softmax = maths.tab_view("softmax")
    assert softmax.table.maximumHeight() > 10_000  # the desk's splitter decides its height again


def test_the_desk_follows_the_application_zoom(window, qtbot):
    """On the desk the maths views read the application's type: Ctrl++ makes them larger."""
    window.resize(1400, 1000)
    window.parts.maths_dock.show()
    window.parts.maths_dock.raise_()
    maths = window.parts.maths
    tabs = maths.widget()
    view = maths.tab_view("sqrt-dk")
    tabs.setCurrentWidget(view)
    qtbot.wait(20)
    before = px(view.maps.caption_font())
    window.classroom.zoom(+1)
    window.classroom.zoom(+1)
    qtbot.wait(20)
    assert px(view.maps.caption_font()) > before
    geometry = maths.tab_view("geometry")
    tabs.setCurrentWidget(geometry)
    qtbot.wait(20)
    assert px(geometry.plot.getAxis("left").style["tickFont"]) == px(QApplication.font())


def test_presenting_follows_a_larger_zoom_and_never_goes_below_readable(window, stage, qtbot):
    view = present(window, stage, qtbot, "kernel")
    first = px(view.font())
    font = QApplication.font()
    font.setPointSizeF(font.pointSizeF() * 3)
    QApplication.setFont(font)
    qtbot.wait(20)
    assert px(view.font()) > first
    font.setPointSizeF(font.pointSizeF() / 6)
    QApplication.setFont(font)
    qtbot.wait(20)
    assert px(view.font()) >= LEAST


def test_an_unknown_tab_is_refused_and_changes_nothing(window):
    maths = window.parts.maths
    tabs = maths.widget()
    index = tabs.currentIndex()
    with pytest.raises(ValueError):
        maths.present("layer", True)
    assert tabs.currentIndex() == index and not any(v.presenting for v in maths.views)


def test_the_softmax_view_writes_powers_as_superscripts(window, stage, qtbot):
    view = present(window, stage, qtbot, "softmax", "ja")
    view.factor.setCurrentIndex(view.FACTORS.index(1000))
    texts = [view.explanation.text(), view.verdict.text(), view.factor.toolTip()]
    texts += [view.table.horizontalHeaderItem(c).text() for c in range(view.table.columnCount())]
    assert not [t for t in texts if "^" in t]
    assert "eˣ⁻ᵐᵃˣ" in texts and any("e⁰" in t for t in texts)


def test_presented_numbers_too_small_to_read_are_left_out(window, stage, qtbot):
    """The kernel's three maps side by side (10 tokens) have cells for 20 px weights but not for a difference's
    wider "+0.05": its map shows colours only, not tiny digits (the colour bar says what they mean); before / after
    has two large maps: their numbers stay."""
    kernel = present(window, stage, qtbot, "kernel", "ja")  # the Japanese tokens' labels leave the cells smallest
    assert [kernel.maps.painter_for(i).show_values for i in range(3)] == [True, True, False]
    maths = window.parts.maths
    maths.tab_view("before-after").pin_weights()
    diff = present(window, stage, qtbot, "before-after")
    assert all(diff.maps.painter_for(i).show_values for i in range(len(diff.maps.items)))
    maths.present("before-after", False)
    assert all(kernel.maps.painter_for(i).show_values for i in range(3))  # on the desk, as before


def test_the_tab_ids_are_the_command_lines(window):
    names = [window.parts.maths.widget().tabText(i) for i in range(len(TAB_IDS))]
    assert TAB_IDS == ("geometry", "sqrt-dk", "softmax", "kernel", "before-after", "lines", "linear", "softmax-places")
    assert names[1] == "√dₖ" and isinstance(window.parts.maths.widget(), QTabWidget)
    assert [v.objectName() for v in window.parts.maths.views] == [
        "geometryView", "sqrtExplorer", "softmaxView", "kernelView", "diffView", "linesView", "linearView",
        "softmaxPlacesView"]


def test_softmax_ticks_for_hidden_keys_take_two_lines(window, stage, qtbot):
    view = present(window, stage, qtbot, "softmax")
    axis = view.plots.scores.getAxis("bottom")
    fm = QFontMetricsF(axis.style["tickFont"])
    assert axis.height() >= 2 * fm.height()  # "だった" over "(−∞)": room for both lines from the start
    assert np.isneginf(view.steps().x).any()


def presented_view(qtbot, preset, lang, view_id):
    """The window presenting `view_id` (the key a teacher presses) on `preset` in `lang`, full screen."""
    from presented import presenting
    w = presenting(qtbot, preset, lang)
    w.classroom.present_view(view_id)
    for _ in range(3):
        QApplication.processEvents()
    return w


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_presented_kernel_of_taro_hanako_fills_the_screen_and_its_painted_labels_are_readable(qtbot, lang):
    """13 tokens (11 in English) in three maps side by side: the labels the painter draws at least 20 px,
    the maps using the height (they took its top half, with 17 px labels)."""
    w = presented_view(qtbot, "taro-hanako", lang, "kernel")
    maps = w.parts.maths.tab_view("kernel").maps
    assert len(w.document.scenario.tokens) == (13 if lang == "ja" else 11) and len(maps.items) == 3
    assert heatmap_problems(maps) == []  # captions, painted labels, colour bars
    for i, (data, _) in enumerate(maps.items):
        g = maps.painter_for(i).geometry(maps.rect_of(i), data.__class__(data.tokens, data.weights, data.masked))
        assert g.grid.height() >= 0.6 * 1080 and g.grid.width() >= 0.2 * 1920
    assert maps.width() >= 0.9 * 1920


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_before_after_presented_with_nothing_pinned_pins_and_shows_every_heads_zero_difference(qtbot, lang):
    """Key 8 with nothing pinned showed only a button on an empty screen: now the weights are pinned as it
    opens, so every head's after − before is there (0 in every cell, written), with when it was pinned, the
    button to pin again, and the colours named as the diverging map draws them (brown, not yellow)."""
    w = presented_view(qtbot, "seed-demo", lang, "before-after")
    view = w.parts.maths.tab_view("before-after")
    maps = view.maps
    assert len(maps.items) == len(w.document.scenario.heads) == 2
    for i, (data, painter) in enumerate(maps.items):
        assert painter.signed and not data.weights.any() and maps.painter_for(i).show_values
    assert heatmap_problems(maps) == [] and widget_problems(view) == []
    ja = lang == "ja"
    assert view.note.isVisible() and view.note.text().startswith("この画面を開いた" if ja else "Pinned automatically")
    assert view.pin.isVisible() and view.pin.text() == ("今の重みを固定し直す" if ja else "Pin the weights again")
    colours = ("青", "黄土色", "黄色") if ja else ("blue", "brown", "yellow")
    assert colours[0] in view.explanation.text() and colours[1] in view.explanation.text()
    assert colours[2] not in view.explanation.text()
    assert maps.width() >= 0.9 * 1920 and maps.height() >= 0.8 * 1080


def test_the_softmax_charts_titles_are_in_the_windows_text_colour(window, stage, qtbot):
    from PySide6.QtGui import QColor
    view = present(window, stage, qtbot, "softmax", "ja")
    text = view.palette().windowText().color()
    for plot in (view.plots.scores, view.plots.weights):
        label = plot.getPlotItem().titleLabel
        assert QColor(label.opts["color"]) == text  # not pyqtgraph's light grey, faint on a projector
