"""The tensor types AttnViz dequantises itself, one class each (as gguf-py's quants.py has one per type):
where a block keeps its floats, and how its values come back as float32. The others are gguf's to
dequantise (core/gguf.py asks it which it can).

Measured side by side on SmolLM2 (Q4_1), gguf 0.19's dequantize took 6.0–6.6 s where these take 0.5–0.8 s;
on 4 M values of each K-quant (bench/quants.py), these are 4–6× gguf's speed. tests/core/test_gguf.py
checks each against gguf's, bit for bit, on every value.
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np


class Own:
    """A type AttnViz dequantises: `floats` is (IEEE format, byte where a block's floats start, bytes they
    take), what the check for NaN reads without dequantising."""

    name: ClassVar[str]
    floats: ClassVar[tuple[str, int, int]]

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        """uint8 [n_blocks, block_bytes] -> float32 [n_blocks · per_block]."""
        raise NotImplementedError


class F32(Own):
    name, floats = "F32", ("f32", 0, 4)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        return blocks.reshape(-1).view(np.float32).copy()


class F16(Own):
    name, floats = "F16", ("f16", 0, 2)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        return blocks.reshape(-1).view(np.float16).astype(np.float32)


class BF16(Own):
    """The upper half of a float32."""
    name, floats = "BF16", ("bf16", 0, 2)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        return (blocks.reshape(-1).view(np.uint16).astype(np.uint32) << 16).view(np.float32)


class Q8_0(Own):  # noqa: N801 (ggml's names)
    """A scale, then 32 signed bytes: scale · q."""
    name, floats = "Q8_0", ("f16", 0, 2)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        return (_scale(blocks) * blocks[:, 2:].view(np.int8)).reshape(-1)


class Q4_0(Own):  # noqa: N801
    """A scale, then 32 four-bit values: scale · (q − 8)."""
    name, floats = "Q4_0", ("f16", 0, 2)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        return (_scale(blocks) * (_nibbles(blocks[:, 2:]) - 8)).reshape(-1)


class Q4_1(Own):  # noqa: N801
    """A scale and a minimum, then 32 four-bit values: scale · q + minimum."""
    name, floats = "Q4_1", ("f16", 0, 4)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        return (_scale(blocks) * _nibbles(blocks[:, 4:]) + _scale(blocks, 2)).reshape(-1)




def _scale(blocks: np.ndarray, at: int = 0) -> np.ndarray:
    """The float16 at byte `at` of every block, as float32: [n_blocks, 1]."""
    return blocks[:, at:at + 2].copy().view(np.float16).astype(np.float32)


def _nibbles(body: np.ndarray) -> np.ndarray:
    """16 bytes of a block -> its 32 four-bit values 0..15: the low halves first, then the high."""
    low, high = body & 0x0F, body >> 4
    return np.concatenate([low, high], axis=1).astype(np.float32)   # [n_blocks, 32]


# ---------------------------------------------------------------- the K-quants: super-blocks of 256 values
# Their layouts are ggml-common.h's block_q2_K … block_q6_K. Each decoder does the arithmetic gguf's does, in
# the same order and precision (so every value is bit-for-bit gguf's: tests/core/test_gguf.py), but on uint8
# until the one conversion to float32 and then in place, where gguf makes a new array at every step.

class Q4_K(Own):  # noqa: N801
    """d, dmin, 12 bytes of 6-bit scales and minimums for 8 sub-blocks of 32, then 128 bytes of nibbles
    (each 32 bytes: one sub-block in the low halves, the next in the high): d·scale·q − dmin·minimum."""
    name, floats = "Q4_K", ("f16", 0, 4)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        scales, minimums = _six_bit(blocks[:, 4:16])
        q = _fields(blocks[:, 16:144].reshape(-1, 4, 32), 2, 4).reshape(-1, 8, 32)
        return _scaled(q, _scale(blocks) * scales, _scale(blocks, 2) * minimums)


class Q5_K(Own):  # noqa: N801
    """Q4_K with a fifth bit: 32 bytes whose bit s is sub-block s's, before the nibbles."""
    name, floats = "Q5_K", ("f16", 0, 4)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        scales, minimums = _six_bit(blocks[:, 4:16])
        q = _fields(blocks[:, 48:176].reshape(-1, 4, 32), 2, 4).reshape(-1, 8, 32)
        q |= _fields(blocks[:, 16:48], 8, 1, at=4)
        return _scaled(q, _scale(blocks) * scales, _scale(blocks, 2) * minimums)


class Q6_K(Own):  # noqa: N801
    """128 bytes of low nibbles, 64 of high bit pairs, 16 signed 8-bit scales (one per 16 values), then d:
    d·scale·(q − 32)."""
    name, floats = "Q6_K", ("f16", 208, 2)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        n = len(blocks)
        q = _fields(blocks[:, :128].reshape(n, 2, 64), 2, 4).reshape(n, 2, 4, 32)
        q |= _fields(blocks[:, 128:192].reshape(n, 2, 32), 4, 2, at=4)   # group j's two high bits
        q = q.view(np.int8)
        q -= np.int8(32)
        scales = blocks[:, 192:208].view(np.int8).astype(np.float32)
        return _scaled(q.reshape(n, 16, 16), _scale(blocks, 208) * scales)


class Q2_K(Own):  # noqa: N801
    """16 bytes of 4-bit scale and minimum pairs (one per 16 values), 64 bytes of 2-bit values, d, dmin:
    d·scale·q − dmin·minimum."""
    name, floats = "Q2_K", ("f16", 80, 4)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        n, pairs = len(blocks), blocks[:, :16]
        q = _fields(blocks[:, 16:80].reshape(n, 2, 32), 4, 2).reshape(n, 16, 16)
        return _scaled(q, _scale(blocks, 80) * (pairs & 0x0F), _scale(blocks, 82) * (pairs >> 4))


class Q3_K(Own):  # noqa: N801
    """32 bytes of high bits (set means no −4), 64 of 2-bit values, 12 bytes of 6-bit signed scales, d:
    d·scale·(q − 4·(1 − high))."""
    name, floats = "Q3_K", ("f16", 108, 2)

    @staticmethod
    def dequantize(blocks: np.ndarray) -> np.ndarray:
        n = len(blocks)
        low = _fields(blocks[:, 32:96].reshape(n, 2, 32), 4, 2).reshape(n, 16, 16)
        high = _fields(blocks[:, :32], 8, 1, at=2).reshape(n, 16, 16)
        high ^= 4   # 4 where the bit is clear
        q = low.view(np.int8)
        q -= high.view(np.int8)
        return _scaled(q, _scale(blocks, 108) * _three_k_scales(blocks[:, 96:108]))


def _fields(body: np.ndarray, count: int, width: int, at: int = 0) -> np.ndarray:
    """uint8 [..., m] -> [..., count, m]: field j of each byte (`width` bits from bit j·width), moved to bit
    `at`. Worked up to eight bytes at a time (the mask keeps each byte's own bits), each field put in place
    as one m-byte item: numpy's loop over an axis of 32 bytes costs more than the arithmetic on them."""
    m = body.shape[-1]
    word = np.dtype(f"u{np.gcd(m, 8)}")
    words, item = np.ascontiguousarray(body).view(word), np.dtype((np.void, m))
    mask = word.type(int.from_bytes(bytes([((1 << width) - 1) << at]) * word.itemsize, "little"))
    out = np.empty((*body.shape[:-1], count, m), np.uint8)
    field = np.empty_like(words)
    for j in range(count):
        shift = j * width - at
        if shift >= 0:
            np.right_shift(words, word.type(shift), out=field)
        else:
            np.left_shift(words, word.type(-shift), out=field)
        field &= mask
        out.view(item)[..., j, 0] = field.view(item)[..., 0]
    return out


def _six_bit(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Q4_K's and Q5_K's 12 bytes -> 8 scales and 8 minimums of 6 bits (get_scale_min_k4), as float32:
    worked on each block's three runs of four bytes as one uint32 each."""
    d, m, both = np.ascontiguousarray(packed).view(np.uint32).T
    scales, minimums = np.empty((2, len(packed), 2), np.uint32)
    scales[:, 0], minimums[:, 0] = d & _LOW_SIX, m & _LOW_SIX
    scales[:, 1] = (both & _LOW_FOUR) | ((d >> 2) & _BITS_4_5)
    minimums[:, 1] = ((both >> 4) & _LOW_FOUR) | ((m >> 2) & _BITS_4_5)
    return scales.view(np.uint8).astype(np.float32), minimums.view(np.uint8).astype(np.float32)


_LOW_SIX, _LOW_FOUR, _BITS_4_5 = (np.uint32(int.from_bytes(bytes([b]) * 4, "little")) for b in (0x3F, 0x0F, 0x30))


def _three_k_scales(packed: np.ndarray) -> np.ndarray:
    """Q3_K's 12 bytes -> 16 scales: 4 low bits from bytes 0–7, 2 high bits from bytes 8–11, less 32."""
    n = len(packed)
    scales = _fields(packed[:, :8], 2, 4).reshape(n, 16)
    scales |= _fields(packed[:, 8:], 4, 2, at=4).reshape(n, 16)
    return (scales.view(np.int8) - np.int8(32)).astype(np.float32)


def _scaled(q: np.ndarray, scale: np.ndarray, minimum: np.ndarray | None = None) -> np.ndarray:
    """q [n, s, v] (integers) · scale [n, s] (− minimum [n, s]) as float32, worked out in place."""
    out = q.astype(np.float32)
    out *= scale[:, :, None]
    if minimum is not None:
        out -= minimum[:, :, None]
    return out.reshape(-1)


OWN: dict[str, type[Own]] = {t.name: t for t in (F32, F16, BF16, Q4_0, Q4_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K)}
