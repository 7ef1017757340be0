"""A preset opens in the interface's language (its English or Japanese version, the same id);
switching the language switches an unmodified preset to its other version; an edited preset and
a file are never translated."""
import pytest
from PySide6.QtWidgets import QComboBox, QTableView

from attnviz.core import list_presets, load_preset, save_scenario
from attnviz.core.presets import open_named
from attnviz.gui import MainWindow
from attnviz.gui.common.i18n import install_language
from attnviz.gui.state.files import in_language

STORIES = {"ja": {"seed-demo": "それ", "toy-3token": "それ", "taro-hanako": "彼女", "hashi-chopsticks": "はし",
                  "hashi-bridge": "はし", "position-nekoga": "猫", "position-suwatta": "猫",
                  "projection-demo": "食べた", "gqa-demo": "食べた", "gpt2-small-shape": "だった"},
           "en": {"seed-demo": "It", "toy-3token": "it", "taro-hanako": "She", "hashi-chopsticks": "bank",
                  "hashi-bridge": "bank", "position-nekoga": "dog", "position-suwatta": "dog",
                  "projection-demo": "ate", "gqa-demo": "ate", "gpt2-small-shape": "."}}


def make(qtbot, scenario=None):
    w = MainWindow(scenario)
    qtbot.addWidget(w, before_close_func=lambda w: w.document.undo_stack.setClean())
    w.show()
    return w


@pytest.mark.parametrize("lang, sentence", [("en", ("The", "cat", "ate", "the", "fish")),
                                            ("ja", ("猫", "が", "魚", "を", "食べた"))])
def test_the_window_starts_on_seed_demo_in_its_language(qtbot, lang, sentence):
    install_language(lang)
    w = make(qtbot)
    assert w.document.scenario.tokens[:5] == sentence and w.document.source == "preset:seed-demo"
    labels = w.findChild(QTableView, "qTable").model()
    assert labels.headerData(1, 1) == ("food" if lang == "en" else "食べ物")  # the sliders' and columns' names
    assert w.windowTitle().startswith("seed-demo")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("preset", [p.id for p in list_presets()])
def test_every_preset_from_the_menu_opens_in_the_language_on_its_storys_query(qtbot, lang, preset):
    install_language(lang)
    w = make(qtbot, "toy-3token")
    w.menus.presets_menu.aboutToShow.emit()  # the menu is filled when it opens
    action = next(a for a in w.menus.presets_menu.actions() if a.text().startswith(preset + " "))
    assert action.text().endswith(next(p for p in list_presets() if p.id == preset).title_in(lang))
    action.trigger()
    assert w.document.scenario.tokens == load_preset(preset, lang).tokens
    assert w.document.scenario.tokens[w.document.query] == STORIES[lang][preset]
    assert w.findChild(QComboBox, "querySelector").currentText() == STORIES[lang][preset]


def test_switching_the_language_switches_an_unmodified_preset_keeping_head_query_and_step(qtbot):
    w = make(qtbot)
    d = w.document
    d.select(head=1)
    d.set_stage(3)
    w.classroom.set_language("ja")
    qtbot.waitUntil(lambda: d.scenario.tokens[6] == "それ")  # at the next turn of the event loop
    assert d.scenario.heads[0].labels[0] == "動物"
    assert (d.active_head, d.scenario.tokens[d.query], d.stage) == (1, "それ", 3)
    assert d.source == "preset:seed-demo" and not d.modified
    d.select(query=8)  # 新鮮: not the story's query; both versions have 10 tokens, so it stays
    w.classroom.set_language("en")
    qtbot.waitUntil(lambda: d.scenario.tokens[6] == "It")
    assert d.scenario.tokens[d.query] == "fresh" and not d.modified


def test_an_edited_preset_is_never_replaced(qtbot):
    w = make(qtbot)
    d = w.document
    w.findChild(QTableView, "qTable").model().setData(w.findChild(QTableView, "qTable").model().index(6, 0), "2")
    assert d.modified
    w.classroom.set_language("ja")
    qtbot.wait(50)
    assert d.scenario.tokens[6] == "It" and d.scenario.heads[0].q[6].tolist() == [2, 2, 0, 0] and d.modified
    d.undo_stack.undo()  # back to the preset as opened: the next switch may replace it
    w.classroom.set_language("en")
    w.classroom.set_language("ja")
    qtbot.waitUntil(lambda: d.scenario.tokens[6] == "それ")


def test_a_closed_window_keeps_what_it_showed(qtbot):
    w = make(qtbot)
    w.close()
    install_language("ja")
    qtbot.wait(50)
    assert w.document.scenario.tokens[6] == "It"


def test_a_file_is_never_translated(qtbot, tmp_path):
    path = tmp_path / "english.json"
    save_scenario(load_preset("seed-demo", "en"), str(path))
    w = make(qtbot, str(path))
    w.classroom.set_language("ja")
    qtbot.wait(50)
    assert w.document.scenario.tokens[6] == "It" and w.document.path == str(path)


def test_a_preset_the_command_line_opened_before_qt_is_shown_in_the_interfaces_language(tmp_path):
    install_language("en")
    assert in_language(open_named("seed-demo"))[0].tokens[6] == "It"  # opened as the original (Japanese)
    install_language("ja")
    assert in_language(open_named("seed-demo", lang="en"))[0].tokens[6] == "それ"
    path = tmp_path / "s.json"
    save_scenario(load_preset("toy-3token"), str(path))
    assert in_language(open_named(str(path)))[0].tokens == ("猫", "魚", "それ")  # a file stays as it is
