"""What a teacher needs in front of a class: language, look, zoom, presentation, guided steps, help.

Classroom owns these View and Help menu actions for a MainWindow and remembers
the choices with QSettings.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QFont, QKeySequence
from PySide6.QtWidgets import QApplication

from ..look import colormaps
from ..state import settings
from ..common.actions import make_action, name_actions
from ..look.fonts import presented
from ..steps.stages import following, preceding
from .help import show_guide, show_about
from ..common.i18n import LANGUAGES, current_language, install_language, tr
from ..look.theme import THEMES, apply_theme

ZOOM_STEPS = (0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4, 2.8)
DESK_ZOOM = 1.0           # Ctrl+0 on the desk ...
PRESENTATION_ZOOM = 1.6   # ... and while presenting: each mode has its own zoom, remembered apart
PRESENTATION_MAX_ZOOM = 2.0  # beyond, a 1920 × 1080 screen cannot hold the steps and the controls
PRESENTATION_POINTS = 24  # heatmap labels and values on a projector: readable from the back
STEPS_SHARE = 0.42        # of the screen's width, for the step table and the controls while presenting
SLIDER_SHARE = 1 / 3      # a presentation q slider is at least this share of the screen wide


class Classroom:
    def __init__(self, window):
        self.window = window
        self.document = window.document
        self.colormap = colormaps.DEFAULT
        self.theme = "light"
        self.presenting = False
        self.first_start = False  # no window layout remembered: the app opens maximised
        self._saved_layout = None
        self._base_points = QApplication.font().pointSizeF()
        self._build_actions()
        self.document.selectionChanged.connect(self._update_guided_actions)
        self.document.replaced.connect(self._update_guided_actions)

    # ------------------------------------------------------------- actions and menus

    def _action(self, slot, shortcuts=(), checkable=False) -> QAction:
        return make_action(self.window, slot, shortcuts, checkable)

    def _group(self, names, slot) -> tuple[QActionGroup, dict]:
        group = QActionGroup(self.window)
        actions = {}
        for name in names:
            action = QAction(self.window, checkable=True)
            action.triggered.connect(lambda _=False, n=name: slot(n))
            group.addAction(action)
            actions[name] = action
        return group, actions

    def _build_actions(self):
        self.presentation_action = self._action(self.toggle_presentation, ["F5"], checkable=True)
        self.exit_presentation_action = self._action(lambda: self.set_presentation(False), ["Esc"])
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
        self.guide_action = self._action(lambda: show_guide(self.window), ["F1"])
        self.about_action = self._action(lambda: show_about(self.window))
        _, self.language_actions = self._group(LANGUAGES, self.set_language)
        _, self.colormap_actions = self._group(colormaps.SEQUENTIAL, self.set_colormap)
        _, self.scale_actions = self._group(colormaps.SCALES, self.set_scale)
        _, self.theme_actions = self._group(THEMES, self.set_theme)
        self.window.heads.guide.bind(self.previous_action, self.next_action, self.guided_action)
        self.window.presenter.toggle.clicked.connect(self.toggle_controls)

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
        }
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
            action.setText(tr(colormaps.SEQUENTIAL[name][1]))
        for name, action in self.scale_actions.items():
            action.setText(tr(colormaps.SCALES[name]))
        for name, action in self.theme_actions.items():
            action.setText({"light": tr("Light"), "dark": tr("Dark")}[name])
        for name, action in self.language_actions.items():
            action.setText(LANGUAGES[name])
        for menu, text in ((getattr(self, "colormap_menu", None), tr("&Colour map")),
                           (getattr(self, "scale_menu", None), tr("Colour scal&e")),
                           (getattr(self, "theme_menu", None), tr("Loo&k")),
                           (getattr(self, "language_menu", None), tr("&Language")),
                           (getattr(self, "guided_menu", None), tr("Guided &steps"))):
            if menu is not None:
                menu.setTitle(text)
        self.language_actions[current_language()].setChecked(True)
        self._update_guided_actions()

    # ------------------------------------------------------------- remembered choices

    def restore(self):
        self.set_colormap(settings.colormap(colormaps.DEFAULT, tuple(colormaps.SEQUENTIAL)), remember=False)
        self.set_scale(settings.colour_scale(tuple(colormaps.SCALES)), remember=False)
        self.set_theme(settings.theme(), remember=False)
        self.set_zoom(settings.zoom(), remember=False)
        geometry, state = settings.window_state()
        self.first_start = geometry is None
        if geometry is not None:
            self.window.restoreGeometry(geometry)
        if state is not None:
            self.window.restoreState(state)

    def save(self):
        if self.presenting:
            self.set_presentation(False)
        settings.set_window_state(self.window.saveGeometry(), self.window.saveState())

    def set_language(self, lang: str):
        """Switch without a restart: Qt sends every widget a LanguageChange event."""
        settings.set_language(install_language(lang))

    def set_colormap(self, name: str, remember: bool = True):
        name = name if name in colormaps.SEQUENTIAL else colormaps.DEFAULT
        self.colormap = name
        self.window.heads.set_colormap(name)
        self.window.steps.model.set_colormap(name)
        if getattr(self.window, "overview_dialog", None) is not None:
            self.window.overview_dialog.update_colours(name)
        self.colormap_actions[name].setChecked(True)
        if remember:
            settings.set_colormap(name)

    def set_scale(self, name: str, remember: bool = True):
        """Linear, logarithmic or each row to its maximum: every view, the colour bars and exports."""
        colormaps.set_scale(name)
        self.set_colormap(self.colormap, remember=False)  # every panel and the step table redrawn
        self.scale_actions[colormaps.scale()].setChecked(True)
        compare = getattr(self.window, "compare_dialog", None)
        if compare is not None:
            compare.update_colours()
        if remember:
            settings.set_colour_scale(colormaps.scale())

    def set_theme(self, name: str, remember: bool = True):
        self.theme = apply_theme(name)
        self.theme_actions[self.theme].setChecked(True)
        if remember:
            settings.set_theme(self.theme)

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
        self.set_presentation(not self.presenting)

    def set_presentation(self, on: bool):
        """Full screen, large type, editing chrome hidden, the active head big and the others small."""
        if on == self.presenting:
            return
        w = self.window
        if on:
            self._saved_layout = (w.saveState(), w.saveGeometry(), self.zoom_factor)
            for widget in (w.menuBar(), w.statusBar(), w.toolbar, w.vectors_dock, w.maths_dock, w.sliders):
                widget.hide()
            w.addDockWidget(Qt.RightDockWidgetArea, w.steps_dock)
            w.steps_dock.show()
            self.presenting = True
            self.set_zoom(settings.zoom(presentation=True), remember=False)
            self._presented_type()
            w.heads.set_presentation(True, PRESENTATION_POINTS)
            w.heads.valuePixelsChanged.connect(self._match_step_table)
            self._show_controls(settings.presentation_controls())
            w.showFullScreen()
            width = w.screen().geometry().width()
            w.presenter.set_slider_width(int(width * SLIDER_SHARE))
            # The steps and controls beside the big head: a fixed share, so the head keeps its large type.
            w.resizeDocks([w.steps_dock], [int(width * STEPS_SHARE)], Qt.Horizontal)
            if w.next_dock.isVisible():  # a real model: its prediction above the steps, a third of the height
                w.resizeDocks([w.next_dock, w.steps_dock], [w.screen().geometry().height() // 3,
                                                             w.screen().geometry().height() * 2 // 3], Qt.Vertical)
            QApplication.sendPostedEvents()
            self._match_step_table(w.heads.value_pixels())
        else:
            state, geometry, zoom = self._saved_layout
            self.presenting = False
            w.heads.valuePixelsChanged.disconnect(self._match_step_table)
            w.heads.set_presentation(False)
            self.set_zoom(zoom, remember=False)  # first: the desk's step table is laid out at the desk's size
            self._presented_type()
            w.steps.set_compact(False)
            w.presenter.hide()
            for widget in (w.menuBar(), w.statusBar(), w.sliders):
                widget.show()
            w.showNormal()
            w.restoreState(state)
            w.restoreGeometry(geometry)
        self.presentation_action.setChecked(on)
        self.controls_action.setEnabled(on)
        self._presentation_keys(on)

    def _presented_type(self):
        """Presenting, the words beside the heatmap (the guide, the controls, the next token) are
        never smaller than the back row can read, whatever the zoom."""
        w = self.window
        for widget in (w.presenter, w.heads.guide, w.next_dock.widget()):
            widget.setFont(presented(QApplication.font(), widget) if self.presenting else QFont())

    def _match_step_table(self, pixels: int):
        """The step table's type as large as the big heatmap's values."""
        if self.presenting and pixels != self.window.steps.presentation_pixels:
            self.window.steps.set_compact(True, pixels)

    def toggle_controls(self):
        if self.presenting:
            self._show_controls(not self.window.presenter.shown())
            settings.set_presentation_controls(self.window.presenter.shown())

    def _show_controls(self, on: bool):
        self.window.presenter.show()
        self.window.presenter.show_body(on)
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
        self.document.set_stage(None if self.document.stage is not None else following(None))

    def next_step(self):
        """Off → 1 → 2 → ... → 5 → off: each press computes one more step of the row."""
        self.document.set_stage(following(self.document.stage))

    def previous_step(self):
        self.document.set_stage(preceding(self.document.stage))

    def _step_query(self, delta: int):
        self.document.select(query=(self.document.query + delta) % self.document.scenario.n)

    def _update_guided_actions(self):
        stage = self.document.stage
        self.guided_action.setChecked(stage is not None)
        self.window.heads.show_guide()
