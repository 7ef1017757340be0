"""`attnviz lessons`: the built-in lessons, one per line (id, tab, title, tab, N scenes), or as JSON."""
from __future__ import annotations

import json

from ..core.lessons import list_lessons
from ..core.text import terminal_safe
from .arguments import LANGUAGES


def add(sub) -> None:
    parser = sub.add_parser("lessons", help="list the built-in lessons: id, title, number of scenes")
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="text: id, tab, title, tab, N scenes on each line (the default); json: "
                             "[{\"id\", \"title\", \"scenes\"}, ...]")
    parser.add_argument("--lang", choices=LANGUAGES, help="the titles' language (default: the system's)")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    if args.lang is None:
        from ..gui.common.i18n import system_language  # QtCore only: no display needed
        args.lang = system_language()
    listed = [{"id": lesson.id, "title": lesson.title[args.lang], "scenes": len(lesson.scenes)}
              for lesson in list_lessons()]
    if args.format == "json":
        out.write(terminal_safe(json.dumps(listed, ensure_ascii=False)) + "\n")
    else:
        for entry in listed:
            out.write(f"{entry['id']}\t{terminal_safe(str(entry['title']))}\t{entry['scenes']} scenes\n")
    return 0
