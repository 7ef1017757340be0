"""Starting Qt: the application object, fonts, the window, and offscreen screenshots."""
from __future__ import annotations

import os
import sys

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from ..core.io import atomic_write
from ..core.scenario import ScenarioError
from .fonts import install_fonts
from .i18n import install_language, system_language


_QUIET = ("propagateSizeHints",)  # the offscreen platform's notice, harmless and noisy


def _qt_messages(kind, context, message):
    if kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) or any(q in message for q in _QUIET):
        return
    print(f"attnviz: Qt: {message}", file=sys.stderr)


def create_app(argv=None) -> QApplication:
    """The one QApplication, with AttnViz's names (for QSettings) and its Japanese font."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(list(argv) if argv is not None else [sys.argv[0]])
    qInstallMessageHandler(_qt_messages)
    app.setOrganizationName("AttnViz")
    app.setApplicationName("AttnViz")
    if not install_fonts(app):
        print("attnviz: warning: no Japanese font found; Japanese text may show as boxes",
              file=sys.stderr)
    return app


def run(scenario=None) -> int:
    """Open the window (on a preset id, a file, or an opened (scenario, source)) until it closes."""
    from .main_window import MainWindow

    app = create_app()
    window = MainWindow(scenario)
    window.show()
    return app.exec()


def use_offscreen() -> None:
    """Render without a display (CI, scripts); must happen before the QApplication exists."""
    if QApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def png_bytes(image) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ScenarioError("the image could not be encoded as PNG")
    return bytes(data)


def screenshot(scenario, path: str, width: int = 1600, height: int = 1000, lang: str | None = None) -> None:
    """Render the whole window offscreen into a PNG file (written atomically)."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(f"{path}: a screenshot is a PNG file: give a name ending in .png")
    from .main_window import MainWindow

    use_offscreen()
    app = create_app()
    install_language(lang or system_language())
    window = MainWindow(scenario)
    window.resize(width, height)
    window.show()
    app.processEvents()
    image = window.grab().toImage()
    window.document.undo_stack.setClean()  # nothing to save: close without asking
    window.close()
    atomic_write(path, png_bytes(image))


def export(scenario, path: str, kind: str = "head", head: int = 0, query: int | None = None,
           width: int = 2400, caption: bool = True, lang: str | None = None) -> None:
    """Write one figure (a head, all heads, or a query's steps) without a window or a display."""
    from ..core import compute
    from .export import export_figure, image_format
    from .figure import Figure, FigureOptions

    image_format(path)  # refuse a wrong suffix before starting Qt
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    figure = Figure(scenario, compute(scenario), FigureOptions(kind=kind, head=head, query=query,
                                                               caption=caption))
    export_figure(figure, path, width)
