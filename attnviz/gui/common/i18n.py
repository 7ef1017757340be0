"""Interface language through Qt's translation system.

Every user-visible string goes through tr(). Sources are English; the Japanese
translations live in resources/translations/attnviz_ja.ts and are compiled into
attnviz_ja.qm (committed, so users need no build step; `python tools/translations.py`
regenerates both). Qt's own dialogs follow through Qt's qtbase_ja.qm.
"""
from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator

from ...core.paths import resource

LANGUAGES = {"en": "English", "ja": "日本語"}
_installed: list[QTranslator] = []


# The maths' subscripts as the formula writes them, in every text tr() gives: d_k -> dₖ, W_o -> Wₒ,
# K_iᵀ -> Kᵢᵀ, Y_i -> Yᵢ, Y_0 -> Y₀ (sources and translations keep the underscores, which read well in code). The
# bundled Noto Sans CJK has these letters. Unicode has no subscript q: W_q stays, and rich text
# (common/markup.py) sets every subscript, q included, with <sub>.
SUBSCRIPT_LETTERS = {"k": "ₖ", "v": "ᵥ", "o": "ₒ", "i": "ᵢ", **{str(n): chr(0x2080 + n) for n in range(10)}}
# never n_kv_heads, v_labels; also in a product (Q_iK_iᵀ, YW_o)
SUBSCRIPTED = re.compile(r"(?:(?<![a-z0-9_])|(?<=_[kvqoij0-9]))([dWQKVY])_([kvoi0-9])(?![a-z0-9_])")


def subscripts(text: str) -> str:
    """`text` with the maths' subscripts written as Unicode subscript letters (d_k -> dₖ)."""
    return SUBSCRIPTED.sub(lambda m: m[1] + SUBSCRIPT_LETTERS[m[2]], text)


def tr(text: str) -> str:
    # One (empty) context for the whole app: that is where pyside6-lupdate files
    # tr() calls made outside a class.
    return subscripts(QCoreApplication.translate("", text))


class Retranslated:
    """For a widget (first among its bases) whose texts are set in retranslate(): Qt sends every
    widget LanguageChange when install_language() switches, and this calls retranslate() then."""

    def changeEvent(self, event):
        if event.type() == QEvent.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        raise NotImplementedError


def describe(error) -> str:
    """An AttnVizError's message in the interface's language (others as they are); an error
    carried inside another (a file's problem inside "file: ...") is translated too."""
    template, values = getattr(error, "template", None), getattr(error, "values", ())
    if template is None:
        return str(error)
    translated = tr(template)
    values = [describe(v) if hasattr(v, "template") else v for v in values]
    return translated.format(*values) if values else translated


def system_language() -> str:
    """The system's language when AttnViz speaks it, else English."""
    for name in QLocale.system().uiLanguages():
        lang = name.split("-")[0].split("_")[0].lower()
        if lang in LANGUAGES:
            return lang
    return "en"


def current_language() -> str:
    return QLocale().name().split("_")[0] if QLocale().name().split("_")[0] in LANGUAGES else "en"


def install_language(lang: str) -> str:
    """Switch the interface (and Qt's dialogs) to `lang`; widgets get a LanguageChange event."""
    lang = lang if lang in LANGUAGES else "en"
    app = QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    QLocale.setDefault(QLocale(QLocale.Japanese, QLocale.Japan) if lang == "ja" else
                       QLocale(QLocale.English, QLocale.UnitedStates))
    if lang != "en":
        for translator in (_own_translator(lang), _qt_translator(lang)):
            if translator is not None:
                app.installTranslator(translator)
                _installed.append(translator)
    else:
        QCoreApplication.sendEvent(app, QEvent(QEvent.LanguageChange))  # English: no translator to install
    # Qt posts LanguageChange to every widget; deliver them now so the switch is complete on return.
    QCoreApplication.sendPostedEvents(None, QEvent.LanguageChange)
    return lang


def _own_translator(lang: str) -> QTranslator | None:
    path = resource("translations", f"attnviz_{lang}.qm")
    translator = QTranslator()
    return translator if path.is_file() and translator.load(str(path)) else None


def _qt_translator(lang: str) -> QTranslator | None:
    translator = QTranslator()
    folder = QLibraryInfo.path(QLibraryInfo.TranslationsPath)
    return translator if translator.load(f"qtbase_{lang}", folder) else None


def head_label(scenario, index: int) -> str:
    """'0: semantic head', or just 'head 3' when a head has no name of its own."""
    name = scenario.heads[index].title(current_language())
    if not name.strip() or name in (f"head {index}", tr("head {0}").format(index)):
        return tr("head {0}").format(index)
    return f"{index}: {name}"
