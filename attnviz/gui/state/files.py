"""The document to and from files: File → New from preset, Open, Open recent, Save, Save as, and
the question before unsaved work is dropped. A real model's run is saved as a session."""
from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ...core import save_scenario
from ...core import session as sessions
from ...core.formats.scenario_json import too_large_for_json
from ...core.io import holds_layers
from ...core.presets import DEFAULT_PRESET, list_presets, load_preset, open_named, version, version_open
from ...core.scenario import Scenario, ScenarioError
from ..common.i18n import current_language, describe, tr
from . import settings

Button = QMessageBox.StandardButton

FILE_FILTER = "AttnViz (*.json *.npz *.npy);;JSON (*.json);;NumPy (*.npz *.npy);;* (*)"
SAVE_FILTERS = {".json": "AttnViz JSON (*.json)", ".npz": "AttnViz compact (*.npz)"}
SESSION_FILTER = "AttnViz model session (*.attnviz-model.json)"


def resolve(scenario) -> tuple[Scenario, str | None]:
    """A Scenario, (Scenario, source), a preset id or a file path -> (Scenario, source); a preset
    in the interface's language (its version in that language, the same id)."""
    if isinstance(scenario, Scenario):
        return scenario, None
    if isinstance(scenario, tuple):
        return scenario
    return open_named(str(scenario) if scenario else DEFAULT_PRESET, lang=current_language())


def in_language(opened: tuple[Scenario, str | None]) -> tuple[Scenario, str | None]:
    """(scenario, source) opened before the interface's language was known (the command line
    checks its argument before Qt starts): a preset's version in the interface's language now;
    anything else as it is."""
    source = opened[1] or ""
    if not source.startswith("preset:") or version_open(source[len("preset:"):], opened[0]) is None:
        return opened
    return load_preset(source[len("preset:"):], current_language()), source


def source_name(source: str | None) -> str:
    """What the title bar calls a scenario: its file's name, its preset id, or "untitled"."""
    if source is None:
        return tr("untitled")
    if source.startswith("preset:"):
        return source[len("preset:"):]
    return os.path.basename(source)


def with_suffix(path: str, chosen_filter: str) -> str:
    """Add the chosen filter's suffix when the name has none (file dialogs differ in this)."""
    if os.path.splitext(path)[1]:
        return path
    start = chosen_filter.find("*.")
    return path + (chosen_filter[start + 1:chosen_filter.find(")", start)].split()[0] if start >= 0 else "")


def fill_with_presets(menu, chosen) -> None:
    """One action per preset (read when the menu opens), calling chosen(preset id)."""
    menu.clear()
    lang = current_language()
    for preset in list_presets():
        action = menu.addAction(f"{preset.id} — {preset.title_in(lang)}")
        action.triggered.connect(lambda _=False, p=preset.id: chosen(p))


class Files:
    def __init__(self, document, shell, open_session):
        self.document, self.shell = document, shell
        self.open_session = open_session  # a real model's session file: run again (model/controller.py)

    # ------------------------------------------------------------- opening

    def follow_language(self) -> bool:
        """After the language changed: a preset opened and not edited since switches to its version
        in the new language, keeping the head, the guided step and (when the versions have as many
        tokens) the query. An edited preset, a file or a model's run never changes."""
        d = self.document
        source = d.source or ""
        if d.modified or not source.startswith("preset:"):
            return False
        preset_id, lang = source[len("preset:"):], current_language()
        shown = version_open(preset_id, d.scenario)
        if shown is None or shown == version(lang):
            return False
        old, head, query, stage = d.scenario, d.active_head, d.query, d.stage
        d.replace(load_preset(preset_id, lang), source)
        d.select(head=head, query=query if d.scenario.n == old.n and query != old.focus else None)
        d.set_stage(stage)
        return True

    def open_scenario(self, name, layer: int = 0) -> bool:
        """Open a preset id or a file (one layer of a model's file); on failure say why and keep
        what is open."""
        if not self.maybe_save():
            return False
        if isinstance(name, str) and os.path.isfile(name) and sessions.looks_like_session(name):
            return self.open_session(name)
        try:
            scenario, source = resolve(name) if layer == 0 else open_named(str(name), layer)
        except ScenarioError as e:
            self.shell.warn(tr("Cannot open"), describe(e))
            return False
        self.document.replace(scenario, source)
        settings.set_last_scenario(source)
        if source and not source.startswith("preset:"):
            settings.remember_recent(source)
        return True

    def open_layer(self, layer: int) -> bool:
        """Another layer of the model's file that is open (asking first about unsaved edits),
        keeping the head and the query, to compare one head across layers."""
        d = self.document
        source = d.source
        if not source or source.startswith("preset:") or not self.other_layers():
            return False
        head, query = d.active_head, d.query
        opened = self.open_scenario(source, layer)
        if opened:
            d.select(head=head, query=query)
        return opened

    def other_layers(self) -> bool:
        """Whether other layers of this model can be shown: a model's file or the real model's
        run, not a scenario saved from one layer (it holds that layer only)."""
        d = self.document
        layers = d.scenario.layer
        return layers is not None and layers[1] > 1 and (d.layers_in_file or d.scenario.live is not None)

    def open_dialog(self):
        path, _ = QFileDialog.getOpenFileName(self.shell.dialog_parent(), tr("Open scenario"), self.folder(),
                                              FILE_FILTER)
        if path:
            self.open_scenario(path)

    def fill_presets_menu(self, menu):
        fill_with_presets(menu, self.open_scenario)

    def fill_recent_menu(self, menu):
        menu.clear()
        for path in settings.recent_files():
            action = menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_scenario(p))
        if menu.isEmpty():
            menu.addAction(tr("(none yet)")).setEnabled(False)

    def folder(self) -> str:
        path = self.document.path
        return os.path.dirname(path) if path else os.getcwd()

    # ------------------------------------------------------------- saving

    def save(self) -> bool:
        """Save to the scenario's own file; a model's file (or none) asks for a new name. A real
        model's session is saved as a session (its text, model and every change)."""
        path = self.document.path
        if self.document.scenario.live is not None:
            return self.save_to(path) if path and sessions.is_session_path(path) else self.save_as()
        if path is None or os.path.splitext(path)[1].lower() not in SAVE_FILTERS or holds_layers(path):
            return self.save_as()
        return self.save_to(path)

    def save_as(self, path=None) -> bool:
        parent = self.shell.dialog_parent()
        if self.document.scenario.live is not None:
            if not path:
                path, _ = QFileDialog.getSaveFileName(parent, tr("Save the model session"), self.suggested_name(),
                                                      SESSION_FILTER)
            return bool(path) and self.save_to(sessions.session_path(path))
        if not path:
            suggestion = self.suggested_name()
            chosen = SAVE_FILTERS[os.path.splitext(suggestion)[1]]
            path, chosen = QFileDialog.getSaveFileName(parent, tr("Save scenario"), suggestion,
                                                       ";;".join(SAVE_FILTERS.values()), chosen)
            path = with_suffix(path, chosen) if path else path
        if not path:
            return False
        if os.path.splitext(path)[1].lower() not in SAVE_FILTERS:
            path += ".npz" if too_large_for_json(self.document.scenario) else ".json"
        return self.save_to(path)

    def suggested_name(self) -> str:
        """The scenario's name, as .npz when it is too large for JSON; never the model's own file
        (a scenario holds one layer: saving it over the model's file would lose the others)."""
        d = self.document
        if d.scenario.live is not None:
            return os.path.join(self.folder(), sessions.session_path(self.shell.display_name()))
        stem = self.shell.display_name().rsplit(".", 1)[0]
        if d.path and holds_layers(d.path):
            stem += f"-layer{d.scenario.layer[0]}" if d.scenario.layer else "-edited"
        suffix = ".npz" if too_large_for_json(d.scenario) else ".json"
        return os.path.join(self.folder(), stem + suffix)

    def save_to(self, path: str) -> bool:
        path = os.path.abspath(path)
        d = self.document
        if d.changed_on_disk(path) and self.ask_overwrite_changed(path) != Button.Save:
            return False
        try:
            if d.scenario.live is not None:
                identity = sessions.identity(d.scenario.live.model)
                sessions.save_session(sessions.session_of(d.scenario, d.active_head, d.query, identity), path)
            else:
                save_scenario(d.scenario, path)
        except ScenarioError as e:
            self.shell.warn(tr("Cannot save"), describe(e))
            return False
        d.mark_saved(path)
        settings.remember_recent(path)
        settings.set_last_scenario(path)
        self.shell.update_title()
        return True

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current scenario (saved, discarded or unchanged)."""
        if not self.document.modified:
            return True
        answer = self.ask_unsaved()
        if answer == Button.Save:
            return self.save()
        return answer == Button.Discard

    def ask_overwrite_changed(self, path: str):
        """Another program (or another AttnViz) wrote the file since it was opened here."""
        return QMessageBox.warning(
            self.shell.dialog_parent(), tr("The file changed on disk"),
            tr("{0} was changed by another program since AttnViz opened it. Saving replaces those changes "
               "with what you see here. Save anyway?").format(os.path.basename(path)),
            Button.Save | Button.Cancel, Button.Cancel)

    def ask_unsaved(self):
        return QMessageBox.question(
            self.shell.dialog_parent(), tr("Unsaved changes"),
            tr("{0} has changes that are not saved. Save them?").format(self.shell.display_name()),
            Button.Save | Button.Discard | Button.Cancel, Button.Save)
