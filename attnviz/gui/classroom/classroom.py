"""What a teacher needs in front of a class: language, look, zoom, presentation, guided steps, help.

Classroom owns these View and Help menu actions. Its choices go into the window's view state
(state/view.py), which the views follow, and are remembered with QSettings. It arranges the
window for a projector through the interface it is given (Presentable), never its attributes.
"""
from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QFont, QKeySequence
from PySide6.QtWidgets import QApplication, QWidget

from ...core.layer import steps as layer_steps
from ..common.actions import make_action, name_actions
from ..common.i18n import LANGUAGES, current_language, install_language, tr
from ..look import colormaps
from ..look.fonts import presented, readable_pixels
from ..look.theme import THEMES, apply_theme
from ..state import settings
from ..state.view import FIELDS
from ..steps.stages import NUMBERS, following, preceding
from ..steps.table import small_example
from .help import show_about, show_guide
from .keys import KeysOverlay, lesson_sections, presentation_sections
from .tools import Tools
from .views import BY_ID, FIRST, VIEWS, cycled

ZOOM_STEPS = (0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4, 2.8)
DESK_ZOOM = FIELDS["desk_zoom"]                  # Ctrl+0 on the desk ...
PRESENTATION_ZOOM = FIELDS["presentation_zoom"]  # ... and presenting: each mode has its own zoom, remembered apart
PRESENTATION_MAX_ZOOM = 2.0  # beyond, a 1920 × 1080 screen cannot hold the steps and the controls
PRESENTATION_POINTS = 24  # heatmap labels and values on a projector: readable from the back
STEPS_SHARE = 0.42        # of the screen's width, for the step table and the controls while presenting
MOST_STEPS_SHARE = 0.62   # ... up to this, when a small example's head needs less room than ten tokens
HEAD_CELL_SHARE = 0.070   # of the screen's height: a presented head's cell with 24 pt values (73 px on 1080)
HEAD_FRAME_SHARE = 0.25   # of the screen's height: the big head's labels and margins, and the colour bar
SLIDER_SHARE = 1 / 3      # a presentation q slider is at least this share of the screen wide
STEPS_MOST = 2.0          # the step table presented alone: its type at most this many times the least readable


class Presentable(Protocol):
    """What the window gives the classroom: the parts it restyles, and how they are laid out."""

    heads: QWidget      # heads/view.HeadsView: set_presentation, value_pixels, guide
    steps: QWidget      # steps/table.StepView: set_compact
    presenter: QWidget  # tables/controls.PresentationControls
    stage: QWidget      # where a presented view other than the heads is shown

    def dialog_parent(self) -> QWidget: ...
    def next_token(self) -> QWidget: ...
    def saved_layout(self) -> tuple: ...  # (geometry, state), as settings keeps them
    def restore_layout(self, geometry, state) -> None: ...
    def hide_chrome(self) -> None: ...
    def fill_screen(self, steps_share: float, slider_share: float) -> None: ...
    def leave(self, geometry, state) -> None: ...
    def present(self, view, side_by_side: bool = False, overview=None, compare=None) -> QWidget | None: ...
    def presented(self) -> QWidget | None: ...  # the widget on the stage


class Classroom:
    def __init__(self, parts: Presentable, document, view, overview, compare=None):
        self.parts, self.document, self.view = parts, document, view
        self.overview = overview  # overview/controller.OverviewController: its dialog can be presented
        self.compare = compare    # compare/controller.CompareController: makes the presented comparison (C)
        self.presented_view = FIRST  # which view fills the screen while presenting (views.py's VIEWS)
        self._compare_turn = 0         # C pressed again on the comparison: the next pair
        self._before_compare = FIRST   # where Esc goes back to from the comparison
        self._lesson_b = None          # a lesson's compare scene: the scenario set beside the window's
        self.lesson = None  # lessons/player.LessonPlayer while a lesson is given: the clicker's keys and digits are its
        self.side_by_side = False    # the heads presented: all side by side, or the active one big
        self._shown = None           # the presented widget told set_presentation(True)
        self.host = parts.dialog_parent()  # holds the actions, so their keys work with the menus hidden
        self.colormap_menu = self.scale_menu = self.theme_menu = self.language_menu = self.guided_menu = None
        self.first_start = False  # no window layout remembered: the app opens maximised
        self._saved_layout = None
        self._base_points = QApplication.font().pointSizeF()
        self._build_actions()
        self.document.selectionChanged.connect(self._update_guided_actions)
        self.document.replaced.connect(self._update_guided_actions)

    # ------------------------------------------------------------- actions and menus

    def _action(self, slot, shortcuts=(), checkable=False) -> QAction:
        return make_action(self.host, slot, shortcuts, checkable)

    def _group(self, names, slot) -> tuple[QActionGroup, dict]:
        group = QActionGroup(self.host)
        actions = {}
        for name in names:
            action = QAction(self.host, checkable=True)
            action.triggered.connect(lambda _=False, n=name: slot(n))
            group.addAction(action)
            actions[name] = action
        return group, actions

    def _build_actions(self):
        self.presentation_action = self._action(self.toggle_presentation, ["F5"], checkable=True)
        self.exit_presentation_action = self._action(self._escape, ["Esc"])
        self.zoom_in_action = self._action(lambda: self.zoom(+1), [QKeySequence.ZoomIn, "Ctrl+="])
        self.zoom_out_action = self._action(lambda: self.zoom(-1), [QKeySequence.ZoomOut])
        self.zoom_reset_action = self._action(self.reset_zoom, ["Ctrl+0"])
        self.controls_action = self._action(self.toggle_controls, ["H"], checkable=True)
        self.controls_action.setEnabled(False)  # presenting only: on the desk, H is a letter to type
        self.guided_action = self._action(self.toggle_guided, ["Ctrl+G"], checkable=True)
        self.next_action = self._action(self.next_step, ["Ctrl+Right"])
        self.previous_action = self._action(self.previous_step, ["Ctrl+Left"])
        self.next_query_action = self._action(lambda: self._step_query(+1), ["Ctrl+Down"])
        self.previous_query_action = self._action(lambda: self._step_query(-1), ["Ctrl+Up"])
        self.guide_action = self._action(lambda: show_guide(self.host), ["F1"])
        self.about_action = self._action(lambda: show_about(self.host))
        _, self.language_actions = self._group(LANGUAGES, self.set_language)
        _, self.colormap_actions = self._group(colormaps.WEIGHT_MAPS, self.set_colormap)
        _, self.scale_actions = self._group(colormaps.SCALES, self.set_scale)
        _, self.theme_actions = self._group(THEMES, self.set_theme)
        self.parts.heads.guide.bind(self.previous_action, self.next_action, self.guided_action)
        self.parts.presenter.toggle.clicked.connect(self.toggle_controls)
        # Presenting only, like H: on the desk these are digits and letters to type.
        self.view_actions = {v.id: self._action(lambda _=False, v=v: self._view_key(v), [v.key]) for v in VIEWS}
        self.cycle_actions = (self._action(lambda: self.present_view(cycled(self.presented_view, +1)), ["Tab"]),
                              self._action(lambda: self.present_view(cycled(self.presented_view, -1)),
                                           [QKeySequence(Qt.Key_Backtab), "Shift+Tab"]))
        self.side_by_side_action = self._action(self.toggle_side_by_side, ["V"], checkable=True)
        self.keys_action = self._action(self.toggle_keys, ["?", "Shift+?"])
        self.keys = KeysOverlay(self.host)
        self.tools = Tools(self.host, self.document)  # pen, pointer, zoom, timer: their keys work while presenting
        for action in self._presenting_only():
            action.setEnabled(False)

    def fill_view_menu(self, menu):
        for action in (self.presentation_action, self.controls_action, None, self.zoom_in_action, self.zoom_out_action,
                       self.zoom_reset_action, None):
            menu.addSeparator() if action is None else menu.addAction(action)
        self.colormap_menu = menu.addMenu("")
        self.colormap_menu.addActions(list(self.colormap_actions.values()))
        self.scale_menu = menu.addMenu("")
        self.scale_menu.addActions(list(self.scale_actions.values()))
        self.theme_menu = menu.addMenu("")
        self.theme_menu.addActions(list(self.theme_actions.values()))
        self.language_menu = menu.addMenu("")
        self.language_menu.addActions(list(self.language_actions.values()))
        menu.addSeparator()
        self.guided_menu = menu.addMenu("")
        self.guided_menu.addActions([self.guided_action, self.previous_action, self.next_action,
                                     self.previous_query_action, self.next_query_action])

    def fill_help_menu(self, menu):
        menu.addActions([self.guide_action, self.about_action])

    def retranslate(self):
        texts = {
            self.presentation_action: tr("&Presentation"), self.zoom_in_action: tr("Zoom &in"),
            self.zoom_out_action: tr("Zoom &out"), self.zoom_reset_action: tr("&Actual size"),
            self.guided_action: tr("&Guided steps"), self.next_action: tr("&Next step"),
            self.previous_action: tr("&Previous step"), self.next_query_action: tr("Next &query"),
            self.previous_query_action: tr("Previous q&uery"),
            self.guide_action: tr("&What am I looking at?"), self.about_action: tr("&About AttnViz"),
            self.exit_presentation_action: tr("Leave presentation"),
            self.controls_action: tr("Presentation con&trols"),
            self.side_by_side_action: tr("Heads side by side"), self.keys_action: tr("Keys while presenting"),
            self.cycle_actions[0]: tr("Next view"), self.cycle_actions[1]: tr("Previous view"),
        }
        texts.update({self.view_actions[v.id]: tr(v.label) for v in VIEWS})
        tips = {
            self.presentation_action: tr("Full screen with large type for a projector: the active head big, "
                                         "the others small (F5 or Esc to leave)"),
            self.guided_action: tr("Walk through the selected query's arithmetic one step at a time: q·k, "
                                   "÷√d_k, mask, softmax, weighted sum of v"),
            self.next_action: tr("Compute the next step of the selected query's row"),
            self.previous_action: tr("Go back one step"),
            self.next_query_action: tr("Explain the next token's row"),
            self.previous_query_action: tr("Explain the previous token's row"),
            self.zoom_in_action: tr("Larger text everywhere"), self.zoom_out_action: tr("Smaller text everywhere"),
            self.zoom_reset_action: tr("Text at its usual size"),
            self.controls_action: tr("While presenting: show or hide the query, its q sliders, the mask, "
                                     "÷√d_k and the temperature (H)"),
            self.guide_action: tr("Query, key and value, the worked example, and how to use the window"),
        }
        name_actions(texts, tips)
        # Buttons show these without the menu's keyboard letters, such as "(&N)" in Japanese.
        for action, text in ((self.next_action, tr("Next step")), (self.previous_action, tr("Previous step")),
                             (self.guided_action, tr("Guided steps"))):
            action.setIconText(text)
        for name, action in self.colormap_actions.items():
            action.setText(tr(colormaps.MAPS[name].label))
        for name, action in self.scale_actions.items():
            action.setText(tr(colormaps.SCALES[name]))
        for name, action in self.theme_actions.items():
            action.setText({"light": tr("Light"), "dark": tr("Dark")}[name])
        for name, action in self.language_actions.items():
            action.setText(LANGUAGES[name])
        for menu, text in ((self.colormap_menu, tr("&Colour map")), (self.scale_menu, tr("Colour scal&e")),
                           (self.theme_menu, tr("Loo&k")), (self.language_menu, tr("&Language")),
                           (self.guided_menu, tr("Guided &steps"))):
            if menu is not None:
                menu.setTitle(text)
        self.language_actions[current_language()].setChecked(True)
        self._update_guided_actions()

    # ------------------------------------------------------------- remembered choices

    @property
    def presenting(self) -> bool:
        return self.view.presenting

    @property
    def colormap(self) -> str:
        return self.view.colormap

    def restore(self):
        self.set_colormap(settings.colormap(colormaps.DEFAULT, colormaps.WEIGHT_MAPS), remember=False)
        self.set_scale(settings.colour_scale(tuple(colormaps.SCALES)), remember=False)
        self.set_theme(settings.theme(), remember=False)
        self.set_zoom(settings.zoom(), remember=False)
        geometry, state = settings.window_state()
        self.first_start = geometry is None
        self.parts.restore_layout(geometry, state)

    def save(self):
        if self.presenting:
            self.set_presentation(False)
        settings.set_window_state(*self.parts.saved_layout())

    def set_language(self, lang: str):
        """Switch without a restart: Qt sends every widget a LanguageChange event."""
        lang = install_language(lang)
        self.view.set("language", lang)
        settings.set_language(lang)

    def set_colormap(self, name: str, remember: bool = True):
        """Every view that colours weights follows (they subscribe to the view state)."""
        name = name if name in colormaps.WEIGHT_MAPS else colormaps.DEFAULT
        self.view.set("colormap", name)
        self.colormap_actions[name].setChecked(True)
        if remember:
            settings.set_colormap(name)

    def set_scale(self, name: str, remember: bool = True):
        """Linear, logarithmic or each row to its maximum: every view, the colour bars and exports."""
        name = name if name in colormaps.SCALES else "linear"
        self.view.set("scale", name)
        self.scale_actions[name].setChecked(True)
        if remember:
            settings.set_colour_scale(name)

    def set_theme(self, name: str, remember: bool = True):
        look = apply_theme(name)
        self.view.set("look", look)
        self.theme_actions[look].setChecked(True)
        if remember:
            settings.set_theme(look)

    # ------------------------------------------------------------- zoom

    @property
    def zoom_factor(self) -> float:
        return QApplication.font().pointSizeF() / self._base_points

    def zoom_range(self) -> tuple[float, float]:
        """Presenting, text is never smaller than on the desk it came from."""
        if self.presenting:
            low = max(DESK_ZOOM, self._saved_layout[2])
            return low, max(low, PRESENTATION_MAX_ZOOM)
        return ZOOM_STEPS[0], ZOOM_STEPS[-1]

    def zoom(self, direction: int):
        current = self.zoom_factor
        low, high = self.zoom_range()
        steps = [z for z in ZOOM_STEPS if (z > current + 1e-6 if direction > 0 else z < current - 1e-6)
                 and low - 1e-6 <= z <= high + 1e-6]
        if steps:
            self.set_zoom(steps[0] if direction > 0 else steps[-1])

    def reset_zoom(self):
        """Ctrl+0: the usual size of the mode the window is in (a projector's, or the desk's)."""
        self.set_zoom(PRESENTATION_ZOOM if self.presenting else DESK_ZOOM)

    def set_zoom(self, factor: float, remember: bool = True):
        """Every text in the window scales: tables, step table, heatmaps (they follow the app font)."""
        low, high = self.zoom_range()
        factor = min(max(factor, low), high)
        self.view.set("presentation_zoom" if self.presenting else "desk_zoom", factor)
        if abs(factor - self.zoom_factor) < 1e-6:
            return
        font = QApplication.font()
        font.setPointSizeF(self._base_points * factor)
        QApplication.setFont(font)
        QApplication.sendPostedEvents()  # every widget takes the new size now, not at the next event loop turn
        self._presented_type()
        if remember:
            settings.set_zoom(factor, presentation=self.presenting)

    # ------------------------------------------------------------- presentation

    def toggle_presentation(self):
        if self.lesson is not None:  # F5 in a lesson ends it, as Esc does
            return self.lesson.end()
        self.set_presentation(not self.presenting)

    def set_presentation(self, on: bool):
        """Full screen, large type, editing chrome hidden, the active head big and the others small."""
        if on == self.presenting:
            return
        parts = self.parts
        if on:
            self._saved_layout = (*parts.saved_layout(), self.zoom_factor)
            parts.hide_chrome()
            self.view.set("presenting", True)
            self.set_zoom(settings.zoom(presentation=True), remember=False)
            self._presented_type()
            parts.heads.set_presentation(True, PRESENTATION_POINTS)
            parts.heads.valuePixelsChanged.connect(self._match_step_table)
            self._show_controls(settings.presentation_controls())
            parts.fill_screen(self._steps_share(), SLIDER_SHARE)
            self._match_step_table(parts.heads.value_pixels())
            self.presented_view, self.side_by_side = FIRST, False
            self.present_view(FIRST)
        else:
            geometry, state, zoom = self._saved_layout
            self.keys.hide()
            self._tell_presented(None)
            self.view.set("presenting", False)
            parts.heads.valuePixelsChanged.disconnect(self._match_step_table)
            parts.heads.set_presentation(False)
            self.set_zoom(zoom, remember=False)  # first: the desk's step table is laid out at the desk's size
            self._presented_type()
            parts.steps.set_compact(False)
            parts.presenter.hide()
            parts.leave(geometry, state)
        self.presentation_action.setChecked(on)
        for action in self._presenting_only():
            action.setEnabled(on)
        self.tools.set_enabled(on)  # leaving, every tool is put away and the drawing goes
        self._presentation_keys(on)

    def _steps_share(self) -> float:
        """The step table's share of the screen's width beside the big head: STEPS_SHARE, or for a small
        example, whose k and q·k are written out, what its head leaves (six tokens need far less room
        than ten)."""
        d = self.document
        if not small_example(d.scenario, d.active_head):
            return STEPS_SHARE
        screen = (self.host.screen() or QApplication.primaryScreen()).geometry()
        head = (d.scenario.n * HEAD_CELL_SHARE + HEAD_FRAME_SHARE) * screen.height()
        return min(MOST_STEPS_SHARE, max(STEPS_SHARE, 1 - head / screen.width()))

    def _presenting_only(self) -> list[QAction]:
        return [self.controls_action, *self.view_actions.values(), *self.cycle_actions, self.side_by_side_action,
                self.keys_action]

    # ------------------------------------------------------------- which view is presented

    def present_view(self, name: str) -> None:
        """Presenting, `name` (a VIEWS id) fills the screen; on the desk, nothing happens."""
        if not self.presenting or name not in BY_ID:
            return
        if name == "compare":
            self._compare_turn = self._compare_turn + 1 if self.presented_view == name else 0
            if self.presented_view != name:
                self._before_compare = self.presented_view
        if name != self.presented_view:
            self.tools.scene_changed()  # strokes drawn over one view mean nothing over another
        self.presented_view = name
        heads = name == "heads"
        self.parts.heads.set_presentation(True, PRESENTATION_POINTS, side_by_side=heads and self.side_by_side)
        widget = self.parts.present(BY_ID[name], self.side_by_side, self._overview, self._comparison)
        self._tell_presented(None if heads else widget)
        if heads and not self.side_by_side:
            self.parts.fill_screen(self._steps_share(), SLIDER_SHARE)  # the steps beside the big head, as they were
        QApplication.sendPostedEvents()  # laid out on the whole screen before the step table's type is fitted
        self._match_step_table(self.parts.heads.value_pixels())
        self.side_by_side_action.setChecked(self.side_by_side)

    def _view_key(self, view) -> None:
        """A view's key; in a lesson, a digit is part of a scene's number (the lesson chooses the views)."""
        if not (self.lesson is not None and view.key.isdigit() and self.lesson.digit(view.key)):
            self.present_view(view.id)

    def present_scene(self, view: str, compare=None) -> None:
        """A lesson's scene's view (core/lessons/scene.py's VIEWS): "head" one big head with the steps,
        "heads" every head side by side, "compare" the window's scenario beside `compare`."""
        self.side_by_side = view == "heads"
        self._lesson_b = compare if view == "compare" else None
        self.present_view("heads" if view in ("head", "heads") else view)

    def toggle_side_by_side(self) -> None:
        """V: the heads one big (with the steps beside) ↔ every head side by side, as big as fits."""
        self.side_by_side = not self.side_by_side if self.presented_view == "heads" else True
        self.present_view("heads")

    def _tell_presented(self, widget) -> None:
        """The presented view sizes its own type and drawing (set_presentation); a maths view is the
        maths panel's current tab. The one told before is told it is back on the desk."""
        if widget is not None and widget.objectName() == "mathsTabs":
            widget = widget.currentWidget()
        if self._shown is not None and self._shown is not widget:
            _set_presentation(self._shown, False)
        self._shown = widget
        if widget is not None:
            _set_presentation(widget, True)
        self._presented_type()

    def _overview(self) -> tuple:
        """(the overview's dialog for the stage, opened if it was not; whether it was open on the desk)."""
        was_open = self.overview.dialog is not None and self.overview.dialog.isVisible()
        if self.overview.dialog is None:
            self.overview.open()
        return self.overview.dialog, was_open

    def _comparison(self):
        """The comparison for the stage; if it closes by itself (Cancel, B not made), the view before it."""
        dialog = self.compare.present_with(self._lesson_b) if self._lesson_b is not None else \
            self.compare.present_pair(self._compare_turn)
        dialog.finished.connect(lambda *_: self._comparison_closed(dialog))
        return dialog

    def comparison(self):
        """What the presented comparison shows now (compare/controller.py's Compared: A and B, and where
        each came from), for a lesson's scene; None when it is not presented, or not built yet."""
        if not (self.presenting and self.presented_view == "compare") or self.parts.presented() is None:
            return None
        return self.compare.shown(self.parts.presented())

    def _comparison_closed(self, dialog) -> None:
        if self.presenting and self.parts.presented() is dialog:
            self.present_view(self._before_compare)

    def toggle_keys(self) -> None:
        self.keys.hide() if self.keys.isVisible() else self.keys.open(self._key_sections)

    def _key_sections(self) -> list:
        """What `?` lists: a lesson's keys (the digits are its scenes' numbers then), else the views'."""
        return lesson_sections(self.lesson.keys()) if self.lesson is not None else presentation_sections()

    def _escape(self) -> None:
        """Esc closes the keys' list first, then ends the zoom, puts the pen down or the pointer away,
        goes back from the comparison (opened from a view with C) to that view, then leaves the
        presentation."""
        if self.keys.isVisible():
            self.keys.hide()
        elif self.lesson is not None and self.lesson.uncover():
            return
        elif self.tools.escape():
            return
        elif self.lesson is not None and self.lesson.escape():
            return
        elif self.presented_view == "compare":
            self.present_view(self._before_compare)
        else:
            self.set_presentation(False)

    def _presented_type(self):
        """Presenting, the words beside the heatmap (the guide, the controls, the next token) and
        the presented view are never smaller than the back row can read, whatever the zoom."""
        for widget in (self.parts.presenter, self.parts.heads.guide, self.parts.next_token(), self.parts.stage):
            widget.setFont(presented(QApplication.font(), widget) if self.presenting else QFont())
        self.parts.next_token().set_presenting(self.presenting)

    def _match_step_table(self, pixels: int):
        """The step table's type as large as the big heatmap's values; presented alone (2), at most
        STEPS_MOST times the least readable type (three tokens' values are 100 px: the rows would not fit)."""
        steps = self.parts.steps
        if self.presented_view == "steps":
            pixels = min(pixels, round(STEPS_MOST * readable_pixels(steps)))
        if self.presenting and pixels != steps.presentation_pixels:
            steps.set_compact(True, pixels)

    def toggle_controls(self):
        presenter = self.parts.presenter
        if self.presenting:
            self._show_controls(not presenter.shown())
            settings.set_presentation_controls(presenter.shown())

    def _show_controls(self, on: bool):
        self.parts.presenter.show()
        self.parts.presenter.show_body(on)
        self.controls_action.setChecked(on)

    def _presentation_keys(self, on: bool):
        """With no tables to type into, the arrow keys (and a clicker's page keys) step through."""
        keys = {self.next_action: ["Right", "Space", "PgDown"], self.previous_action: ["Left", "PgUp"],
                self.next_query_action: ["Down"], self.previous_query_action: ["Up"]}
        defaults = {self.next_action: "Ctrl+Right", self.previous_action: "Ctrl+Left",
                    self.next_query_action: "Ctrl+Down", self.previous_query_action: "Ctrl+Up"}
        for action, extra in keys.items():
            action.setShortcuts([QKeySequence(k) for k in [defaults[action]] + (extra if on else [])])

    # ------------------------------------------------------------- guided steps

    def toggle_guided(self):
        self.document.set_stage(None if self.document.stage is not None else following(None, self._steps()))

    def next_step(self):
        """Off → 1 → 2 → ... → 5 → off: each press computes one more step of the row (the layer presented:
        split, 1 to 5, concat, W_o, + X); in a lesson, the scene's steps, then the next scene."""
        if self.lesson is not None and self.presenting:
            return self.lesson.forward()
        self.document.set_stage(following(self.document.stage, self._steps()))

    def previous_step(self):
        if self.lesson is not None and self.presenting:
            return self.lesson.back()
        self.document.set_stage(preceding(self.document.stage, self._steps()))

    def _steps(self) -> tuple[int, ...]:
        """The guided steps → walks: the layer's own around a head's five where the layer is presented."""
        p = self.document.scenario.projection
        return layer_steps(p) if self.presenting and self.presented_view == "layer" and p is not None else NUMBERS

    def _step_query(self, delta: int):
        self.document.select(query=(self.document.query + delta) % self.document.scenario.n)

    def _update_guided_actions(self):
        stage = self.document.stage
        self.guided_action.setChecked(stage is not None)
        self.parts.heads.show_guide()


def _set_presentation(widget, on: bool) -> None:
    """Views that can be presented size their own type (≥ 20 px at 1920 × 1080) and drawing."""
    if hasattr(widget, "set_presentation"):
        widget.set_presentation(on)
