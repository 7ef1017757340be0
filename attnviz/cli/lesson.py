"""`attnviz lesson`: a lesson given in the window from scene N, one scene as the class sees it (--screenshot),
a lesson file checked (--check: `N scenes`, or the one line naming the scene that is wrong), or a built-in
lesson written as a file to start one's own from (--save), or a handout for students (--handout -o OUT.pdf). Bad
input is said before Qt starts."""
from __future__ import annotations

import ipaddress
import os
import signal
import sys

from ..class_screens.room import PORT as CLASS_PORT
from ..class_screens.server import bind_problem
from ..core.files import naming
from ..core.lessons import SUFFIX, builtin_lesson, is_builtin, load, open_scene, save
from ..core.lessons.builtin import builtin_ids
from ..core.lessons.model import ModelRuns
from ..display import display_problem
from .arguments import LANGUAGES, PROG, UsageError, address, count, pixels
from .progress import Line


def add(sub) -> None:
    parser = sub.add_parser("lesson", help="give a lesson full screen, or write one scene, check a lesson file, or "
                                           "write a built-in lesson as a file")
    parser.add_argument("lesson", metavar="ID|FILE", help="a built-in lesson's id (see 'attnviz lessons') or a "
                        f"lesson file (NAME{SUFFIX})")
    parser.add_argument("--scene", type=count("scene", 10000), metavar="N",
                        help="start from scene N (1-based, default 1); with --screenshot, the scene written")
    parser.add_argument("--lang", choices=LANGUAGES, help="the lesson's language (default: the system's)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--screenshot", metavar="OUT.png", help="write scene N as the class sees it, no window shown")
    what.add_argument("--check", action="store_true",
                      help="read the lesson and open every scene in both languages: print 'N scenes' (exit 0), or "
                           "one line naming the scene and what is wrong (exit 2)")
    what.add_argument("--save", metavar=f"OUT{SUFFIX}",
                      help="write the built-in lesson ID as a lesson file, to start one's own from")
    what.add_argument("--handout", action="store_true",
                      help="write a handout for students (with -o OUT.pdf): A4, one page per scene, the answers last")
    parser.add_argument("-o", "--output", metavar="OUT.pdf", help="with --handout: the PDF file written")
    parser.add_argument("--class", dest="class_screens", action="store_true",
                        help="open the class's screens too: the students follow and answer on their own devices, "
                             "on this machine's network; prints {\"url\", \"room\", \"port\"} as one line of "
                             "JSON, then serves until the window closes or Ctrl+C")
    parser.add_argument("--port", type=count("port", 65535), help=f"with --class: the port (default {CLASS_PORT}, "
                                                                  "or any free one when it is taken)")
    parser.add_argument("--bind", metavar="ADDR", type=address,
                        help="with --class: the address to serve on (default: this machine's on its network; "
                             "0.0.0.0 serves on every network)")
    parser.add_argument("--width", type=pixels("width", 10000), help="with --screenshot: pixels (default 1920)")
    parser.add_argument("--height", type=pixels("height", 10000), help="with --screenshot: pixels (default 1080)")
    parser.set_defaults(run=run)


def open_lesson(name: str, strict: bool = False):
    """A built-in lesson's id, or a lesson file's path (a file of that name wins, as for presets);
    `strict` (--check) refuses too what would open but say nothing."""
    if is_builtin(name) and not os.path.exists(name):
        return builtin_lesson(name)
    if not os.path.exists(name) and os.sep not in name and "." not in name:
        raise UsageError(f"'{name}' is neither a built-in lesson ({', '.join(builtin_ids())}) nor a file")
    return load(name, strict)


def run(args, out) -> int:
    if (args.width or args.height) and args.screenshot is None:
        raise UsageError("--width and --height size a --screenshot")
    stopped: list[int] = []
    if args.class_screens:  # a Ctrl+C from here on (Qt's imports too) only noted: the window's loop acts on it
        signal.signal(signal.SIGINT, lambda *_: stopped.append(1))
    _check_class(args)
    if args.save is not None:
        return _save(args)
    if args.handout or args.output is not None:
        return _handout(args)
    lesson = open_lesson(args.lesson, strict=args.check)
    if args.check:
        _check_model_scenes(lesson, args.lesson)
        out.write(f"{len(lesson.scenes)} scenes\n")
        return 0
    index = (args.scene or 1) - 1
    if index >= len(lesson.scenes):
        raise UsageError(f"--scene {args.scene}: the lesson has scenes 1 to {len(lesson.scenes)}")
    if args.screenshot is not None:
        return _screenshot(args, lesson, index)
    problem = display_problem()
    if problem:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return 2
    screens = None if not args.class_screens else (args.bind, args.port, stopped)
    from ..gui.window.start import run as open_window  # Qt and the window (~0.7 s): only when a window is wanted
    return open_window(lang=args.lang, lesson=(lesson, index), class_screens=screens)


def _check_class(args) -> None:
    """--class serves a lesson given in the window; its address and port free, said before Qt starts."""
    if not args.class_screens:
        if args.port is not None or args.bind is not None:
            raise UsageError("--port and --bind are the class's screens': give --class too")
        return
    if args.screenshot is not None or args.check or args.save is not None or args.handout:
        raise UsageError("--class serves a lesson given in the window: leave out --screenshot, --check, --save "
                         "and --handout")
    if args.bind is not None and ipaddress.ip_address(args.bind).is_link_local:
        raise UsageError(f"--bind {args.bind}: a link-local address, whose URL no browser opens: give one of the "
                         "machine's addresses on the network, or 0.0.0.0 for every network")
    if args.bind is not None and not _this_machines(args.bind):
        raise UsageError(f"--bind {args.bind}: not an address of this machine (a network's broadcast, another "
                         "machine's): give one of its own, or 0.0.0.0 for every network")
    if args.bind is not None or args.port is not None:
        problem = bind_problem(args.bind or "0.0.0.0", args.port or 0)  # every address: the port free on each
        if problem:
            given = (f"--bind {args.bind}" if args.bind is not None else "", f"--port {args.port}" if args.port else "")
            raise UsageError(f"{' '.join(part for part in given if part)}: {problem}")


def _check_model_scenes(lesson, name: str) -> None:
    """The real model's scenes, which reading the file checks only as far as it can without the model:
    run, and opened in both languages (a layer or head the model lacks is said here, naming the lesson)."""
    if not lesson.needs_model:
        return
    runs, line = ModelRuns(), Line()
    model = [index for index, scene in enumerate(lesson.scenes) if scene.scenario.kind == "model"]
    told = line("checking the real model's scenes")
    try:
        with naming(name):
            for done, index in enumerate(model):
                told(done, len(model))
                for lang in LANGUAGES:
                    open_scene(lesson, index, lang, runs)
    finally:
        line.clear()


def _this_machines(address: str) -> bool:
    """`address` is one of this machine's (or every network's, 0.0.0.0 / ::): Qt's list of them (QtNetwork only,
    no window)."""
    from PySide6.QtNetwork import QNetworkInterface
    ip = ipaddress.ip_address(address)
    mine = {ipaddress.ip_address(a.toString().split("%")[0]) for a in QNetworkInterface.allAddresses()}
    return ip.is_unspecified or ip in mine


def _save(args) -> int:
    if not is_builtin(args.lesson):
        raise UsageError(f"--save writes a built-in lesson ({', '.join(builtin_ids())}); '{args.lesson}' is not one")
    if not args.save.endswith(SUFFIX):
        raise UsageError(f"--save {args.save}: a lesson file's name ends in {SUFFIX}")
    save(builtin_lesson(args.lesson), args.save)
    return 0


def _screenshot(args, lesson, index: int) -> int:
    if not args.screenshot.lower().endswith(".png"):
        raise UsageError(f"--screenshot {args.screenshot}: a screenshot is a PNG file: give a name ending in .png")
    from ..gui.window.screenshots import lesson_screenshot  # Qt and the window (~0.7 s): only for a picture
    lesson_screenshot(lesson, index, args.screenshot, args.width or 1920, args.height or 1080, args.lang)
    return 0


def _handout(args) -> int:
    if not args.handout:
        raise UsageError("-o names the handout's file: give --handout too")
    if args.output is None:
        raise UsageError("--handout needs -o OUT.pdf, the file to write")
    if args.scene is not None:
        raise UsageError("--handout prints every scene: leave out --scene")
    if not args.output.lower().endswith(".pdf") or os.path.isdir(args.output):
        raise UsageError(f"-o {args.output}: a handout is a PDF file: give a name ending in .pdf")
    folder = os.path.dirname(args.output) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"-o {args.output}: the folder {folder} does not exist")
    lesson = open_lesson(args.lesson)
    from ..gui.common.i18n import install_language, system_language  # Qt: not for commands drawing nothing
    from ..gui.lessons.handout import write_handout  # Qt (~0.4 s): only for a handout
    from ..gui.window.app import create_app, use_offscreen  # Qt (~0.4 s): only for a handout
    use_offscreen()
    create_app()
    lang = args.lang or system_language()
    install_language(lang)
    write_handout(lesson, args.output, lang)
    return 0
