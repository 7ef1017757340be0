"""Every workbench result as one table in long form: a column per axis and per value, a row per cell
(layer, head, score), as a researcher melts a result into a DataFrame. The same columns go to a CSV
file, an .npz file (no pickle: numbers and fixed-width texts) or, with pandas installed, a DataFrame.

Each result class says what its table is (`columns()`: name -> 1-D array, all as long); Tabular gives
it to_csv, to_npz and to_frame.
"""
from __future__ import annotations

import csv
import io
import os
from typing import Any

import numpy as np

from ..files import atomic_write, problem
from ..lm.shown import ModelError, token_text
from ..lm.weights import Model
from ..messages import QT_TR_NOOP

NO_PANDAS = QT_TR_NOOP("to_frame() needs pandas, which is not installed: pip install \"attnviz[tables]\" (or use "
                       "to_csv or to_npz, which need nothing more)")


class Tabular:
    """to_csv, to_npz and to_frame of a result whose `columns()` are its table."""

    def columns(self) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def to_csv(self, path) -> None:
        """The table as CSV (UTF-8, a header row, lines ended by CR LF as RFC 4180 has them, so that a text
        holding a line break or a lone CR is quoted), written whole or not at all."""
        atomic_write(path_to_write(path, ".csv"), csv_text(self.columns(), "\r\n").encode("utf-8"))

    def to_npz(self, path) -> None:
        """The table as an .npz file of one array per column (np.load reads it with allow_pickle=False)."""
        columns: dict[str, Any] = self.columns()  # numpy's stub takes a column named allow_pickle for the flag
        atomic_write(path_to_write(path, ".npz"), lambda f: np.savez(f, allow_pickle=False, **columns))

    def to_frame(self):
        """The table as a pandas DataFrame (pandas: pip install "attnviz[tables]")."""
        try:
            import pandas as pd  # optional: the rest of AttnViz runs without it
        except ImportError:
            raise ModelError(NO_PANDAS) from None
        return pd.DataFrame(self.columns())


def csv_text(columns: dict[str, np.ndarray], end: str = "\n") -> str:
    """The columns as CSV lines ended by `end` (a text holding a character of `end` is quoted: the command
    line's, printed through terminal_safe, hold no CR)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=end)
    writer.writerow(columns)
    writer.writerows(zip(*(_cells(values) for values in columns.values())))
    return out.getvalue()


def _cells(values) -> list:
    """A column's cells as CSV writes them: floats in full (repr), whole numbers and texts as they are."""
    values = np.asarray(values)
    return [repr(float(x)) for x in values] if values.dtype.kind == "f" else values.tolist()


KINDS = {".csv": "CSV", ".npz": "NumPy .npz", ".png": "PNG"}


def path_to_write(path, suffix: str) -> str:
    """A path a result may be written to: a text or path-like that the system can name, no NUL, not a folder,
    ending in `suffix` (so that a slip of the hand cannot replace a model, a session or a scenario)."""
    try:
        named = os.fspath(path)
    except TypeError:
        named = None
    if not isinstance(named, str) or not named or "\0" in named:  # pathlib and open refuse a NUL with ValueError
        raise ModelError(QT_TR_NOOP("give a file's path to write to, not {0}"), _not_a_path(named, path))
    try:
        os.fsencode(named)  # a lone surrogate ("\ud800") names no file: the system's calls would raise
    except UnicodeEncodeError:
        raise problem(named, QT_TR_NOOP("holds a character no file name can hold")) from None
    if os.path.isdir(named) or named.endswith(("/", os.sep)):  # "out/" names a folder, even one not made yet
        raise problem(named, QT_TR_NOOP("is a folder: give a file's path to write to"))
    if not named.lower().endswith(suffix):
        raise problem(named, QT_TR_NOOP("is not a {0} file's name: give one ending in {1}"), KINDS[suffix], suffix)
    return named


def _not_a_path(named, path) -> str:
    if isinstance(named, str):
        return "a text holding a NUL" if named else "an empty text"
    return type(path).__name__


def grid(axes: tuple[str, ...], **values: np.ndarray) -> dict[str, np.ndarray]:
    """Arrays of one shape as a table: a column per axis (each cell's index along it), then a column per array."""
    shape = np.shape(next(iter(values.values())))
    index = np.indices(shape).reshape(len(shape), -1)
    return {**{axis: index[i] for i, axis in enumerate(axes)},
            **{name: np.asarray(v).reshape(-1) for name, v in values.items()}}


def labels(tokens: tuple, positions: np.ndarray) -> np.ndarray:
    """The label of the token at each position (texts; empty where the labels are not known)."""
    known = np.asarray([t.replace("\0", "␀") for t in tokens], dtype=str) if tokens else np.asarray([""])
    return known[np.minimum(positions, len(known) - 1)] if tokens else np.full(len(positions), "")


def next_tokens(model: Model, logits: np.ndarray, probs: np.ndarray, k: int | None = None) -> dict[str, np.ndarray]:
    """A run's next token as a table, likeliest first (the k likeliest, or every token): rank, id, token, logit, p.
    A NUL in a token's text is written ␀ (numpy's texts, and so an .npz, drop a NUL at their end)."""
    order = np.argsort(-probs, kind="stable")[:k]
    return {"rank": np.arange(1, len(order) + 1), "id": order,
            "token": np.array([token_text(model, int(i)).replace("\0", "␀") for i in order]),
            "logit": logits[order].astype(np.float64), "p": probs[order]}
