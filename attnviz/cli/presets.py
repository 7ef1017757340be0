"""`attnviz presets`: the built-in scenarios, one per line: id, tab, title."""
from __future__ import annotations

from ..core.presets import list_presets
from .arguments import LANGUAGES


def add(sub) -> None:
    parser = sub.add_parser("presets", help="list the built-in scenarios: id, tab, title")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    for preset in list_presets():
        out.write(f"{preset.id}\t{preset.tab}\t{preset.title_in(args.lang)}\n")
    return 0
