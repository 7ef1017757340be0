"""`attnviz export`: a heatmap as PNG, SVG or PDF (one head, every head, a query's arithmetic, two
scenarios compared, a model's overview), or the numbers as CSV or .npz, by the file's suffix."""
from __future__ import annotations

import os

from ..core import compute
from ..core.io import DATA_SUFFIXES, save_data
from ..core.scenario import count_values
from .arguments import (
    LANGUAGES,
    MAX_CSV_ROWS,
    UsageError,
    check_output,
    check_printed,
    head_indices,
    index,
    open_scenario,
    pixels,
)


def add(sub) -> None:
    parser = sub.add_parser("export", help="write a heatmap as PNG, SVG or PDF, or the numbers as CSV or "
                                           ".npz (by the file's suffix)")
    parser.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="FILE.png, .svg or .pdf (a heatmap); FILE.csv or .npz (weights and q, k, v)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--head", type=index("head"), help="this head (0 is the first; the default)")
    which.add_argument("--all-heads", action="store_true", help="every head in one grid")
    which.add_argument("--step", action="store_true",
                       help="the query's arithmetic beside its head (with --query, --head in the window)")
    parser.add_argument("--query", type=index("query"), help="highlight this query row (0 is the first token)")
    parser.add_argument("--compare-layer", type=index("layer"), metavar="L",
                        help="with --compare: this layer of OTHER (default: the same as --layer); OTHER may be "
                             "SCENARIO itself, to set two layers of one model side by side")
    parser.add_argument("--overview", action="store_true",
                        help="every layer × head of a model's file as one grid of thumbnails")
    parser.add_argument("--compare", metavar="OTHER", help="SCENARIO (A) beside OTHER (B), every head, and B − A")
    parser.add_argument("--width", type=pixels("width", 8000), default=2400, help="PNG width in pixels (default 2400)")
    parser.add_argument("--no-caption", action="store_true", help="leave out the caption line")
    parser.add_argument("--scale", choices=["linear", "log", "row"], default="linear",
                        help="colour scale: linear 0 to 1 (the default), log 0.0001 to 1, or each row to its maximum")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the labels, and a preset's version in it "
                        "(default: labels in the system's language, the Japanese preset)")
    parser.add_argument("--layer", type=index("layer"), help="this layer of a model's file (default 0)")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    if args.compare_layer is not None and args.compare is None:
        raise UsageError("--compare-layer needs --compare OTHER (which may be the same file)")
    check_output(args.output, args.scenario, args.compare)
    if args.overview:
        return _export_overview(args)
    scenario = open_scenario(args.scenario, args.layer, args.lang)
    if os.path.splitext(args.output)[1].lower() in DATA_SUFFIXES:  # numbers, not a picture: no Qt
        if args.compare is not None:
            raise UsageError("--compare draws a picture: give FILE.png, .svg or .pdf")
        if args.output.lower().endswith(".csv"):
            check_printed(args.scenario, len(scenario.heads) * scenario.n ** 2 + count_values(scenario, given=False),
                          MAX_CSV_ROWS, "write them as .npz")
        save_data(scenario, compute(scenario).weights(), args.output)
        return 0
    if args.compare is not None:
        if args.head is not None or args.step or args.all_heads or args.query is not None:
            raise UsageError("--compare shows every head of both: leave out --head, --all-heads, --step and --query")
        from ..gui.window.exports import export_comparison  # Qt and the figures (~0.5 s): only for a figure
        other = open_scenario(args.compare, args.compare_layer if args.compare_layer is not None else args.layer,
                              args.lang)
        export_comparison(scenario, other, args.output, width=args.width,
                          caption=not args.no_caption, lang=args.lang, scale=args.scale)
        return 0
    kind = "all" if args.all_heads else "step" if args.step else "head"
    head = head_indices(args.head, len(scenario.heads))[0] if args.head is not None else 0
    if args.query is not None and not 0 <= args.query < scenario.n:
        raise UsageError(f"--query {args.query}: this scenario has tokens 0 to {scenario.n - 1}")
    from ..gui.window.exports import export  # Qt and the figures (~0.5 s): only for a figure
    export(scenario, args.output, kind=kind, head=head, query=args.query, width=args.width,
           caption=not args.no_caption, lang=args.lang, scale=args.scale)
    return 0


def _export_overview(args) -> int:
    if args.head is not None or args.step or args.all_heads or args.query is not None or args.compare is not None \
            or args.layer is not None:
        raise UsageError("--overview shows every layer and head: leave out --head, --all-heads, --step, --query, "
                         "--compare and --layer")
    if os.path.splitext(args.output)[1].lower() in DATA_SUFFIXES:
        raise UsageError("--overview draws a picture: give FILE.png, .svg or .pdf")
    from ..gui.window.exports import export_overview  # Qt and the figures (~0.5 s): only for a figure
    export_overview(args.scenario, args.output, width=args.width, caption=not args.no_caption, lang=args.lang,
                    scale=args.scale)
    return 0
