"""The model families AttnViz runs, one record each (one file here, as transformers has one modeling file
per family): its forward pass, written as maths in the file's docstring (embed, qkv, attention_out, mlp,
block); the tensors of its GGUF file and of its Hugging Face folder, by name and shape, and how a block is
built from them; and what it reads from their settings beyond the sizes every family has.

Adding a family is one file here, its line in ALL, and its golden files (tools/family_reference.py).
"""
from __future__ import annotations

from typing import Protocol

import numpy as np

from ..weights import Block, Config
from . import gemma3, gpt2, llama, olmo2, qwen2, qwen3

Shapes = dict[str, tuple[int, ...]]


class Family(Protocol):
    """What each family's module holds (mypy checks each module in ALL against it)."""

    @property
    def NAME(self) -> str: ...  # noqa: N802 (the modules' constants) general.architecture; Config.family

    @property
    def MODEL_TYPES(self) -> tuple[str, ...]: ...  # noqa: N802 config.json's model_type values it runs

    @property
    def LAYER_NORM(self) -> bool: ...  # noqa: N802 LayerNorm with biases (GPT-2); else RMSNorm

    @property
    def ROPE(self) -> bool: ...  # noqa: N802 positions by RoPE; else learned (GPT-2)

    @property
    def GGUF_ROPE_HALVES(self) -> bool: ...  # noqa: N802 its GGUF's RoPE turns (i, i + d_head/2); else (2i, 2i + 1)

    @property
    def HF(self) -> dict[str, str]: ...  # noqa: N802 its folder's block prefix, embedding, final norm, positions

    @property
    def HF_GAIN_PLUS_ONE(self) -> bool: ...  # noqa: N802 its folder keeps a norm's gain as w in x · (1 + w)

    @property
    def HF_ASSUMES(self) -> dict[str, tuple]: ...  # noqa: N802 config.json settings its block holds to: their values

    @property
    def HF_DEFAULTS(self) -> dict[str, float | bool]: ...  # noqa: N802 transformers' values where config.json has none

    def embed(self, model, ids) -> np.ndarray: ...

    def qkv(self, b: Block, c: Config, layer: int, x: np.ndarray, start: int = 0) -> tuple: ...

    def attention_out(self, b: Block, c: Config, y: np.ndarray) -> np.ndarray: ...

    def mlp(self, b: Block, c: Config, x: np.ndarray) -> np.ndarray: ...

    def block(self, model, layer: int, x: np.ndarray, changes: dict, kept=None, last_only: bool = False): ...

    def gguf_tensors(self, c: Config) -> Shapes: ...

    def gguf_top(self, c: Config, present_names) -> Shapes: ...

    def gguf_block(self, t, norm, c: Config) -> Block: ...

    def gguf_settings(self, size, n_layers: int, d: int) -> dict: ...

    def hf_tensors(self, c: Config) -> Shapes: ...

    def hf_block(self, g, norm, c: Config) -> Block: ...

    def hf_settings(self, number, cfg: dict, n_layers: int, d: int, d_head: int, rope_base) -> dict: ...


ALL: tuple[Family, ...] = (llama, qwen2, qwen3, gemma3, gpt2, olmo2)
FAMILIES: dict[str, Family] = {f.NAME: f for f in ALL}
MODEL_TYPES: dict[str, str] = {kind: f.NAME for f in ALL for kind in f.MODEL_TYPES}
NAMES = ", ".join(FAMILIES)  # as messages list them
