"""Scenario files and a model's arrays: reading and writing, safely.

A scenario is saved as JSON (people can read and diff it) or, when it is too large for
that, as a compact .npz: the same document as a small JSON header plus the arrays. A
model's attention comes as an .npz (or a folder of .npy files) of tokens and q, k, v or
weights, optionally per layer. Reading never unpickles or evaluates anything, checks every
limit before decompressing or widening, and turns every failure into a FileProblem that
names the file and the place; writing is atomic (core.files).
"""
from __future__ import annotations

import csv
import dataclasses
import io as _io
import json
import math
import zipfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .messages import QT_TR_NOOP, Phrase
from .files import FileProblem, atomic_write, os_problem, problem, read_limited
from .masks import KINDS, MaskSpec, as_rows
from .formats.npz import Arrays, folder_names
from .numbers import MAX_ABS, RANGE_TEXT
from .scenario import (MAX_CELLS, MAX_DIM, MAX_GIVEN_CELLS, MAX_HEADS, MAX_LAYERS, MAX_NAME_LENGTH, MAX_TOKEN_LENGTH, MAX_TOKENS,
                       MAX_VALUES, PROJECTION_MATRICES, Head, Projection, Scenario, ScenarioError, Settings,
                       check_projection, count_values, derive_heads, head_names, make_head, make_scenario,
                       same_shapes, weights_only_heads)
from .text import csv_cell, shortened, visible

FORMAT_NAME = "attnviz-scenario"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 100 * 1024 * 1024  # a JSON scenario; AttnViz writes JSON only far below this
# A model's file holds every layer (one is read at a time): 24 layers × 16 heads × 512
# tokens of float32 fit; a hostile header still cannot make AttnViz allocate beyond it.
MAX_MODEL_BYTES = 4 * 1024 ** 3  # a model's file, read a layer at a time (12 layers × 12 heads × 2048² float32 is 2.4 GB)
JSON_MAX_VALUES = 2_000_000  # ≈ 50 MB of JSON text; larger scenarios are saved as .npz
HEADER = "attnviz"           # the JSON document inside a scenario .npz
MAX_HEADER_BYTES = 64 * 1024 * 1024  # above anything a valid scenario's names, labels and texts need
# Lists and objects a JSON file may open, and values it may separate: counted in its bytes before
# Python builds them (a 100 MB file of "[0]," would otherwise become gigabytes of lists). An
# AttnViz file holds at most JSON_MAX_VALUES numbers and some text; this leaves room to spare.
MAX_JSON_ITEMS = 6_000_000
MAX_DIGITS = 24              # an integer in a JSON file (Python refuses more than 4,300 anyway)
SCENARIO_SUFFIXES = (".json", ".npz")


# ---------------------------------------------------------------- saving

def save_scenario(s: Scenario, path, meta: dict | None = None, private: bool = False, replace=None) -> None:
    """Save as JSON or as a compact .npz, by the file's suffix; `meta` (an autosave's source and
    time) travels in the document. Refuses JSON for a scenario too large to open again as JSON.
    `replace(tmp, path)` puts the written file in place (see atomic_write)."""
    if Path(path).suffix.lower() == ".npz":
        atomic_write(path, _npz_writer(scenario_arrays(s, meta=meta)), private, replace)
        return
    if too_large_for_json(s):
        raise problem(path, ScenarioError(
            QT_TR_NOOP("this scenario holds {0:,} numbers, too many for a .json file: save it as .npz "
            "(the compact scenario format)"), count_values(s)))
    document = scenario_to_dict(s)
    if meta:
        document["autosave"] = meta
    atomic_write(path, to_json_text(document).encode("utf-8"), private, replace)


def too_large_for_json(s: Scenario) -> bool:
    return count_values(s) > JSON_MAX_VALUES


def to_json_text(document) -> str:
    """Indented JSON with each list of scalars (a row of numbers, the tokens) on one line,
    so people can read and diff it."""
    return _json(document, "") + "\n"


def _json(value, indent: str) -> str:
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        return "[\n" + ",\n".join(inner + _json(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def scenario_to_dict(s: Scenario, with_arrays: bool = True) -> dict:
    """The scenario as a JSON document; without arrays, the header of a scenario .npz."""
    derived = s.projection is not None
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "title": dict(s.title),
        "description": dict(s.description),
        "tokens": list(s.tokens),
        "settings": _settings_to_dict(s.settings),
        "heads": [_head_to_dict(h, with_vectors=with_arrays and not (derived or s.weights_only)) for h in s.heads],
    }
    if s.weights_only:
        document["weights"] = s.given.tolist() if with_arrays else "array"  # a model's, as loaded
    if s.layer is not None:
        document["layer"] = list(s.layer)
    if s.note:
        document["note"] = dict(s.note)
    if s.focus is not None:
        document["focus"] = s.focus
    if derived:
        p = s.projection
        document["projection"] = {
            **{name: getattr(p, name).tolist() if with_arrays else "array" for name in PROJECTION_MATRICES},
            "n_heads": p.n_heads, "n_kv_heads": p.n_kv_heads, "residual": p.residual,
            "layer_norm": p.layer_norm, "positions": p.positions,
        }
    return document


def _settings_to_dict(settings: Settings) -> dict:
    entry = {"causal": settings.causal, "scale": settings.scale, "temperature": settings.temperature}
    m = settings.mask
    if m is not None:
        entry["mask"] = {"kind": m.kind, "window": m.window, "prefix": m.prefix, "padding": list(m.padding)}
        if m.custom is not None:
            entry["mask"]["custom"] = [[int(x) for x in row] for row in m.custom]
    return entry


def _head_to_dict(h: Head, with_vectors: bool) -> dict:
    entry = {"name": h.name}
    if h.names:
        entry["names"] = dict(h.names)
    if h.labels:
        entry["labels"] = list(h.labels)
    if h.v_labels:
        entry["v_labels"] = list(h.v_labels)
    if with_vectors:
        entry.update(q=h.q.tolist(), k=h.k.tolist(), v=h.v.tolist())
    return entry


def scenario_arrays(s: Scenario, weights=None, meta: dict | None = None) -> dict[str, np.ndarray]:
    """A scenario .npz: the document as a JSON header, and its arrays as plain .npy members that
    any NumPy reads (tokens, head_names, q, k, v stacked per head, weights, the projection)."""
    header = scenario_to_dict(s, with_arrays=False)
    if meta:
        header["autosave"] = meta
    arrays = {HEADER: np.frombuffer(json.dumps(header, ensure_ascii=False).encode("utf-8"), dtype=np.uint8),
              "tokens": np.array(s.tokens), "head_names": np.array([h.name for h in s.heads]),
              "causal": np.array(s.settings.causal), "scale": np.array(s.settings.scale),
              "temperature": np.array(s.settings.temperature)}
    if not s.weights_only:
        if same_shapes(s):
            arrays.update({m: _compact(np.stack([h.matrix(m) for h in s.heads])) for m in "qkv"})
        else:
            arrays.update({f"{m}_{i}": _compact(h.matrix(m)) for i, h in enumerate(s.heads) for m in "qkv"})
    if s.projection is not None:
        arrays.update({f"projection_{m}": _compact(getattr(s.projection, m)) for m in PROJECTION_MATRICES})
    weights = s.given if s.weights_only else None if weights is None else np.stack(weights)
    if weights is not None:
        arrays["weights"] = _compact(weights)
    return arrays


def _compact(a: np.ndarray) -> np.ndarray:
    """float32 when that keeps every value exactly (values from a float32 model file, or typed
    as 0.5), so a saved model is no larger than the file it came from; float64 otherwise."""
    narrow = a.astype(np.float32)
    return narrow if np.array_equal(narrow.astype(a.dtype), a) else a


WRITE_CHUNK = 1 << 20


def _npz_writer(arrays: dict[str, np.ndarray]):
    """What np.savez writes (stored, not compressed: fast, and read layer by layer), in pieces of
    1 MB straight from the arrays' memory: np.savez copies 16 MB at a time while holding Python's
    lock, which stalls the window for tens of milliseconds when autosave writes on its thread."""
    def write(f):
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            for name, array in arrays.items():
                array = np.asarray(array, order="C")  # C order, and a single value stays 0-d
                with archive.open(f"{name}.npy", "w", force_zip64=True) as out:
                    np.lib.format.write_array_header_1_0(out, np.lib.format.header_data_from_array_1_0(array))
                    data = memoryview(array.reshape(-1).view(np.uint8)) if array.size else memoryview(b"")
                    for start in range(0, len(data), WRITE_CHUNK):
                        out.write(data[start:start + WRITE_CHUNK])
    return write


# ---------------------------------------------------------------- loading

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
            return _load_npy_folder(path, layer), {}
        if suffix == ".npz":
            return _load_npz(path, layer)
        return _load_json(path)


@contextmanager
def reading(path):
    """Whatever reading `path` raises (a hostile file can make the parsers raise anything) ends as
    one FileProblem naming the file."""
    try:
        yield
    except FileProblem:
        raise
    except ScenarioError as e:
        raise problem(path, e) from None
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
        return suffix == ".npz" and HEADER not in Arrays.of(path, MAX_MODEL_BYTES)
    except Exception:  # noqa: BLE001 (a file that cannot be read holds nothing to switch to)
        return False


def _load_json(path: Path) -> tuple[Scenario, dict]:
    document = _parse_json(read_limited(path, MAX_FILE_BYTES), path)
    return scenario_from_dict(document), _meta(document)


# What Python's JSON parser says of a broken file, marked so that it is translated too.
JSON_SAYS = (QT_TR_NOOP("Expecting value"), QT_TR_NOOP("Expecting ',' delimiter"), QT_TR_NOOP("Expecting ':' delimiter"),
             QT_TR_NOOP("Expecting property name enclosed in double quotes"), QT_TR_NOOP("Extra data"),
             QT_TR_NOOP("Unterminated string starting at"), QT_TR_NOOP("Invalid control character at"),
             QT_TR_NOOP("Invalid \\escape"), QT_TR_NOOP("Illegal trailing comma before end of object"),
             QT_TR_NOOP("Illegal trailing comma before end of array"))


def _parse_json(data: bytes, path) -> dict:
    items = data.count(b",") + data.count(b"[") + data.count(b"{")
    if items > MAX_JSON_ITEMS:
        raise problem(path, QT_TR_NOOP("holds {0:,} values and lists, far more than a scenario (at most {1:,} "
                                       "numbers) has"), items, JSON_MAX_VALUES)
    try:
        return json.loads(data.decode("utf-8-sig"), parse_int=_bounded_int)  # -sig: Windows editors add a BOM
    except UnicodeDecodeError:
        raise problem(path, QT_TR_NOOP("not a text file (it is not UTF-8)")) from None
    except json.JSONDecodeError as e:
        said = Phrase(e.msg) if e.msg in JSON_SAYS else e.msg
        raise problem(path, QT_TR_NOOP("broken JSON at line {0}, column {1}: {2}"), e.lineno, e.colno, said) from None
    except RecursionError:
        raise problem(path, QT_TR_NOOP("nested far too deeply to be a scenario")) from None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ScenarioError(QT_TR_NOOP("holds an integer of {0:,} digits; numbers must lie {1}"),
                            len(text.lstrip('-')), RANGE_TEXT)
    return int(text)


def _meta(document) -> dict:
    meta = document.get("autosave") if isinstance(document, dict) else None
    return meta if isinstance(meta, dict) else {}


def _load_npz(path: Path, layer: int) -> tuple[Scenario, dict]:
    arrays = Arrays.of(path, MAX_MODEL_BYTES)
    if HEADER in arrays:
        return _scenario_npz(path, arrays)
    return _model_scenario(path, arrays, layer), {}


def _scenario_npz(path: Path, arrays: Arrays) -> tuple[Scenario, dict]:
    """A scenario saved as .npz: its header document, with the arrays put back in place."""
    info = arrays.info(HEADER)
    if info.ndim != 1 or info.dtype != np.uint8 or info.nbytes > MAX_HEADER_BYTES:
        raise problem(path, QT_TR_NOOP("its scenario header is damaged"))
    document = _parse_json(arrays.read(HEADER).tobytes(), path)
    if not isinstance(document, dict):
        raise problem(path, QT_TR_NOOP("its scenario header is damaged"))
    read = 0

    def array(name, ndim):
        """A numeric array of `ndim` axes, its type and size checked before it is read."""
        nonlocal read
        if name not in arrays:
            raise ScenarioError(QT_TR_NOOP("the array '{0}' is missing"), name)
        info = arrays.info(name)
        if info.dtype.kind not in "iuf" or info.ndim != ndim:
            raise ScenarioError(QT_TR_NOOP("the array '{0}' holds {1} {2}, not numbers of {3} axes"),
                                name, info.dtype, info.shape, ndim)
        read += math.prod(info.shape)
        if read > MAX_VALUES + MAX_GIVEN_CELLS:
            raise ScenarioError(QT_TR_NOOP("holds more than the {0:,} numbers a scenario may have"), MAX_VALUES)
        return arrays.read(name)
    heads = document.get("heads")
    if isinstance(heads, list) and len(heads) <= MAX_HEADS and "weights" not in document and \
            "projection" not in document:
        stacked = {m: array(m, 3) for m in "qkv"} if all(m in arrays for m in "qkv") else None
        if stacked and any(len(a) != len(heads) for a in stacked.values()):
            raise ScenarioError(QT_TR_NOOP("q, k and v hold {0} heads; the scenario has {1}"),
                                len(stacked['q']), len(heads))
        for i, entry in enumerate(heads):
            if isinstance(entry, dict):
                entry.update({m: stacked[m][i] if stacked else array(f"{m}_{i}", 2) for m in "qkv"})
    if "weights" in document:
        document["weights"] = array("weights", 3)
    if isinstance(document.get("projection"), dict):
        document["projection"].update({m: array(f"projection_{m}", 2) for m in PROJECTION_MATRICES})
    return scenario_from_dict(document), _meta(document)


def scenario_from_dict(document) -> Scenario:
    _check_header(document)
    tokens = _list_of_strings(document.get("tokens"), "tokens", MAX_TOKENS)
    settings = _settings(document.get("settings", {}), len(tokens))
    entries = document.get("heads")
    if not isinstance(entries, list):
        raise ScenarioError(QT_TR_NOOP('"heads" must be a list of heads'))
    if len(entries) > MAX_HEADS:
        raise ScenarioError(QT_TR_NOOP("{0} heads is more than the {1} AttnViz shows"), len(entries), MAX_HEADS)
    projection = document.get("projection")
    given = document.get("weights")
    if projection is not None:
        projection = _projection(projection)
        check_projection(projection, tokens, len(entries))
        heads = _derived_heads(projection, entries)
    elif given is not None:
        given = _weights(given, len(entries))
        names = [e.get("name", f"head {i}") if isinstance(e, dict) else f"head {i}" for i, e in enumerate(entries)]
        heads = weights_only_heads(len(names), len(tokens), names)
    else:
        heads = [_head(i, entry) for i, entry in enumerate(entries)]
    return make_scenario(tokens, heads, settings, projection,
                         _texts(document.get("title"), "title"),
                         _texts(document.get("description"), "description"),
                         given=given, layer=_layer_entry(document.get("layer")),
                         note=_texts(document.get("note"), "note"), focus=_focus(document.get("focus"), len(tokens)))


def _focus(value, n: int):
    """The story's query: a whole number here; that it is a token of this scenario is validated
    with the rest (after the heads, whose shapes say more about a broken file)."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ScenarioError(QT_TR_NOOP("\"focus\" must be a token position from 0 to {0}, not {1}"),
                            n - 1, _short(value))
    return value


def _weights(given, n_heads: int) -> np.ndarray:
    """A weights-only scenario's [heads, n, n], each head's matrix checked on its own."""
    if isinstance(given, np.ndarray):
        _matrix(given[:0], "weights", ndim=3)  # its type and axes; make_scenario keeps float32
        return given
    if not isinstance(given, list) or len(given) != n_heads:
        raise ScenarioError(QT_TR_NOOP("\"weights\" must hold one matrix for each of the {0} heads"), n_heads)
    matrices = [_matrix(m, Phrase(QT_TR_NOOP("weights of head {0}"), h)) for h, m in enumerate(given)]
    if len({m.shape for m in matrices}) > 1:
        raise ScenarioError(QT_TR_NOOP("the heads' weight matrices have different shapes"))
    return np.array(matrices) if matrices else np.zeros((0, 0, 0))


def _layer_entry(value):
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2 or
            not all(isinstance(v, int) and not isinstance(v, bool) for v in value) or
            not 0 <= value[0] < value[1] <= MAX_LAYERS):
        raise ScenarioError(QT_TR_NOOP("\"layer\" must be [this layer, number of layers], with at most {0} layers"),
                            MAX_LAYERS)
    return tuple(value)


def _check_header(document) -> None:
    if isinstance(document, dict) and document.get("format") == "attnviz-model-session":
        raise ScenarioError(QT_TR_NOOP("a real model's session, not a scenario: open it with 'attnviz FILE' or run "
                                       "it with 'attnviz model --session FILE'"))
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise ScenarioError(QT_TR_NOOP("not an AttnViz scenario (it needs \"format\": \"{0}\")"), FORMAT_NAME)
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ScenarioError(QT_TR_NOOP("\"version\" must be a whole number, not {0}"), _short(version))
    if version > FORMAT_VERSION:
        raise ScenarioError(QT_TR_NOOP("written by a newer AttnViz (format version {0}); this version reads up "
                                       "to version {1}"), version, FORMAT_VERSION)


def _settings(entry, n: int) -> Settings:
    if not isinstance(entry, dict):
        raise ScenarioError(QT_TR_NOOP('"settings" must be an object'))
    causal, scale = entry.get("causal", True), entry.get("scale", True)
    temperature = entry.get("temperature", 1.0)
    if not isinstance(causal, bool) or not isinstance(scale, bool):
        raise ScenarioError(QT_TR_NOOP('settings: "causal" and "scale" must be true or false'))
    if not _is_number(temperature):
        raise ScenarioError(QT_TR_NOOP("settings: \"temperature\" must be a number, not {0}"),
                            _short(temperature))
    return Settings(causal, scale, float(temperature), _mask(entry.get("mask"), n))


def _mask(entry, n: int):
    """settings.mask: {"kind", "window", "prefix", "padding", "custom"}, checked field by field,
    every size bounded by the number of tokens."""
    if entry is None:
        return None
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        raise ScenarioError(QT_TR_NOOP("settings: \"mask\" must be an object whose \"kind\" is one of {0}"),
                            ", ".join(KINDS))
    window, prefix = entry.get("window", 3), entry.get("prefix", 2)
    padding, custom = entry.get("padding", []), entry.get("custom")
    for key, value in (("window", window), ("prefix", prefix)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_TOKENS:
            raise ScenarioError(QT_TR_NOOP("settings: mask \"{0}\" must be a whole number from 0 to {1}, not {2}"),
                                key, MAX_TOKENS, _short(value))
    if not isinstance(padding, list) or len(padding) > n or \
            not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
        raise ScenarioError(QT_TR_NOOP('settings: mask "padding" must be a list of token positions'))
    if entry["kind"] != "custom":
        custom = None  # a painted mask kept from before is not used by the other kinds
    if custom is not None:
        if (not isinstance(custom, list) or len(custom) != n or
                not all(isinstance(r, list) and len(r) == n and all(x in (0, 1) for x in r) for r in custom)):
            raise ScenarioError(QT_TR_NOOP('settings: mask "custom" must be one row of 0 (hidden) and 1 (visible) '
                                'per token, each as long as there are tokens'))
        custom = as_rows(custom)
    return MaskSpec(entry["kind"], window, prefix, tuple(padding), custom)


def _head(index: int, entry) -> Head:
    if not isinstance(entry, dict):
        raise ScenarioError(QT_TR_NOOP("head {0}: must be an object with name, q, k and v"), index)
    name = entry.get("name", f"head {index}")
    if not isinstance(name, str):
        raise ScenarioError(QT_TR_NOOP("head {0}: \"name\" must be text, not {1}"), index, _short(name))
    where = Phrase(QT_TR_NOOP("head {0} ({1})"), index, shortened(name, 40))
    missing = [m for m in "qkv" if m not in entry]
    if missing:
        raise ScenarioError(QT_TR_NOOP("{0}: {1} missing"), where, ', '.join(missing))
    matrices = {m: _matrix(entry[m], Phrase(QT_TR_NOOP("{0}: {1}"), where, m)) for m in "qkv"}
    return make_head(name, **matrices, labels=_labels(entry, "labels", where),
                     v_labels=_labels(entry, "v_labels", where), names=_names(entry, where))


def _names(entry: dict, where: str | Phrase) -> dict:
    names = entry.get("names", {})
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise ScenarioError(QT_TR_NOOP("{0}: \"names\" must be an object of language -> name"), where)
    return names


def _derived_heads(projection: Projection, entries):
    """In projection mode a head entry carries only its name (and labels): q, k, v are derived."""
    entries = [e if isinstance(e, dict) else {} for e in entries]
    names = [e.get("name", f"head {i}") for i, e in enumerate(entries)]
    if not all(isinstance(n, str) for n in names):
        raise ScenarioError(QT_TR_NOOP('every head\'s "name" must be text'))
    labels = [_labels(e, "labels", Phrase(QT_TR_NOOP("head {0}"), i)) for i, e in enumerate(entries)]
    heads = derive_heads(projection, names, labels)
    return [dataclasses.replace(h, names=_names(e, Phrase(QT_TR_NOOP("head {0}"), i)))
            for i, (h, e) in enumerate(zip(heads, entries))]


def _projection(entry) -> Projection:
    if not isinstance(entry, dict):
        raise ScenarioError(QT_TR_NOOP('"projection" must be an object'))
    matrices = {}
    for name in PROJECTION_MATRICES:
        if name not in entry:
            raise ScenarioError(QT_TR_NOOP("projection: {0} missing"), name)
        matrices[name] = _matrix(entry[name], Phrase(QT_TR_NOOP("projection: {0}"), name))
    n_heads, n_kv = entry.get("n_heads"), entry.get("n_kv_heads")
    for key, value in (("n_heads", n_heads), ("n_kv_heads", n_kv)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_HEADS):
            raise ScenarioError(QT_TR_NOOP("projection: {0} must be a whole number from 1 to {1}, not {2}"),
                                key, MAX_HEADS, _short(value))
    if n_heads is None:
        raise ScenarioError(QT_TR_NOOP("projection: n_heads missing"))
    residual, norm = entry.get("residual", True), entry.get("layer_norm", False)
    positions = entry.get("positions", "none")
    if not isinstance(residual, bool) or not isinstance(norm, bool):
        raise ScenarioError(QT_TR_NOOP('projection: "residual" and "layer_norm" must be true or false'))
    if not isinstance(positions, str):
        raise ScenarioError(QT_TR_NOOP('projection: "positions" must be "none", "sinusoidal" or "rope"'))
    for m in matrices.values():
        m.setflags(write=False)
    return Projection(**matrices, n_heads=n_heads, n_kv_heads=n_kv, residual=residual, layer_norm=norm,
                      positions=positions)


def _matrix(value, where: str | Phrase, ndim: int = 2) -> np.ndarray:
    """A list of equal-length lists of numbers (or, from an .npz, a numeric array) -> float
    array; anything else is refused."""
    if isinstance(value, np.ndarray):
        if value.ndim != ndim or value.dtype.kind not in "iuf":
            raise ScenarioError(QT_TR_NOOP("{0} must be a {1}-D array of numbers, not {2} {3}"),
                                where, ndim, value.dtype, value.shape)
        return value.astype(float)
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise ScenarioError(QT_TR_NOOP("{0} must be a list of rows, each a list of numbers"), where)
    for r, row in enumerate(value):
        for c, x in enumerate(row):
            if not _is_number(x):
                raise ScenarioError(QT_TR_NOOP("{0}, row {1}, column {2}: {3} is not a number (or is too large: "
                                               "values must lie {4})"),
                                    where, r + 1, c + 1, _short(x), RANGE_TEXT)
    widths = {len(row) for row in value}
    if len(widths) > 1:
        raise ScenarioError(QT_TR_NOOP("{0}: rows have different lengths ({1})"), where, sorted(widths)[:5])
    return np.array(value, dtype=float).reshape(len(value), widths.pop() if widths else 0)


def _is_number(x) -> bool:
    """A JSON number that float() can take: no booleans, no 400-digit integers."""
    if isinstance(x, bool):
        return False
    return isinstance(x, float) or (isinstance(x, int) and abs(x) <= MAX_ABS)


def _short(x) -> str:
    text = repr(x)
    return text if len(text) <= 30 else text[:27] + "..."


def _list_of_strings(value, where: str | Phrase, most: int | None = None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ScenarioError(QT_TR_NOOP("\"{0}\" must be a list of strings"), where)
    if most is not None and len(value) > most:
        raise ScenarioError(QT_TR_NOOP("{0:,} {1} is more than the {2:,} AttnViz shows"),
                            len(value), where, most)
    return value


def _labels(entry: dict, key: str, where: str | Phrase) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value) or len(value) > MAX_DIM:
        raise ScenarioError(QT_TR_NOOP("{0}: \"{1}\" must be a list of at most {2} strings"),
                            where, key, MAX_DIM)
    return tuple(value)


def _texts(value, where: str | Phrase):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return value
    raise ScenarioError(QT_TR_NOOP("\"{0}\" must be a string or an object of language -> string"), where)


# ---------------------------------------------------------------- a model's arrays

MODEL_ARRAYS = ("tokens", "q", "k", "v", "weights", "head_names", "causal", "scale", "temperature")
MAX_TOKEN_BYTES = MAX_TOKENS * 4 * 1024  # the tokens array: up to 1,024 characters each


def _load_npy_folder(path: Path, layer: int) -> Scenario:
    """A model dumped with np.save, one file per array: tokens.npy beside q.npy, k.npy, v.npy or
    weights.npy (or layer7_tokens.npy, layer7_weights.npy, ...). Opening any of them opens the
    set; opening weights.npy shows the weights even when q, k, v lie beside it."""
    files, opened = folder_names(path, MODEL_ARRAYS, shared=("tokens", "head_names"))
    return _model_scenario(path, Arrays.of(path, MAX_MODEL_BYTES, files), layer, prefer_weights=opened == "weights")


def _model_scenario(path: Path, arrays: Arrays, layer: int, prefer_weights: bool = False) -> Scenario:
    """tokens (strings) and either q, k, v — (heads, n, d), (n, d), or per head q_0, k_0, v_0 —
    or weights (heads, n, n); a leading axis of layers; optional head_names, causal, scale,
    temperature. Shapes are checked from the headers before any data is read."""
    try:
        tokens = _model_tokens(arrays)
        names = _model_head_names(arrays)
        settings = _model_settings(arrays)
        title = path.stem if path.suffix.lower() != ".npy" else path.parent.name
        has_qkv = all(m in arrays for m in "qkv") or all(f"{m}_0" in arrays for m in "qkv")
        if has_qkv and not (prefer_weights and "weights" in arrays):
            heads, layers = _model_heads(arrays, len(tokens), layer, names)
            return make_scenario(tokens, heads, settings, title=title, layer=(layer, layers) if layers > 1 else None)
        if "weights" not in arrays:
            missing = [m for m in "qkv" if m not in arrays]
            raise ScenarioError(QT_TR_NOOP("no 'weights' array, and no {0} array either (a model's file holds "
                                           "tokens and weights, or tokens and q, k, v)"),
                                ', '.join(repr(m) for m in missing))
        weights, layers = _model_weights(arrays, len(tokens), layer)
        if names and len(names) != len(weights):
            raise ScenarioError(QT_TR_NOOP("{0} head_names for {1} heads"), len(names), len(weights))
        return make_scenario(tokens, weights_only_heads(len(weights), len(tokens), names), settings, title=title,
                             given=weights, layer=(layer, layers) if layers > 1 else None)
    except FileProblem:
        raise
    except ScenarioError as e:
        raise problem(path, e) from None


def _model_tokens(arrays: Arrays) -> list[str]:
    """The token texts: a 1-D array of strings (bytes are read as UTF-8), made visible
    (a tokenizer's "\\n" is shown as ↵) and at most MAX_TOKEN_LENGTH characters."""
    if "tokens" not in arrays:
        raise ScenarioError(QT_TR_NOOP("no 'tokens' array (the token texts are needed)"))
    info = arrays.info("tokens")
    if info.ndim != 1:
        raise ScenarioError(QT_TR_NOOP("'tokens' has shape {0}; it must be one row of token texts"), info.shape)
    if info.dtype.kind not in "US":
        raise ScenarioError(QT_TR_NOOP("'tokens' holds {0} values; it must hold the token texts (strings)"),
                            info.dtype)
    if info.shape[0] > MAX_TOKENS:
        raise ScenarioError(QT_TR_NOOP("{0:,} tokens is more than the {1:,} AttnViz shows"),
                            info.shape[0], MAX_TOKENS)
    if info.nbytes > MAX_TOKEN_BYTES:
        raise ScenarioError(QT_TR_NOOP("'tokens' holds texts far too long to be tokens"))
    return [shortened(visible(t), MAX_TOKEN_LENGTH) for t in _texts_of(arrays.read("tokens", keep=True), "tokens")]


def _texts_of(array: np.ndarray, name: str) -> list[str]:
    if array.dtype.kind == "S":
        try:
            return [t.decode("utf-8") for t in array]
        except UnicodeDecodeError:
            raise ScenarioError(QT_TR_NOOP("'{0}' holds bytes that are not UTF-8 text"), name) from None
    return [str(t) for t in array]


def _model_head_names(arrays: Arrays) -> list[str]:
    if "head_names" not in arrays:
        return []
    info = arrays.info("head_names")
    if info.dtype.kind not in "US" or math.prod(info.shape) > MAX_HEADS or info.nbytes > MAX_TOKEN_BYTES:
        raise ScenarioError(QT_TR_NOOP("'head_names' must be an array of strings, one per head"))
    names = arrays.read("head_names", keep=True).reshape(-1)
    return [shortened(visible(n), MAX_NAME_LENGTH) for n in _texts_of(names, "head_names")]


def _model_settings(arrays: Arrays) -> Settings:
    """causal, scale and temperature as the file states them (a BERT-like encoder's dump says
    causal = false); the defaults otherwise."""
    values = {}
    for name, kinds in (("causal", "b"), ("scale", "b"), ("temperature", "iuf")):
        if name in arrays:
            info = arrays.info(name)
            if info.shape != () or info.dtype.kind not in kinds:
                raise ScenarioError(QT_TR_NOOP("'{0}' must be a single {1}"),
                                    name, 'true or false' if kinds == 'b' else 'number')
            values[name] = arrays.read(name, keep=True).item()
    return Settings(**values)


def _checked(arrays: Arrays, name: str, n: int, last: int | None) -> int:
    """Check the shape of q, k, v or weights from its header: (layers, heads, n, d), (heads, n, d)
    or (n, d), within every limit; return the number of layers."""
    info = arrays.info(name)
    last_name = "n" if name == "weights" else "d"
    if info.dtype.kind not in "iuf":
        raise ScenarioError(QT_TR_NOOP("'{0}' holds {1} values, not numbers"), name, info.dtype)
    if info.ndim not in (2, 3, 4):
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}; it must be (layers, heads, n, {2}), (heads, n, {3}) "
                                       "or (n, {4})"), name, info.shape, last_name, last_name, last_name)
    layers = info.shape[0] if info.ndim == 4 else 1
    heads = info.shape[-3] if info.ndim >= 3 else 1
    rows, width = info.shape[-2:]
    if rows != n:
        raise ScenarioError(QT_TR_NOOP("'{0}' has {1} rows per head but there are {2} tokens"), name, rows, n)
    if name == "weights" and width != n:
        raise ScenarioError(QT_TR_NOOP("'weights' holds {0} × {1} matrices; attention weights are tokens × tokens"),
                            rows, width)
    if not 1 <= heads <= MAX_HEADS or layers > MAX_LAYERS or (name != "weights" and width > MAX_DIM):
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: more heads, layers or dimensions than AttnViz shows "
                                       "(at most {2} heads, {3} layers, {4} dimensions)"),
                            name, info.shape, MAX_HEADS, MAX_LAYERS, MAX_DIM)
    per_layer = heads * rows * width  # what one layer widens to: ≤ 256 MB as float32 (weights), 128 MB (q, k, v)
    if name == "weights" and per_layer > MAX_GIVEN_CELLS:
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: {2} heads of {3:,} tokens is too large to show "
                                       "(heads × tokens² must be at most {4:,})"),
                            name, info.shape, heads, rows, MAX_GIVEN_CELLS)
    if name != "weights" and per_layer > MAX_VALUES // 3:
        raise ScenarioError(QT_TR_NOOP("'{0}' has shape {1}: {2:,} numbers in a layer; q, k and v may hold at most "
                                       "{3:,} each (heads × tokens × d)"),
                            name, info.shape, per_layer, MAX_VALUES // 3)
    if last is not None and layers != last:
        raise ScenarioError(QT_TR_NOOP("q, k and v have different numbers of layers"))
    return layers


def _one_layer(arrays: Arrays, name: str, layer: int, layers: int) -> np.ndarray:
    """[heads, n, d] of one layer, read alone and only then widened: q, k, v to float64 (the
    core computes with them), weights to float32 at least (they are only shown)."""
    if not 0 <= layer < layers:
        raise ScenarioError(QT_TR_NOOP("there is no layer {0}: '{1}' has layers 0 to {2}"),
                            layer, name, layers - 1)
    info = arrays.info(name)
    a = arrays.read(name, layer) if info.ndim == 4 else arrays.read(name)
    wide = np.result_type(a.dtype, np.float32) if name == "weights" else np.float64
    return (a[None] if a.ndim == 2 else a).astype(wide, copy=False)  # read into a buffer of its own


def _model_heads(arrays: Arrays, n: int, layer: int, names: list[str]):
    if all(m in arrays for m in "qkv"):
        layers = _checked(arrays, "q", n, None)
        for m in "kv":
            _checked(arrays, m, n, layers)
        q, k, v = (_one_layer(arrays, m, layer, layers) for m in "qkv")
        if not q.shape[0] == k.shape[0] == v.shape[0]:
            raise ScenarioError(QT_TR_NOOP("q, k and v have {0}, {1}, {2} heads"),
                                q.shape[0], k.shape[0], v.shape[0])
    else:
        count = 0
        while count < MAX_HEADS and all(f"{m}_{count}" in arrays for m in "qkv"):
            count += 1
        for i in range(count):
            for m in "qkv":
                if arrays.info(f"{m}_{i}").ndim != 2 or _checked(arrays, f"{m}_{i}", n, None) != 1:
                    raise ScenarioError(QT_TR_NOOP("'{0}_{1}' has shape {2}; one head's matrix must be (n, d)"),
                                        m, i, arrays.info(f'{m}_{i}').shape)
        q, k, v = ([arrays.read(f"{m}_{i}").astype(float) for i in range(count)] for m in "qkv")
        layers = 1
    if names and len(names) != len(q):
        raise ScenarioError(QT_TR_NOOP("{0} head_names for {1} heads"), len(names), len(q))
    names = head_names(names, len(q))
    return [make_head(names[i], q[i], k[i], v[i]) for i in range(len(q))], layers


def _model_weights(arrays: Arrays, n: int, layer: int):
    layers = _checked(arrays, "weights", n, None)
    weights = _one_layer(arrays, "weights", layer, layers)
    finite = np.isfinite(weights)
    if not finite.all():  # where, only then: argwhere on 3 million cells takes longer than reading them
        h, row, _ = np.argwhere(~finite)[0]
        if layers > 1:
            raise ScenarioError(QT_TR_NOOP("layer {0}, head {1}, row {2}: the weights hold NaN or infinity"),
                                layer, h, row + 1)
        raise ScenarioError(QT_TR_NOOP("head {0}, row {1}: the weights hold NaN or infinity"), h, row + 1)
    weights.setflags(write=False)  # ours alone, frozen: the scenario keeps it without a copy
    return weights, layers


# ---------------------------------------------------------------- data exports

DATA_SUFFIXES = (".csv", ".npz")


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
        atomic_write(path, _npz_writer(scenario_arrays(s, weights)))
    else:
        raise problem(path, QT_TR_NOOP("unknown data format '{0}'; use a name ending in .csv or .npz"),
                            suffix or '(none)')


def data_csv(s: Scenario, weights) -> str:
    """Everything in one tidy table: head, quantity (q, k, v, weight), token, column, value.

    For q, k and v the column is a dimension label; for weight it is the key token.
    """
    out = _io.StringIO()
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
    out = _io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    tokens = [csv_cell(t) for t in s.tokens]
    writer.writerow(["head", "query", *tokens])
    for i in head_indices:
        for token, row in zip(tokens, weights[i]):
            writer.writerow([csv_cell(names[i]), token, *(repr(float(w)) for w in row)])
    return out.getvalue()
