"""Exported images and data: what a teacher pastes into a slide is what the window shows."""
import base64
import csv
import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from attnviz.core import compute, load_preset, load_scenario, make_head, make_scenario
from attnviz.core.scenario import ScenarioError, with_token_renamed
from attnviz.gui.export.figure import Figure, FigureOptions
from attnviz.gui.export.files import export_data, export_figure, render_image
from attnviz.gui.look import colormaps
from pixels import figure, pixel_in_cell  # tests/gui is on the path


def test_a_png_has_the_requested_width_and_the_figures_aspect_ratio(tmp_path):
    fig = figure()
    export_figure(fig, tmp_path / "head0.png", width=1234)
    image = QImage(str(tmp_path / "head0.png"))
    assert image.width() == 1234
    assert image.height() == round(fig.size().height() * 1234 / fig.size().width())


def test_png_cells_have_the_colour_maps_colour_and_masked_cells_the_masks_look(tmp_path):
    fig = figure()
    export_figure(fig, tmp_path / "h.png", width=2000)
    image = QImage(str(tmp_path / "h.png"))
    weight = fig.head_data(0).weights[0, 0]  # 猫 sees only itself: 1.0
    expected = colormaps.get().color(weight)
    got = pixel_in_cell(fig, image, 0, 0, 0)
    assert sum(abs(a - b) for a, b in zip(got.getRgb()[:3], expected.getRgb()[:3])) <= 6
    masked = [pixel_in_cell(fig, image, 0, 0, 5, fx, fy) for fx, fy in ((0.15, 0.3), (0.3, 0.15), (0.85, 0.7))]
    look = colormaps.LIGHT_MASK
    fill, hatch = (np.array(c.getRgb()[:3], float) for c in (look.fill, look.hatch))
    lut = colormaps.get().lut.astype(float)
    for color in masked:  # the mask's fill, its hatch, or a blend of the two: never a colour of the map
        rgb = np.array(color.getRgb()[:3], float)
        t = np.clip(np.dot(rgb - fill, hatch - fill) / np.dot(hatch - fill, hatch - fill), 0, 1)
        assert np.linalg.norm(rgb - (fill + t * (hatch - fill))) <= 8
        assert np.min(np.linalg.norm(lut - rgb, axis=1)) > 25


def label_box(fig, image, row):
    g = fig.heatmap.geometry(fig.head_rect(0), fig.head_data(0))
    scale = image.width() / fig.size().width()
    x0, x1 = (g.grid.left() - g.row_label_width) * scale, g.grid.left() * scale
    y0, y1 = (g.grid.top() + row * g.cell_h) * scale, (g.grid.top() + (row + 1) * g.cell_h) * scale
    return image.copy(int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def test_japanese_token_labels_are_drawn_as_glyphs_not_empty_boxes():
    fig = figure(caption=False)
    image = render_image(fig, 1600)
    s = with_token_renamed(load_preset("seed-demo"), 0, "\ue000")  # a code point with no glyph: a box
    boxed = figure(s, caption=False)
    box_image = render_image(boxed, 1600)
    cat, box = label_box(fig, image, 0), label_box(boxed, box_image, 0)
    dark = sum(cat.pixelColor(x, y).lightness() < 128 for x in range(cat.width()) for y in range(cat.height()))
    assert dark > 20  # something is drawn for 猫 ...
    assert cat != box  # ... and it is not the missing-glyph box


EMOJI = ["🐟", "🐠", "🇯🇵", "👍🏽", "👨\u200d👩\u200d👧", "🫠"]


def test_emoji_token_labels_are_drawn_as_glyphs_not_empty_boxes():
    """With no emoji font on the machine, the bundled Noto Emoji draws them: each emoji its own
    picture, none the missing-glyph box (every box looks the same)."""
    from PySide6.QtGui import QFontMetricsF

    from attnviz.gui.look.fonts import figure_font
    metrics = QFontMetricsF(figure_font())
    assert all(metrics.inFontUcs4(ord(c)) for c in "🐟🐠🫠👍🇯")
    seen = []
    for token in EMOJI + ["\ue000"]:  # the last: a code point with no glyph, drawn as a box
        s = with_token_renamed(load_preset("seed-demo"), 0, token)
        fig = figure(s, caption=False)
        box = label_box(fig, render_image(fig, 1600), 0)
        dark = sum(box.pixelColor(x, y).lightness() < 128 for x in range(box.width()) for y in range(box.height()))
        assert dark > 20, token  # something is drawn ...
        assert box not in seen, token  # ... and it is neither another emoji's picture nor the box
        seen.append(box)


def test_an_svg_parses_has_the_tokens_as_text_and_one_rect_per_cell(tmp_path):
    fig = figure()
    export_figure(fig, tmp_path / "h.svg")
    root = ET.parse(tmp_path / "h.svg").getroot()
    texts = svg_text(tmp_path / "h.svg")
    for token in load_preset("seed-demo").tokens:
        assert token in texts
    assert len(cell_rects(fig, root)) == 100


def test_an_all_heads_svg_has_every_heads_cells(tmp_path):
    fig = figure("gpt2-small-shape", kind="all")
    export_figure(fig, tmp_path / "all.svg")
    root = ET.parse(tmp_path / "all.svg").getroot()
    assert len(cell_rects(fig, root)) == 12 * 100


def long_scenario(n=512, heads=12):
    rng = np.random.default_rng(5)
    return make_scenario([f"t{i}" for i in range(n)],
                         [make_head(f"h{h}", *rng.normal(size=(3, n, 8))) for h in range(heads)])


def embedded_images(svg_path):
    """The SVG's <image>s as (QImage, width, height in the figure)."""
    root = ET.parse(svg_path).getroot()
    found = []
    for element in root.iter("{http://www.w3.org/2000/svg}image"):
        href = element.get("{http://www.w3.org/1999/xlink}href")
        assert href.startswith("data:image/png;base64,")  # lossless
        found.append((QImage.fromData(base64.b64decode(href.split(",", 1)[1]), "PNG"),
                      float(element.get("width")), float(element.get("height"))))
    return root, found


def test_a_512_token_svg_of_all_heads_embeds_one_lossless_image_per_head_not_3_million_rects(tmp_path):
    s = long_scenario()
    fig = Figure(s, compute(s), FigureOptions(kind="all"))
    export_figure(fig, tmp_path / "all.svg")
    assert (tmp_path / "all.svg").stat().st_size < 10 * 2 ** 20
    root, images = embedded_images(tmp_path / "all.svg")
    assert len(list(root.iter())) < 5000  # labels, captions, colour bar: a few thousand elements
    heads = [(image, w, h) for image, w, h in images if image.width() >= 512]
    assert len(heads) == 12 and len(images) == 13  # and the colour bar
    image, _, _ = heads[3]
    per_cell = image.width() // 512
    assert image.width() == image.height() == 512 * per_cell  # whole pixels per cell
    w = compute(s).heads[3].weights
    lut = colormaps.get(colormaps.DEFAULT).lut
    for i, j in ((0, 0), (511, 0), (511, 511), (300, 17)):
        got = image.pixelColor(j * per_cell, i * per_cell)
        want = lut[colormaps.get(colormaps.DEFAULT).index(w[i, j])]
        assert (got.red(), got.green(), got.blue()) == tuple(int(c) for c in want), (i, j)
    mask = image.pixelColor(511 * per_cell, 0)  # a masked cell keeps the mask's fill
    assert (mask.red(), mask.green(), mask.blue()) != tuple(int(c) for c in lut[0])
    texts = svg_text(tmp_path / "all.svg")
    assert "h11" in texts and "t0" in texts  # labels and titles stay text


def test_a_512_token_pdf_of_all_heads_is_small_and_its_images_lossless(tmp_path):
    s = long_scenario()
    export_figure(Figure(s, compute(s), FigureOptions(kind="all")), tmp_path / "all.pdf")
    data = (tmp_path / "all.pdf").read_bytes()
    assert len(data) < 10 * 2 ** 20
    assert len(re.findall(rb"/Subtype\s*/Image", data)) == 13 and b"/DCTDecode" not in data


def cell_rects(fig, root):
    """The SVG's <rect>s the size of one heatmap cell."""
    g = fig.heatmap.geometry(fig.head_rect(0), fig.head_data(0))
    return [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
            if abs(float(r.get("width")) - g.cell_w) < 0.01 and abs(float(r.get("height")) - g.cell_h) < 0.01]


def test_a_pdf_is_one_page_with_the_heatmaps_aspect_ratio(tmp_path):
    for kind in ("head", "all", "step"):
        fig = figure(kind=kind, query=6)
        export_figure(fig, tmp_path / f"{kind}.pdf")
        data = (tmp_path / f"{kind}.pdf").read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
        assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1
        x0, y0, x1, y1 = map(float, re.search(rb"/MediaBox\s*\[([^\]]+)\]", data).group(1).split())
        assert (x1 - x0) / (y1 - y0) == pytest.approx(fig.size().width() / fig.size().height(), rel=0.01)


def test_a_japanese_pdfs_text_reads_as_written_not_as_radicals(tmp_path):
    import shutil
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text cannot be read back")
    export_figure(figure(load_preset("seed-demo", lang="ja"), kind="head"), tmp_path / "ja.pdf")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(tmp_path / "ja.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "魚" in text and "食べた" in text  # a paper's figure found by what it says
    assert not any(0x2E80 <= ord(c) < 0x2FE0 for c in text)  # Noto's shared glyphs named ⿂, ⾷ by Qt


def test_an_exported_pdfs_digits_and_words_copy_as_drawn(tmp_path):
    import shutil
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text cannot be read back")
    export_figure(figure(load_preset("seed-demo", lang="en"), kind="step", query=6), tmp_path / "en.pdf")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(tmp_path / "en.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    # Noto Sans CJK's 'locl' digits after Latin letters had no name in the PDF ("q = [ , , , ]"), and
    # its ligature copied "fish" as "ﬁsh"
    assert "q = [0, 2, 0, 0]" in text and "0: semantic head" in text and "1. score" in text
    assert "fish" in text and "ﬁ" not in text


def test_the_caption_names_the_head_and_the_settings():
    s = load_preset("seed-demo")
    assert figure(s, head=1).caption_text() == \
        "1: previous-token head · causal mask on · ÷√dₖ (dₖ = 2) · temperature 1"


@pytest.mark.parametrize("name, message", [("x.jpg", "unknown image format"), ("noext", "unknown image format")])
def test_an_unknown_suffix_is_refused_and_writes_nothing(tmp_path, name, message):
    with pytest.raises(ScenarioError, match=message):
        export_figure(figure(), tmp_path / name)
    assert os.listdir(tmp_path) == []


def test_a_full_disk_leaves_no_partial_file(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ScenarioError, match="No space left"):
        export_figure(figure(), tmp_path / "h.png")
    assert os.listdir(tmp_path) == []


def test_an_unwritable_folder_is_refused_with_a_message(tmp_path, monkeypatch):
    import tempfile

    def denied(*args, **kwargs):  # chmod does not stop root, which CI may run as
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(ScenarioError, match="cannot write in"):
        export_figure(figure(), tmp_path / "h.pdf")


def test_data_exports_as_a_tidy_csv_with_every_heads_weights_and_vectors(tmp_path):
    s = load_preset("seed-demo")
    result = compute(s)
    export_data(s, result, tmp_path / "d.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "d.csv").read_text(encoding="utf-8"))))
    weight = [r for r in rows if r["head"] == "意味ヘッド" and r["quantity"] == "weight"
              and r["token"] == "それ" and r["column"] == "魚"]
    assert float(weight[0]["value"]) == result.heads[0].weights[6, 2]
    q = [r for r in rows if r["quantity"] == "q" and r["head"] == "直前を見るヘッド"]
    assert len(q) == 10 * 2
    assert len(rows) == 2 * 100 + 3 * 10 * 4 + 3 * 10 * 2


def test_data_exports_as_npz_that_opens_again(tmp_path):
    s = load_preset("gpt2-small-shape")
    result = compute(s)
    export_data(s, result, tmp_path / "d.npz")
    with np.load(tmp_path / "d.npz", allow_pickle=False) as npz:
        np.testing.assert_array_equal(npz["weights"], np.stack(result.weights()))
        assert npz["q"].shape == (12, 10, 64) and bool(npz["causal"])
    assert load_scenario(tmp_path / "d.npz").tokens == s.tokens


def test_the_window_exports_what_it_shows_and_copies_to_the_clipboard(window, tmp_path):
    window.document.select(head=1, query=3)
    assert window.exports.export_image(str(tmp_path / "grid.png"), kind="all", width=900)
    assert QImage(str(tmp_path / "grid.png")).width() == 900
    fig = window.exports.figure("head")
    assert fig.options.head == 1 and fig.head_data(1).selected_row == 3
    np.testing.assert_array_equal(fig.head_data(1).weights, window.findChild(object, "headPanel1").weights())
    window.menus.copy_image_action.trigger()
    assert QApplication.clipboard().image().width() == 1600
    assert window.exports.export_data(str(tmp_path / "d.npz"))


def test_a_failed_export_from_the_window_says_why(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    assert not window.exports.export_image(str(tmp_path / "x.gif"))
    assert "unknown image format" in shown[0]


def run_cli(*args, cwd):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "attnviz", *args], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, env=env)


@pytest.mark.parametrize("platform", [None, ""])
def test_the_command_line_finds_its_own_way_to_render_with_no_display_and_no_platform_set(tmp_path, platform):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    if platform is not None:
        env["QT_QPA_PLATFORM"] = platform  # set but empty, as a shell script may leave it
    result = subprocess.run([sys.executable, "-m", "attnviz", "export", "seed-demo", "-o", "h.png"],
                            capture_output=True, text=True, encoding="utf-8", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert QImage(str(tmp_path / "h.png")).width() == 2400


def test_the_command_line_exports_without_a_display(tmp_path):
    result = run_cli("export", "seed-demo", "-o", "head0.png", "--head", "0", "--width", "2400", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert QImage(str(tmp_path / "head0.png")).width() == 2400
    result = run_cli("export", "seed-demo", "-o", "heads.pdf", "--all-heads", cwd=tmp_path)
    assert result.returncode == 0 and (tmp_path / "heads.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("args, message", [
    (["-o", "x.jpg"], "unknown image format"),
    (["-o", "missing/x.png"], "does not exist"),
    (["-o", "x.png", "--head", "7"], "heads 0 to 1"),
    (["-o", "x.png", "--width", "99999"], "200 to 8000"),
    (["-o", "x.png", "--head", "0", "--all-heads"], "not allowed with"),
])
def test_a_failed_command_line_export_exits_2_and_leaves_no_file(tmp_path, args, message):
    result = run_cli("export", "seed-demo", *args, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert os.listdir(tmp_path) == []


def test_the_command_line_export_speaks_japanese_with_lang_ja(tmp_path):
    from attnviz.gui.common.i18n import install_language
    try:
        install_language("ja")
        assert figure(head=0).caption_text().startswith("0: 意味ヘッド · 未来を隠す：オン")
    finally:
        install_language("en")
    result = run_cli("export", "seed-demo", "-o", "ja.svg", "--lang", "ja", cwd=tmp_path)
    assert result.returncode == 0
    assert "重み" in svg_text(tmp_path / "ja.svg") and "weight" not in svg_text(tmp_path / "ja.svg")


def svg_text(path):
    """All text of an SVG in document order (Qt writes a run of kanji and kana as separate <text>s)."""
    return "".join(t.text or "" for t in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}text"))


def test_the_export_dialog_writes_the_chosen_kind_at_the_chosen_width(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QDialog, QFileDialog

    from attnviz.gui.export.dialog import ExportDialog

    def accept(dialog):
        dialog.findChild(object, "export_all").setChecked(True)
        dialog.width.setValue(1000)
        return QDialog.Accepted
    monkeypatch.setattr(ExportDialog, "exec", accept)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(tmp_path / "slide"), "PNG image (*.png)"))
    window.menus.export_image_action.trigger()
    image = QImage(str(tmp_path / "slide.png"))
    assert image.width() == 1000
    fig = window.exports.figure("all")
    assert image.height() == round(fig.size().height() * 1000 / fig.size().width())


def test_the_hatching_stays_inside_the_masked_cells(tmp_path):
    fig = figure("toy-3token", caption=False)
    image = render_image(fig, 1600)
    expected = colormaps.get().color(fig.head_data(0).weights[1, 1])  # 魚 → 魚, left of a masked cell
    for fy in (0.1, 0.5, 0.9):
        got = pixel_in_cell(fig, image, 0, 1, 1, 0.96, fy)  # just inside its right edge
        assert abs(got.red() - expected.red()) + abs(got.green() - expected.green()) <= 6


def test_long_japanese_column_labels_are_shortened_not_cut_off():
    from attnviz.core.scenario import with_token_renamed
    s = with_token_renamed(load_preset("toy-3token"), 1, "トランスフォーマーモデル")
    fig = figure(s, caption=False)
    g = fig.heatmap.geometry(fig.head_rect(0), fig.head_data(0))
    assert g.column_labels == "turned" and g.column_label_height <= fig.head_rect(0).height() * 0.3 + 1e-6
    # The label is turned to read upwards (never stacked a character a line), shortened to that height.
    image = render_image(fig, 1600)
    scale = image.width() / fig.size().width()
    top = int((g.grid.top() - g.column_label_height) * scale)
    x = int((g.grid.left() + 1.5 * g.cell_w) * scale)
    assert any(image.pixelColor(x + dx, y).lightness() < 100
               for dx in range(-15, 16) for y in range(top, top + int(g.column_label_height * scale)))


def test_a_models_weights_are_captioned_as_such_not_with_settings_they_never_had():
    s = make_scenario(["a", "b"], [make_head("h", np.zeros((2, 0)), np.zeros((2, 0)), np.zeros((2, 0)))],
                      given=np.array([[[1.0, 0.0], [0.25, 0.75]]]), layer=(3, 12))
    assert figure(s).caption_text() == "Layer 3 of 12 · 0: h · the model's weights"


def test_an_svgs_text_names_the_japanese_fonts_of_every_system_then_sans_serif(tmp_path):
    """Opened on a machine without Noto Sans CJK, the labels fall back to Yu Gothic, Hiragino, ..."""
    export_figure(figure(), tmp_path / "h.svg")
    root = ET.parse(tmp_path / "h.svg").getroot()
    families = {g.get("font-family") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("font-family")}
    assert families  # Qt sets the font on groups of text
    for family in families:
        names = [name.strip(" '") for name in family.split(",")]
        assert names[0] == "Noto Sans CJK JP" and names[-1] == "sans-serif"
        assert {"Yu Gothic", "Meiryo", "Hiragino Sans"} <= set(names)


def test_all_heads_labels_are_written_across_never_stacked_a_character_per_line(tmp_path):
    export_figure(figure("seed-demo", kind="all"), tmp_path / "all.svg")
    texts = [(t.text, float(t.get("y"))) for t in ET.parse(tmp_path / "all.svg").getroot().iter(
        "{http://www.w3.org/2000/svg}text") if t.text and t.text.strip()]
    for token in ("だった", "新鮮", "それ"):
        assert sum(1 for text, _ in texts if text == token) >= 4  # a row and a column label in each of 2 heads
    for char in "だっ":
        assert not any(text == char for text, _ in texts)  # never one character on its own line


def painted(data, size):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

    from attnviz.gui.heads.heatmap import HeatmapPainter
    heatmap = HeatmapPainter()
    image = QImage(*size, QImage.Format_RGB32)
    image.fill(0xFFFFFFFF)
    p = QPainter(image)
    g = heatmap.paint(p, QRectF(0, 0, *size), data)
    p.end()
    return image, g


@pytest.mark.parametrize("size", [(260, 230), (420, 380), (900, 800)])
@pytest.mark.parametrize("tokens", [("gypsy", "jump", "quay", "yes"), tuple(load_preset("seed-demo").tokens)])
def test_the_selected_rows_frame_never_covers_a_label(size, tokens):
    """Selecting a row changes its cells and makes its own label bold; no other pixel outside the
    matrix changes: the keys' labels above the first row are never cut by its frame."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF

    from attnviz.gui.heads.heatmap import HeatmapData
    n = len(tokens)
    weights = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    data = HeatmapData(tokens=tokens, weights=weights, masked=np.triu(np.ones((n, n), bool), 1))
    plain, g = painted(data, size)
    line = QFontMetricsF(g.label_font).height() * 0.25
    for row in (0, n // 2, n - 1):
        selected, _ = painted(HeatmapData(**{**data.__dict__, "selected_row": row}), size)
        label = QRectF(g.grid.left() - g.row_label_width, g.grid.top() + row * g.cell_h,
                       g.row_label_width - line, g.cell_h).adjusted(0, 0, 2, 0)  # where its label turns bold
        changed = [(x, y) for y in range(size[1]) for x in range(size[0])
                   if plain.pixel(x, y) != selected.pixel(x, y)]
        assert changed  # the frame is drawn ...
        matrix = g.grid.toAlignedRect()  # with the pixels its edges cross
        outside = [(x, y) for x, y in changed if not (matrix.contains(x, y) or label.contains(x + 0.5, y + 0.5))]
        assert outside == [], (row, outside[:5])  # ... and nowhere but on the matrix
