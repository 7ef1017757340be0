"""A Scenario as a document (a dict of JSON values) and back: the schema of every scenario file.

scenario_to_dict writes what a .json scenario holds (or, without its arrays, the header of a
scenario .npz); scenario_from_dict checks every field before it builds anything and names the
place of the first that is wrong. What a document may hold is bounded by the limits of
core/scenario.py.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..masks import KINDS, MaskSpec, as_rows
from ..messages import QT_TR_NOOP, Phrase
from ..numbers import MAX_ABS, RANGE_TEXT
from ..scenario import (
    MAX_DIM,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_TOKENS,
    PROJECTION_MATRICES,
    Head,
    Projection,
    Scenario,
    ScenarioError,
    Settings,
    check_projection,
    derive_heads,
    make_head,
    make_scenario,
    weights_only_heads,
)
from ..text import shortened

FORMAT_NAME = "attnviz-scenario"
FORMAT_VERSION = 1


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
    if s.given is not None:
        document["weights"] = s.given.tolist() if with_arrays else "array"  # a model's, as loaded
    if s.layer is not None:
        document["layer"] = list(s.layer)
    if s.note:
        document["note"] = dict(s.note)
    if s.focus is not None:
        document["focus"] = s.focus
    if derived and s.projection is not None:
        p = s.projection
        document["projection"] = {
            **{name: getattr(p, name).tolist() if with_arrays else "array" for name in PROJECTION_MATRICES},
            "n_heads": p.n_heads, "n_kv_heads": p.n_kv_heads, "residual": p.residual,
            "layer_norm": p.layer_norm, "positions": p.positions,
        }
    return document


def _settings_to_dict(settings: Settings) -> dict:
    entry: dict[str, Any] = {"causal": settings.causal, "scale": settings.scale, "temperature": settings.temperature}
    m = settings.mask
    if m is not None:
        entry["mask"] = {"kind": m.kind, "window": m.window, "prefix": m.prefix, "padding": list(m.padding)}
        if m.custom is not None:
            entry["mask"]["custom"] = [[int(x) for x in row] for row in m.custom]
    return entry


def _head_to_dict(h: Head, with_vectors: bool) -> dict:
    entry: dict[str, Any] = {"name": h.name}
    if h.names:
        entry["names"] = dict(h.names)
    if h.labels:
        entry["labels"] = list(h.labels)
    if h.v_labels:
        entry["v_labels"] = list(h.v_labels)
    if with_vectors:
        entry.update(q=h.q.tolist(), k=h.k.tolist(), v=h.v.tolist())
    return entry


def meta_of(document) -> dict:
    """The document's "autosave" entry (where a crash copy came from, and when), or {}."""
    meta = document.get("autosave") if isinstance(document, dict) else None
    return meta if isinstance(meta, dict) else {}


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
        custom = as_rows(np.array(custom))
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
