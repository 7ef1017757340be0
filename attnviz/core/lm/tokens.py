"""Text to token ids with the model's own tokenizer, built with Hugging Face's `tokenizers`, and
labels people can read.

A Hugging Face folder brings its tokenizer.json, read as it is. A GGUF file brings its
vocabulary as metadata, and the tokenizer is built from it the way transformers builds it from
the same file (its integrations/gguf/gguf_tokenizer_mapping.py):

* `gpt2` (byte-level BPE: SmolLM2, Llama 3, Qwen, GPT-2): the file's merges; the text split by
  the regex its `tokenizer.ggml.pre` names (llama.cpp's names), then written as byte characters.
  SmolLM2's "smollm" splits off every digit first, as its tokenizer.json does (transformers
  leaves that pre-tokenizer out and falls back to GPT-2's; llama.cpp and the original agree).
* `llama` (SentencePiece BPE with byte fallback: Llama 2, TinyLlama, Gemma): merges recovered
  from the vocabulary (by score, or for Gemma by the order of the file), unknown characters as
  their UTF-8 bytes <0xE7> <0x8C> <0xAB>.

Control tokens (<bos>, <|im_start|>) are special: typed in a text they are one token. A BOS the
model expects is put first and labelled ⟨BOS⟩, so nobody takes the attention it gathers for a
word's. Each token keeps the span of text it came from: 猫 made of three byte tokens is labelled
猫 1/3, 猫 2/3, 猫 3/3, and a leading space is shown as ·.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import threading
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from tokenizers import AddedToken, Regex, decoders, normalizers, pre_tokenizers
from tokenizers import Tokenizer as Backend
from tokenizers.models import BPE

from ..messages import QT_TR_NOOP, quoted
from ..scenario import MAX_TOKEN_LENGTH, ScenarioError
from ..text import marked_invisible, shortened, visible
from . import fields
from .run import Cancelled

BOS_LABEL = "⟨BOS⟩"
_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>", re.ASCII)  # a byte fallback's token (‹0x٣٣> is text, not 0x33)
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6   # llama.cpp's token types
# Tokens llama.cpp reads as control tokens whatever type a file gives them (its vocabulary's "control-looking
# token … its type will be overridden": Gemma's <end_of_turn> is stored as a normal one), so that a chat
# template's end of turn is one token, not nine pieces.
CONTROL_LOOKING = frozenset({
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<end_of_turn>", "<|endoftext|>", "<|eom_id|>",
    "<EOT>", "_<EOT>", "<|end_of_text|>", "<end_of_utterance>", "<｜end▁of▁sentence｜>", "</s>", "<|flush|>",
    "<|calls|>", "[EOT]", "[EOS]", "<eos>", "<turn|>", "<|tool_response>", "[e~[",
    "<|fim_repo|>", "<fim-repo>", "<REPO>", "<PAD>", "[PAD]", "<|code_prefix|>", "<|code_suffix|>",
    "<|code_middle|>", "<|prefix|>", "<|suffix|>", "<|middle|>",
    "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
    "<fim-prefix>", "<fim-suffix>", "<fim-middle>", "<fim-pad>", "<fim_prefix>", "<fim_suffix>", "<fim_middle>",
    "<fim_pad>", "<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>", "<PRE>", "<SUF>", "<MID>", "▁<PRE>", "▁<SUF>",
    "▁<MID>", "<reponame>", "<file_sep>"})

_LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
           r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_QWEN2 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")
_TEKKEN = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
           r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
           r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
# llama.cpp's splits for a file that names no pre-tokenizer (or "default"), applied one after the other:
# punctuation runs, GPT-2's pattern, numbers, then digits in threes
_DEFAULT = (r"[\p{P}\$\+<=>\^~\|]+", r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)",
            r"\p{N}+", r"[0-9][0-9][0-9]")
# tokenizer.ggml.pre -> how the text is split before the merges (None: GPT-2's own pattern)
SPLITS = {"default": _DEFAULT, "gpt2": None, "gpt-2": None, "smollm": "digits", "llama3": _LLAMA3, "llama-v3": _LLAMA3,
          "llama-bpe": _LLAMA3, "smaug-bpe": _LLAMA3, "dbrx": _LLAMA3, "falcon3": _LLAMA3,
          "qwen2": _QWEN2, "deepseek-r1-qwen": _QWEN2, "tekken": _TEKKEN}
WHOLE_WORDS = {"llama3", "llama-v3", "llama-bpe", "falcon3", "tekken"}  # llama.cpp's ignore_merges (llama-vocab.cpp)
MAX_TOKENIZER_BYTES = 64 << 20   # a tokenizer.json (Gemma 3's: 33 MB)
MAX_PIECE = 1024                 # characters in one token of a GGUF's vocabulary (Gemma 3's longest: 31)
# A SentencePiece vocabulary's merges are found by cutting every token every way (Gemma 3: 262,144 tokens of
# 1,476,602 characters imply 514,906 merges in 1.4 s): the work is bounded by its characters, the memory by
# the merges, each held to about five times Gemma's; a tokenizer.json holds at most as many merges.
MAX_VOCAB_CHARS = 1 << 23
MAX_MERGES = fields.ENTRIES


@dataclass(frozen=True)
class Token:
    id: int
    start: int   # character offsets into the text; start == end for a token the tokenizer added
    end: int


class TooManyTokens(Exception):
    """A text of more tokens than asked for: `count` of them."""

    def __init__(self, count: int):
        super().__init__(count)
        self.count = count


class Tokenizer:
    """A model's tokenizer: `tokenizers` does the work; this keeps what AttnViz shows with it."""

    def __init__(self, backend: Backend, bos: int | None = None, chat_template: str | None = None,
                 eos: int | None = None, byte_level: bool = True, around: tuple[tuple[int, ...], ...] | None = None):
        self.backend = backend
        self.pieces = [backend.id_to_token(i) or "" for i in range(backend.get_vocab_size(with_added_tokens=True))]
        self.bos = bos                       # put first when the model expects it
        self.eos = eos
        # the special tokens the model expects before and after a text: its BOS, unless the file says otherwise
        # (an EOS after it, as llama.cpp's add_eos_token; two BOS, as a tokenizer.json's post-processor may)
        self.before, self.after = around or (() if bos is None else (bos,), ())
        self.chat_template = chat_template
        # what a chat template calls bos_token and eos_token, as transformers (tokenizer_config.json's, or
        # special_tokens_map.json's) and llama.cpp (the vocabulary's, put first by the model or not: OLMo 2's
        # template writes its BOS itself) give them; None: the pieces of the BOS and EOS. `template_problem`: why
        # the template cannot have them (a bos_token that is no token of the vocabulary), said when it runs.
        self.template_tokens: dict[str, str] | None = None
        self.template_problem: tuple[str, str] | None = None
        self.byte_level = byte_level
        added = backend.get_added_tokens_decoder().values()
        self.special = {t.content for t in added if t.special}
        self.added = {t.content for t in added}  # matched in the text as written, whatever its characters
        self._form = _canonical_form(backend)  # worked out once, not at every text
        self.longest = max((len(p) for p in self.pieces), default=1)  # characters one token stands for, at most

    def encode(self, text: str, bos: bool = True, cancelled=None, most: int | None = None) -> list[Token]:
        """The tokens of `text` (special tokens typed in it parsed as one each), BOS first when the
        model expects one and `bos`. `cancelled()` is asked first: the library's own work is one
        call of milliseconds for the longest text accepted, and cannot stop midway. More than `most`
        tokens: TooManyTokens, before a Token is made of them."""
        if cancelled is not None and cancelled():
            raise Cancelled()
        found = self._encoded(text)
        first = [Token(i, 0, 0) for i in self.before] if bos else []
        last = [Token(i, len(text), len(text)) for i in self.after] if bos else []
        if most is not None and len(first) + len(found) + len(last) > most:
            raise TooManyTokens(len(first) + len(found) + len(last))
        self._check_spelled(text, found.ids)
        return first + [Token(i, a, b) for i, (a, b) in zip(found.ids, found.offsets)] + last

    def _encoded(self, text: str):
        """The library's encoding of `text`, with no special tokens put around it; its failure named."""
        try:
            with rust_quiet():
                return self.backend.encode(text, add_special_tokens=False)
        except BaseException as e:  # noqa: B036 (a panic in the Rust side is a BaseException)
            if not _failed_inside(e):
                raise
            raise ScenarioError(QT_TR_NOOP("the tokenizer cannot read this text: {0}"), _first_line(e)) from None

    def _check_spelled(self, text: str, ids: list[int]) -> None:
        """The tokens spell the text as it is written (their bytes, the special tokens typed in it): else the
        labels, spans of the text, would name tokens the model did not read. A character the vocabulary lacks
        is dropped by the library without a word, and a normalizer may rewrite one; NFC's composed letters
        are the same text, and SentencePiece puts a space before the first word."""
        if any(not 0 <= i < len(self.pieces) for i in ids):
            return  # an id past the vocabulary: refused where the model reads it (shown.encode), naming the id
        if any(self._spells(written.encode(), ids) for written in (text, unicodedata.normalize("NFC", text))):
            return
        read = b"".join(self._piece(i) for i in ids).decode("utf-8", "replace")
        raise ScenarioError(_MISREAD, shortened(marked_invisible(visible(read)), 80))

    def _piece(self, i: int) -> bytes:
        """The bytes token i stands for (a special token: its text)."""
        piece = self.piece_bytes(i)
        return self.pieces[i].encode() if piece is None else piece

    def _spells(self, written: bytes, ids: list[int]) -> bool:
        """Whether the tokens (ids 0 … n − 1) spell `written`, where each stretch of text may begin with the space
        SentencePiece puts before it: at the text's start, and, as llama.cpp and a Prepend normalizer put it,
        after an added token (" [INST]" after <s>; a Metaspace of prepend_scheme "first" puts none there). Each
        such space is taken either way: `ends` holds every place in `written` the tokens so far may reach."""
        ends, start = {0}, True
        for i in ids:
            piece = self._piece(i)
            spaced = start and piece.startswith(b" ")
            ends = {at + len(piece) for at in ends if written.startswith(piece, at)} | \
                {at + len(piece) - 1 for at in ends
                 if spaced and (not self.byte_level or at == 0) and written.startswith(piece[1:], at)}
            if not ends:
                return False
            start = self.pieces[i] in self.added
        return len(written) in ends

    def canonical(self, text: str) -> str:
        """`text` in the Unicode normal form (NFC or NFD) the tokenizer's normalizer brings it to, the same text:
        tokenized so, the tokens' offsets are its own (the library's alignment of a text whose combining marks
        the normalizer reorders puts each mark's tokens on the other mark)."""
        normal = text if self._form is None else unicodedata.normalize(self._form, text)
        if normal == text or self._encoded(normal).ids == self._encoded(text).ids:
            return normal
        # Added tokens are matched in the text as written: its normal form may make one ("<|\u212a|>" the token
        # "<|K|>"), or unmake one ("<|im_end|>" and U+0338 are "<|im_end|≯"). The text is read as written, unless
        # the normalizer puts two of its accents in another order, whose tokens' places would be each other's.
        if _reordered(text):
            raise ScenarioError(_MISREAD, shortened(marked_invisible(visible(normal)), 80))
        return text

    def normalized_length(self, text: str) -> int:
        """The characters of `text` after the tokenizer's normaliser (NFKC makes one character of U+FDFA 18),
        what its tokens must cover: worked out on the text alone, before any token is made."""
        normalizer = self.backend.normalizer
        if normalizer is None:
            return len(text)
        try:
            with rust_quiet():
                return len(normalizer.normalize_str(text))
        except BaseException as e:  # noqa: B036 (a panic in the Rust side is a BaseException)
            if not _failed_inside(e):
                raise
            raise ScenarioError(QT_TR_NOOP("the tokenizer cannot read this text: {0}"), _first_line(e)) from None

    def piece_bytes(self, token_id: int) -> bytes | None:
        """The bytes a vocabulary entry stands for, or None for a special token such as <|im_end|>
        (or an id past the tokenizer's tokens: a padding row of the model's embedding)."""
        if not 0 <= token_id < len(self.pieces):
            return None
        piece = self.pieces[token_id]
        if piece in self.special:
            return None
        if self.byte_level and piece in self.added:  # "naïve" added as it is written, not as byte characters
            return piece.encode()
        if self.byte_level:
            back = _byte_values()
            return bytes(back[ch] for ch in piece) if all(ch in back for ch in piece) else piece.encode()
        if _BYTE_PIECE.fullmatch(piece):
            return bytes([int(piece[3:5], 16)])
        return piece.replace("▁", " ").encode()

    def chat(self, text: str, cancelled=None) -> str:
        """`text` as the user's message in the model's chat template, ready for its answer; `cancelled()`
        is asked as the template runs."""
        from .template import render  # jinja2: 22 ms of every start-up (-X importtime), for --chat only
        if not self.chat_template:
            raise ScenarioError(QT_TR_NOOP("this model has no chat template"))
        if self.template_problem is not None:
            raise ScenarioError(QT_TR_NOOP("its {0} {1} is not one of its vocabulary's special tokens: its chat "
                                           "template cannot be used"), *self.template_problem)
        name = lambda i: self.pieces[i] if i is not None else ""  # noqa: E731
        tokens = self.template_tokens if self.template_tokens is not None else \
            {"bos_token": name(self.bos), "eos_token": name(self.eos)}
        try:  # as transformers renders one: no tools, no documents
            return render(self.chat_template, cancelled, messages=[{"role": "user", "content": text}],
                          tools=None, documents=None, add_generation_prompt=True, **tokens)
        except Cancelled:
            raise
        except Exception as e:  # a template is the file's code: whatever it raises is its fault
            raise ScenarioError(QT_TR_NOOP("the model's chat template cannot be used: {0}"), str(e)[:200]) from None


_QUIET = threading.RLock()


@contextmanager
def rust_quiet():
    """A panic of the library's Rust side prints its message, and with RUST_BACKTRACE sixty lines, to the
    process's stderr before Python sees it; AttnViz says it in one line instead. For the call, fd 2 points at
    a scratch file: after a panic its text is dropped, else whatever was written there is passed on."""
    with _QUIET, tempfile.TemporaryFile() as scratch:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(scratch.fileno(), 2)
        panicked = False
        try:
            yield
        except BaseException as e:  # noqa: B036 (a PanicException is a BaseException)
            panicked = type(e).__name__ == "PanicException"
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            scratch.seek(0)
            written = scratch.read()
            if written and not panicked:
                os.write(2, written)


def _failed_inside(e: BaseException) -> bool:
    """An error of the tokenizers library, a panic of its Rust side (pyo3's PanicException, a
    BaseException: a pre-tokenizer's regex that gives up on a text) included; not Ctrl+C."""
    return isinstance(e, Exception) or type(e).__name__ == "PanicException"


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]


def byte_characters() -> tuple[str, ...]:
    """GPT-2's printable stand-in for each byte, by the byte's value (a space is Ġ, a newline Ċ)."""
    values = _byte_values()
    return tuple(sorted(values, key=lambda c: values[c]))


@lru_cache(maxsize=None)
def _byte_values() -> dict[str, int]:
    """GPT-2's printable stand-in for each byte, backwards: Ġ -> 0x20."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, shift = {}, 0
    for b in range(256):
        if b in printable:
            table[chr(b)] = b
        else:
            table[chr(256 + shift)] = b
            shift += 1
    return table


# ---------------------------------------------------------------- built from a file

# What every tokenizer of the families reads back as it was, each token's bytes spelled as its decoder spells
# them (byte-level or byte fallback): capitals, letters, digits, punctuation, an accent, CJK and a newline.
PROBE = "Ab a b c é 日本, the quick brown fox jumps over 13 lazy dogs?\n"


_MISREAD = QT_TR_NOOP("the model's tokenizer reads this text as '{0}', not as it is written: its tokens could not "
                      "be labelled with the text")


def _reordered(text: str) -> bool:
    """Whether Unicode's normal forms put two of `text`'s combining marks in another order (each character
    decomposed alone, so that only the order between characters is looked at)."""
    classes = [unicodedata.combining(mark) for ch in text for mark in unicodedata.normalize("NFD", ch)]
    return any(0 < after < before for before, after in zip(classes, classes[1:]))


def from_json(text: str, chat_template: str | None = None, eos=None, bos=None,
              split_special: bool = False, others: dict | None = None, defaults: dict | None = None) -> Tokenizer:
    """A Hugging Face tokenizer.json, as transformers reads it; the BOS its post-processor puts
    first (when it does) is the one the model expects. `eos` and `bos`: the folder's (a text, or an added
    token's object; None where it names none), what a chat template calls them. `split_special`: its
    settings' split_special_tokens (special tokens typed in a text read as the text they are written with),
    set once the tokenizer's own reading has been checked. `others`: the other special tokens it names
    (unk_token, pad_token, …), which transformers also gives a chat template; `defaults`: those the
    tokenizer class transformers reads it with names where the folder names none (its template gets those
    the vocabulary lists)."""
    try:
        with rust_quiet():
            backend = Backend.from_str(text)
            backend.no_padding()  # transformers' default for one text: its padding and truncation
            backend.no_truncation()  # (4,000,000,000 pad tokens, or none left) are not the model's reading
            plain, marked = backend.encode("a", add_special_tokens=False).ids, backend.encode("a")
            probed = backend.encode(PROBE, add_special_tokens=False).ids
            read_back = backend.decode(probed)
            backend.encode_special_tokens = split_special
    except BaseException as e:  # noqa: B036 (the Rust side says what is wrong in its own words, or panics)
        if not _failed_inside(e):
            raise
        raise ScenarioError(QT_TR_NOOP("its tokenizer.json cannot be read: {0}"), _first_line(e)) from None
    _check_ids(backend)
    around = _around(plain, marked.ids, marked.sequence_ids)
    eos, bos = (t.get("content") if isinstance(t, dict) else t for t in (eos, bos))
    made = Tokenizer(backend, around[0][0] if around[0] else None, chat_template,
                     backend.token_to_id(eos) if isinstance(eos, str) else None, byte_level=_decodes_bytes(backend),
                     around=around)
    named = {"bos_token": bos, "eos_token": eos,
             **{key: t.get("content") if isinstance(t, dict) else t for key, t in (others or {}).items()}}
    named.update({key: token for key, token in (defaults or {}).items()
                  if named.get(key) is None and token in made.added})
    ordinary = next((t for t in named.values() if isinstance(t, str) and t in made.added and t not in made.special),
                    None)
    if split_special and ordinary is not None:
        raise ScenarioError(QT_TR_NOOP("lists {0} as an ordinary token, which the folder's settings name as a special "
                                       "one and split (split_special_tokens): transformers makes it special and so "
                                       "splits it in a text, where AttnViz would read it whole"), quoted(ordinary))
    _template_tokens(made, named)
    spelled = b"".join(made.piece_bytes(i) or b"" for i in probed).decode("utf-8", "replace")
    # Characters dropped, changed or added, or pieces spelled unlike the text they stand for: the labels would
    # lie. (A SentencePiece normalizer puts ▁, a space, before the first word.)
    for reading in (read_back, spelled.removeprefix(" ")):
        if reading != PROBE:
            raise ScenarioError(QT_TR_NOOP("its tokenizer does not read a text back as it was ('{0}' reads back as "
                                           "'{1}'), so AttnViz could not show which text each token is"),
                                visible(PROBE), shortened(marked_invisible(visible(reading)), 2 * len(PROBE)))
    return made


def _template_tokens(made: Tokenizer, named: dict) -> None:
    """A Hugging Face folder's special tokens (bos_token, eos_token, pad_token, …) as its chat template gets
    them: as named, and none where none is (as transformers passes them); one that is not a text, or not one of
    the vocabulary's added tokens
    (transformers would make it one: a new token past the model's embeddings, or a word read otherwise in the
    rest of the text than AttnViz reads it), stops the template."""
    made.template_tokens = {}
    for key, value in named.items():
        if value is None:
            continue
        if not isinstance(value, str) or (value and value not in made.added):
            made.template_problem = (key, shortened(repr(value), 60))
        made.template_tokens[key] = value if isinstance(value, str) else ""


def _around(plain: list[int], marked: list[int], sequence: list[int | None]) -> tuple[tuple[int, ...], ...]:
    """The tokens a tokenizer.json's post-processor puts before and after a text ('<s> $A </s>': the BOS and the
    EOS), as transformers puts them. Anything else ('$A </s> $A' repeats the text) is refused: the text's own
    tokens would not be there once, whole, between them."""
    kept = [k for k, s in enumerate(sequence) if s is not None]
    before, after = (marked[:kept[0]], marked[kept[-1] + 1:]) if kept else ([], [])
    if before + plain + after != marked:
        raise ScenarioError(QT_TR_NOOP("its tokenizer.json's post-processor does more than put tokens before and "
                                       "after a text ({0}): AttnViz could not tell which tokens are the text's"),
                            ", ".join(map(str, marked[:20])))
    return tuple(before), tuple(after)


def _check_ids(backend: Backend) -> None:
    """The vocabulary's ids are 0 to n − 1, each a token's: an id past them (a gap below it) would be read
    without a piece to spell it, and the labels after a character the tokenizer drops would shift."""
    ids = backend.get_vocab(with_added_tokens=True).values()
    top = max(ids, default=-1)
    if top + 1 != len(ids):
        raise ScenarioError(QT_TR_NOOP("its vocabulary has {0:,} tokens but ids up to {1:,}: each id from 0 on "
                                       "must be a token's"), len(ids), top)


def _canonical_form(backend: Backend) -> Literal["NFC", "NFD"] | None:
    """NFC or NFD where the normalizer brings a text to a Unicode normal form (the compatibility forms start
    with the canonical ones), else None."""
    if backend.normalizer is None:
        return None
    state = json.loads(backend.normalizer.__getstate__())
    steps = state.get("normalizers", []) if state.get("type") == "Sequence" else [state]
    forms = [step.get("type") for step in steps if isinstance(step, dict)]
    form = next((f for f in reversed(forms) if f in ("NFC", "NFD", "NFKC", "NFKD")), None)  # the last one wins
    return None if form is None else "NFD" if form.endswith("D") else "NFC"


def _decodes_bytes(backend: Backend) -> bool:
    """Whether the tokenizer's decoder reads its pieces as GPT-2's byte characters (a ByteLevel step), so that
    the labels spell them so; else they are SentencePiece's (▁ for a space, <0x41> for a byte). Its own decoder
    decides, not model.byte_fallback: a file may set that flag either way and still decode as it says."""
    decoder = backend.decoder
    if decoder is None:
        return isinstance(backend.model, BPE) and not backend.model.byte_fallback
    steps = json.loads(decoder.__getstate__())
    steps = steps.get("decoders", []) if steps.get("type") == "Sequence" else [steps]
    return any(isinstance(step, dict) and step.get("type") == "ByteLevel" for step in steps)


def _built(make) -> Tokenizer:
    """A tokenizer built from a GGUF's lists: what the tokenizers library refuses there (a merge of pieces
    not in the vocabulary, a duplicate token that makes its Rust side panic) is one line."""
    try:
        with rust_quiet():
            return make()
    except ScenarioError:
        raise
    except BaseException as e:  # noqa: B036 (a PanicException is a BaseException)
        if not _failed_inside(e):
            raise
        raise ScenarioError(QT_TR_NOOP("its tokenizer cannot be built from its vocabulary: {0}"),
                            _first_line(e)) from None


def byte_level_bpe(tokens: list[str], merges: list[str], pre: str, types=None, **kw) -> Tokenizer:
    """GPT-2-style byte-level BPE from a GGUF's tokens and merges; `pre` is tokenizer.ggml.pre."""
    _measured(tokens)
    return _built(lambda: _byte_level_bpe(tokens, merges, pre, types, **kw))


def _byte_level_bpe(tokens: list[str], merges: list[str], pre: str, types=None, **kw) -> Tokenizer:
    if pre not in SPLITS:
        raise ScenarioError(QT_TR_NOOP("the tokenizer's pre-tokenizer '{0}' is not one AttnViz knows ({1})"),
                            pre, ", ".join(SPLITS))
    spelling, stand_in = _byte_values(), byte_characters()
    kinds = list(types) if types is not None else []
    # A raw "\n\n" spelled as ĊĊ; a control or user-defined token (<｜User｜>) is kept as written, as llama.cpp
    # reads it: it is matched in the text as it is, not merged from bytes.
    spelled = [t if set(t) <= spelling.keys() or (i < len(kinds) and _whole(t, kinds[i]))
               else "".join(stand_in[b] for b in t.encode()) for i, t in enumerate(tokens)]
    vocab = _vocabulary(spelled)  # two spellings of one token (Ġthe and " the") refused, not one id lost
    bad = next((m for m in merges if not isinstance(m, str) or " " not in m.strip(" ")), None)
    if bad is not None:  # a merge is two pieces with a space between them
        raise ScenarioError(QT_TR_NOOP("its merges hold '{0}', which is not two pieces with a space between"),
                            str(bad)[:40])
    pairs = [(left, right) for left, right in (m.split(" ", 1) for m in merges)]
    # Llama 3's vocabulary holds words its merges cannot reach: llama.cpp (and its tokenizer.json) look a
    # piece up whole before merging it
    backend = Backend(BPE(vocab, pairs, fuse_unk=False, ignore_merges=pre in WHOLE_WORDS))
    split = SPLITS[pre]
    if split is None:
        backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    elif split == "digits":
        backend.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                                         pre_tokenizers.ByteLevel(add_prefix_space=False)])
    else:
        splits = [pre_tokenizers.Split(Regex(r), behavior="isolated") for r in (split if isinstance(split, tuple)
                                                                                else (split,))]
        backend.pre_tokenizer = pre_tokenizers.Sequence([*splits, pre_tokenizers.ByteLevel(add_prefix_space=False,
                                                                                           use_regex=False)])
    backend.decoder = decoders.ByteLevel()
    _add_special(backend, spelled, types)
    return Tokenizer(backend, byte_level=True, **kw)


def sentencepiece_bpe(tokens: list[str], scores, types=None, gemma: bool = False, space_prefix: bool = True,
                      unk: str = "<unk>", **kw) -> Tokenizer:
    """SentencePiece-style BPE (see _sentencepiece_bpe), what the library refuses said in one line."""
    _measured(tokens)
    return _built(lambda: _sentencepiece_bpe(tokens, scores, types, gemma, space_prefix, unk, **kw))


def _sentencepiece_bpe(tokens: list[str], scores, types=None, gemma: bool = False, space_prefix: bool = True,
                       unk: str = "<unk>", **kw) -> Tokenizer:
    """SentencePiece-style BPE with byte fallback (Llama 2, Gemma) from a GGUF's tokens and
    scores. The file has no merges: they are recovered from the vocabulary, best first, by score
    (for Gemma, whose scores do not follow its merge order, by the order of the file)."""
    if gemma:  # a token of spaces only is stored as spaces; Gemma looks it up as ▁▁
        tokens = ["▁" * len(t) if t and " " in t and not t.strip() else t for t in tokens]
        scores = [-i for i in range(len(tokens))]
    vocab = _vocabulary(tokens)
    if unk not in vocab and not all(f"<0x{b:02X}>" in vocab for b in range(256)):
        raise ScenarioError(QT_TR_NOOP("its vocabulary has no {0} and not the 256 byte tokens (<0x00> … <0xFF>): a "
                                       "text it has no token for would be dropped unseen"), unk)
    backend = Backend(BPE(vocab, merges_from(vocab, scores), fuse_unk=True, byte_fallback=True,
                          unk_token=unk if unk in vocab else None))
    # as llama.cpp and SentencePiece: ▁ before the text even when it starts with a space (" Hello": ▁ ▁Hello),
    # where the file asks for it (Gemma's converter writes that it does not)
    backend.normalizer = normalizers.Sequence([*([normalizers.Prepend("▁")] if space_prefix else []),
                                               normalizers.Replace(" ", "▁")])
    if gemma:
        backend.pre_tokenizer = pre_tokenizers.Split(" ", behavior="merged_with_previous")
    backend.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse()])
    _add_special(backend, tokens, types)
    return Tokenizer(backend, byte_level=False, **kw)


def _measured(tokens: list[str]) -> None:
    """No token longer than MAX_PIECE (a SentencePiece vocabulary's merges are found by cutting each token every
    way, its length squared; any token is printed whole as a next token), and the whole within MAX_VOCAB_CHARS."""
    longest = max(map(len, tokens), default=0)
    if longest > MAX_PIECE:
        raise ScenarioError(QT_TR_NOOP("its vocabulary holds a token of {0:,} characters; a token has at most {1:,}"),
                            longest, MAX_PIECE)
    if sum(map(len, tokens)) > MAX_VOCAB_CHARS:
        raise ScenarioError(QT_TR_NOOP("its vocabulary holds {0:,} characters; AttnViz reads at most {1:,}"),
                            sum(map(len, tokens)), MAX_VOCAB_CHARS)


def _vocabulary(tokens: list[str]) -> dict[str, int]:
    """Each token's id; a token given twice or empty is refused (the library panics on either, and a
    duplicate would shift every score after it)."""
    vocab: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if not token:
            raise ScenarioError(QT_TR_NOOP("its vocabulary holds an empty token (id {0})"), i)
        if vocab.setdefault(token, i) != i:
            raise ScenarioError(QT_TR_NOOP("its vocabulary holds the token {0} twice (ids {1} and {2})"),
                                shown_label(token)[:40], vocab[token], i)
    return vocab


def merges_from(vocab: dict[str, int], scores) -> list[tuple[str, str]]:
    """The merges a vocabulary implies: every way to cut a token into two tokens, the cut of the
    better-scored token first (ties: the shorter left part, as transformers' generate_merges)."""
    found = []
    for token, score in zip(vocab, scores):
        cuts = [(token[:i], token[i:]) for i in range(1, len(token)) if token[:i] in vocab and token[i:] in vocab]
        cuts.sort(key=lambda pair: (vocab[pair[0]], vocab[pair[1]]))
        found += [(score, len(a), len(b), a, b) for a, b in cuts]
        if len(found) > MAX_MERGES:
            raise ScenarioError(QT_TR_NOOP("its vocabulary implies more than {0:,} merges, the most AttnViz reads"),
                                MAX_MERGES)
    found.sort(key=lambda m: (m[0], m[1], m[2]), reverse=True)
    return [(a, b) for _, _, _, a, b in found]


def _whole(token: str, kind: int) -> bool:
    """A token matched in the text as it is written, as llama.cpp matches it: a control, unknown or
    user-defined one, or one that looks like a control token whatever its type."""
    return kind in (CONTROL, UNKNOWN, USER_DEFINED) or (kind == NORMAL and token in CONTROL_LOOKING)


def _add_special(backend: Backend, tokens: list[str], types) -> None:
    """Control tokens as special (one token when typed), user-defined ones as added tokens."""
    if types is None:
        return
    control = [AddedToken(t, normalized=False, special=True) for t, kind in zip(tokens, types)
               if _whole(t, kind) and kind != USER_DEFINED]
    backend.add_special_tokens(control)
    backend.add_tokens([AddedToken(t, normalized=False, special=False)
                        for t, kind in zip(tokens, types) if kind == USER_DEFINED])


# ---------------------------------------------------------------- labels

def labels(text: str, tokens: list[Token], pieces: list[str], bos: int | None = None) -> list[str]:
    """What each token is called on screen: the text it covers, a leading space as ·, control
    characters visible; a token holding only part of a character is that character with its
    place among the tokens sharing it (猫 1/3). A token covering no text is its piece (the BOS
    the tokenizer put first: ⟨BOS⟩)."""
    added = {k for k, t in enumerate(tokens) if _added_space(text[t.start:t.end], pieces[t.id])}
    sharing: dict[int, list[int]] = {}  # a character -> the tokens holding some of it
    for k, t in enumerate(tokens):
        for c in {t.start, t.end - 1} if t.end > t.start and k not in added else ():
            sharing.setdefault(c, []).append(k)
    out = []
    for k, t in enumerate(tokens):
        if k in added:
            out.append(visible(" " * len(pieces[t.id])))
            continue
        if t.end == t.start:
            out.append(BOS_LABEL if t.id == bos and k == 0 else shortened(visible(pieces[t.id]), MAX_TOKEN_LENGTH))
            continue
        label = shown_label(text[t.start:t.end])
        split = [c for c in (t.start, t.end - 1) if len(sharing[c]) > 1 and _alone(tokens, sharing[c])]
        if split:
            holders = sharing[split[0]]
            label += f" {holders.index(k) + 1}/{len(holders)}"
        out.append(shortened(label, MAX_TOKEN_LENGTH))
    return out


def _added_space(covered: str, piece: str) -> bool:
    """A SentencePiece token of ▁ alone that stands for no space of the text: the space the tokenizer puts
    before it (the library gives it the first character's span: 日 would be 日 1/2 and 日 2/2)."""
    return bool(covered) and bool(piece) and set(piece) == {"▁"} and not {" ", "▁"} & set(covered)


def _alone(tokens: list[Token], holders: list[int]) -> bool:
    """Tokens sharing a character hold parts of it (their spans are that one character)."""
    return all(tokens[h].end - tokens[h].start == 1 for h in holders)


def shown_label(text: str) -> str:
    """Spaces at either end as · (as tokenizers mark a leading one), everything else made
    visible: controls (↵, ⇥, ^M) and characters that draw nothing (<U+200B>)."""
    stripped = text.strip(" ")
    if not stripped:
        return visible(text)
    start = len(text) - len(text.lstrip(" "))
    end = len(text) - len(text.rstrip(" "))
    return "·" * start + marked_invisible(visible(stripped)) + "·" * end
