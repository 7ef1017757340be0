"""A Hugging Face model folder (config.json, *.safetensors possibly sharded, tokenizer.json)
loaded as a Model with `safetensors` and `tokenizers`; no torch.

The weights are laid out as transformers keeps them: q and k in the layout that turns halves
(i, i + d_head/2) under RoPE; Gemma's norms as w in x · (1 + w) (so 1 is added here); GPT-2's
Conv1D matrices as (in, out) (so they are turned here). The folder's shapes are checked against
its config.json before anything is read, and its values for NaN as they are read.
"""
from __future__ import annotations

import contextlib
import fnmatch
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
from safetensors import safe_open

from ..files import FileProblem, mapped_stamp, open_regular, optional_file, problem, read_limited, still_whole
from ..messages import QT_TR_NOOP, cut, quoted
from ..scenario import ScenarioError
from . import fields, memory, rebuilt
from . import tokens as tk
from .families import FAMILIES, MODEL_TYPES, NAMES, Family
from .gguf_file import checked
from .weights import Block, Config, Model, Norm

MAX_CONFIG_BYTES = 1 << 20
MAX_SHARDS = 256
MAX_HEADER_BYTES = 16 << 20  # a safetensors file's JSON header: a 7B model's is ~100 KB; 72 MB of 1.2 M
                             # empty tensors took the reader 6 s and 1.1 GB
_NUMPY = {"F32": np.float32, "F16": np.float16, "F64": np.float64}


def is_folder(path) -> bool:
    return os.path.isdir(path)  # False, not OSError, for a name too long


def read_files(folder) -> list[Path]:
    """The files of a folder that make the model (what a session's SHA-256 covers), sorted."""
    folder = Path(folder)
    named = [folder / n for n in ("config.json", "tokenizer.json", "tokenizer_config.json", "chat_template.jinja",
                                  "special_tokens_map.json", "added_tokens.json", "model.safetensors.index.json")]
    return sorted([p for p in named if p.is_file()] + [p for p in folder.glob("*.safetensors") if p.is_file()])


def load(folder, progress=None, way: str | None = None, name: str | None = None) -> Model:
    """The model in `folder`; with `way` (memory.WAYS: a folder is held in float32 whichever), refused once its
    files are checked, before any weight is read, when it would not fit the free memory (naming `name`)."""
    folder = Path(folder)
    config_json = _config_json(folder)
    c = _config(folder, config_json)
    tensors = _Tensors(folder)
    try:
        vocab = _number(folder, config_json, "vocab_size")
        _check(folder, c, tensors, vocab)
        tied = config_json.get("tie_word_embeddings")
        tied = FAMILIES[c.family].HF_DEFAULTS["tie_word_embeddings"] if tied is None else tied
        if not tied and not tensors.has("lm_head.weight"):
            raise problem(folder, QT_TR_NOOP("its config.json gives the output its own matrix (tie_word_embeddings is "
                                             "false, as written or as transformers takes it for a {0} model), but it "
                                             "has no tensor lm_head.weight"), c.family)
        tokenizer = _tokenizer(folder, config_json)
        if len(tokenizer.pieces) > vocab:  # a token with no embedding row: refused before any weight is read
            raise problem(folder, QT_TR_NOOP("its tokenizer has {0:,} tokens but the model {1:,} embedding rows: one "
                                             "row per token is needed"), len(tokenizer.pieces), vocab)
        family = FAMILIES[c.family]
        if way is not None:
            memory.choose(_sized_need(c, tensors), way, name or folder.name)
        blocks = []
        for i in range(c.n_layers):
            blocks.append(_block(family, c, tensors, i))
            if progress:
                progress(i + 1, c.n_layers)
        embedding = tensors.get(family.HF["embedding"])
        output = tensors.get("lm_head.weight") if tensors.has("lm_head.weight") else embedding
        positions = tensors.get(family.HF["positions"]) if "positions" in family.HF else None
        return Model(c, embedding, blocks, _norm(family, tensors.get, family.HF["norm"]), output, tokenizer, folder,
                     positions, licence=config_json.get("license") or "")
    finally:
        tensors.close()


def describe(folder) -> dict:
    folder = Path(folder)
    config_json = _json(folder / "config.json", fields.CONFIG)
    kind = str(config_json.get("model_type", ""))
    family = MODEL_TYPES.get(kind, kind)
    tensors = _Tensors(folder)
    try:
        sizes = {n: math.prod(tensors.shape(n)) for n in tensors.names}
        kinds = {tensors.dtype(n) for n in tensors.names}
    finally:
        tensors.close()
    params = sum(sizes.values())
    try:
        need: dict | None = _need(folder, config_json).as_dict()
    except (FileProblem, ScenarioError):  # a family or size AttnViz cannot run: listed all the same
        need = None
    settings = folder / "tokenizer_config.json"
    jinja, in_settings = optional_file(folder / "chat_template.jinja"), optional_file(settings)  # each checked
    chat = jinja or (in_settings and _default_template(_json(settings).get("chat_template")) is not None)
    return {"family": family, "parameters": params, "quantisation": "/".join(sorted(kinds)), "licence": "",
            "name": folder.name, "chat": chat, "memory": need}


def need(folder) -> memory.Need:
    """The memory the model in `folder` takes (a folder is only kept fast: float32), from its headers."""
    folder = Path(folder)
    return _need(folder, _config_json(folder))


def _need(folder: Path, config_json: dict) -> memory.Need:
    """From the sizes of the tensors the model reads, once they are checked against config.json (a size that
    lies would make a figure that means nothing)."""
    c = _config(folder, config_json)
    tensors = _Tensors(folder)
    try:
        _check(folder, c, tensors, _number(folder, config_json, "vocab_size"))
        return _sized_need(c, tensors)
    finally:
        tensors.close()


def _sized_need(c: Config, tensors: _Tensors) -> memory.Need:
    """memory.need of the folder's tensors, whose shapes are checked already (held in float32)."""
    return memory.need(c, {n: math.prod(tensors.shape(n)) for n in tensors.names}, None, FAMILIES[c.family].HF["block"])


# ---------------------------------------------------------------- the folder's files

def _config_json(folder: Path) -> dict:
    if not optional_file(folder / "config.json"):  # a pipe or a folder there: said so
        raise problem(folder, QT_TR_NOOP("is a folder but not a model folder: it has no config.json"))
    return _json(folder / "config.json", fields.CONFIG)


def _json(path: Path, declared: dict | None = None) -> dict:
    """The file's JSON object, its `declared` fields (core/lm/fields.py) checked."""
    return _parsed(path, read_limited(path, MAX_CONFIG_BYTES), declared)


def _parsed(path: Path, data: bytes, declared: dict | None) -> dict:
    try:
        value = json.loads(data)
    except RecursionError:
        raise problem(path, QT_TR_NOOP("is nested too deeply to be a model's settings")) from None
    except ValueError as e:
        raise problem(path, QT_TR_NOOP("is not valid JSON ({0})"), type(e).__name__) from None
    if not isinstance(value, dict):
        raise problem(path, QT_TR_NOOP("is not a JSON object"))
    fields.check(path, value, declared or {})
    return value


# The bytes of one value of each safetensors data type (the types a newer file may hold beyond these are the
# reader's to judge).
ITEM_BYTES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
              "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}


def _check_header(path: Path) -> tuple[int, int, int, int, int]:
    """A safetensors file starts with its JSON header's length: one far beyond any model's is refused before
    the reader builds it. Its tensors' shapes, types and places are then checked by name and by place, so
    that a header that lies is named by the same tensor every time (the reader names one or none, as its
    hash map's order falls); a header that is not JSON is the reader's to name. The file's stamp, as read."""
    with open_regular(path, 1 << 42) as f:  # its size is the reader's to check against the header
        start = f.read(8)
        size = int.from_bytes(start, "little") if len(start) == 8 else 0
        if size > MAX_HEADER_BYTES:
            raise problem(path, QT_TR_NOOP("its header is {0:,.0f} MB, far more than a model's (at most {1} MB)"),
                          size / 2**20, MAX_HEADER_BYTES >> 20)
        header, info = f.read(size), os.fstat(f.fileno())
    data = info.st_size - 8 - size
    try:
        entries = json.loads(header)
    except (ValueError, RecursionError):
        return mapped_stamp(info)
    if not isinstance(entries, dict):
        return mapped_stamp(info)
    wrong = _lying(entries, data)
    if wrong is not None:
        raise problem(path, QT_TR_NOOP("its header gives tensor {0} a shape, a data type or a place in the file "
                                       "that cannot be right"), cut(wrong, 200))
    return mapped_stamp(info)


def _lying(entries: dict, data: int) -> str | None:
    """The first tensor, by name, whose shape, type and place disagree; else the first, by place, that does not
    follow the one before it from the data's first byte, as the format writes them; None when all hold."""
    places = []
    for name in sorted(k for k in entries if k != "__metadata__"):
        place = _place(entries[name], data)
        if place is None:
            return name
        places.append((*place, name))
    end = 0
    for begin, stop, name in sorted(places):
        if begin != end:
            return name
        end = stop
    return None


def _place(entry, data: int) -> tuple[int, int] | None:
    """A header entry's (begin, end) in the file's `data` bytes, or None where its shape, type and place
    disagree or lie outside."""
    if not isinstance(entry, dict):
        return None
    shape, offsets, kind = entry.get("shape"), entry.get("data_offsets"), entry.get("dtype")
    if not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape) or \
            not isinstance(offsets, list) or len(offsets) != 2 or not all(type(n) is int for n in offsets):
        return None
    begin, end = offsets
    if not 0 <= begin <= end <= data or not isinstance(kind, str):
        return None
    if kind in ITEM_BYTES and end - begin != math.prod(shape) * ITEM_BYTES[kind]:
        return None
    return begin, end


class _Tensors:
    """The folder's safetensors files as one table of names; values read one at a time."""

    def __init__(self, folder: Path):
        index = folder / "model.safetensors.index.json"
        named = {"": "model.safetensors"}
        if optional_file(index):
            named = _json(index, fields.INDEX).get("weight_map") or {}  # null lists no file: refused below
        files = sorted(set(named.values()))
        # each a .safetensors file of the folder: what a session's SHA-256 covers (read_files) is what is read
        if not files or len(files) > MAX_SHARDS or \
                not all(isinstance(f, str) and "/" not in f and f.endswith(".safetensors") for f in files):
            raise problem(index, QT_TR_NOOP("does not list the folder's safetensors files"))
        self.files: list = []
        self.where: dict[str, tuple] = {}  # a tensor's name -> (its file, its key there, the file's path)
        self.stamps: dict[Path, tuple] = {}  # each file's, as it was read: a file cut short is not read
        try:
            for name in files:
                path = folder / name
                if not optional_file(path):
                    raise problem(path, QT_TR_NOOP("is not there: the model folder is incomplete"))
                self.stamps[path] = _check_header(path)
                f = safe_open(str(path), framework="numpy")
                self.files.append(f)
                for key in f.keys():
                    name = key.removeprefix("transformer.")  # GPT-2's files name some tensors either way
                    if name in self.where:
                        raise problem(path, QT_TR_NOOP("holds the tensor {0} twice (as {1} and {2})"), name,
                                      self.where[name][1], key)
                    self.where[name] = (f, key, path)
        except FileProblem:
            self.close()
            raise
        except Exception as e:  # the Rust reader says what is wrong with the header
            self.close()
            raise problem(folder, QT_TR_NOOP("its safetensors files cannot be read ({0})"), str(e)[:120]) from None
        self.names = list(self.where)

    def has(self, name: str) -> bool:
        return name in self.where

    def shape(self, name: str) -> tuple[int, ...]:
        f, key, _ = self.where[name]
        return tuple(f.get_slice(key).get_shape())

    def dtype(self, name: str) -> str:
        f, key, _ = self.where[name]
        return f.get_slice(key).get_dtype()

    def get(self, name: str) -> np.ndarray:
        """float32; bfloat16 (which numpy has not) widened from its bits."""
        f, key, path = self.where[name]
        still_whole(path, self.stamps[path])
        kind = self.dtype(name)
        if kind == "BF16":
            bits = f.get_slice(key)[:]  # the numpy side hands bfloat16 over as raw 16-bit words
            values = (np.asarray(bits).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            with np.errstate(over="ignore", invalid="ignore"):  # what overflows float32 is refused just below
                values = f.get_tensor(key).astype(np.float32, copy=False)  # float32 files: no second copy
        if not np.isfinite(values).all():
            raise problem(path, QT_TR_NOOP("tensor {0} holds values that are not numbers (NaN or infinity): the "
                                           "file is damaged or not a model"), name)
        return values

    def close(self) -> None:
        self.files = []


# ---------------------------------------------------------------- config.json

def _number(folder: Path, cfg: dict, *keys, default=None, whole=True):
    for key in keys:
        if cfg.get(key) is not None:
            value = cfg[key]
            break
    else:
        if default is None:
            raise problem(folder / "config.json", QT_TR_NOOP("has no {0}: not a model AttnViz can run"), keys[0])
        value = default
    good = isinstance(value, int) if whole else isinstance(value, (int, float))
    if not good or isinstance(value, bool) or not 0 < value <= sys.float_info.max:
        raise problem(folder / "config.json", QT_TR_NOOP("its {0} is {1}, not a positive number"), keys[0],
                      fields.shown(value))
    return value


def _rope_base(folder: Path, cfg: dict, kind: str | None, defaults: dict) -> float:
    """rope_theta, or transformers 5's rope_parameters (per layer type for Gemma 3); where none is named, the
    family's `defaults` (transformers' config's)."""
    params = cfg.get("rope_parameters")
    if kind is not None:  # Gemma 3's are per layer type: transformers passes a flat one over, as here
        params = params.get(kind) if isinstance(params, dict) else None
    if isinstance(params, dict) and "rope_theta" in params:
        return float(_number(folder, params, "rope_theta", whole=False))
    key = "rope_local_base_freq" if kind == "sliding_attention" else "rope_theta"
    return float(_number(folder, cfg, key, default=defaults.get(key, defaults.get("rope_theta", 10000.0)),
                         whole=False))


def _rope_factors(cfg: dict, d_head: int, base: float):
    """Llama 3's frequency factors from its rope_scaling (transformers' _compute_llama3_parameters)."""
    s = cfg.get("rope_scaling") or cfg.get("rope_parameters") or {}
    kind = s.get("rope_type", s.get("type")) if isinstance(s, dict) else None
    for layers in ("full_attention", "sliding_attention"):  # Gemma 3's, per layer type: none is stretched
        inner = s.get(layers) if isinstance(s, dict) else None
        stretched = inner.get("rope_type", inner.get("type")) if isinstance(inner, dict) else None
        if stretched not in (None, "default"):
            raise ScenarioError(QT_TR_NOOP("stretches RoPE ({0} scaling), which AttnViz does not do"), stretched)
    if kind in (None, "default"):
        return None
    if kind != "llama3":
        raise ScenarioError(QT_TR_NOOP("stretches RoPE ({0} scaling), which AttnViz does not do"), kind)
    factor, low, high = s["factor"], s["low_freq_factor"], s["high_freq_factor"]
    old = s["original_max_position_embeddings"]
    if not high > low:  # the smooth stretch between them divides by high - low
        raise ScenarioError(QT_TR_NOOP("its rope_scaling's high_freq_factor ({0}) must be larger than its "
                                       "low_freq_factor ({1})"), high, low)
    out = []
    for i in range(0, d_head, 2):
        wavelength = 2 * math.pi * base ** (i / d_head)
        if wavelength < old / high:
            out.append(1.0)
        elif wavelength > old / low:
            out.append(float(factor))
        else:
            smooth = (old / wavelength - low) / (high - low)
            out.append(1.0 / ((1 - smooth) / factor + smooth))
    return tuple(out)


def _assumed(folder: Path, cfg: dict, family: Family) -> None:
    """Refuse a setting its family's block does not hold to (another activation, biases, a window), named:
    run anyway, its numbers would be another model's."""
    for key, values in family.HF_ASSUMES.items():
        value = cfg.get(key)
        if value is not None and (isinstance(value, bool) != isinstance(values[0], bool) or value not in values):
            raise problem(folder / "config.json", QT_TR_NOOP("its {0} is {1}; AttnViz runs {2} models with {3}"),
                          key, _as_json(value), family.NAME, " or ".join(map(_as_json, values)))


def _as_json(value) -> str:
    """A config.json value as the file writes it (true, 0.5, "gelu"), at most 40 characters."""
    return json.dumps(value) if isinstance(value, (bool, int, float)) else \
        '"' + cut(value) + '"' if isinstance(value, str) else fields.shown(value)


def _config(folder: Path, cfg: dict) -> Config:
    kind = cfg.get("model_type")
    if str(kind) not in MODEL_TYPES:
        raise problem(folder, QT_TR_NOOP("is a '{0}' model; AttnViz runs models of the families {1}"), kind, NAMES)
    family = FAMILIES[MODEL_TYPES[str(kind)]]
    _assumed(folder, cfg, family)
    n = lambda *keys, **kw: _number(folder, cfg, *keys, **kw)  # noqa: E731
    d, heads, layers = n("hidden_size", "n_embd"), n("num_attention_heads", "n_head"), n("num_hidden_layers", "n_layer")
    d_head = n("head_dim", default=max(1, d // heads))
    rope = lambda kind: _rope_base(folder, cfg, kind, family.HF_DEFAULTS)  # noqa: E731
    try:
        if cfg.get("attn_logit_softcapping"):
            raise ScenarioError(QT_TR_NOOP("caps its logits (softcapping), which AttnViz does not do"))
        settings = {"rope_base": rope(None) if family.ROPE else 0.0,
                    **family.hf_settings(n, cfg, layers, d, d_head, rope)}
        factors = _rope_factors(cfg, d_head, settings["rope_base"]) if family.ROPE else None
    except (ScenarioError, KeyError, TypeError) as e:
        raise problem(folder / "config.json", e if isinstance(e, ScenarioError) else
                      QT_TR_NOOP("its rope_scaling cannot be read")) from None
    config = Config(
        family=family.NAME, n_layers=layers, d=d, d_ff=n("intermediate_size", "n_inner", default=4 * d),
        n_heads=heads, n_kv_heads=n("num_key_value_heads", default=heads), d_head=d_head,
        eps=float(n("rms_norm_eps", "layer_norm_epsilon", default=family.HF_DEFAULTS["eps"], whole=False)),
        context=n("max_position_embeddings", "n_positions", default=2048), name=folder.name,
        rope_halves=True, rope_factors=factors, quant=str(cfg.get("torch_dtype", cfg.get("dtype", ""))), **settings)
    return checked(folder, config)


def expected_shapes(c: Config, vocab: int, t: _Tensors) -> dict[str, tuple[int, ...]]:
    family, d = FAMILIES[c.family], c.d
    names = family.HF
    out: dict[str, tuple[int, ...]] = {names["embedding"]: (vocab, d), names["norm"] + ".weight": (d,)}
    if family.LAYER_NORM:
        out[names["norm"] + ".bias"] = (d,)
    if "positions" in names:
        out[names["positions"]] = (c.context, d)
    if t.has("lm_head.weight"):
        out["lm_head.weight"] = (vocab, d)
    block = family.hf_tensors(c)
    for i in range(c.n_layers):
        out.update({names["block"].format(i) + name: shape for name, shape in block.items()})
    return out


def _check(folder: Path, c: Config, t: _Tensors, vocab: int) -> None:
    for name, shape in expected_shapes(c, vocab, t).items():
        if not t.has(name):
            raise problem(folder, QT_TR_NOOP("has no tensor {0}: not the {1} model its config.json says"),
                          name, c.family)
        got, kind = t.shape(name), t.dtype(name)
        if kind not in (*_NUMPY, "BF16"):
            raise problem(folder, QT_TR_NOOP("tensor {0} is stored as {1}; AttnViz reads F32, F16, BF16"), name, kind)
        if got != shape:
            raise problem(folder, QT_TR_NOOP("tensor {0} has shape {1}, not {2}"), name, got, shape)


def _default_template(value) -> str | None:
    """tokenizer_config.json's chat_template: a text, or named ones (a list of {name, template}, or an
    object of name -> template) of which transformers takes "default" when no other is asked for."""
    if isinstance(value, list):
        value = next((t.get("template") for t in value if isinstance(t, dict) and t.get("name") == "default"), None)
    elif isinstance(value, dict):
        value = value.get("default")
    return value if isinstance(value, str) else None


def _named(settings: dict) -> list[str]:
    """Every token a tokenizer's settings name: added_tokens_decoder's, every "…_token" (bos_token, pad_token, a
    model's own image_token), extra_special_tokens and additional_special_tokens (their texts, or an object's
    values)."""
    found = [fields.token_text(entry) for entry in (settings.get("added_tokens_decoder") or {}).values()]
    found += [fields.token_text(value) for key, value in settings.items() if key.endswith("_token")]
    for key in ("extra_special_tokens", "additional_special_tokens"):
        named = settings.get(key) or []
        found += [fields.token_text(entry) for entry in (named.values() if isinstance(named, dict) else named)]
    return [text for text in found if text]


def _unlisted(folder: Path, made: tk.Tokenizer, named: dict) -> None:
    """transformers adds the tokens a folder's settings name that tokenizer.json does not list, by rules of
    its own (ids from the settings' keys, names and files, in an order of its own, none of it written down):
    such a folder is refused, naming the token. A folder transformers saved lists every one in tokenizer.json."""
    for path, texts in named.items():
        missing = next((text for text in texts if text not in made.added), None)
        if missing is not None:
            raise problem(path, QT_TR_NOOP("names {0} as a token, which tokenizer.json does not list: AttnViz reads "
                                           "the tokens tokenizer.json lists, and transformers would add this one "
                                           "its own way"), quoted(missing))


_SPECIAL = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
_GENERIC = ("TokenizersBackend", "PreTrainedTokenizer", "PythonBackend")  # tokenizer.json read as written


def _hub_ids(folder: Path) -> list[str]:
    """The ids the Hub knows a folder by, as transformers is given it: the cache's models--owner--name (its
    snapshots/<commit> folder), else the folder's last two names (a `--local-dir owner/name` download); and a
    relative path as written (transformers matches the text it is given)."""
    parts = folder.absolute().parts
    cached = next((p for p in reversed(parts[:-2]) if p.startswith("models--")), None)
    if cached is not None and parts[-2] == "snapshots":
        found = cached.removeprefix("models--").replace("--", "/", 1)
    else:
        found = "/".join(parts[-2:])
    return [found.lower()] + ([] if folder.is_absolute() else [str(folder).lower()])


def _class_used(config_json: dict, settings: dict, text: str, folder: Path) -> str | None:
    """The tokenizer class of a model's own that transformers 5 loads the folder's tokenizer with, by
    AutoTokenizer's rules (its model type's class, or the one tokenizer_config.json or config.json names),
    or None where it reads tokenizer.json as written (as it reads a few Hub ids' folders, whatever they say)."""
    if any(fnmatch.fnmatch(name, pattern) for name in _hub_ids(folder) for pattern in rebuilt.AS_WRITTEN):
        return None
    model_type = config_json.get("model_type") or ""
    registered = rebuilt.RESOLVED.get(rebuilt.REGISTERED.get(model_type) or "", "")
    written = settings.get("tokenizer_class") or config_json.get("tokenizer_class") or ""
    base = written
    while base.endswith("Fast"):  # transformers takes it off again and again
        base = base.removesuffix("Fast")
    named = rebuilt.RESOLVED.get(base) or rebuilt.RESOLVED.get(written, "")
    forced = bool({model_type, config_json.get("model_name")} & rebuilt.FORCED)  # folders naming a wrong class
    if forced and registered:
        used = registered
    elif (written and not named) or (not written and settings.get("tokenizer_class") == ""):
        used = ""  # a name that is no class: transformers falls back on tokenizer.json as written
    elif written.removesuffix("Fast") == "LlamaTokenizer" and '"ByteLevel"' in text and not forced:  # Llama 3's
        used = ""
    elif named and registered and named != registered:
        used = "" if registered in _GENERIC else named
    else:
        used = named or registered
    return None if used in ("", *_GENERIC) else used


def _as_transformers_builds(path: Path, doc: dict, used: str, settings: dict) -> str:
    """tokenizer.json as transformers reads it with `used`: the class keeps the vocabulary, merges, added tokens
    and post-processor, and builds the normalizer, the pre-tokenizer and the model's settings (byte fallback,
    the unknown token) itself. Refused where it is a class AttnViz does not know."""
    if used not in rebuilt.BUILT:
        raise problem(path, QT_TR_NOOP("would be read by transformers as the tokenizer class {0} builds it, which "
                                       "AttnViz does not know (it knows those of the families it runs)"), used)
    built = rebuilt.BUILT[used][f"{settings.get('add_prefix_space')},{settings.get('legacy')}"]
    return json.dumps({**doc, "normalizer": built["normalizer"], "pre_tokenizer": built["pre_tokenizer"],
                       "model": {**(doc.get("model") or {}), **built["model"]}})


def _settings(folder: Path) -> tuple[dict, dict, bool, dict[str, str]]:
    """(tokenizer_config.json's settings, with special_tokens_map.json's where transformers reads them; the
    tokens each settings file names; whether the chat template is special_tokens_map.json's, which wins over
    chat_template.jinja; the model's own tokens, _model_tokens). What makes transformers read another
    tokenizer than tokenizer.json, or another chat template than the folder's, is refused by name."""
    mapped_template = False
    settings = _json(folder / "tokenizer_config.json", fields.TOKENIZER_CONFIG) \
        if optional_file(folder / "tokenizer_config.json") else {}
    _refuse_elsewhere(folder, settings)
    _refuse_unknown(folder / "tokenizer_config.json", settings)
    named = {folder / "tokenizer_config.json": _named(settings)}
    config, merged = dict(settings), None
    if optional_file(folder / "special_tokens_map.json"):
        mapped = _json(folder / "special_tokens_map.json", fields.TOKENIZER_CONFIG)
        named[folder / "special_tokens_map.json"] = _named(mapped)
        if "added_tokens_decoder" not in settings:  # every key of it wins, as transformers 5 reads it (only then)
            rebuilds = next((key for key in ("add_bos_token", "add_eos_token") if key in mapped), None)
            if rebuilds is not None:
                raise problem(folder / "special_tokens_map.json", QT_TR_NOOP(
                    "sets {0}, by which transformers builds anew the tokens it puts around a text: AttnViz reads "
                    "them from tokenizer.json"), rebuilds)
            source = next((key for key in _SOURCES if key in mapped), None)
            if source is not None:
                raise problem(folder / "special_tokens_map.json", QT_TR_NOOP(
                    "names {0}, from which transformers would read the tokenizer in place of tokenizer.json: "
                    "AttnViz reads tokenizer.json only"), source)
            _refuse_unknown(folder / "special_tokens_map.json", mapped)
            # (its tokenizer_class not: transformers has chosen the class before it reads this file)
            merged = {key: _as_added(key, value) for key, value in mapped.items() if key != "tokenizer_class"}
            settings.update(merged)
            mapped_template = "chat_template" in mapped
    if optional_file(folder / "added_tokens.json"):
        listed = _json(folder / "added_tokens.json")
        named[folder / "added_tokens.json"] = [text for text in listed if isinstance(text, str)]
    return settings, named, mapped_template, _model_tokens(config, merged)


def _model_tokens(config: dict, merged: dict | None) -> dict[str, str]:
    """The tokens of a model's own that transformers names beside the seven (image_token, boi_token, …), and so
    gives a chat template, as its _from_pretrained and __init__ name them: tokenizer_config.json's "…_token"
    texts and its extra_special_tokens (or additional_special_tokens) given by name, and special_tokens_map.json's
    extra_special_tokens by name (`merged`: the map as merged, or None), over the "…_token" added tokens left
    among the settings once the map's are merged in."""
    explicit: dict = {key: value for key, value in config.items() if _own_token(key) and isinstance(value, str)}
    extra = config.get("extra_special_tokens") or config.get("additional_special_tokens")
    explicit.update(extra if isinstance(extra, dict) else {})
    left = dict(config)
    if merged is not None:
        left.update(merged)
        extra = merged.get("extra_special_tokens")
        explicit.update(extra if isinstance(extra, dict) else {})
    automatic = {key: value for key, value in left.items() if _own_token(key) and (
        isinstance(value, str) or (isinstance(value, dict) and value.get("__type") == "AddedToken"))}
    return {key: fields.token_text(value) for key, value in {**automatic, **explicit}.items()}


def _own_token(key: str) -> bool:
    return key.endswith("_token") and key not in _SPECIAL


def _refuse_unknown(path: Path, settings: dict) -> None:
    key = fields.unknown_setting(settings)
    if key is not None:
        raise problem(path, QT_TR_NOOP("sets {0}, a setting AttnViz does not know: transformers may read the text "
                                       "otherwise by it, and AttnViz reads a folder only where it knows what every "
                                       "setting does to the tokens"), quoted(key))


def _as_added(key: str, value):
    """A value of special_tokens_map.json as transformers merges it: an object is an added token."""
    return {**value, "__type": "AddedToken"} if isinstance(value, dict) and key != "extra_special_tokens" else value


_SOURCES = ("tokenizer_file", "gguf_file", "vocab", "merges", "vocab_file", "merges_file", "post_processor")


def _refuse_elsewhere(folder: Path, settings: dict) -> None:
    """Refused: tokenizer code of the folder's own, tokenizer files by transformers version, more chat
    templates in a folder of their own (transformers reads each in place of what AttnViz reads)."""
    code = settings.get("auto_map")
    if isinstance(code, (list, tuple)) or (isinstance(code, dict) and code.get("AutoTokenizer") is not None):
        raise problem(folder / "tokenizer_config.json", QT_TR_NOOP("names tokenizer code of its own (auto_map), which "
                                                                   "transformers chooses its tokenizer by otherwise: "
                                                                   "AttnViz does not read it as transformers would"))
    if settings.get("fast_tokenizer_files"):
        raise problem(folder / "tokenizer_config.json", QT_TR_NOOP("names tokenizer files by transformers version "
                                                                   "(fast_tokenizer_files), which transformers may "
                                                                   "read in place of tokenizer.json: AttnViz reads "
                                                                   "tokenizer.json only"))
    more = folder / "additional_chat_templates"
    if more.is_dir() and any(more.glob("*.jinja")):
        raise problem(more, QT_TR_NOOP("holds chat templates, which transformers reads in place of the folder's or "
                                       "beside it: AttnViz reads chat_template.jinja or tokenizer_config.json's"))


def _tokenizer(folder: Path, config_json: dict) -> tk.Tokenizer:
    path = folder / "tokenizer.json"
    if not optional_file(path):  # absent; a pipe, a device or a folder is refused as what it is
        raise problem(folder, QT_TR_NOOP("has no tokenizer.json: AttnViz reads the tokenizer from it"))
    settings, named, mapped_template, model_tokens = _settings(folder)
    template = _default_template(settings.get("chat_template"))
    if optional_file(folder / "chat_template.jinja") and not mapped_template:
        try:  # bytes that are not UTF-8 would put U+FFFD in every text the template makes
            template = read_limited(folder / "chat_template.jinja", MAX_CONFIG_BYTES).decode("utf-8")
        except UnicodeDecodeError:
            raise problem(folder / "chat_template.jinja", QT_TR_NOOP("is not valid UTF-8 text")) from None
    try:
        data = read_limited(path, tk.MAX_TOKENIZER_BYTES)
        doc, text = _parsed(path, data, fields.TOKENIZER), data.decode("utf-8")
        used = _class_used(config_json, settings, text, folder)
        if used is not None:
            text = _as_transformers_builds(path, doc, used, settings)
        settings = _padded(path, doc, settings, used, named)
        defaults = {key: token for key, token in rebuilt.NAMED.get(used or "", {}).items()
                    if key not in settings}  # one the folder sets to null stays none
        made = tk.from_json(text, template if isinstance(template, str) else None,
                            settings.get("eos_token"), settings.get("bos_token"),
                            split_special=settings.get("split_special_tokens") is True,
                            others={**{key: settings.get(key) for key in _SPECIAL[2:]}, **model_tokens},
                            defaults=defaults)
    except FileProblem:
        raise
    except (ScenarioError, UnicodeDecodeError) as e:
        raise problem(path, e if isinstance(e, ScenarioError) else QT_TR_NOOP("is not UTF-8 text")) from None
    _unlisted(folder, made, named)
    _same_flags(folder / "tokenizer_config.json", doc, settings)
    _left_out(path, doc, settings, used)
    _added_json(folder, doc)
    _written_ids(path, doc, made)
    if used in _READDS:
        _readded(path, doc, settings, defaults, used)
    missing = next((token for token in defaults.values() if token not in made.added), None)
    if missing is not None:
        raise problem(path, QT_TR_NOOP("is read by transformers with the tokenizer class {0}, which names {1} as a "
                                       "token, and tokenizer.json does not list it: transformers would add it its "
                                       "own way"), used, quoted(missing))
    return made


def _same_flags(path: Path, doc: dict, settings: dict) -> None:
    """A token added_tokens_decoder gives other lstrip, rstrip, single_word, normalized or special than
    tokenizer.json gives it (under any id) is refused: transformers adds it again with the settings' (" <|im_end|>
    b" read otherwise; "<|é|>" matched before or after NFC; a token no longer special split by
    split_special_tokens)."""
    listed = {t.get("content"): t for t in doc.get("added_tokens") or [] if isinstance(t, dict)}
    for token in (settings.get("added_tokens_decoder") or {}).values():
        there = listed.get(token.get("content")) if isinstance(token, dict) else None
        if there is None:
            continue
        flag = next((f for f in ("lstrip", "rstrip", "single_word", "normalized", "special")
                     if _flag(token, f) != _flag(there, f)), None)
        if flag is not None:
            raise problem(path, QT_TR_NOOP("gives the token {0} another {1} than tokenizer.json gives it: transformers "
                                           "reads a text with the settings' and AttnViz with tokenizer.json's"),
                          quoted(token.get("content")), flag)


def _left_out(path: Path, doc: dict, settings: dict, used: str | None) -> None:
    """Where transformers builds the tokenizer anew (`used`) from added_tokens_decoder, each token tokenizer.json
    adds must be there under its id: transformers adds the settings' tokens only, in the order of their ids, then
    those the settings name (a token left out is read as text, or given another id)."""
    if used is None or "added_tokens_decoder" not in settings:
        return
    decoded: dict[object, object] = {}
    for key, entry in (settings.get("added_tokens_decoder") or {}).items():
        with contextlib.suppress(ValueError):  # transformers reads the key with int()
            decoded[int(key)] = entry.get("content") if isinstance(entry, dict) else None
    twice = next((text for text in decoded.values() if list(decoded.values()).count(text) > 1), None)
    if twice is not None:  # added in the order of the ids, the first of the two takes the next free id
        raise problem(path.parent / "tokenizer_config.json", QT_TR_NOOP(
            "lists {0} twice in added_tokens_decoder: transformers builds this tokenizer (class {1}) from the "
            "settings' tokens in the order of their ids, and would give the tokens after it other ids"),
            quoted(twice), used)
    for token in doc.get("added_tokens") or []:
        if isinstance(token, dict) and decoded.get(token.get("id")) != token.get("content"):
            raise problem(path, QT_TR_NOOP("lists {0} as added token {1}, which tokenizer_config.json's "
                                           "added_tokens_decoder does not list under that id: transformers builds "
                                           "this tokenizer (class {2}) from the settings' tokens and ids only, and "
                                           "would read it otherwise"), quoted(token.get("content")), token.get("id"),
                          used)


def _added_json(folder: Path, doc: dict) -> None:
    """added_tokens.json's tokens under tokenizer.json's ids: transformers adds its tokens with ids of their own,
    in their order, and flags of its own (a token's single_word dropped), where the settings list none."""
    path = folder / "added_tokens.json"
    if not optional_file(path):
        return
    ids = {t.get("content"): t.get("id") for t in doc.get("added_tokens") or [] if isinstance(t, dict)}
    for text, at in _json(path).items():
        if text in ids and at != ids[text]:
            raise problem(path, QT_TR_NOOP("gives {0} the id {1}, where tokenizer.json gives it {2}: transformers "
                                           "would add it again in another place, with flags of its own"),
                          quoted(text), at, ids[text])


def _written_ids(path: Path, doc: dict, made: tk.Tokenizer) -> None:
    """Each added token under the id tokenizer.json writes for it, once: the tokenizers library gives them ids in
    the order of the list, transformers in the order of the ids written (and one id written twice is one token)."""
    ids: set = set()
    texts: set = set()
    for token in doc.get("added_tokens") or []:
        if not isinstance(token, dict) or not isinstance(token.get("content"), str):
            continue
        text, at = str(token["content"]), token.get("id")
        if text in texts or at in ids or made.backend.token_to_id(text) != at:
            raise problem(path, QT_TR_NOOP("lists the added token {0} under the id {1}, which is not the one it is "
                                           "read with, or lists that id or token twice: transformers adds them in "
                                           "the order of their ids, and would read them with others"),
                          quoted(text), at)
        ids.add(at)
        texts.add(text)


# The classes whose __init__ adds every special token the settings name again, as AddedToken(text, special=True):
# with no lstrip, rstrip, single_word or normalized, whatever tokenizer.json gives them (transformers 5.24).
_READDS = ("Qwen2Tokenizer",)


def _readded(path: Path, doc: dict, settings: dict, defaults: dict, used: str) -> None:
    """A special token the settings name (the seven, the extra ones, the class's own) that tokenizer.json gives
    other flags is refused where the class adds it again with none."""
    extra = settings.get("extra_special_tokens") or settings.get("additional_special_tokens") or []
    named = [settings.get(key) or defaults.get(key) for key in _SPECIAL]
    named += list(extra.values()) if isinstance(extra, dict) else list(extra) if isinstance(extra, list) else []
    texts = {fields.token_text(token) for token in named if token}
    flags = ("lstrip", "rstrip", "single_word", "normalized")
    flagged = next((t for t in doc.get("added_tokens") or [] if isinstance(t, dict) and t.get("content") in texts
                    and any(_flag(t, f) for f in flags)), None)
    if flagged is not None:
        raise problem(path, QT_TR_NOOP("gives the special token {0} flags (lstrip, rstrip, single_word or "
                                       "normalized) that the tokenizer class {1} takes off it as it is built: "
                                       "transformers would read it otherwise"), quoted(flagged.get("content")), used)
    ordinary = next((t for t in doc.get("added_tokens") or [] if isinstance(t, dict) and t.get("content") in texts
                     and not t.get("special")), None)
    if ordinary is not None and settings.get("split_special_tokens") is True:
        raise problem(path, QT_TR_NOOP("lists {0} as an ordinary token, which the folder's settings name as a "
                                       "special one and split (split_special_tokens): transformers makes it "
                                       "special and so splits it in a text, where AttnViz would read it whole"),
                      quoted(ordinary.get("content")))


def _flag(token: dict, name: str) -> bool:
    """An added token's flag as the tokenizers library takes it: normalized, where not written, is not special."""
    return bool(token.get(name, not token.get("special") if name == "normalized" else False))


def _padded(path: Path, doc: dict, settings: dict, used: str | None, named: dict) -> dict:
    """The settings with tokenizer.json's padding's token as the pad token, where transformers takes it so:
    where they name none, with a class that names none itself (one it does not list is refused)."""
    padding = doc.get("padding")
    pad = fields.token_text(padding.get("pad_token")) if isinstance(padding, dict) else ""
    if not pad or "pad_token" in settings or used in rebuilt.PAD_PARAMETER:
        return settings
    named[path] = [pad]
    return {**settings, "pad_token": pad}


# ---------------------------------------------------------------- weights

def _norm(family: Family, get, name: str) -> Norm:
    """The norm `name`.weight (Gemma's gain kept as w in 1 + w, transformers' Gemma3RMSNorm), with
    `name`.bias for a LayerNorm."""
    gain = get(name + ".weight")
    return Norm(gain + 1.0 if family.HF_GAIN_PLUS_ONE else gain, get(name + ".bias") if family.LAYER_NORM else None)


def _block(family: Family, c: Config, t: _Tensors, i: int) -> Block:
    def g(name: str) -> np.ndarray:
        return t.get(family.HF["block"].format(i) + name)
    return family.hf_block(g, lambda name: _norm(family, g, name), c)
