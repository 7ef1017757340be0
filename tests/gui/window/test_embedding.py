"""AttnViz's window inside an application it did not create (a notebook's %gui qt, another
program), on a machine with no Japanese font of its own: 猫 must still be a glyph."""
import subprocess
import sys
import textwrap

EMBEDDED = textwrap.dedent("""
    import os, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtGui import QFontDatabase, QImage, QPainter, QColor, QFontMetrics
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication
    app = QApplication([])            # the host's own application, not attnviz.gui.window.app.create_app
    before = [f for f in QFontDatabase.families() if "CJK" in f or "Droid" in f]
    from attnviz.gui import MainWindow
    window = MainWindow("seed-demo")
    font = window.font()

    def drawn(text):
        image = QImage(64, 64, QImage.Format_ARGB32)
        image.fill(QColor("white"))
        p = QPainter(image)
        p.setFont(font)
        p.drawText(image.rect(), Qt.AlignCenter, text)
        p.end()
        return bytes(image.constBits())

    # two different kanji look different, and neither is the box of a missing glyph
    print(before, QFontMetrics(font).inFontUcs4(ord("猫")), drawn("猫") != drawn("犬"),
          drawn("猫") != drawn("\\U000F0000"))
""")

FONTS_CONF = """<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>{empty}</dir><cachedir>{cache}</cachedir></fontconfig>"""


def test_a_main_window_in_a_bare_application_draws_japanese_without_a_system_font(tmp_path):
    (tmp_path / "empty").mkdir()
    conf = tmp_path / "fonts.conf"
    conf.write_text(FONTS_CONF.format(empty=tmp_path / "empty", cache=tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", EMBEDDED], capture_output=True, text=True, timeout=120,
                            env={**__import__("os").environ, "FONTCONFIG_FILE": str(conf),
                                 "ATTNVIZ_DATA_DIR": str(tmp_path / "data")})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[-3:] == ["True", "True", "True"], result.stdout
    assert result.stdout.startswith("[]")  # the machine (as simulated) had no Japanese font
