"""`attnviz stats`: each layer × head's statistics (summary.STATISTICS) as JSON or CSV."""
from __future__ import annotations

import json

from ..core.summary import STATS, check_work, head_stats, layer_weights, named_layers
from .arguments import index, open_scenario


def add(sub) -> None:
    parser = sub.add_parser("stats", help=f"each layer × head's statistics: {', '.join(STATS)}")
    parser.add_argument("scenario", metavar="FILE", help="a model's file (every layer), a scenario file or a preset")
    parser.add_argument("--layer", type=index("layer"), help="only this layer")
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    parser.set_defaults(run=run)


def run(args, out) -> int:
    """One record per layer × head: its statistics."""
    if args.layer is None:
        first, count, scenario_of = named_layers(args.scenario)
        check_work(first, count)  # before a second layer is read
        layers: list[int] | range = range(count)
    else:  # that layer alone is read
        count, layers = 1, [args.layer]

        def scenario_of(_):
            return open_scenario(args.scenario, args.layer)
    records = []
    for layer, weights in zip(layers, layer_weights(count, scenario_of)):
        records += [{"layer": layer, "head": head, **dict(zip(STATS, map(float, row)))}
                    for head, row in enumerate(head_stats(weights))]
    if args.format == "csv":
        out.write(",".join(("layer", "head", *STATS)) + "\n")
        out.writelines(",".join(f"{r[key]!r}" if isinstance(r[key], float) else str(r[key])
                                for key in ("layer", "head", *STATS)) + "\n" for r in records)
    else:
        out.write(json.dumps(records) + "\n")
    return 0
