"""`attnviz lens`: the logit lens, each layer's likeliest tokens at each position, as JSON or CSV."""
from __future__ import annotations

from .. import api
from ..core import lm
from ..core.research.lens import check_length
from .arguments import count
from .research import add_input, prepared, write_json, write_table


def add(sub) -> None:
    parser = sub.add_parser("lens", help="the logit lens: the likeliest tokens if the model stopped after each "
                                         "layer, at each position of TEXT, as JSON or CSV")
    add_input(parser, "also this token's rank at each layer and position", required=False)
    parser.add_argument("--top-k", type=count("--top-k", 100), default=5, help="tokens per layer and position "
                                                                              "(default 5)")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    m, token, run_ = prepared(args, check_length)
    found = api.logit_lens(run_, args.top_k, token)
    if args.format == "csv":
        table = found.columns()
        at = list(table).index("id") + 1  # each id's text beside it: the API's table has the ids alone
        named = {"predicted": [lm.token_text(m.lm, int(i)) for i in table["id"]]}
        return write_table(out, dict([*list(table.items())[:at], *named.items(), *list(table.items())[at:]]))
    document = {"tokens": list(found.tokens), "layers": int(found.ids.shape[0]),
                "top": [[[{"token": lm.token_text(m.lm, int(i)), "id": int(i), "p": round(float(p), 6)}
                          for i, p in zip(ids, ps)] for ids, ps in zip(layer_ids, layer_p)]
                        for layer_ids, layer_p in zip(found.ids, found.p)]}
    if token is not None and found.rank is not None:
        document |= {"token": lm.token_text(m.lm, token), "rank": found.rank.tolist()}
    return write_json(out, document)
