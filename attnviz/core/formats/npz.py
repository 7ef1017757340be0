"""Arrays from an .npz archive or a folder of .npy files, read safely and one layer at a time.

Every array's header (shape, type) is read first and the data only when asked for, so the
caller can check shapes against AttnViz's limits before a byte is decompressed or widened.
Data is read through the stream, never more than its header promised (the sizes a zip
header states are not trusted), and a layer of a (layers, ...) array is read alone: the
other layers are skipped, not kept. Members are stored or deflated (np.savez,
np.savez_compressed): a deflated member is read on from where the last read stopped, so
reading every layer in turn unpacks it once; other compressions (bzip2, lzma), which would be
unpacked again from the start for each layer, are refused. No pickles: arrays of Python
objects are refused.

Writing (`writer`) makes what np.savez makes, stored, in small pieces.
"""
from __future__ import annotations

import io
import math
import os
import threading
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..files import FileProblem, open_regular, problem, regular_file, stamp
from ..messages import QT_TR_NOOP, Phrase

MAX_MEMBERS = 4096            # arrays in one archive (a model's file has a handful)
MAX_DIRECTORY_BYTES = MAX_MEMBERS * 512  # the archive's list of files, read before any of them
MAX_HEADER_BYTES = 10_000     # an .npy header is a short line of Python literals
MAX_INFLATED = 1 << 30        # what an archive's deflated arrays unpack to, together: reaching the last
                              # layer of one inflates every byte before it (~150 MB/s on a busy machine)
CHUNK = 1 << 20
WRITE_CHUNK = 1 << 20  # bytes written at a time, so that a save never holds Python's lock for long (writer)
PACKED_CHUNK = 16 << 10  # compressed input is fed in small pieces: each saved point keeps the rest of one
READABLE_KINDS = "biufSU"     # booleans, numbers and text; no objects, no records
METHODS = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma"}  # the compressions zipfile knows besides ours


@dataclass(frozen=True)
class ArrayInfo:
    """One array as its header describes it."""

    name: str
    shape: tuple[int, ...]
    dtype: np.dtype
    fortran: bool
    offset: int  # where its data starts in the .npy stream

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize

    @property
    def ndim(self) -> int:
        return len(self.shape)


class Arrays:
    """The arrays of one .npz file, or the .npy files in one folder that share a name prefix.

    Arrays.of() keeps the last few files' indexes: switching a model's layer reads that layer's
    bytes, not the archive's list again (and, compressed, starts from the decompressor's nearest
    saved state)."""

    _kept: dict = {}  # (path, stamp, limit, folder) -> Arrays, the most recent last
    _kept_lock = threading.Lock()  # the window and a worker (the overview, a comparison) open files
    KEEP = 2

    @classmethod
    def of(cls, path, limit: int, folder_names: dict[str, Path] | None = None) -> "Arrays":
        files = sorted((folder_names or {}).items())  # a folder's set: each file's stamp, not only the one opened
        key = (os.path.realpath(path), stamp(path), limit, tuple((n, f, stamp(f)) for n, f in files))
        with cls._kept_lock:
            found = cls._kept.pop(key, None)
        if found is None:
            found = cls(path, limit, folder_names)
        with cls._kept_lock:
            cls._kept[key] = found
            while len(cls._kept) > cls.KEEP:
                cls._kept.pop(next(iter(cls._kept)))
        return found

    def __init__(self, path, limit: int, folder_names: dict[str, Path] | None = None):
        self.path = Path(path)
        self.limit = limit        # what all its arrays together may hold (and so any one read)
        self.folder = folder_names  # name -> .npy file, for a folder of .npy files
        self.reads: list[tuple[str, int | None]] = []  # (array, layer) read so far (tests count them)
        self.inflated = 0         # bytes decompressed so far (tests count them)
        self.members: dict[str, Member] = {}  # name -> where its bytes lie in the archive
        self.small: dict[str, np.ndarray] = {}  # arrays read whole and kept (tokens, head names, settings)
        self._lock = threading.Lock()  # one read at a time: a deflated member carries on from the last
        self.stamp = stamp(self.path)
        self.infos = self._index()
        total = sum(info.nbytes for info in self.infos.values())
        if total > limit:
            raise problem(self.path, QT_TR_NOOP("unpacks to {0:,.0f} MB, more than the {1:,} MB a model's file "
                                                "may hold: save fewer layers or tokens, or float32"),
                                     total / 2**20, limit // 2**20)
        deflated = sum(self.infos[name].nbytes for name, member in self.members.items()
                       if member.method == zipfile.ZIP_DEFLATED)
        if deflated > MAX_INFLATED:  # a late layer of a compressed array is reached by inflating all before it
            raise problem(self.path, QT_TR_NOOP("holds {0:,.0f} MB of compressed arrays; AttnViz unpacks at most "
                                                "{1:,} MB of them (a late layer needs every byte before it): save "
                                                "it with np.savez, uncompressed"),
                                     deflated / 2**20, MAX_INFLATED // 2**20)

    def __contains__(self, name: str) -> bool:
        return name in self.infos

    def info(self, name: str) -> ArrayInfo:
        return self.infos[name]

    def unchanged(self) -> bool:
        """True while the file on disk is the one indexed."""
        return stamp(self.path) == self.stamp

    # ------------------------------------------------------------- the index

    def _index(self) -> dict[str, ArrayInfo]:
        if self.folder is not None:
            return {name: self._guarded(lambda f=f, n=name: self._header_of_file(n, f)) for name, f in
                    self.folder.items()}
        return self._guarded(self._index_archive)

    def _index_archive(self) -> dict[str, ArrayInfo]:
        with open_regular(self.path, self.limit) as f:
            count, directory = _directory(f)
            if count > MAX_MEMBERS or directory > MAX_DIRECTORY_BYTES:
                raise problem(self.path, QT_TR_NOOP("lists {0:,} files in {1:,} bytes; an .npz of AttnViz holds "
                                                    "at most {2:,}"), count, directory, MAX_MEMBERS)
            with zipfile.ZipFile(f) as archive:
                if len(archive.infolist()) > MAX_MEMBERS:
                    raise problem(self.path, QT_TR_NOOP("lists {0:,} files; an .npz of AttnViz holds at most "
                                                        "{1:,}"), len(archive.infolist()), MAX_MEMBERS)
                for member in archive.infolist():  # before a byte of any member is unpacked
                    if member.filename.endswith(".npy"):
                        _check_method(member)
                infos = {}
                for member in archive.infolist():
                    if member.filename.endswith(".npy"):
                        name = member.filename[:-4]
                        with archive.open(member) as stream:
                            infos[name] = _header(name, stream)
                        if infos[name].offset + infos[name].nbytes > member.file_size:
                            raise FileProblem(QT_TR_NOOP("'{0}' claims shape {1}, more data than the file holds"),
                                              name, infos[name].shape)
                        self.members[name] = _member(f, member)
                return infos

    def _header_of_file(self, name: str, file: Path) -> ArrayInfo:
        with open_regular(file, self.limit) as f:
            info = _header(name, f)
            if info.offset + info.nbytes > os.fstat(f.fileno()).st_size:
                raise FileProblem(QT_TR_NOOP("'{0}' claims shape {1}, more data than the file holds"),
                                  name, info.shape)
            return info

    # ------------------------------------------------------------- reading

    def read(self, name: str, index: int | None = None, keep: bool = False) -> np.ndarray:
        """The array `name`, or its slice [index] along the first axis (one layer), as stored;
        `keep`: a small array read whole is kept (read-only) for the next call, so that reading
        every layer in turn reads the tokens once."""
        if name in self.small:
            return self.small[name]
        with self._lock:
            array = self._read(name, index)
        if keep and index is None:
            array.setflags(write=False)
            self.small[name] = array
        return array

    def _read(self, name: str, index: int | None) -> np.ndarray:
        info = self.infos[name]
        shape, skip = info.shape, 0
        if index is not None:
            if not 0 <= index < shape[0]:
                raise IndexError(index)
            shape = shape[1:]
            if not info.fortran:  # C order: the layer is one contiguous run of bytes
                skip = index * math.prod(shape) * info.dtype.itemsize
        whole = index is not None and info.fortran
        nbytes = info.nbytes if whole else math.prod(shape) * info.dtype.itemsize
        if nbytes > self.limit:
            raise problem(self.path, QT_TR_NOOP("'{0}' holds {1:.0f} MB; the most AttnViz reads is {2} MB"),
                                     name, nbytes / 2**20, self.limit // 2**20)
        data = self._guarded(lambda: self._read_bytes(name, info.offset + skip, nbytes))
        self.reads.append((name, index))
        array = np.frombuffer(data, dtype=info.dtype).reshape(info.shape if whole else shape,
                                                              order="F" if info.fortran else "C")
        return np.ascontiguousarray(array[index]) if whole else array

    def _read_bytes(self, name: str, start: int, nbytes: int) -> np.ndarray:
        if self.folder is not None:
            with open_regular(self.folder[name], self.limit + start) as f:
                f.seek(start)
                return _read_exact(f, nbytes, name)
        if not self.unchanged():
            raise problem(self.path, QT_TR_NOOP("changed on disk since it was opened: open it again"))
        member = self.members[name]
        with open_regular(self.path, self.limit) as f:
            if member.method == zipfile.ZIP_STORED:
                f.seek(member.start + start)  # np.savez stores: a layer is a seek away
                return _read_exact(f, nbytes, name)
            data, inflated = member.inflate(f, start, nbytes, name)
            self.inflated += inflated
            return data

    def _guarded(self, work):
        """Run `work`; every way a damaged or hostile file can fail (an encrypted member raises
        RuntimeError, a broken stream zlib.error, ...) becomes a FileProblem on one line."""
        try:
            return work()
        except FileProblem as e:
            raise e if str(e).startswith(str(self.path)) else problem(self.path, e) from None
        except MemoryError:
            raise problem(self.path, QT_TR_NOOP("too large to read with the memory available")) from None
        except (zipfile.BadZipFile, EOFError, KeyError):
            raise problem(self.path, QT_TR_NOOP("not a valid .npz file (broken or not a zip archive)")) from None
        except Exception as e:  # noqa: BLE001 (whatever a hostile archive makes zipfile or NumPy raise)
            raise problem(self.path, QT_TR_NOOP("not a valid NumPy file ({0}: {1})"),
                                     type(e).__name__, one_line(e)) from None


class Member:
    """Where one archive member's bytes lie, and (compressed) the decompressor's state at points
    along it: the first visit to a late layer inflates what comes before it once, and every later
    visit starts at the nearest point before the layer (np.savez_compressed's layers cannot be
    reached otherwise: a deflate stream has no index). The state where the last read stopped is
    kept too: the next layer carries on from there, so reading every layer in turn inflates the
    member once, whatever the size of its layers."""

    EVERY = 8 << 20  # a point every 8 MB of unpacked data: a copy of zlib's state is ~40 kB,
                     # plus the input not yet consumed, which it keeps (< PACKED_CHUNK)

    def __init__(self, method: int, start: int, compressed: int, size: int):
        self.method, self.start, self.compressed, self.size = method, start, compressed, size
        self.points: list[tuple[int, int, Any]] = []  # (unpacked position, packed position, state)
        self.cursor: tuple[int, int, Any] | None = None  # the same, where the last read stopped

    def inflate(self, f, start: int, nbytes: int, name: str) -> tuple[np.ndarray, int]:
        """Bytes [start, start + nbytes) of the unpacked member, and how many were inflated
        (from the nearest saved point to the end of the range, no further)."""
        at, packed, state = max((p for p in self.points + [self.cursor] if p is not None and p[0] <= start),
                                default=(0, 0, None), key=lambda p: p[0])
        inflater = state.copy() if state is not None else zlib.decompressobj(-zlib.MAX_WBITS)
        out = np.empty(nbytes, np.uint8)
        view, done, inflated, pending = out.data, 0, 0, b""
        f.seek(self.start + packed)
        while done < nbytes:
            if at % self.EVERY == 0:
                self._remember(at, packed - len(pending), inflater)
            if not pending and packed < self.compressed:
                pending = f.read(min(PACKED_CHUNK, self.compressed - packed))
                packed += len(pending)
                if not pending:
                    raise FileProblem(QT_TR_NOOP("'{0}' ends early: the file is truncated"), name)
            # Not a byte past the range, a megabyte at most (no large pieces to copy), and stop at
            # each multiple of EVERY to save a point there. With every byte of input consumed,
            # zlib may still hold output cut off at the last stop: an empty input drains it.
            had_input = bool(pending)
            piece = inflater.decompress(pending, min(start + nbytes, (at // self.EVERY + 1) * self.EVERY,
                                                     at + CHUNK) - at)
            pending = inflater.unconsumed_tail
            if not piece and (inflater.eof or not had_input):
                raise FileProblem(QT_TR_NOOP("'{0}' ends early: the file is truncated"), name)
            inflated += len(piece)
            lo, hi = max(start - at, 0), len(piece)
            if hi > lo:
                view[done:done + hi - lo] = piece[lo:hi]
                done += hi - lo
            at += len(piece)
        self.cursor = (at, packed - len(pending), inflater)  # copied when used: this one is done with
        return out, inflated

    def _remember(self, at: int, packed: int, inflater) -> None:
        if all(p[0] != at for p in self.points):
            self.points.append((at, packed, inflater.copy()))
            self.points.sort(key=lambda p: p[0])


def _member(f, info: zipfile.ZipInfo) -> Member:
    """Where `info`'s data starts: after its local header, whose name and extra field lengths
    may differ from the central directory's."""
    f.seek(info.header_offset)
    local = f.read(30)
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile("a damaged local header")
    start = info.header_offset + 30 + int.from_bytes(local[26:28], "little") + int.from_bytes(local[28:30], "little")
    if start + info.compress_size > os.fstat(f.fileno()).st_size:
        raise FileProblem(QT_TR_NOOP("'{0}' claims more bytes than the file holds: it is truncated"),
                          info.filename)
    if info.compress_type == zipfile.ZIP_STORED and info.compress_size != info.file_size:
        raise FileProblem(QT_TR_NOOP("'{0}' has a damaged size"), info.filename)
    return Member(info.compress_type, start, info.compress_size, info.file_size)


def _check_method(member: zipfile.ZipInfo) -> None:
    """Stored or deflated, not encrypted: read from the archive's list, before any unpacking."""
    if member.flag_bits & 0x1:
        raise FileProblem(QT_TR_NOOP("'{0}' is encrypted; AttnViz reads arrays as np.savez and np.savez_compressed "
                                     "write them"), member.filename)
    if member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise FileProblem(QT_TR_NOOP("'{0}' is compressed with {1}, which would be unpacked again from the start "
                                     "for each layer; AttnViz reads .npz files stored or compressed with deflate "
                                     "(np.savez, np.savez_compressed)"),
                          member.filename, METHODS.get(member.compress_type) or
                          Phrase(QT_TR_NOOP("zip method {0}"), member.compress_type))


def one_line(error) -> str:
    return " ".join(str(error).split())


def _directory(f) -> tuple[int, int]:
    """(files declared, bytes of the list of files) from the archive's end record, read before
    zipfile parses that list: a hostile archive may list millions of files."""
    find_end = getattr(zipfile, "_EndRecData", None)  # private, stable since Python 2; checked anyway
    if find_end is None:
        return 0, 0
    end = find_end(f)
    if end is None:
        raise zipfile.BadZipFile("no end of archive record")
    f.seek(0)
    return end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]  # zipfile's own


def _header(name: str, stream) -> ArrayInfo:
    """The .npy header, its length checked before it is read (NumPy would read a 4 GB one first)."""
    magic = stream.read(8)
    if len(magic) < 8 or magic[:6] != b"\x93NUMPY" or magic[6] not in (1, 2, 3):
        raise FileProblem(QT_TR_NOOP("'{0}' is not a NumPy array"), name)
    width = 2 if magic[6] == 1 else 4
    length_bytes = stream.read(width)
    length = int.from_bytes(length_bytes, "little") if len(length_bytes) == width else -1
    if not 0 < length <= MAX_HEADER_BYTES:
        raise FileProblem(QT_TR_NOOP("'{0}' has a damaged header ({1:,} bytes long)"), name, length)
    text = stream.read(length)
    if len(text) != length:
        raise FileProblem(QT_TR_NOOP("'{0}' ends inside its header: the file is truncated"), name)
    header = io.BytesIO(magic + length_bytes + text)
    np.lib.format.read_magic(header)
    read = np.lib.format.read_array_header_1_0 if magic[6] == 1 else np.lib.format.read_array_header_2_0
    shape, fortran, dtype = read(header, max_header_size=MAX_HEADER_BYTES)
    if dtype.hasobject:
        raise FileProblem(QT_TR_NOOP("'{0}' holds Python objects (pickles), which AttnViz never loads; save "
                                     "plain numeric and string arrays"), name)
    if dtype.kind not in READABLE_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise FileProblem(QT_TR_NOOP("'{0}' holds {1} values; AttnViz reads numbers and text"), name, dtype)
    if any(d < 0 for d in shape):
        raise FileProblem(QT_TR_NOOP("'{0}' has a negative size in its shape {1}"), name, shape)
    return ArrayInfo(name, tuple(int(d) for d in shape), dtype, bool(fortran), 8 + width + length)


def _read_exact(stream, nbytes: int, name: str) -> np.ndarray:
    """Exactly `nbytes` from the stream, in chunks (no second copy, and no zero-filling first:
    200 MB at 2,048 tokens), or a FileProblem."""
    data = np.empty(nbytes, np.uint8)
    view = data.data
    done = 0
    while done < nbytes:
        got = stream.readinto(view[done:done + CHUNK])
        if not got:
            raise FileProblem(QT_TR_NOOP("'{0}' ends early: the file is truncated"), name)
        done += got
    return data


def folder_names(path: Path, names, shared=()) -> tuple[dict[str, Path], str]:
    """The .npy files beside `path` that form one set: `path` is <prefix><name>.npy for one of
    `names` (weights.npy, layer7_weights.npy), and so are the others, with the same prefix;
    the `shared` ones may also come without it (one tokens.npy for every layer's files).
    Returns them and the prefix."""
    regular_file(path)
    stem = path.stem
    matched = next((n for n in sorted(names, key=len, reverse=True) if stem.endswith(n)), None)
    if matched is None:
        raise problem(path, QT_TR_NOOP("is not one of the arrays AttnViz reads ({0}, optionally with a common "
                                       "prefix such as layer7_weights.npy)"),
                            ', '.join(n + '.npy' for n in names))
    prefix = stem[:len(stem) - len(matched)]
    found = {}
    for name in names:
        candidates = [path.parent / f"{prefix}{name}.npy"]
        if prefix and name in shared:
            candidates.append(path.parent / f"{name}.npy")
        existing = next((c for c in candidates if c.is_file()), None)  # the prefixed one wins
        if existing is not None:
            found[name] = existing
    return found, matched


def writer(arrays: dict[str, np.ndarray]):
    """What np.savez writes (stored, not compressed: fast, and read layer by layer), in pieces of
    1 MB straight from the arrays' memory: np.savez copies 16 MB at a time while holding Python's
    lock, which stalls the window for tens of milliseconds when autosave writes on its thread."""
    def write(f):
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            for name, array in arrays.items():
                array = np.asarray(array, order="C")  # C order, and a single value stays 0-d
                with archive.open(f"{name}.npy", "w", force_zip64=True) as out:
                    np.lib.format.write_array_header_1_0(out, np.lib.format.header_data_from_array_1_0(array))
                    data = array.reshape(-1).view(np.uint8).data if array.size else memoryview(b"")
                    for start in range(0, len(data), WRITE_CHUNK):
                        out.write(data[start:start + WRITE_CHUNK])
    return write
