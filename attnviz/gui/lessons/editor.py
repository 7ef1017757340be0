"""Making a lesson: "Add this as a scene…" (Ctrl+Shift+A, on the desk or presenting) takes what the window
shows — its scenario, view, head and query, settings and guided step — with a caption typed in a small
dialog, into the lesson being made; "Edit the lesson…" lists its scenes to reorder, edit, remove, give
from one of them, and save as NAME.attnviz-lesson.json.

A scene names a preset only when the window shows that preset as it opens, give or take the settings a
scene sets itself (the mask on or off, ÷√d_k, the temperature, a layer's positions); anything else is
embedded as a whole scenario document, so the lesson file stands alone and names no path at all. The
presented comparison (C) is a scene too: the A it shows is the scene's scenario, the B beside it its
"compare", each named the same way.
The lesson is held here, in memory, until saved; core's save() checks it as opening it would.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from ...core import lm
from ...core.formats.document import scenario_to_dict
from ...core.lessons import SUFFIX, Bilingual, Lesson, Ref, Scene, SceneSettings, save
from ...core.lessons.builtin import is_builtin
from ...core.lessons.model import MAX_TEXT as MAX_MODEL_TEXT
from ...core.lessons.open import LessonError, LessonProblem, applied, scene_opened
from ...core.lessons.scene import LANGUAGES, MODEL_VIEWS, STEP_VIEWS, Question
from ...core.messages import QT_TR_NOOP, AttnVizError
from ...core.paths import resource
from ...core.presets import load_preset, version_open
from ...core.scenario import ScenarioError
from ..classroom.notice import Notice
from ..classroom.views import BY_ID
from ..common.actions import make_action
from ..common.i18n import current_language, describe, tr
from .answers import numbers
from .overlays import plain

ADD_KEY = "Ctrl+Shift+A"  # free on the desk and while presenting (Ctrl+A selects, Ctrl+Shift+S saves as)
NEW_TITLE = Bilingual("私の授業", "My lesson")
NO_TEXT = Bilingual("", "")
CAPTION_WORDS = 8       # the scene list shows a caption's first words
SENTENCE_WORDS = 12     # ... and a comparison's scenarios by their sentences' first tokens
MOST_ID = 64            # core/lessons/file.py's MAX_ID_LENGTH
EDITOR_SIZE = (720, 520)


class NotAScene(Exception):
    """What the window shows cannot be a lesson's scene; the message (translated) says why."""


# ---------------------------------------------------------------- the window's state as a scene (no widgets)

def scene_view(presenting: bool, presented: str, side_by_side: bool) -> str:
    """The scene view showing what the window shows: on the desk the one big head with its steps (what F5
    opens); presenting, the presented view (the heads one big or side by side), as present_scene reads it."""
    if not presenting or presented == "heads":
        return "heads" if presenting and side_by_side else "head"
    return presented


def canonical(document: dict) -> str:
    """An embedded scenario as core/lessons/file.py keeps it once read, so a saved and reopened lesson's
    scenes are equal to the ones made here."""
    return json.dumps(json.loads(json.dumps(document, allow_nan=False)), ensure_ascii=False, allow_nan=False)


def window_settings(s) -> SceneSettings:
    """The window's knobs as a scene sets them: the causal mask only when no mask of the scenario's own
    replaces it, the positions only for a layer."""
    causal = s.settings.causal if s.settings.mask is None else None
    positions, layer_norm = (s.projection.positions, s.projection.layer_norm) if s.projection is not None else (None,
                                                                                                              None)
    return SceneSettings(causal, s.settings.scale, s.settings.temperature, None, positions, layer_norm)


def preset_shown(source: str | None, s, settings: SceneSettings) -> tuple[str, str] | None:
    """(preset id, its language's version) when the window shows that preset as it opens with the scene's
    settings applied; None when it was edited, or is a file's."""
    preset_id = source[len("preset:"):] if source and source.startswith("preset:") else None
    lang = preset_id and version_open(preset_id, s)
    if lang is None:
        return None
    try:
        opened = applied(load_preset(preset_id, lang), settings)
    except (LessonProblem, ScenarioError):
        return None
    return (preset_id, lang) if scenario_to_dict(opened) == scenario_to_dict(s) else None


def bilingual_query(preset_id: str, lang: str, query: int) -> Bilingual[int]:
    """The query in both versions of a preset: the story's token in each when it is the story's, else the
    same position (kept in range: the versions' sentences may differ in length)."""
    shown = load_preset(preset_id, lang)
    versions = {v: load_preset(preset_id, v) for v in LANGUAGES}
    story = query == _default_query(shown)
    picks = {v: _default_query(o) if story else min(query, o.n - 1) for v, o in versions.items()}
    return Bilingual(picks["ja"], picks["en"])


def _default_query(s) -> int:
    return s.focus if s.focus is not None else s.n - 1  # as the window's document chooses


def window_scene(source, s, head: int, query: int, stage, view: str, colour_scale: str,
                 caption: Bilingual, notes: Bilingual = NO_TEXT, scores_times: int | None = None) -> Scene:
    """The scene that shows the window's state: a real model's layer as the built-in model reading its text
    with the heads switched off, anything else as scenario_ref names it. `scores_times`: the softmax view's
    multiplier, kept by a softmax scene when it is not 1."""
    if s.live is not None:
        return model_scene(s, head, query, stage, view, colour_scale, caption, notes)
    times = scores_times if view == "softmax" and scores_times != 1 else None
    settings = dataclasses.replace(window_settings(s), colour_scale=colour_scale, scores_times=times)
    if s.weights_only:  # a model's given weights: no knobs to set
        settings = SceneSettings(colour_scale=colour_scale)
    ref, picked = scenario_ref(source, s, settings, query)
    return Scene(scenario=ref, caption=caption, notes=notes, view=view, head=head, query=picked,
                 settings=settings, step=stage if view in STEP_VIEWS else None)


def compare_scene(shown, head: int, query: int, colour_scale: str, caption: Bilingual,
                  notes: Bilingual = NO_TEXT) -> Scene:
    """The scene that shows the presented comparison (`shown`, compare/controller.py's Compared): A as its
    scenario, B as its "compare", each a preset when it is that preset as it opens, else embedded. A scene's
    settings are applied to both when it is given, so it sets only those A and B share; any other each keeps
    as its own (a preset B beside an A whose temperature the teacher changed stays at its own)."""
    a, b = shown.a, shown.b
    _not_live(a)
    _not_live(b)
    if a.weights_only or b.weights_only:
        settings = SceneSettings(colour_scale=colour_scale)
    else:
        ours, theirs = window_settings(a), window_settings(b)
        shared = {f: getattr(ours, f) for f in ("causal", "scale", "temperature", "positions")
                  if getattr(ours, f) == getattr(theirs, f)}
        settings = SceneSettings(colour_scale=colour_scale, **shared)
    ref, picked = scenario_ref(shown.a_source, a, settings, query)
    other, _ = scenario_ref(shown.b_source, b, settings, _default_query(b))
    return Scene(scenario=ref, caption=caption, notes=notes, view="compare", head=head, query=picked,
                 settings=settings, compare=other)


def scenario_ref(source, s, settings: SceneSettings, query: int) -> tuple[Ref, Bilingual[int]]:
    """How a scene names `s`: its preset when `s` is that preset as it opens with `settings`, else the
    scenario embedded; and the query in each version it is given in."""
    shown = preset_shown(source, s, settings)
    if shown is not None:
        return Ref("preset", shown[0]), bilingual_query(*shown, query)
    return Ref("embedded", canonical(scenario_to_dict(s))), Bilingual(query, query)


def model_scene(s, head: int, query: int, stage, view: str, colour_scale: str, caption: Bilingual,
                notes: Bilingual = NO_TEXT) -> Scene:
    """A real model's layer as a lesson names it: the built-in model's text, the layer, the heads off. What a
    lesson cannot say again (another model's file, q, k or v typed in, a patch, a long text) is refused, saying why."""
    live = s.live
    if lm.bundled_model() is None or Path(live.model.path) != lm.bundled_model():
        raise NotAScene(tr("a lesson's real model is the built-in one: this run is another model's"))
    if any(c.q is not None or c.k is not None or c.v is not None for _, _, c in live.changes):
        raise NotAScene(tr("a lesson can switch a real model's heads off, not keep q, k or v typed into them: "
                           "undo the edits, or save the layer as a scenario file (File → Save As…)"))
    if live.patch is not None or live.steer is not None or any(c.out is not None for _, _, c in live.changes):
        raise NotAScene(tr("a lesson can switch a real model's heads off, not keep an output or a stream put in "
                           "from elsewhere (a patch, a mean ablation, a steer): open the text again, or save the layer "
                           "as a scenario file (File → Save As…)"))
    if len(live.text) > MAX_MODEL_TEXT:
        raise NotAScene(tr("a lesson's real model reads at most {0} characters; this text has {1}").format(
            MAX_MODEL_TEXT, len(live.text)))
    if view not in MODEL_VIEWS:
        raise NotAScene(tr("a real model's scene is shown as one head, the heads, the steps, the lines or the "
                           "overview, not as this view"))
    off = tuple(sorted((layer, h) for layer, h, c in live.changes if c.off))
    return Scene(scenario=Ref("model", live.text), caption=caption, notes=notes, view=view, head=head,
                 query=Bilingual(query, query), settings=SceneSettings(colour_scale=colour_scale),
                 step=stage if view in STEP_VIEWS else None, layer=live.layer, off=off)


def _not_live(s) -> None:
    if s.live is not None:
        raise NotAScene(tr("a real model's run cannot be a lesson's scene: save its layer as a scenario "
                             "file (File → Save As…) and open that"))


def both(ja: str, en: str) -> Bilingual[str]:
    """Two texts, either of which may be left empty: the other is then used for both."""
    ja, en = ja.strip(), en.strip()
    return Bilingual(ja or en, en or ja)


def lesson_id(path: str) -> str:
    """The lesson's id from its file's name: letters, digits, - and _ (core/lessons/file.py's rule)."""
    name = os.path.basename(path)
    name = name[:-len(SUFFIX)] if name.endswith(SUFFIX) else os.path.splitext(name)[0]
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-_")[:MOST_ID]
    return cleaned or "lesson"


def first_words(text: str) -> str:
    words = text.split()
    return " ".join(words[:CAPTION_WORDS]) + (" …" if len(words) > CAPTION_WORDS else "")


def view_label(view: str) -> str:
    if view == "head":
        return tr("one head big, its steps beside it")
    if view == "heads":
        return tr("every head side by side")
    return tr(BY_ID[view].label)


def scene_label(scene: Scene, lang: str) -> str:
    """What a scene shows, for the editor: its view; a comparison names both of its scenarios, a real model's
    scene its layer and the heads it switches off."""
    if scene.scenario.kind == "model":
        where = tr("{0}, the real model's layer {1}").format(view_label(scene.view), scene.layer)
        if scene.off:
            where += " " + tr("(switched off: {0})").format(", ".join(f"{layer}.{h}" for layer, h in scene.off))
        return where
    if scene.view != "compare" or scene.compare is None:
        return view_label(scene.view)
    return tr("the comparison of {0} and {1}").format(ref_words(scene.scenario, lang), ref_words(scene.compare, lang))


def ref_words(ref: Ref, lang: str) -> str:
    """A scenario a scene names, by its words (`lang`'s version of a preset), or a file by its name."""
    if ref.kind == "file":
        return ref.value
    tokens = load_preset(ref.value, lang).tokens if ref.kind == "preset" else json.loads(ref.value)["tokens"]
    return sentence(tokens)


def sentence(tokens) -> str:
    """The first words of a sentence, joined as the comparison's titles join them (no spaces in Japanese)."""
    words = list(tokens[:SENTENCE_WORDS])
    joined = ("" if any(not t.isascii() for t in words) else " ").join(words)
    return joined + (" …" if len(tokens) > SENTENCE_WORDS else "")


# ---------------------------------------------------------------- the dialogs

class TextsDialog(QDialog):
    """A scene's caption (and notes) in Japanese and English; one left empty takes the other's."""

    def __init__(self, parent, title: str, about: str, caption: Bilingual, notes: Bilingual | None = None):
        super().__init__(parent, objectName="lessonTextsDialog", windowTitle=title)
        self.setAttribute(Qt.WA_DeleteOnClose)  # one a scene: none kept once answered
        self.caption = {lang: QLineEdit(caption[lang], objectName=f"caption_{lang}") for lang in LANGUAGES}
        self.notes = {} if notes is None else {
            lang: QPlainTextEdit(notes[lang], objectName=f"notes_{lang}") for lang in LANGUAGES}
        form = QFormLayout()
        form.addRow(tr("Caption (Japanese):"), self.caption["ja"])
        form.addRow(tr("Caption (English):"), self.caption["en"])
        for lang, label in (("ja", tr("Notes (Japanese):")), ("en", tr("Notes (English):"))):
            if self.notes:
                form.addRow(label, self.notes[lang])
        hint = QLabel(tr("One language may be left empty: the other's text is then used for both."), wordWrap=True)
        self.about = QLabel(about, objectName="lessonSceneAbout", wordWrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.about)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(buttons)
        self.resize(640, self.sizeHint().height())

    def texts(self) -> tuple[Bilingual, Bilingual]:
        caption = both(self.caption["ja"].text(), self.caption["en"].text())
        notes = both(*(self.notes[lang].toPlainText() for lang in LANGUAGES)) if self.notes else Bilingual("", "")
        return caption, notes


# What a question may hide, as the editor offers it (core/lessons/scene.py's HIDES, and none)
HIDE_CHOICES = (("", QT_TR_NOOP("no question")), ("row", QT_TR_NOOP("the query's weights (its row)")),
                ("top-key", QT_TR_NOOP("the key the query attends to most")),
                ("next-token", QT_TR_NOOP("the real model's next token")))


class QuestionDialog(QDialog):
    """A scene's question: what it hides, the question and the why said at the reveal in both languages,
    and the answer worked out live from the scene (or why the scene cannot ask it: a tie on screen)."""

    def __init__(self, parent, title: str, scene: Scene, folder: str | None, runs):
        super().__init__(parent, objectName="lessonQuestionDialog", windowTitle=title)
        self.setAttribute(Qt.WA_DeleteOnClose)
        self.scene, self.folder, self.runs = scene, folder, runs
        question = scene.question
        self.hide_choice = QComboBox(objectName="questionHide")
        for hide, label in HIDE_CHOICES:
            if hide != "next-token" or scene.scenario.kind == "model":
                self.hide_choice.addItem(tr(label), hide)
        self.hide_choice.setCurrentIndex(max(0, self.hide_choice.findData(question.hide if question else "")))
        texts = question.text if question else NO_TEXT
        whys = question.why if question else NO_TEXT
        self.text = {lang: QLineEdit(texts[lang], objectName=f"question_{lang}") for lang in LANGUAGES}
        self.why = {lang: QLineEdit(whys[lang], objectName=f"why_{lang}") for lang in LANGUAGES}
        self.answer = QLabel(objectName="questionAnswer", wordWrap=True)
        form = QFormLayout()
        form.addRow(tr("Hide until revealed:"), self.hide_choice)
        form.addRow(tr("Question (Japanese):"), self.text["ja"])
        form.addRow(tr("Question (English):"), self.text["en"])
        form.addRow(tr("Why, said at the reveal (Japanese):"), self.why["ja"])
        form.addRow(tr("Why, said at the reveal (English):"), self.why["en"])
        form.addRow(tr("The answer:"), self.answer)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(tr("One language may be left empty: the other's text is then used for both."),
                                wordWrap=True))
        layout.addWidget(self.buttons)
        self.hide_choice.currentIndexChanged.connect(self.work_out)
        for field in self.text.values():
            field.textChanged.connect(self.work_out)
        self.resize(640, self.sizeHint().height())
        self.work_out()

    def question(self) -> Question | None:
        hide = self.hide_choice.currentData()
        if not hide:
            return None
        text = both(self.text["ja"].text(), self.text["en"].text())
        return Question(hide, text if text.ja else Bilingual("？", "?"), both(self.why["ja"].text(),
                                                                              self.why["en"].text()))

    def work_out(self) -> None:
        """The answer in both languages as the class will see it revealed; OK only for a question a lesson
        can ask."""
        question = self.question()
        ok, said = True, tr("(no question: nothing is hidden)")
        if question is not None:
            ok, said = self._answers(dataclasses.replace(self.scene, question=question))
        self.answer.setText(said)
        self.answer.setStyleSheet("" if ok else "color: #d0302b; font-weight: bold;")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(ok)

    def _answers(self, scene: Scene) -> tuple[bool, str]:
        if scene.scenario.kind == "model" and not self.runs.has(scene.scenario.value, scene.off):
            return True, tr("worked out when the model has read the scene's text (give the scene once)")
        try:
            opened = {lang: scene_opened(scene, 0, self.folder, lang, runs=self.runs) for lang in LANGUAGES}
        except LessonError as e:
            return False, describe(e.values[-1] if e.values else e)  # without "scene 1:": the dialog is the scene's
        return True, " / ".join(numbers(opened[lang]) for lang in LANGUAGES)


class EditorDialog(QDialog):
    """The lesson being made: its title, its scenes (number, caption's first words, view), and what can be
    done with them. Desk-sized: it is the teacher's, not the class's."""

    def __init__(self, editor, parent):
        super().__init__(parent, objectName="lessonEditor")
        self.editor = editor
        self.title = {lang: QLineEdit(objectName=f"title_{lang}") for lang in LANGUAGES}
        for field in self.title.values():  # kept as typed, whatever button comes next
            field.editingFinished.connect(self._retitle)
        self.scenes = QListWidget(objectName="lessonScenes")
        self.scenes.currentRowChanged.connect(lambda _: self._enable())
        self.scenes.itemDoubleClicked.connect(lambda _: self.edit_texts())
        self.message = QLabel(objectName="lessonEditorMessage", wordWrap=True)
        self.message.setStyleSheet("color: #d0302b; font-weight: bold;")
        self.buttons = {}
        column = QVBoxLayout()
        for key, text, slot in (("up", tr("Up"), lambda: self.move(-1)), ("down", tr("Down"), lambda: self.move(+1)),
                                ("edit", tr("Caption and notes…"), self.edit_texts),
                                ("question", tr("Question…"), self.edit_question),
                                ("remove", tr("Remove"), self.remove),
                                ("give", tr("Give from this scene"), self.give), ("save", tr("Save…"), self.save)):
            button = self.buttons[key] = QPushButton(text, objectName=f"lessonEditor_{key}")
            button.clicked.connect(slot)
            column.addWidget(button)
        column.addStretch(1)
        titles = QFormLayout()
        titles.addRow(tr("Title (Japanese):"), self.title["ja"])
        titles.addRow(tr("Title (English):"), self.title["en"])
        grid = QGridLayout(self)
        grid.addLayout(titles, 0, 0, 1, 2)
        grid.addWidget(self.scenes, 1, 0)
        grid.addLayout(column, 1, 1)
        grid.addWidget(self.message, 2, 0, 1, 2)
        self.resize(*EDITOR_SIZE)

    def refresh(self, row: int | None = None) -> None:
        """The list as the lesson has it, `row` (else the current one) selected."""
        lesson, lang = self.editor.lesson, current_language()
        self.setWindowTitle(tr("Edit the lesson: {0}").format(lesson.title[lang]))
        for part in LANGUAGES:
            self.title[part].setText(lesson.title[part])
        row = self.scenes.currentRow() if row is None else row
        self.scenes.clear()
        for number, scene in enumerate(lesson.scenes, 1):
            self.scenes.addItem(f"{number}. {first_words(plain(scene.caption[lang]))} — {scene_label(scene, lang)}")
        self.scenes.setCurrentRow(max(0, min(row, len(lesson.scenes) - 1)))
        self._enable()

    def _enable(self) -> None:
        row, count = self.scenes.currentRow(), self.scenes.count()
        for key, on in (("up", row > 0), ("down", 0 <= row < count - 1), ("edit", row >= 0), ("question", row >= 0),
                        ("remove", row >= 0), ("give", row >= 0), ("save", count > 0)):
            self.buttons[key].setEnabled(on)

    def say(self, text: str) -> None:
        self.message.setText(text)

    def move(self, by: int) -> None:
        row = self.scenes.currentRow()
        self.editor.move(row, by)
        self.refresh(row + by)

    def remove(self) -> None:
        row = self.scenes.currentRow()
        self.editor.remove(row)
        self.refresh(row)

    def edit_texts(self) -> None:
        row = self.scenes.currentRow()
        scene = self.editor.lesson.scenes[row]
        dialog = TextsDialog(self, tr("Scene {0}").format(row + 1), "", scene.caption, scene.notes)
        dialog.accepted.connect(lambda: (self.editor.retext(row, *dialog.texts()), self.refresh(row)))
        dialog.open()
        self.texts_dialog = dialog  # for the tests, and kept alive while it is open

    def edit_question(self) -> None:
        row = self.scenes.currentRow()
        lesson = self.editor.lesson
        dialog = QuestionDialog(self, tr("Scene {0}: its question").format(row + 1), lesson.scenes[row],
                                lesson.folder, self.editor.player.runs)
        dialog.accepted.connect(lambda: (self.editor.requestion(row, dialog.question()), self.refresh(row)))
        dialog.open()
        self.question_dialog = dialog  # for the tests, and kept alive while it is open

    def _retitle(self) -> None:
        self.editor.retitle(self.title["ja"].text(), self.title["en"].text())

    def give(self) -> None:
        self._retitle()
        self.editor.give(self.scenes.currentRow())

    def save(self) -> None:
        self._retitle()
        self.editor.save_dialog()


# ---------------------------------------------------------------- the controller

class LessonEditor:
    """The lesson being made, in memory (a new one, or the lesson last given to be edited), and the
    Lessons menu's "Add this as a scene…" and "Edit the lesson…". Made by the player (its Lessons menu)."""

    def __init__(self, player):
        self.player = player
        self.window, self.document, self.view, self.classroom = (player.window, player.document, player.view,
                                                                 player.classroom)
        self.lesson: Lesson | None = None
        self.path: str | None = None   # where it was last saved
        self.dirty = False             # scenes added or changed since it was last saved (or opened)
        self.dialog: EditorDialog | None = None
        self.caption_dialog: TextsDialog | None = None
        self.add_action = make_action(self.window, self.add_scene, [ADD_KEY])
        self.notice = Notice(self.window)  # presenting, the status bar is hidden: a scene added is said here
        self.edit_action = make_action(self.window, self.edit)

    def fill_menu(self, menu) -> None:
        self.add_action.setText(tr("Add this as a scene…"))
        self.edit_action.setText(tr("Edit the lesson…") if self.lesson else tr("Edit the lesson (none yet)…"))
        self.edit_action.setEnabled(self.lesson is not None)
        menu.addSeparator()
        menu.addAction(self.add_action)
        menu.addAction(self.edit_action)

    def given(self, lesson: Lesson) -> None:
        """A lesson the player opens (a file or a built-in) becomes the one to edit, unless scenes being
        made are not saved yet."""
        if lesson is not self.lesson and not self.dirty:
            self.lesson, self.path = lesson, None

    # ------------------------------------------------------------- adding

    def add_scene(self) -> None:
        """The caption's dialog; on OK, the window's state (as it is then) is the lesson's next scene."""
        try:
            scene, tokens = self._scene(NO_TEXT)  # a state that cannot be a scene is said now, not after typing
        except NotAScene as e:
            self.window.warn(tr("Cannot add this scene"), str(e))
            return
        count = 0 if self.lesson is None else len(self.lesson.scenes)
        dialog = TextsDialog(self.window, tr("Add this as a scene"), self._about(count + 1, scene, tokens), NO_TEXT)
        dialog.accepted.connect(lambda: self._add(dialog.texts()[0]))
        dialog.open()
        self.caption_dialog = dialog

    def _about(self, number: int, scene: Scene, tokens) -> str:
        """What the scene will be: its view, head and query in each language (a preset's versions have
        their own words, and the query is guessed by its position when it is not the story's token)."""
        d = self.document
        text = tr("Scene {0}: {1}; head {2}, query {3}").format(
            number, scene_label(scene, current_language()), scene.head, self._queries(scene, tokens))
        if d.stage is not None and scene.step is None:
            text += " " + tr("(this view shows no guided step: the step is left out)")
        return text

    @staticmethod
    def _queries(scene: Scene, tokens) -> str:
        """The query's token in each language the class may be given the scene in (`tokens`: the scene's
        scenario's, as shown)."""
        if scene.scenario.kind != "preset":
            return f"{scene.query.ja} ({tokens[scene.query.ja]})"
        words = {lang: load_preset(scene.scenario.value, lang).tokens[scene.query[lang]] for lang in LANGUAGES}
        return f"{scene.query.ja} ({words['ja']}) / {scene.query.en} ({words['en']})"

    def _view(self) -> str:
        c = self.classroom
        return scene_view(c.presenting, c.presented_view, c.side_by_side)

    def _scene(self, caption: Bilingual) -> tuple[Scene, tuple[str, ...]]:
        """The scene showing what the window shows, and its scenario's tokens."""
        d = self.document
        view = self._view()
        if view != "compare":
            softmax = self.classroom.parts.maths.tab_view("softmax") if self.classroom.parts.maths.views else None
            times = softmax.FACTORS[softmax.factor.currentIndex()] if softmax is not None else None
            return (window_scene(d.source, d.scenario, d.active_head, d.query, d.stage, view, self.view.scale,
                                 caption, scores_times=times), d.scenario.tokens)
        shown = self.classroom.comparison()
        if shown is None:
            raise NotAScene(tr("the comparison is still being built: add it as a scene once it is shown"))
        a = shown.a
        # the window's head and query when A is the window's scenario; a pair of presets shown from another
        # scenario (C) starts on its first head and its story's query, as the pair opens
        head, query = (d.active_head, d.query) if shown.own else (0, _default_query(a))
        head, query = min(head, len(a.heads) - 1), min(query, a.n - 1)
        return compare_scene(shown, head, query, self.view.scale, caption), a.tokens

    def _add(self, caption: Bilingual) -> None:
        if not caption.ja:
            caption = Bilingual("…", "…")  # a scene needs a caption; the editor's list shows where it is
        try:
            scene, _ = self._scene(caption)  # as the window is now: the comparison may be being built again
        except NotAScene as e:
            self.window.warn(tr("Cannot add this scene"), str(e))
            return
        lesson = self.lesson or Lesson("lesson", NEW_TITLE, ())
        self._set(dataclasses.replace(lesson, scenes=(*lesson.scenes, scene)))
        said = tr("Scene {0} added to the lesson “{1}”").format(len(self.lesson.scenes),
                                                              self.lesson.title[current_language()])
        self.window.show_status(said)
        if self.classroom.presenting:
            self.notice.say(said)

    # ------------------------------------------------------------- editing

    def _set(self, lesson: Lesson) -> None:
        self.lesson, self.dirty = lesson, True
        if self.dialog is not None:
            self.dialog.say("")

    def _scenes(self, scenes) -> None:
        self._set(dataclasses.replace(self.lesson, scenes=tuple(scenes)))

    def move(self, row: int, by: int) -> None:
        scenes = list(self.lesson.scenes)
        if 0 <= row < len(scenes) and 0 <= row + by < len(scenes):
            scenes[row], scenes[row + by] = scenes[row + by], scenes[row]
            self._scenes(scenes)

    def remove(self, row: int) -> None:
        scenes = list(self.lesson.scenes)
        if 0 <= row < len(scenes):
            del scenes[row]
            self._scenes(scenes)

    def retext(self, row: int, caption: Bilingual, notes: Bilingual) -> None:
        scenes = list(self.lesson.scenes)
        if caption.ja:  # both empty: the caption stays as it was (a scene needs one)
            scenes[row] = dataclasses.replace(scenes[row], caption=caption, notes=notes)
            self._scenes(scenes)

    def requestion(self, row: int, question: Question | None) -> None:
        scenes = list(self.lesson.scenes)
        scenes[row] = dataclasses.replace(scenes[row], question=question)
        self._scenes(scenes)

    def retitle(self, ja: str, en: str) -> None:
        title = both(ja, en)
        if title.ja and title != self.lesson.title:
            self._set(dataclasses.replace(self.lesson, title=title))

    def edit(self) -> None:
        if self.lesson is None:
            return
        if self.dialog is None:
            self.dialog = EditorDialog(self, self.window)
        self.dialog.refresh(0)
        self.dialog.show()

    def give(self, row: int) -> None:
        """The lesson as it is now, given from scene `row` (the player checks every scene as it shows it)."""
        if self.lesson is not None and self.lesson.scenes:
            if self.dialog is not None:
                self.dialog.hide()
            self.player.open(self.lesson, max(0, row))

    # ------------------------------------------------------------- saving

    def save_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.dialog or self.window, tr("Save the lesson"), self._suggested(),
                                              tr("Lessons (*{0})").format(SUFFIX))
        return bool(path) and self.save_to(path)

    def _suggested(self) -> str:
        if self.path:
            return self.path
        folder = self.lesson.folder if self.lesson.folder and not self._builtin() else self.player.files.folder()
        return os.path.join(folder, f"{self.lesson.id}{SUFFIX}")

    def _builtin(self) -> bool:
        return is_builtin(self.lesson.id) and _same_folder(self.lesson.folder, resource("lessons"))

    def save_to(self, path: str) -> bool:
        """NAME.attnviz-lesson.json, checked first (core's save); refused, the reason is said in the
        editor and nothing changes. A built-in lesson is never written over: it is saved as a new file."""
        path = path if path.endswith(SUFFIX) else path + SUFFIX
        if _same_folder(os.path.dirname(os.path.abspath(path)), resource("lessons")):
            return self._refused(tr("the built-in lessons are not written over: save it in a folder of yours"))
        lesson = dataclasses.replace(self.lesson, id=lesson_id(path), folder=os.path.dirname(os.path.abspath(path)))
        try:
            save(lesson, path)
        except AttnVizError as e:
            return self._refused(describe(e))
        self.lesson, self.path, self.dirty = lesson, path, False
        self.window.show_status(tr("Saved the lesson as {0}").format(os.path.basename(path)))
        if self.dialog is not None:
            self.dialog.say("")
        return True

    def _refused(self, why: str) -> bool:
        text = tr("Not saved: {0}").format(why)
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.say(text)
        else:
            self.window.warn(tr("Cannot save the lesson"), text)
        return False


def _same_folder(a, b) -> bool:
    return a is not None and os.path.realpath(a) == os.path.realpath(b)
