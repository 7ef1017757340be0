"""The attention core: numpy and the standard library only, never Qt.

Everything AttnViz shows is computed here; the window, the exports and the
command line only read what these functions return.
"""
from .attention import (
    AttentionTrace,
    MultiHeadTrace,
    attention,
    causal_mask,
    merge_heads,
    multi_head_attention,
    softmax,
    split_heads,
)
from .compute import Result, compute
from .io import load_scenario, save_scenario
from .presets import DEFAULT_PRESET, list_presets, load_preset
from .scenario import Head, Projection, Scenario, ScenarioError, Settings, make_head, make_scenario

__all__ = [
    "AttentionTrace", "MultiHeadTrace", "attention", "causal_mask", "merge_heads",
    "multi_head_attention", "softmax", "split_heads", "Result", "compute",
    "load_scenario", "save_scenario", "DEFAULT_PRESET", "list_presets", "load_preset",
    "Head", "Projection", "Scenario", "ScenarioError", "Settings", "make_head", "make_scenario",
]
