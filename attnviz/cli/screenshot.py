"""`attnviz screenshot`: the whole window rendered offscreen into a PNG file."""
from __future__ import annotations

from ..core.files import check_writable
from ..gui.classroom import views  # Qt-free: the presented views, --view's ids
from ..gui.steps import stages  # Qt-free: the guided steps --step names
from .arguments import LANGUAGES, UsageError, index, open_layer, pixels

# The research workbench's tabs, by --view id (the presented "heads" holds that name: heads-table)
WORKBENCH = {"patch": "patch", "lens": "lens", "attribution": "attribute", "sweep": "sweep", "heads-table": "heads",
             "explain": "explain"}
VIEWS = (*views.IDS, "maths", *WORKBENCH)  # "maths": the maths panel, as before the presented views had ids


def add(sub) -> None:
    parser = sub.add_parser("screenshot", help="render the whole window offscreen into a PNG file")
    parser.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.png")
    parser.add_argument("--width", type=pixels("size", 10000),
                        help="window width in pixels (default 1600, or 1920 with --presentation)")
    parser.add_argument("--height", type=pixels("size", 10000),
                        help="window height in pixels (default 1000, or 1080 with --presentation)")
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language (default: the system's)")
    parser.add_argument("--presentation", action="store_true", help="in presentation mode (F5)")
    parser.add_argument("--step", type=int, choices=stages.ALL_NUMBERS,
                        metavar=f"{stages.ALL_NUMBERS[0]}-{stages.ALL_NUMBERS[-1]}", help=stages.command_line_help())
    parser.add_argument("--layer", type=index("layer"), help="this layer of a model's file (default 0)")
    parser.add_argument("--view", choices=VIEWS, metavar="|".join(VIEWS),
                        help="with --presentation: the view that fills the screen, as its key would present it "
                             "(heads: every head side by side; without --view, the big head beside the steps); "
                             "without: the panel brought forward on the desk (default: the step table); "
                             f"{'|'.join(WORKBENCH)}: that tab of the research workbench, run with its example "
                             "inputs on the built-in model")
    parser.add_argument("--compare", metavar="OTHER", help="the compare window instead: SCENARIO (A) beside "
                        "OTHER (B), and B − A with the words lined up when both have the same words")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    width = args.width or (1920 if args.presentation else 1600)
    height = args.height or (1080 if args.presentation else 1000)
    if args.compare is not None:
        return _compare(args, width, height)
    if args.view in ("overview", "compare") and not args.presentation:
        raise UsageError(f"--view {args.view} is a presented view: add --presentation")
    if args.view in WORKBENCH and (args.presentation or args.step is not None):
        raise UsageError(f"--view {args.view} is a tab of the research workbench, a window of its own: leave out "
                         "--presentation and --step")
    scenario = open_layer(args.scenario, args.layer)  # with its source, so the title names it
    if args.view in WORKBENCH:
        check_writable(args.output)  # before the model and the tab's work: a sweep takes half a minute
        from ..gui.window.screenshots import workbench_screenshot  # Qt and the window: only for a picture
        workbench_screenshot(scenario, WORKBENCH[args.view], args.output, width, height, args.lang)
        return 0
    from ..gui.window.screenshots import screenshot  # Qt and the window (~0.7 s): only for a picture
    screenshot(scenario, args.output, width, height, args.lang, args.presentation, args.step, args.view)
    return 0


def _compare(args, width: int, height: int) -> int:
    """The compare window: A and B, each at --layer; bad combinations said before Qt starts."""
    if args.step is not None or args.view is not None:
        raise UsageError("--compare shows the compare window: leave out --step and --view")
    if not args.output.lower().endswith(".png"):
        raise UsageError(f"-o {args.output}: a screenshot is a PNG file: give a name ending in .png")
    a = open_layer(args.scenario, args.layer)  # (scenario, source): a preset in the interface's language
    b = open_layer(args.compare, args.layer)
    from ..gui.window.screenshots import screenshot_comparison  # Qt and the window (~0.7 s): only for a picture
    screenshot_comparison(a, b, args.output, width, height, args.lang, args.presentation)
    return 0
