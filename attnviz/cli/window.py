"""`attnviz [SCENARIO]`: the window (on a scenario, a real model's session, or the real model on a
text), and --install-desktop / --uninstall-desktop. Bad input is said before Qt starts."""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__, desktop
from ..core import lm
from ..core.lm.catalog import check_source, has_chat
from ..core.presets import DEFAULT_PRESET, open_named
from ..core.session import looks_like_session, read_session
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
    window.add_argument("--model", metavar="PATH.gguf", help="with --model-text: another model than the "
                        "built-in SmolLM2-135M: a GGUF file, a Hugging Face folder or an id from `attnviz models`")
    window.add_argument("--chat", action="store_true", help="with --model-text: read TEXT as a user's message in "
                        "the model's chat template")
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
        try:
            lm.check_text(args.model_text)
        except lm.ModelError as e:
            raise UsageError(f"--model-text: {e}") from None
    if args.model and args.model_text is None:
        raise UsageError("--model needs --model-text (or choose the file in File → Real model…)")
    if args.chat and args.model_text is None:
        raise UsageError("--chat needs --model-text (or tick it in File → Real model…)")
    if args.model:
        check_source(args.model)  # a missing path, a folder or file that is no model: said before the window opens
    if args.chat:
        if not has_chat(args.model):
            raise UsageError(f"--chat: {args.model or 'the built-in model'} has no chat template")
    problem = display_problem()
    if problem:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return 2
    from ..gui.window.start import run as open_window  # Qt and the window (~0.7 s): only when a window is wanted
    return open_window(opened, args.lang, model_text=args.model_text, model_source=args.model, session=session,
                       model_chat=args.chat)


def _session_file(name: str | None) -> str | None:
    """`name` when it is a real model's session file (checked now, before Qt starts), else None."""
    if not name or not os.path.isfile(name) or not looks_like_session(name):
        return None
    read_session(name)
    return name


def _desktop(args, out) -> int:
    """--install-desktop / --uninstall-desktop: this program in the user's applications menu (Linux)."""
    if args.scenario or args.model_text is not None or args.model or args.chat:
        raise UsageError("--install-desktop and --uninstall-desktop take no scenario, --model, --chat or "
                         "--model-text")
    try:
        return desktop.run(out, remove=args.uninstall_desktop)
    except desktop.DesktopError as e:
        raise UsageError(str(e)) from None
