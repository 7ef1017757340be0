"""What a presented view's widgets must be, checked one way for every view: type at least 20 px (at
1920×1080) and every text within its rectangle (QFontMetrics against the widget's rect)."""
from __future__ import annotations

from PySide6.QtGui import QFontInfo, QFontMetricsF
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QTableWidget

LEAST = 20  # px: the least type presenting at 1920×1080


def px(font) -> int:
    return QFontInfo(font).pixelSize()


def shown(view, kind):
    return [w for w in view.findChildren(kind) if w.isVisibleTo(view) and w.width() > 0]


def widget_problems(view) -> list[str]:
    """Qt widgets whose type is small or whose text does not fit their rectangle."""
    problems = []
    for label in shown(view, QLabel):
        if not label.text():
            continue
        if px(label.font()) < LEAST:
            problems.append(f"label {label.text()[:30]!r}: {px(label.font())} px")
        room = label.contentsRect()
        if label.wordWrap():
            if label.heightForWidth(room.width()) > room.height() + 1:
                problems.append(f"label {label.text()[:30]!r} cut: needs {label.heightForWidth(room.width())} px "
                                f"of height, has {room.height()}")
        elif label.sizeHint().width() > label.width() + 1:
            problems.append(f"label {label.text()[:30]!r} cut: {label.sizeHint().width()} > {label.width()}")
    for widget in shown(view, QAbstractButton) + shown(view, QComboBox):
        text = widget.currentText() if isinstance(widget, QComboBox) else widget.text()
        if px(widget.font()) < LEAST:
            problems.append(f"{type(widget).__name__} {text!r}: {px(widget.font())} px")
        hint = widget.sizeHint()
        if hint.width() > widget.width() + 1 or hint.height() > widget.height() + 1:
            problems.append(f"{type(widget).__name__} {text!r} cut: {hint.toTuple()} > {widget.size().toTuple()}")
    for table in shown(view, QTableWidget):
        problems += table_problems(table)
    return problems


def table_problems(table: QTableWidget) -> list[str]:
    problems = []
    fm = QFontMetricsF(table.font())
    if px(table.font()) < LEAST or px(table.horizontalHeader().font()) < LEAST:
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
