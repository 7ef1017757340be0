"""The C allocator asked to keep, for the next pass, the memory a model's pass frees.

A pass allocates and frees its scratch layer after layer (a 4,096-token layer's feed-forward is
some hundred MB), and a new run replaces the last one's kept arrays. glibc's malloc gives large
freed blocks back to the system at once (above its mmap threshold, or past its trim threshold at
the top of the heap), and every page taken again is a fault: measured on this project's two-core
virtual machine (`make bench`), 76,000 faults in a 4,096-token pass that took 7.9 s with them and
6.8 s once the freed memory was kept for the next pass. So a pass asks glibc to keep as much freed
memory as the pass itself holds; the most asked for stays for the rest of the process, and is
said in the README. Elsewhere than glibc (Windows, macOS) nothing changes.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import lru_cache

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3   # glibc's mallopt parameters (malloc.h)
LARGEST_HEAP_BLOCK = 32 * 2**20               # glibc's own ceiling for the mmap threshold (64-bit)

_kept = 0


def keep_freed(nbytes: int) -> int:
    """Keep up to `nbytes` of freed memory in the process for the next pass (never less than asked
    before); blocks up to 32 MB come from the heap. -> the bytes now kept (0 without glibc)."""
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
