"""From X to O in the window, grouped-query attention, positions, and a model's own files."""
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QSpinBox, QTableView, QWidget

from attnviz.core import compute
from attnviz.core.presets import open_named
from attnviz.gui import MainWindow
from attnviz.gui.steps.table import DOT, EXP, WEIGHT


def open_window(qtbot, scenario):
    # a preset's Japanese version, the numbers these tests were written for (the window is English)
    w = MainWindow(open_named(scenario, lang="ja") if isinstance(scenario, str) else scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


def stage(w, key):
    w.parts.pipeline.select(key)
    model = w.findChild(QTableView, "pipelineMatrix").model()
    return model, np.array([[model.matrix[r, c] for c in range(model.columnCount())] for r in range(model.rowCount())])


def test_projection_demo_shows_every_stage_with_its_shape(qtbot):
    w = open_window(qtbot, "projection-demo")
    assert w.parts.pipeline_dock.isVisible()
    boxes = w.parts.pipeline.diagram.boxes()  # every stage a box, each with its shape
    for key, shape in (("x", "5 × 4"), ("q:1", "5 × 2"), ("weights:0", "5 × 5"), ("concat", "5 × 4"),
                       ("output", "5 × 4")):
        assert shape in " ".join(boxes[key].lines), key
    layer = compute(w.document.scenario).layer
    for key, expected in (("output", layer.output), ("concat", layer.concat), ("projected", layer.projected),
                          ("weights:0", layer.heads.weights[0])):
        np.testing.assert_array_equal(stage(w, key)[1], expected)
    np.testing.assert_array_equal(stage(w, "output")[1], w.document.scenario.projection.x + layer.projected)


def test_editing_x_in_the_layer_panel_moves_the_derived_tables_and_heatmaps(qtbot):
    w = open_window(qtbot, "projection-demo")
    model, _ = stage(w, "x")
    assert model.flags(model.index(0, 0)) & Qt.ItemIsEditable
    assert model.setData(model.index(2, 0), "1.5")
    s = w.document.scenario
    assert s.projection.x[2, 0] == 1.5
    q_model = w.findChild(QTableView, "qTable").model()
    assert not q_model.flags(q_model.index(0, 0)) & Qt.ItemIsEditable  # derived: read-only
    assert "derived from X" in w.findChild(QWidget, "qCaption").text()
    np.testing.assert_array_equal(w.findChild(QWidget, "headPanel0").weights(), compute(s).heads[0].weights)
    computed, _ = stage(w, "output")
    assert not computed.flags(computed.index(0, 0)) & Qt.ItemIsEditable
    model, _ = stage(w, "x")
    assert not model.setData(model.index(0, 0), "abc")
    assert w.document.scenario.projection.x[0, 0] == 1.0 and w.findChild(QWidget, "messageLabel").text()


def test_grouped_query_heads_say_which_heads_share_k_and_v(qtbot):
    w = open_window(qtbot, "gqa-demo")
    titles = [w.findChild(QWidget, f"headPanel{i}").data().title for i in range(4)]
    assert titles[0].endswith("K/V group 0, shared with head 1")
    assert titles[3].endswith("K/V group 1, shared with head 2")
    groups = w.findChild(QSpinBox, "kvGroups")
    groups.setValue(4)
    assert "shared" not in w.findChild(QWidget, "headPanel0").data().title
    groups.setValue(3)  # 4 heads cannot share K and V in 3 groups
    assert "cannot share" in w.findChild(QWidget, "messageLabel").text()
    assert w.document.scenario.projection.kv_heads == 4


def test_layer_norm_and_positions_are_switched_in_the_layer_panel(qtbot):
    w = open_window(qtbot, "position-nekoga")
    before = compute(w.document.scenario).layer.output
    w.findChild(QCheckBox, "layerNormToggle").click()
    model, normed = stage(w, "normed")
    np.testing.assert_allclose(normed.mean(axis=1), 0, atol=1e-12)
    box = w.findChild(QComboBox, "positionsSelector")
    box.setCurrentIndex(2)
    box.activated.emit(2)
    assert w.document.scenario.projection.positions == "rope"
    assert not np.allclose(compute(w.document.scenario).layer.output, before)
    w.menus.undo_action.trigger()
    w.menus.undo_action.trigger()
    np.testing.assert_array_equal(compute(w.document.scenario).layer.output, before)


def model_file(tmp_path, layers=3):
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(layers, 4, 6, 6)) * 2 + np.triu(np.full((6, 6), -np.inf), 1)
    w = np.exp(scores - scores.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    np.savez(tmp_path / "model.npz", tokens=np.array(["The", "cat", "sat", "on", "a", "mat"]), weights=w)
    return tmp_path / "model.npz", w


def test_a_models_weights_open_with_a_layer_chooser(qtbot, tmp_path):
    path, weights = model_file(tmp_path)
    w = open_window(qtbot, str(path))
    chooser = w.findChild(QComboBox, "layerSelector")
    assert chooser.isVisible() and chooser.count() == 3
    np.testing.assert_array_equal(w.findChild(QWidget, "headPanel2").weights(), weights[0, 2])
    chooser.setCurrentIndex(2)
    chooser.activated.emit(2)
    assert w.document.scenario.layer == (2, 3)
    np.testing.assert_array_equal(w.findChild(QWidget, "headPanel2").weights(), weights[2, 2])
    assert w.windowTitle().startswith("model.npz")


def test_weights_alone_hide_the_vector_tables_and_the_controls_that_would_not_change_them(qtbot, tmp_path):
    path, _ = model_file(tmp_path, layers=1)
    w = open_window(qtbot, str(path))
    assert not w.parts.vectors_dock.isVisible() and not w.parts.settings_bar.isEnabled()
    assert not w.findChild(QComboBox, "layerSelector").isVisible()
    QApplication.processEvents()
    step = w.findChild(QTableView, "stepTable")
    assert step.isColumnHidden(DOT) and step.isColumnHidden(EXP) and not step.isColumnHidden(WEIGHT)
    assert not w.tokens.insert(0, "A")
    assert "cannot be added or removed" in w.findChild(QWidget, "messageLabel").text()
    w.parts.maths.widget()
    w.parts.maths.views[0].refresh()
    assert "weights only" in w.parts.maths.views[0].note.text()


def test_switching_layers_keeps_the_head_and_query_and_a_cancel_keeps_the_chooser_true(qtbot, tmp_path,
                                                                                          monkeypatch):
    from PySide6.QtWidgets import QMessageBox
    path, weights = model_file(tmp_path)
    w = open_window(qtbot, str(path))
    w.document.select(head=2, query=3)
    chooser = w.findChild(QComboBox, "layerSelector")
    chooser.setCurrentIndex(1)
    chooser.activated.emit(1)
    assert (w.document.scenario.layer, w.document.active_head, w.document.query) == ((1, 3), 2, 3)
    w.tokens.rename(0, "A")  # an unsaved edit, then the user cancels the switch
    monkeypatch.setattr(w.files, "ask_unsaved", lambda: QMessageBox.Cancel)
    chooser.setCurrentIndex(2)
    chooser.activated.emit(2)
    assert w.document.scenario.layer == (1, 3) and chooser.currentIndex() == 1


def test_a_layer_scenario_brings_the_layer_panel_forward(qtbot):
    w = open_window(qtbot, "projection-demo")
    qtbot.waitUntil(lambda: not w.parts.pipeline_dock.visibleRegion().isEmpty(), timeout=2000)
    assert w.parts.vectors_dock.visibleRegion().isEmpty()
