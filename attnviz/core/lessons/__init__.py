"""Lessons: a class period as an ordered list of scenes (scene.py), read and written as
NAME.attnviz-lesson.json (file.py), each scene opened with its settings and its question's answer
worked out (open.py); the built-in lessons in resources/lessons/ (builtin.py). No Qt."""
from .builtin import builtin_lesson, is_builtin, list_lessons
from .file import FORMAT_VERSION, SUFFIX, check, dumps, load, loads, save
from .open import Answer, LessonError, OpenedScene, open_scene
from .scene import VIEWS, Bilingual, Lesson, Question, Ref, Scene, SceneSettings

__all__ = ["Answer", "Bilingual", "FORMAT_VERSION", "Lesson", "LessonError", "OpenedScene", "Question", "Ref",
           "SUFFIX", "Scene", "SceneSettings", "VIEWS", "builtin_lesson", "check", "dumps", "is_builtin",
           "list_lessons", "load", "loads", "open_scene", "save"]
