"""Small GGUF files for the tests: metadata and tensors written as llama.cpp lays them out.

Plain Python values are written as int32, float32, bool, string or lists of them; `Typed`
writes a value with a GGUF type of its own choosing (uint64, float64, a list of integers
where texts belong), and `Zeros` a list of many zero items (uint8 zeros, empty strings) as a
hole in a sparse file, so that a file of 300 million items costs the test no time or disk."""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass

import numpy as np

# The metadata's value types, and the tensors' types (F32, F16, BF16) used here.
U8, I8, U16, I16, U32, I32, FLOAT32, BOOL, STRING, ARRAY, U64, I64, FLOAT64 = range(13)
FORMATS = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", FLOAT32: "<f", BOOL: "<?",
           U64: "<Q", I64: "<q", FLOAT64: "<d"}
TYPES = {int: I32, float: FLOAT32, bool: BOOL, str: STRING}
F32, F16, BF16 = 0, 1, 30


@dataclass(frozen=True)
class Typed:
    """`value` written as GGUF type `kind`; a list's items as `item`."""
    kind: int
    value: object
    item: int | None = None


@dataclass(frozen=True)
class Zeros:
    """A list of `count` items of type `item` whose bytes are all zero: 0 for numbers, "" for texts."""
    item: int
    count: int


@dataclass(frozen=True)
class Texts:
    """A list of `count` texts of `length` NUL characters each (holes, but for their lengths: a
    block of the file holding one takes disk)."""
    count: int
    length: int


@dataclass(frozen=True)
class Blank:
    """An F32, F16 or BF16 tensor of `shape` whose bytes are zero (a hole) but for its last bytes, `end`."""
    shape: tuple
    end: bytes = b""


def _string(text: str | bytes) -> bytes:
    data = text if isinstance(text, bytes) else text.encode("utf-8")  # bytes: as they are, UTF-8 or not
    return struct.pack("<Q", len(data)) + data


def _item(value, kind: int) -> bytes:
    return _string(value) if kind == STRING else struct.pack(FORMATS[kind], value)


def _value(value) -> tuple[int, list]:
    """(GGUF type, pieces): a piece is bytes, or a number of zero bytes left as a hole."""
    if isinstance(value, Zeros):
        width = 8 if value.item == STRING else struct.calcsize(FORMATS[value.item])
        return ARRAY, [struct.pack("<IQ", value.item, value.count), width * value.count]
    if isinstance(value, Texts):
        length = struct.pack("<Q", value.length)
        return ARRAY, [struct.pack("<IQ", STRING, value.count)] + [length, value.length] * value.count
    if isinstance(value, Typed):
        if value.kind == ARRAY:
            return ARRAY, [struct.pack("<IQ", value.item, len(value.value)) +
                           b"".join(_item(v, value.item) for v in value.value)]
        return value.kind, [_item(value.value, value.kind)]
    if isinstance(value, list):
        kind = TYPES[type(value[0])] if value else STRING
        return ARRAY, [struct.pack("<IQ", kind, len(value)) + b"".join(_item(v, kind) for v in value)]
    kind = TYPES[type(value)]
    return kind, [_item(value, kind)]


def quantize(values: np.ndarray, kind: int) -> bytes:
    """Blocks of 32 as llama.cpp stores them (Q8_0, Q4_0, Q4_1), or plain F32, F16, BF16."""
    x = np.asarray(values, dtype=np.float32).reshape(-1)
    if kind == F32:
        return x.tobytes()
    if kind == F16:
        return x.astype(np.float16).tobytes()
    if kind == BF16:  # the upper half of each float32
        return (x.view(np.uint32) >> 16).astype(np.uint16).tobytes()
    blocks = x.reshape(-1, 32)
    out = bytearray()
    with np.errstate(all="ignore"):  # a NaN or an infinity is written as it comes (a broken file)
        for b in blocks:
            if kind == 8:
                d = np.float16(np.abs(b).max() / 127 or 1)
                out += d.tobytes() + np.round(b / np.float32(d)).astype(np.int8).tobytes()
            elif kind == 2:
                d = np.float16(np.abs(b).max() / 8 or 1)
                q = np.clip(np.round(b / np.float32(d)) + 8, 0, 15).astype(np.uint8)
                out += d.tobytes() + (q[:16] | (q[16:] << 4)).tobytes()
            elif kind == 3:
                lo, hi = b.min(), b.max()
                d, m = np.float16((hi - lo) / 15 or 1), np.float16(lo)
                q = np.clip(np.round((b - np.float32(m)) / np.float32(d)), 0, 15).astype(np.uint8)
                out += d.tobytes() + m.tobytes() + (q[:16] | (q[16:] << 4)).tobytes()
    return bytes(out)


def write(path, metadata: dict, tensors: dict[str, tuple[np.ndarray, int]], version: int = 3,
          alignment: int = 32) -> None:
    """`tensors`: name -> (array in numpy order, ggml type)."""
    pieces = [b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(metadata))]
    for key, value in metadata.items():
        kind, encoded = _value(value)
        pieces += [_string(key) + struct.pack("<I", kind), *encoded]
    data, infos, size = [], b"", 0
    for name, (array, kind) in tensors.items():
        offset = -(-size // alignment) * alignment
        if isinstance(array, Blank):
            nbytes = int(np.prod(array.shape)) * {F32: 4, F16: 2, BF16: 2}[kind]
            data += [offset - size, nbytes - len(array.end), array.end]
        else:
            blob = quantize(array, kind)
            nbytes = len(blob)
            data += [offset - size, blob]
        size = offset + nbytes
        dims = array.shape[::-1]
        infos += _string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims) + \
            struct.pack("<IQ", kind, offset)
    pieces.append(infos)
    with open(path, "wb") as f:
        at = _put(f.fileno(), pieces, 0)
        at = _put(f.fileno(), data, at + -at % alignment)  # the data starts aligned
        os.ftruncate(f.fileno(), at)


def _put(fd: int, pieces, at: int) -> int:
    """Write `pieces` from offset `at`, leaving holes unwritten (they read as zeros and take no
    disk); where they end."""
    for piece in pieces:
        if isinstance(piece, int):
            at += piece
        else:
            os.pwrite(fd, piece, at)
            at += len(piece)
    return at

def tiny_llama(path, layers=2, d=64, heads=4, kv_heads=2, ff=96, seed=0,
               kind=3, arch="llama", metadata=None, tensors=None) -> None:
    """A random llama of the smallest shapes, with a byte-level vocabulary (every byte plus a
    few merges), so that any text tokenises. `metadata` and `tensors` change what is written:
    a key or tensor given None is left out."""
    from attnviz.core.lm.tokens import byte_characters
    rng = np.random.default_rng(seed)
    tokens = list(byte_characters()) + ["ab", "Ġa"]
    merges = ["a b", "Ġ a"]
    d_head = d // heads
    meta = {"general.architecture": arch, "general.name": "tiny", "llama.block_count": layers,
            "llama.context_length": 64, "llama.embedding_length": d, "llama.feed_forward_length": ff,
            "llama.attention.head_count": heads, "llama.attention.head_count_kv": kv_heads,
            "llama.rope.freq_base": 10000.0, "llama.attention.layer_norm_rms_epsilon": 1e-5,
            "tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "smollm", "tokenizer.ggml.tokens": tokens,
            "tokenizer.ggml.merges": merges, "tokenizer.ggml.add_bos_token": False}
    w = lambda *shape: lambda: (rng.normal(0, 0.3, shape).astype(np.float32), kind)  # noqa: E731 (drawn if kept)
    ones = lambda: (np.ones(d, np.float32), F32)  # noqa: E731
    weights = {"token_embd.weight": w(len(tokens), d), "output_norm.weight": ones}
    for i in range(layers):
        weights.update({f"blk.{i}.attn_norm.weight": ones,
                        f"blk.{i}.attn_q.weight": w(d, d), f"blk.{i}.attn_k.weight": w(kv_heads * d_head, d),
                        f"blk.{i}.attn_v.weight": w(kv_heads * d_head, d), f"blk.{i}.attn_output.weight": w(d, d),
                        f"blk.{i}.ffn_norm.weight": ones, f"blk.{i}.ffn_gate.weight": w(ff, d),
                        f"blk.{i}.ffn_up.weight": w(ff, d), f"blk.{i}.ffn_down.weight": w(d, ff)})
    tensors = tensors or {}
    weights = {name: tensors[name] if name in tensors else make() for name, make in weights.items()}
    write(path, _changed(meta, metadata), _changed(weights, tensors))


def _changed(values: dict, changes: dict | None) -> dict:
    """`values` with `changes` made: a new value replaces the old (in its place), None removes it."""
    out = {**values, **(changes or {})}
    return {k: v for k, v in out.items() if v is not None}


# ---------------------------------------------------------------- hostile files: name -> (writer, message)

def _llama(**changes):
    return lambda path: tiny_llama(path, **changes)


def _gemma3(metadata: dict):
    """The tiny llama's sizes under gemma3's names (its tensors are a llama's: refused by metadata first)."""
    sizes = {"block_count": 2, "context_length": 64, "embedding_length": 64, "feed_forward_length": 96,
             "attention.head_count": 4, "attention.head_count_kv": 2, "rope.freq_base": 10000.0,
             "attention.layer_norm_rms_epsilon": 1e-5}
    renamed = {**{f"llama.{k}": None for k in sizes}, **{f"gemma3.{k}": v for k, v in sizes.items()}}
    return lambda path: tiny_llama(path, arch="gemma3", metadata={**renamed, **metadata})


def _overwritten(path, size=4096, byte=0xFF):
    """A tiny llama (Q4_1) whose last `size` bytes are overwritten, as a damaged download might be:
    0xFF makes every 16-bit scale there NaN."""
    tiny_llama(path)
    with open(path, "r+b") as f:
        f.seek(-size, 2)
        f.write(bytes([byte]) * size)


def _huge_with_nan(path):
    """An 800 MB model (a sparse file: no disk) whose last weight is NaN."""
    ff = 1 << 20
    tiny_llama(path, layers=1, ff=ff, tensors={
        "blk.0.ffn_gate.weight": (Blank((ff, 64)), F32), "blk.0.ffn_up.weight": (Blank((ff, 64)), F32),
        "blk.0.ffn_down.weight": (Blank((64, ff), np.float32(np.nan).tobytes()), F32)})


def _long_piece(path):
    """SentencePiece merges are recovered by cutting each token every way: a token's length squared."""
    tokens = ["<unk>", "a", "x" * 2000]
    tiny_llama(path, metadata={"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": tokens,
                               "tokenizer.ggml.scores": [0.0, -1.0, -2.0], "tokenizer.ggml.merges": None,
                               "tokenizer.ggml.pre": None},
               tensors={"token_embd.weight": (np.zeros((3, 64), np.float32), F32)})


def _spm(tokens, scores):
    """A SentencePiece vocabulary of the given tokens and scores."""
    return lambda path: tiny_llama(path, metadata={
        "tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.scores": scores,
        "tokenizer.ggml.merges": None, "tokenizer.ggml.pre": None},
        tensors={"token_embd.weight": (np.zeros((len(tokens), 64), np.float32), F32)})


_BOS, _ADD_BOS = "tokenizer.ggml.bos_token_id", "tokenizer.ggml.add_bos_token"
_NAN = float("nan")
_INF = float("inf")


def _rows(n):
    return np.random.default_rng(1).normal(0, 0.3, (n, 64)).astype(np.float32), F32


HOSTILE = {
    "integer merges": (_llama(metadata={"tokenizer.ggml.merges": [1, 2]}),
                       "its tokenizer.ggml.merges is not a list of texts"),
    "integer tokens": (_llama(metadata={"tokenizer.ggml.tokens": list(range(258))}),
                       "its tokenizer.ggml.tokens is not a list of texts"),
    "an empty vocabulary": (_llama(metadata={"tokenizer.ggml.tokens": []}), "has an empty vocabulary"),
    "BOS id out of range": (_llama(metadata={_ADD_BOS: True, _BOS: 258}),
                            "its tokenizer.ggml.bos_token_id is 258, not a token id from 0 to 257"),
    "BOS id a string": (_llama(metadata={_BOS: "1"}), "its tokenizer.ggml.bos_token_id is '1', not a token id"),
    "BOS id -1 added": (_llama(metadata={_ADD_BOS: True, _BOS: -1}),
                        "its tokenizer.ggml.bos_token_id is -1, not a token id from 0 to 257"),
    "BOS id -1 written unsigned": (_llama(metadata={_BOS: Typed(U32, 2 ** 32 - 1)}),
                                   "its tokenizer.ggml.bos_token_id is 4294967295, not a token id"),
    "BOS added but no id": (_llama(metadata={_ADD_BOS: True}), "has no tokenizer.ggml.bos_token_id"),
    "add_bos_token a string": (_llama(metadata={_ADD_BOS: "yes"}),
                               "its tokenizer.ggml.add_bos_token is 'yes', not true or false"),
    "EOS id out of range": (_llama(metadata={"tokenizer.ggml.eos_token_id": 1000}),
                            "its tokenizer.ggml.eos_token_id is 1000, not a token id from 0 to 257"),
    "embedding_length inf": (_llama(metadata={"llama.embedding_length": _INF}),
                             "its llama.embedding_length is inf, not a whole number from 1 to"),
    "embedding_length NaN": (_llama(metadata={"llama.embedding_length": _NAN}),
                             "its llama.embedding_length is nan, not a whole number from 1 to"),
    "block_count 2.7": (_llama(metadata={"llama.block_count": Typed(FLOAT64, 2.7)}),
                        "its llama.block_count is 2.7, not a whole number from 1 to"),
    "block_count true": (_llama(metadata={"llama.block_count": True}),
                         "its llama.block_count is True, not a whole number from 1 to"),
    "head_count -4": (_llama(metadata={"llama.attention.head_count": Typed(I64, -4)}),
                      "its llama.attention.head_count is -4, not a whole number from 1 to"),
    "block_count a list": (_llama(metadata={"llama.block_count": [2, 2]}),
                           "its llama.block_count is a list, not one value"),
    "1,000 layers": (_llama(metadata={"llama.block_count": 1000}), "has 1000 layers of 4 heads of 16 dimensions"),
    "no embedding_length": (_llama(metadata={"llama.embedding_length": None}), "has no llama.embedding_length"),
    "odd head size": (_llama(d=60, kind=F32), "its heads have 15 dimensions, an odd number"),
    "rope freq_base NaN": (_llama(metadata={"llama.rope.freq_base": _NAN}),
                           "its llama.rope.freq_base is nan, not a number from 1"),
    "rms epsilon NaN": (_llama(metadata={"llama.attention.layer_norm_rms_epsilon": Typed(FLOAT64, _NAN)}),
                        "its llama.attention.layer_norm_rms_epsilon is nan, not a positive number"),
    "rope freq_base infinite": (_llama(metadata={"llama.rope.freq_base": Typed(FLOAT64, _INF)}),
                                "its llama.rope.freq_base is inf, not a number from 1"),
    "more tokens than embedding rows": (_llama(tensors={"token_embd.weight": _rows(200)}),
                                        "its vocabulary has 258 tokens but token_embd.weight has 200 rows"),
    "zero embedding rows": (_llama(tensors={"token_embd.weight": _rows(0)}),
                            "its vocabulary has 258 tokens but token_embd.weight has 0 rows"),
    "an output of other rows": (_llama(tensors={"output.weight": _rows(300)}),
                                "its vocabulary has 258 tokens but output.weight has 300 rows"),
    # attacker round 36: the file was named twice ("f.gguf: f.gguf: its tokenizer.ggml.merges ...")
    "merges that are not UTF-8": (_llama(metadata={"tokenizer.ggml.merges": ["a b", b"\xff b"]}),
                                  "its tokenizer.ggml.merges is not valid UTF-8 text"),
    "a missing weight": (_llama(tensors={"blk.1.attn_q.weight": None}),
                         "has no tensor blk.1.attn_q.weight: not the llama model its general.architecture says"),
    "a weight of the wrong shape": (_llama(tensors={"blk.0.attn_q.weight": _rows(32)}),
                                    "tensor blk.0.attn_q.weight has shape (32, 64), not (64, 64)"),
    "NaN scales (4 KB overwritten)": (_overwritten, "holds values that are not numbers (NaN or infinity): the file "
                                                    "is damaged or not a model"),
    "NaN in a norm": (_llama(tensors={"blk.1.ffn_norm.weight": (np.full(64, _NAN, np.float32), F32)}),
                      "tensor blk.1.ffn_norm.weight holds values that are not numbers"),
    "an infinite F16 weight": (_llama(kind=F16, tensors={"blk.0.attn_k.weight": (np.full((32, 64), _INF), F16)}),
                               "tensor blk.0.attn_k.weight holds values that are not numbers"),
    "an 800 MB model whose last weight is NaN": (_huge_with_nan, "tensor blk.0.ffn_down.weight holds values that "
                                                                 "are not numbers"),
    "300 lists of a million numbers": (_llama(metadata={f"junk.{i}": Zeros(U8, 1 << 20) for i in range(300)}),
                                       "holds more than 4,194,304 values in its lists"),
    "40 million empty texts": (_llama(metadata={f"junk.{i}": Zeros(STRING, 1 << 20) for i in range(40)}),
                               "holds more than 4,194,304 values in its lists"),
    "another architecture, integer merges": (_llama(arch="mamba", metadata={"tokenizer.ggml.merges": [1, 2]}),
                                             "is a 'mamba' model; AttnViz runs models of the families llama, qwen2,"),
    "the architecture a list": (_llama(metadata={"general.architecture": ["llama"]}),
                                "its general.architecture is a list, not one value"),
    "the architecture a number": (_llama(metadata={"general.architecture": 7}),
                                  "its general.architecture is 7, not a text"),
    "the licence a number": (_llama(metadata={"general.license": 3}), "its general.license is 3, not a text"),
    "the file type a text": (_llama(metadata={"general.file_type": "Q8_0"}),
                             "its general.file_type is 'Q8_0', not a whole number from 0 to 65,536"),
    "the pre-tokenizer a number": (_llama(metadata={"tokenizer.ggml.pre": 2}),
                                   "its tokenizer.ggml.pre is 2, not a text"),
    "the chat template a number": (_llama(metadata={"tokenizer.chat_template": 5}),
                                   "its tokenizer.chat_template is 5, not a text"),
    "rope scaling a number": (_llama(metadata={"llama.rope.scaling.type": 1}),
                              "its llama.rope.scaling.type is 1, not a text"),
    "merges of pieces not in the vocabulary": (_llama(metadata={"tokenizer.ggml.merges": ["qqq zzz", "a b"]}),
                                               "its tokenizer cannot be built from its vocabulary: "),
    "a SentencePiece token of 2,000 characters": (_long_piece, "its vocabulary holds a token of 2,000 characters; "
                                                               "a token has at most 1,024"),
    "context length 0": (_llama(metadata={"llama.context_length": 0}),
                         "its llama.context_length is 0, not a whole number from 1 to"),
    "a sliding window a list": (_llama(arch="gemma3", metadata={"gemma3.attention.sliding_window": [1, 2]}),
                                "its gemma3.attention.sliding_window is a list, not one value"),
    # attacker round 35: a gemma3 (gpt2, qwen) file missing a tensor was "not the llama model AttnViz runs"
    "a Gemma 3 missing its norms of q and k": (_gemma3(metadata={}), "has no tensor blk.0.attn_q_norm.weight: not "
                                               "the gemma3 model its general.architecture says"),
    "Gemma 3's logits capped": (_gemma3(metadata={"gemma3.final_logit_softcapping": 30.0}),
                                "caps its logits (softcapping), which AttnViz does not do"),
    "RoPE over half of each head": (_llama(metadata={"llama.attention.key_length": 16,
                                                     "llama.rope.dimension_count": 8}),
                                    "its RoPE turns 8 of each head's 16 dimensions: AttnViz turns them all"),
    "RoPE stretched by a factor alone": (_llama(metadata={"llama.rope.scaling.factor": 8.0}),
                                         "stretches RoPE (×8 scaling), which AttnViz does not do"),
    "RoPE stretched by the old scale_linear": (_llama(metadata={"llama.rope.scale_linear": 4.0}),
                                               "stretches RoPE (×4 scaling), which AttnViz does not do"),
    "RoPE stretched by a hair": (_llama(metadata={"llama.rope.scaling.factor": Typed(FLOAT64, 1.0000001)}),
                                 "stretches RoPE (×1.0000001 scaling), which AttnViz does not do"),
    "the alignment a million numbers": (_llama(metadata={"general.alignment": Zeros(U8, 1 << 20)}),
                                        "has an alignment of [0, 0, 0, 0, ...]"),
    "the alignment a text of 1 MB": (_llama(metadata={"general.alignment": "x" * (1 << 20)}),
                                     "has an alignment of 'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"),
    "token types as texts": (_llama(metadata={"tokenizer.ggml.token_type": ["1"] * 258}),
                             "its tokenizer.ggml.token_type is a list of texts, not of numbers"),
    "SentencePiece scores as texts": (_spm(["<unk>", "a", "b"], ["0", "-1", "-2"]),
                                      "its tokenizer.ggml.scores is a list of texts, not of numbers"),
    "SentencePiece with no unk and no byte tokens": (_spm(["a", "b", "ab"], [0.0, -1.0, -2.0]),
                                                     "its vocabulary has no <unk> and not the 256 byte tokens"),
}

# Refused only once the vocabulary's texts are read (bounded by the lists' limit), the weights never built:
# what the tokenizers library says of them, and a token's length.
READS_TEXTS = {"merges of pieces not in the vocabulary", "a SentencePiece token of 2,000 characters",
               "SentencePiece with no unk and no byte tokens", "merges that are not UTF-8"}  # found as they are read
