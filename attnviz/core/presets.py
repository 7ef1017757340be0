"""The built-in scenarios, shipped as JSON files in resources/presets/ (see core/paths.py)."""
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


@dataclass(frozen=True)
class PresetInfo:
    id: str
    tab: str      # the group it is listed under: tutorial, context, layer
    title: dict   # language -> title

    def title_in(self, lang: str) -> str:
        """The title in `lang`, else in any language it has, else the id."""
        return self.title.get(lang) or next(iter(self.title.values()), "") or self.id


def _folder():
    return resource("presets")


@lru_cache(maxsize=None)
def _document(preset_id: str) -> dict:
    entry = _folder() / f"{preset_id}.json"
    if "/" in preset_id or "\\" in preset_id or not entry.is_file():
        raise ScenarioError(QT_TR_NOOP("unknown preset '{0}' (the presets are: {1})"), preset_id, _known())
    return json.loads(entry.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def list_presets() -> tuple[PresetInfo, ...]:
    """Every preset, in the order they are taught."""
    ids = [p.name[:-5] for p in _folder().iterdir() if p.name.endswith(".json")]
    documents = {i: _document(i) for i in ids}
    ordered = sorted(ids, key=lambda i: (documents[i].get("order", 99), i))
    return tuple(PresetInfo(i, documents[i].get("tab", ""), documents[i]["title"]) for i in ordered)


def _known() -> str:
    return ", ".join(p.id for p in list_presets())


def is_preset(name: str) -> bool:
    return any(p.id == name for p in list_presets())


def load_preset(preset_id: str) -> Scenario:
    return scenario_from_dict(_document(preset_id))


def open_named(name: str, layer: int = 0) -> tuple[Scenario, str]:
    """A preset id or a file path -> (scenario, source); the source is "preset:<id>" or an
    absolute path, so the window can show its name and save back to it. `layer` picks one
    layer of a model's file."""
    if is_preset(name) and not os.path.exists(name):
        return load_preset(name), f"preset:{name}"
    if not os.path.exists(name) and os.sep not in name and "." not in name:
        raise ScenarioError(QT_TR_NOOP("'{0}' is neither a preset ({1}) nor a file"), name, _known())
    return load_scenario(name, layer), os.path.abspath(name)
