"""`attnviz screenshot`: the whole window rendered offscreen into a PNG file."""
from __future__ import annotations

from ..gui.steps import stages  # Qt-free: the guided steps --step names
from .arguments import LANGUAGES, index, open_layer, pixels


def add(sub) -> None:
    parser = sub.add_parser("screenshot", help="render the whole window offscreen into a PNG file")
    parser.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.png")
    parser.add_argument("--width", type=pixels("size", 10000), default=1600, help="window width in pixels")
    parser.add_argument("--height", type=pixels("size", 10000), default=1000, help="window height in pixels")
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language (default: the system's)")
    parser.add_argument("--presentation", action="store_true", help="in presentation mode (F5)")
    parser.add_argument("--step", type=int, choices=stages.NUMBERS,
                        metavar=f"{stages.NUMBERS[0]}-{stages.NUMBERS[-1]}", help=stages.command_line_help())
    parser.add_argument("--layer", type=index("layer"), help="this layer of a model's file (default 0)")
    parser.add_argument("--view", choices=["steps", "maths", "lines"], default="steps",
                        help="the tab shown below the heatmaps: the step table (default), the maths views, the lines")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    scenario = open_layer(args.scenario, args.layer)  # with its source, so the title names it
    from ..gui.window.app import screenshot
    screenshot(scenario, args.output, args.width, args.height, args.lang, args.presentation, args.step, args.view)
    return 0
