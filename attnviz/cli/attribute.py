"""`attnviz attribute`: each head's and feed-forward's direct contribution to a token's logit, as JSON or CSV."""
from __future__ import annotations

from .. import api
from ..core.research.attribution import FROZEN_NOTE
from .research import add_input, prepared, rounded, token_fields, write_json, write_table


def add(sub) -> None:
    parser = sub.add_parser("attribute", help="direct logit attribution: each head's and each feed-forward's "
                                              "contribution to TOKEN's logit at TEXT's last position, as JSON or CSV")
    add_input(parser, "the token")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    m, token, run_ = prepared(args)
    found = api.head_attribution(run_, token)
    if args.format == "csv":
        return write_table(out, found.columns())
    return write_json(out, {**token_fields(m, token, found), "heads": rounded(found.heads),
                            "mlps": rounded(found.mlps), "embedding": rounded(found.embedding),
                            "biases": rounded(found.biases), "logit": rounded(found.logit), "note": FROZEN_NOTE})
