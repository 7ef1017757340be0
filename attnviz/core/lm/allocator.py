"""The C allocator asked to keep, for the next pass, the memory a model's pass frees.

A pass allocates and frees its scratch layer after layer (a 4,096-token layer's feed-forward is
some hundred MB), a new run replaces the last one's kept arrays, and the layer a window shows
first has its weights (9 × 4,096² float32: 0.6 GB). glibc's malloc gives large freed blocks back
to the system at once (above its mmap threshold, past its trim threshold at the top of the heap,
and always from the arena a thread of its own gets), and the kernel zeroes every page taken
again: measured on this project's two-core virtual machine (`make bench`), where a fault on fresh
memory costs some 5 ms per 2 MB, 76,000 faults in a 4,096-token pass that took 7.9 s with them and
6.8 s without, and 0.9 s of the window's 1.2 s over the pass when it opens a 4,096-token text.

So AttnViz, as it starts (one_heap), has every thread allocate from one heap and nothing mmapped,
and each pass asks glibc to keep as much freed memory as the pass itself holds (keep_freed); the
most asked for stays for the rest of the process, as docs/bench/RESULTS.md says. Elsewhere than glibc
(Windows, macOS) nothing changes.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import lru_cache

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_MMAP_MAX, M_ARENA_MAX = -1, -3, -4, -8  # glibc's mallopt (malloc.h)
LARGEST_HEAP_BLOCK = 32 * 2**20               # glibc's own ceiling for the mmap threshold (64-bit)

_kept = 0


def one_heap() -> bool:
    """Every thread's memory from the one main heap, and no block mmapped: called as the process
    starts, before any thread of its own (a thread's arena, once made, stays). -> False without glibc."""
    mallopt = _mallopt()
    return mallopt is not None and bool(mallopt(M_ARENA_MAX, 1)) and bool(mallopt(M_MMAP_MAX, 0))


def keep_freed(nbytes: int) -> int:
    """Keep up to `nbytes` of freed memory in the process for the next pass (never less than asked
    before); blocks up to 32 MB come from the heap even without one_heap. -> the bytes now kept (0
    without glibc)."""
    global _kept
    mallopt = _mallopt()
    if mallopt is None or nbytes <= _kept:
        return _kept
    if mallopt(M_MMAP_THRESHOLD, LARGEST_HEAP_BLOCK) and mallopt(M_TRIM_THRESHOLD, min(nbytes, 2**31 - 1)):
        _kept = nbytes
    return _kept


@lru_cache(maxsize=1)
def _mallopt():
    """glibc's mallopt(param, value) -> 1 on success, or None where the C library is not glibc."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return mallopt
