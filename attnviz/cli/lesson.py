"""`attnviz lesson`: a lesson file checked (--check: `N scenes`, or the one line naming the scene that is
wrong), or a built-in lesson written as a file to start one's own from (--save)."""
from __future__ import annotations

import os

from ..core.lessons import SUFFIX, builtin_lesson, is_builtin, load, save
from ..core.lessons.builtin import builtin_ids
from .arguments import UsageError


def add(sub) -> None:
    parser = sub.add_parser("lesson", help="check a lesson file, or write a built-in lesson as a file")
    parser.add_argument("lesson", metavar="ID|FILE", help="a built-in lesson's id (see 'attnviz lessons') or a "
                        f"lesson file (NAME{SUFFIX})")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--check", action="store_true",
                      help="read the lesson and open every scene in both languages: print 'N scenes' (exit 0), or "
                           "one line naming the scene and what is wrong (exit 2)")
    what.add_argument("--save", metavar=f"OUT{SUFFIX}",
                      help="write the built-in lesson ID as a lesson file, to start one's own from")
    parser.set_defaults(run=run)


def open_lesson(name: str):
    """A built-in lesson's id, or a lesson file's path (a file of that name wins, as for presets)."""
    if is_builtin(name) and not os.path.exists(name):
        return builtin_lesson(name)
    if not os.path.exists(name) and os.sep not in name and "." not in name:
        raise UsageError(f"'{name}' is neither a built-in lesson ({', '.join(builtin_ids())}) nor a file")
    return load(name)


def run(args, out) -> int:
    if args.save is not None:
        if not is_builtin(args.lesson):
            raise UsageError(f"--save writes a built-in lesson ({', '.join(builtin_ids())}); "
                             f"'{args.lesson}' is not one")
        if not args.save.endswith(SUFFIX):
            raise UsageError(f"--save {args.save}: a lesson file's name ends in {SUFFIX}")
        save(builtin_lesson(args.lesson), args.save)
        return 0
    lesson = open_lesson(args.lesson)
    out.write(f"{len(lesson.scenes)} scenes\n")
    return 0
