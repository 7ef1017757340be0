"""A real model's session as a document: what the model read, which file it is, every change.

A session is saved as `NAME.attnviz-model.json` (and so is its crash copy):

    {"format": "attnviz-model-session", "version": 1,
     "model": {"path": ..., "sha256": ..., "bytes": ..., "builtin": true|false},
     "text": "...", "ids": [...],                      # the text, and the tokens it was read as
     "chat": true,                                     # only when read in the model's chat template
     "view": {"layer": L, "head": H, "query": Q},      # what was on screen
     "changes": [{"layer": L, "head": H, "off": false, "q": ARRAY | null, "k": null, "v": null}, ...],
     "patch": {"layer": L, "position": P, "x": ARRAY},  # only with a patched residual stream (version 2)
     "steer": {"layer": L, "alpha": A, "start": S, "stop": E | null, "direction": ARRAY},  # only when steered (3)
     "shown": {"scenario": {...}, "q": ARRAY, "k": ARRAY, "v": ARRAY}}  # the layer on screen, plain

where ARRAY is {"shape": [...], "float64": "<base64 of the little-endian values>"}: exact, and
written in milliseconds where lists of decimal numbers took seconds at a few hundred tokens (the
crash copy is written after every edit, and formatting numbers holds Python's lock, so the window).

Opening it runs the model again with every change (`restore`), so the heads of any layer and the
next-token panel come back exactly. The model is the one the session was made with or nothing:
its SHA-256 is checked, and when the file is missing or different the layer that was shown can
still be opened as a plain scenario (`shown`), so the numbers on screen are never lost.
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import math
import os
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

import numpy as np

from . import lm
from .files import atomic_write, open_regular, problem, read_limited, regular_file
from .formats.document import scenario_from_dict, scenario_to_dict
from .formats.scenario_json import JSON_MAX_VALUES, MAX_FILE_BYTES, parse_json, to_json_text
from .io import reading
from .lm import bundled_model
from .lm.hf_folder import read_files
from .messages import QT_TR_NOOP, Phrase
from .numbers import MAX_ABS, RANGE_TEXT
from .scenario import (
    CHANGED,
    MAX_DIM,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_TOKENS,
    MAX_VALUES,
    Change,
    Scenario,
    ScenarioError,
    Steer,
    StreamPatch,
)

FORMAT_NAME = "attnviz-model-session"
FORMAT_VERSION = 3  # 2: a patched residual stream ("patch"); 3: a steer; a session with neither is written as 1
SUFFIX = ".attnviz-model.json"
MAX_TEXT_CHARS = 1_000_000   # far above what a model reads; the model's own limit is checked on restore
MAX_CHANGES = MAX_LAYERS * MAX_HEADS
MODEL_MAX_BYTES = 1 << 40   # a model file hashed: any real one; the check is that it is a file at all
MATRICES = ("q", "k", "v")


@dataclass(frozen=True)
class ModelFile:
    path: str            # where the model was read from
    sha256: str
    bytes: int
    builtin: bool        # the built-in model: found where this AttnViz keeps it, not at `path`


@dataclass(frozen=True)
class View:
    layer: int
    head: int
    query: int


@dataclass(frozen=True, eq=False)
class Session:
    model: ModelFile
    text: str
    ids: tuple[int, ...]
    view: View
    changes: tuple      # ((layer, head, Change), ...), sorted, as Live.changes
    shown: dict | None  # the layer on screen as a scenario document, or None (too large to keep)
    chat: bool = False  # the text was read in the model's chat template
    patch: StreamPatch | None = None  # the residual stream patched at one position, as Live.patch
    steer: Steer | None = None        # a direction added to the residual stream, as Live.steer


class ModelMismatch(ScenarioError):
    """The session's model file is missing or not the one it was made with."""


def is_session_path(path) -> bool:
    return str(path).lower().endswith(SUFFIX)


def session_path(path: str) -> str:
    """`path` with the session's own suffix (lesson.json -> lesson.attnviz-model.json)."""
    if is_session_path(path):
        return path
    stem, suffix = os.path.splitext(path)
    return (stem if suffix.lower() in (".json", ".npz") else path) + SUFFIX


# ---------------------------------------------------------------- the model file's identity

_hashes: dict = {}
_hashes_lock = threading.Lock()


def model_file(path, builtin: bool) -> ModelFile:
    """The model file's identity; its SHA-256 is worked out once per file version (a 100 MB model
    takes a few tenths of a second), then remembered."""
    path = os.path.abspath(str(path))
    key = (path, lm.catalog.stamps(path))
    with _hashes_lock:
        known = _hashes.get(key)
    if known is None:
        known = _folder_digest(path) if os.path.isdir(path) else _file_digest(path)
        with _hashes_lock:
            _hashes[key] = known
    return ModelFile(path, known[0], known[1], builtin)


def _size(path: str) -> int:
    """What _file_digest or _folder_digest would count, from the files' sizes alone."""
    if os.path.isdir(path):
        return sum(regular_file(f).st_size for f in read_files(path))
    return regular_file(path).st_size


def _file_digest(path: str) -> tuple[str, int]:
    """A regular file's SHA-256 and size: a FIFO or a device (a session may name /dev/zero) is refused
    before a byte is read, and no more than the size it claims is read (a /proc file claims 0 and
    never ends): never hashed for ever."""
    digest, size = hashlib.sha256(), 0
    try:
        with open_regular(path, MODEL_MAX_BYTES) as f:
            claimed = os.fstat(f.fileno()).st_size
            while block := f.read(min(1 << 20, claimed + 1 - size)):
                digest.update(block)
                size += len(block)
    except OSError as e:
        raise problem(path, QT_TR_NOOP("cannot be read ({0})"), e.strerror or e) from None
    if size != claimed:
        raise problem(path, QT_TR_NOOP("is not a regular file: AttnViz opens files only"))
    return digest.hexdigest(), size


def _folder_digest(path: str) -> tuple[str, int]:
    """A Hugging Face folder's identity: the SHA-256 of its files' names and SHA-256s, and their size."""
    digest, size = hashlib.sha256(), 0
    for file in read_files(path):
        sha, n = _file_digest(str(file))
        digest.update(f"{file.name}\0{sha}\n".encode())
        size += n
    return digest.hexdigest(), size


# ---------------------------------------------------------------- writing

def session_of(s: Scenario, head: int, query: int, model: ModelFile) -> Session:
    """The session a live scenario belongs to, as the user sees it now."""
    live = s.live
    if live is None:
        raise ValueError("session_of: the scenario is not a real model's")
    shown = {"scenario": scenario_to_dict(s, with_arrays=False),
             **{m: np.stack([h.matrix(m) for h in s.heads]) for m in MATRICES}}
    return Session(model, live.text, tuple(live.ids), View(live.layer, head, query), tuple(live.changes), shown,
                   live.chat, live.patch, live.steer)


def to_document(session: Session, meta: dict | None = None) -> dict:
    m = session.model
    document = {
        "format": FORMAT_NAME, "version": _version(session),
        "model": {"path": m.path, "sha256": m.sha256, "bytes": m.bytes, "builtin": m.builtin},
        "text": session.text, "ids": list(session.ids),
        "view": {"layer": session.view.layer, "head": session.view.head, "query": session.view.query},
        "changes": [_change_entry(layer, head, change) for layer, head, change in session.changes],
    }
    if session.chat:
        document["chat"] = True
    if session.patch is not None:
        p = session.patch
        document["patch"] = {"layer": p.layer, "position": p.position, "x": _array_entry(p.x)}
    if session.steer is not None:
        t = session.steer
        document["steer"] = {"layer": t.layer, "alpha": t.alpha, "start": t.start, "stop": t.stop,
                             "direction": _array_entry(t.direction)}
    if session.shown is not None:
        document["shown"] = {"scenario": session.shown["scenario"],
                             **{m: _array_entry(session.shown[m]) for m in MATRICES}}
    if meta:
        document["autosave"] = meta
    return document


def _version(session: Session) -> int:
    """The oldest version that holds what the session has: older AttnViz read what they can."""
    return 3 if session.steer is not None else 2 if session.patch is not None else 1


def _change_entry(layer: int, head: int, change: Change) -> dict:
    return {"layer": layer, "head": head, "off": change.off,
            **{m: None if getattr(change, m) is None else _array_entry(getattr(change, m)) for m in CHANGED}}


def _array_entry(a: np.ndarray) -> dict:
    a = np.ascontiguousarray(a, dtype="<f8")
    return {"shape": list(a.shape), "float64": base64.b64encode(a.tobytes()).decode("ascii")}


def save_session(session: Session, path, meta: dict | None = None, private: bool = False, replace=None) -> None:
    """Write the session atomically (see core.files.atomic_write)."""
    values = sum(getattr(c, m).size for _, _, c in session.changes for m in CHANGED if getattr(c, m) is not None)
    values += 0 if session.patch is None else session.patch.x.size
    values += 0 if session.steer is None else session.steer.direction.size
    if values > JSON_MAX_VALUES:
        raise problem(path, QT_TR_NOOP("the changes hold {0:,} numbers, more than a session file keeps ({1:,})"),
                      values, JSON_MAX_VALUES)
    atomic_write(path, to_json_text(to_document(session, meta)).encode("utf-8"), private, replace)


# ---------------------------------------------------------------- reading

def looks_like_session(path, by_name: bool = True) -> bool:
    """True for a file holding a session, by its name (unless not `by_name`) or, for crash copies, its first
    bytes."""
    if by_name and is_session_path(path):
        return True
    try:
        with open_regular(path, MAX_FILE_BYTES) as f:  # a pipe or a device is no session: never blocks
            head = f.read(256)
    except (ScenarioError, OSError):
        return False
    return f'"format": "{FORMAT_NAME}"'.encode() in head


def read_session(path) -> tuple[Session, dict]:
    """(session, the document's "autosave" entry or {}); every failure is a FileProblem."""
    with reading(path):
        document = parse_json(read_limited(path, MAX_FILE_BYTES), path)
        session = from_document(document)
    return _model_beside(session, path), _meta(document)


def _model_beside(session: Session, path) -> Session:
    """A relative model path (written by hand, or the session and its model moved together) read from the
    session file's folder, not from wherever AttnViz was started."""
    model = session.model
    if os.path.isabs(model.path):
        return session
    found = os.path.join(os.path.dirname(os.path.abspath(str(path))), model.path)
    return dataclasses.replace(session, model=dataclasses.replace(model, path=found))


def from_document(document) -> Session:
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise ScenarioError(QT_TR_NOOP("not a real model's session (it needs \"format\": \"{0}\")"), FORMAT_NAME)
    version = document.get("version")
    if not _whole(version, 1):
        raise ScenarioError(QT_TR_NOOP("\"version\" must be a whole number, not {0}"), repr(version)[:30])
    if version > FORMAT_VERSION:
        raise ScenarioError(QT_TR_NOOP("written by a newer AttnViz (format version {0}); this version reads up "
                                       "to version {1}"), version, FORMAT_VERSION)
    text = document.get("text")
    if not isinstance(text, str) or not text or len(text) > MAX_TEXT_CHARS:
        raise ScenarioError(QT_TR_NOOP("\"text\" must be the text the model read (at most {0:,} characters)"),
                            MAX_TEXT_CHARS)
    ids = document.get("ids")
    if not isinstance(ids, list) or not 0 < len(ids) <= 4 * MAX_TOKENS or not all(_whole(i, 0) for i in ids):
        raise ScenarioError(QT_TR_NOOP("\"ids\" must be the token ids the model read"))
    chat = document.get("chat", False)
    if not isinstance(chat, bool):
        raise ScenarioError(QT_TR_NOOP("\"chat\" must be true or false"))
    shown = _shown(document.get("shown"))
    if version == 1 and "patch" in document:  # written only with version 2: a version 1 file that has one was not
        raise ScenarioError(QT_TR_NOOP("a version 1 session has no \"patch\" (patches came with version 2)"))
    if version < 3 and "steer" in document:
        raise ScenarioError(QT_TR_NOOP("a version {0} session has no \"steer\" (steering came with version 3)"),
                            version)
    return Session(_model_entry(document.get("model")), text, tuple(ids), _view(document.get("view")),
                   _changes(document.get("changes")), shown, chat, _patch(document.get("patch")),
                   _steer(document.get("steer")))


def _whole(x, low: int, high: int = 1 << 31) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x < high


def _model_entry(entry) -> ModelFile:
    ok = isinstance(entry, dict) and isinstance(entry.get("path"), str) and 0 < len(entry["path"]) <= 4096 \
        and isinstance(entry.get("sha256"), str) and len(entry["sha256"]) == 64 \
        and _whole(entry.get("bytes"), 0, 1 << 50) and isinstance(entry.get("builtin", False), bool)
    if not ok:
        raise ScenarioError(QT_TR_NOOP("\"model\" must name the model file: its path, SHA-256 and size"))
    return ModelFile(entry["path"], entry["sha256"].lower(), entry["bytes"], entry.get("builtin", False))


def _view(entry) -> View:
    if not isinstance(entry, dict) or not all(_whole(entry.get(k), 0, 1 << 16) for k in ("layer", "head", "query")):
        raise ScenarioError(QT_TR_NOOP("\"view\" must give the layer, head and query shown"))
    return View(entry["layer"], entry["head"], entry["query"])


def _changes(entries) -> tuple:
    if not isinstance(entries, list) or len(entries) > MAX_CHANGES:
        raise ScenarioError(QT_TR_NOOP("\"changes\" must be a list of at most {0:,} changed heads"), MAX_CHANGES)
    out = {}
    for entry in entries:
        if not isinstance(entry, dict) or not _whole(entry.get("layer"), 0, MAX_LAYERS) \
                or not _whole(entry.get("head"), 0, MAX_HEADS) or not isinstance(entry.get("off", False), bool):
            raise ScenarioError(QT_TR_NOOP("each change must give its layer, head and whether it is off"))
        layer, head = entry["layer"], entry["head"]
        if (layer, head) in out:  # which of the two the user meant, no one can tell
            raise ScenarioError(QT_TR_NOOP("\"changes\" names layer {0} head {1} twice"), layer, head)
        where = Phrase(QT_TR_NOOP("layer {0} head {1}"), layer, head)
        given = {m: None if entry.get(m) is None else _array(entry[m], Phrase(QT_TR_NOOP("{0}: {1}"), where, m), 2)
                 for m in CHANGED}
        out[(layer, head)] = Change(off=entry.get("off", False), **given)
    return tuple((layer, head, change) for (layer, head), change in sorted(out.items()))


def _patch(entry) -> StreamPatch | None:
    if entry is None:
        return None
    if not isinstance(entry, dict) or not _whole(entry.get("layer"), 0, MAX_LAYERS) or \
            not _whole(entry.get("position"), 0, 4 * MAX_TOKENS):
        raise ScenarioError(QT_TR_NOOP("\"patch\" must give the layer, the position and the residual stream there"))
    x = _array(entry.get("x"), Phrase(QT_TR_NOOP("{0}: {1}"), "patch", "x"), 1).astype(np.float32)
    return StreamPatch(entry["layer"], entry["position"], x)


def _steer(entry) -> Steer | None:
    if entry is None:
        return None
    stop = entry.get("stop") if isinstance(entry, dict) else None
    alpha = entry.get("alpha") if isinstance(entry, dict) else None
    if not isinstance(entry, dict) or not _whole(entry.get("layer"), 0, MAX_LAYERS) or \
            not _whole(entry.get("start"), 0, 4 * MAX_TOKENS) or not (stop is None or _whole(stop, 1, 4 * MAX_TOKENS)) \
            or not (isinstance(alpha, (int, float)) and not isinstance(alpha, bool) and abs(alpha) <= MAX_ABS):
        raise ScenarioError(QT_TR_NOOP("\"steer\" must give the layer, α ({0}), the first and last positions "
                                       "and the direction"), RANGE_TEXT)
    direction = _array(entry.get("direction"), Phrase(QT_TR_NOOP("{0}: {1}"), "steer", "direction"), 1)
    return Steer(entry["layer"], direction.astype(np.float32), float(alpha), entry["start"], stop)  # checks its size


def _array(entry, where, ndim: int) -> np.ndarray:
    """An ARRAY entry: its shape checked before its data is decoded, then finite numbers within
    AttnViz's range, read-only."""
    shape = entry.get("shape") if isinstance(entry, dict) else None
    data = entry.get("float64") if isinstance(entry, dict) else None
    high = max(MAX_TOKENS, MAX_DIM, MAX_HEADS) + 1
    if not (isinstance(shape, list) and len(shape) == ndim and all(_whole(x, 0, high) for x in shape)
            and math.prod(shape) <= MAX_VALUES
            and isinstance(data, str) and len(data) == 4 * -(-8 * math.prod(shape) // 3)):
        raise ScenarioError(QT_TR_NOOP("{0} must be an array of {1} axes: its shape and its values in base64"),
                            where, ndim)
    try:
        a = np.frombuffer(base64.b64decode(data, validate=True), dtype="<f8").reshape(shape)
    except (binascii.Error, ValueError):
        raise ScenarioError(QT_TR_NOOP("{0} must be an array of {1} axes: its shape and its values in base64"),
                            where, ndim) from None
    if a.size and not (np.all(np.isfinite(a)) and np.abs(a).max() <= MAX_ABS):
        raise ScenarioError(QT_TR_NOOP("{0}: a value is not a number (or is too large: values must lie {1})"),
                            where, RANGE_TEXT)
    return a


def _shown(entry) -> dict | None:
    """The layer on screen: a scenario's header and its heads' q, k, v; checked now, so the
    fallback opens when it is needed."""
    if entry is None:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("scenario"), dict):
        raise ScenarioError(QT_TR_NOOP("\"shown\" must hold the layer shown as a scenario"))
    shown = {"scenario": entry["scenario"],
             **{m: _array(entry.get(m), Phrase(QT_TR_NOOP("{0}: {1}"), "shown", m), 3) for m in MATRICES}}
    _shown_scenario(shown)
    return shown


def _shown_scenario(shown: dict) -> Scenario:
    document = dict(shown["scenario"])
    heads = document.get("heads")
    if not isinstance(heads, list) or not all(isinstance(h, dict) for h in heads) or \
            any(len(shown[m]) != len(heads) for m in MATRICES):
        raise ScenarioError(QT_TR_NOOP("\"shown\" must hold the layer shown as a scenario"))
    document["heads"] = [{**h, **{m: shown[m][i] for m in MATRICES}} for i, h in enumerate(heads)]
    return scenario_from_dict(document)


def _meta(document) -> dict:
    meta = document.get("autosave")
    return meta if isinstance(meta, dict) else {}


# ---------------------------------------------------------------- opening it again

def model_path(session: Session, bundled) -> Path | None:
    """Where the session's model is: the built-in one here, or the file it named."""
    return Path(bundled) if session.model.builtin and bundled is not None else Path(session.model.path)


def check_model(session: Session, path) -> ModelFile:
    """The model file at `path`, if it is the session's; ModelMismatch saying why otherwise."""
    if path is None or not os.path.exists(path):
        raise ModelMismatch(QT_TR_NOOP("the model file {0} is not there"), session.model.path)
    if _size(str(path)) != session.model.bytes:  # told in a moment, where hashing 100 GB would take minutes
        raise ModelMismatch(QT_TR_NOOP("the model file {0} is not the one this session was made with "
                                       "(its size differs)"), str(path))
    found = model_file(path, session.model.builtin)
    if found.sha256 != session.model.sha256:
        raise ModelMismatch(QT_TR_NOOP("the model file {0} is not the one this session was made with "
                                       "(its SHA-256 differs)"), str(path))
    return found


def checked_changes(session: Session, n_layers: int, n_heads: int, n: int, d_head: int) -> tuple:
    """The session's changes, each checked against the model's sizes and the text's length."""
    for layer, head, change in session.changes:
        if layer >= n_layers or head >= n_heads:
            raise ScenarioError(QT_TR_NOOP("a change to layer {0} head {1}: the model has {2} layers of {3} heads"),
                                layer, head, n_layers, n_heads)
        for m in CHANGED:
            given = getattr(change, m)
            if given is not None and given.shape != (n, d_head):
                raise ScenarioError(QT_TR_NOOP("layer {0} head {1}: {2} has shape {3}, not {4}"),
                                    layer, head, m, given.shape, (n, d_head))
    if not (session.view.layer < n_layers and session.view.head < n_heads and session.view.query < n):
        raise ScenarioError(QT_TR_NOOP("the layer, head or query shown is not in the model"))
    return session.changes


def checked_patch(session: Session, n_layers: int, n: int, d: int) -> StreamPatch | None:
    """The session's patch of the residual stream, checked against the model's sizes and the text's length."""
    p = session.patch
    if p is not None and not (p.layer < n_layers and p.position < n):
        raise ScenarioError(QT_TR_NOOP("the patch of layer {0} at position {1}: the model has {2} layers and the "
                                       "text {3} tokens"), p.layer, p.position, n_layers, n)
    if p is not None and p.x.shape != (d,):
        raise ScenarioError(QT_TR_NOOP("the patch's residual stream has shape {0}, not {1}"), p.x.shape, (d,))
    return p


def checked_steer(session: Session, n_layers: int, n: int, d: int) -> Steer | None:
    """The session's steer, checked against the model's sizes and the text's length."""
    t = session.steer
    if t is not None and not (t.layer < n_layers and t.start < (n if t.stop is None else t.stop) <= n):
        raise ScenarioError(QT_TR_NOOP("the steer of layer {0} at positions {1} to {2}: the model has {3} layers and "
                                       "the text {4} tokens"), t.layer, t.start, "…" if t.stop is None else t.stop - 1,
                            n_layers, n)
    if t is not None and t.direction.shape != (d,):
        raise ScenarioError(QT_TR_NOOP("the steer's direction has shape {0}, not {1}"), t.direction.shape, (d,))
    return t


def shown_scenario(session: Session) -> Scenario:
    """The layer that was on screen, as a plain scenario (when the model cannot be had)."""
    if session.shown is None:
        raise ScenarioError(QT_TR_NOOP("this session did not keep the layer shown"))
    return _shown_scenario(session.shown)


_identities: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a loaded model -> (lock, its identity)


def identity(model) -> ModelFile:
    """The identity of a loaded model's file (core.lm.Model), the built-in one marked as such: worked out once
    for the model as it was loaded (a window's worker does it after the first run), so that the file moved,
    deleted or replaced since changes nothing a session says, and a second thread asking waits for the first
    rather than reading the file again. A file that changed since the model was loaded is refused."""
    with _hashes_lock:
        lock, known = _identities.setdefault(model, (threading.Lock(), []))
    with lock:
        if not known:
            if model.stamp is not None and lm.catalog.stamps(str(model.path)) != model.stamp:
                raise ModelMismatch(QT_TR_NOOP("{0}: the model file has changed since it was loaded: load it again "
                                               "to save a session of it"), str(model.path))
            bundled = bundled_model()
            builtin = bundled is not None and os.path.realpath(bundled) == os.path.realpath(model.path)
            known.append(model_file(model.path, builtin))
        return known[0]


def restore(session: Session, load):
    """Run the session's model again with every change: (model, encoded text, the model as it is,
    the run with the changes). `load(path)` loads a model (None: the built-in one), so a window can
    keep the models it has loaded. ModelMismatch when the file is missing or another."""
    path = None if session.model.builtin else session.model.path
    check_model(session, lm.bundled_model() if path is None else path)
    model = load(path)
    encoded = lm.encode(model, session.text, chat=session.chat)
    if encoded.ids != session.ids:
        raise ModelMismatch(QT_TR_NOOP("the model reads the session's text as other tokens than when it was "
                                       "saved"))
    c = model.config
    changes = checked_changes(session, c.n_layers, c.n_heads, len(encoded.ids), c.d_head)
    patch = checked_patch(session, c.n_layers, len(encoded.ids), c.d)
    steer = checked_steer(session, c.n_layers, len(encoded.ids), c.d)
    baseline = lm.run(model, encoded.ids)
    edited = changes or patch or steer
    result = lm.run(model, encoded.ids, changes, after=baseline, patch=patch, steer=steer) if edited else baseline
    return model, encoded, baseline, result
