"""The layer diagram lights each stage as its guided step comes: LayerNorm (when on), the split into
heads, a head's five steps in the active head's row, concat, × W_o and + X, each in its own boxes and
nowhere else (measured in the painted pixels); → walks them where the layer is presented; the multi-head
lesson's layer scenes each light the stage their caption speaks of; and every text the presented
diagram paints, its subscripts too, is at least 20 px at 1920 × 1080."""
import pytest
from PySide6.QtGui import QFontInfo, QPainter
from PySide6.QtWidgets import QApplication
from test_layer_view import open_view  # tests/gui/layer is on the path

from attnviz.core import layer, load_preset
from attnviz.core.lessons import builtin_lesson
from attnviz.core.scenario import with_projection_options
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language, tr
from attnviz.gui.layer.diagram import LIT
from attnviz.gui.steps.stages import ALL_NUMBERS, LAYER_STAGES, NUMBERS, row_stage, stage
from pixels import near, rgb


def expected(flow, step: int, head: int = 0) -> set[str]:
    """The boxes step `step` computes, named by hand from the seed's picture."""
    keys = [b.key for column in flow.columns for b in column]
    row = {1: "scores", 2: "scaled", 3: "masked", 4: "weights", 5: "heads"}
    return {layer.LAYER_NORM: {"normed"},
            layer.SPLIT: {k for k in keys if k.startswith(("q:", "kv:"))},
            layer.CONCAT: {"concat"}, layer.W_O: {"w_o", "projected"},
            layer.RESIDUAL: {"add", "output"}}.get(step, {f"{row.get(step)}:{head}"})


def fill(view, key, image):
    """A box's fill: its pixels inside its border, above its first line's letters and below its last's."""
    r = view.diagram.boxes()[key].rect
    inside = 7  # past the border, the selected box's too (a fifth of the type: 5 px at 24)
    return image[int(r.top() + inside):int(r.top() + inside + 2), int(r.left() + inside):int(r.right() - inside)]


def lit_in_pixels(view) -> set[str]:
    """The boxes painted in the lit colour (nearly all of their fill), measured in a grab."""
    image = rgb(view.diagram.grab().toImage())
    lit = set()
    for key in view.diagram.boxes():
        share = near(fill(view, key, image), LIT).mean()
        assert share > 0.9 or share == 0, (key, share)  # lit or not, never partly
        if share > 0.9:
            lit.add(key)
    return lit


@pytest.mark.parametrize("preset, options", [("projection-demo", {}), ("projection-demo", dict(layer_norm=True)),
                                             ("gqa-demo", dict(positions="rope")),
                                             ("position-nekoga", dict(positions="sinusoidal", layer_norm=True))])
def test_each_step_of_the_layer_lights_its_own_boxes_and_no_other(qtbot, preset, options):
    scenario = with_projection_options(load_preset(preset), **options)
    view = open_view(qtbot, scenario, size=(1920, 1080), presenting=True)
    steps = layer.steps(scenario.projection)
    assert steps[steps.index(layer.SPLIT):] == (layer.SPLIT, 1, 2, 3, 4, 5, layer.CONCAT, layer.W_O, layer.RESIDUAL)
    assert (layer.LAYER_NORM in steps) == scenario.projection.layer_norm
    assert lit_in_pixels(view) == set()
    seen = set()
    for step in steps:
        view.document.set_stage(step)
        assert lit_in_pixels(view) == expected(view.flow, step), step
        seen |= expected(view.flow, step)
    view.document.select(head=1)
    view.document.set_stage(3)
    assert lit_in_pixels(view) == {"masked:1"}  # a head's steps: the active head's row only
    view.document.set_stage(layer.SPLIT)
    assert lit_in_pixels(view) == expected(view.flow, layer.SPLIT)  # the split: every head's
    assert {"concat", "w_o", "add"} <= seen


def test_without_the_residual_there_is_no_plus_x_step_and_o_comes_with_w_o():
    p = load_preset("projection-demo").projection
    from dataclasses import replace
    bare = replace(p, residual=False)
    assert layer.RESIDUAL not in layer.steps(bare) and layer.steps(bare)[-1] == layer.W_O
    flow = layer.flow(bare, 5)
    assert layer.lit(flow, layer.W_O, 0) == {"w_o", "projected", "output"}


def test_the_layers_steps_are_numbered_after_a_rows_and_titled():
    from attnviz.gui.lessons.presenter import step_text
    assert NUMBERS == layer.ROW_STEPS  # the diagram lights a head's boxes by these numbers
    assert tuple(s.number for s in LAYER_STAGES) == layer.LAYER_STEPS
    assert ALL_NUMBERS == (*NUMBERS, *layer.LAYER_STEPS) and len(set(ALL_NUMBERS)) == len(ALL_NUMBERS)
    scene = builtin_lesson("multi-head").scenes[0]
    for number in layer.LAYER_STEPS:
        assert stage(number).title and row_stage(number) is None  # a row's views show it all
        assert tr(stage(number).title) in step_text(scene, number) and " of " not in step_text(scene, number)


def presenting_layer(qtbot, preset="projection-demo", lang="en"):
    install_language(lang)
    w = MainWindow(preset)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    w.classroom.set_presentation(True)
    w.classroom.present_view("layer")
    QApplication.processEvents()
    return w


def test_presented_the_layer_right_arrow_walks_split_the_heads_steps_concat_w_o_and_plus_x(qtbot):
    w = presenting_layer(qtbot)
    d, walked = w.document, []
    w.classroom.toggle_guided()
    while d.stage is not None:
        walked.append(d.stage)
        w.classroom.next_step()
    assert tuple(walked) == layer.steps(d.scenario.projection)
    w.classroom.previous_step()
    assert d.stage == layer.RESIDUAL
    w.classroom.present_view("heads")  # one query's row: its five steps again
    w.classroom.next_step()
    assert d.stage == 1


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_multi_head_lessons_layer_scenes_each_light_the_stage_their_caption_tells(qtbot, lang):
    install_language(lang)
    w = MainWindow("seed-demo")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    lesson = builtin_lesson("multi-head")
    told = {"split": layer.SPLIT, "concat": layer.CONCAT, "W_o": layer.W_O, "O = X + Y′": layer.RESIDUAL,
            "LayerNorm": layer.LAYER_NORM}
    scenes = {i: s for i, s in enumerate(lesson.scenes) if s.view == "layer" and s.step is not None}
    assert [s.step for s in scenes.values()] == list(told.values())
    for (index, scene), (words, step) in zip(scenes.items(), told.items()):
        assert words.lower() in scene.caption.en.lower()
        assert w.lessons.open(lesson, index) if not w.lessons.active else (w.lessons.go(index) or True)
        QApplication.processEvents()
        view = w.parts.pipeline
        assert w.document.stage == step and lit_in_pixels(view) == expected(view.flow, step), index + 1
    w.lessons.end()


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("preset, options", [("projection-demo", {}), ("gqa-demo", dict(positions="rope")),
                                             ("position-nekoga", dict(positions="sinusoidal", layer_norm=True))])
def test_presented_every_text_the_diagram_paints_subscripts_too_is_20_px_or_more(qtbot, monkeypatch, lang,
                                                                                 preset, options):
    install_language(lang)
    scenario = with_projection_options(load_preset(preset), **options)
    view = open_view(qtbot, scenario, size=(1920, 1080), presenting=True)
    view.document.set_stage(layer.SPLIT)
    sizes, real = [], QPainter.drawText

    def record(painter, *args):  # the font each text is painted in, as the painter has it
        sizes.append((QFontInfo(painter.font()).pixelSize(), next(a for a in args if isinstance(a, str))))
        return real(painter, *args)
    monkeypatch.setattr(QPainter, "drawText", record)
    view.diagram.grab()
    monkeypatch.undo()
    assert {"q", "o", "k"} <= {t for _, t in sizes}  # W_q, W_o, d_k's subscripts: painted on their own
    assert min(sizes) >= (20, ""), min(sizes)
    assert view.diagram.fonts.pixels >= 20 and QFontInfo(view.diagram.fonts.sub).pixelSize() >= 20


def test_a_layers_step_shows_the_numbers_it_computes_below_the_diagram_until_a_box_is_clicked(qtbot):
    """LayerNorm's step shows LayerNorm(X), concat Y, × W_o Y′, + X O; the split the active head's Q_i, a
    head's five that head's scores to Y_i (a presented layer scene has no step table beside it); a box
    clicked is shown until the next step comes (the multi-head lesson's LayerNorm scene read X before)."""
    import numpy as np

    from attnviz.core.attention import layer_norm
    scenario = with_projection_options(load_preset("projection-demo"), layer_norm=True)
    view = open_view(qtbot, scenario, size=(1920, 1080), presenting=True)
    d = view.document
    shown = {}
    for step in layer.steps(scenario.projection):
        d.set_stage(step)
        shown[step] = view.current_key()
    assert (shown[layer.LAYER_NORM], shown[layer.CONCAT], shown[layer.W_O], shown[layer.RESIDUAL]) == (
        "normed", "concat", "projected", "output")
    assert shown[layer.SPLIT] == "q:0"
    assert [shown[step] for step in layer.ROW_STEPS] == ["scores:0", "scaled:0", "masked:0", "weights:0", "heads:0"]
    d.set_stage(layer.LAYER_NORM)
    table = np.array([[float(view.model.data(view.model.index(r, c)).replace("\u2212", "-"))
                       for c in range(view.model.columnCount())]
                      for r in range(view.model.rowCount())])
    np.testing.assert_allclose(table, layer_norm(scenario.projection.x), atol=6e-3)  # as written, 3 decimals
    view.select("x")
    d.select(query=2)  # no new step: the box clicked stays
    assert view.current_key() == "x"
    d.select(head=1)
    d.set_stage(layer.SPLIT)
    assert view.current_key() == "q:1"
