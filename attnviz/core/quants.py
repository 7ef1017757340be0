"""The tensor types AttnViz dequantises itself, one class each (as gguf-py's quants.py has one per type):
where a block keeps its floats, and how its values come back as float32. The others are gguf's to
dequantise (core/gguf.py asks it which it can).

Measured side by side on SmolLM2 (Q4_1), gguf 0.19's dequantize took 6.0–6.6 s where these take 0.5–0.8 s;
tests/core/test_gguf.py checks each against gguf's on every value.
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


OWN: dict[str, type[Own]] = {t.name: t for t in (F32, F16, BF16, Q4_0, Q4_1, Q8_0)}


def _scale(blocks: np.ndarray, at: int = 0) -> np.ndarray:
    """The float16 at byte `at` of every block, as float32: [n_blocks, 1]."""
    return blocks[:, at:at + 2].copy().view(np.float16).astype(np.float32)


def _nibbles(body: np.ndarray) -> np.ndarray:
    """16 bytes of a block -> its 32 four-bit values 0..15: the low halves first, then the high."""
    low, high = body & 0x0F, body >> 4
    return np.concatenate([low, high], axis=1).astype(np.float32)   # [n_blocks, 32]
