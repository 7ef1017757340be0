"""Writes attnviz/core/lm/rebuilt.py: what transformers builds in place of a folder's tokenizer.json.

transformers 5 loads a Hugging Face folder's tokenizer with a class of the model's own where it has one
(Qwen2Tokenizer, GPT2Tokenizer, GemmaTokenizer, LlamaTokenizer), and such a class keeps tokenizer.json's
vocabulary, merges and post-processor but builds its normalizer and pre-tokenizer itself (from
tokenizer_config.json's add_prefix_space). AttnViz, which reads tokenizer.json with `tokenizers` and never
imports transformers, takes those parts from the table this script writes, made by the classes themselves.

    .venv/bin/python tools/rebuilt_tokenizers.py     # needs transformers (make .venv/.bench)
"""
from __future__ import annotations

import json
import pprint
from pathlib import Path

import transformers
from transformers.models.auto import tokenization_auto as auto

CLASSES = ("Qwen2Tokenizer", "GPT2Tokenizer", "GemmaTokenizer", "LlamaTokenizer")
MODEL_TYPES = ("llama", "qwen2", "qwen3", "gemma3", "gemma3_text", "gpt2", "olmo2")
MODEL_SETTINGS = ("unk_token", "fuse_unk", "byte_fallback", "ignore_merges", "dropout")
OUT = Path(__file__).resolve().parents[1] / "attnviz" / "core" / "lm" / "rebuilt.py"


def built(name: str, add_prefix_space: bool | None) -> dict:
    cls = getattr(transformers, name)
    kwargs = {} if add_prefix_space is None else {"add_prefix_space": add_prefix_space}
    made = json.loads(cls(vocab={"a": 0, "b": 1, "ab": 2, "<unk>": 3}, merges=[("a", "b")], **kwargs)
                      .backend_tokenizer.to_str())
    return {"normalizer": made["normalizer"], "pre_tokenizer": made["pre_tokenizer"],
            "model": {k: made["model"][k] for k in MODEL_SETTINGS}}


def main() -> None:
    table = {name: {str(a): built(name, a) for a in (None, True, False)} for name in CLASSES}
    registered = {t: auto.TOKENIZER_MAPPING_NAMES.get(t) for t in MODEL_TYPES}
    forced = sorted(t for t in MODEL_TYPES if t in auto.MODELS_WITH_INCORRECT_HUB_TOKENIZER_CLASS)
    version = transformers.__version__
    OUT.write_text(f'''"""What transformers {version} builds in place of parts of a folder's tokenizer.json,
written by tools/rebuilt_tokenizers.py (do not edit): for each tokenizer class of a model's own, by
tokenizer_config.json's add_prefix_space (absent, true, false), the normalizer and pre-tokenizer it makes and
the settings of the model it makes; which class each model type is given; and the model types whose
folders are given their type's class whatever their settings name. core/lm/hf_folder.py reads it."""
from __future__ import annotations

BUILT: dict[str, dict[str, dict]] = {pprint.pformat(table, width=116, sort_dicts=True)}

REGISTERED: dict[str, str | None] = {pprint.pformat(registered, width=116)}

FORCED: list[str] = {pprint.pformat(forced, width=116)}
''')


if __name__ == "__main__":
    main()
