"""Giving a lesson (core/lessons) from full screen with a clicker: each scene's scenario opened with its
settings, its view presented, its head, query and guided step chosen, its caption under it.

→ / Space / Page Down run the scene's guided steps, then go to the next scene; ← / Page Up go back;
Home / End; a number and Enter jump (a number and T: a timer of that many seconds, classroom/tools.py);
S lists the scenes, B blanks the screen, R puts the scene back as the lesson has it. What the class tried
in a scene (a slider moved, the mask off) is kept while the lesson is open, so going back shows it again;
moving between scenes never asks to save, the scenario of a scene being the lesson's. Esc ends the lesson, on the desk.

The classroom (classroom/classroom.py) hands the player its clicker's keys and the digits while a lesson
is given (its `lesson` hook); the player's own keys are actions of the window, enabled only then.

A real model's scene is run on the model's worker the first time it is shown (the caption says so
meanwhile; the window keeps answering), then kept for the session; once shown, the model runner serves
it as any real model's run: the next token before → after, a head switched off in class run again.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFileDialog, QWidget

from ...core.layer import steps as layer_steps
from ...core.lessons import SUFFIX, LessonError, builtin_lesson, list_lessons, load, open_scene
from ...core.lessons.model import ModelRuns
from ...core.messages import AttnVizError
from ..common.actions import make_action
from ..common.i18n import current_language, tr
from ..steps.stages import NUMBERS
from .caption import CaptionBar
from .class_screens import ClassScreens
from .editor import LessonEditor
from .handout import add_handout_menu
from .moving import Moving
from .overlays import Blank, Reading, SceneList
from .presenter import Presenter
from .question import QuestionPlay

LEAST_TABLE_PIXELS = 20  # at 1080 lines: the step table's least type under a caption (every row in view)
JUMP_DIGITS = 3          # a scene number is at most this long


class LessonPlayer:
    def __init__(self, window, document, view, classroom, files, runner):
        self.window, self.document, self.view, self.classroom, self.files = window, document, view, classroom, files
        self.runner = runner
        self._pending = None  # the real model's scene (text, heads off) being run, to show when it has
        self.runs = ModelRuns(load=runner.builtin_model)  # the real model's scenes, each run once a session
        runner.scene_ran.connect(self._scene_ran)
        runner.scene_failed.connect(self._scene_failed)
        self.lesson = None
        self.index = 0
        self.kept: dict[int, tuple] = {}  # scene → (scenario, head, query, step) as the class left it
        self.typed = ""                   # digits of a scene number, before Enter
        self.caption = CaptionBar()
        self.dock = QDockWidget(window, objectName="lessonDock")
        self.dock.setWidget(self.caption)
        self.dock.setTitleBarWidget(QWidget())  # no title bar: the caption is all there is to it
        self.dock.setFeatures(QDockWidget.NoDockWidgetFeatures)
        window.addDockWidget(Qt.BottomDockWidgetArea, self.dock)
        self.dock.hide()
        self.scenes = SceneList(window)
        self.scenes.chosen.connect(self.go)
        self.blank = Blank(window)
        self.reading = Reading(window, self.dock)  # a real model's scene being read: not the scene before it
        self.moving = Moving(document)  # a scene's q moving as the class watches; an edit of the class's stops it
        document.undo_stack.indexChanged.connect(lambda _: self.moving.stop())
        runner.progress.connect(self.reading.progress)
        self.question = QuestionPlay(classroom.parts, self.caption, self._question_changed)
        self.presenter = Presenter(window, view, document, classroom.tools)  # the notes: a second screen, or N
        self.class_screens = ClassScreens(self)  # the students' own devices, when the teacher opens them (J)
        classroom.tools.typed_seconds = self.typed_number  # 90 T: a timer of 90 s, not scene 90
        self.actions = {key: make_action(window, slot, keys) for key, slot, keys in (
            ("first", lambda: self.go(0), ["Home"]),
            ("last", lambda: self.go(len(self.lesson.scenes) - 1), ["End"]),
            ("enter", self.enter, ["Return", "Enter"]),
            ("list", self.list_scenes, ["S"]),
            ("blank", self.blank.toggle, ["B"]),
            ("reset", self.reset, ["R"]),
            ("reveal", self.reveal, ["A"]),  # the answer of the scene's question
            ("notes", self.presenter.toggle_notes, ["N"]),
            ("class", self.class_screens.toggle, ["J"]),
            ("counts", self.class_screens.toggle_counts, ["Q"]),
        )}
        self._enable(False)
        view.subscribe("language", lambda _: self.lesson is not None and self._show())
        self.editor = LessonEditor(self)  # Add this as a scene…, Edit the lesson… (their key works from now)

    @property
    def active(self) -> bool:
        return self.lesson is not None

    def keys(self) -> list[tuple[str, str]]:
        """The lesson's own keys as the `?` overlay lists them (key, what it does), as this class does them."""
        return [
            (tr("→ / Space / PgDn"), tr("the next step, then the next scene")),
            (tr("← / PgUp"), tr("back a step, then a scene")),
            (tr("Home / End"), tr("the first / last scene")),
            (tr("a number, then Enter"), tr("that scene (12 ⏎)")),
            ("S", tr("the list of scenes")),
            ("B", tr("the screen black, and back")),
            ("R", tr("the scene as the lesson has it")),
            ("A", tr("a question's answer (→ too)")),
            *self.presenter.keys(),
            ("J", tr("the class's screens: open them, and how to join")),
            ("Q", tr("the class's answers to the question on the screen")),
            (tr("Esc"), tr("close a list, the zoom, the pen; then end")),
            ("F5", tr("end the lesson")),
        ]

    def _enable(self, on: bool) -> None:
        for action in self.actions.values():
            action.setEnabled(on)

    # ------------------------------------------------------------- starting and ending

    def open(self, lesson, index: int = 0) -> bool:
        """Give `lesson` from scene `index` (0-based), full screen. Unsaved work in the window is asked
        about once, here; False when the teacher keeps it (or the scene cannot be shown)."""
        if not self.files.maybe_save():
            return False
        self.lesson, self.kept, self.index = lesson, {}, index
        self.editor.given(lesson)
        self.question.forget()
        self.classroom.lesson = self
        self.classroom.set_presentation(True)
        self.presenter.start()  # after full screen: the projector is the screen the window fills
        for corner in (Qt.BottomLeftCorner, Qt.BottomRightCorner):  # the caption under the whole screen
            self.window.setCorner(corner, Qt.BottomDockWidgetArea)
        self.caption.fit_type()
        # The caption takes some of the height: ten keys and Σ stay in view in type still read from the back.
        self.classroom.parts.steps.least_pixels = round(LEAST_TABLE_PIXELS * self.window.screen().geometry().height()
                                                        / 1080)
        self.dock.show()
        self._enable(True)
        if not self._show():
            self.end()
            return False
        return True

    def end(self) -> None:
        """Back to the desk, on the last scene's scenario (what the class tried in it is still there)."""
        self.class_screens.close(ended=True)
        self.lesson = None
        self.classroom.lesson = None
        self.question.end()
        self._enable(False)
        self.classroom.parts.steps.least_pixels = 0
        self.presenter.stop()
        self.scenes.hide()
        self.blank.hide()
        self.reading.stop()
        self.moving.stop()
        self.dock.hide()
        for corner, area in ((Qt.BottomLeftCorner, Qt.LeftDockWidgetArea),
                             (Qt.BottomRightCorner, Qt.RightDockWidgetArea)):
            self.window.setCorner(corner, area)
        self.classroom.set_presentation(False)
        self.document.undo_stack.setClean()  # a lesson's scenario: nothing of the teacher's to save
        self.window.update_title()

    def escape(self) -> bool:
        """Esc: a list or the blank screen closes; otherwise the lesson ends. True: Esc was the lesson's."""
        if not self.active:
            return False
        if not self.uncover():
            self.end()
        return True

    def uncover(self) -> bool:
        """The list of scenes or the blank screen closed (Esc, before the teacher's tools); False: neither."""
        if not self.active or not self._covered():
            return False
        self.scenes.hide() if self.scenes.isVisible() else self.blank.hide()
        return True

    def fill_menu(self, menu) -> None:
        """The Lessons menu: each built-in lesson by its title, then a lesson file."""
        menu.clear()
        lang = current_language()
        for lesson in list_lessons():
            action = menu.addAction(tr("{0} ({1} scenes)").format(lesson.title[lang], len(lesson.scenes)))
            action.triggered.connect(lambda _=False, i=lesson.id: self.open(builtin_lesson(i)))
        menu.addSeparator()
        menu.addAction(tr("Open a lesson file…")).triggered.connect(self.open_file)
        self.editor.fill_menu(menu)
        add_handout_menu(menu, self.window, self.lesson)
        if self.active:
            menu.addSeparator()
            screens = self.class_screens
            if screens.on:
                taking = screens.taking_answers()
                if taking is not None:  # a question asked and not revealed: its answers stopped, or taken again
                    menu.addAction(tr("Stop taking answers") if taking else tr("Take answers again")).triggered \
                        .connect(lambda: screens.take_answers(not taking))
                menu.addAction(tr("Close the class's screens")).triggered.connect(screens.close)
            else:
                menu.addAction(tr("Open the class's screens (J)")).triggered.connect(screens.toggle)
        if self.active or self.class_screens.room is not None:  # after the lesson ended too: its answers kept
            menu.addAction(tr("Save the class's answers…")).triggered.connect(self.class_screens.save_csv)

    def open_file(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(self.window, tr("Open a lesson"), "",
                                              tr("Lessons (*{0})").format(SUFFIX))
        return bool(path) and self.open_path(path)

    def open_path(self, path: str, index: int = 0) -> bool:
        try:
            lesson = load(path)
        except AttnVizError as e:  # a file that is no lesson, or a scene that cannot be shown
            self.window.warn(tr("Cannot open"), str(e))
            return False
        return self.open(lesson, index)

    # ------------------------------------------------------------- moving through the lesson

    def forward(self) -> None:
        """The scene's next guided step, or the next scene once its steps are done."""
        if self._covered() or self.question.reveal():  # a clicker's → reveals first, then moves on
            return
        scene, stage, order = self.scene(), self.document.stage, self._order()
        if scene.step is not None and stage in order and order.index(stage) < order.index(self._last_step()):
            self.document.set_stage(order[order.index(stage) + 1])
        elif self.index + 1 < len(self.lesson.scenes):
            self.go(self.index + 1)
        else:  # a clicker gives no other sign that there is nothing after this
            self.caption.show_verdict(tr("The end of the lesson · Esc: back to the desk"))
            self._fit_caption()

    def _order(self) -> tuple[int, ...]:
        """The scene's guided steps in the order → walks them: a layer's own (LayerNorm, the split, a head's
        five, concat, W_o, + X: core/layer.py's steps) where the layer is shown, else a head's five."""
        p = self.document.scenario.projection
        return layer_steps(p) if self.scene().view == "layer" and p is not None else NUMBERS

    def _last_step(self) -> int:
        """Where the scene's guided steps stop: the step before the next scene's when that scene goes on
        with the same scenario in the same view (the worked example told one step a scene); the scene's
        own when the next shows the same scenario another way (the layer's split, then a head's steps);
        else the last (the output, or + X)."""
        scene, scenes, order = self.scene(), self.lesson.scenes, self._order()
        after = scenes[self.index + 1] if self.index + 1 < len(scenes) else None
        if scene.step not in order:
            return order[-1]
        if after is not None and after.step is not None and after.scenario == scene.scenario:
            if after.view == scene.view and after.step in order:
                return order[max(order.index(scene.step), order.index(after.step) - 1)]
            return scene.step
        return order[-1]

    def back(self) -> None:
        """The scene's previous guided step, back to where the scene starts; then the previous scene."""
        if self._covered():
            return
        scene, stage, order = self.scene(), self.document.stage, self._order()
        if scene.step in order and stage in order and order.index(stage) > order.index(scene.step):
            self.document.set_stage(order[order.index(stage) - 1])
        elif self.index > 0:
            self.go(self.index - 1)

    def go(self, index: int) -> None:
        if not self.active or not 0 <= index < len(self.lesson.scenes):
            return
        self._keep()
        self.index = index
        self.question.forget()  # back at a question: hidden again, for the class to predict anew
        self.classroom.tools.scene_changed()  # the drawing was about the scene before
        self._show()

    def digit(self, key: str) -> bool:
        """A digit of a scene number to jump to (Enter jumps); True: the key was the lesson's."""
        if not self.active:
            return False
        self.typed = (self.typed + key)[-JUMP_DIGITS:]
        self.caption.show_typed(tr("scene {0} ⏎").format(self.typed))
        return True

    def typed_number(self) -> int | None:
        """The scene number typed so far, taken as a timer's seconds (T): Enter has none to jump with."""
        if not self.active or not self.typed:
            return None
        typed, self.typed = self.typed, ""
        self.caption.show_typed("")
        return int(typed)

    def enter(self) -> None:
        if self.scenes.isVisible():
            self.scenes.choose_current()
            return
        typed, self.typed = self.typed, ""
        self.caption.show_typed("")
        if typed:
            number = int(typed)
            if 1 <= number <= len(self.lesson.scenes):
                self.go(number - 1)
            else:
                self.caption.show_typed(tr("no scene {0} (1 to {1})").format(number, len(self.lesson.scenes)))

    def list_scenes(self) -> None:
        lang = current_language()
        self.scenes.open(self.lesson.title[lang], [s.caption[lang] for s in self.lesson.scenes], self.index)

    def reset(self) -> None:
        """The scene as the lesson has it: what the class tried in it is undone."""
        self.kept.pop(self.index, None)
        self.question.forget()
        self.classroom.tools.scene_changed()
        self._show()

    def reveal(self) -> None:
        """A: the scene's question answered, the class's guess marked right or wrong."""
        if not self._covered():
            self.question.reveal()

    def scene(self):
        return self.lesson.scenes[self.index]

    @property
    def waiting(self) -> bool:
        """The scene is a real model's whose run is not shown yet (its caption says the model is reading)."""
        return self.active and self._pending is not None and self._pending == self._key(self.scene())

    @staticmethod
    def _key(scene):
        return (scene.scenario.value, scene.off) if scene.scenario.kind == "model" else None

    def _covered(self) -> bool:
        return self.scenes.isVisible() or self.blank.isVisible()

    # ------------------------------------------------------------- showing a scene

    def _keep(self) -> None:
        d = self.document
        if d.modified:
            self.kept[self.index] = (d.scenario, d.active_head, d.query, d.stage)

    def title(self) -> str:
        """'The attention lesson · scene 3 of 19', for the window's title."""
        return tr("{0} · scene {1} of {2}").format(self.lesson.title[current_language()], self.index + 1,
                                                   len(self.lesson.scenes))

    def _show(self) -> bool:
        """The current scene on screen, as the lesson has it or as the class left it; a real model's scene
        that has not run yet is started on the model's worker, and shown when it has."""
        lang = current_language()
        scene = self.scene()
        self.window.update_title()
        if scene.scenario.kind == "model" and not self.runs.has(scene.scenario.value, scene.off):
            self.caption.show_scene(self.index + 1, len(self.lesson.scenes), scene.caption[lang])
            self.caption.show_verdict(tr("The model is reading the text…"))
            self._fit_caption()
            self.reading.start(tr("The model is reading the text…"))
            self._pending = self._key(scene)
            self.runner.run_scene(self.runs, scene.scenario.value, scene.off)
            self.class_screens.scene_shown()  # the class's screens follow, with no question until it has run
            return True
        self._pending = None
        self.reading.stop()
        try:
            opened = open_scene(self.lesson, self.index, lang, self.runs)
        except LessonError as e:
            self.class_screens.scene_shown()  # the class follows to the scene, with no question
            self.window.warn(tr("Cannot show this scene"), str(e))
            return False
        d = self.document
        if opened.run is not None:  # before the scenario: the runner has this run, nothing to run again
            self.runner.adopt(opened.run.model, opened.run.baseline, opened.run.run)
        scenario, head, query, stage = self.kept.get(self.index) or (opened.scenario, opened.head, opened.query,
                                                                     scene.step)
        self.moving.stop()
        start = opened.start if self.index not in self.kept else None  # a q that moves: from where it starts
        d.replace(opened.scenario if start is None else start, None)
        d.undo_stack.setClean()  # the lesson's scenario is no work of the teacher's (a history cleared after
        #                          resetClean below would otherwise stay unclean)
        if scenario is not opened.scenario:  # what the class tried, on top of the lesson's: undoable
            d.show(scenario)
            d.undo_stack.resetClean()
        d.select(head=head, query=query)
        d.set_stage(stage)
        if scene.settings.colour_scale is not None:
            self.classroom.set_scale(scene.settings.colour_scale)
        if scene.view == "softmax":  # its scores as the scene multiplies them (× 1000: eˣ overflows), else as they are
            self._multiply_scores(scene.settings.scores_times or 1)
        # The caption first, at its height: the scene's view shares out what it leaves of the screen.
        self.caption.show_scene(self.index + 1, len(self.lesson.scenes), scene.caption[lang],
                                scene.question.text[lang] if scene.question else "")
        self._fit_caption()
        self.classroom.present_scene(scene.view, opened.compare)
        if start is not None:
            self.moving.start(start, opened.scenario, head, query)
        self.question.ask(opened)
        self._fit_caption()
        self.presenter.show_scene(self.lesson, self.index, lang)
        self.class_screens.scene_shown()
        return True

    def _multiply_scores(self, times: int) -> None:
        softmax = self.classroom.parts.maths.tab_view("softmax")
        softmax.factor.setCurrentIndex(softmax.FACTORS.index(times))

    def _scene_ran(self, key) -> None:
        if self.waiting and key == self._pending:
            self._show()

    def _scene_failed(self, key, why: str) -> None:
        if self.waiting and key == self._pending:
            self._pending = None
            self.caption.show_verdict(tr("The model cannot read this scene's text: {0}").format(why), right=False)
            self.reading.fail(tr("The model cannot read this scene's text: {0}").format(why))
            self._fit_caption()

    def _question_changed(self) -> None:
        """A guess or a reveal: the caption's lines change, and the zoom's picture with what it shows."""
        if self.active:
            self._fit_caption()
            self.classroom.tools.picture_changed()
            self.class_screens.question_changed()

    def _fit_caption(self) -> None:
        """The caption's strip as tall as its lines, the rest of the screen the scene's."""
        height = self.caption.heightForWidth(self.window.width())
        self.dock.setFixedHeight(height if height > 0 else self.caption.sizeHint().height())
