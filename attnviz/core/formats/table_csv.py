"""The weights and the q, k, v of a scenario as tables: a tidy CSV of everything (File → Export
data), and the weights one row per query (`attnviz weights`, as CSV or JSON). Every cell a
spreadsheet could run or split is quoted (text.csv_cell).
"""
from __future__ import annotations

import csv
import io

from ..scenario import Scenario
from ..text import csv_cell


def data_csv(s: Scenario, weights) -> str:
    """Everything in one tidy table: head, quantity (q, k, v, weight), token, column, value.

    For q, k and v the column is a dimension label; for weight it is the key token.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["head", "quantity", "token", "column", "value"])
    tokens = [csv_cell(t) for t in s.tokens]
    for i, head in enumerate(s.heads):
        name_cell = csv_cell(head.name)
        for name in "qkv":
            labels = [csv_cell(label) for label in head.dim_labels(name)]
            for token, row in zip(tokens, head.matrix(name)):
                writer.writerows([name_cell, name, token, label, repr(float(x))] for label, x in zip(labels, row))
        for token, row in zip(tokens, weights[i]):
            writer.writerows([name_cell, "weight", token, key, repr(float(w))] for key, w in zip(tokens, row))
    return out.getvalue()


def weights_document(s: Scenario, weights, head_indices, names=None) -> dict:
    """The `attnviz weights --format json` document (`names`: the heads' names to print)."""
    names = names or [h.name for h in s.heads]
    return {
        "tokens": list(s.tokens),
        "heads": [{"name": names[i], "weights": weights[i].tolist()} for i in head_indices],
    }


def weights_csv(s: Scenario, weights, head_indices, names=None) -> str:
    """One row per (head, query): head, query token, then the weight on each key."""
    names = names or [h.name for h in s.heads]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    tokens = [csv_cell(t) for t in s.tokens]
    writer.writerow(["head", "query", *tokens])
    for i in head_indices:
        for token, row in zip(tokens, weights[i]):
            writer.writerow([csv_cell(names[i]), token, *(repr(float(w)) for w in row)])
    return out.getvalue()
