"""`attnviz [SCENARIO]`: the window (on a scenario, a real model's session, or the real model on a
text), and --install-desktop / --uninstall-desktop. Bad input is said before Qt starts."""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from ..core.presets import DEFAULT_PRESET, open_named
from ..display import display_problem
from .arguments import LANGUAGES, PROG, Parser, UsageError


def parser(epilog: str) -> Parser:
    window = Parser(prog=PROG, description="Open the AttnViz window.",
                    formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog)
    window.add_argument("scenario", metavar="SCENARIO", nargs="?",
                        help=f"a preset id or a scenario file (default: {DEFAULT_PRESET})")
    window.add_argument("--lang", choices=LANGUAGES,
                        help="interface language (default: the last one chosen, else the system's)")
    window.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    window.add_argument("--model-text", metavar="TEXT", help="open the real model on TEXT (File → Real model…)")
    window.add_argument("--model", metavar="PATH.gguf", help="with --model-text: another llama-architecture "
                                                             "GGUF file than the built-in SmolLM2-135M")
    menu = window.add_mutually_exclusive_group()
    menu.add_argument("--install-desktop", action="store_true", help="add this AttnViz to your applications "
                      "menu (Linux), with its icon and the file types of *.attnviz.json and *.attnviz-model.json; "
                      "writes under ~/.local/share only")
    menu.add_argument("--uninstall-desktop", action="store_true", help="remove what --install-desktop added")
    window.set_defaults(run=run)
    return window


def run(args, out) -> int:
    if args.install_desktop or args.uninstall_desktop:
        return _desktop(args, out)
    session = _session_file(args.scenario)
    opened = open_named(args.scenario) if args.scenario and not session else None  # bad input fails before Qt starts
    if args.model_text is not None:
        from ..core import llama
        try:
            llama.check_text(args.model_text)
        except llama.ModelError as e:
            raise UsageError(f"--model-text: {e}") from None
    if args.model and args.model_text is None:
        raise UsageError("--model needs --model-text (or choose the file in File → Real model…)")
    if args.model:
        from ..core.gguf import check_file
        check_file(args.model)  # a folder, a missing or a non-GGUF file: said before the window opens
    problem = display_problem()
    if problem:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return 2
    from ..gui.window.app import run as open_window  # Qt is imported only when a window is wanted
    return open_window(opened, args.lang, model_text=args.model_text, model_path=args.model, session=session)


def _session_file(name: str | None) -> str | None:
    """`name` when it is a real model's session file (checked now, before Qt starts), else None."""
    from ..core.session import looks_like_session, read_session
    if not name or not os.path.isfile(name) or not looks_like_session(name):
        return None
    read_session(name)
    return name


def _desktop(args, out) -> int:
    """--install-desktop / --uninstall-desktop: this program in the user's applications menu (Linux)."""
    from .. import desktop
    if args.scenario or args.model_text is not None or args.model:
        raise UsageError("--install-desktop and --uninstall-desktop take no scenario, --model or --model-text")
    try:
        return desktop.run(out, remove=args.uninstall_desktop)
    except desktop.DesktopError as e:
        raise UsageError(str(e)) from None
