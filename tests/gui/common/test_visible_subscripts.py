"""No visible text writes the maths' subscripts with an underscore (d_k, W_o, K_iᵀ, Y_i): in both
languages, every widget's text, tooltip, menu entry, tab and table header of the window, on the
desk and presenting, with the maths views and the layer built, shows dₖ, Wₒ, Kᵢᵀ, Yᵢ (or sets
them as rich-text subscripts)."""
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDockWidget,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QTabBar,
    QWidget,
)

from attnviz.core.presets import open_named
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language, subscripts, tr
from attnviz.gui.common.markup import rich

# q has no subscript letter in Unicode: W_q may stay in plain text (rich text sets it as W<sub>q</sub>)
UNDERSCORED = re.compile(r"(?:(?<![a-z0-9_])|(?<=_[kvqoij0-9]))[dWQKVY]_[kvoi0-9](?![a-z0-9_])")  # Q_iK_iᵀ, YW_o too


def texts_of(widget: QWidget):
    """Every text `widget` shows: its own, its tooltip, its items, its header's sections, its actions."""
    yield widget.toolTip()
    if isinstance(widget, (QLabel, QAbstractButton, QLineEdit)):
        yield widget.text()
    if isinstance(widget, QDockWidget):
        yield widget.windowTitle()
    if isinstance(widget, QComboBox):
        yield from (widget.itemText(i) for i in range(widget.count()))
    if isinstance(widget, QListWidget):  # the layer's stages
        yield from (widget.item(i).text() for i in range(widget.count()))
    if isinstance(widget, QTabBar):
        yield from (widget.tabText(i) for i in range(widget.count()))
    if isinstance(widget, QHeaderView) and widget.model() is not None:  # the tables' column and row names
        model, count = widget.model(), min(widget.count(), 50)
        yield from (str(model.headerData(i, widget.orientation()) or "") for i in range(count))
        yield from (str(model.headerData(i, widget.orientation(), Qt.ToolTipRole) or "") for i in range(count))
    for action in widget.actions():
        yield action.text()
        yield action.toolTip()


def underscored(window) -> list[str]:
    found = {t for w in window.findChildren(QWidget) for t in texts_of(w)}
    for action in window.findChildren(QAction):  # every menu's entries, the toolbar's buttons
        found.update((action.text(), action.toolTip()))
    found.add(window.windowTitle())
    return sorted(t for t in found if UNDERSCORED.search(t))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("preset", ["seed-demo", "projection-demo"])
def test_no_visible_text_writes_a_subscript_with_an_underscore(qtbot, lang, preset):
    install_language(lang)
    w = MainWindow(open_named(preset, lang=lang))
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    w.parts.bring_forward(w.parts.maths_dock)  # the maths views are built when first shown
    qtbot.wait(50)
    assert underscored(w) == []
    w.classroom.set_presentation(True)
    qtbot.wait(50)
    assert underscored(w) == []
    w.classroom.set_presentation(False)


def test_tr_writes_subscripts_as_the_formula_and_rich_text_sets_them_as_subscripts():
    assert tr("÷ √d_k") == "÷ √dₖ"
    assert subscripts("Q_i K_iᵀ, Y_i = weights V_i, Y W_o, d_v; n_kv_heads, v_labels") == \
        "Qᵢ Kᵢᵀ, Yᵢ = weights Vᵢ, Y Wₒ, dᵥ; n_kv_heads, v_labels"
    assert rich("÷ √dₖ and W_q") == "÷ √d<sub>k</sub> and W<sub>q</sub>"
