"""Scenario files and a model's arrays, opened and saved by their suffix; the formats themselves
are in core/formats/.

A scenario is saved as JSON (people can read and diff it) or, when it is too large for that, as
a compact .npz: the same document as a small JSON header plus the arrays. A model's attention
comes as an .npz (or a folder of .npy files) of tokens and q, k, v or weights, optionally per
layer. Reading never unpickles or evaluates anything, checks every limit before decompressing or
widening, and turns every failure into a FileProblem that names the file and the place; writing
is atomic (core.files).
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from .files import FileProblem, atomic_write, naming, os_problem, problem
from .formats import model_arrays, scenario_json, scenario_npz
from .formats.npz import writer
from .formats.table_csv import data_csv
from .messages import QT_TR_NOOP
from .scenario import Scenario

DATA_SUFFIXES = (".csv", ".npz")


def save_scenario(s: Scenario, path, meta: dict | None = None, private: bool = False, replace=None) -> None:
    """Save as JSON or as a compact .npz, by the file's suffix; `meta` (an autosave's source and
    time) travels in the document. Refuses JSON for a scenario too large to open again as JSON.
    `replace(tmp, path)` puts the written file in place (see atomic_write)."""
    save = scenario_npz.save if Path(path).suffix.lower() == ".npz" else scenario_json.save
    save(s, path, meta, private, replace)


def load_scenario(path, layer: int = 0) -> Scenario:
    """A scenario from a .json or .npz scenario file, or a model's attention from a .npz (or a
    folder of .npy files): tokens, and q, k, v or weights, optionally for several layers."""
    return load_with_meta(path, layer)[0]


def load_with_meta(path, layer: int = 0) -> tuple[Scenario, dict]:
    """(scenario, the document's "autosave" entry or {}); every failure is a FileProblem."""
    with reading(path):
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".npy":
            return model_arrays.load_folder(path, layer), {}
        if suffix == ".npz":
            arrays = model_arrays.archive(path)
            if scenario_npz.holds_scenario(arrays):
                return scenario_npz.load(path, arrays)
            return model_arrays.scenario_of(path, arrays, layer), {}
        return scenario_json.load(path)


@contextmanager
def reading(path):
    """Whatever reading `path` raises (a hostile file can make the parsers raise anything) ends as
    one FileProblem naming the file."""
    try:
        with naming(path):
            yield
    except FileProblem:
        raise
    except MemoryError:
        raise problem(path, QT_TR_NOOP("too large to open with the memory available")) from None
    except Exception as e:  # noqa: BLE001 (one kind of error, whatever raised it)
        raise problem(path, QT_TR_NOOP("cannot be read ({0}: {1})"),
                      type(e).__name__, " ".join(str(e).split())) from None


def holds_layers(path) -> bool:
    """True for a model's file, which holds every layer; a scenario file holds the one it shows."""
    suffix = Path(path).suffix.lower()
    if suffix == ".npy":
        return True
    try:
        return suffix == ".npz" and not scenario_npz.holds_scenario(model_arrays.archive(path))
    except Exception:  # noqa: BLE001 (a file that cannot be read holds nothing to switch to)
        return False


def save_data(s: Scenario, weights, path) -> None:
    """The weights and the q, k, v of every head: a tidy .csv, or an .npz of arrays (which is
    also a scenario file: AttnViz opens it again)."""
    suffix = Path(path).suffix.lower()
    try:
        is_folder = Path(path).is_dir()
    except (OSError, ValueError) as e:
        raise os_problem(path, e) from None
    if is_folder:
        raise problem(path, QT_TR_NOOP("is a folder; give a file name ending in .csv or .npz"))
    if suffix == ".csv":
        atomic_write(path, data_csv(s, weights).encode("utf-8"))
    elif suffix == ".npz":
        atomic_write(path, writer(scenario_npz.scenario_arrays(s, weights)))
    else:
        raise problem(path, QT_TR_NOOP("unknown data format '{0}'; use a name ending in .csv or .npz"),
                            suffix or '(none)')
