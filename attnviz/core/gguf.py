"""Reading a GGUF model file (llama.cpp's format) with numpy alone, every size checked first.

A GGUF file is a header of typed key–value metadata (architecture, sizes, the tokenizer's
vocabulary and merges), a table of tensors (name, shape, type, offset) and the tensors'
data. Weights quantised as Q4_0, Q4_1 or Q8_0 (blocks of 32 values sharing a scale) or
stored as F16, BF16 or F32 are dequantised to float32. Nothing is evaluated; a file that is
not GGUF, lies about its sizes or uses another quantisation is refused with a message.
"""
from __future__ import annotations

import math
import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .messages import QT_TR_NOOP
from .files import FileProblem, problem, regular_file

MAGIC = b"GGUF"
MAX_FILE_BYTES = 8 * 1024 ** 3       # a few billion quantised parameters
MAX_STRING_BYTES = 1 << 20
MAX_ARRAY_ITEMS = 1 << 20            # vocabularies of up to a million tokens
MAX_KEYS = 4096
MAX_TENSORS = 16384
ALIGNMENT = 32

# Value types of the metadata: struct formats of the scalars.
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9

# Tensor types AttnViz dequantises: (values per block, bytes per block).
F32, F16, Q4_0, Q4_1, Q8_0, BF16 = 0, 1, 2, 3, 8, 30
BLOCKS = {F32: (1, 4), F16: (1, 2), BF16: (1, 2), Q4_0: (32, 18), Q4_1: (32, 20), Q8_0: (32, 34)}
TYPE_NAMES = {F32: "F32", F16: "F16", BF16: "BF16", Q4_0: "Q4_0", Q4_1: "Q4_1", Q8_0: "Q8_0"}


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]   # numpy order: GGUF lists the fastest dimension first
    kind: int
    offset: int              # from the start of the data section

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        per_block, block_bytes = BLOCKS.get(self.kind, (1, 0))
        return self.size // per_block * block_bytes


class GGUF:
    """An open GGUF file: its metadata, its tensors' table, and their data on demand."""

    def __init__(self, path):
        self.path = Path(path)
        info = regular_file(self.path)
        if info.st_size > MAX_FILE_BYTES:
            raise problem(self.path, QT_TR_NOOP("{0:.1f} GB is larger than the models AttnViz runs (at most {1} "
                                                "GB)"), info.st_size / 2**30, MAX_FILE_BYTES // 2**30)
        with open(self.path, "rb") as f:
            try:
                self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (ValueError, OSError) as e:
                raise problem(self.path, QT_TR_NOOP("cannot be read ({0})"), e) from None
        self._at = 0
        try:
            self.metadata, self.tensors, self._data = self._parse()
        except FileProblem:
            raise
        except (struct.error, UnicodeDecodeError, ValueError, OverflowError, IndexError) as e:
            raise problem(self.path, QT_TR_NOOP("is not a valid GGUF file ({0})"), type(e).__name__) from None

    # ------------------------------------------------------------- the header

    def _read(self, n: int) -> bytes:
        if n < 0 or self._at + n > len(self._map):
            raise problem(self.path, QT_TR_NOOP("ends early: it is truncated or not a GGUF file"))
        data = self._map[self._at:self._at + n]
        self._at += n
        return data

    def _scalar(self, fmt: str):
        return struct.unpack(fmt, self._read(struct.calcsize(fmt)))[0]

    def _string(self) -> str:
        length = self._scalar("<Q")
        if length > MAX_STRING_BYTES:
            raise problem(self.path, QT_TR_NOOP("holds a text of {0:,} bytes: not a model file AttnViz reads"),
                                     length)
        return self._read(length).decode("utf-8")

    def _value(self, kind: int):
        if kind in _SCALARS:
            return self._scalar(_SCALARS[kind])
        if kind == _STRING:
            return self._string()
        if kind == _ARRAY:
            item, count = self._scalar("<I"), self._scalar("<Q")
            if count > MAX_ARRAY_ITEMS or item == _ARRAY:
                raise problem(self.path, QT_TR_NOOP("holds a list of {0:,} items: not a model file AttnViz reads"),
                                         count)
            if item in _SCALARS:  # numbers: one read, not a Python loop
                fmt = _SCALARS[item]
                width = struct.calcsize(fmt)
                return np.frombuffer(self._read(width * count), dtype=np.dtype(fmt)).tolist()
            return [self._value(item) for _ in range(count)]
        raise problem(self.path, QT_TR_NOOP("holds a value of unknown type {0}: not a GGUF file AttnViz reads"),
                                 kind)

    def _parse(self):
        if self._read(4) != MAGIC:
            raise problem(self.path, QT_TR_NOOP("is not a GGUF model file (it does not start with GGUF)"))
        version = self._scalar("<I")
        if version not in (2, 3):
            raise problem(self.path, QT_TR_NOOP("is GGUF version {0}; AttnViz reads versions 2 and 3"), version)
        n_tensors, n_keys = self._scalar("<Q"), self._scalar("<Q")
        if n_tensors > MAX_TENSORS or n_keys > MAX_KEYS:
            raise problem(self.path, QT_TR_NOOP("declares {0:,} tensors and {1:,} keys: not a model file"),
                                     n_tensors, n_keys)
        metadata = {}
        for _ in range(n_keys):
            key = self._string()
            metadata[key] = self._value(self._scalar("<I"))
        tensors = {}
        for _ in range(n_tensors):
            name = self._string()
            dims = self._scalar("<I")
            if not 1 <= dims <= 4:
                raise problem(self.path, QT_TR_NOOP("tensor {0} has {1} dimensions"), name, dims)
            shape = tuple(self._scalar("<Q") for _ in range(dims))[::-1]
            tensors[name] = TensorInfo(name, shape, self._scalar("<I"), self._scalar("<Q"))
        alignment = metadata.get("general.alignment", ALIGNMENT)
        if not isinstance(alignment, int) or not 1 <= alignment <= 4096:
            raise problem(self.path, QT_TR_NOOP("has an alignment of {0!r}"), alignment)
        data = -(-self._at // alignment) * alignment
        for t in tensors.values():
            if t.kind in BLOCKS and (t.size % BLOCKS[t.kind][0] or data + t.offset + t.nbytes > len(self._map)):
                raise problem(self.path, QT_TR_NOOP("tensor {0} of shape {1} does not fit the file"),
                                         t.name, t.shape)
        return metadata, tensors, data

    # ------------------------------------------------------------- tensors

    def tensor(self, name: str) -> np.ndarray:
        """The tensor `name` as float32, in numpy order ([out, in] for a weight matrix)."""
        t = self.tensors.get(name)
        if t is None:
            raise problem(self.path, QT_TR_NOOP("has no tensor {0}: not the llama model AttnViz runs"), name)
        if t.kind not in BLOCKS:
            raise problem(self.path, QT_TR_NOOP("tensor {0} is quantised as type {1}; AttnViz reads {2}"),
                                     name, t.kind, ', '.join(TYPE_NAMES.values()))
        start = self._data + t.offset
        raw = np.frombuffer(self._map, dtype=np.uint8, count=t.nbytes, offset=start)
        return dequantize(raw, t.kind, t.size).reshape(t.shape)

    def close(self) -> None:
        self._map.close()


def dequantize(raw: np.ndarray, kind: int, size: int) -> np.ndarray:
    """`size` float32 values from their stored bytes."""
    if kind == F32:
        return raw.view(np.float32).copy()
    if kind == F16:
        return raw.view(np.float16).astype(np.float32)
    if kind == BF16:  # the upper half of a float32
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    per_block, block_bytes = BLOCKS[kind]
    blocks = raw.reshape(-1, block_bytes)                        # [n_blocks, bytes]
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)  # [n_blocks, 1]
    if kind == Q8_0:
        return (scale * blocks[:, 2:].view(np.int8)).reshape(-1)
    body = blocks[:, 4:] if kind == Q4_1 else blocks[:, 2:]      # 16 bytes: 32 four-bit values
    low, high = body & 0x0F, body >> 4                           # values 0..15, then 16..31
    q = np.concatenate([low, high], axis=1).astype(np.float32)   # [n_blocks, 32]
    if kind == Q4_0:
        return (scale * (q - 8)).reshape(-1)
    minimum = blocks[:, 2:4].copy().view(np.float16).astype(np.float32)
    return (scale * q + minimum).reshape(-1)
