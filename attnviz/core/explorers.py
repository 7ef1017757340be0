"""The maths behind the views of seed 003: why √d_k, why subtract the max, attention as a kernel.

Each function computes what its view shows, so the views only draw, and the tests
check the numbers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import attention, softmax

SQRT_DK_SIZES = (2, 16, 64, 256)


@dataclass(frozen=True)
class ScaleDemo:
    d_k: int
    scaled: np.ndarray    # weights with ÷√d_k          [n, n]
    unscaled: np.ndarray  # the same q, k without it    [n, n]

    @staticmethod
    def peak(weights: np.ndarray) -> float:
        """The mean of each row's largest weight: 1 when every row is one-hot."""
        return float(weights.max(axis=-1).mean())


def sqrt_dk_demo(seed: int = 0, n: int = 8, d_ks=SQRT_DK_SIZES) -> list[ScaleDemo]:
    """Random q and k (unit variance) of growing d_k, with and without ÷√d_k (§4.1):
    q·k has a spread of about √d_k, so without the division softmax saturates to one-hot."""
    rng = np.random.default_rng(seed)
    demos = []
    for d_k in d_ks:
        q, k = rng.normal(size=(2, n, d_k))
        demos.append(ScaleDemo(d_k, attention(q, k, k, causal=False).weights,
                               attention(q, k, k, causal=False, scale=False).weights))
    return demos


@dataclass(frozen=True)
class SoftmaxSteps:
    x: np.ndarray             # the row's scores (masked ones are −inf)
    shifted: np.ndarray       # x − max(x): the largest becomes 0, nothing overflows
    exp_shifted: np.ndarray   # e^(x − max)
    weights: np.ndarray       # e^(x − max) / Σ e^(x − max): the softmax
    exp_naive: np.ndarray     # e^x straight away: inf once x passes about 709
    naive: np.ndarray         # e^x / Σ e^x: NaN (inf / inf) after an overflow

    @property
    def overflows(self) -> bool:
        return bool(np.isinf(self.exp_naive).any() or np.isnan(self.naive).any())


def softmax_steps(x) -> SoftmaxSteps:
    """Softmax computed both ways, so the view can show what the max subtraction saves."""
    x = np.asarray(x, dtype=float)
    peak = np.max(x[np.isfinite(x)]) if np.isfinite(x).any() else 0.0
    shifted = x - peak
    exp_shifted = np.exp(shifted)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        exp_naive = np.exp(x)  # computed, not described: this is what overflows
        naive = exp_naive / exp_naive.sum()
    return SoftmaxSteps(x, shifted, exp_shifted, softmax(x), exp_naive, naive)


def elu_plus_one(x: np.ndarray) -> np.ndarray:
    """φ(x) = elu(x) + 1: positive everywhere, the feature map of linear attention."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention_weights(q, k, visible) -> np.ndarray:
    """Attention as a kernel smoother with the kernel φ(q)·φ(k) instead of exp(q·k/√d_k),
    normalised over the visible keys of each row (§4.4)."""
    kernel = elu_plus_one(np.asarray(q, float)) @ elu_plus_one(np.asarray(k, float)).T  # [n, d] @ [d, n]
    kernel = np.where(visible, kernel, 0.0)
    return kernel / kernel.sum(axis=-1, keepdims=True)
