import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from attnviz.gui.common.i18n import current_language, install_language
from attnviz.gui.look.theme import apply_theme
from attnviz.gui.window.app import create_app

_first_font = []


@pytest.fixture(autouse=True)
def app_setup(qapp, tmp_path, monkeypatch):
    """AttnViz's names and fonts on pytest-qt's QApplication; settings in a temporary folder;
    language, zoom and look put back after each test (they are application-wide)."""
    QSettings.setDefaultFormat(QSettings.IniFormat)
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, str(tmp_path / "settings"))
    create_app()
    QSettings().clear()
    if not _first_font:
        _first_font.append(QFont(qapp.font()))
    yield qapp
    # Only what a test changed: each reset reaches every widget ever made, which is slow.
    if current_language() != "en":
        install_language("en")
    if qapp.palette().window().color().lightness() < 128:
        apply_theme("light")
    if qapp.font() != _first_font[0]:
        qapp.setFont(_first_font[0])


@pytest.fixture(autouse=True)
def no_unexpected_dialogs(monkeypatch):
    """A modal dialog would hang CI: any dialog a test did not ask for fails it at once."""
    def unexpected(*args, **kwargs):
        raise AssertionError(f"unexpected dialog: {args[1:3]}")
    for name in ("question", "warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, unexpected)
    for name in ("getOpenFileName", "getSaveFileName"):
        monkeypatch.setattr(QFileDialog, name, unexpected)
    monkeypatch.setattr(QInputDialog, "getText", unexpected)


@pytest.fixture
def window(qtbot):
    from attnviz.core.presets import open_named
    from attnviz.gui import MainWindow
    # The Japanese version the tests were written for, whatever the language (English by default).
    w = MainWindow(open_named("seed-demo", lang="ja"))
    # Close without the unsaved-changes question (pytest-qt closes widgets after each test).
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def doc(window):
    return window.document
