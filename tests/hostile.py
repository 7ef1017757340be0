"""Hostile files for the robustness tests: archive bombs, pipes, forged headers.

A bomb's data is zeros, compressed as repeated "full flush" deflate blocks: each block
stands alone, so a gigabyte is written in a fraction of a second and takes a megabyte.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

import numpy as np

BLOCK = 1 << 20

# `python -c CAPPED_CLI ARGS...`: the command line under a 2 GiB address-space cap, printing its
# peak resident memory in KiB (the peak since exec: ru_maxrss would include the parent's, from
# before the fork) as its last line of stdout.
CAPPED_CLI = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
from attnviz.cli import main
try:
    code = main(sys.argv[1:])
finally:
    print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
sys.exit(code)
"""


def npy_header(shape, dtype) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": np.dtype(dtype).str, "fortran_order": False,
                                                  "shape": tuple(shape)})
    return buffer.getvalue()


def npy_bytes(a) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, a, allow_pickle=False)
    return buffer.getvalue()


def _deflated(header: bytes, zero_bytes: int) -> tuple[bytes, int, int]:
    """(raw deflate stream, CRC-32, uncompressed size) of header + zero_bytes zeros."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = c.compress(header) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(bytes(BLOCK)) + c.flush(zlib.Z_FULL_FLUSH)  # the same for every MiB
    full, tail = divmod(zero_bytes, BLOCK)
    crc = zlib.crc32(header)
    zeros = bytes(BLOCK)
    for _ in range(full):
        crc = zlib.crc32(zeros, crc)
    crc = zlib.crc32(bytes(tail), crc)
    return head + block * full + c.compress(bytes(tail)) + c.flush(zlib.Z_FINISH), crc, len(header) + zero_bytes


def write_zip(path, members: dict[str, bytes | tuple[bytes, int, int]], flags: int = 0,
              declared: int | None = None) -> None:
    """A zip of stored members (bytes) and pre-deflated ones ((stream, crc, size)), below 4 GB;
    `flags` in every header (1: "encrypted"), `declared` files in the end record (a lie)."""
    local, central, offset = [], [], 0
    for name, content in members.items():
        if isinstance(content, bytes):
            data, crc, size, method = content, zlib.crc32(content), len(content), 0
        else:
            (data, crc, size), method = content, 8
        encoded = name.encode()
        header = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, len(data), size,
                             len(encoded), 0) + encoded
        central.append(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, crc, len(data),
                                   size, len(encoded), 0, 0, 0, 0, 0, offset) + encoded)
        local.append(header + data)
        offset += len(header) + len(data)
    directory = b"".join(central)
    count = len(central) if declared is None else declared
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(directory), offset, 0)
    with open(path, "wb") as f:
        f.write(b"".join(local) + directory + end)


def tokens(n: int) -> bytes:
    return npy_bytes(np.array([f"t{i}" for i in range(n)]))


def float32_bomb(path) -> None:
    """A 1 MB .npz whose weights unpack to 960 MiB of float32 (20 layers × 12 heads × 1024²)
    that would widen to 1.9 GB of float64: within the file limits, so it must be read a
    layer at a time (and its rows, all zero, are then refused)."""
    shape = (20, 12, 1024, 1024)
    write_zip(path, {"tokens.npy": tokens(1024),
                     "weights.npy": _deflated(npy_header(shape, "<f4"), 20 * 12 * 1024 * 1024 * 4)})


def int8_bomb(path) -> None:
    """A 1 MB .npz of 30,000 tokens and int8 weights of 858 MiB (widened: 7 GB): the token
    count alone must refuse it, before any weight is read."""
    n = 30_000
    write_zip(path, {"tokens.npy": tokens(n), "weights.npy": _deflated(npy_header((n, n), "|i1"), n * n)})


def many_members(path, count: int) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for i in range(count):
            z.writestr(f"m{i}.npy", b"")


def header_bomb(path) -> None:
    """An .npy whose version-2 header says it is 4 GB long (NumPy would read it all first)."""
    write_zip(path, {"tokens.npy": tokens(2),
                     "weights.npy": b"\x93NUMPY\x02\x00" + (0xFFFFFFF3).to_bytes(4, "little") + b"{" * 64})


def listed_but_not_declared(path, count: int) -> None:
    """An end record declaring one file before a list of `count` (zipfile would parse them all)."""
    write_zip(path, {f"m{i}.npy": b"" for i in range(count)}, declared=1)
