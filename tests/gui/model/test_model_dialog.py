"""File → Real model…: the models AttnViz finds as a list to choose from, a GGUF file or a Hugging
Face folder added to it, a chat template to read the text in, and Gemma 3's terms before its first run."""
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QDialog, QFileDialog, QPushButton

from attnviz.core import lm
from attnviz.core.lm import catalog
from attnviz.gui.model import terms
from attnviz.gui.model.dialog import ModelDialog

FAMILIES = Path(__file__).resolve().parents[2] / "golden" / "families"


@pytest.fixture(autouse=True)
def own_data(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNVIZ_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(catalog, "_accepted_now", False)


def dialog_of(qtbot, **kw) -> ModelDialog:
    dialog = ModelDialog(None, "猫が魚を食べた。", **kw)
    qtbot.addWidget(dialog)
    return dialog


def listed(dialog) -> list[str]:
    models = dialog.findChild(QComboBox, "modelList")
    return [models.itemData(i).id for i in range(models.count())]


@pytest.mark.real_model("smollm2")
def test_the_list_holds_the_models_found_and_the_built_in_one_is_chosen(qtbot):
    lm.load(str(FAMILIES / "gpt2" / "gpt2-f32.gguf"))  # opened before: remembered
    dialog = dialog_of(qtbot)
    ids = listed(dialog)
    assert ids[0] == "smollm2-135m" and "gpt2" in ids
    assert ("gemma3-270m" in ids) == (catalog.gemma_chunks() is not None)
    assert dialog.source is None and dialog.run.isEnabled()
    assert "smollm2-135m" in dialog.findChild(QComboBox, "modelList").currentText()
    assert "apache-2.0" in dialog.which.text()
    assert dialog.chat.isEnabled()  # SmolLM2-Instruct has a chat template
    dialog.chat.setChecked(True)
    assert dialog.chosen_chat()
    dialog.findChild(QComboBox, "modelList").setCurrentIndex(ids.index("gpt2"))
    assert dialog.source == str((FAMILIES / "gpt2" / "gpt2-f32.gguf").resolve())
    assert not dialog.chat.isEnabled() and not dialog.chosen_chat()  # the tiny GPT-2 has none


def test_a_hugging_face_folder_chosen_is_added_first_and_chosen(qtbot, monkeypatch):
    folder = str(FAMILIES / "qwen3" / "hf")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: folder)
    dialog = dialog_of(qtbot)
    dialog.findChild(QPushButton, "modelFolder").click()
    models = dialog.findChild(QComboBox, "modelList")
    assert models.currentIndex() == 0 and dialog.source == folder and dialog.run.isEnabled()
    assert "qwen3" in models.currentText() and "F32" in models.currentText()


def test_a_folder_that_is_no_model_says_why_under_the_list(qtbot, monkeypatch, tmp_path):
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path))
    dialog = dialog_of(qtbot)
    dialog.findChild(QPushButton, "modelFolder").click()
    assert dialog.source == str(tmp_path) and "has no config.json" in dialog.which.text()


def test_the_dialog_chooses_the_model_in_use(qtbot):
    folder = str(FAMILIES / "llama" / "hf")
    dialog = dialog_of(qtbot, source=folder, chat=True)
    assert dialog.source == folder and dialog.chosen_chat()  # the tiny llama has a chat template


@pytest.mark.real_model("gemma3")
def test_gemma_3s_terms_are_shown_before_its_first_run_and_declining_runs_nothing(window, monkeypatch, qtbot):
    shown = []

    def decline(dialog):
        shown.append(dialog.findChild(object, "termsText").toPlainText())
        return QDialog.Rejected
    monkeypatch.setattr(terms.TermsDialog, "exec", decline)
    before = window.document.scenario
    assert not window.model.run("猫が魚", lm.GEMMA_ID)
    assert len(shown) == 1 and "Gemma Services" in shown[0]  # the terms themselves, from the package
    assert window.document.scenario is before and not window.model.runner.busy and not catalog.terms_accepted()


@pytest.mark.real_model("gemma3")
def test_gemma_3_runs_once_its_terms_are_accepted_and_they_are_not_asked_again(window, monkeypatch, qtbot):
    asked = []
    monkeypatch.setattr(terms.TermsDialog, "exec", lambda dialog: asked.append(1) or QDialog.Accepted)
    assert window.model.run("猫が魚を食べた。それは新鮮だった。", lm.GEMMA_ID)
    qtbot.waitUntil(lambda: window.document.scenario.live is not None and not window.model.runner.busy,
                    timeout=180_000)
    s = window.document.scenario
    assert s.tokens == ("⟨BOS⟩", "猫", "が", "魚", "を食べ", "た", "。", "それは", "新鮮", "だった", "。")
    assert s.layer == (0, 18) and len(s.heads) == 4 and s.settings.mask_kind == "window"
    assert catalog.terms_accepted() and asked == [1]
    assert window.model.runner.source == lm.GEMMA_ID
    window.model.run("猫", lm.GEMMA_ID)
    assert asked == [1]


def test_the_memory_each_way_takes_is_shown_before_loading_and_the_way_chosen_is_the_one_loaded(
        window, qtbot, monkeypatch):
    """Issue 48: choosing a GGUF file shows what compact and fast take (from its header, nothing loaded);
    Run with Compact loads it compact, and the choice is remembered for the next model."""
    from attnviz.core.lm import gguf_file, memory
    from attnviz.gui.state import settings
    path = str(FAMILIES / "llama" / "llama-q4_k_m.gguf")
    need = gguf_file.need(path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (path, ""))

    def choose_compact_and_run(dialog):
        dialog.findChild(QPushButton, "modelChoose").click()
        ways = dialog.findChild(QComboBox, "modelMemory")
        texts = [ways.itemText(i) for i in range(ways.count())]
        assert texts == ["Automatic", f"Compact: about {memory.said(need.compact)}",
                         f"Fast (float32): about {memory.said(need.fast)}"]
        ways.setCurrentIndex(texts.index(f"Compact: about {memory.said(need.compact)}"))
        return QDialog.Accepted
    monkeypatch.setattr(ModelDialog, "exec", choose_compact_and_run)
    window.model.dialog()
    qtbot.waitUntil(lambda: window.model.runner.model is not None and not window.model.runner.busy, timeout=30_000)
    assert window.model.runner.model.compact and settings.model_memory() == "compact"
    dialog = dialog_of(qtbot)
    assert dialog.chosen_memory() == "compact"  # remembered


def test_a_folder_offers_no_compact_way(qtbot, monkeypatch):
    folder = str(FAMILIES / "qwen3" / "hf")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: folder)
    dialog = dialog_of(qtbot)
    dialog.findChild(QPushButton, "modelFolder").click()
    ways = dialog.findChild(QComboBox, "modelMemory")
    assert not ways.model().item(1).isEnabled() and ways.model().item(2).isEnabled()
