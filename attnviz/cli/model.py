"""`attnviz model`: the real language model on TEXT (or a saved session): its layers to a file, the
session to a file, its next-token prediction as JSON."""
from __future__ import annotations

import json
import os

import numpy as np

from ..core import lm
from ..core.files import check_writable, naming
from ..core.lm.families import NAMES
from ..core.research.tables import csv_text, next_tokens
from ..core.session import identity, looks_like_session, read_session, restore, save_session, session_of
from ..core.text import terminal_safe
from .arguments import UsageError, add_memory, check_output, count
from .progress import Line


def add(sub) -> None:
    parser = sub.add_parser("model", help="run the real language model on TEXT: its layers to a file, "
                                          "its next-token prediction as JSON")
    parser.add_argument("text", metavar="TEXT", nargs="?", help="what the model reads")
    parser.add_argument("-o", "--output", metavar="FILE.npz", help="write every layer's q, k, v (and the "
                                                                    "prediction) for 'attnviz FILE.npz'")
    parser.add_argument("--model", metavar="PATH.gguf", help=f"another model: a GGUF file or a Hugging "
                        f"Face folder of a family AttnViz runs ({NAMES}), or an id from `attnviz models` "
                        "(default: the built-in SmolLM2-135M)")
    add_memory(parser)
    parser.add_argument("--chat", action="store_true", help="read TEXT as a user's message in the model's chat "
                                                            "template (an instruct model's way to read)")
    parser.add_argument("--top-k", type=count("--top-k", 1000), default=10, help="how many next tokens (default 10)")
    parser.add_argument("--ablate", action="append", default=[], metavar="LAYER.HEAD",
                        help="switch a head off (its output zeroed before W_o), e.g. 3.2; may be repeated")
    parser.add_argument("--format", choices=["json", "csv"], help="print the tokens and the next tokens as JSON "
                        "(the default without -o and --save-session), or the next tokens as CSV: rank, id, token, "
                        "logit, p, as the Python API's to_csv of a run writes them")
    parser.add_argument("--save-session", metavar="FILE", help="write the run as a session (text, model file, "
                                                              "switched-off heads) that 'attnviz FILE' opens")
    parser.add_argument("--session", metavar="FILE", help="run a saved session again (its text, model and every "
                                                         "change) instead of TEXT")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    _check_outputs(args)
    if args.session is not None:
        if args.text is not None or args.ablate or args.model or args.save_session or args.chat:
            raise UsageError("--session runs the text, model and changes the session holds: leave out TEXT, "
                             "--model, --chat, --ablate and --save-session")
        with np.errstate(all="ignore"):  # an overflow ends as NaN, refused below in one line
            model, encoded, result = _run_session(args.session, args.memory)
    elif args.text is None:
        raise UsageError("give the TEXT the model reads, or --session FILE")
    else:
        line = Line()
        try:
            model, encoded, result = _run_text(args, line)
        finally:
            line.clear()
    if args.output:
        lm.save_run(model, encoded, result, args.output)
    if args.save_session:
        _save_session(model, encoded, result, args.save_session)
    if args.format == "csv":
        out.write(terminal_safe(csv_text(next_tokens(model, result.logits, result.probs, args.top_k))))
    elif args.format == "json" or not (args.output or args.save_session):
        document = {"tokens": list(encoded.labels), "token_ids": list(encoded.ids),
                    "next": [{"token": text, "id": i, "p": p}
                             for i, text, p in lm.top(model, result.probs, args.top_k)]}
        out.write(terminal_safe(json.dumps(document, ensure_ascii=False, allow_nan=False)) + "\n")  # JSON: no NaN
    return 0


def _check_outputs(args) -> None:
    """What -o and --save-session cannot write to (a wrong kind of file, a missing folder, a folder, a device),
    said before the model runs."""
    if args.output and os.path.splitext(args.output)[1].lower() != ".npz":
        raise UsageError(f"-o {args.output}: the model's layers are written as an .npz file")
    if args.output:
        check_output(args.output, args.model, args.session)
    for target in (args.output, args.save_session):
        if target:
            check_writable(target)


def _run_session(path: str, way: str):
    """(model, encoded text, run with every change) of a saved session."""
    session, _ = read_session(path)
    with naming(path):  # what the session asks of the model and the model lacks
        model, encoded, _, result = restore(session, lambda source: lm.load(source, way=way))
    return model, encoded, result


def _run_text(args, line: Line):
    """(model, encoded, result) of TEXT, everything that can be refused refused before the model loads; the
    load and the pass told on the progress `line`."""
    if args.save_session:
        _check_session_target(args.save_session)
    lm.check_text(args.text)  # empty, or bytes that are not UTF-8
    refused = lm.catalog.terms_refusal(args.model)
    if refused is not None:
        raise refused
    model = lm.load(args.model, progress=line("loading the model, layer"), way=args.memory)
    encoded = lm.encode(model, args.text, chat=args.chat)
    changes = tuple(lm.ablation(model, spec) for spec in args.ablate)
    with np.errstate(all="ignore"):
        return model, encoded, lm.run(model, encoded.ids, changes, progress=line("running the model, layer"))


def _check_session_target(path: str) -> None:
    """Before the run: a file there is overwritten only when it is a session (by its name or first bytes)."""
    if os.path.lexists(path) and not looks_like_session(path, by_name=False):
        raise UsageError(f"--save-session {terminal_safe(path)}: that file is there and is not an AttnViz session; "
                         "it is not overwritten (give a new name, or remove the file first)")


def _save_session(model, encoded, result, path: str) -> None:
    """The run as a session file, showing layer 0, head 0 and the last token (as the window opens it)."""
    shown = lm.scenario(model, encoded, result, 0)
    save_session(session_of(shown, 0, shown.n - 1, identity(model)), path)
