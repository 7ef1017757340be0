"""The maths behind the maths views: seed 003's why √d_k, why subtract the max, attention as a kernel and
softmax's three places; seed 000's x·W (one linear map, and W_q, W_k, W_v giving q, k, v from one x).

Each function computes what its view shows, so the views only draw, and the tests
check the numbers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import attention, softmax
from .explain import decimals_for, dot_text
from .messages import QT_TR_NOOP

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


# ---------------------------------------------------------------- x·W (seed 000, "Query・Key・Value")

# The seed's example: the input [2, 1] and a matrix whose 1st output is 1×(1st) + 0×(2nd) and whose 2nd
# is 1×(1st) + 2×(2nd). With x a row (x·W, as the seed's Q = X W_q), column j of W holds output j's weights.
SEED_X = (2.0, 1.0)
SEED_W = ((1.0, 1.0),
          (0.0, 2.0))
# The same x times one matrix each for the query, the key and the value: three different vectors.
# W_q is the seed's W; W_k and W_v are small whole numbers of our own, chosen so that q, k, v all differ.
QKV_WEIGHTS = {"q": SEED_W,
               "k": ((0.0, 1.0),
                     (1.0, 1.0)),
               "v": ((1.0, 0.0),
                     (1.0, 2.0))}


@dataclass(frozen=True)
class LinearMap:
    x: np.ndarray          # the input, one row                    [1, d_in]
    w: np.ndarray          # the matrix; column j: output j's weights [d_in, d_out]
    product: np.ndarray    # x·W                                    [1, d_out]
    sums: tuple[str, ...]  # output j written out as the seed says it, weight × input: "1×2 + 0×1 = 2"
    decimals: int          # what x's and W's numbers need (0 for the seed's whole numbers), for all of them

    @property
    def shapes(self) -> tuple[str, str, str]:
        """x's, W's and x·W's shapes as the seed writes them: ("1 × 2", "2 × 2", "1 × 2")."""
        return shape_text(self.x), shape_text(self.w), shape_text(self.product)


def shape_text(m: np.ndarray) -> str:
    rows, columns = np.shape(m)
    return f"{rows} × {columns}"


def linear_map(x=SEED_X, w=SEED_W) -> LinearMap:
    """x·W with each output's sum written out: output j = Σ_i W[i, j] × x[i]."""
    x = np.asarray(x, dtype=float).reshape(1, -1)
    w = np.asarray(w, dtype=float)
    decimals = max(decimals_for(x), decimals_for(w))
    sums = tuple(dot_text(w[:, j], x[0], decimals) for j in range(w.shape[1]))
    return LinearMap(x, w, x @ w, sums, decimals)


def qkv_maps(x=SEED_X) -> dict[str, LinearMap]:
    """The same x through W_q, W_k and W_v: {"q": x·W_q, "k": x·W_k, "v": x·W_v}."""
    return {name: linear_map(x, w) for name, w in QKV_WEIGHTS.items()}


# ---------------------------------------------------------------- softmax in three places (seed 003, §4.3)

MOST_BARS = 10  # a panel's bars; beyond, the largest inputs are shown and the rest counted
# The next-token example: four candidates after 猫が魚を ("The cat …"), logits of our own choosing.
NEXT_TOKENS = (QT_TR_NOOP("ate"), QT_TR_NOOP("saw"), QT_TR_NOOP("dumped"), QT_TR_NOOP("cooked"))
NEXT_TOKEN_LOGITS = (3.0, 1.5, 0.5, -1.0)
TEMPERATURES = (0.5, 1.0, 2.0)  # sharper, as it is, flatter


@dataclass(frozen=True)
class Distribution:
    """What one softmax receives and gives, for bars: the items shown in their order (a masked key
    has none), and how many were left out for room with their share of the total."""

    labels: tuple[str, ...]
    inputs: np.ndarray       # scores, logits or logits ÷ T
    outputs: np.ndarray      # softmax of the whole row: ≥ 0, Σ = 1 with the ones left out
    left_out: int = 0
    left_out_share: float = 0.0

    @property
    def top(self) -> int:
        """The position (among those shown) of the largest output."""
        return int(np.argmax(self.outputs))


def distribution(labels, inputs, most: int = MOST_BARS) -> Distribution:
    """softmax(inputs), shown as bars: −∞ (masked) left out; beyond `most`, the most − 1 largest outputs in
    their order and the rest counted, so the bars stay readable."""
    inputs = np.asarray(inputs, dtype=float)
    outputs = softmax(inputs)  # over the whole row: the ones left out keep their share
    shown = np.flatnonzero(np.isfinite(inputs))
    if len(shown) > most:
        shown = np.sort(shown[np.argsort(-outputs[shown], kind="stable")[:most - 1]])
    rest = np.isfinite(inputs).sum() - len(shown)
    return Distribution(tuple(labels[i] for i in shown), inputs[shown], outputs[shown], int(rest),
                        float(1.0 - outputs[shown].sum()) if rest else 0.0)


def next_token_example(logits=NEXT_TOKEN_LOGITS, labels=NEXT_TOKENS) -> Distribution:
    """The output side: the logits of a few candidate next tokens → their probabilities."""
    return distribution(labels, logits)


def temperature_examples(logits=NEXT_TOKEN_LOGITS, labels=NEXT_TOKENS,
                         temperatures=TEMPERATURES) -> list[tuple[float, Distribution]]:
    """Sampling's temperature: the same logits divided by T before softmax, softmax(z / T); a low T
    sharpens the distribution, a high T flattens it."""
    z = np.asarray(logits, dtype=float)
    return [(t, distribution(labels, z / t)) for t in temperatures]
