"""The built-in lessons, shipped as lesson files in resources/lessons/ (see core/paths.py): the three
source lessons, in the order they are taught, then the real model's (listed where the model is installed)."""
from __future__ import annotations

from functools import lru_cache

from .. import lm
from ..messages import QT_TR_NOOP
from ..paths import resource
from .file import SUFFIX, load
from .open import LessonError
from .scene import Lesson

ORDER = ("attention", "multi-head", "why-it-works", "real-model")  # the seeds' order, then the real model


def _folder():
    return resource("lessons")


@lru_cache(maxsize=None)
def builtin_ids() -> tuple[str, ...]:
    found = [p.name[:-len(SUFFIX)] for p in _folder().iterdir() if p.name.endswith(SUFFIX)]
    return tuple(sorted(found, key=lambda i: (ORDER.index(i) if i in ORDER else len(ORDER), i)))


def is_builtin(name: str) -> bool:
    return name in builtin_ids()


@lru_cache(maxsize=None)
def builtin_lesson(lesson_id: str) -> Lesson:
    """The built-in lesson `lesson_id`, checked as any lesson file is."""
    if not is_builtin(lesson_id):
        raise LessonError(QT_TR_NOOP("unknown lesson '{0}' (the lessons are: {1})"), lesson_id,
                          ", ".join(builtin_ids()))
    return load(_folder() / f"{lesson_id}{SUFFIX}")


def list_lessons() -> tuple[Lesson, ...]:
    """Every built-in lesson that can be given here, in the order they are taught: a lesson on the real
    model only where the built-in model is installed."""
    lessons = (builtin_lesson(i) for i in builtin_ids())
    return tuple(x for x in lessons if not x.needs_model or lm.bundled_model() is not None)
