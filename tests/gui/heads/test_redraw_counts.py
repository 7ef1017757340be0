"""An edit redraws what it changed and nothing else: counted (data() calls, panel rebuilds,
paints, step-table resets), never timed."""
import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication

from attnviz.core import make_head, make_scenario
from attnviz.gui import MainWindow
from attnviz.gui.steps.table import StepTableModel
from attnviz.gui.tables.model import VectorTableModel


def synthetic(n: int, heads: int = 12, d_k: int = 16):
    rng = np.random.default_rng(n)
    return make_scenario([f"t{i}" for i in range(n)],
                         [make_head(f"head {h}", *rng.normal(0, 1, (3, n, d_k))) for h in range(heads)])


@pytest.fixture
def calls(monkeypatch):
    """data() calls per model class, counted through the methods Qt calls."""
    counted = {VectorTableModel: 0, StepTableModel: 0}
    for cls in counted:
        original = cls.data

        def data(self, *args, _original=original, _cls=cls):
            counted[_cls] += 1
            return _original(self, *args)
        monkeypatch.setattr(cls, "data", data)
    return counted


class Paints(QObject):
    def __init__(self, widgets):
        super().__init__()
        self.count = {w: 0 for w in widgets}
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Paint and obj in self.count:
            self.count[obj] += 1
        return False


def open_window(qtbot, scenario):
    w = MainWindow(scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    settle()
    return w


def settle():
    for _ in range(4):
        QApplication.processEvents()


def panels(w):
    return [w.findChild(object, f"headPanel{i}") for i in range(len(w.document.scenario.heads))]


def edit(w, row, col, value, matrix="q"):
    model = w.findChild(object, f"{matrix}Table").model()
    assert model.setData(model.index(row, col), value, Qt.EditRole)
    settle()


def visible_rows(view) -> int:
    top = view.rowAt(0)
    bottom = view.rowAt(view.viewport().height() - 1)
    bottom = view.model().rowCount() - 1 if bottom < 0 else bottom
    return bottom - top + 1


@pytest.mark.parametrize("n", [10, 128, 512])
def test_data_calls_per_edit_do_not_grow_with_the_number_of_tokens(qtbot, calls, n):
    w = open_window(qtbot, synthetic(n))
    table = w.findChild(object, "qTable")
    steps = w.findChild(object, "stepTable")
    w.document.select(query=min(5, n - 1))
    settle()
    calls.update({VectorTableModel: 0, StepTableModel: 0})
    edit(w, min(5, n - 1), 0, "1.5")  # the explained row: its step table changes too
    assert 0 < calls[VectorTableModel] <= 3 * visible_rows(table)
    # Every shown row's q·k changed: each of its seven cells is asked for its roles once (Qt's
    # delegate asks about ten roles per cell), the rows out of view are not asked at all.
    assert 0 < calls[StepTableModel] <= 10 * 7 * visible_rows(steps)


def test_a_one_head_edit_rebuilds_and_repaints_that_heads_panel_only(qtbot):
    w = open_window(qtbot, synthetic(10))
    shown = panels(w)
    rebuilds = [p.rebuilds for p in shown]
    paints = Paints(shown)
    edit(w, 3, 1, "2.25")
    assert [p.rebuilds - r for p, r in zip(shown, rebuilds)] == [1] + [0] * 11
    assert paints.count[shown[0]] >= 1
    assert all(paints.count[p] == 0 for p in shown[1:])


def test_an_edit_outside_the_explained_row_leaves_the_step_table_alone(qtbot, calls):
    w = open_window(qtbot, synthetic(10))
    w.document.select(head=0, query=9)
    settle()
    model = w.findChild(object, "stepTable").model()
    resets, changed = model.resets, []
    model.dataChanged.connect(lambda *a: changed.append(a))
    edit(w, 2, 0, "3")  # q of row 2: query 9's numbers are the same
    assert (model.resets, changed) == (resets, [])
    edit(w, 2, 0, "3", matrix="v")  # v of key 2: the output changes, no row of the table does
    assert (model.resets, changed) == (resets, [])
    edit(w, 4, 0, "3", matrix="k")  # key 4's score for query 9: changed in place, not reset
    assert model.resets == resets and changed
    cell = model.data(model.index(4, 2))
    assert "3" in cell  # the q·k sum shows the new k value


def test_an_edit_of_the_explained_query_rewrites_its_rows_in_place_and_keeps_the_columns(qtbot):
    """Every row's q·k changes, but the table keeps its rows and column widths: no reset (which
    would repaint the header and re-measure the columns at every keystroke)."""
    w = open_window(qtbot, synthetic(10))
    w.document.select(head=0, query=9)
    settle()
    view = w.findChild(object, "stepTable")
    model, header = view.model(), view.horizontalHeader()
    resets, changed, resized = model.resets, [], []
    model.dataChanged.connect(lambda a, b, *r: changed.append((a.row(), b.row())))
    header.sectionResized.connect(lambda *a: resized.append(a))
    before = model.data(model.index(3, 2))
    edit(w, 9, 0, "0.125")
    assert model.resets == resets and changed == [(0, 10)]  # every key and Σ, in place
    assert model.data(model.index(3, 2)) != before and "0.125" in model.data(model.index(3, 2))
    assert resized == []  # 0.125 is no reason to resize a column


def test_the_edited_cell_alone_is_marked_changed(qtbot):
    w = open_window(qtbot, synthetic(128))
    model = w.findChild(object, "qTable").model()
    marked = []
    model.dataChanged.connect(lambda a, b, *r: marked.append((a.row(), a.column(), b.row(), b.column())))
    edit(w, 100, 7, "0.5")
    assert marked == [(100, 7, 100, 7)]
