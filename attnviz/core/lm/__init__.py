"""Real language models in numpy: six families (llama, qwen2, qwen3, gemma3, gpt2, olmo2) from GGUF
files or Hugging Face folders, run forward with every layer's q, k, v kept, one layer at a time
shown as a Scenario whose edits rerun the model.

    weights.py   Config, Block, Model: what a loaded model holds
    blocks.py    what every family's block shares (heads, changes, attention with the layer's mask)
    families/    one record per family: its forward pass in its docstring, its files' tensor names
    run.py       a run over token ids, rerun from the lowest changed layer
    tokens.py    the model's tokenizer (Hugging Face's `tokenizers`), labels
    gguf_file.py, hf_folder.py     a file or a folder loaded, every value checked first
    catalog.py   the models AttnViz finds (`attnviz models`), an id or a path opened
    memory.py    what a model takes, fast or kept compact, said before it loads
    shown.py     a run as AttnViz shows it: tokens, next tokens, a layer as a Scenario
"""
from . import memory
from .catalog import BUILTIN_ID, BUNDLED, GEMMA_ID, INSTALL_HINT, bundled_model, entries, load, needs_terms, resolve
from .gguf_file import model_name
from .run import Cancelled, Run, final_stream, run, same_changes, same_edits
from .shown import (
    MAX_MODEL_TOKENS,
    Encoded,
    ModelError,
    ablation,
    another_layer,
    check_text,
    encode,
    encode_ids,
    first_layer,
    save_run,
    scenario,
    title,
    token_bytes,
    token_limit,
    token_text,
    top,
)
from .weights import Config, Model

__all__ = ["BUILTIN_ID", "BUNDLED", "GEMMA_ID", "INSTALL_HINT", "MAX_MODEL_TOKENS", "Cancelled", "Config", "Encoded",
           "Model", "ModelError", "Run", "ablation", "another_layer", "bundled_model", "check_text", "encode",
           "encode_ids", "entries", "final_stream", "first_layer", "load", "memory", "model_name", "needs_terms",
           "resolve", "run", "same_changes", "same_edits", "save_run", "scenario", "title", "token_bytes",
           "token_limit", "token_text", "top"]
