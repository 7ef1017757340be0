"""What AttnViz reads from a model folder's JSON files and a GGUF file's metadata, declared field by
field: each one's type and range, checked at the door, so that a wrong type, a zero or an impossible
value is one line naming the file and the field, never a traceback from the code that uses it (a
config.json whose model_type was a list, rope_scaling's factor 0, an index whose weight_map was a list).

A field absent or null is left to the code that reads it (a default, or "has no ..."); fields AttnViz
does not read are not looked at.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, Protocol

from ..files import problem
from ..messages import QT_TR_NOOP, quoted


class Kind(Protocol):
    """What a declared field may hold: `wrong(value)` when it does not, `says()` what it must be."""

    def wrong(self, value: Any) -> bool: ...

    def says(self) -> str: ...


@dataclass(frozen=True)
class Whole:
    low: int = 1
    high: int = 1 << 31

    def wrong(self, value) -> bool:
        return not isinstance(value, int) or isinstance(value, bool) or not self.low <= value <= self.high

    def says(self) -> str:
        return f"a whole number from {self.low:,} to {self.high:,}"


@dataclass(frozen=True)
class TokenId(Whole):
    """A special token's id; -1 means none. Whether it lies in the vocabulary is checked where it is read."""
    low: int = -1

    def says(self) -> str:
        return "a token id"


@dataclass(frozen=True)
class Flag:
    def wrong(self, value) -> bool:
        return not isinstance(value, bool)

    def says(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Positive:
    """A number above 0 (or from `least`, where less would overflow the pass: a RoPE base of 1e-300, a
    scale of 5e-324) and finite, as a float too (a JSON integer of 400 digits is not)."""
    least: float = 0.0
    most: float = sys.float_info.max

    def wrong(self, value) -> bool:
        return not isinstance(value, (int, float)) or isinstance(value, bool) or \
            not 0 < value <= self.most or value < self.least

    def says(self) -> str:
        if self.most < sys.float_info.max:
            return f"a positive number up to {self.most:g}"
        return f"a number from {self.least:g}" if self.least else "a positive number"


@dataclass(frozen=True)
class Number:
    """A number from `low` on, finite as a float."""
    low: float = 0.0

    def wrong(self, value) -> bool:
        return not isinstance(value, (int, float)) or isinstance(value, bool) or \
            not self.low <= value <= sys.float_info.max

    def says(self) -> str:
        return f"a number from {self.low:g}"


@dataclass(frozen=True)
class Text:
    most: int = 1 << 16

    def wrong(self, value) -> bool:
        return not isinstance(value, str) or len(value) > self.most

    def says(self) -> str:
        return "a text"


@dataclass(frozen=True)
class Texts:
    most: int = 1 << 12

    def wrong(self, value) -> bool:
        return not isinstance(value, list) or len(value) > self.most or not all(isinstance(v, str) for v in value)

    def says(self) -> str:
        return f"a list of at most {self.most:,} texts"


@dataclass(frozen=True)
class Names:
    """An object of at most `most` names, each to a text (an index's tensor name -> its file); an entry
    that is not a text is named by `check`."""
    most: int = 1 << 20

    def wrong(self, value) -> bool:
        return not isinstance(value, dict) or len(value) > self.most

    def says(self) -> str:
        return f"an object of at most {self.most:,} tensors' names, each to its file's name"


@dataclass(frozen=True)
class Many:
    """A list (or, where `objects`, a list or an object) of at most `most` entries, measured before they are
    built into anything: what an entry is, the library reading the file says."""
    most: int
    objects: bool = False

    def wrong(self, value) -> bool:
        return not isinstance(value, (list, dict) if self.objects else list) or len(value) > self.most

    def says(self) -> str:
        return f"{'a list or an object' if self.objects else 'a list'} of at most {self.most:,} entries"


@dataclass(frozen=True)
class Object:
    fields: dict

    def wrong(self, value) -> bool:
        return not isinstance(value, dict)

    def says(self) -> str:
        return "an object"


# The most characters Unicode's normal forms make of one (U+FDFA is 18 in NFKC and NFKD)
UNICODE_GROWTH = {"NFKC": 18, "NFKD": 18, "NFC": 3, "NFD": 4}


@dataclass(frozen=True)
class Rewrite:
    """A normalizer, a pre-tokenizer or a decoder: the text it makes at most `growth` times as long as the
    text it is given (each Replace may lengthen it by its content over its pattern, one of a regex at every
    place; a ByteLevel four times, a character's bytes each made a character), at most `steps` steps and
    `nodes` JSON values in all, its texts short, and none of the `refused` types. The library trusts what
    they hold: a Precompiled charsmap of bad bytes, thirty ByteLevels in a row, Replaces that grow a text a
    thousandfold six times or 40,000 Prepends each abort the process or run for minutes."""
    growth: int = 16
    refused: tuple = ("Precompiled",)
    keeps: bool = False  # a normalizer or pre-tokenizer: nothing of the text may be removed (the labels would lie)
    only: tuple = ()     # where given, the only step types allowed (with SENTENCEPIECE's Replace and Prepend)
    longest: int = 1024
    steps: int = 64
    nodes: int = 4096

    def wrong(self, value) -> bool:
        return not isinstance(value, dict) or nodes(value, self.nodes) > self.nodes or \
            not 1 <= self._growth(value, [0]) <= self.growth

    def says(self) -> str:
        if self.only:
            return f"a rewrite of {', '.join(self.only)} or SentencePiece's ▁ only, in at most {self.steps} steps"
        return (f"a rewrite of at most {self.steps} steps making a text at most {self.growth} times as long, "
                f"with no {', '.join(self.refused)}" + (" nor a step that removes what it finds" if self.keeps
                                                         else ""))

    def _growth(self, step, count: list) -> float:
        """How many times longer `step` may make a text; 0 where it is refused (`count`: the steps so far)."""
        count[0] += 1
        if not isinstance(step, dict) or count[0] > self.steps or step.get("type") in self.refused:
            return 0
        if any(isinstance(v, str) and len(v) > self.longest for v in step.values()):
            return 0
        inner = step.get("normalizers", step.get("pretokenizers", step.get("decoders")))
        if step.get("type") == "Sequence" and isinstance(inner, list):
            return math.prod(self._growth(s, count) for s in inner)
        if self.keeps and (step.get("type"), step.get("content"), step.get("behavior")) in _REMOVING:
            return 0
        if self.only and step.get("type") not in (*self.only, "Sequence") and not _sentencepiece_space(step):
            return 0
        if step.get("type") == "Replace":
            return _replace_growth(step.get("pattern"), step.get("content"))
        kind = str(step.get("type"))
        return UNICODE_GROWTH.get(kind, 4 if kind == "ByteLevel" else 1)


# (type, content, behavior) of a step that removes what it finds: a Replace by nothing, a Split that drops it
_REMOVING = {("Replace", "", None), ("Split", None, "Removed")}


def _sentencepiece_space(step: dict) -> bool:
    """SentencePiece's own rewrites, which its decoder undoes: a space read as ▁, ▁ put before the text."""
    return step == {"type": "Replace", "pattern": {"String": " "}, "content": "▁"} or \
        step == {"type": "Prepend", "prepend": "▁"}


@dataclass(frozen=True)
class Small:
    """An object of at most `nodes` JSON values in all (a post-processor's template: Llama 3's has 14)."""
    nodes: int = 4096

    def wrong(self, value) -> bool:
        return not isinstance(value, dict) or nodes(value, self.nodes) > self.nodes

    def says(self) -> str:
        return f"an object of at most {self.nodes:,} values"


class PostProcessor(Small):
    """A post-processor's template that leaves each token's offsets as the model read them: a ByteLevel (or
    RoBERTa) step that trims them moves the spaces out of the tokens' spans, even where no special token is
    added, and the labels with them (Ġ and a word without its space)."""

    def wrong(self, value) -> bool:
        return super().wrong(value) or _trims(value)

    def says(self) -> str:
        return super().says() + " that keeps the tokens' offsets (no trim_offsets)"


def _trims(step) -> bool:
    if isinstance(step, list):
        return any(_trims(s) for s in step)
    return isinstance(step, dict) and (bool(step.get("trim_offsets")) or _trims(step.get("processors")))


@dataclass(frozen=True)
class AddedTokens:
    """tokenizer.json's added tokens: at most `most` of at most `chars` characters in all (the library builds
    an automaton of them: 60,000 tokens of 800 characters took 3.7 GB and aborted)."""
    most: int = 1 << 16
    chars: int = 1 << 20

    def wrong(self, value) -> bool:
        if not isinstance(value, list) or len(value) > self.most:
            return True
        texts: list[str] = [t["content"] if isinstance(t, dict) and isinstance(t.get("content"), str) else ""
                            for t in value]
        blank_stripped = any(not text.strip() and (t.get("lstrip") or t.get("rstrip"))  # quadratic on a run of spaces
                             for text, t in zip(texts, value) if isinstance(t, dict))
        return blank_stripped or sum(map(len, texts)) > self.chars

    def says(self) -> str:
        return (f"a list of at most {self.most:,} tokens of {self.chars:,} characters in all, none of spaces "
                "that strips the spaces beside it")


def nodes(value, most: int) -> int:
    """How many JSON values `value` holds, counted no further than past `most`."""
    count, todo = 0, [value]
    while todo and count <= most:
        item = todo.pop()
        count += 1
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return count


def _replace_growth(pattern, content) -> float:
    """A Replace of a fixed text: its content over its pattern; of a regex (it may match nothing at each
    place): one more than its content."""
    if not isinstance(content, str) or not isinstance(pattern, dict):
        return 0
    fixed = pattern.get("String")
    return max(1, len(content) / len(fixed)) if isinstance(fixed, str) and fixed else 1 + len(content)


@dataclass(frozen=True)
class OneOf:
    """One of a few texts (the tokenizer model of every family AttnViz runs: BPE)."""
    choices: tuple
    why: str = ""

    def wrong(self, value) -> bool:
        return isinstance(value, bool) or value not in self.choices

    def says(self) -> str:
        return " or ".join(c if isinstance(c, str) and c else repr(c) for c in self.choices) + self.why


@dataclass(frozen=True)
class TextOrObject:
    def wrong(self, value) -> bool:
        return not isinstance(value, (str, dict))

    def says(self) -> str:
        return "a text or an object"


WHOLE, SIZE = Whole(), Whole(1, 1 << 24)
SCALE = Positive(least=1e-3)  # a scale or factor: real ones are 0.125 to 256
BASE = Positive(least=1.0)    # a RoPE base: real ones are 10,000 to 1,000,000
EPS = Positive(most=1.0)      # a norm's ε: real ones are 1e-6 to 1e-5 (over 1, every norm's output is 0)
ROPE_FIELDS = {"rope_type": Text(64), "type": Text(64), "rope_theta": BASE, "factor": SCALE,
               "low_freq_factor": SCALE, "high_freq_factor": SCALE,
               "original_max_position_embeddings": WHOLE}
# transformers 5 writes Gemma 3's per layer type: rope_parameters.full_attention.rope_theta
ROPE = Object({**ROPE_FIELDS, **{kind: Object(ROPE_FIELDS) for kind in ("full_attention", "sliding_attention")}})
CONFIG = {
    "model_type": Text(64), "vocab_size": SIZE,
    "hidden_size": SIZE, "n_embd": SIZE, "num_attention_heads": SIZE, "n_head": SIZE,
    "num_hidden_layers": SIZE, "n_layer": SIZE, "head_dim": SIZE, "num_key_value_heads": SIZE,
    "intermediate_size": SIZE, "n_inner": SIZE, "max_position_embeddings": WHOLE, "n_positions": WHOLE,
    "sliding_window": WHOLE, "sliding_window_pattern": SIZE, "layer_types": Texts(),
    "query_pre_attn_scalar": SCALE, "rms_norm_eps": EPS, "layer_norm_epsilon": EPS,
    "rope_theta": BASE, "rope_local_base_freq": BASE, "rope_scaling": ROPE,
    "rope_parameters": ROPE, "torch_dtype": Text(64), "dtype": Text(64),
    "final_logit_softcapping": Positive(), "attn_logit_softcapping": Positive(), "license": Text(),
    "tie_word_embeddings": Flag(), "tokenizer_class": Text(64), "model_name": Text(),
}
INDEX = {"weight_map": Names()}
# A GGUF file's metadata: general.* and tokenizer.* as named, the sizes under the file's architecture
# ("llama.block_count"). The vocabulary's lists are checked where they are read, without building them.
GGUF: dict[str, Kind] = {
    "general.architecture": Text(64), "general.name": Text(), "general.license": Text(),
    "general.file_type": Whole(0, 1 << 16), "tokenizer.ggml.model": Text(64), "tokenizer.ggml.pre": Text(64),
    "tokenizer.ggml.add_bos_token": Flag(), "tokenizer.ggml.add_eos_token": Flag(),
    "tokenizer.ggml.add_space_prefix": Flag(),
    "tokenizer.ggml.bos_token_id": TokenId(), "tokenizer.ggml.eos_token_id": TokenId(),
    "tokenizer.chat_template": Text(),  # the reader holds every text to 1 MB
}
GGUF_FAMILY: dict[str, Kind] = {
    "embedding_length": SIZE, "attention.head_count": SIZE, "attention.head_count_kv": SIZE,
    "attention.key_length": SIZE, "attention.value_length": SIZE, "rope.dimension_count": SIZE,
    "block_count": SIZE, "feed_forward_length": SIZE, "context_length": WHOLE, "attention.sliding_window": SIZE,
    "attention.layer_norm_epsilon": EPS, "attention.layer_norm_rms_epsilon": EPS,
    "rope.freq_base": BASE, "rope.freq_base_swa": BASE, "rope.scaling.type": Text(64),
    "rope.scaling.factor": Number(),
    "rope.scale_linear": Number(), "final_logit_softcapping": Number(), "attn_logit_softcapping": Number(),
}
@dataclass(frozen=True)
class NamedTokens:
    """Tokens a tokenizer's settings name: a list of texts (or of {"content": text}), an object of names to
    them (extra_special_tokens), or added_tokens_decoder's object of ids to {"content": text, "special": true
    or false, ...}; at most `most`, each at most 1,024 characters."""
    most: int = 1 << 12
    by_id: bool = False  # added_tokens_decoder's: an object of ids to objects

    def wrong(self, value) -> bool:
        items = list(value.values()) if isinstance(value, dict) else value
        if self.by_id and not (isinstance(value, dict) and all(isinstance(t, dict) for t in items)):
            return True
        return not isinstance(items, list) or len(items) > self.most or \
            not all(0 < len(token_text(t)) <= 1024 for t in items)

    def says(self) -> str:
        if self.by_id:
            return f"an object of at most {self.most:,} ids, each to a token's object of at most 1,024 characters"
        return f"a list or an object of at most {self.most:,} tokens of at most 1,024 characters"


def token_text(item) -> str:
    """A named token's text: itself, or its "content"; "" where it is no text."""
    text = item.get("content") if isinstance(item, dict) else item
    return text if isinstance(text, str) else ""


TOKENIZER_CONFIG = {**{f"{name}_token": TextOrObject() for name in ("bos", "eos", "unk", "sep", "pad", "cls", "mask")},
                    "added_tokens_decoder": NamedTokens(by_id=True), "extra_special_tokens": NamedTokens(),
                    "additional_special_tokens": NamedTokens(), "split_special_tokens": Flag(),
                    "tokenizer_class": Text(64), "add_prefix_space": Flag(), "legacy": Flag()}
# The other keys of tokenizer_config.json (and of special_tokens_map.json, where transformers merges it in) that
# a folder may hold: each is read by transformers 5 without changing the ids of a text or its chat template, as
# tools/checked_settings.py shows on every family (the paths are passed over for the folder's own files). A key
# outside these, TOKENIZER_CONFIG, chat_template, auto_map and a model's own "…_token" is refused by name:
# transformers may read it otherwise (a padding that names a token adds that token).
NO_EFFECT = frozenset({
    "name_or_path", "processor_class", "verbose", "model_max_length", "max_len", "padding_side", "truncation_side",
    "model_input_names", "clean_up_tokenization_spaces", "errors", "spaces_between_special_tokens", "backend",
    "is_local", "local_files_only", "add_bos_token", "add_eos_token", "sp_model_kwargs", "use_default_system_prompt",
    "vocab_size", "do_lower_case", "max_length", "stride", "truncation_strategy", "pad_to_multiple_of",
    "pad_token_type_id", "tokenizer_file", "vocab_file", "merges_file", "special_tokens_map_file",
})


def unknown_setting(settings: dict) -> str | None:
    """The first key of tokenizer settings whose effect AttnViz does not know, or None."""
    return next((key for key, value in settings.items()
                 if key not in TOKENIZER_CONFIG and key not in NO_EFFECT and key not in ("chat_template", "auto_map")
                 and not (key.endswith("_token") and (value is None or isinstance(value, (str, dict))))), None)
# tokenizer.json, read by `tokenizers` as it is once these hold: a vocabulary and merges of at most a million
# (Gemma 3's 262,144 tokens and 514,906 merges are the largest in use), so that two million merges in a 64 MB
# file are refused before they take 1.4 GB. Parsing it here first costs ≈ 0.4 s on a 17 MB file. Its padding
# and truncation are not read: one text is encoded as transformers does by default, neither padded nor cut.
ENTRIES = 1 << 20  # tokens or merges of a vocabulary, in a tokenizer.json or implied by a GGUF's
TOKENIZER = {
    "model": Object({"type": OneOf(("BPE",)), "vocab": Many(ENTRIES, objects=True), "merges": Many(ENTRIES),
                     "dropout": OneOf((0,), " (a text is read the same way every time)"),
                     "continuing_subword_prefix": OneOf(("",), " (as in every family AttnViz runs)"),
                     "end_of_word_suffix": OneOf(("",), " (as in every family AttnViz runs)"),
                     "unk_token": Text(1024)}),
    "added_tokens": AddedTokens(), "pre_tokenizer": Rewrite(keeps=True),
    # a normalizer only as the families have them (Unicode's normal forms, whose offsets the library aligns; a
    # text NFKC changes is refused where it is read; SentencePiece's spaces): any other rewrite moves the
    # tokens' offsets off the text they stand for, and so their labels
    "normalizer": Rewrite(growth=18, keeps=True, refused=("Precompiled", "Strip", "StripAccents", "BertNormalizer"),
                          only=("NFC", "NFD", "NFKC", "NFKD")),
    "post_processor": PostProcessor(), "decoder": Rewrite(),
}


def check(path, document: dict, fields: dict, within: str = "") -> None:
    """Each declared field of `document` that is there and not null, of its kind (nested objects too)."""
    for key, kind in fields.items():
        value = document.get(key)
        if value is None:
            continue
        name = within + key
        if kind.wrong(value):
            raise problem(path, QT_TR_NOOP("its {0} is {1}, not {2}"), name, shown(value), kind.says())
        if isinstance(kind, Object):
            check(path, value, kind.fields, name + ".")
        if isinstance(kind, Names):
            _check_names(path, value, name)


def _check_names(path, value: dict, name: str) -> None:
    """Each entry of the object `value` a text, or one line naming the first that is not."""
    for key, entry in value.items():
        if not isinstance(entry, str):
            raise problem(path, QT_TR_NOOP("its {0} is {1}, not {2}"), f"{name}[{quoted(key)}]", shown(entry),
                          "a file's name")


def check_gguf(g) -> None:
    """Each declared metadata value of the GGUF file `g` that is there; a list where one value belongs is
    refused before it is built."""
    arch = g.metadata["general.architecture"] if _one(g, "general.architecture") else ""
    declared = {**GGUF, **({f"{arch}.{key}": kind for key, kind in GGUF_FAMILY.items()} if arch else {})}
    check(g.path, {key: g.metadata[key] for key in declared if _one(g, key)}, declared)


def _one(g, key: str) -> bool:
    """Whether `key` is there; a list there is refused unbuilt."""
    field = g.fields.get(key)
    if field is not None and field.is_list:
        raise problem(g.path, QT_TR_NOOP("its {0} is a list, not one value"), key)
    return field is not None


def shown(value) -> str:
    """`value` as a message quotes it, a list or an object by its kind."""
    if value is None:
        return "null"
    return "an object" if isinstance(value, dict) else "a list" if isinstance(value, list) else quoted(value)
