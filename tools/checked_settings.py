"""Checks fields.NO_EFFECT: each tokenizer setting a folder may hold beyond those AttnViz reads leaves
transformers' ids of a text, of a text with a special token typed, and of its chat template as they are,
on every family's golden folder; and shows that settings outside the list may change them.

    .venv/bin/python tools/checked_settings.py     # needs transformers (make .venv/.bench); ≈ 5 minutes

Each line says "same" (AttnViz, which never reads the key, gives transformers' ids) or what differs. The keys of
NO_EFFECT must all say "same"; the exit status is 1 where one does not.
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from transformers import AutoTokenizer
from transformers.utils import logging

from attnviz.core import lm
from attnviz.core.lm import fields

FAMILIES = Path(__file__).resolve().parents[1] / "tests" / "golden" / "families"
TEMPLATE = ("{{ bos_token }}{% for m in messages %}<|im_start|>{{ m.content }}<|im_end|>{% endfor %}"
            "{% if use_default_system_prompt %}SYS{% endif %}")
TEXTS = (("The cat 12 a\u0301", False), ("The <|im_end|> cat", False), ("hi", True))
PADDING = {"length": 30, "pad_id": 3, "pad_type_id": 0, "pad_token": "<|im_end|>", "direction": "right",
           "pad_to_multiple_of": None}
ELSEWHERE = "elsewhere/tokenizer.json"  # another family's tokenizer, which a path setting may name
# values met in folders people have, and odd ones
SAMPLES = {
    "name_or_path": ["x", "/etc/passwd"], "processor_class": ["Gemma3Processor"], "verbose": [True],
    "model_max_length": [2, 1e30], "max_len": [2], "padding_side": ["left"], "truncation_side": ["left"],
    "model_input_names": [["input_ids"]], "clean_up_tokenization_spaces": [True, False],
    "errors": ["strict", "ignore"], "spaces_between_special_tokens": [True, False],
    "backend": ["tokenizers", "sentencepiece"], "is_local": [True, False], "local_files_only": [True],
    "add_bos_token": [True, False], "add_eos_token": [True], "sp_model_kwargs": [{}, {"enable_sampling": True}],
    "use_default_system_prompt": [True], "vocab_size": [5], "do_lower_case": [True], "max_length": [2],
    "stride": [1], "truncation_strategy": ["longest_first"], "pad_to_multiple_of": [8], "pad_token_type_id": [1],
    "tokenizer_file": [ELSEWHERE, None], "vocab_file": [ELSEWHERE], "merges_file": [ELSEWHERE],
    "special_tokens_map_file": [ELSEWHERE],
}
OUTSIDE = {"tokenizer_padding": [PADDING], "_json_padding": [PADDING],
           "model_specific_special_tokens": [{"foo_token": "<|im_end|>"}]}


def ours(folder: Path, text: str, chat: bool):
    try:
        return list(lm.encode(lm.load(str(folder)), text, chat=chat).ids)
    except Exception as e:  # noqa: BLE001 (a refusal is an answer here)
        return f"refused: {e}"


def theirs(folder: Path, text: str, chat: bool):
    try:
        t = AutoTokenizer.from_pretrained(str(folder))
        if chat:
            return list(t.apply_chat_template([{"role": "user", "content": text}], tokenize=True, return_dict=False))
        return t(text)["input_ids"]
    except Exception as e:  # noqa: BLE001
        return f"fails: {type(e).__name__}: {e}"


def differences(work: Path, key: str, value) -> list[str]:
    found = []
    for family in sorted(p.name for p in FAMILIES.iterdir() if (p / "hf").is_dir()):
        folder = work / family
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(FAMILIES / family / "hf", folder)
        (folder / "chat_template.jinja").unlink(missing_ok=True)
        path = folder / "tokenizer_config.json"
        settings = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        given = str(work / value) if value == ELSEWHERE else value
        path.write_text(json.dumps({**settings, "chat_template": TEMPLATE, key: given}), encoding="utf-8")
        for text, chat in TEXTS:
            a, b = ours(folder, text, chat), theirs(folder, text, chat)
            if a != b:
                found.append(f"{family} {text!r}{' (chat)' if chat else ''}: AttnViz {a}, transformers {b}")
    return found


def main() -> int:
    warnings.filterwarnings("ignore")
    logging.set_verbosity_error()
    missing = fields.NO_EFFECT - SAMPLES.keys()
    if missing:
        print(f"no sample values for {sorted(missing)}")
        return 1
    wrong = 0
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "elsewhere").mkdir()
        shutil.copy(FAMILIES / "gemma3" / "hf" / "tokenizer.json", Path(work) / ELSEWHERE)
        for listed, table in ((True, SAMPLES), (False, OUTSIDE)):
            for key, values in table.items():
                for value in values:
                    found = differences(Path(work), key, value)
                    wrong += listed and bool(found)
                    print(f"{key} = {value!r}: {'same' if not found else '; '.join(found)[:400]}", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
