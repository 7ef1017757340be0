"""Starting Qt: the application object, its names, icon, fonts and language, and the virtual screen
of offscreen renders. The window is opened by start.py; pictures without one by screenshots.py and
exports.py."""
from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile

from PySide6.QtCore import QSettings, QSize, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from ... import __version__
from ...core.paths import resource
from ..look.fonts import install_fonts
from ..state import settings
from ..state.files import in_language

_QUIET = ("propagateSizeHints", "does not support raise()")  # the offscreen platform's notices, harmless


def _qt_messages(kind, context, message):
    if kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) or any(q in message for q in _QUIET):
        return
    print(f"attnviz: Qt: {message}", file=sys.stderr)


ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)

def create_app(argv=None) -> QApplication:
    """The one QApplication, with AttnViz's names (for QSettings) and its Japanese font."""
    app = QApplication.instance()
    if app is None:
        if sys.platform.startswith("linux") and not any(os.environ.get(v) for v in ("LC_ALL", "LC_CTYPE", "LANG")):
            os.environ["LC_CTYPE"] = "C.UTF-8"  # no locale at all (a bare environment): Qt would warn, then do this
        app = QApplication(list(argv) if argv is not None else [sys.argv[0]])
    qInstallMessageHandler(_qt_messages)
    app.setOrganizationName("AttnViz")
    app.setApplicationName("AttnViz")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("attnviz")  # Wayland and docks match the window to attnviz.desktop
    app.setWindowIcon(app_icon())
    settings.check_files()
    if not install_fonts(app):
        print("attnviz: warning: no Japanese font found; Japanese text may show as boxes",
              file=sys.stderr)
    return app


def app_icon() -> QIcon:
    """The heatmap icon at every size it is drawn at (title bar, taskbar, Alt+Tab)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(resource("icons", f"attnviz-{size}.png")), QSize(size, size))
    return icon


def in_interface_language(scenario):
    """A preset the command line opened before Qt started (to refuse bad input first): its version
    in the interface's language, now that it is installed."""
    return in_language(scenario) if isinstance(scenario, tuple) else scenario


def use_offscreen(width: int = 1920, height: int = 1080) -> None:
    """Render without a display (CI, scripts), on a virtual screen of the given size (what a
    full-screen window fills); must happen before the QApplication exists."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "")
    if QApplication.instance() is not None or chosen not in ("", "offscreen"):  # another platform, or sized already
        return
    screen = {"screens": [{"name": "attnviz", "x": 0, "y": 0, "width": width, "height": height,
                           "logicalDpi": 96, "dpr": 1}]}
    fd, path = tempfile.mkstemp(prefix="attnviz-screen-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(screen, f)
    atexit.register(os.unlink, path)
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={path}"


def isolate_settings() -> None:
    """Point QSettings at a fresh temporary folder (for scripted renders)."""
    folder = tempfile.mkdtemp(prefix="attnviz-settings-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # a render a minute would fill /tmp
    QSettings.setDefaultFormat(QSettings.IniFormat)
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, folder)
