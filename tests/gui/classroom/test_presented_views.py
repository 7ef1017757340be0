"""Every view in front of the class: chosen by its key, filling the screen, readable from the back."""
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from attnviz.gui import MainWindow
from attnviz.gui.classroom.views import IDS, VIEWS
from attnviz.gui.common.i18n import install_language
from pixels import inked, rgb  # tests/gui is on the path
from presented import presenting, unreadable


def press(window, qtbot, key, modifier=Qt.NoModifier):
    qtbot.keyClick(window, key, modifier)
    QApplication.processEvents()


def shown(window):
    """What fills the screen: the heads, or the widget lent to the stage."""
    return window.parts.centre.currentWidget() if window.parts.presented() is None else window.parts.presented()


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("view", IDS)
def test_every_presented_view_fills_the_screen_and_every_text_is_readable_and_whole(qtbot, view, lang):
    preset = "projection-demo" if view == "layer" else "seed-demo"
    w = presenting(qtbot, preset, lang)
    w.classroom.present_view(view)
    for _ in range(3):
        QApplication.processEvents()
    widget = shown(w)
    assert widget.isVisible() and widget.width() >= 1900 * (0.5 if view == "heads" else 1) and widget.height() >= 900
    assert unreadable(w) == []


def test_both_heads_of_seed_demo_side_by_side_are_at_least_800_px_square(qtbot):
    w = presenting(qtbot)
    press(w, qtbot, Qt.Key_V)
    panels = w.parts.heads.panels
    assert not w.parts.steps_dock.isVisible()
    for panel in panels:
        g = panel.painter.geometry(panel._content_rect(), panel.data())
        assert panel.isVisible() and panel.width() >= 800 and panel.height() >= 800
        assert g.grid.width() >= 700 and g.grid.height() >= 700  # the cells, not only the widget
        assert g.value_font.pixelSize() >= 20
    assert panels[0].geometry().right() < panels[1].geometry().left()  # beside each other
    press(w, qtbot, Qt.Key_V)  # back to one big head, the steps beside it
    assert w.parts.steps_dock.isVisible() and panels[1].height() < 200 < panels[0].height()


def test_four_heads_side_by_side_make_a_2_by_2_grid_and_the_gqa_titles_are_whole(qtbot):
    w = presenting(qtbot, "gqa-demo", "ja")
    press(w, qtbot, Qt.Key_V)
    panels = w.parts.heads.panels
    tops = sorted({p.geometry().top() for p in panels})
    lefts = sorted({p.geometry().left() for p in panels})
    assert len(panels) == 4 and len(tops) == 2 and len(lefts) == 2
    for panel in panels:
        assert "K/V 組" in panel.data().title and "共有" in panel.data().title


def test_a_title_too_long_for_one_line_takes_two_and_is_not_cut(qtbot):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF

    from attnviz.gui.heads import heatmap
    w = presenting(qtbot, "gqa-demo", "ja")  # one big head: the others are thumbnails
    thumb = w.parts.heads.panels[1]
    fm = QFontMetricsF(thumb.painter._title_font())
    title = thumb.data().title
    width = fm.horizontalAdvance(title) * 0.7
    two = heatmap.wrapped(title, fm, width).split("\n")
    assert len(two) == 2 and "".join(two).replace(" ", "") == title.replace(" ", "")  # nothing cut
    assert all(fm.horizontalAdvance(line) <= width for line in two)
    g = thumb.painter.geometry(QRectF(0, 0, width, 400), thumb.data())
    assert g.title_height >= 2 * fm.height()


def test_clicking_the_other_head_picks_it_and_keeps_the_query(qtbot):
    w = presenting(qtbot)
    d = w.document
    query, token = d.query, d.scenario.tokens[d.query]  # "It" (それ in Japanese)
    press(w, qtbot, Qt.Key_V)
    other = w.parts.heads.panels[1]
    g = other.painter.geometry(other._content_rect(), other.data())
    qtbot.mouseClick(other, Qt.LeftButton, pos=QPoint(int(g.grid.left() + g.cell_w / 2), int(g.grid.top() + 2)))
    assert d.active_head == 1 and d.query == query and d.scenario.tokens[query] == token == "It"
    press(w, qtbot, Qt.Key_V)  # the thumbnail of head 0 beside the big head 1
    thumb = w.parts.heads.panels[0]
    qtbot.mouseClick(thumb, Qt.LeftButton, pos=QPoint(thumb.width() // 2, thumb.height() // 2))
    assert d.active_head == 0 and d.query == query


def test_the_number_keys_and_tab_choose_the_view(qtbot):
    w = presenting(qtbot)
    for view in VIEWS:
        press(w, qtbot, getattr(Qt, f"Key_{view.key}"))
        assert w.classroom.presented_view == view.id
    press(w, qtbot, Qt.Key_1)
    for view in IDS[1:] + IDS[:1]:
        press(w, qtbot, Qt.Key_Tab)
        assert w.classroom.presented_view == view
    press(w, qtbot, Qt.Key_Backtab, Qt.ShiftModifier)
    assert w.classroom.presented_view == IDS[-1]


def test_each_key_shows_its_view(qtbot):
    w = presenting(qtbot)
    press(w, qtbot, Qt.Key_2)
    assert w.parts.steps.isVisible() and w.parts.steps.window() is w and w.parts.steps.width() > 1800
    press(w, qtbot, Qt.Key_5)
    tabs = w.parts.maths.widget()
    assert shown(w) is tabs and tabs.currentIndex() == 2 and not tabs.tabBar().isVisible()
    press(w, qtbot, Qt.Key_0)
    assert shown(w) is w.overview.dialog and not w.overview.dialog.isWindow()
    press(w, qtbot, Qt.Key_1)
    assert w.parts.centre.currentWidget() is w.parts.heads and w.parts.steps_dock.isVisible()


def test_the_keys_are_letters_and_digits_on_the_desk(qtbot):
    install_language("en")
    w = MainWindow("seed-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    for action in (*w.classroom.view_actions.values(), w.classroom.keys_action, w.classroom.side_by_side_action):
        assert not action.isEnabled()


def test_question_mark_lists_the_keys_in_the_language_and_esc_closes_it_before_leaving(qtbot):
    w = presenting(qtbot, lang="ja")
    press(w, qtbot, Qt.Key_Question, Qt.ShiftModifier)
    keys = w.classroom.keys
    assert keys.isVisible() and keys.geometry() == w.rect()
    texts = [label.text() for label in keys.findChildren(type(keys.title)) if label.isVisible()]
    assert "ソフトマックス" in " ".join(texts) or "softmax" in " ".join(texts).lower()
    assert "層：X から O まで" in texts and "V" in texts and "?" in texts
    assert unreadable(keys) == []
    press(w, qtbot, Qt.Key_Escape)
    assert not keys.isVisible() and w.classroom.presenting and w.isFullScreen()
    press(w, qtbot, Qt.Key_Escape)
    assert not w.classroom.presenting


def test_leaving_from_any_view_gives_the_desk_back_as_it_was(qtbot):
    install_language("en")
    w = MainWindow("projection-demo")
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    w.parts.maths.widget()  # made on first use: presenting a maths view would make it
    QApplication.processEvents()
    docks = {dock.objectName(): dock.isVisible() for dock in w.parts.docks()}
    before = (w.saveState(), w.parts.steps_split.sizes())
    for view in ("steps", "geometry", "layer", "overview"):
        w.classroom.set_presentation(True)
        w.classroom.present_view(view)
        QApplication.processEvents()
        w.classroom.set_presentation(False)
        QApplication.processEvents()
        assert {dock.objectName(): dock.isVisible() for dock in w.parts.docks()} == docks, view
        assert w.parts.centre.currentWidget() is w.parts.heads and w.parts.presented() is None
        assert w.parts.steps.parentWidget() is w.parts.steps_split and w.parts.steps_split.sizes() == before[1]
        assert w.parts.maths.widget().tabBar().isVisible() and w.parts.maths_dock.widget() is w.parts.maths.widget()
        assert w.parts.pipeline_dock.widget() is w.parts.pipeline
        assert w.overview.dialog is None or (w.overview.dialog.isWindow() and not w.overview.dialog.isVisible())
        assert w.saveState() == before[0]


def test_a_layer_preset_presented_gives_the_big_head_the_room_and_zooming_never_shrinks_it(qtbot):
    w = presenting(qtbot, "projection-demo")
    assert not w.parts.pipeline_dock.isVisible()
    head = w.parts.heads.panels[w.document.active_head]
    sizes = []
    for _ in range(3):
        sizes.append((head.width(), head.value_pixels()))
        w.classroom.zoom(+1)
        QApplication.processEvents()
    assert head.value_pixels() * 72 / head.logicalDpiY() >= 24  # its cells as big as a 10-token head's, at least
    assert all(later >= earlier for earlier, later in zip(sizes, sizes[1:]))
    assert unreadable(w) == []


@pytest.mark.parametrize("preset", ["toy-3token", "seed-demo"])
def test_the_step_table_presented_alone_shows_every_row_and_the_sum_whole(qtbot, preset):
    w = presenting(qtbot, preset, "ja")
    press(w, qtbot, Qt.Key_2)
    steps = w.parts.steps
    table, model = steps.table, steps.model
    for row in range(model.rowCount()):
        if not table.isRowHidden(row):
            rect = table.visualRect(model.index(row, 0))
            assert table.viewport().rect().contains(rect), (row, rect, table.viewport().rect())
    assert steps.presentation_pixels >= 24


def test_gpt_2s_twelve_heads_side_by_side_are_all_on_the_screen_each_readable(qtbot):
    """A lesson says GPT-2 has 12 heads: side by side, the 12 are shown, in a 4 × 3 grid, each at least a
    the 0.27 of the screen's height the view asks (a title and every other label at the back row's type)."""
    w = presenting(qtbot, "gpt2-small-shape")
    press(w, qtbot, Qt.Key_V)
    panels = w.parts.heads.panels
    assert all(p.isVisible() for p in panels) and len(panels) == 12
    assert all(min(p.width(), p.height()) >= 292 for p in panels)
    assert len({p.y() for p in panels}) == 3  # three rows of four


def test_more_heads_than_fit_side_by_side_show_the_four_around_the_active_head(qtbot):
    from dataclasses import replace
    w = presenting(qtbot, "gpt2-small-shape")
    s = w.document.scenario
    w.document.replace(replace(s, heads=s.heads * 2), None)  # 24 heads: 6 × 4 would be 270 px each, under 292
    press(w, qtbot, Qt.Key_V)
    panels = w.parts.heads.panels
    assert [p.index for p in panels if p.isVisible()] == [0, 1, 2, 3]
    w.document.select(head=5)
    QApplication.processEvents()
    assert [p.index for p in panels if p.isVisible()] == [4, 5, 6, 7]
    assert all(p.width() >= 850 and p.height() >= 450 for p in panels if p.isVisible())
    press(w, qtbot, Qt.Key_V)  # one big head: every head again, the others as thumbnails
    assert all(p.isVisible() for p in panels)


def test_opening_a_layer_preset_while_presenting_keeps_the_presentation_and_the_desk_follows_on_leaving(qtbot):
    from attnviz.core import load_preset
    w = presenting(qtbot)
    w.document.replace(load_preset("projection-demo"), "preset:projection-demo")
    QApplication.processEvents()
    assert not w.parts.pipeline_dock.isVisible() and not w.parts.vectors_dock.isVisible()
    press(w, qtbot, Qt.Key_9)
    assert shown(w) is w.parts.pipeline
    w.classroom.set_presentation(False)
    QApplication.processEvents()
    assert w.parts.pipeline_dock.isVisible() and w.parts.pipeline_dock.widget() is w.parts.pipeline


def test_the_keys_list_follows_a_change_of_language_while_open(qtbot):
    w = presenting(qtbot, lang="en")
    w.classroom.toggle_keys()
    w.classroom.set_language("ja")
    QApplication.processEvents()
    texts = [label.text() for label in w.classroom.keys.findChildren(type(w.classroom.keys.title))
             if label.isVisible()]
    assert "層：X から O まで" in texts and "The layer: X to O" not in texts


def test_presenting_the_docks_show_no_title_bar_and_leaving_gives_it_back(qtbot):
    """A dock's title bar is the desk's small type: in front of the class it is not shown."""
    w = presenting(qtbot)
    steps = w.parts.steps_dock
    assert steps.isVisible() and steps.titleBarWidget() is not None
    assert steps.widget().geometry().top() <= 2  # the step column starts at the top: no title above it
    w.classroom.set_presentation(False)
    QApplication.processEvents()
    assert steps.titleBarWidget() is None and w.parts.next_dock.titleBarWidget() is None


@pytest.mark.parametrize("preset, lang, whole", [("seed-demo", "ja", True), ("gpt2-small-shape", "en", True),
                                                 ("gqa-demo", "ja", False)])
def test_the_thumbnails_under_the_big_head_have_readable_whole_titles(qtbot, preset, lang, whole):
    from PySide6.QtGui import QFontInfo, QFontMetricsF

    w = presenting(qtbot, preset, lang)
    big = w.parts.heads.panels[w.document.active_head]
    for thumb in (p for p in w.parts.heads.panels if p is not big):
        data = thumb.data()
        g = thumb.painter.geometry(thumb._content_rect(), data)
        font = thumb.painter._title_font()
        assert QFontInfo(font).pixelSize() >= 20 and thumb.geometry().top() > big.geometry().bottom()
        assert g.title == (data.title if whole else data.short_title)  # a GQA head's group: in its big title
        rect = thumb._content_rect()
        room = g.grid.left() - rect.left() if g.beside else rect.width()
        assert QFontMetricsF(font).horizontalAdvance(g.title) <= room and g.value_font is None
        pixels = rgb(thumb.grab().toImage())  # the title is drawn, left of the weights or above them
        title_box = pixels[:, :int(room)] if g.beside else pixels[:int(rect.top() + g.title_height)]
        palette = thumb.palette()
        assert inked(title_box, palette.window().color(), palette.windowText().color()).sum() > 50
        assert g.grid.width() >= 30  # the pattern still shows, at a glance
