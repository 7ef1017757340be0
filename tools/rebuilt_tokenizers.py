"""Writes attnviz/core/lm/rebuilt.py: what transformers builds in place of a folder's tokenizer.json.

transformers 5 loads a Hugging Face folder's tokenizer with a class of the model's own where it has one
(Qwen2Tokenizer, GPT2Tokenizer, GemmaTokenizer, LlamaTokenizer), and such a class keeps tokenizer.json's
vocabulary, merges and post-processor but builds its normalizer and pre-tokenizer itself (from
tokenizer_config.json's add_prefix_space). AttnViz, which reads tokenizer.json with `tokenizers` and never
imports transformers, takes those parts from the table this script writes, made by the classes themselves.

    .venv/bin/python tools/rebuilt_tokenizers.py     # needs transformers (make .venv/.bench)
"""
from __future__ import annotations

import inspect
import json
import pprint
from pathlib import Path

import transformers
from transformers.models.auto import tokenization_auto as auto

from attnviz.core.lm.families import MODEL_TYPES

CLASSES = ("Qwen2Tokenizer", "GPT2Tokenizer", "GemmaTokenizer", "LlamaTokenizer")
MODEL_SETTINGS = ("unk_token", "fuse_unk", "byte_fallback", "ignore_merges", "dropout")
OUT = Path(__file__).resolve().parents[1] / "attnviz" / "core" / "lm" / "rebuilt.py"


def made(name: str, **kwargs):
    return getattr(transformers, name)(vocab={"a": 0, "b": 1, "ab": 2, "<unk>": 3}, merges=[("a", "b")], **kwargs)


def built(name: str, add_prefix_space: bool | None, legacy: bool | None) -> dict:
    kwargs = {k: v for k, v in (("add_prefix_space", add_prefix_space), ("legacy", legacy)) if v is not None}
    backend = json.loads(made(name, **kwargs).backend_tokenizer.to_str())
    return {"normalizer": backend["normalizer"], "pre_tokenizer": backend["pre_tokenizer"],
            "model": {k: backend["model"][k] for k in MODEL_SETTINGS}}


def main() -> None:
    settings = [(a, b) for a in (None, True, False) for b in (None, True, False)]
    table = {name: {f"{a},{b}": built(name, a, b) for a, b in settings} for name in CLASSES}
    named = {name: made(name).special_tokens_map for name in CLASSES}
    registered = {t: auto.TOKENIZER_MAPPING_NAMES.get(t) for t in MODEL_TYPES}
    forced = sorted(auto.MODELS_WITH_INCORRECT_HUB_TOKENIZER_CLASS)
    resolved = {}
    for name in sorted({*filter(None, auto.TOKENIZER_MAPPING_NAMES.values()), *auto.REGISTERED_FAST_ALIASES,
                        *(n for n in dir(transformers) if n.endswith(("Tokenizer", "TokenizerFast")))}):
        found = auto.tokenizer_class_from_name(name)
        if isinstance(found, type):
            resolved[name] = found.__name__
    as_written = sorted(auto.MODEL_IDS_TO_TOKENIZERS_BACKEND)
    pad_parameter = sorted(name for name in CLASSES
                           if "pad_token" in inspect.signature(getattr(transformers, name).__init__).parameters)
    version = transformers.__version__
    OUT.write_text(f'''"""What transformers {version} builds in place of parts of a folder's tokenizer.json,
written by tools/rebuilt_tokenizers.py (do not edit): for each tokenizer class of a model's own, by
tokenizer_config.json's add_prefix_space and legacy ("None,True": absent, true), the normalizer and
pre-tokenizer it makes and the settings of the model it makes; the special tokens it names where a folder
names none; which class each model type AttnViz runs is given; the model types (or config.json's
model_name) whose folders are given their type's class whatever their settings name; the class each
name transformers knows stands for (for a name it does not know, it reads tokenizer.json as written); the
Hub ids whose folders it reads as written whatever their settings say; and the classes that name a pad
token themselves (the others take tokenizer.json's padding's). core/lm/hf_folder.py reads it."""
from __future__ import annotations

BUILT: dict[str, dict[str, dict]] = {pprint.pformat(table, width=116, sort_dicts=True)}

NAMED: dict[str, dict[str, str]] = {pprint.pformat(named, width=116)}

REGISTERED: dict[str, str | None] = {pprint.pformat(registered, width=116)}

FORCED: frozenset[str] = frozenset({pprint.pformat(forced, width=116, compact=True)})

RESOLVED: dict[str, str] = {pprint.pformat(resolved, width=116, compact=True)}

AS_WRITTEN: tuple[str, ...] = tuple({pprint.pformat(as_written, width=116, compact=True)})

PAD_PARAMETER: frozenset[str] = frozenset({pprint.pformat(pad_parameter, width=116, compact=True)})
''')


if __name__ == "__main__":
    main()
