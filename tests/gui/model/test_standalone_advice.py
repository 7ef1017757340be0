"""The standalone folder built without the real model: the window's advice is the command line's
(choose a GGUF file, or rebuild with the model), never a pip command that folder cannot run."""
import sys

import pytest

from attnviz.core import lm
from attnviz.gui.common.i18n import install_language
from attnviz.gui.model.dialog import ModelDialog


@pytest.fixture
def no_model(monkeypatch, tmp_path):
    """No model at all: neither the built-in one nor Gemma 3, none opened before, no Hugging Face cache."""
    monkeypatch.setattr(lm, "bundled_model", lambda: None)
    monkeypatch.setattr(lm.catalog, "bundled_model", lambda: None)
    monkeypatch.setattr(lm.catalog, "gemma_chunks", lambda: None)
    monkeypatch.setenv("ATTNVIZ_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))


def advice(qtbot) -> str:
    dialog = ModelDialog(None, "A")
    qtbot.addWidget(dialog)
    assert not dialog.run.isEnabled()  # nothing to run until a file is chosen
    return dialog.which.text()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_frozen_window_says_what_the_frozen_command_line_says(no_model, monkeypatch, qtbot, language):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(lm.ModelError) as cli:
        lm.load()
    install_language(language)
    window = advice(qtbot)
    for said in (str(cli.value), window):
        assert "pip" not in said and "ATTNVIZ_BUNDLE_MODEL=1 make bundle" in said and "GGUF" in said
    assert ("スタンドアロン" in window) == (language == "ja")


def test_an_installed_attnviz_without_the_model_names_the_pip_command(no_model, qtbot):
    assert not getattr(sys, "frozen", False)
    assert lm.INSTALL_HINT in advice(qtbot)
