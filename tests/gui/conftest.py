import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from attnviz.gui.app import create_app


@pytest.fixture(autouse=True)
def app_setup(qapp, tmp_path, monkeypatch):
    """AttnViz's names and fonts on pytest-qt's QApplication; settings in a temporary folder."""
    QSettings.setDefaultFormat(QSettings.IniFormat)
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, str(tmp_path / "settings"))
    create_app()
    QSettings().clear()
    yield qapp


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
    from attnviz.gui import MainWindow
    w = MainWindow("seed-demo")
    # Close without the unsaved-changes question (pytest-qt closes widgets after each test).
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def doc(window):
    return window.document
