"""A GGUF file of one of the families AttnViz runs, loaded as a Model, every value checked first.

The tensors are named and laid out as llama.cpp's converter writes them: blk.{i}.attn_q.weight
and so on; a Llama's q and k rows are permuted so that RoPE turns the pairs (2i, 2i+1), the
other families' are not (llama.cpp turns their halves, "NEOX"); Gemma's norm gains are stored
with its 1 + w already added; GPT-2's q, k and v are one matrix (attn_qkv).

Everything that can refuse a file is checked before any of it is built: the architecture, then
every size and setting, the tokenizer's declared lists and ids, every tensor's type and shape,
and its values (no NaN, no infinity); only then are the vocabulary and the weights built.
Refusing a file therefore costs a walk through its header and bytes, never a model's memory.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..files import FileProblem, problem
from ..gguf import GGUF, TYPES
from ..messages import QT_TR_NOOP
from ..scenario import MAX_DIM, MAX_HEADS, MAX_LAYERS, ScenarioError
from . import fields, memory
from . import tokens as tk
from .families import FAMILIES, NAMES, Family
from .weights import Block, Config, LazyBlocks, Model, Norm

# general.file_type -> its name (llama.cpp's LLAMA_FTYPE_MOSTLY_*), for the list of models
FILE_TYPES = {0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
              11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M",
              18: "Q6_K", 32: "BF16"}

_REQUIRED = object()


def load(path, progress=None, keep: int | None = None, way: str | None = None, name: str | None = None) -> Model:
    """The model in GGUF file `path`; `progress(done, total)` is called as blocks are dequantised. With `keep`
    (bytes), the model is kept compact: its weights stay in the mapped file, each block dequantised when a
    pass reaches it and the latest kept while they fit in `keep` bytes (weights.LazyBlocks). With `way` (one
    of memory.WAYS), the way is chosen for the free memory once the file is checked, before any weight is
    built, and a model that would not fit is refused naming `name` (the file's, when not given)."""
    g = GGUF(path)
    try:
        fields.check_gguf(g)
        config = _config(g)
        family = FAMILIES[config.family]
        settings = _tokenizer_settings(g)
        expected = _check_shapes(g, config, settings.size)
        tokenizer = _tokenizer(g, settings)
        if way is not None:
            chosen = memory.choose(_sized_need(g, config), way, name or model_name(path))
            keep = memory.KEEP if chosen == "compact" else None
        if "rope_freqs.weight" in expected:  # Llama 3's stretched slow pairs
            config = replace(config, rope_factors=tuple(float(f) for f in g.tensor("rope_freqs.weight")))
        positions = g.tensor("position_embd.weight") if "position_embd.weight" in expected else None
        embedding, blocks, out_norm, output = _weights(g, family, config, progress, keep)
        model = Model(config, embedding, blocks, out_norm, output, tokenizer, Path(path), positions,
                      licence=_setting(g, "general.license", ""))
    except BaseException:
        g.close()
        raise
    if keep is None:
        g.close()  # every weight is in memory: the file is let go (a compact model's arrays keep it mapped)
    return model


def _weights(g: GGUF, family: Family, c: Config, progress, keep: int | None) -> tuple:
    """(embedding, blocks, final norm, output): float32 arrays, or with `keep` the matrices left in the file
    and the blocks built as a pass reaches them."""
    if keep is not None:
        blocks: Sequence[Block] = LazyBlocks(lambda i: _block(g, family, c, i), c.n_layers, keep)
        embedding = g.matrix("token_embd.weight")
        output = g.matrix("output.weight") if "output.weight" in g.tensors else embedding
        return embedding, blocks, _norm(g, family, "output_norm"), output
    # Dequantised on every core, a layer each (numpy lets go of the GIL for the arithmetic): a 1B model's 16
    # layers took half the time on two. A refusal, or the progress's cancel, drops the layers not started.
    pool = ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, MAX_WORKERS))
    try:
        ends = [pool.submit(g.tensor, name) for name in ("token_embd.weight", "output.weight") if name in g.tensors]
        blocks = []
        for i, block in enumerate(pool.map(lambda i: _block(g, family, c, i), range(c.n_layers)), 1):
            blocks.append(block)
            if progress:
                progress(i, c.n_layers)
        embedding = ends[0].result()
        output = ends[1].result() if len(ends) > 1 else embedding
    finally:
        pool.shutdown(cancel_futures=True)
    return embedding, blocks, _norm(g, family, "output_norm"), output


MAX_WORKERS = 8


def describe(path) -> dict:
    """What the list of models says of a file, from its header only: family, parameters, storage."""
    g = GGUF(path)
    try:
        fields.check_gguf(g)
        family = _setting(g, "general.architecture", "")
        params = sum(t.size for t in g.tensors.values())
        return {"family": family, "parameters": params, "quantisation": _quantisation(g),
                "licence": _setting(g, "general.license", ""), "name": _setting(g, "general.name", ""),
                "chat": "tokenizer.chat_template" in g.fields, "memory": _runnable_need(g)}
    finally:
        g.close()


def need(path) -> memory.Need:
    """The memory the model in `path` takes, fast and compact (from its header: nothing built)."""
    g = GGUF(path)
    try:
        fields.check_gguf(g)
        return _need(g)
    finally:
        g.close()


def _need(g: GGUF) -> memory.Need:
    """From the sizes of the tensors the model reads, once they are checked against its settings (a size that
    lies would make a figure that means nothing)."""
    c = _config(g)
    _shapes_checked(g, c, _tokenizer_settings(g).size)
    return _sized_need(g, c)


def _sized_need(g: GGUF, c: Config) -> memory.Need:
    """memory.need of the file's tensors, whose shapes are checked already."""
    return memory.need(c, {name: t.size for name, t in g.tensors.items()}, g.path.stat().st_size)


def _runnable_need(g: GGUF) -> dict | None:
    """need(), or None for a file AttnViz cannot run (the list still names it)."""
    try:
        return _need(g).as_dict()
    except (FileProblem, ScenarioError, OSError):
        return None


# ---------------------------------------------------------------- at the door: every value checked

def _setting(g: GGUF, key: str, default=_REQUIRED):
    """The value of `key`, of the kind fields.GGUF declares (checked at the door); `default` when absent."""
    if key not in g.fields:
        if default is _REQUIRED:
            raise problem(g.path, QT_TR_NOOP("has no {0}: not a model AttnViz can run"), key)
        return default
    return g.metadata[key]


def _quantisation(g: GGUF) -> str:
    kind = _setting(g, "general.file_type", None)
    if isinstance(kind, int) and kind in FILE_TYPES:
        return FILE_TYPES[kind]
    counts: dict[str, int] = {}
    for t in g.tensors.values():
        name = TYPES[t.kind].name if t.kind in TYPES else str(t.kind)
        counts[name] = counts.get(name, 0) + t.size
    return max(counts, key=lambda name: counts[name]) if counts else ""


def _plain_rope(g: GGUF, size, d_head: int) -> None:
    """Refuse RoPE over part of a head (llama.cpp too refuses it for a llama) or stretched: by a scaling type,
    or by a factor alone, which llama.cpp applies as linear scaling whatever the type says (0 and 1: none)."""
    if size("rope.dimension_count", d_head) != d_head:
        raise problem(g.path, QT_TR_NOOP("its RoPE turns {0} of each head's {1} dimensions: AttnViz turns them all"),
                      size("rope.dimension_count"), d_head)
    scaling = size("rope.scaling.type", "none")
    if scaling not in ("none", None):
        raise problem(g.path, QT_TR_NOOP("stretches RoPE ({0} scaling), which AttnViz does not do"), scaling or "''")
    for key in ("rope.scaling.factor", "rope.scale_linear"):
        if size(key, 0.0) not in (0, 1):
            raise problem(g.path, QT_TR_NOOP("stretches RoPE ({0} scaling), which AttnViz does not do"),
                          f"×{_factor(size(key))}")


def _factor(value) -> str:
    """A factor as short as says it exactly (8, not 8.0; 1.0000001, not 1)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def _config(g: GGUF) -> Config:
    arch = _setting(g, "general.architecture", None)
    if arch not in FAMILIES:
        raise problem(g.path, QT_TR_NOOP("is a '{0}' model; AttnViz runs models of the families {1}"), arch, NAMES)
    family = FAMILIES[arch]
    size = lambda key, *default: _setting(g, f"{arch}.{key}", *default)  # noqa: E731
    d, heads = size("embedding_length"), size("attention.head_count")
    d_head = size("attention.key_length", size("rope.dimension_count", max(1, d // heads)))
    if size("attention.value_length", d_head) != d_head:
        raise problem(g.path, QT_TR_NOOP("its keys and values have different lengths: AttnViz shows heads "
                                         "whose q, k and v are alike"))
    if family.ROPE:
        _plain_rope(g, size, d_head)
    if size("final_logit_softcapping", 0.0) or size("attn_logit_softcapping", 0.0):  # as a HF folder's config
        raise problem(g.path, QT_TR_NOOP("caps its logits (softcapping), which AttnViz does not do"))
    n_layers = size("block_count")
    layer_norm = family.LAYER_NORM
    try:  # a family's own refusal (OLMo 3's windows in an olmo2 file) names the file, as a folder's does
        settings = family.gguf_settings(size, n_layers, d)
    except ScenarioError as e:
        raise problem(g.path, e) from None
    config = Config(
        family=arch, n_layers=n_layers, d=d, d_ff=size("feed_forward_length"), n_heads=heads,
        n_kv_heads=size("attention.head_count_kv", heads), d_head=d_head,
        eps=float(size("attention.layer_norm_epsilon" if layer_norm else "attention.layer_norm_rms_epsilon",
                       1e-5 if layer_norm else 1e-6)),
        context=size("context_length", 2048), name=model_name(g.path),
        rope_base=float(size("rope.freq_base", 10000.0)) if family.ROPE else 0.0,
        rope_halves=family.GGUF_ROPE_HALVES, quant=_quantisation(g), **settings)
    return checked(g.path, config)


def checked(path, c: Config) -> Config:
    """The sizes AttnViz can show: whole K/V groups, RoPE's pairs, the limits of a scenario."""
    if c.n_heads % c.n_kv_heads:
        raise problem(path, QT_TR_NOOP("has {0} heads for {1} K/V heads: not a model AttnViz can run"),
                      c.n_heads, c.n_kv_heads)
    if c.d_head % 2 and FAMILIES[c.family].ROPE:
        raise problem(path, QT_TR_NOOP("its heads have {0} dimensions, an odd number: RoPE turns pairs of "
                                         "dimensions"), c.d_head)
    if c.n_layers > MAX_LAYERS or c.n_heads > MAX_HEADS or c.d_head > MAX_DIM:
        raise problem(path, QT_TR_NOOP("has {0} layers of {1} heads of {2} dimensions; AttnViz shows at most {3} "
                                         "layers of {4} heads of {5}"), c.n_layers, c.n_heads,
                      c.d_head, MAX_LAYERS, MAX_HEADS, MAX_DIM)
    return c


@dataclass(frozen=True)
class _TokenizerSettings:
    size: int                # tokens in the vocabulary
    kind: str                # tokenizer.ggml.model: gpt2 or llama
    pre: str
    bos: int | None          # put first, when the model expects it
    eos: int | None
    space_prefix: bool
    add_eos: bool            # an EOS after every text, as llama.cpp puts it
    named_bos: int | None = None  # the vocabulary's BOS, added or not: a chat template's bos_token


def _tokenizer_settings(g: GGUF) -> _TokenizerSettings:
    """The tokenizer's kind, its lists' declared types and lengths and its ids, checked; nothing built."""
    kind = _setting(g, "tokenizer.ggml.model", None)
    if kind not in ("gpt2", "llama"):
        raise problem(g.path, QT_TR_NOOP("uses a '{0}' tokenizer; AttnViz reads byte-level BPE (gpt2) and "
                                         "SentencePiece BPE (llama)"), kind)
    tokens = g.fields.get("tokenizer.ggml.tokens")
    second = "tokenizer.ggml.merges" if kind == "gpt2" else "tokenizer.ggml.scores"
    listed = g.fields.get(second)
    if tokens is None or listed is None:
        raise problem(g.path, QT_TR_NOOP("has no tokenizer vocabulary and {0}"), second.rsplit(".", 1)[1])
    texts = (("tokenizer.ggml.tokens", tokens), ("tokenizer.ggml.merges", listed if kind == "gpt2" else None))
    for key, field in texts:
        if field is not None and not field.of_strings:
            raise problem(g.path, QT_TR_NOOP("its {0} is not a list of texts"), key)
    if tokens.count == 0:
        raise problem(g.path, QT_TR_NOOP("has an empty vocabulary"))
    for key in (second, "tokenizer.ggml.token_type"):
        field = g.fields.get(key)
        per_token = key != "tokenizer.ggml.merges"
        if field is not None and (not field.is_list or (per_token and field.count != tokens.count)):
            raise problem(g.path, QT_TR_NOOP("its {0} does not give one value per token"), key)
        if field is not None and per_token and field.of_strings:  # scores and token types are numbers
            raise problem(g.path, QT_TR_NOOP("its {0} is a list of texts, not of numbers"), key)
    _check_token_types(g)
    pre = _setting(g, "tokenizer.ggml.pre", "default")
    if kind == "gpt2" and pre not in tk.SPLITS:
        raise problem(g.path, QT_TR_NOOP("the tokenizer's pre-tokenizer '{0}' is not one AttnViz knows ({1})"),
                      pre, ", ".join(tk.SPLITS))
    # llama.cpp's default where the file does not say: a BOS for SentencePiece and for Llama 3's and Tekken's
    add_bos = _setting(g, "tokenizer.ggml.add_bos_token", kind == "llama" or pre in tk.WHOLE_WORDS)
    bos = _token_id(g, "tokenizer.ggml.bos_token_id", tokens.count, needed=add_bos)
    add_eos = _setting(g, "tokenizer.ggml.add_eos_token", False)
    eos = _token_id(g, "tokenizer.ggml.eos_token_id", tokens.count, needed=add_eos)
    _named_ids(g, tokens.count)
    return _TokenizerSettings(tokens.count, kind, pre, bos if add_bos else None, eos,
                              _setting(g, "tokenizer.ggml.add_space_prefix", True), add_eos, bos)


def _check_token_types(g: GGUF) -> None:
    """Each token's type, a whole number llama.cpp knows (0 to 6: normal, unknown, control, …): which tokens are
    special, never typed as text, is read from it."""
    key = "tokenizer.ggml.token_type"
    field = g.fields.get(key)
    if field is None:
        return
    if not field.of_whole_numbers:
        raise problem(g.path, QT_TR_NOOP("its {0} is not a list of whole numbers"), key)
    types = g.metadata[key]
    wrong = next((t for t in types if not 0 <= t <= MOST_TOKEN_TYPE), None)
    if wrong is not None:
        raise problem(g.path, QT_TR_NOOP("its {0} holds {1}, not a token type from 0 to {2}"), key, wrong,
                      MOST_TOKEN_TYPE)


MOST_TOKEN_TYPE = 6  # llama.cpp's LLAMA_TOKEN_TYPE_BYTE, the last
OTHER_IDS = ("unknown", "padding")  # the ids transformers reads beside the BOS and EOS (integrations/ggml.py)


def _named_ids(g: GGUF, n_tokens: int) -> None:
    """An unknown or padding id is a token id, or -1 for none (llama.cpp's reading; _token_id checks the BOS's
    and EOS's): transformers reads a negative id as a token counted from the vocabulary's end."""
    for key in (f"tokenizer.ggml.{name}_token_id" for name in OTHER_IDS):
        at = g.metadata[key] if key in g.fields else -1
        if type(at) is not int or not -1 <= at < n_tokens:
            raise problem(g.path, QT_TR_NOOP("its {0} is {1!r}, not a token id from 0 to {2:,}"), key, at,
                          n_tokens - 1)


def _token_id(g: GGUF, key: str, n_tokens: int, needed: bool) -> int | None:
    """A special token's id, within the vocabulary; -1 or no id means none, refused when `needed`."""
    value = _setting(g, key, _REQUIRED if needed else None)
    if value is None or (value == -1 and not needed and type(value) is int):
        return None
    if not 0 <= value < n_tokens:
        raise problem(g.path, QT_TR_NOOP("its {0} is {1!r}, not a token id from 0 to {2:,}"), key, value,
                      n_tokens - 1)
    return value


def expected_shapes(c: Config, n_tokens: int, tensors) -> dict[str, tuple[int, ...]]:
    """Every tensor the family reads, by the converter's name, with the shape its sizes give."""
    family, d = FAMILIES[c.family], c.d
    out = {"token_embd.weight": (n_tokens, d), "output_norm.weight": (d,)}
    if family.LAYER_NORM:
        out["output_norm.bias"] = (d,)
    if "output.weight" in tensors:
        out["output.weight"] = (n_tokens, d)
    out.update(family.gguf_top(c, tensors))
    block = family.gguf_tensors(c)
    for i in range(c.n_layers):
        out.update({f"blk.{i}.{name}": shape for name, shape in block.items()})
    return out


def _check_shapes(g: GGUF, c: Config, n_tokens: int) -> dict[str, tuple[int, ...]]:
    """Every tensor the model reads: present, of a type AttnViz reads, of the shape the sizes say
    (one embedding row per token), and holding numbers only (no NaN, no infinity)."""
    expected = _shapes_checked(g, c, n_tokens)
    for name in expected:
        if not g.finite(name):
            raise problem(g.path, QT_TR_NOOP("tensor {0} holds values that are not numbers (NaN or infinity): the "
                                             "file is damaged or not a model"), name)
    return expected


def _shapes_checked(g: GGUF, c: Config, n_tokens: int) -> dict[str, tuple[int, ...]]:
    """Every tensor the model reads, present, of a type AttnViz reads and of the shape the sizes say."""
    expected = expected_shapes(c, n_tokens, g.tensors)
    for name, shape in expected.items():
        got = g.info(name).shape
        if got != shape and len(shape) == 2 and shape[0] == n_tokens and got[1:] == shape[1:]:
            raise problem(g.path, QT_TR_NOOP("its vocabulary has {0:,} tokens but {1} has {2:,} rows: one row per "
                                             "token is needed"), n_tokens, name, got[0])
        if got != shape:
            raise problem(g.path, QT_TR_NOOP("tensor {0} has shape {1}, not {2}"), name, got, shape)
    return expected


def _tokenizer(g: GGUF, s: _TokenizerSettings) -> tk.Tokenizer:
    m = g.metadata
    tokens = m["tokenizer.ggml.tokens"]
    types = m["tokenizer.ggml.token_type"] if "tokenizer.ggml.token_type" in g.fields else None
    template = _setting(g, "tokenizer.chat_template", "") or None
    ids: dict[str, Any] = {"bos": s.bos, "eos": s.eos, "chat_template": template,
           "around": (() if s.bos is None else (s.bos,), (s.eos,) if s.add_eos and s.eos is not None else ())}
    try:
        if s.kind == "gpt2":
            made = tk.byte_level_bpe(tokens, m["tokenizer.ggml.merges"], s.pre, types, **ids)
        else:
            made = tk.sentencepiece_bpe(tokens, m["tokenizer.ggml.scores"], types, gemma=_setting(
                g, "general.architecture") == "gemma3", space_prefix=s.space_prefix, **ids)
    except FileProblem:  # the file's own reading (a list read as it is built) names it already
        raise
    except ScenarioError as e:
        raise problem(g.path, e) from None
    made.template_tokens = {"bos_token": _piece(made, tokens, types, s.named_bos),
                            "eos_token": _piece(made, tokens, types, s.eos)}
    return made


def _piece(made: tk.Tokenizer, tokens: list[str], types, i: int | None) -> str:
    """A special token as llama.cpp gives it to a chat template (token_to_piece, special tokens as written):
    a control or user-defined token as it is written, an unused one as nothing, any other as the text it stands
    for (Llama 2's <0x0A> a line break, ▁the " the")."""
    kind = tk.NORMAL if i is None or types is None else int(types[i])
    if i is None or kind == tk.UNUSED:
        return ""
    if kind in (tk.CONTROL, tk.USER_DEFINED):
        return tokens[i]
    return made.backend.decode([i], skip_special_tokens=False)


def _norm(g: GGUF, family: Family, name: str) -> Norm:
    """The norm `name`.weight (Gemma's stored as 1 + w already), with `name`.bias for a LayerNorm."""
    return Norm(g.tensor(f"{name}.weight"), g.tensor(f"{name}.bias") if family.LAYER_NORM else None)


def _block(g: GGUF, family: Family, c: Config, i: int) -> Block:
    """Layer i's block, its matrices read from the file a tile at a time as the block is built."""
    return family.gguf_block(lambda name: g.matrix(f"blk.{i}.{name}"), lambda name: _norm(g, family, f"blk.{i}.{name}"),
                             c)


def model_name(path) -> str:
    """The name people know a model file by: its file name without the weights' format
    (SmolLM2-135M-Instruct.Q4_1.gguf -> SmolLM2-135M-Instruct); a GGUF's general.name is often
    a training run's (Smollm2 135M 8k Lc100K Mix1 Ep2)."""
    stem = Path(path).stem
    return re.sub(r"[.-](?:I?Q\d\w*|[BF]F?16|F32)$", "", stem, flags=re.IGNORECASE) or stem
