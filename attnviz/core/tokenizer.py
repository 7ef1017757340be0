"""Text to token ids as a GGUF model's own tokenizer does it, and labels people can read.

GPT-2-style byte-level BPE (SmolLM2, GPT-2, ...): the text is split into words by GPT-2's
pattern (after splitting off every digit, for the "smollm" pre-tokenizer), each word's UTF-8
bytes are written as printable characters and the merges are applied, lowest rank first
(with a heap of pairs, so a word of n bytes costs n log n, not n²).
Each token keeps the span of the text it came from, so a label shows text, not byte pieces:
猫 made of three byte tokens is labelled 猫 1/3, 猫 2/3, 猫 3/3, and a leading space as ·.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from heapq import heapify, heappop, heappush

from .messages import QT_TR_NOOP
from .scenario import MAX_TOKEN_LENGTH, ScenarioError
from .text import marked_invisible, shortened, visible

PRE_TOKENIZERS = ("smollm", "gpt2", "default")
CONTRACTIONS = ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d")
# Unicode's White_Space property (what the regex engines' \s means), not Python's isspace().
WHITE_SPACE = (set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000")
               | {chr(c) for c in range(0x2000, 0x200B)})


class Cancelled(Exception):
    """Long work stopped at a checkpoint because the user asked (or the window closed)."""


@dataclass(frozen=True)
class Token:
    id: int
    start: int   # byte offsets into the UTF-8 text
    end: int


@lru_cache(maxsize=None)
def byte_characters() -> tuple[str, ...]:
    """GPT-2's printable stand-in for each byte: printable Latin-1 as itself, the rest shifted
    past 255 (a space is Ġ, a newline Ċ)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, shift = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + shift)
            shift += 1
    return tuple(table[b] for b in range(256))


def _kind(ch: str) -> str:
    if ch in WHITE_SPACE:
        return "s"
    category = unicodedata.category(ch)[0]
    return category if category in "LN" else "o"


def words(text: str, split_digits: bool) -> list[tuple[int, int]]:
    """(start, end) character spans of GPT-2's pre-tokenizer pattern
    's|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+,
    applied to each piece between single digits when `split_digits` (SmolLM2's \\p{N} first)."""
    spans = []
    start = 0
    for i, ch in enumerate(text):
        if split_digits and _kind(ch) == "N":
            spans += [(start + a, start + b) for a, b in _gpt2(text[start:i])] + [(i, i + 1)]
            start = i + 1
    return spans + [(start + a, start + b) for a, b in _gpt2(text[start:])]


def _gpt2(s: str) -> list[tuple[int, int]]:
    kinds = [_kind(ch) for ch in s]
    spans, i, n = [], 0, len(s)
    while i < n:
        contraction = next((c for c in CONTRACTIONS if s.startswith(c, i)), None)
        if contraction:
            end = i + len(contraction)
        else:
            j = i + 1 if s[i] == " " and i + 1 < n else i  # the optional leading space
            kind = kinds[j]
            if kind != "s":
                end = j + 1
                while end < n and (kinds[end] == kind):
                    end += 1
            else:  # whitespace: all of it, but the last one when a word follows (it joins the word)
                end = i
                while end < n and kinds[end] == "s":
                    end += 1
                if end < n and end - i >= 2:
                    end -= 1
        spans.append((i, end))
        i = end
    return spans


class BPE:
    """A byte-level BPE tokenizer from a GGUF file's tokens and merges."""

    def __init__(self, tokens: list[str], merges: list[str], pre: str, bos: int | None = None,
                 add_bos: bool = False):
        if pre not in PRE_TOKENIZERS:
            raise ScenarioError(QT_TR_NOOP("the tokenizer's pre-tokenizer '{0}' is not one AttnViz knows ({1})"),
                                pre, ', '.join(PRE_TOKENIZERS))
        self.tokens = tokens
        self.ids = {t: i for i, t in enumerate(tokens)}
        self.ranks = {tuple(m.split(" ", 1)): r for r, m in enumerate(merges)}
        self.split_digits = pre == "smollm"
        self.bos = bos if add_bos else None
        self._cache: dict[str, list[str]] = {}
        # The most bytes a token made from text can hold: merges only join byte stand-ins, so a
        # vocabulary entry of other characters never comes out of encode().
        stand_ins = set(byte_characters())
        self.longest = max((len(t) for t in tokens if stand_ins.issuperset(t)), default=1) or 1
        self.work = 0  # pairs ranked while merging, over the tokenizer's life (tests count it)

    def encode(self, text: str, cancelled=None) -> list[Token]:
        """The tokens of `text`, each with the bytes of the text it covers. `cancelled()`, when
        given, is asked between words: True stops with Cancelled."""
        data = text.encode("utf-8")
        byte_at = _byte_offsets(text)
        out = [Token(self.bos, 0, 0)] if self.bos is not None else []
        table = byte_characters()
        for a, b in words(text, self.split_digits):
            if cancelled is not None and cancelled():
                raise Cancelled()
            start = byte_at[a]
            chunk = "".join(table[x] for x in data[start:byte_at[b]])
            for symbol in self._merge(chunk):
                token_id = self.ids.get(symbol)
                if token_id is None:
                    raise ScenarioError(QT_TR_NOOP("the vocabulary has no token for {0!r}"), symbol)
                out.append(Token(token_id, start, start + len(symbol)))
                start += len(symbol)
        return out

    def fewest_tokens(self, text: str, enough: int | None = None) -> int:
        """At least as many tokens as encode(text) gives, found without merging, in time linear in
        the text: no token holds more bytes than the vocabulary's longest, and every word of the
        pre-tokenizer is a token or more. Past `enough` from the bytes alone, the words are not split."""
        bos = 1 if self.bos is not None else 0
        fewest = bos + -(-len(text.encode("utf-8")) // self.longest)
        if enough is not None and fewest > enough:
            return fewest
        byte_at = _byte_offsets(text)
        return bos + sum(-(-(byte_at[b] - byte_at[a]) // self.longest) for a, b in words(text, self.split_digits))

    def _merge(self, word: str) -> list[str]:
        """BPE: merge the adjacent pair of lowest rank (the leftmost of equals) until no pair has one.

        The symbols form a linked list and their pairs a heap by (rank, position), as Hugging Face's
        tokenizers (word.rs) and llama.cpp do it: a merge costs log n, not a pass over the word. A
        pair popped that is no longer there (a neighbour was merged away) is skipped. `self.work`
        counts the pairs pushed and popped."""
        if word in self._cache:
            return self._cache[word]
        ranks = self.ranks
        parts: list[str | None] = list(word)  # None: merged into the symbol on its left
        n = len(parts)
        after = list(range(1, n + 1))        # the next live symbol (n: none)
        before = list(range(-1, n - 1))      # the previous live symbol (-1: none)
        heap = [(ranks[pair], i) for i, pair in enumerate(zip(parts, parts[1:])) if pair in ranks]
        heapify(heap)
        work = len(heap)
        while heap:
            rank, i = heappop(heap)
            work += 1
            j = after[i] if parts[i] is not None else n
            if j == n or ranks.get((parts[i], parts[j])) != rank:
                continue  # stale: this pair was changed by an earlier merge
            parts[i] += parts[j]
            parts[j] = None
            after[i] = after[j]
            if after[j] < n:
                before[after[j]] = i
            for left, right in ((before[i], i), (i, after[i])):
                if 0 <= left and right < n:
                    new = ranks.get((parts[left], parts[right]))
                    if new is not None:
                        heappush(heap, (new, left))
                        work += 1
        self.work += work
        parts = [p for p in parts if p is not None]
        if len(self._cache) < 100_000:
            self._cache[word] = parts
        return parts


def _byte_offsets(text: str) -> list[int]:
    """The UTF-8 byte offset of each character (and of the end)."""
    offsets, at = [], 0
    for ch in text:
        offsets.append(at)
        at += len(ch.encode("utf-8"))
    return offsets + [at]


def labels(text: str, tokens: list[Token], pieces: list[str] | None = None) -> list[str]:
    """What each token is called on screen: the text it covers, a leading space as ·, control
    characters visible; a token holding only part of a character is that character with its
    place among the tokens sharing it (猫 1/3). `pieces` names tokens that cover no text (BOS)."""
    data = text.encode("utf-8")
    char_of = [0] * (len(data) + 1)  # the character each byte belongs to
    for c, (a, b) in enumerate(zip(_byte_offsets(text), _byte_offsets(text)[1:])):
        for x in range(a, b):
            char_of[x] = c
    sharing: dict[int, list[int]] = {}  # a split character -> the tokens holding its bytes
    for k, t in enumerate(tokens):
        for c in {char_of[t.start], char_of[t.end - 1]} if t.end > t.start else ():
            sharing.setdefault(c, []).append(k)
    out = []
    for k, t in enumerate(tokens):
        if t.end == t.start:
            out.append(shortened(visible(pieces[k]), MAX_TOKEN_LENGTH) if pieces else f"<{t.id}>")
            continue
        first, last = char_of[t.start], char_of[t.end - 1]
        label = _shown(text[first:last + 1])
        split = [c for c in (first, last) if len(sharing[c]) > 1]
        if split:
            holders = sharing[split[0]]
            label += f" {holders.index(k) + 1}/{len(holders)}"
        out.append(shortened(label, MAX_TOKEN_LENGTH))
    return out


def _shown(text: str) -> str:
    """Spaces at either end as · (as tokenizers mark a leading one), everything else made
    visible: controls (↵, ⇥, ^M) and characters that draw nothing (<U+200B>)."""
    stripped = text.strip(" ")
    if not stripped:
        return visible(text)
    start = len(text) - len(text.lstrip(" "))
    end = len(text) - len(text.rstrip(" "))
    return "·" * start + marked_invisible(visible(stripped)) + "·" * end
