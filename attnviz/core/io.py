"""Scenario files (JSON), q/k/v from .npz, weights as JSON or CSV.

Reading never unpickles and never evaluates anything; every failure is a
ScenarioError whose message names the file and the problem. Writing goes to a
temporary file in the same folder that is then renamed over the target, so a
crash or a full disk never leaves half a file.
"""
from __future__ import annotations

import csv
import dataclasses
import io as _io
import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from .masks import KINDS, MaskSpec, as_rows
from .numbers import MAX_ABS, RANGE_TEXT
from .scenario import (PROJECTION_MATRICES, Head, Projection, Scenario, ScenarioError, Settings,
                       check_projection, derive_heads, head_names, make_head, make_scenario, same_shapes,
                       weights_only_heads)

FORMAT_NAME = "attnviz-scenario"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 100 * 1024 * 1024  # far above any real scenario; refuses runaway files
# A model's file holds every layer (one is shown at a time): 24 layers × 16 heads × 512
# tokens of float32 fit; a hostile header still cannot make AttnViz allocate beyond it.
MAX_MODEL_BYTES = 1024 * 1024 * 1024


# ---------------------------------------------------------------- atomic writing

def atomic_write(path, data: bytes) -> None:
    """Write all of `data` to `path` or leave `path` as it was."""
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)  # write through a link
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ScenarioError(f"{path}: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise ScenarioError(f"{path}: cannot write in {folder} ({e.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(path))  # mkstemp makes 0600; a saved file should not be private
        os.replace(tmp, path)
        _sync_folder(folder)
    except OSError as e:
        _remove_quietly(tmp)
        raise ScenarioError(f"{path}: could not be written ({e.strerror or e})") from None
    except BaseException:
        _remove_quietly(tmp)
        raise


def _mode_for(path: Path) -> int:
    """The replaced file's permissions, or what a new file gets under the user's umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_quietly(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# ---------------------------------------------------------------- JSON scenario files

def save_scenario(s: Scenario, path) -> None:
    atomic_write(path, to_json_text(scenario_to_dict(s)).encode("utf-8"))


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


def load_scenario(path, layer: int = 0) -> Scenario:
    """A scenario from a .json scenario file, or a model's attention from a .npz (or a folder
    of .npy files): tokens, and q, k, v or weights, optionally for several layers."""
    path = Path(path)
    if path.suffix.lower() == ".npy":
        return _scenario_from_arrays(path, _npy_folder(path), layer)
    data = _read_bytes(path)
    if path.suffix.lower() == ".npz":
        return _scenario_from_arrays(path, _npz_arrays(path, data), layer)
    try:
        document = json.loads(data.decode("utf-8-sig"))  # -sig: Windows editors add a BOM
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a text file (it is not UTF-8)") from None
    except json.JSONDecodeError as e:
        raise ScenarioError(f"{path}: broken JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: nested far too deeply to be a scenario") from None
    try:
        return scenario_from_dict(document)
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None
    except (OverflowError, MemoryError, RecursionError) as e:
        raise ScenarioError(f"{path}: holds values too large to use ({type(e).__name__})") from None


def _read_bytes(path: Path) -> bytes:
    limit = MAX_MODEL_BYTES if path.suffix.lower() == ".npz" else MAX_FILE_BYTES
    try:
        if path.is_dir():
            raise ScenarioError(f"{path}: is a folder, not a scenario file")
        size = path.stat().st_size
        if size > limit:
            raise ScenarioError(f"{path}: {size / 2**20:.0f} MB is too large (the most is "
                                f"{limit // 2**20} MB): save fewer layers or tokens, or float32")
        return path.read_bytes()
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except PermissionError:
        raise ScenarioError(f"{path}: permission denied (the file cannot be read)") from None
    except OSError as e:
        raise ScenarioError(f"{path}: cannot be read ({e.strerror or e})") from None


def scenario_to_dict(s: Scenario) -> dict:
    derived = s.projection is not None
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "title": dict(s.title),
        "description": dict(s.description),
        "tokens": list(s.tokens),
        "settings": _settings_to_dict(s.settings),
        "heads": [_head_to_dict(h, with_vectors=not (derived or s.weights_only)) for h in s.heads],
    }
    if s.weights_only:
        document["weights"] = s.given.tolist()  # a model's weights, kept as they were loaded
    if s.layer is not None:
        document["layer"] = list(s.layer)
    if derived:
        p = s.projection
        document["projection"] = {
            **{name: getattr(p, name).tolist() for name in PROJECTION_MATRICES},
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


def scenario_from_dict(document) -> Scenario:
    _check_header(document)
    tokens = _list_of_strings(document.get("tokens"), "tokens")
    settings = _settings(document.get("settings", {}))
    entries = document.get("heads")
    if not isinstance(entries, list):
        raise ScenarioError('"heads" must be a list of heads')
    projection = document.get("projection")
    given = document.get("weights")
    if projection is not None:
        projection = _projection(projection)
        check_projection(projection, tokens, len(entries))
        heads = _derived_heads(projection, entries)
    elif given is not None:
        given = np.array([_matrix(m, f"weights of head {h}") for h, m in enumerate(given)]) \
            if isinstance(given, list) else _matrix(given, "weights")
        names = [e.get("name", f"head {i}") if isinstance(e, dict) else f"head {i}" for i, e in enumerate(entries)]
        heads = weights_only_heads(len(names), len(tokens), names)
    else:
        heads = [_head(i, entry) for i, entry in enumerate(entries)]
    return make_scenario(tokens, heads, settings, projection,
                         _texts(document.get("title"), "title"),
                         _texts(document.get("description"), "description"),
                         given=given, layer=_layer_entry(document.get("layer")))


def _layer_entry(value):
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2 or
            not all(isinstance(v, int) and not isinstance(v, bool) for v in value) or not 0 <= value[0] < value[1]):
        raise ScenarioError('"layer" must be [this layer, number of layers]')
    return tuple(value)


def _check_header(document) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise ScenarioError(f'not an AttnViz scenario (it needs "format": "{FORMAT_NAME}")')
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ScenarioError(f'"version" must be a whole number, not {version!r}')
    if version > FORMAT_VERSION:
        raise ScenarioError(f"written by a newer AttnViz (format version {version}); "
                            f"this version reads up to version {FORMAT_VERSION}")


def _settings(entry) -> Settings:
    if not isinstance(entry, dict):
        raise ScenarioError('"settings" must be an object')
    causal, scale = entry.get("causal", True), entry.get("scale", True)
    temperature = entry.get("temperature", 1.0)
    if not isinstance(causal, bool) or not isinstance(scale, bool):
        raise ScenarioError('settings: "causal" and "scale" must be true or false')
    if not _is_number(temperature):
        raise ScenarioError(f'settings: "temperature" must be a number, not {temperature!r}')
    return Settings(causal, scale, float(temperature), _mask(entry.get("mask")))


def _mask(entry):
    """settings.mask: {"kind", "window", "prefix", "padding", "custom"}, checked field by field."""
    if entry is None:
        return None
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        raise ScenarioError(f'settings: "mask" must be an object whose "kind" is one of {", ".join(KINDS)}')
    window, prefix = entry.get("window", 3), entry.get("prefix", 2)
    padding, custom = entry.get("padding", []), entry.get("custom")
    for key, value in (("window", window), ("prefix", prefix)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ScenarioError(f'settings: mask "{key}" must be a whole number, not {value!r}')
    if not isinstance(padding, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
        raise ScenarioError('settings: mask "padding" must be a list of token positions')
    if custom is not None:
        if (not isinstance(custom, list) or not all(isinstance(r, list) and all(x in (0, 1) for x in r)
                                                    for r in custom) or len({len(r) for r in custom}) > 1):
            raise ScenarioError('settings: mask "custom" must be equal rows of 0 (hidden) and 1 (visible)')
        custom = as_rows(custom) if entry["kind"] == "custom" else None
    return MaskSpec(entry["kind"], window, prefix, tuple(padding), custom)


def _head(index: int, entry) -> Head:
    if not isinstance(entry, dict):
        raise ScenarioError(f"head {index}: must be an object with name, q, k and v")
    name = entry.get("name", f"head {index}")
    where = f"head {index} ({name})"
    missing = [m for m in "qkv" if m not in entry]
    if missing:
        raise ScenarioError(f"{where}: {', '.join(missing)} missing")
    matrices = {m: _matrix(entry[m], f"{where}: {m}") for m in "qkv"}
    return make_head(name, **matrices, labels=_labels(entry, "labels", where),
                     v_labels=_labels(entry, "v_labels", where), names=_names(entry, where))


def _names(entry: dict, where: str) -> dict:
    names = entry.get("names", {})
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise ScenarioError(f'{where}: "names" must be an object of language -> name')
    return names


def _derived_heads(projection: Projection, entries):
    """In projection mode a head entry carries only its name (and labels): q, k, v are derived."""
    entries = [e if isinstance(e, dict) else {} for e in entries]
    names = [e.get("name", f"head {i}") for i, e in enumerate(entries)]
    labels = [_labels(e, "labels", f"head {i}") for i, e in enumerate(entries)]
    heads = derive_heads(projection, names, labels)
    return [dataclasses.replace(h, names=_names(e, f"head {i}")) for i, (h, e) in enumerate(zip(heads, entries))]


def _projection(entry) -> Projection:
    if not isinstance(entry, dict):
        raise ScenarioError('"projection" must be an object')
    matrices = {}
    for name in PROJECTION_MATRICES:
        if name not in entry:
            raise ScenarioError(f"projection: {name} missing")
        matrices[name] = _matrix(entry[name], f"projection: {name}")
    n_heads, n_kv = entry.get("n_heads"), entry.get("n_kv_heads")
    for key, value in (("n_heads", n_heads), ("n_kv_heads", n_kv)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise ScenarioError(f"projection: {key} must be a whole number ≥ 1, not {value!r}")
    if n_heads is None:
        raise ScenarioError("projection: n_heads missing")
    residual, norm = entry.get("residual", True), entry.get("layer_norm", False)
    positions = entry.get("positions", "none")
    if not isinstance(residual, bool) or not isinstance(norm, bool):
        raise ScenarioError('projection: "residual" and "layer_norm" must be true or false')
    if not isinstance(positions, str):
        raise ScenarioError('projection: "positions" must be "none", "sinusoidal" or "rope"')
    for m in matrices.values():
        m.setflags(write=False)
    return Projection(**matrices, n_heads=n_heads, n_kv_heads=n_kv, residual=residual, layer_norm=norm,
                      positions=positions)


def _matrix(value, where: str) -> np.ndarray:
    """A list of equal-length lists of numbers -> float array; anything else is refused."""
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise ScenarioError(f"{where} must be a list of rows, each a list of numbers")
    for r, row in enumerate(value):
        for c, x in enumerate(row):
            if not _is_number(x):
                raise ScenarioError(f"{where}, row {r + 1}, column {c + 1}: {_short(x)} is not a number "
                                    f"(or is too large: values must lie {RANGE_TEXT})")
    widths = {len(row) for row in value}
    if len(widths) > 1:
        raise ScenarioError(f"{where}: rows have different lengths ({sorted(widths)})")
    return np.array(value, dtype=float).reshape(len(value), widths.pop() if widths else 0)


def _is_number(x) -> bool:
    """A JSON number that float() can take: no booleans, no 400-digit integers."""
    if isinstance(x, bool):
        return False
    return isinstance(x, float) or (isinstance(x, int) and abs(x) <= MAX_ABS)


def _short(x) -> str:
    text = repr(x)
    return text if len(text) <= 30 else text[:27] + "..."


def _list_of_strings(value, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ScenarioError(f'"{where}" must be a list of strings')
    return value


def _labels(entry: dict, key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ScenarioError(f'{where}: "{key}" must be a list of strings')
    return tuple(value)


def _texts(value, where: str):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return value
    raise ScenarioError(f'"{where}" must be a string or an object of language -> string')


# ---------------------------------------------------------------- .npz

def _scenario_from_arrays(path: Path, arrays: dict, layer: int) -> Scenario:
    """tokens (strings) and either q, k, v — (heads, n, d), (n, d), or per head q_0, k_0, v_0 —
    or weights (heads, n, n); a leading axis of layers; optional head_names."""
    try:
        tokens = _tokens(arrays)
        names = arrays.get("head_names", np.array([], dtype=str))
        if names.dtype.kind != "U":
            raise ScenarioError("'head_names' must be an array of strings")
        names = [str(n) for n in names.reshape(-1)]
        title = path.stem if path.suffix.lower() != ".npy" else path.parent.name
        if any(m in arrays for m in ("q", "q_0")) or "weights" not in arrays:
            (q, k, v), layers = _npz_qkv(arrays, layer)
            if names and len(names) != len(q):
                raise ScenarioError(f"{len(names)} head_names for {len(q)} heads")
            names = head_names(names, len(q))
            heads = [make_head(names[i], q[i], k[i], v[i]) for i in range(len(q))]
            return make_scenario(tokens, heads, title=title, layer=(layer, layers) if layers > 1 else None)
        weights, layers = _layer_of(arrays["weights"], "weights", layer)
        if weights.shape[-1] != weights.shape[-2]:
            raise ScenarioError(f"'weights' holds {weights.shape[-2]} × {weights.shape[-1]} matrices; "
                                "attention weights are tokens × tokens")
        bad = np.argwhere(~np.isfinite(weights))
        if bad.size:
            h, row, _ = bad[0]
            raise ScenarioError(f"head {h}, row {row + 1}: the weights hold NaN or infinity")
        if names and len(names) != len(weights):
            raise ScenarioError(f"{len(names)} head_names for {len(weights)} heads")
        return make_scenario(tokens, weights_only_heads(len(weights), len(tokens), names), title=title,
                             given=weights, layer=(layer, layers) if layers > 1 else None)
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None


def _tokens(arrays) -> list[str]:
    """The token texts: a 1-D array of strings (bytes are read as UTF-8)."""
    tokens = arrays.get("tokens")
    if tokens is None:
        raise ScenarioError("no 'tokens' array (the token texts are needed)")
    if tokens.ndim != 1:
        raise ScenarioError(f"'tokens' has shape {tokens.shape}; it must be one row of token texts")
    if tokens.dtype.kind == "S":
        try:
            return [t.decode("utf-8") for t in tokens]
        except UnicodeDecodeError:
            raise ScenarioError("'tokens' holds bytes that are not UTF-8 text") from None
    if tokens.dtype.kind != "U":
        raise ScenarioError(f"'tokens' holds {tokens.dtype} values; it must hold the token texts (strings)")
    return [str(t) for t in tokens]


def _layer_of(a: np.ndarray, name: str, layer: int) -> tuple[np.ndarray, int]:
    """(heads, n, d) of one layer from (layers, heads, n, d), (heads, n, d) or (n, d)."""
    if a.dtype.kind not in "iuf":
        raise ScenarioError(f"'{name}' holds {a.dtype} values, not numbers")
    layers = a.shape[0] if a.ndim == 4 else 1
    if a.ndim == 4:
        if not 0 <= layer < layers:
            raise ScenarioError(f"there is no layer {layer}: '{name}' has layers 0 to {layers - 1}")
        a = a[layer]
    elif a.ndim == 2:
        a = a[None]  # one head: [n, d] -> [1, n, d]
    if a.ndim != 3:
        last = "n" if name == "weights" else "d"
        raise ScenarioError(f"'{name}' has shape {a.shape}; it must be (layers, heads, n, {last}), "
                            f"(heads, n, {last}) or (n, {last})")
    return a.astype(float), layers


def _npz_qkv(arrays, layer: int = 0):
    """(q, k, v) of one layer and the number of layers."""
    if all(m in arrays for m in "qkv"):
        picked = [_layer_of(arrays[m], m, layer) for m in "qkv"]
        (q, layers), (k, _), (v, _) = picked
        if len({count for _, count in picked}) > 1:
            raise ScenarioError("q, k and v have different numbers of layers")
        if not q.shape[0] == k.shape[0] == v.shape[0]:
            raise ScenarioError(f"q, k and v have {q.shape[0]}, {k.shape[0]}, {v.shape[0]} heads")
        return (q, k, v), layers
    count = 0
    while all(f"{m}_{count}" in arrays for m in "qkv"):
        count += 1
    if count == 0:
        missing = [m for m in "qkv" if m not in arrays]
        raise ScenarioError(f"no {', '.join(repr(m) for m in missing)} array, and no 'weights' either")
    return tuple([_one_head(arrays[f"{m}_{i}"], f"{m}_{i}") for i in range(count)] for m in "qkv"), 1


def _one_head(a: np.ndarray, name: str) -> np.ndarray:
    if a.ndim != 2:
        raise ScenarioError(f"'{name}' has shape {a.shape}; one head's matrix must be (n, d)")
    return _layer_of(a, name, 0)[0][0]


def _npz_arrays(path: Path, data: bytes) -> dict[str, np.ndarray]:
    """The .npy members of an npz, each checked before it is read: no pickles, no headers
    that promise more data than the file holds (which would allocate without limit)."""
    try:
        with zipfile.ZipFile(_io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist() if m.filename.endswith(".npy")]
            if sum(m.file_size for m in members) > MAX_MODEL_BYTES:
                raise ScenarioError(f"{path}: unpacks to more than the {MAX_MODEL_BYTES // 2**20} MB "
                                    "a model's file may hold: save fewer layers or tokens, or float32")
            return {m.filename[:-4]: _npy_member(archive, m) for m in members}
    except zipfile.BadZipFile:
        raise ScenarioError(f"{path}: not a valid .npz file (broken or not a zip archive)") from None
    except ScenarioError as e:
        raise ScenarioError(str(e) if str(e).startswith(str(path)) else f"{path}: {e}") from None
    except (ValueError, OSError, EOFError, MemoryError) as e:
        raise ScenarioError(f"{path}: not a valid .npz file ({type(e).__name__}: {e})") from None


NPY_NAMES = ("tokens", "q", "k", "v", "weights", "head_names")


def _npy_folder(path: Path) -> dict[str, np.ndarray]:
    """A model dumped with np.save, one file per array: tokens.npy beside q.npy, k.npy, v.npy or
    weights.npy. Opening any of them opens the set in its folder."""
    files = {name: path.parent / f"{name}.npy" for name in NPY_NAMES if (path.parent / f"{name}.npy").is_file()}
    if not path.is_file():
        raise ScenarioError(f"{path}: no such file")
    if sum(f.stat().st_size for f in files.values()) > MAX_MODEL_BYTES:
        raise ScenarioError(f"{path.parent}: the arrays are larger than the {MAX_MODEL_BYTES // 2**20} MB "
                            "a model's files may hold: save fewer layers or tokens, or float32")
    try:
        return {name: _read_npy(lambda f=f: open(f, "rb"), name, f.stat().st_size) for name, f in files.items()}
    except ScenarioError as e:
        raise ScenarioError(f"{path.parent}: {e}") from None
    except (ValueError, OSError, EOFError, MemoryError) as e:
        raise ScenarioError(f"{path}: not a valid .npy file ({type(e).__name__}: {e})") from None


def _npy_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> np.ndarray:
    return _read_npy(lambda: archive.open(member), member.filename[:-4], member.file_size)


def _read_npy(open_file, name: str, size: int) -> np.ndarray:
    """One .npy array, its header checked first: no objects (pickles), no more data promised
    than the file holds."""
    with open_file() as f:
        version = np.lib.format.read_magic(f)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(f)
        if dtype.hasobject:
            raise ScenarioError(f"'{name}' holds Python objects (pickles), which AttnViz never "
                                "loads; save plain numeric and string arrays")
        if int(np.prod(shape, dtype=np.float64)) * dtype.itemsize > size:
            raise ScenarioError(f"'{name}' claims shape {shape}, more data than the file holds")
    with open_file() as f:
        return np.lib.format.read_array(f, allow_pickle=False)


def save_npz(s: Scenario, path, weights=None) -> None:
    """tokens, q, k, v (and weights, when given) of every head, as plain arrays."""
    arrays = {"tokens": np.array(s.tokens), "head_names": np.array([h.name for h in s.heads]),
              "causal": np.array(s.settings.causal), "scale": np.array(s.settings.scale),
              "temperature": np.array(s.settings.temperature)}
    if same_shapes(s):
        arrays.update({m: np.stack([h.matrix(m) for h in s.heads]) for m in "qkv"})
    else:
        arrays.update({f"{m}_{i}": h.matrix(m) for i, h in enumerate(s.heads) for m in "qkv"})
    if weights is not None:
        arrays["weights"] = np.stack(weights)
    buffer = _io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    atomic_write(path, buffer.getvalue())


# ---------------------------------------------------------------- data exports

DATA_SUFFIXES = (".csv", ".npz")


def save_data(s: Scenario, weights, path) -> None:
    """The weights and the q, k, v of every head: a tidy .csv or a .npz of arrays."""
    suffix = Path(path).suffix.lower()
    if Path(path).is_dir():
        raise ScenarioError(f"{path}: is a folder; give a file name ending in .csv or .npz")
    if suffix == ".csv":
        atomic_write(path, data_csv(s, weights).encode("utf-8"))
    elif suffix == ".npz":
        save_npz(s, path, weights)
    else:
        raise ScenarioError(f"{path}: unknown data format '{suffix or '(none)'}'; "
                            "use a name ending in .csv or .npz")


# ---------------------------------------------------------------- weights as text

def data_csv(s: Scenario, weights) -> str:
    """Everything in one tidy table: head, quantity (q, k, v, weight), token, column, value.

    For q, k and v the column is a dimension label; for weight it is the key token.
    """
    out = _io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["head", "quantity", "token", "column", "value"])
    tokens = [_cell(t) for t in s.tokens]
    for i, head in enumerate(s.heads):
        name_cell = _cell(head.name)
        for name in "qkv":
            labels = [_cell(label) for label in head.dim_labels(name)]
            for token, row in zip(tokens, head.matrix(name)):
                writer.writerows([name_cell, name, token, label, repr(float(x))] for label, x in zip(labels, row))
        for token, row in zip(tokens, weights[i]):
            writer.writerows([name_cell, "weight", token, key, repr(float(w))] for key, w in zip(tokens, row))
    return out.getvalue()


def _cell(text: str) -> str:
    """A token like '=cmd' would run as a formula in a spreadsheet: quote it as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def weights_document(s: Scenario, weights, head_indices) -> dict:
    """The `attnviz weights --format json` document."""
    return {
        "tokens": list(s.tokens),
        "heads": [{"name": s.heads[i].name, "weights": weights[i].tolist()} for i in head_indices],
    }


def weights_csv(s: Scenario, weights, head_indices) -> str:
    """One row per (head, query): head, query token, then the weight on each key."""
    out = _io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    tokens = [_cell(t) for t in s.tokens]
    writer.writerow(["head", "query", *tokens])
    for i in head_indices:
        for token, row in zip(tokens, weights[i]):
            writer.writerow([_cell(s.heads[i].name), token, *(repr(float(w)) for w in row)])
    return out.getvalue()
