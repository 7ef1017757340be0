"""The window's actions and menus (File, Edit, View, Help), each calling its feature's
controller, and their texts in the current language."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QKeySequence

from ..common.actions import make_action, name_actions
from ..common.i18n import tr
from ..common.undo_keys import UndoKeys
from ..compare.controller import HASHI_PAIR, ORDER_PAIR
from ..state import settings


@dataclass(frozen=True)
class Features:
    """The controllers whose methods the menus' actions call."""

    files: Any      # state/files.Files
    model: Any      # model/controller.ModelController
    exports: Any    # export/controller.Exports
    tokens: Any     # tables/tokens.TokenEditing
    overview: Any   # overview/controller.OverviewController
    compare: Any    # compare/controller.CompareController
    classroom: Any  # classroom/classroom.Classroom
    lessons: Any    # lessons/player.LessonPlayer
    research: Any   # research/controller.ResearchController
    steer: Any      # steer/controller.SteerController


class Menus:
    def __init__(self, window, parts, stack, f: Features):
        """Actions owned by `window` (their keys work with the menu bar hidden), in its menu bar;
        `stack`: the document's undo stack."""
        self.window, self.parts = window, parts
        self.undo_action = stack.createUndoAction(window)
        self.undo_action.setShortcut(QKeySequence.Undo)
        self.redo_action = stack.createRedoAction(window)
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        window.addActions([self.undo_action, self.redo_action])
        self.undo_keys = UndoKeys(window, self.undo_action, self.redo_action)  # from every editor too
        self.open_action = self._action(f.files.open_dialog, QKeySequence.Open)
        self.real_model_action = self._action(f.model.dialog, "Ctrl+M")
        self.save_action = self._action(f.files.save, QKeySequence.Save)
        self.save_as_action = self._action(lambda: f.files.save_as(), "Ctrl+Shift+S")
        self.quit_action = self._action(window.close, "Ctrl+Q")
        self.export_image_action = self._action(f.exports.image_dialog, "Ctrl+E")
        self.export_data_action = self._action(f.exports.data_dialog)
        self.copy_image_action = self._action(f.exports.copy_image, "Ctrl+Shift+C")
        self.rename_action = self._action(f.tokens.rename_dialog, "F2")
        self.insert_before_action = self._action(lambda: f.tokens.insert_dialog(after=False))
        self.insert_after_action = self._action(lambda: f.tokens.insert_dialog(after=True))
        self.remove_action = self._action(f.tokens.remove)
        self.overview_action = self._action(f.overview.open, "Ctrl+Shift+O")
        self.research_actions = {tab: self._action(lambda _=False, tab=tab: f.research.open(tab))
                                 for tab in ("patch", "lens", "attribute", "sweep", "heads", "explain")}
        self.steer_action = self._action(f.steer.open)
        self.reopen_action = self._action(settings.set_reopen_last, checkable=True)
        self.reopen_action.setChecked(settings.reopen_last())
        self._build(window.menuBar(), f)

    def _action(self, slot, *shortcuts, checkable=False):
        return make_action(self.window, slot, shortcuts, checkable)

    @staticmethod
    def _add(menu, actions) -> None:
        for action in actions:
            menu.addSeparator() if action is None else menu.addAction(action)

    def _build(self, bar, f):
        self.file_menu = bar.addMenu("")
        self.presets_menu = self.file_menu.addMenu("")
        self.presets_menu.aboutToShow.connect(lambda: f.files.fill_presets_menu(self.presets_menu))
        self._add(self.file_menu, (self.open_action, self.real_model_action))
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(lambda: f.files.fill_recent_menu(self.recent_menu))
        self.compare_menu = self.file_menu.addMenu("")
        self.compare_menu.aboutToShow.connect(lambda: f.compare.fill_menu(self.compare_menu))
        self.file_menu.addAction(self.research_actions["patch"])
        self._add(self.file_menu, (None, self.save_action, self.save_as_action, None, self.export_image_action,
                                   self.export_data_action, None, self.reopen_action, None, self.quit_action))
        self.edit_menu = bar.addMenu("")
        self._add(self.edit_menu, (self.undo_action, self.redo_action, None, self.copy_image_action, None,
                                   self.rename_action, self.insert_before_action, self.insert_after_action,
                                   self.remove_action))
        self.view_menu = bar.addMenu("")
        self._add(self.view_menu, [dock.toggleViewAction() for dock in self.parts.docks()] +
                  [self.parts.toolbar.toggleViewAction(), None, self.overview_action, None])
        f.classroom.fill_view_menu(self.view_menu)
        self.research_menu = bar.addMenu("")
        self._add(self.research_menu, [*self.research_actions.values(), None, self.steer_action])
        self.lessons_menu = bar.addMenu("")
        self.lessons_menu.aboutToShow.connect(lambda: f.lessons.fill_menu(self.lessons_menu))
        self.help_menu = bar.addMenu("")
        f.classroom.fill_help_menu(self.help_menu)
        self.help_menu.addSeparator()
        self.compare_orders_action = self.help_menu.addAction("")
        self.compare_orders_action.triggered.connect(lambda: f.compare.compare_presets(*ORDER_PAIR))
        self.compare_hashi_action = self.help_menu.addAction("")
        self.compare_hashi_action.triggered.connect(lambda: f.compare.compare_presets(*HASHI_PAIR))

    def retranslate(self):
        texts = {
            self.open_action: tr("&Open…"), self.save_action: tr("&Save"),
            self.real_model_action: tr("Real &model…"),
            self.save_as_action: tr("Save &As…"), self.quit_action: tr("&Quit"),
            self.export_image_action: tr("&Export image…"), self.export_data_action: tr("Export &data…"),
            self.copy_image_action: tr("&Copy image"), self.rename_action: tr("Re&name token…"),
            self.insert_before_action: tr("Insert token &before…"),
            self.insert_after_action: tr("Insert token &after…"), self.remove_action: tr("Re&move token"),
            self.reopen_action: tr("Open the last scenario at start"),
            self.undo_action: tr("&Undo"), self.redo_action: tr("&Redo"),
            self.compare_orders_action: tr("&Compare word orders: “dog bites man” and “man bites dog”"),
            self.compare_hashi_action: tr("Compare “&bank”: money and river"),
            self.overview_action: tr("Overview of every layer and &head…"),
            self.research_actions["patch"]: tr("Compare &two prompts…"),
            self.research_actions["lens"]: tr("&Logit lens…"),
            self.research_actions["attribute"]: tr("Direct logit &attribution…"),
            self.research_actions["sweep"]: tr("&Sweep every head…"),
            self.research_actions["heads"]: tr("&Head types…"),
            self.steer_action: tr("Stee&r the model…"),
            self.research_actions["explain"]: tr("&Explain a continuation…"),
        }
        tips = {
            self.compare_orders_action: tr("Without positions, attention alone cannot tell the two orders apart"),
            self.compare_hashi_action: tr("The same “bank” attends to money in one sentence and to the river in "
                                          "the other"),
            self.copy_image_action: tr("Put the active head's heatmap on the clipboard, for slides"),
            self.open_action: tr("Open a scenario file (.json) or q, k, v from a NumPy file (.npz)"),
            self.real_model_action: tr("Type a sentence and see a real language model's attention, layer by layer, "
                                       "and what it predicts next (offline)"),
            self.save_action: tr("Save the scenario, with every edit, as a .json file"),
            self.export_image_action: tr("Save a heatmap as PNG, SVG or PDF for slides and papers"),
            self.export_data_action: tr("Save the weights and q, k, v of every head as CSV or .npz"),
            self.rename_action: tr("Rename the selected query token"),
            self.insert_before_action: tr("Add a token before the selected one (its q, k, v start at 0)"),
            self.insert_after_action: tr("Add a token after the selected one (its q, k, v start at 0)"),
            self.remove_action: tr("Remove the selected token from every head"),
            self.undo_action: tr("Take back the last edit"), self.redo_action: tr("Do again what was taken back"),
            self.overview_action: tr("Every layer × head at a glance, their statistics, the means and attention "
                                     "rollout"),
            self.research_actions["patch"]: tr("Activation patching: which heads carry what tells a clean prompt "
                                               "from a corrupted one (the real model)"),
            self.research_actions["lens"]: tr("What the real model would predict if it stopped after each layer"),
            self.research_actions["attribute"]: tr("How much each head and MLP writes towards a token's logit"),
            self.research_actions["sweep"]: tr("Switch each head off in turn and see a token's log-probability move"),
            self.research_actions["heads"]: tr("Previous-token, induction, duplicate-token, sink and local heads, "
                                               "found by their attention"),
            self.research_actions["explain"]: tr("The model reads a prompt and a continuation you give: how likely "
                                                 "it found each of its tokens"),
        }
        name_actions(texts, tips)
        for menu, text in ((self.file_menu, tr("&File")), (self.presets_menu, tr("&New from preset")),
                           (self.recent_menu, tr("Open &recent")), (self.compare_menu, tr("Compare &with")),
                           (self.edit_menu, tr("&Edit")), (self.view_menu, tr("&View")),
                           (self.research_menu, tr("&Research")), (self.lessons_menu, tr("&Lessons")),
                           (self.help_menu, tr("&Help"))):
            menu.setTitle(text)
