"""What most families share in their records: the sizes of q, k and v, and "nothing more" for what only
some read (Llama 3's frequency factors, Gemma 3's sliding windows)."""
from __future__ import annotations

from ..weights import Config


def sizes(c: Config) -> tuple[int, int, int, int]:
    """q's width, k's and v's, d_model, d_ff."""
    return c.n_heads * c.d_head, c.n_kv_heads * c.d_head, c.d, c.d_ff


def no_top(c: Config, present_names) -> dict[str, tuple[int, ...]]:
    """No tensors outside the blocks beyond the embedding, the final norm and the output."""
    return {}


def no_gguf_settings(size, n_layers: int, d: int) -> dict:
    """Nothing in a GGUF file beyond the sizes every family has."""
    return {}


def no_hf_settings(number, cfg: dict, n_layers: int, d: int, d_head: int, rope_base) -> dict:
    """Nothing in config.json beyond the sizes every family has."""
    return {}
