"""Reading a GGUF model file (llama.cpp's format), every size checked first.

A GGUF file is a header of typed key–value metadata (architecture, sizes, the tokenizer's
vocabulary and merges), a table of tensors (name, shape, type, offset) and the tensors'
data. Every type llama.cpp's `gguf` package dequantises (asked of it: Q4_0 … Q8_0, the K-quants
of Q4_K_M and Q5_K_M files, the IQ types, F16, BF16, F32) is read to float32 by it, or by
AttnViz's own where measured faster (core/quants.py). Nothing is
evaluated; a file that is not GGUF, lies about its sizes or uses another type is refused
with a message.

The header is walked here, not by gguf's GGUFReader: the reader builds every value as it
opens a file (an array per vocabulary entry), 24 s for Gemma 3's 262,144 tokens on this
machine, where this walk takes well under a second and builds only what is asked for.

Opening a file walks its header without building anything: each metadata value is only
located (its type, where it starts, how many items), and an array of numbers is stepped
over in one seek. A value is built when it is asked for (`metadata[key]`), so a file full
of values AttnViz never reads costs a walk through their lengths, bounded by the limits
below, and no memory.
"""
from __future__ import annotations

import math
import mmap
import os
import struct
import weakref
from collections.abc import Callable, Mapping
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from .files import FileProblem, mapped_stamp, open_regular, os_problem, problem, regular_file, still_whole
from .messages import QT_TR_NOOP, cut, quoted
from .quants import OWN

MAGIC = b"GGUF"
MAX_FILE_BYTES = 8 * 1024 ** 3       # a few billion quantised parameters
MAX_STRING_BYTES = 1 << 20
MAX_NAME_BYTES = 1024                # a key's or a tensor's name (llama.cpp's are under 64)
MAX_ARRAY_ITEMS = 1 << 20            # vocabularies of up to a million tokens
MAX_METADATA_ITEMS = 1 << 22         # all arrays together: a 256,000-token vocabulary has ~770,000
MAX_LIST_BYTES = 64 << 20            # the text of one list of strings built (SmolLM2's tokens: 0.4 MB)
MAX_KEYS = 4096
MAX_TENSORS = 16384
ALIGNMENT = 32
_SCAN_VALUES = 1 << 22               # values looked at in one step of the check for NaN
_RELEASE_BYTES = 64 << 20            # the file's pages read are let go this often (see _release)

# Value types of the metadata: struct formats of the scalars.
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
_WHOLE = (0, 1, 2, 3, 4, 5, 10, 11)  # the integer types

# ---------------------------------------------------------------- tensor types, one record each
# gguf (llama.cpp's own Python package) knows every type's block and dequantises them in numpy;
# AttnViz keeps only what its checks at the door need: where a block keeps its floats.

@dataclass(frozen=True)
class QuantType:
    """A tensor type: values stored in blocks of `per_block` values in `block_bytes` bytes, each
    block with its scale (and minimum) as IEEE floats at `float_at` (None: not known here, so a
    tensor of this type is checked for NaN by dequantising it, a few MB at a time)."""

    id: int                # its number in the file (ggml's)
    name: str
    per_block: int
    block_bytes: int
    floats: str = "f16"    # the IEEE format of a block's floats ("f32", "f16", "bf16")
    float_at: int | None = 0
    float_bytes: int = 2   # how many bytes from float_at hold them
    own: Callable[[np.ndarray], np.ndarray] | None = None  # AttnViz's own dequantiser, where measured faster

    @property
    def kind(self):
        """gguf's GGMLQuantizationType of it."""
        from gguf import GGMLQuantizationType  # gguf: 30–90 ms, paid when a file is first opened
        return GGMLQuantizationType(self.id)


# Where the types gguf dequantises keep a block's floats (ggml-common.h's block structs): a scale d, and for
# the "_1" types a minimum beside it. The NaN check reads them; a type not here (and not AttnViz's own, which
# say their own) is checked by dequantising it.
_FLOATS = {"Q5_0": ("f16", 0, 2), "Q5_1": ("f16", 0, 4)}


def _gguf_reads() -> list[str]:
    """The types the installed gguf dequantises, asked of it: one zero block of each type it knows."""
    from gguf import GGML_QUANT_SIZES  # gguf: 30–90 ms, paid when a file is first opened, not at start-up
    from gguf.quants import dequantize  # (measured with -X importtime)
    names = []
    for kind, (_, block_bytes) in GGML_QUANT_SIZES.items():
        try:
            dequantize(np.zeros((1, block_bytes), np.uint8), kind)
        except (NotImplementedError, ValueError, TypeError):  # listed, not read (yet) by this gguf
            continue
        names.append(kind.name)
    return names


def _quant_type(name: str) -> QuantType:
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType  # gguf: 30–90 ms, not at start-up
    kind = GGMLQuantizationType[name]
    per_block, block_bytes = GGML_QUANT_SIZES[kind]
    own = OWN.get(name)
    floats, at, count = own.floats if own else _FLOATS.get(name, ("f16", None, 2))
    return QuantType(int(kind), name, per_block, block_bytes, floats, at, count, own.dequantize if own else None)


class _Types(Mapping):
    """Every tensor type AttnViz reads, by its number: gguf's table, read when a file is first
    opened (importing gguf takes 30–90 ms, which the window's start need not wait for)."""

    @cached_property
    def _table(self) -> dict[int, QuantType]:
        return {quant.id: quant for quant in map(_quant_type, sorted({*OWN, *_gguf_reads()}))}

    def __getitem__(self, kind: int) -> QuantType:
        return self._table[kind]

    def __iter__(self):
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


TYPES = _Types()
F32, F16, Q4_0, Q4_1, Q8_0, BF16 = 0, 1, 2, 3, 8, 30  # ggml's numbers (tests/core/test_gguf.py checks them)


# ---------------------------------------------------------------- the file

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
        quant = TYPES.get(self.kind)
        return self.size // quant.per_block * quant.block_bytes if quant else 0


@dataclass(frozen=True)
class Field:
    """A metadata value as the file declares it, located but not built."""

    kind: int          # its type; _ARRAY for a list
    at: int            # where its value starts (a list's: its first item)
    end: int           # where it ends
    item: int = -1     # a list's items' type
    count: int = 1     # a list's items

    @property
    def is_list(self) -> bool:
        return self.kind == _ARRAY

    @property
    def of_strings(self) -> bool:
        return self.is_list and self.item == _STRING

    @property
    def of_whole_numbers(self) -> bool:
        return self.is_list and self.item in _WHOLE


def check_file(path) -> os.stat_result:
    """The file's stat if it may be a GGUF model: not a folder, a regular file within the size
    limit, starting with GGUF. Cheap: for the command line before anything else starts."""
    if os.path.isdir(path):
        raise problem(path, QT_TR_NOOP("is a folder, not a GGUF model file"))
    info = regular_file(path)
    if info.st_size > MAX_FILE_BYTES:
        raise problem(path, QT_TR_NOOP("{0:.1f} GB is larger than the models AttnViz runs (at most {1} "
                                       "GB)"), info.st_size / 2**30, MAX_FILE_BYTES // 2**30)
    with open_regular(path, MAX_FILE_BYTES) as f:
        try:
            start = f.read(len(MAGIC))
        except OSError as e:
            raise os_problem(path, e) from None
    if start != MAGIC:
        raise problem(path, QT_TR_NOOP("is not a GGUF model file (it does not start with GGUF)"))
    return info


class GGUF:
    """An open GGUF file: its metadata (built on demand), its tensors' table, and their data."""

    def __init__(self, path):
        self.path = Path(path)
        check_file(self.path)
        try:  # the descriptor kept while the file is: `intact` finds the mapped file by it, whatever its name
            self._fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError as e:
            raise problem(self.path, QT_TR_NOOP("cannot be read ({0})"), e) from None
        self._let_go = weakref.finalize(self, os.close, self._fd)
        try:
            self._map = mmap.mmap(self._fd, 0, access=mmap.ACCESS_READ)
            self._stamp = mapped_stamp(os.fstat(self._fd))
        except (ValueError, OSError) as e:
            self._let_go()
            raise problem(self.path, QT_TR_NOOP("cannot be read ({0})"), e) from None
        self._at = 0
        self._items = 0  # metadata items walked so far, all lists together
        try:
            with self._reading():
                self.fields, self.tensors, self._data = self._parse()
        except FileProblem:
            self.close()
            raise
        self.metadata = Metadata(self)

    @contextmanager
    def _reading(self):
        """Whatever a damaged file makes the struct or UTF-8 decoders raise becomes one message."""
        try:
            yield
        except FileProblem:
            raise
        except (struct.error, UnicodeDecodeError, ValueError, OverflowError, IndexError) as e:
            raise problem(self.path, QT_TR_NOOP("is not a valid GGUF file ({0})"), type(e).__name__) from None

    # ------------------------------------------------------------- the header, walked

    def _read(self, n: int) -> bytes:
        start = self._skip(n)
        return self._map[start:start + n]

    def _skip(self, n: int) -> int:
        """Step over n bytes; where they start."""
        if n < 0 or self._at + n > len(self._map):
            raise problem(self.path, QT_TR_NOOP("ends early: it is truncated or not a GGUF file"))
        self._at += n
        return self._at - n

    def _scalar(self, fmt: str):
        return struct.unpack(fmt, self._read(struct.calcsize(fmt)))[0]

    def _length(self, limit: int = MAX_STRING_BYTES) -> int:
        length = self._scalar("<Q")
        if length > limit:
            raise problem(self.path, QT_TR_NOOP("holds a text of {0:,} bytes: not a model file AttnViz reads"),
                                     length)
        return length

    def _name(self) -> str:
        return self._read(self._length(MAX_NAME_BYTES)).decode("utf-8")

    def _field(self, kind: int) -> Field:
        """Step over a value of type `kind`, building nothing: a number or a list of numbers is
        one seek, a text or a list of texts a walk through their lengths."""
        at = self._at
        if kind in _SCALARS:
            self._skip(struct.calcsize(_SCALARS[kind]))
        elif kind == _STRING:
            self._skip(self._length())
        elif kind == _ARRAY:
            return self._list()
        else:
            raise problem(self.path, QT_TR_NOOP("holds a value of unknown type {0}: not a GGUF file AttnViz reads"),
                                     kind)
        return Field(kind, at, self._at)

    def _list(self) -> Field:
        item, count = self._scalar("<I"), self._scalar("<Q")
        if count > MAX_ARRAY_ITEMS or item == _ARRAY:
            raise problem(self.path, QT_TR_NOOP("holds a list of {0:,} items: not a model file AttnViz reads"),
                                     count)
        self._items += count
        if self._items > MAX_METADATA_ITEMS:  # checked before the list is walked
            raise problem(self.path, QT_TR_NOOP("holds more than {0:,} values in its lists: not a model file "
                                                "AttnViz reads"), MAX_METADATA_ITEMS)
        at = self._at
        if item in _SCALARS:
            self._skip(struct.calcsize(_SCALARS[item]) * count)
        elif item == _STRING:
            self._at = self._walk_strings(at, count)
        else:
            raise problem(self.path, QT_TR_NOOP("holds a value of unknown type {0}: not a GGUF file AttnViz reads"),
                                     item)
        return Field(_ARRAY, at, self._at, item, count)

    def _walk_strings(self, at: int, count: int) -> int:
        """Where `count` length-prefixed strings from `at` end, reading only their lengths."""
        length_at, end, released = struct.Struct("<Q").unpack_from, len(self._map), at
        for _ in range(count):
            if at + 8 > end:
                break
            length = length_at(self._map, at)[0]
            if length > MAX_STRING_BYTES:
                raise problem(self.path, QT_TR_NOOP("holds a text of {0:,} bytes: not a model file AttnViz reads"),
                                         length)
            at += 8 + length
            if at - released > _RELEASE_BYTES:
                released = self._release(released, at)
        else:
            if at <= end:
                return at
        raise problem(self.path, QT_TR_NOOP("ends early: it is truncated or not a GGUF file"))

    def _release(self, start: int, end: int) -> int:
        """Let go of the pages of the file from `start` to `end` that reading mapped: they stay in
        the system's cache, but no longer count as this process's memory, so walking or scanning a
        file of gigabytes holds at most _RELEASE_BYTES of it. Returns `end`."""
        start -= start % mmap.PAGESIZE
        end = min(end, len(self._map))
        if end > start and hasattr(mmap, "MADV_DONTNEED"):  # Windows has no madvise: there they stay counted
            self._map.madvise(mmap.MADV_DONTNEED, start, end - start)
        return end

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
        fields, tensors = self._keys(n_keys), self._tensor_table(n_tensors)
        alignment = self._value(fields["general.alignment"]) if "general.alignment" in fields else ALIGNMENT
        if not isinstance(alignment, int) or isinstance(alignment, bool) or not 1 <= alignment <= 4096:
            raise problem(self.path, QT_TR_NOOP("has an alignment of {0}"), quoted(alignment))
        data = -(-self._at // alignment) * alignment
        for t in tensors.values():
            if t.kind in TYPES and (t.size % TYPES[t.kind].per_block or data + t.offset + t.nbytes > len(self._map)):
                raise problem(self.path, QT_TR_NOOP("tensor {0} of shape {1} does not fit the file"),
                                         t.name, t.shape)
        return fields, tensors, data

    def _keys(self, count: int) -> dict[str, Field]:
        fields: dict[str, Field] = {}
        for _ in range(count):
            key = self._name()
            if key in fields:  # which of the two a reader takes is its own choice: gguf's refuses both
                raise problem(self.path, QT_TR_NOOP("holds the key {0} twice"), key)
            fields[key] = self._field(self._scalar("<I"))
        return fields

    def _tensor_table(self, count: int) -> dict[str, TensorInfo]:
        tensors: dict[str, TensorInfo] = {}
        for _ in range(count):
            name = self._name()
            dims = self._scalar("<I")
            if not 1 <= dims <= 4:
                raise problem(self.path, QT_TR_NOOP("tensor {0} has {1} dimensions"), name, dims)
            shape = tuple(self._scalar("<Q") for _ in range(dims))[::-1]
            if name in tensors:
                raise problem(self.path, QT_TR_NOOP("holds the tensor {0} twice"), name)
            tensors[name] = TensorInfo(name, shape, self._scalar("<I"), self._scalar("<Q"))
        return tensors

    # ------------------------------------------------------------- values, built when asked for

    def _value(self, f: Field):
        if f.kind in _SCALARS:
            return struct.unpack_from(_SCALARS[f.kind], self._map, f.at)[0]
        if f.kind == _STRING:
            return self._map[f.at + 8:f.end].decode("utf-8")
        if f.item in _SCALARS:  # numbers: one read, not a Python loop
            return np.frombuffer(self._map, dtype=np.dtype(_SCALARS[f.item]), count=f.count, offset=f.at).tolist()
        return self._strings(f)

    def _strings(self, f: Field) -> list[str]:
        text_bytes = f.end - f.at - 8 * f.count
        if text_bytes > MAX_LIST_BYTES:
            raise problem(self.path, QT_TR_NOOP("holds a list of texts of {0:,} bytes: not a model file AttnViz "
                                                "reads"), text_bytes)
        out, at, length_at = [], f.at, struct.Struct("<Q").unpack_from
        for _ in range(f.count):
            length = length_at(self._map, at)[0]
            out.append(self._map[at + 8:at + 8 + length].decode("utf-8"))
            at += 8 + length
        return out

    def value(self, key: str):
        """The value of `key`, built now (a list of at most MAX_ARRAY_ITEMS items, MAX_LIST_BYTES of text)."""
        with self._reading():
            try:
                return self._value(self.fields[key])
            except UnicodeDecodeError:
                raise problem(self.path, QT_TR_NOOP("its {0} is not valid UTF-8 text"), key) from None

    # ------------------------------------------------------------- tensors

    def info(self, name: str) -> TensorInfo:
        """The table's entry of tensor `name`, refused when it is missing or of a type AttnViz cannot read."""
        t = self.tensors.get(name)
        if t is None:
            arch = self.metadata["general.architecture"] if "general.architecture" in self.fields else None
            if isinstance(arch, str):
                raise problem(self.path, QT_TR_NOOP("has no tensor {0}: not the {1} model its general.architecture "
                                                    "says"), name, cut(arch, 64))
            raise problem(self.path, QT_TR_NOOP("has no tensor {0}: not a model AttnViz runs"), name)
        if t.kind not in TYPES:
            raise problem(self.path, QT_TR_NOOP("tensor {0} is quantised as type {1}; AttnViz reads {2}"),
                                     name, t.kind, ', '.join(quant.name for quant in TYPES.values()))
        return t

    def _raw(self, t: TensorInfo) -> np.ndarray:
        return np.frombuffer(self._map, dtype=np.uint8, count=t.nbytes, offset=self._data + t.offset)

    def intact(self) -> None:
        """Before each read of the data: the file not cut short since it was mapped (files.still_whole)."""
        still_whole(self.path, self._stamp, self._fd)

    def tensor(self, name: str) -> np.ndarray:
        """The tensor `name` as float32, in numpy order ([out, in] for a weight matrix)."""
        t = self.info(name)
        self.intact()
        values = dequantize(self._raw(t), t.kind).reshape(t.shape)  # a copy: the file's pages can go
        self._release(self._data + t.offset, self._data + t.offset + t.nbytes)
        return values

    def matrix(self, name: str) -> StoredMatrix | np.ndarray:
        """The 2-D tensor `name` left in the file (StoredMatrix: rows dequantised when asked for), or as float32
        now where its rows are not whole blocks (no file llama.cpp writes)."""
        t = self.info(name)
        if len(t.shape) != 2 or t.shape[1] % TYPES[t.kind].per_block:
            return self.tensor(name)
        return StoredMatrix(self, t)

    def finite(self, name: str) -> bool:
        """Whether every value of tensor `name` is a number (no NaN, no infinity), a few MB at a
        time. A quantised value is finite when its block's scale (and minimum) are, so for the
        types whose blocks AttnViz knows only those bytes are looked at; the rest are dequantised."""
        t = self.info(name)
        self.intact()
        quant = TYPES[t.kind]
        blocks, start = self._raw(t).reshape(-1, quant.block_bytes), self._data + t.offset
        step = max(1, _SCAN_VALUES // quant.per_block)
        for i in range(0, len(blocks), step):
            if _non_finite(blocks[i:i + step], quant):
                return False
            self._release(start + i * quant.block_bytes, start + (i + step) * quant.block_bytes)
        return True

    def close(self) -> None:
        self._let_go()
        try:
            self._map.close()
        except BufferError:  # an array still looks at it (an error went past): it closes when that is gone
            pass


class StoredMatrix:
    """A [rows, cols] matrix kept as its GGUF file stores it (mapped: the system's cache, not this process's
    memory): rows dequantised when asked for (an embedding's few), and x Wᵀ worked out a tile of rows at a
    time (the unembedding: 128,256 × 2,048 for Llama 3.2 1B, 1 GB as float32, never all held at once)."""

    TILE_VALUES = 1 << 22   # 16 MB of float32 per tile: large enough for BLAS, small beside a layer
    FILL_VALUES = 1 << 19   # dequantised at a time by one core: 2 MB, in its cache, so the copy into place is cheap

    def __init__(self, g: GGUF, t: TensorInfo):
        self._g, self._t, self.shape = g, t, t.shape
        quant = TYPES[t.kind]
        self._row_bytes = t.shape[1] // quant.per_block * quant.block_bytes
        self._raw = g._raw(t).reshape(t.shape[0], self._row_bytes)
        self.nbytes = t.nbytes  # what it takes in the file

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, ids) -> np.ndarray:
        """Row `ids` (an int: [cols]) or rows (a sequence: [len, cols]) as float32."""
        self._g.intact()
        picked = self._raw[ids if isinstance(ids, (int, np.integer, slice)) else np.asarray(ids, dtype=np.intp)]
        return dequantize(picked.reshape(-1), self._t.kind).reshape(*picked.shape[:-1], self.shape[1])

    def fill(self, out: np.ndarray, lo: int = 0) -> None:
        """Rows lo … lo + len(out) − 1 as float32 into `out` [n, cols], in tiles of whole rows of about
        FILL_VALUES values dequantised on every core at once (numpy lets go of the GIL for the arithmetic:
        a 1B model's layers in 1.7 s where one core took 2.6–3.1 s, side by side), the file's pages let go
        behind each."""
        step = max(1, self.FILL_VALUES // self.shape[1])
        done = [_workers().submit(self._fill_tile, out, lo, a, min(lo + len(out), a + step))
                for a in range(lo, lo + len(out), step)]
        futures.wait(done)  # none is left writing into `out` once one has failed
        for tile in done:
            tile.result()

    def _fill_tile(self, out: np.ndarray, lo: int, a: int, b: int) -> None:
        out[a - lo:b - lo] = self[a:b]
        start = self._g._data + self._t.offset
        self._g._release(start + a * self._row_bytes, start + b * self._row_bytes)

    def times_transposed(self, x: np.ndarray) -> np.ndarray:
        """x Wᵀ: [..., cols] -> [..., rows] float32, W dequantised tile by tile into one reused array."""
        flat = x.reshape(-1, self.shape[1]).astype(np.float32, copy=False)
        out = np.empty((len(flat), self.shape[0]), np.float32)
        step = max(1, self.TILE_VALUES // self.shape[1])
        rows = np.empty((min(step, self.shape[0]), self.shape[1]), np.float32)
        for lo in range(0, self.shape[0], step):
            tile = rows[:min(step, self.shape[0] - lo)]
            self.fill(tile, lo)
            out[:, lo:lo + len(tile)] = flat @ tile.T
        return out.reshape(*x.shape[:-1], self.shape[0])


@lru_cache(maxsize=1)
def _workers() -> ThreadPoolExecutor:
    """Threads that dequantise a matrix's tiles, one per core: idle between matrices."""
    return ThreadPoolExecutor(os.cpu_count() or 1, thread_name_prefix="attnviz-dequantise")


class Metadata(Mapping):
    """A GGUF file's metadata as a mapping whose values are built when read."""

    def __init__(self, gguf: GGUF):
        self._gguf = gguf

    def __getitem__(self, key):
        return self._gguf.value(key)

    def __iter__(self):
        return iter(self._gguf.fields)

    def __len__(self) -> int:
        return len(self._gguf.fields)


# IEEE 754: a value is NaN or infinite when every bit of its exponent is set.
_EXPONENT = {"f32": ("<u4", 0xFF << 23), "f16": ("<u2", 0x1F << 10), "bf16": ("<u2", 0xFF << 7)}


def _non_finite(blocks: np.ndarray, quant: QuantType) -> bool:
    """Whether some value stored in `blocks` (uint8 [n_blocks, block_bytes]) is NaN or infinite:
    a plain float's bits, the floats heading (or ending) each quantised block, or the values."""
    if quant.float_at is None:
        return not np.isfinite(dequantize(blocks, quant.id)).all()
    dtype, exponent = _EXPONENT[quant.floats]
    bits = blocks[:, quant.float_at:quant.float_at + quant.float_bytes].copy().view(dtype)
    return bool(np.any(bits & exponent == exponent))


def dequantize(raw: np.ndarray, kind: int) -> np.ndarray:
    """The float32 values of a tensor of type `kind` from its stored bytes (gguf does the work)."""
    quant = TYPES[kind]
    blocks = raw.reshape(-1, quant.block_bytes)
    # Random or 0xFF bytes overflow on the way (a scale times a huge value): numpy's warnings would add
    # lines to the user's terminal; what is not finite is refused by name where the tensor is read.
    with np.errstate(all="ignore"):
        if quant.own is not None:
            return quant.own(blocks)
        from gguf.quants import dequantize  # gguf: 30–90 ms, not at start-up
        return dequantize(blocks, quant.kind).reshape(-1).astype(np.float32, copy=False)
