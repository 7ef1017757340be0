"""`attnviz sweep`: every head ablated in turn, the change in a token's log-probability, as JSON or CSV."""
from __future__ import annotations

from .. import api
from .research import add_input, prepared, rounded, token_fields, write_json, write_table


def add(sub) -> None:
    parser = sub.add_parser("sweep", help="switch each head off in turn: the change in TOKEN's log-probability "
                                          "as the next token after TEXT, layers × heads, as JSON or CSV")
    add_input(parser, "the token")
    parser.add_argument("--mean", action="store_true", help="set each head's output to its mean over the "
                                                            "positions instead of zero")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    m, token, run_ = prepared(args)
    found = api.sweep(m, run_, token, args.mean)
    if args.format == "csv":
        return write_table(out, found.columns())
    return write_json(out, {**token_fields(m, token, found), "ablation": "mean" if args.mean else "zero",
                            "logp": rounded(found.logp), "delta_logp": rounded(found.delta_logp)})
