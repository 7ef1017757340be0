"""`attnviz patch`: activation patching from a clean prompt into a corrupted one, as JSON or CSV."""
from __future__ import annotations

from .. import api
from ..core import lm
from ..core.files import naming
from ..core.research.pairs import read_pairs
from .arguments import UsageError
from .research import add_format, add_model, load, rounded, write_json, write_table


def add(sub) -> None:
    parser = sub.add_parser("patch", help="patch each head (or position) of a clean prompt's run into a corrupted "
                                          "one's: the share of the logit difference restored, as JSON or CSV")
    parser.add_argument("clean", metavar="CLEAN", nargs="?", help="the prompt whose answer is ANSWER")
    parser.add_argument("corrupted", metavar="CORRUPTED", nargs="?",
                        help="a prompt as long in tokens whose answer is AGAINST")
    parser.add_argument("--answer", metavar="TOKEN", help="the clean answer: one token's text (a leading space as "
                                                          "a space) or #ID")
    parser.add_argument("--against", metavar="TOKEN", help="the corrupted answer, likewise")
    parser.add_argument("--pairs", metavar="FILE", help="a dataset of pairs in place of CLEAN, CORRUPTED, --answer "
                        "and --against: JSON lines ({\"clean\", \"corrupted\", \"answer\", \"against\"} a line) or "
                        "a .csv with those columns; each pair patched, the maps averaged")
    parser.add_argument("--by", choices=["head", "position", "attention"], default="head",
                        help="patch each head's output (layers × heads, the default), the residual stream at each "
                             "position, or each layer's attention output at each position (layers × positions)")
    add_format(parser)
    add_model(parser)
    parser.set_defaults(run=run)


def run(args, out) -> int:
    if args.pairs is not None:
        return _run_pairs(args, out)
    if None in (args.clean, args.corrupted, args.answer, args.against):
        raise UsageError("give CLEAN, CORRUPTED, --answer and --against, or --pairs FILE")
    lm.check_text(args.clean)
    lm.check_text(args.corrupted)
    m = load(args)
    a, b = m.encode(args.clean), m.encode(args.corrupted)
    if len(a.ids) != len(b.ids):
        raise UsageError(f"CLEAN is {len(a.ids)} tokens and CORRUPTED {len(b.ids)}: patching needs prompts as long "
                         f"in tokens ({' | '.join(a.labels)} / {' | '.join(b.labels)})")
    answer, against = m.token(args.answer), m.token(args.against)  # refused before the runs
    found = api.patch(m, m.run(args.clean), m.run(args.corrupted), answer, against, args.by)
    return _write(args, out, found)


def _run_pairs(args, out) -> int:
    if any(x is not None for x in (args.clean, args.corrupted, args.answer, args.against)):
        raise UsageError("--pairs FILE gives every pair: leave out CLEAN, CORRUPTED, --answer and --against")
    pairs = read_pairs(args.pairs)
    with naming(args.pairs):  # "pairs.jsonl: pairs: pair 3: the text is empty", before the model loads
        for i, pair in enumerate(pairs):
            _check_texts(i, pair[:2])
    m = load(args)
    with naming(args.pairs):  # what the model says of a pair (a token it lacks, nothing to restore)
        found = api.patch(m, pairs, by=args.by)
    return _write(args, out, found)


def _check_texts(i: int, texts) -> None:
    try:
        for text in texts:
            lm.check_text(text)
    except lm.ModelError as e:
        raise lm.ModelError("pairs: pair {0}: {1}", i, e) from None


def _write(args, out, found) -> int:
    if args.format == "csv":
        return write_table(out, found.columns())
    return write_json(out, {"tokens": list(found.tokens), "metric": found.metric, "by": args.by, "pairs": found.pairs,
                            "restored": rounded(found.restored), "clean": rounded(found.clean),
                            "corrupted": rounded(found.corrupted)})
