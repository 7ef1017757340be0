"""Is a presented view readable from the back row? For any view's tests:

    from presented import unreadable  # tests/gui is on the path
    assert unreadable(widget) == []

lists every visible text widget under `widget` whose type is smaller than `least` pixels, or whose
text does not fit its rectangle (measured with QFontMetrics, as Qt lays it out).
"""
from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontInfo, QFontMetrics, QFontMetricsF, QTextDocument
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QRadioButton,
    QStyle,
    QStyleOptionComboBox,
    QTabBar,
    QTableWidget,
    QWidget,
)

LEAST_PIXELS = 20  # at 1920 × 1080: what a class reads from the back
SLACK = 1  # px: rounding
TEXT_WIDGETS = (QLabel, QAbstractButton, QComboBox, QLineEdit, QAbstractSpinBox, QAbstractItemView, QTabBar)


def on_screen(widget: QWidget) -> bool:
    """Shown, and not behind a tab or out of the window."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty() and widget.width() > 0


def text_widgets(root: QWidget) -> list[QWidget]:
    found = [root] if isinstance(root, TEXT_WIDGETS) else []
    found += [w for w in root.findChildren(QWidget) if isinstance(w, TEXT_WIDGETS)]
    # an item view's viewport, a spin box's editor: their owner is checked
    return [w for w in found if on_screen(w) and not isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox))]


def plain(label: QLabel) -> str:
    text = label.text()
    if label.textFormat() == Qt.RichText or (label.textFormat() == Qt.AutoText and GuiQt.mightBeRichText(text)):
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def ink_width(fm: QFontMetrics, text: str) -> int:
    """The room the text needs: its advance (what Qt lays it out by), or less when it ends in blank
    space (a full-width ）'s right half), which may be cut without cutting anything."""
    if not text.strip():
        return 0
    return min(fm.horizontalAdvance(text), fm.tightBoundingRect(text).right() + 1)


def _clipped(widget: QWidget) -> str | None:
    """Why its text does not fit, or None."""
    fm = QFontMetrics(widget.font())
    if isinstance(widget, QLabel):
        text = plain(widget)
        if not text.strip() or widget.pixmap() is not None and not widget.pixmap().isNull():
            return None
        room = widget.contentsRect().adjusted(widget.margin(), widget.margin(), -widget.margin(), -widget.margin())
        if widget.wordWrap():
            needed = fm.boundingRect(QRect(0, 0, room.width(), 100000), Qt.TextWordWrap, text)
            return None if needed.height() <= room.height() + 1 else \
                f"{needed.height()} px of wrapped text in {room.height()} px"
        widest = max(ink_width(fm, line) for line in text.split("\n"))
        high = fm.height() * len(text.split("\n"))
        if widest > room.width() + SLACK or high > room.height() + fm.descent() + 1:
            return f"{widest}×{high} px of text in {room.width()}×{room.height()} px"
        return None
    if isinstance(widget, (QCheckBox, QRadioButton)):
        return None if widget.sizeHint().width() <= widget.width() + 1 else \
            f"needs {widget.sizeHint().width()} px, has {widget.width()}"
    if isinstance(widget, QAbstractButton):
        text = widget.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if text and ink_width(fm, text) > widget.width():
            return f"{ink_width(fm, text)} px of text in {widget.width()} px"
    if isinstance(widget, QComboBox) and widget.currentText():
        option = QStyleOptionComboBox()
        widget.initStyleOption(option)
        room = widget.style().subControlRect(QStyle.CC_ComboBox, option, QStyle.SC_ComboBoxEditField, widget).width()
        if ink_width(fm, widget.currentText()) > room + SLACK:
            return f"{ink_width(fm, widget.currentText())} px of text in {room} px"
    return None


def describe(widget: QWidget) -> str:
    text = plain(widget) if isinstance(widget, QLabel) else getattr(widget, "text", lambda: "")()
    return f"{type(widget).__name__} {widget.objectName() or ''} {str(text)[:40]!r}"


def unreadable(root: QWidget, least: int = LEAST_PIXELS) -> list[str]:
    """Every visible text widget under `root` too small for the back row, or cut."""
    problems = []
    for widget in text_widgets(root):
        if isinstance(widget, QAbstractButton) and not widget.text():
            continue  # an icon (a dock's close button): no type to read
        pixels = QFontInfo(widget.font()).pixelSize()
        if pixels < least:
            problems.append(f"{describe(widget)}: {pixels} px type")
        why = _clipped(widget)
        if why:
            problems.append(f"{describe(widget)}: clipped, {why}")
    return problems


def px(font) -> int:
    return QFontInfo(font).pixelSize()


def shown(view: QWidget, kind) -> list:
    return [w for w in view.findChildren(kind) if w.isVisibleTo(view) and w.width() > 0]


def widget_problems(view: QWidget) -> list[str]:
    """unreadable(view), and every shown table's cells and headers within their columns."""
    problems = unreadable(view)
    for table in shown(view, QTableWidget):
        problems += table_problems(table)
    return problems


def table_problems(table: QTableWidget) -> list[str]:
    """A table's type, and every cell's and header's text within its column (shown or not)."""
    problems = []
    fm = QFontMetricsF(table.font())
    if px(table.font()) < LEAST_PIXELS or px(table.horizontalHeader().font()) < LEAST_PIXELS:
        problems.append(f"table {table.objectName()}: {px(table.font())} px, "
                        f"header {px(table.horizontalHeader().font())} px")
    for r in range(table.rowCount()):
        if table.rowHeight(r) < fm.height():
            problems.append(f"table row {r}: {table.rowHeight(r)} px high for {fm.height():.0f} px of text")
        for c in range(table.columnCount()):
            text = table.item(r, c).text()
            if fm.horizontalAdvance(text) > table.columnWidth(c) - 2:
                problems.append(f"table cell {text!r} cut: {fm.horizontalAdvance(text):.0f} > {table.columnWidth(c)}")
    header = table.horizontalHeader()
    hfm = QFontMetricsF(header.font())
    for c in range(table.columnCount()):
        text = table.horizontalHeaderItem(c).text()
        if hfm.horizontalAdvance(text) > header.sectionSize(c):
            problems.append(f"header {text!r} cut: {hfm.horizontalAdvance(text):.0f} > {header.sectionSize(c)}")
    return problems


def presenting(qtbot, preset="seed-demo", lang="en"):
    """A window on `preset` in `lang`, presenting (F5) on the test's screen; closed without asking."""
    from PySide6.QtWidgets import QApplication

    from attnviz.gui import MainWindow
    from attnviz.gui.common.i18n import install_language
    install_language(lang)
    w = MainWindow(preset)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    w.classroom.set_presentation(True)
    QApplication.processEvents()
    return w
