"""A hostile GGUF file chosen in the window (File → Real model… → Another GGUF file…): loaded off
the GUI thread like any model, refused with its one-line reason in a message, nothing changed."""
import pytest
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QPushButton

import gguf_writer
from attnviz.gui.model.dialog import ModelDialog

CASES = ["block_count 2.7", "BOS id a string", "NaN scales (4 KB overwritten)", "more tokens than embedding rows"]


@pytest.mark.parametrize("name", CASES)
def test_a_hostile_gguf_chosen_in_the_dialog_is_refused_with_its_reason(window, qtbot, monkeypatch, tmp_path, name):
    make, message = gguf_writer.HOSTILE[name]
    make(tmp_path / "bad.gguf")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "bad.gguf"), ""))

    def choose_and_run(dialog):
        dialog.findChild(QPushButton, "modelChoose").click()
        return QDialog.Accepted
    monkeypatch.setattr(ModelDialog, "exec", choose_and_run)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    before = window.document.scenario
    window.model.dialog()
    qtbot.waitUntil(lambda: len(shown) > 0, timeout=30_000)
    assert len(shown) == 1 and shown[0].startswith(str(tmp_path / "bad.gguf")) and message in shown[0], shown
    assert "\n" not in shown[0] and "Traceback" not in shown[0]
    assert window.document.scenario is before and not window.model.runner.busy
