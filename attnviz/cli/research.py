"""What the research commands (patch, lens, attribute, sweep, heads) share: the model, the input
(TEXT, or --ids, BOS or not), a token named by its text or #ID, and JSON or CSV printed (the CSV is the
result's long-form table, the API's to_csv: core/research/tables.py)."""
from __future__ import annotations

import argparse
import json
import re

from .. import api
from ..core import lm
from ..core.research.tables import csv_text
from ..core.text import terminal_safe
from .arguments import UsageError, add_memory


def add_model(parser) -> None:
    parser.add_argument("--model", metavar="PATH.gguf", help="another model: a GGUF file, a Hugging Face folder or "
                        "an id from `attnviz models` (default: the built-in SmolLM2-135M)")
    add_memory(parser)


def add_input(parser, token_help: str, required: bool = True) -> None:
    """TEXT, or --ids in its place; --no-bos; --model; --token; --format json or csv."""
    parser.add_argument("text", metavar="TEXT", nargs="?", help="what the model reads")
    parser.add_argument("--ids", metavar="1,2,3", type=token_ids, help="the input as token ids, in place of TEXT")
    parser.add_argument("--no-bos", action="store_true", help="without the BOS token the model puts first")
    parser.add_argument("--token", metavar="TOKEN", required=required, help=f"{token_help}: its text (a leading "
                                                                           "space written as a space) or #ID")
    add_format(parser)
    add_model(parser)


def add_format(parser) -> None:
    parser.add_argument("--format", choices=["json", "csv"], default="json",
                        help="JSON (default), or CSV: a row per layer × head (or position, rank, …), as the "
                             "Python API's to_csv writes it")


def prepared(args, check_length=None):
    """(the api.Model, the token's id or None, the api.Run of the input): the input checked first,
    and its length in tokens by `check_length(n)` before the model runs."""
    check_input(args)
    m = load(args)
    token = None if args.token is None else m.token(args.token)
    if check_length is not None:
        check_length(len(m.encode(args.text, args.ids, not args.no_bos).ids))
    return m, token, m.run(args.text, ids=args.ids, bos=not args.no_bos)


def token_ids(text: str) -> tuple[int, ...]:
    """Whole numbers; whether each is one of the model's ids is the API's to say, in its words (an id past the
    vocabulary or below 0 is refused there, as m.run(ids=...) refuses it)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > 100_000 or not all(re.fullmatch(r"-?[0-9]{1,4000}", p, re.ASCII) for p in parts):
        raise argparse.ArgumentTypeError(f"'{terminal_safe(text[:40])}' is not token ids: give them as 1,2,3")
    return tuple(int(p) for p in parts)


def load(args):
    """The api.Model of --model, its terms checked first (the text is checked before loading)."""
    return api.load(args.model, memory=args.memory)


def check_input(args) -> None:
    """TEXT or --ids, one of them; a text checked before the model loads."""
    if (args.text is None) == (args.ids is None):
        raise UsageError("give TEXT or --ids (one of them)")
    if args.text is not None:
        lm.check_text(args.text)


def token_fields(m, token: int, found) -> dict:
    """The token's text and id, and the input's tokens, as each command's JSON begins."""
    return {"token": lm.token_text(m.lm, token), "id": token, "tokens": list(found.tokens)}


def rounded(a, digits: int = 6):
    """An array as nested lists of floats, rounded (JSON of a 30 × 9 map stays readable)."""
    return [rounded(x, digits) for x in a] if getattr(a, "ndim", 0) else round(float(a), digits)


def write_table(out, columns: dict) -> int:
    """The result's long-form table as CSV."""
    out.write(terminal_safe(csv_text(columns)))
    return 0


def write_json(out, document: dict | list) -> int:
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    except ValueError:  # NaN or infinity: JSON has neither
        raise UsageError("the model's numbers are not numbers (NaN or infinity): the file is damaged or not a model") \
            from None
    out.write(terminal_safe(text) + "\n")
    return 0
