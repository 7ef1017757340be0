"""The built-in scenarios, shipped as JSON files in resources/presets/ (see core/paths.py).

Every preset has a version per language, with the same id: the Japanese one (the tutorial's
sentences) in resources/presets/<id>.json, the English one (the same story and numbers on
English words) in resources/presets/en/<id>.json. Which version is opened is chosen when it is
opened (`lang`); without one, the Japanese original."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache

from .formats.document import scenario_from_dict
from .io import load_scenario
from .messages import QT_TR_NOOP
from .paths import resource
from .scenario import Scenario, ScenarioError

DEFAULT_PRESET = "seed-demo"
ORIGINAL = "ja"  # the language the presets were written in; every other version is a translation
LANGUAGES = ("ja", "en")


@dataclass(frozen=True)
class PresetInfo:
    id: str
    tab: str      # the group it is listed under: tutorial, context, layer
    title: dict   # language -> the title of that language's version

    def title_in(self, lang: str) -> str:
        """The title in `lang`, else in any language it has, else the id."""
        return self.title.get(lang) or next(iter(self.title.values()), "") or self.id


def _folder(lang: str = ORIGINAL):
    return resource("presets") if lang == ORIGINAL else resource("presets", lang)


def version(lang: str | None) -> str:
    """The version opened for the interface language `lang`: its own, else the original."""
    return lang if lang in LANGUAGES else ORIGINAL


@lru_cache(maxsize=None)
def _document(preset_id: str, lang: str = ORIGINAL) -> dict:
    entry = _folder(lang) / f"{preset_id}.json"
    if "/" in preset_id or "\\" in preset_id or not entry.is_file():
        raise ScenarioError(QT_TR_NOOP("unknown preset '{0}' (the presets are: {1})"), preset_id, _known())
    return json.loads(entry.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def list_presets() -> tuple[PresetInfo, ...]:
    """Every preset, in the order they are taught, titled by each language's version."""
    ids = [p.name[:-5] for p in _folder().iterdir() if p.name.endswith(".json")]
    documents = {i: _document(i) for i in ids}
    ordered = sorted(ids, key=lambda i: (documents[i].get("order", 99), i))
    return tuple(PresetInfo(i, documents[i].get("tab", ""),
                            {lang: _document(i, lang)["title"][lang] for lang in LANGUAGES}) for i in ordered)


def _known() -> str:
    return ", ".join(p.id for p in list_presets())


def is_preset(name: str) -> bool:
    return any(p.id == name for p in list_presets())


def load_preset(preset_id: str, lang: str | None = None) -> Scenario:
    """The preset's version in `lang` (None: the Japanese original)."""
    return scenario_from_dict(_document(preset_id, version(lang)))


def version_open(preset_id: str, scenario: Scenario) -> str | None:
    """Which language's version of the preset `scenario` is as opened (told by its tokens: the
    versions' tokens differ, a test checks), or None when it is neither."""
    if not is_preset(preset_id):
        return None
    return next((lang for lang in LANGUAGES
                 if tuple(_document(preset_id, lang)["tokens"]) == scenario.tokens), None)


def open_named(name: str, layer: int = 0, lang: str | None = None) -> tuple[Scenario, str]:
    """A preset id or a file path -> (scenario, source); the source is "preset:<id>" or an
    absolute path, so the window can show its name and save back to it. `layer` picks one
    layer of a model's file; `lang` a preset's version (None: the Japanese original). A file is
    never translated."""
    if is_preset(name) and not os.path.exists(name):
        return load_preset(name, lang), f"preset:{name}"
    if not os.path.exists(name) and os.sep not in name and "." not in name:
        raise ScenarioError(QT_TR_NOOP("'{0}' is neither a preset ({1}) nor a file"), name, _known())
    return load_scenario(name, layer), os.path.abspath(name)
