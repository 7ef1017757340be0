"""`attnviz models`: the real models AttnViz finds, one per line (id, family, quantisation, size,
licence, path), or as JSON; `--model ID` takes any of these ids. A model with terms of use
(Gemma 3) has them read (--terms ID) and accepted (--accept-terms ID) here or in the window."""
from __future__ import annotations

import json

from ..core.lm import GEMMA_ID, catalog, entries
from ..core.messages import cut
from ..core.text import terminal_safe, visible
from .arguments import UsageError


def add(sub) -> None:
    parser = sub.add_parser("models", help="list the real models AttnViz finds: the built-in SmolLM2, Gemma 3 when "
                                           "installed, files and folders opened before, the Hugging Face cache")
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="text: id, family, quantisation, size, licence, path, tab-separated (the default); "
                             "json: [{\"id\", \"family\", \"path\", \"bytes\", \"parameters\", \"quantisation\", "
                             "\"licence\", \"source\", \"chat\", \"memory\": {\"compact\", \"fast\"}}, ...], "
                             "memory in bytes as --memory compact or fast would take it (null: not known before "
                             "Gemma 3's first use, or a model AttnViz cannot run)")
    terms = parser.add_mutually_exclusive_group()
    terms.add_argument("--terms", metavar="ID", help=f"print the terms of use of model ID ({GEMMA_ID})")
    terms.add_argument("--accept-terms", metavar="ID", help=f"accept the terms of use of model ID ({GEMMA_ID}), "
                                                            "once for this computer")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    chosen = args.terms if args.terms is not None else args.accept_terms  # "" is an id given, and refused
    if chosen is not None:
        return _terms(args, chosen, out)
    listed = [e.as_dict() for e in entries()]
    if args.format == "json":
        out.write(terminal_safe(json.dumps(listed, ensure_ascii=False)) + "\n")
        return 0
    for e in listed:
        size = f"{e['bytes'] / 1e6:,.0f} MB"
        fields = (e["id"], e["family"], e["quantisation"], size, e["licence"] or "-", e["path"])
        out.write("\t".join(visible(str(f)) for f in fields) + "\n")  # a line per model: a newline or tab shown
    return 0


def _terms(args, chosen: str, out) -> int:
    if chosen != GEMMA_ID:
        raise UsageError(f"{visible(cut(chosen, 60)) or repr(chosen)}: only {GEMMA_ID} has terms to accept here (the "
                         "others say their licence in `attnviz models`)")
    if catalog.gemma_chunks() is None:
        raise UsageError(f"{GEMMA_ID} is not installed: install it with '{catalog.GEMMA_INSTALL}'")
    if args.terms is not None:
        out.write(terminal_safe(catalog.terms_text()) + "\n")
        return 0
    catalog.accept_terms()
    out.write(f"The Gemma Terms of Use are accepted on this computer: `--model {GEMMA_ID}` runs Gemma 3.\n")
    return 0
