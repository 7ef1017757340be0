"""How much memory a model takes, said before it is loaded, for each way its weights can be kept.

    fast      every weight dequantised to float32 at load: 4 bytes a parameter (a 1B model: 5 GB),
              the quickest passes and edits
    compact   a GGUF file's weights left in the file (memory-mapped: the system's cache, let go as it is
              read), each layer dequantised when a pass reaches it and the latest kept up to KEEP bytes:
              about the file's size plus a few layers, whatever the parameters
    auto      fast where it takes at most FAST_SHARE of the memory free now, else compact

A Hugging Face folder is held in float32 whichever way is asked for (its compact figure is its fast one).

A model whose way would not fit the free memory is refused before anything is built, naming both
numbers. The figures allow for a pass over TOKENS tokens (what it keeps: every layer's stream, q, k, v).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..messages import QT_TR_NOOP, quoted
from .run import pass_bytes
from .shown import ModelError
from .weights import Config

WAYS = ("auto", "compact", "fast")
KEEP = 512 << 20     # a compact model's dequantised layers kept for the next rerun
BASE = 160 << 20     # what the process holds beside a model: Python, numpy, the tokenizer
TILE = 16 << 20      # the unembedding's tile (gguf.StoredMatrix.TILE_VALUES float32)
TOKENS = 1024
FAST_SHARE = 0.6     # auto: fast while it leaves the rest of the computer this much of what is free


@dataclass(frozen=True)
class Need:
    """The bytes a model takes at its fullest in each way (compact is None where it cannot be kept compact)."""

    fast: int
    compact: int | None

    def as_dict(self) -> dict:
        """As `attnviz models --format json` says it: a folder's compact figure is its fast one."""
        return {"compact": self.compact if self.compact is not None else self.fast, "fast": self.fast}


def need(c: Config, sizes: dict[str, int], file_bytes: int | None, block: str = "blk.{0}.") -> Need:
    """What a model of config `c` with tensors of `sizes` (values each, by name; layer i's start with
    block.format(i)) takes; `file_bytes` the GGUF file's size (None: a folder, which is only kept fast)."""
    layers = [4 * sum(v for k, v in sizes.items() if k.startswith(block.format(i))) for i in range(c.n_layers)]
    building = 2 * max(layers, default=0)  # the layer being built and room for its tiles' scratch, to spare
    held = pass_bytes(c, TOKENS)
    fast = BASE + 4 * sum(sizes.values()) + building + held
    if file_bytes is None:
        return Need(fast, None)
    return Need(fast, BASE + file_bytes + min(KEEP, sum(layers)) + building + TILE + held)


def free_bytes() -> int | None:
    """The memory the system can give now without swapping (Linux's MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def choose(n: Need, way: str, name: str, free: int | None = None) -> str:
    """"compact" or "fast" for `way` (one of WAYS), refused when it would not fit the `free` memory
    (free_bytes() when not given)."""
    way = checked_way(way)
    free = free_bytes() if free is None else free
    if n.compact is None:  # a folder: held in float32 whichever way is asked for
        way = "fast"
    elif way == "auto":
        way = "fast" if free is None or n.fast <= FAST_SHARE * free else "compact"
    if free is None:
        return way
    if way == "compact" and n.compact is not None and n.compact > free:
        raise ModelError(QT_TR_NOOP("{0} needs about {1} even kept compact, but this computer has {2} free: close "
                                    "other programs"), name, said(n.compact), said(free))
    if way == "fast" and n.fast > free:
        if n.compact is None or n.compact >= n.fast:
            raise ModelError(QT_TR_NOOP("{0} needs about {1} in float32, but this computer has {2} free: close other "
                                        "programs"), name, said(n.fast), said(free))
        raise ModelError(QT_TR_NOOP("{0} needs about {1} in float32, but this computer has {2} free: keep it compact "
                                    "({3}) or close other programs"), name, said(n.fast), said(free), said(n.compact))
    return way


def checked_way(way) -> str:
    """`way` if it is one of WAYS, else refused saying which there are (the API's, the command line's, the
    window's setting, before any file is read)."""
    if not isinstance(way, str) or way not in WAYS:
        raise ModelError(QT_TR_NOOP("memory {0}: choose {1}"), quoted(way), ", ".join(WAYS))
    return way


def said(nbytes: int) -> str:
    """Bytes as people read them: 850 MB, 4.6 GB."""
    return f"{nbytes / 1e9:.1f} GB" if nbytes >= 1e9 else f"{nbytes / 1e6:.0f} MB"
