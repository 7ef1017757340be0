"""The presented step table read from the back of the room, measured at 1920 × 1080: at 10, 13 and 16
tokens (the attention lesson's scene 10, the multi-head lesson's scene 4, and a sentence of 16 made here),
with a question pending and revealed, at every guided step, in the plain presentation (F5) and in a
lesson under its caption, every digit and header is painted in type of 20 px or more (the fonts the
table, its header, its bold rows and its pinned Σ row are drawn in), every key's row lies inside the
table's view with no scroll bar, the Σ row is on screen under them, and no cell's text is cut: the
columns give way (q·k written shorter, then its results only, the headers on one line), then the formula
and the output around the table, then the controls under it, never the digits."""
import json

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontInfo, QFontMetrics, QPainter
from PySide6.QtWidgets import QApplication, QTabBar

from attnviz.core.formats.document import scenario_to_dict
from attnviz.core.lessons import builtin_lesson
from attnviz.core.lessons.scene import Bilingual, Lesson, Question, Ref, Scene
from attnviz.core.presets import open_named
from attnviz.core.scenario import with_token_inserted
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language

LEAST = 20  # px at 1920 × 1080


def settle():
    for _ in range(4):
        QApplication.processEvents()


def sixteen(lang: str):
    """seed-demo's ten tokens and six more: 16 keys for それ / It, whose row has six hidden by the mask."""
    s = open_named("seed-demo", lang=lang)[0]
    more = ["。", "猫", "は", "眠った", "そして", "魚"] if lang == "ja" else \
        [".", "The", "cat", "slept", "and", "purred"]
    for word in more:
        s = with_token_inserted(s, s.n, word)
    return s


def lesson_of(scenario) -> Lesson:
    """One scene on `scenario`, asking for its query's row, captioned in a line and a half."""
    caption = Bilingual("十六のトークンの文で、「それ」の重みを見ます。答えを見せたあとの表も確かめます。",
                        "A sentence of sixteen tokens: the weights of It, before and after the answer is shown.")
    scene = Scene(Ref("embedded", json.dumps(scenario_to_dict(scenario))), caption,
                  question=Question("row", Bilingual("「それ」の重みは？", "The weights of It?")))
    return Lesson("sixteen", Bilingual("十六", "Sixteen"), (scene,))


def window(qtbot, lang, scenario="seed-demo"):
    install_language(lang)
    w = MainWindow(scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


def painted(widget) -> list[tuple[int, str]]:
    """(pixel size, text) of every text the widget's painter draws, in the font the painter holds."""
    drawn, real = [], QPainter.drawText

    def record(painter, *args):
        drawn.append((QFontInfo(painter.font()).pixelSize(), next(a for a in args if isinstance(a, str))))
        return real(painter, *args)
    QPainter.drawText = record
    try:
        widget.grab()
    finally:
        QPainter.drawText = real
    return drawn


def problems(w) -> list[str]:
    """What a student at the back could not read in the presented step table, measured."""
    steps = w.parts.steps
    table, pinned, model = steps.table, steps.sum_table, steps.model
    fonts = [("cells", table.font()), ("header", table.horizontalHeader().font()), ("Σ row", pinned.font())]
    fonts += [(f"row {r}", model.data(model.index(r, 0), Qt.FontRole)) for r in range(model.rowCount())]
    out = [f"{name}: {QFontInfo(f).pixelSize()} px" for name, f in fonts if f is not None
           and QFontInfo(f).pixelSize() < LEAST]
    if table.verticalScrollBar().isVisible():
        out.append("the keys scroll")
    out += rows_out_of_view(table, model) + cells_cut(table, model)
    out += overlapping(steps)
    if steps.formula.isVisible():  # the formula above, its scripts too (dₖ's k, Kᵀ's ᵀ)
        out += [f"formula {text!r}: {pixels} px" for pixels, text in painted(steps.formula) if pixels < LEAST]
    if not pinned.isHidden():  # Σ under the keys, on screen, not under the controls or the caption
        where = QRect(pinned.mapTo(w, pinned.rect().topLeft()), pinned.size())
        if not w.rect().contains(where) or pinned.visibleRegion().boundingRect().height() < pinned.height() - 2:
            out.append(f"the Σ row is not in view: {where}")
    return out


def rows_out_of_view(table, model) -> list[str]:
    """Every key's row whole inside the table's view, as high as its type."""
    out, view = [], table.viewport().rect()
    for r in (r for r in range(model.rowCount()) if not table.isRowHidden(r)):
        rect = QRect(0, table.rowViewportPosition(r), view.width(), table.rowHeight(r))
        if not view.contains(rect):
            out.append(f"row {r} ({model.data(model.index(r, 0))}) at {rect.top()}–{rect.bottom()}, "
                       f"the view is {view.height()} high")
        if table.rowHeight(r) < QFontMetrics(table.font()).ascent():
            out.append(f"row {r} is {table.rowHeight(r)} px high")
    return out


def cells_cut(table, model) -> list[str]:
    """Columns past the view's edge, and texts wider than their column (Qt keeps 3 px a side)."""
    shown = [c for c in range(model.columnCount()) if not table.isColumnHidden(c)]
    out = ["the last column is out of view"] if sum(map(table.columnWidth, shown)) > table.viewport().width() else []
    for r in (r for r in range(model.rowCount()) if not table.isRowHidden(r)):
        for c in shown:
            text = model.data(model.index(r, c))
            font = model.data(model.index(r, c), Qt.FontRole) or table.font()
            if text and QFontMetrics(font).horizontalAdvance(text) + 6 > table.columnWidth(c):
                out.append(f"row {r} column {c}: {text!r} cut")
    return out


def overlapping(steps) -> list[str]:
    """The formula, the title (which query), the table, its Σ row and the lines under it: none over
    another, and each label as high as its wrapped text."""
    parts = [(name, getattr(steps, name)) for name in ("formula", "title", "table", "sum_table", "output",
                                                      "shifted", "note")]
    parts = [(name, part) for name, part in parts if part.isVisible()]
    out = [f"{name} is {part.height()} px high, its text {part.heightForWidth(part.width())}"
           for name, part in parts if name in ("title", "output", "shifted", "note")
           and part.height() < part.heightForWidth(part.width())]
    out += [f"{a} {pa.geometry().getCoords()} runs into {b} {pb.geometry().getCoords()}"
            for i, (a, pa) in enumerate(parts) for b, pb in parts[i + 1:] if pa.geometry().intersects(pb.geometry())]
    return out


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("lesson_id, scene", [("attention", 10), ("multi-head", 3)])  # 10 and 13 (ja; 11 en) keys
def test_a_built_in_lessons_long_sentence_shows_every_row_in_20_px_asked_and_revealed(qtbot, lesson_id, scene,
                                                                                      lang):
    desk = window(qtbot, lang)
    desk.parts.maths_dock.show()  # the maths tabbed beside the steps, as a teacher may leave them ...
    desk.parts.steps_dock.raise_()
    settle()
    desk.close()  # ... and find them the next time
    w = window(qtbot, lang)
    assert w.lessons.open(builtin_lesson(lesson_id), scene)
    settle()
    assert w.document.scenario.n >= 10
    assert problems(w) == []
    qtbot.keyClick(w, Qt.Key_A)  # the answer revealed: the caption grows, the Σ row and the output come
    settle()
    assert w.lessons.question.asked.revealed and problems(w) == []
    # The desk's tab of the steps beside the maths leaves a tab bar behind: never over the grown caption.
    bars = [b for b in w.findChildren(QTabBar, options=Qt.FindDirectChildrenOnly) if b.count()]
    assert bars and all(b.visibleRegion().isEmpty() for b in bars), [b.visibleRegion().boundingRect() for b in bars]
    for stage in (1, 2, 3, 4, 5):
        w.document.set_stage(stage)
        settle()
        assert problems(w) == [], stage
    w.lessons.end()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_sixteen_tokens_presented_show_every_row_in_20_px_at_every_step(qtbot, lang):
    w = window(qtbot, lang, sixteen(lang))
    w.classroom.set_presentation(True)
    settle()
    assert w.document.scenario.n == 16
    for stage in (None, 1, 2, 3, 4, 5):
        w.document.set_stage(stage)
        settle()
        assert problems(w) == [], stage
    assert w.parts.presenter.shown()  # there was room for the controls too


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_sixteen_tokens_in_a_lesson_fold_the_controls_rather_than_scroll_and_h_brings_them_back(qtbot, lang):
    w = window(qtbot, lang)
    assert w.lessons.open(lesson_of(sixteen(lang)), 0)
    settle()
    controls = w.parts.presenter
    assert problems(w) == [] and controls.shown()  # asked: room enough, the controls stay
    qtbot.keyClick(w, Qt.Key_A)  # revealed under its caption: the table needs the controls' room
    settle()
    assert problems(w) == [] and not controls.shown() and controls.toggle.isVisible()
    w.classroom.toggle_controls()  # H: the teacher wants them, the table scrolls rather than hide them again
    settle()
    assert controls.shown()
    w.document.set_stage(5)
    settle()
    assert controls.shown()
    w.lessons.end()


@pytest.mark.real_model("smollm2")
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_real_models_step_table_keeps_its_title_whole_in_every_scene(qtbot, lang):
    """The real model's thirteen tokens squeeze the formula onto one line and the title under it: the
    title ("Query ·cat in head 0: q = [...]") stays whole above the table, asked and revealed."""
    w = window(qtbot, lang)
    lesson = builtin_lesson("real-model")
    seen = 0
    for index, scene in enumerate(lesson.scenes):
        assert w.lessons.open(lesson, index)
        qtbot.waitUntil(lambda: not w.lessons.waiting, timeout=60000)
        settle()
        if not w.parts.steps.isVisible():
            continue
        seen += 1
        assert overlapping(w.parts.steps) == [], index + 1
        if scene.question is not None:
            qtbot.keyClick(w, Qt.Key_A)
            settle()
            assert overlapping(w.parts.steps) == [], (index + 1, "revealed")
    assert seen >= 4
    w.lessons.end()
