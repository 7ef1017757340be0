"""`attnviz heads`: every head's type scores (previous-token, induction, duplicate-token, sink,
local), one record per layer × head, as JSON or CSV."""
from __future__ import annotations

from .. import api
from ..core.research.head_types import LEAST_REPEAT, MOST_REPEAT, TYPES
from .arguments import count
from .research import add_format, add_model, load, write_json, write_table


def add(sub) -> None:
    parser = sub.add_parser("heads", help="every head's previous-token, induction, duplicate-token, sink and local "
                                          "scores, measured on random tokens repeated once, as JSON or CSV")
    add_format(parser)
    parser.add_argument("--length", type=count("--length", MOST_REPEAT, LEAST_REPEAT), default=50,
                        help="how many random tokens, each seen twice (default 50)")
    parser.add_argument("--seed", type=count("--seed", 2**32 - 1, 0), default=0,  # the API's range
                        help="the random tokens' seed (default 0)")
    add_model(parser)
    parser.set_defaults(run=run)


def run(args, out) -> int:
    m = load(args)
    found = api.head_types(m, args.length, args.seed)
    if args.format == "csv":
        return write_table(out, found.columns())
    records = [{"layer": layer, "head": head, **{kind: round(float(found.scores[kind][layer, head]), 6)
                                                  for kind in TYPES}}
               for layer in range(m.layers) for head in range(m.heads)]
    return write_json(out, records)
