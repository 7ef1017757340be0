"""`attnviz weights`: a scenario's attention weights as JSON or CSV, the rollout over every layer, or
B − A of two scenarios with their words lined up (--compare)."""
from __future__ import annotations

import json

from ..core import compute
from ..core.align import align, differences
from ..core.formats.table_csv import weights_csv, weights_document
from ..core.scenario import with_settings
from ..core.summary import check_work, final_rollout, layer_weights, named_layers
from ..core.text import terminal_safe
from .arguments import (
    LANGUAGES,
    MAX_PRINTED,
    UsageError,
    check_printed,
    head_indices,
    index,
    open_scenario,
    temperature,
)


def add(sub) -> None:
    parser = sub.add_parser("weights", help="print the attention weights of a scenario")
    parser.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    parser.add_argument("--head", type=index("head"), help="only this head (0 is the first)")
    parser.add_argument("--no-causal", action="store_true", help="let every token see the future")
    parser.add_argument("--no-scale", action="store_true", help="do not divide by √d_k")
    parser.add_argument("--temperature", type=temperature, help="a further divisor (0.01 to 100)")
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    parser.add_argument("--lang", choices=LANGUAGES, help="a preset's version in this language, and the heads' "
                        "names in it (default: the Japanese preset, names in the system's language)")
    parser.add_argument("--layer", type=index("layer"), help="this layer of a model's file (default 0)")
    parser.add_argument("--rollout", action="store_true",
                        help="attention rollout over every layer: Â_L ⋯ Â_1 with Â = 0.5·(mean over heads) "
                             "+ 0.5·I, rows renormalised (JSON)")
    parser.add_argument("--compare", metavar="OTHER",
                        help="B − A per head, OTHER (B) minus SCENARIO (A), B's rows and columns put in A's "
                             "word order (JSON); null when the two have different words")
    parser.set_defaults(run=run)


def settings_change(args):
    """The scenario -> scenario that --no-causal, --no-scale and --temperature ask for."""
    changes = {}
    if args.no_causal:
        changes["causal"] = False
    if args.no_scale:
        changes["scale"] = False
    if args.temperature is not None:
        changes["temperature"] = args.temperature
    return (lambda s: with_settings(s, **changes)) if changes else (lambda s: s)


def run(args, out) -> int:
    if args.compare is not None:
        return _print_comparison(args, out)
    if args.rollout:
        return _print_rollout(args, out)
    scenario = settings_change(args)(open_scenario(args.scenario, args.layer, args.lang))
    heads = head_indices(args.head, len(scenario.heads))
    check_printed(args.scenario, len(heads) * scenario.n ** 2, MAX_PRINTED,
                  "choose a head with --head, or write every number with export -o FILE.npz")
    weights = compute(scenario).weights()
    from ..gui.common.i18n import system_language  # QtCore only: no display needed
    names = [h.title(args.lang or system_language()) for h in scenario.heads]
    if args.format == "csv":
        out.write(terminal_safe(weights_csv(scenario, weights, heads, names)))
    else:
        document = weights_document(scenario, weights, heads, names)
        if scenario.layer is not None:  # every file with layers says which one this is
            document = {"layer": scenario.layer[0], **document}
        out.write(terminal_safe(json.dumps(document, ensure_ascii=False)) + "\n")
    return 0


def _print_rollout(args, out) -> int:
    """{"tokens": [...], "rollout": [[...], ...]}: Â_L ⋯ Â_1 over every layer of the file."""
    if args.format != "json" or args.head is not None or args.layer is not None:
        raise UsageError("--rollout combines every head of every layer into one matrix, printed as JSON: "
                         "leave out --head, --layer and --format csv")
    first, count, scenario_of = named_layers(args.scenario, settings_change(args))
    check_printed(args.scenario, first.n ** 2, MAX_PRINTED, "the rollout is tokens × tokens")
    check_work(first, count, rollout=True)  # before a second layer is read
    product = final_rollout(layer_weights(count, scenario_of))
    document = {"tokens": list(first.tokens), "rollout": product.tolist()}
    out.write(terminal_safe(json.dumps(document, ensure_ascii=False)) + "\n")
    return 0


def _print_comparison(args, out) -> int:
    """{"tokens_a", "tokens_b", "aligned", "difference"}: B − A per head after lining up the words."""
    if args.format != "json" or args.rollout or args.head is not None:
        raise UsageError("--compare prints every head's B − A as JSON: leave out --format csv, --rollout and --head")
    change = settings_change(args)  # --no-causal and the rest apply to both
    a = change(open_scenario(args.scenario, args.layer, args.lang))
    b = change(open_scenario(args.compare, args.layer, args.lang))
    check_printed(args.compare, min(len(a.heads), len(b.heads)) * a.n ** 2, MAX_PRINTED,
                  "the difference is tokens × tokens for every head")
    alignment = align(a.tokens, b.tokens)
    found = differences(compute(a).weights(), compute(b).weights(), alignment) if alignment.aligned else None
    document = {"tokens_a": list(a.tokens), "tokens_b": list(b.tokens), "aligned": alignment.aligned,
                "difference": None if found is None else [d.tolist() for d in found]}
    out.write(terminal_safe(json.dumps(document, ensure_ascii=False)) + "\n")
    return 0
