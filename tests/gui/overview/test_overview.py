"""View → Overview: every layer × head of a model's file, its statistics, means and rollout."""
import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtTest import QTest

import hostile
from attnviz.cli import main
from attnviz.core import compute, lm, load_scenario
from attnviz.core.summary import head_stats, layer_weights, mean_over_heads, named_layers, rollout, summarise
from attnviz.gui import MainWindow
from attnviz.gui.look import colormaps
from attnviz.gui.overview.dialog import OverviewFigure

LAYERS, HEADS, N, D = 4, 3, 6, 4


@pytest.fixture
def model_file(tmp_path):
    """q, k, v of every layer [layers, heads, n, d], as `attnviz model -o` writes them."""
    rng = np.random.default_rng(3)
    path = tmp_path / "model.npz"
    np.savez(path, tokens=np.array(["猫", "が", "魚", "を", "食べ", "た"]),
             **{m: rng.normal(size=(LAYERS, HEADS, N, D)).astype(np.float32) for m in "qkv"})
    return path


@pytest.fixture
def overview(qtbot, model_file):
    window = MainWindow(str(model_file))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    window.menus.overview_action.trigger()
    dialog = window.overview.dialog
    qtbot.waitUntil(lambda: dialog.figure is not None, timeout=10000)
    return window, dialog


def all_weights(path):
    return [np.stack(compute(load_scenario(path, layer)).weights()) for layer in range(LAYERS)]


def test_the_grid_has_one_thumbnail_per_layer_and_head_with_the_files_weights(overview, model_file):
    _, dialog = overview
    summary = dialog.summary
    assert (summary.layers, summary.heads) == (LAYERS, HEADS)
    weights = all_weights(model_file)
    for layer in range(LAYERS):
        np.testing.assert_allclose(summary.thumbnails[layer], weights[layer], atol=1e-6)  # small: kept whole
        np.testing.assert_allclose(summary.table()[layer], head_stats(weights[layer]), rtol=1e-6)
    rects = {(layer, h): dialog.figure.thumb_rect(layer, h) for layer in range(LAYERS) for h in range(HEADS)}
    assert len({(r.x(), r.y()) for r in rects.values()}) == LAYERS * HEADS  # none on top of another
    assert all(dialog.figure.at(r.center().x(), r.center().y()) == key for key, r in rects.items())


def test_clicking_a_thumbnail_opens_that_layer_with_that_head_active(overview, qtbot):
    window, dialog = overview
    dialog.tabs.setCurrentIndex(0)
    dialog.resize(1600, 900)  # a wide dialog: the grid grows with it, and clicks still find their head
    qtbot.waitUntil(lambda: dialog.canvas.zoom > 1.5)
    centre = dialog.figure.thumb_rect(2, 1).center() * dialog.canvas.zoom  # the grid grows to the dialog's width
    QTest.mouseClick(dialog.canvas, Qt.LeftButton, pos=QPoint(int(centre.x()), int(centre.y())))
    qtbot.waitUntil(lambda: window.document.scenario.layer == (2, LAYERS))
    assert window.document.active_head == 1
    assert dialog.figure.active == (2, 1)


def test_the_statistics_table_sorts_by_value_and_selects_a_head(overview):
    _, dialog = overview
    table = dialog.table
    assert table.rowCount() == LAYERS * HEADS
    table.sortItems(5, Qt.DescendingOrder)  # previous-token score, highest first
    values = [table.item(r, 5).value for r in range(table.rowCount())]
    assert values == sorted(values, reverse=True)
    layer, head = table.head_at(0)
    assert values[0] == pytest.approx(dialog.summary.table()[layer, head, 3])
    table.selectRow(0)
    assert dialog.figure.active == (layer, head)


def test_find_heads_like_this_one_marks_the_five_nearest(overview):
    _, dialog = overview
    dialog.mark_active(1, 2)
    dialog.alike_button.click()
    assert dialog.figure.alike == dialog.summary.like(1, 2) and len(dialog.figure.alike) == 5
    assert (1, 2) not in dialog.figure.alike


def test_rollout_is_shown_layer_by_layer_with_its_formula(overview, model_file):
    _, dialog = overview
    view = dialog.summaries
    dialog.tabs.setCurrentWidget(view)
    view.kind.setCurrentIndex(0)
    products = rollout([mean_over_heads(w) for w in all_weights(model_file)])
    for layer in range(LAYERS):
        view.layer.setValue(layer)
        np.testing.assert_allclose(view.canvas.data().weights, products[layer], rtol=1e-6)
    assert "R<sub>3</sub> = Â<sub>3</sub> · R<sub>2</sub>" in view.formula.text()
    view.kind.setCurrentIndex(1)
    view.layer.setValue(1)
    np.testing.assert_allclose(view.canvas.data().weights, all_weights(model_file)[1].mean(axis=0), rtol=1e-6)


def test_export_overview_draws_every_layer_and_head(tmp_path, model_file):
    out = tmp_path / "grid.png"
    assert main(["export", str(model_file), "--overview", "-o", str(out), "--width", "800"]) == 0
    image = QImage(str(out))
    first, count, scenario_of = named_layers(str(model_file))
    figure = OverviewFigure(summarise(first.tokens, layer_weights(count, scenario_of)), "model.npz")
    scale = image.width() / figure.size().width()
    weights = all_weights(model_file)
    cmap = colormaps.get()
    for layer in range(LAYERS):
        for head in range(HEADS):
            # the bottom-left cell of each thumbnail (last query, first key) in the file's pixels
            rect = figure.thumb_rect(layer, head)
            x, y = (rect.left() + rect.width() / N / 2) * scale, (rect.bottom() - rect.height() / N / 2) * scale
            expected = cmap.color(weights[layer][head][N - 1, 0])
            got = image.pixelColor(int(x), int(y))
            assert max(abs(got.red() - expected.red()), abs(got.green() - expected.green()),
                       abs(got.blue() - expected.blue())) <= 12, (layer, head)
    svg = tmp_path / "grid.svg"
    assert main(["export", str(model_file), "--overview", "-o", str(svg)]) == 0
    assert svg.read_text(encoding="utf-8").count("<image") == LAYERS * HEADS + 1  # and the colour bar


def test_export_overview_refuses_options_that_do_not_apply(capsys, model_file, tmp_path):
    assert main(["export", str(model_file), "--overview", "--head", "1", "-o", str(tmp_path / "x.png")]) == 2
    assert "--overview" in capsys.readouterr().err


def test_the_grid_can_show_which_head_sends_a_query_to_a_key(overview, model_file):
    _, dialog = overview
    dialog.show_pair(5, 2)  # た → 魚
    weights = all_weights(model_file)
    np.testing.assert_allclose(dialog.figure.overlay_values(), [w[:, 5, 2] for w in weights], rtol=1e-6)
    assert dialog.pair_key.isVisible() and "た" in dialog.figure.caption_text()
    dialog.overlay.setCurrentIndex(0)
    assert not dialog.pair_key.isVisible() and dialog.figure.overlay is None


def test_two_layers_of_one_model_are_compared_with_their_difference(qtbot, model_file, tmp_path):
    window = MainWindow(str(model_file))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.compare.compare_layer(3)
    qtbot.waitUntil(lambda: window.compare.dialog.figure is not None, timeout=10000)  # built off the GUI thread
    figure = window.compare.dialog.figure
    weights = all_weights(model_file)
    for head, difference in enumerate(figure.differences()):
        np.testing.assert_allclose(difference, weights[3][head] - weights[0][head], atol=1e-6)
    assert figure.titles() == ("model, layer 0", "model, layer 3")
    out = tmp_path / "layers.svg"
    assert main(["export", str(model_file), "--compare", str(model_file), "--compare-layer", "3", "-o", str(out)]) == 0
    assert "layer 3" in out.read_text(encoding="utf-8")


def test_an_overview_after_the_tokens_were_edited_says_why_it_cannot_be_made(qtbot, model_file):
    window = MainWindow(str(model_file))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    assert window.tokens.remove(2)
    window.menus.overview_action.trigger()
    dialog = window.overview.dialog
    qtbot.waitUntil(lambda: "open the file again" in dialog.message.text(), timeout=10000)
    assert dialog.figure is None


def test_one_overview_at_a_time_and_none_left_over_for_another_file(qtbot, overview, model_file):
    from PySide6.QtWidgets import QDialog
    window, first = overview
    shown = first.summary
    window.menus.overview_action.trigger()  # again: the open one gathers again
    qtbot.waitUntil(lambda: first.summary is not shown and not first.working, timeout=10000)
    assert window.overview.dialog is first
    assert len([d for d in window.findChildren(QDialog) if d.objectName() == "overviewDialog"]) == 1
    window.files.open_scenario("seed-demo")  # another scenario: its overview would describe the wrong model
    qtbot.waitUntil(lambda: window.overview.dialog is None)


def test_the_heads_alike_are_named_and_forgotten_when_another_head_is_chosen(overview):
    _, dialog = overview
    dialog.mark_active(1, 2)
    dialog.alike_button.click()
    assert "layer 1, head 2" in dialog.message.text() and dialog.figure.alike
    dialog.choose(3, 0)
    assert dialog.figure.alike == [] and dialog.figure.active == (3, 0)


# ---------------------------------------------------------------- many layers: a sensible image

CAPPED_EXPORT = hostile.CAPPED_CLI


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS caps memory the same way on Linux only")
def test_256_layers_of_2_tokens_export_as_a_squarish_image_in_bounded_memory(tmp_path):
    w = np.zeros((256, 1, 2, 2), np.float32)
    w[..., 0] = 1
    path, out = tmp_path / "deep.npz", tmp_path / "deep.png"
    np.savez(path, tokens=np.array(["a", "b"]), weights=w)
    result = subprocess.run([sys.executable, "-c", CAPPED_EXPORT, "export", str(path), "--overview", "-o", str(out)],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr[-500:]
    image = QImage(str(out))
    assert image.width() == 2400 and image.height() <= image.width()  # was 2,400 × 127,000 (1.5 GB)
    assert int(result.stdout) < 400 * 1024  # kB: Qt, numpy and one 2,400² image


def test_a_deep_model_is_laid_out_in_blocks_and_every_thumbnail_is_found_where_it_is_drawn():
    from attnviz.core.summary import summarise
    layers, heads = 100, 3
    w = np.tile(np.eye(4, dtype=np.float32), (heads, 1, 1))
    figure = OverviewFigure(summarise(list("abcd"), [w] * layers, layers), "deep")
    size = figure.size()
    assert size.height() <= size.width() < 4 * 1000  # about square, not 100 rows tall
    rects = {(layer, h): figure.thumb_rect(layer, h) for layer in range(layers) for h in range(heads)}
    assert len({(r.x(), r.y()) for r in rects.values()}) == layers * heads
    assert all(0 <= r.left() and r.right() <= size.width() and r.bottom() <= size.height() for r in rects.values())
    assert all(figure.at(r.center().x(), r.center().y()) == key for key, r in rects.items())
    assert figure.at(1, 1) is None and figure.at(size.width() - 2, size.height() / 2) is None


# ---------------------------------------------------------------- an open overview follows the window

def test_an_edit_marks_the_overview_out_of_date_and_refresh_shows_the_true_numbers(overview, qtbot):
    from attnviz.gui.state.commands import SetCell
    window, dialog = overview
    d = window.document
    before = dialog.summary.table()[0, 1].copy()
    d.push(SetCell(d, 1, "q", 5, 0, 9.0))  # layer 0, head 1: た's query
    true = head_stats(np.stack(compute(d.scenario).weights()))[1]
    assert not np.allclose(true, before)  # the edit moved head 1's numbers
    assert dialog.stale.isVisibleTo(dialog) and "from before" in dialog.stale_note.text()
    np.testing.assert_array_equal(dialog.summary.table()[0, 1], before)  # shown as they were, and said so
    dialog.refresh_button.click()
    qtbot.waitUntil(lambda: not dialog.working and dialog.summary.table()[0, 1][0] != before[0], timeout=10000)
    np.testing.assert_allclose(dialog.summary.table()[0, 1], true, rtol=1e-9)
    assert not dialog.stale.isVisibleTo(dialog) and window.overview.dialog is dialog
    window.menus.undo_action.trigger()  # the overview now holds the edit the window no longer has
    assert dialog.stale.isVisibleTo(dialog)
    window.menus.redo_action.trigger()
    assert not dialog.stale.isVisibleTo(dialog)


def test_switching_layers_of_an_unedited_file_keeps_the_overview_current(overview, qtbot):
    window, dialog = overview
    window.open_layer(2)
    qtbot.waitUntil(lambda: window.document.scenario.layer == (2, LAYERS))
    assert not dialog.stale.isVisibleTo(dialog) and window.overview.dialog is dialog


def test_an_overview_after_the_file_changed_on_disk_says_so(qtbot, model_file):
    window = MainWindow(str(model_file))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    rng = np.random.default_rng(9)
    np.savez(model_file, tokens=np.array(list("abcdefg")),  # another program writes another model there
             **{m: rng.normal(size=(LAYERS, HEADS, 7, D)).astype(np.float32) for m in "qkv"})
    window.menus.overview_action.trigger()
    dialog = window.overview.dialog
    qtbot.waitUntil(lambda: "could not be made" in dialog.message.text(), timeout=10000)
    assert "file changed on disk since it was opened" in dialog.message.text()
    assert "edited" not in dialog.message.text() and dialog.figure is None


def real_model_overview(window, qtbot) -> None:
    """The built-in model on a short text, and its overview drawn."""
    window.model.run("The cat ate the fish. It was fresh.")
    qtbot.waitUntil(lambda: window.document.scenario.live is not None, timeout=120_000)
    window.menus.overview_action.trigger()
    qtbot.waitUntil(lambda: window.overview.dialog is not None and window.overview.dialog.figure is not None,
                    timeout=60_000)


@pytest.mark.real_model("smollm2")
def test_a_head_switched_off_in_the_real_model_marks_the_overview_and_refresh_shows_the_true_numbers(window, qtbot):
    real_model_overview(window, qtbot)
    dialog, d = window.overview.dialog, window.document
    before = dialog.summary.table()[5, 0].copy()
    window.parts.heads.panels[2].set_off(True)  # layer 0, head 2: every later layer reads the model anew
    assert dialog.stale.isVisibleTo(dialog)
    dialog.refresh_button.click()
    qtbot.waitUntil(lambda: not window.model.runner.busy and not dialog.working and not dialog.stale.isVisibleTo(dialog)
                    and dialog.summary.table()[5, 0][0] != before[0], timeout=60_000)
    true = head_stats(np.stack(compute(lm.another_layer(d.scenario, window.model.runner.current(), 5)).weights()))
    np.testing.assert_allclose(dialog.summary.table()[5, 0], true[0], rtol=1e-9)
    assert not np.allclose(true[0], before)
    window.menus.undo_action.trigger()  # back on: the overview shows the head switched off
    assert dialog.stale.isVisibleTo(dialog)


def test_the_window_overview_leaves_out_a_rollout_beyond_its_limit_and_says_so(qtbot, monkeypatch, model_file):
    import attnviz.core.summary as summary
    monkeypatch.setattr(summary, "MAX_ROLLOUT", LAYERS * N ** 3 - 1)
    window = MainWindow(str(model_file))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.menus.overview_action.trigger()
    dialog = window.overview.dialog
    qtbot.waitUntil(lambda: dialog.figure is not None, timeout=10000)
    assert dialog.summary.rollouts == [] and dialog.summaries.kinds() == ["heads", "layers"]
    assert dialog.summaries.kind.count() == 2 and "rollout is left out" in dialog.summaries.formula.text()
    np.testing.assert_allclose(dialog.summaries.canvas.data().weights, all_weights(model_file)[LAYERS - 1].mean(0),
                               rtol=1e-6)  # the mean over the last layer's heads, the first summary shown


# ------------------------------------------------------------- presented (in front of a class)

def presented(overview, qtbot, lang):
    from attnviz.gui.common.i18n import install_language
    _, dialog = overview
    install_language(lang)
    dialog.resize(1920, 1080)
    dialog.set_presentation(True)
    qtbot.wait(50)
    return dialog


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_presented_overview_has_readable_type_big_thumbnails_and_nothing_cut(overview, qtbot, lang):
    from presented import LEAST_PIXELS as LEAST
    from presented import px, table_problems, widget_problems
    dialog = presented(overview, qtbot, lang)
    problems = []
    for tab in range(dialog.tabs.count()):  # the grid, the statistics table, the means and rollout
        dialog.tabs.setCurrentIndex(tab)
        qtbot.wait(20)
        problems += widget_problems(dialog)
    problems += table_problems(dialog.table)  # even behind its tab
    assert problems == []
    assert px(dialog.tabs.tabBar().font()) >= LEAST and px(dialog.summaries.painter.font) >= LEAST
    figure, canvas = dialog.figure, dialog.canvas
    assert px(figure.font) >= LEAST  # the grid's labels and caption, before the zoom enlarges them
    side = figure.thumb_rect(0, 0).width() * canvas.zoom
    assert side >= 100  # thumbnails big: the grid fills the room it has
    viewport = dialog.scroll.viewport()
    assert canvas.width() <= viewport.width() and canvas.height() <= viewport.height()  # all of it in view
    assert max(canvas.width() / viewport.width(), canvas.height() / viewport.height()) > 0.9
    fm = QFontMetricsF(figure.font)
    room = figure.caption_rect()
    need = fm.boundingRect(QRectF(0, 0, room.width(), 1e6), Qt.AlignLeft | Qt.TextWordWrap, figure.caption_text())
    assert need.height() <= room.height()  # the caption whole


def test_leaving_the_presented_overview_restores_the_desk(overview, qtbot):
    from PySide6.QtWidgets import QApplication

    from presented import px
    desk_header = px(overview[1].table.horizontalHeader().font())
    dialog = presented(overview, qtbot, "en")
    assert px(dialog.table.horizontalHeader().font()) > desk_header
    dialog.set_presentation(False)
    qtbot.wait(20)
    app_px = px(QApplication.font())
    assert px(dialog.font()) == app_px and px(dialog.table.font()) == app_px
    assert px(dialog.table.horizontalHeader().font()) == desk_header
    assert px(dialog.figure.font) == max(13, app_px) and dialog.canvas.zoom <= 3


def test_the_overview_follows_the_application_zoom_on_the_desk(overview, qtbot):
    from PySide6.QtWidgets import QApplication

    from presented import px
    window, dialog = overview
    window.classroom.zoom(+1)
    window.classroom.zoom(+1)
    window.classroom.zoom(+1)
    qtbot.wait(20)
    assert px(dialog.figure.font) == max(13, px(QApplication.font())) > 13  # no longer a fixed 13 px


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_presented_overview_of_two_heads_fills_the_screen_with_them(qtbot, lang):
    """seed-demo's 1 layer × 2 heads, presented by its key: each head about half the screen wide (they were
    two thumbnails of ~100 px in a corner), the labels painted at least 20 px, the whole grid in view."""
    from attnviz.gui.common.i18n import install_language
    from presented import LEAST_PIXELS, px, unreadable
    install_language(lang)
    window = MainWindow("seed-demo")
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.classroom.set_presentation(True)
    window.classroom.present_view("overview")
    dialog = window.overview.dialog
    qtbot.waitUntil(lambda: dialog.figure is not None, timeout=10000)
    qtbot.wait(50)
    figure, canvas, viewport = dialog.figure, dialog.canvas, dialog.scroll.viewport()
    heads = [QRectF(canvas.mapTo(window, QPoint(0, 0)), figure.thumb_rect(0, h).size() * canvas.zoom)
             .translated(figure.thumb_rect(0, h).topLeft() * canvas.zoom) for h in (0, 1)]
    assert all(head.width() >= 0.35 * 1920 and head.height() >= 0.5 * 1080 for head in heads), heads
    assert heads[0].right() < heads[1].left() and all(window.rect().contains(head.toRect()) for head in heads)
    assert canvas.width() <= viewport.width() and canvas.height() <= viewport.height()  # all of it in view
    assert px(figure.font) * canvas.zoom >= LEAST_PIXELS  # the grid's labels and caption, as painted
    assert unreadable(window) == []


def test_the_presented_overview_of_30_layers_of_9_heads_shows_every_head_without_scrolling(qtbot, tmp_path):
    """SmolLM2's shape: 270 heads, 13 tokens. At the desk's least thumbnail two blocks of 15 layers were
    taller than the screen and scrolled (layers 12–14 and 27–29 out of view); presented, the blocks and the
    thumbnails are chosen so that every head is in view, its labels still readable."""
    from presented import LEAST_PIXELS, px
    rng = np.random.default_rng(5)
    path = tmp_path / "deep.npz"
    np.savez(path, tokens=np.array([f"t{i}" for i in range(13)]),
             **{m: rng.normal(size=(30, 9, 13, 8)).astype(np.float32) for m in "qkv"})
    window = MainWindow(str(path))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.classroom.set_presentation(True)
    window.classroom.present_view("overview")
    dialog = window.overview.dialog
    qtbot.waitUntil(lambda: dialog.figure is not None, timeout=20000)
    qtbot.wait(50)
    figure, canvas, viewport = dialog.figure, dialog.canvas, dialog.scroll.viewport()
    assert canvas.width() <= viewport.width() and canvas.height() <= viewport.height()  # no scrolling
    shown = QRectF(0, 0, canvas.width() / canvas.zoom, canvas.height() / canvas.zoom)
    assert all(shown.contains(figure.thumb_rect(layer, head)) for layer in range(30) for head in range(9))
    assert figure.thumb_rect(0, 0).width() * canvas.zoom >= 30 and px(figure.font) * canvas.zoom >= LEAST_PIXELS
    scroll = dialog.scroll
    assert not scroll.horizontalScrollBar().isVisible() and not scroll.verticalScrollBar().isVisible()
    spare = viewport.height() - canvas.height()
    assert abs(canvas.y() - spare / 2) <= 2  # in the middle of the room, not on its top with a gap below
    window.classroom.set_presentation(False)
    qtbot.wait(20)
    assert figure.blocks is None  # the desk lays it out as before


@pytest.mark.real_model("smollm2")
def test_a_real_models_overview_tags_its_induction_and_previous_token_heads(window, qtbot):
    real_model_overview(window, qtbot)
    dialog = window.overview.dialog
    badges = dialog.figure.badges
    assert "induction" in badges[(18, 6)] and "previous" in badges[(16, 0)] and (0, 0) not in badges
    assert "P previous-token, I induction" in dialog.message.text()
    from attnviz.gui.overview.dialog import BADGE, head_tip
    assert "Head type: induction" in head_tip(dialog.summary, 18, 6, badges[(18, 6)])
    image = QImage(dialog.figure.size().toSize(), QImage.Format_ARGB32)
    p = QPainter(image)
    dialog.figure.paint(p)
    p.end()
    corner = dialog.figure.thumb_rect(18, 6).topRight()
    tag = [image.pixelColor(int(corner.x()) - dx, int(corner.y()) + 2) for dx in range(1, 6)]
    assert any(c.rgb() == BADGE.rgb() for c in tag)  # the tag is drawn on the head's corner
    plain = dialog.figure.thumb_rect(0, 0).topRight()
    assert image.pixelColor(int(plain.x()) - 3, int(plain.y()) + 2).rgb() != BADGE.rgb()
