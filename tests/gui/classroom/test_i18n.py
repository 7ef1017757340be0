"""The Japanese translation is complete and its compiled .qm is the one the app loads."""
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402

TS = ROOT / "resources" / "translations" / "attnviz_ja.ts"


def messages(ts):
    return {m.find("source").text: m.find("translation") for m in ET.parse(ts).getroot().iter("message")}


@pytest.fixture(scope="module")
def fresh_ts(tmp_path_factory):
    """What lupdate finds in the code today, merged into a copy of the committed .ts."""
    copy = tmp_path_factory.mktemp("ts") / "attnviz_ja.ts"
    shutil.copy(TS, copy)
    translations.update(copy)
    return copy


def test_every_string_in_the_interface_is_in_the_translation_file(fresh_ts):
    assert set(messages(fresh_ts)) == set(messages(TS)), "run python tools/translations.py"


def test_every_string_has_a_japanese_translation(fresh_ts):
    unfinished = [source for source, t in messages(fresh_ts).items()
                  if not (t.text or "").strip() or t.get("type") in ("unfinished", "vanished", "obsolete")]
    assert unfinished == []


def test_the_committed_qm_is_compiled_from_the_committed_ts(tmp_path):
    compiled = translations.release(TS, tmp_path / "attnviz_ja.qm")
    assert compiled.read_bytes() == TS.with_suffix(".qm").read_bytes(), "run python tools/translations.py"


def menus_of(window):
    """Every menu: the menu bar's and all submenus, as (title, [action texts]). Found as the
    window's QMenu children: calling QAction.menu() from Python makes PySide6 6.10 crash at the
    next language switch."""
    from PySide6.QtWidgets import QMenu
    menus = [("menu bar", window.menuBar().actions())] + [(m.title(), m.actions()) for m in window.findChildren(QMenu)]
    return [(title, [a.text() for a in actions if not a.isSeparator()]) for title, actions in menus]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_menus_keyboard_letters_are_unique_in_each_language(window, lang):
    """Alt+L must not mean two things: each menu's &-letters differ (外観 and 言語 shared L)."""
    import re
    window.classroom.set_language(lang)
    menus = menus_of(window)
    window.classroom.set_language("en")
    assert len(menus) > 8  # the menu bar, File, Edit, View, Help and their submenus
    for title, texts in menus:
        letters = [m.group(1).lower() for t in texts for m in [re.search(r"&([^&])", t.replace("&&", ""))] if m]
        clashes = {x for x in letters if letters.count(x) > 1}
        assert not clashes, (lang, title, clashes, texts)


def clipped_controls(window, app):
    """Buttons, check boxes and choosers narrower than their text needs, in the window and in
    every tab of the maths panel."""
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QToolButton, QWidget

    def cut(widgets):
        return [(type(c).__name__, c.objectName(), c.width(), c.sizeHint().width()) for c in widgets
                if c.isVisible() and isinstance(c, (QComboBox, QAbstractButton))
                and not (isinstance(c, QToolButton) and not c.text()) and c.width() < c.sizeHint().width() - 1]
    found = cut(window.findChildren(QWidget))
    tabs = window.parts.maths.widget()
    for t in range(tabs.count()):
        tabs.setCurrentIndex(t)
        app.processEvents()
        found += cut(tabs.currentWidget().findChildren(QWidget))
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_no_control_is_cut_short_in_either_language_at_a_laptops_or_a_projectors_size(window, qtbot, lang, size):
    """「未来を隠す（cau」 was a mask chooser too narrow for its Japanese text."""
    from PySide6.QtWidgets import QApplication
    window.classroom.set_language(lang)
    window.resize(*size)
    window.parts.maths_dock.show()
    qtbot.wait(20)
    found = clipped_controls(window, QApplication.instance())
    window.classroom.set_language("en")
    assert found == []
