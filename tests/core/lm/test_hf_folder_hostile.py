"""A Hugging Face folder's JSON files checked at the door (core/lm/fields.py): each hostile value of issue 45
is refused in one line naming the file and the field; a fuzz of random JSON values finds no other way in."""
from __future__ import annotations

import itertools
import json
import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core.lm import fields, hf_folder
from attnviz.core.lm import tokens as tk
from attnviz.core.scenario import ScenarioError

LLAMA = Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "hf"


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "llama"
    shutil.copytree(LLAMA, copy)
    return copy


def edit(path: Path, change) -> None:
    document = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


def refused(folder, says: str) -> str:
    with pytest.raises(ScenarioError) as e:
        lm.load(str(folder))
    message = str(e.value)
    assert "\n" not in message and says in message, message
    return message


LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 8192}


@pytest.mark.parametrize("change, says", [
    (lambda c: c.update(model_type=["llama"]), "config.json: its model_type is a list, not a text"),
    (lambda c: c.update(model_type={"x": 1}), "config.json: its model_type is an object, not a text"),
    (lambda c: c.update(hidden_size="64"), "its hidden_size is '64', not a whole number"),
    (lambda c: c.update(num_hidden_layers=0), "its num_hidden_layers is 0, not a whole number from 1"),
    (lambda c: c.update(rms_norm_eps=-1), "its rms_norm_eps is -1, not a positive number"),
    (lambda c: c.update(layer_types=[1, 2]), "its layer_types is a list, not a list of at most"),
    (lambda c: c.update(rope_scaling={**LLAMA3, "factor": 0}), "its rope_scaling.factor is 0, not a number from 0.001"),
    # attacker round 18: positive, but so small the pass overflowed, and the weights were blamed
    (lambda c: c.update(rope_scaling={**LLAMA3, "factor": 5e-324}), "its rope_scaling.factor is 5e-324, not a number "
                                                                    "from 0.001"),
    (lambda c: c.update(query_pre_attn_scalar=1e-300), "its query_pre_attn_scalar is 1e-300, not a number from 0.001"),
    (lambda c: c.update(rope_theta=1e-300), "its rope_theta is 1e-300, not a number from 1"),
    (lambda c: c.update(rope_scaling={**LLAMA3, "low_freq_factor": 4.0}),
     "high_freq_factor (4.0) must be larger than its low_freq_factor (4.0)"),
    (lambda c: c.update(rope_scaling=[1]), "its rope_scaling is a list, not an object"),
    (lambda c: c.update(license=[1, 2]), "its license is a list, not a text"),  # was shown as "[1, 2]"
    (lambda c: c.update(rms_norm_eps=10**400), "its rms_norm_eps is 100000000000000000...0000000000000000000, not a"),
    (lambda c: c.update(rope_scaling={**LLAMA3, "factor": 10**400}),
     "its rope_scaling.factor is 100000000000000000...00000000"),
])
def test_a_config_field_of_the_wrong_type_or_range_is_named(folder, change, says):
    edit(folder / "config.json", change)
    assert "config.json" in refused(folder, says)


def test_a_config_nested_200000_deep_is_refused_not_a_recursion_error(folder):
    (folder / "config.json").write_text('{"a": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")
    refused(folder, "config.json: is nested too deeply")


@pytest.mark.parametrize("weight_map, says", [
    ([], "its weight_map is a list"), ({"b": "model.safetensors", "a": 1}, "its weight_map['a'] is 1, not a file's"),
    # attacker round 34: an entry that was not a text was answered "its weight_map is an object, not an object"
    ({"a": ["model.safetensors"]}, "its weight_map['a'] is a list, not a file's name"),
    ({"a": None}, "its weight_map['a'] is null, not a file's name"),
    ({"a": {}}, "its weight_map['a'] is an object, not a file's name"),
    (3, "its weight_map is 3, not an object of at most 1,048,576 tensors' names"),
    (None, "does not list the folder's safetensors files"),
    # attacker round 28: a shard a session's SHA-256 does not cover (weights.st) made a changed model reopen silently
    ({"model.embed_tokens.weight": "weights.st"}, "does not list the folder's safetensors files"),
])
def test_an_index_whose_weight_map_is_not_names_to_files_is_named(folder, weight_map, says):
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}), encoding="utf-8")
    assert "model.safetensors.index.json" in refused(folder, says)


def test_a_pre_tokenizer_regex_that_makes_the_engine_give_up_is_named_not_a_panic(folder, capfd):
    """`(a+)+$` on 2,200 letters: the Rust regex engine panics; that is one line, and the model still loads."""
    def regex(t):  # the split the file had, swapped for the one the engine gives up on; its ByteLevel kept
        t["pre_tokenizer"]["pretokenizers"][0]["pattern"] = {"Regex": "(a+)+$"}
    edit(folder / "tokenizer.json", regex)
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError, match="the tokenizer cannot read this text") as e:
        lm.encode(model, "a" * 2200 + "!")  # under 128 tokens × 18 characters: handed to the tokenizer
    assert "\n" not in str(e.value) and str(e.value).startswith(str(folder))
    assert capfd.readouterr().err == ""  # the Rust side's panic and backtrace were printed first


@pytest.mark.parametrize("change, says", [
    (lambda t: t["model"].update(merges=[["a", "b"]] * 1_100_000),
     "its model.merges is a list, not a list of at most 1,048,576 entries"),
    (lambda t: t["model"].update(vocab="all of them"), "its model.vocab is 'all of them', not a list or an object"),
    (lambda t: t["model"].update(type=["BPE"]), "its model.type is a list, not BPE"),
    (lambda t: t["model"].update(type="WordPiece", max_input_chars_per_word=10**9),
     "its model.type is 'WordPiece', not BPE"),
    (lambda t: t["model"].update(dropout=0.5), "its model.dropout is 0.5, not 0 (a text is read the same way"),
    (lambda t: t["model"].update(continuing_subword_prefix="##"), "its model.continuing_subword_prefix is '##', not"),
    (lambda t: t.update(added_tokens=[{"id": 600, "content": " ", "lstrip": True, "rstrip": True}]),
     "none of spaces that strips the spaces beside it"),
    (lambda t: t.update(added_tokens=[{"id": 600 + i, "content": "x" * 800 + str(i)} for i in range(2000)]),
     "its added_tokens is a list, not a list of at most 65,536 tokens of 1,048,576 characters in all"),
    (lambda t: t.update(post_processor={"type": "TemplateProcessing",
                                        "single": [{"SpecialToken": {"id": "X"}}] * 5000}),
     "its post_processor is an object, not an object of at most 4,096 values"),
    (lambda t: t.update(model=[]), "its model is a list, not an object"),
    (lambda t: t.update(added_tokens={"a": 1}), "its added_tokens is an object, not a list of at most"),
    (lambda t: t.update(pre_tokenizer="split"), "its pre_tokenizer is 'split', not a rewrite"),
])
def test_a_tokenizer_json_field_of_the_wrong_type_or_size_is_named_before_tokenizers_reads_it(folder, change, says):
    edit(folder / "tokenizer.json", change)
    assert "tokenizer.json" in refused(folder, says)


GROWING = {"type": "Sequence",
           "normalizers": [{"type": "Replace", "pattern": {"String": "a"}, "content": "a" * 1000}] * 6}


@pytest.mark.parametrize("kind, step", [
    ("normalizer", GROWING),  # 1000⁶ times longer: the library aborts the process allocating it
    ("normalizer", {"type": "Precompiled", "precompiled_charsmap": "//////////////////////8="}),  # aborts too
    ("normalizer", {"type": "Prepend", "prepend": "x" * 1_000_000}),  # a million tokens more, 8 s
    ("normalizer", {"type": "Replace", "pattern": {"Regex": "a*"}, "content": "x" * 20}),  # at every place
    ("normalizer", {"type": "Sequence", "normalizers": [{"type": "ByteLevel"}] * 30}),  # 4³⁰: aborted at 1 GB
    ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [{"type": "ByteLevel", "add_prefix_space": False,
                                                            "trim_offsets": False, "use_regex": False}] * 3}),
    ("normalizer", {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "p" * 1000}] * 100}),
    ("decoder", {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"},
                                                   "content": "x" * 40}]}),
])
def test_a_normalizer_or_decoder_that_would_grow_a_text_past_bounds_is_refused_before_it_runs(folder, kind, step):
    edit(folder / "tokenizer.json", lambda t: t.update({kind: step}))
    if kind == "normalizer":  # a normalizer is one of the families' (and, as NFKC's U+FDFA, at most 18 times)
        refused(folder, "tokenizer.json: its normalizer is an object, not a rewrite of NFC, NFD, NFKC, NFKD or "
                        "SentencePiece's ▁ only")
    else:
        refused(folder, f"tokenizer.json: its {kind} is an object, not a rewrite of at most 64 steps making a text "
                        f"at most 16 times")


def test_nfkc_counts_as_the_eighteen_characters_it_can_make_of_one(folder):
    """U+FDFA is 18 characters in NFKC: a Replace growing a text 16 times before it made 288 (a text refused
    only after 5 million tokens, or the process aborted); NFKC alone loads, and its text is measured
    normalised before it is tokenised."""
    rewrite = fields.Rewrite(growth=18)
    assert not rewrite.wrong({"type": "NFKC"})
    assert rewrite.wrong({"type": "Sequence", "normalizers": [
        {"type": "Replace", "pattern": {"String": "a"}, "content": "\ufdfa" * 16}, {"type": "NFKC"}]})
    edit(folder / "tokenizer.json", lambda t: t.update(normalizer={"type": "NFKC"}))
    model = lm.load(str(folder))
    limit = lm.token_limit(model) * model.tokenizer.longest
    with pytest.raises(lm.ModelError, match="characters long once the tokenizer has normalised it"):
        lm.encode(model, "\ufdfa" * (limit // 18 + 1))


def test_the_rewrites_real_tokenizers_use_are_read():
    """Llama 2's (Prepend ▁, then spaces as ▁), Gemma's decoder, Qwen's NFC: each makes a text at most
    twice as long, and loads."""
    rewrite = fields.Rewrite()
    llama2 = {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
                                                  {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}
    gemma = {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                                              {"type": "ByteFallback"}, {"type": "Fuse"}]}
    assert not any(rewrite.wrong(step) for step in (llama2, gemma, {"type": "NFC"}))


def test_padding_and_truncation_of_the_file_are_not_the_models_reading(folder):
    """As transformers encodes one text by default: neither padded to 4,000,000,000 (which aborted the
    process) nor cut to nothing."""
    plain = lm.encode(lm.load(str(folder)), "hi there").ids
    edit(folder / "tokenizer.json", lambda t: t.update(
        padding={"strategy": {"Fixed": 4_000_000_000}, "direction": "Right", "pad_to_multiple_of": None,
                 "pad_id": 0, "pad_type_id": 0, "pad_token": "<|im_end|>"},
        truncation={"max_length": 0, "strategy": "LongestFirst", "stride": 0, "direction": "Right"}))
    assert lm.encode(lm.load(str(folder)), "hi there").ids == plain


@pytest.mark.parametrize("make, says", [
    (lambda tk: tk.byte_level_bpe([*tk.byte_characters(), "Ā"], [], "gpt2"), "holds the token Ā twice (ids 0 and 256)"),
    (lambda tk: tk.byte_level_bpe([*tk.byte_characters(), ""], [], "gpt2"), "holds an empty token (id 256)"),
    (lambda tk: tk.sentencepiece_bpe(["<unk>", "a", "b", "a"], [0, -1, -2, -3]),
     "holds the token a twice (ids 1 and 3)"),
    (lambda tk: tk.sentencepiece_bpe(["<unk>", "a", ""], [0, -1, -2]), "holds an empty token (id 2)"),
])
def test_a_gguf_vocabulary_with_a_token_twice_or_empty_is_refused_before_the_library_panics(make, says, capfd):
    """The library's Rust side panicked on either, printing its backtrace to stderr."""
    with pytest.raises(ScenarioError) as e:
        make(tk)
    assert says in str(e.value)
    assert capfd.readouterr().err == ""


def test_a_byte_level_token_of_400000_characters_is_refused_not_printed_whole_as_a_next_token():
    with pytest.raises(ScenarioError) as e:
        tk.byte_level_bpe([*tk.byte_characters(), "x" * 400_000], [], "gpt2")
    assert "holds a token of 400,000 characters; a token has at most 1,024" in str(e.value)


@pytest.mark.parametrize("tokens, says", [
    (["<unk>"] + ["x" * 1000 + str(i) for i in range(9000)],
     "holds 9,034,895 characters; AttnViz reads at most 8,388,608"),
    (["<unk>"] + ["".join(p) for n in range(1, 17) for p in itertools.product("ab", repeat=n)],
     "implies more than 1,048,576 merges"),  # 131,071 tokens that cut into each other every way: 1.7 M
])
def test_a_sentencepiece_vocabulary_whose_merges_would_cost_too_much_is_refused(tokens, says):
    """A million tokens that all cut into one another took 23 s and 3.9 GB: the characters to cut and the
    merges found are counted as they are made."""
    with pytest.raises(ScenarioError) as e:
        tk.sentencepiece_bpe(tokens, [-i for i in range(len(tokens))])
    assert says in str(e.value)


@pytest.mark.parametrize("name", ["tokenizer_config.json", "chat_template.jinja", "model.safetensors.index.json",
                                  "model.safetensors"])
@pytest.mark.parametrize("make", ["pipe", "device", "folder"])
def test_a_file_the_folder_may_hold_that_is_a_pipe_a_device_or_a_folder_is_refused_not_passed_over(folder, name,
                                                                                                   make):
    """A chat_template.jinja that was a pipe was read as absent: the model ran without its template."""
    path = folder / name
    path.unlink(missing_ok=True)
    {"pipe": os.mkfifo, "device": lambda p: os.symlink("/dev/zero", p), "folder": os.mkdir}[make](path)
    says = "is a folder, not a file" if make == "folder" else "is not a regular file (a pipe, a device or a socket)"
    assert refused(folder, says).startswith(str(path))
    with pytest.raises(ScenarioError) as e:  # `attnviz models` lists it by the same files
        hf_folder.describe(folder)
    assert says in str(e.value)


@pytest.mark.parametrize("name", ["config.json", "tokenizer.json"])
@pytest.mark.parametrize("make", ["pipe", "device", "folder"])
def test_a_file_the_folder_must_hold_that_is_a_pipe_a_device_or_a_folder_is_said_to_be_so_not_missing(folder, name,
                                                                                                    make):
    """Attacker round 15: a tokenizer.json that was a pipe was said to be missing."""
    path = folder / name
    path.unlink()
    {"pipe": os.mkfifo, "device": lambda p: os.symlink("/dev/zero", p), "folder": os.mkdir}[make](path)
    says = "is a folder, not a file" if make == "folder" else "is not a regular file (a pipe, a device or a socket)"
    assert refused(folder, says).startswith(str(path))


@pytest.mark.parametrize("pre", [None, {"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": "Isolated",
                                        "invert": False}])
def test_a_tokenizer_that_drops_characters_is_refused_not_shown_with_labels_that_lie(folder, pre):
    """Attacker round 18: with no byte-level step, the spaces were dropped and every label after them shifted."""
    edit(folder / "tokenizer.json", lambda t: t.update(pre_tokenizer=pre))
    said = refused(folder, "its tokenizer does not read a text back as it was ('Ab a b c é 日本, the quick brown fox "
                           "jumps over 13 lazy dogs?↵' reads back as 'Ababc")
    assert said.startswith(str(folder / "tokenizer.json"))


def test_a_tokenizer_json_that_is_no_json_object_is_named(folder):
    (folder / "tokenizer.json").write_text("[1, 2]", encoding="utf-8")
    refused(folder, "tokenizer.json: is not a JSON object")
    (folder / "tokenizer.json").write_text("[" * 100_000, encoding="utf-8")
    refused(folder, "tokenizer.json: is nested too deeply")


def test_a_chat_template_writing_more_than_anyone_may_type_is_refused_before_the_tokenizer_reads_it(folder):
    """4,000,000 emoji (within the template's own budget) made the tokenizer run out of memory."""
    (folder / "chat_template.jinja").write_text("{{ '😀' * 3900000 }}", encoding="utf-8")
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError) as e:
        lm.encode(model, "hi", chat=True)
    assert "its chat template makes a text of 3,900,000 characters; the model reads at most 4,096" in str(e.value)
    assert str(folder) in str(e.value)


@pytest.mark.parametrize("times, says", [(40, "tokens long"), (4000, "characters long")])
def test_a_chat_template_that_makes_a_short_text_too_long_says_the_template_did(folder, times, says):
    """Attacker round 14: a template repeating the message made 'the text' too long, which the user's was not."""
    (folder / "chat_template.jinja").write_text(
        f"{{% for i in range({times}) %}}{{{{ messages[0]['content'] }}}} {{% endfor %}}", encoding="utf-8")
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError, match=f"the text in the model's chat template is [\\d,]+ {says}") as refused:
        lm.encode(model, "hi there you", chat=True)
    assert str(refused.value).startswith(str(folder))  # attacker round 18: the model was not named
    assert lm.encode(model, "hi there you").ids  # the text alone is read


def test_a_chat_template_writing_a_lone_surrogate_is_refused_naming_the_model(folder):
    (folder / "chat_template.jinja").write_text("{{ '\\udcff' }}{{ messages[0]['content'] }}", encoding="utf-8")
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError) as e:
        lm.encode(model, "hi", chat=True)
    assert str(e.value) == f"{folder}: its chat template makes a text that is not valid Unicode"


@pytest.mark.parametrize("named", [
    [{"name": "tool_use", "template": "TOOLS {{ messages[0]['content'] }}"},
     {"name": "default", "template": "<|user|>{{ messages[0]['content'] }}<|assistant|>"}],
    # attacker round 34: the object form, which transformers reads too, was "this model has no chat template"
    {"tool_use": "TOOLS {{ messages[0]['content'] }}", "default": "<|user|>{{ messages[0]['content'] }}<|assistant|>"},
])
def test_named_chat_templates_in_tokenizer_config_give_the_default_one(folder, named):
    (folder / "chat_template.jinja").unlink(missing_ok=True)
    edit(folder / "tokenizer_config.json", lambda t: t.update(chat_template=named))
    model = lm.load(str(folder))
    assert model.tokenizer.chat("hi") == "<|user|>hi<|assistant|>"
    assert hf_folder.describe(folder)["chat"]


def test_a_chat_template_that_writes_nothing_is_refused_naming_the_folder(folder):
    (folder / "chat_template.jinja").write_text("{{ '' }}", encoding="utf-8")
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError, match="its tokenizer makes no token of this text") as e:
        lm.encode(model, "hi", chat=True)
    assert str(folder) in str(e.value)


def test_a_tokenizer_giving_ids_past_the_embeddings_is_refused_not_an_index_error(folder):
    edit(folder / "tokenizer.json", lambda t: t["model"]["vocab"].update({"hi": 70000}))
    refused(folder, "tokenizer.json: its vocabulary has 512 tokens but ids up to 70,000: each id from 0 on must be")


def test_rope_parameters_are_checked_as_rope_scaling_is(folder):
    edit(folder / "config.json", lambda c: c.update(rope_parameters={**LLAMA3, "rope_theta": 10000.0, "factor": 0}))
    assert "config.json" in refused(folder, "its rope_parameters.factor is 0, not a number from 0.001")


GEMMA3 = LLAMA.parents[1] / "gemma3" / "hf"


@pytest.mark.parametrize("layers, rope, says", [
    ("full_attention", {"rope_theta": "9" * 900_000}, "its rope_parameters.full_attention.rope_theta is '99999"),
    ("sliding_attention", {"rope_theta": 10**400}, "its rope_parameters.sliding_attention.rope_theta is 100000"),
    ("full_attention", {"rope_type": "linear", "factor": 8.0}, "stretches RoPE (linear scaling), which AttnViz does"),
    ("sliding_attention", {"rope_type": "yarn", "factor": 8.0}, "stretches RoPE (yarn scaling), which AttnViz does"),
])
def test_gemma_3s_rope_per_layer_type_is_checked_and_a_stretch_there_refused_as_at_the_top(tmp_path, layers, rope,
                                                                                          says):
    """transformers 5 writes Gemma 3 4B's linear ×8 per layer type; AttnViz would have run it unstretched."""
    folder = tmp_path / "gemma3"
    shutil.copytree(GEMMA3, folder)
    edit(folder / "config.json", lambda c: c["rope_parameters"][layers].update(rope))
    message = refused(folder, says)
    assert "config.json" in message and len(message) < 300


def test_a_weight_too_large_for_float32_is_refused_naming_its_file_and_tensor_with_no_warning(folder):
    from safetensors.numpy import load_file, save_file
    tensors = load_file(str(folder / "model.safetensors"))
    tensors["model.norm.weight"] = np.full(tensors["model.norm.weight"].shape, 1e300)  # F64: overflows a float32
    save_file(tensors, str(folder / "model.safetensors"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warning reached the terminal before the refusal
        message = refused(folder, "model.safetensors: tensor model.norm.weight holds values that are not numbers")
    assert message.startswith(str(folder))


def test_ggufs_merges_without_a_space_are_refused_by_name():
    with pytest.raises(ScenarioError, match="its merges hold 'ab', which is not two pieces"):
        tk.byte_level_bpe(list(tk.byte_characters()) + ["ab"], ["ab"], "gpt2")


VALUES = [None, True, 0, -1, 1, 2**40, 0.5, float("inf"), "", "x" * 70, [], [1], ["a"], {}, {"a": 1}, {"a": "b"}]


def test_the_validators_take_any_json_value_and_either_accept_or_name_the_field():
    """A fuzz: random documents of random values for every declared field; each is accepted or refused
    with a FileProblem naming its field, never another exception."""
    rng = np.random.default_rng(0)
    declared = {**fields.CONFIG, **fields.INDEX, **fields.TOKENIZER_CONFIG, **fields.TOKENIZER}
    for _ in range(3000):
        keys = rng.choice(list(declared), size=rng.integers(1, 6), replace=False)
        document = {str(k): VALUES[rng.integers(len(VALUES))] for k in keys}
        if "rope_scaling" in document and rng.random() < 0.5:
            document["rope_scaling"] = {k: VALUES[rng.integers(len(VALUES))] for k in fields.ROPE.fields}
        if "model" in document and rng.random() < 0.5:
            document["model"] = {k: VALUES[rng.integers(len(VALUES))] for k in fields.TOKENIZER["model"].fields}
        try:
            fields.check("config.json", document, declared)
        except ScenarioError as e:
            assert any(f"its {k}" in str(e) for k in (*document, "rope_scaling.", "model.")), (document, str(e))


def family_folder(tmp_path, family: str, change) -> Path:
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "config.json", change)
    return copy


@pytest.mark.parametrize("family, change, says", [
    ("llama", lambda c: c.update(hidden_act="gelu"), 'its hidden_act is "gelu"; AttnViz runs llama models with "silu"'),
    ("llama", lambda c: c.update(attention_bias=True), "its attention_bias is true; AttnViz runs llama models with "
                                                       "false"),
    ("llama", lambda c: c.update(mlp_bias=True), "its mlp_bias is true; AttnViz runs llama models with false"),
    ("llama", lambda c: c.update(partial_rotary_factor=0.5), "its partial_rotary_factor is 0.5; AttnViz runs llama"),
    ("qwen2", lambda c: c.update(use_sliding_window=True), "its use_sliding_window is true; AttnViz runs qwen2"),
    ("qwen3", lambda c: c.update(attention_bias=True), "its attention_bias is true; AttnViz runs qwen3"),
    ("gemma3", lambda c: c.update(use_bidirectional_attention=True), "its use_bidirectional_attention is true"),
    ("gemma3", lambda c: c.update(hidden_activation="relu"), 'its hidden_activation is "relu"; AttnViz runs gemma3 '
                                                             'models with "gelu_pytorch_tanh"'),
    ("gemma3", lambda c: c.update(layer_types=["full_attention"] * 5), "its layer_types must name each of its 6"),
    ("gemma3", lambda c: c.update(layer_types=["bogus"] * 6), "its layer_types must name each of its 6 layers"),
    ("gpt2", lambda c: c.update(activation_function="relu"), 'its activation_function is "relu"; AttnViz runs gpt2'),
    ("gpt2", lambda c: c.update(scale_attn_weights=False), "its scale_attn_weights is false; AttnViz runs gpt2"),
    ("gpt2", lambda c: c.update(scale_attn_by_inverse_layer_idx=True), "its scale_attn_by_inverse_layer_idx is true"),
])
def test_a_setting_its_familys_block_does_not_hold_to_is_refused_not_run_as_another_model(tmp_path, family,
                                                                                            change, says):
    """Attacker round 8: each of these ran with the numbers of the model without it."""
    assert "config.json" in refused(family_folder(tmp_path, family, change), says)


def test_mistrals_sliding_window_is_applied_in_every_layer(tmp_path):
    """As transformers' Mistral does (checked against it once: logits 4.4e-6 apart, weights 1.1e-6)."""
    folder = family_folder(tmp_path, "llama", lambda c: c.update(model_type="mistral", sliding_window=3))
    model = lm.load(str(folder))
    assert model.config.window == 3 and all(model.config.is_sliding(i) for i in range(model.config.n_layers))
    from attnviz import api
    pattern = api.load(str(folder)).run(ids=list(range(1, 9)), keep=["blocks.1.attn.pattern"]).cache[
        "blocks.1.attn.pattern"]
    assert not pattern[:, -1, :-3].any() and (pattern[:, -1, -3:] > 0).all()


@pytest.mark.parametrize("family, change", [
    ("llama", lambda c: c.update(hidden_act="swish")), ("qwen2", lambda c: c.update(hidden_act="swish")),
    ("gpt2", lambda c: c.update(activation_function="gelu_fast")), ("llama", lambda c: c.update(attention_bias=None)),
    ("llama", lambda c: c.update(partial_rotary_factor=1)),
])
def test_a_setting_transformers_reads_as_the_same_runs(tmp_path, family, change):
    """Attacker round 9: swish is transformers' SiLU, gelu_fast GPT-2's own tanh formula."""
    folder = family_folder(tmp_path, family, change)
    plain = lm.load(str(LLAMA.parents[1] / family / "hf"))
    ids = list(range(1, 9))
    assert np.array_equal(lm.run(lm.load(str(folder)), ids).logits, lm.run(plain, ids).logits)


def test_gemma_3_with_no_window_named_takes_transformers_default(tmp_path):
    folder = family_folder(tmp_path, "gemma3", lambda c: c.pop("sliding_window"))
    assert lm.load(str(folder)).config.window == 4096


# attacker round 21: a normalizer that removes characters ran, the labels silent about what was dropped
@pytest.mark.parametrize("normalizer", [
    {"type": "Replace", "pattern": {"Regex": "[^ -~]"}, "content": ""},
    {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Replace", "pattern": {"String": "e"},
                                                            "content": ""}]},
    {"type": "StripAccents"}, {"type": "Strip", "strip_left": True, "strip_right": True},
], ids=["regex to nothing", "a letter to nothing", "accents", "spaces"])
def test_a_normalizer_that_removes_characters_is_refused(folder, normalizer):
    edit(folder / "tokenizer.json", lambda t: t.update(normalizer=normalizer))
    refused(folder, "tokenizer.json: its normalizer is an object, not a rewrite")


def test_two_tensors_that_are_one_name_once_transformer_is_left_off_are_refused(folder):
    from safetensors.numpy import load_file, save_file
    tensors = load_file(str(folder / "model.safetensors"))
    tensors["transformer.model.layers.0.self_attn.q_proj.weight"] = np.zeros_like(
        tensors["model.layers.0.self_attn.q_proj.weight"])
    save_file(tensors, str(folder / "model.safetensors"))
    refused(folder, "model.safetensors: holds the tensor model.layers.0.self_attn.q_proj.weight twice (as "
                    "model.layers.0.self_attn.q_proj.weight and transformer.model.layers.0.self_attn.q_proj.weight)")


def test_a_norms_epsilon_over_1_is_refused(folder):
    edit(folder / "config.json", lambda c: c.update(rms_norm_eps=1e39))
    refused(folder, "config.json: its rms_norm_eps is 1e+39, not a positive number up to 1")


def test_the_labels_follow_the_tokenizers_decoder_whatever_its_byte_fallback_flag_says(folder):
    """A byte-level BPE marked byte_fallback: each token is still labelled with the text it stands for
    (" the", not "Ġthe"), as its decoder reads it."""
    before = lm.load(str(folder))
    edit(folder / "tokenizer.json", lambda t: t["model"].update(byte_fallback=True))
    after = lm.load(str(folder))
    pieces = range(len(after.tokenizer.pieces))
    assert [after.tokenizer.piece_bytes(i) for i in pieces] == [before.tokenizer.piece_bytes(i) for i in pieces]
    assert b" the" in {after.tokenizer.piece_bytes(i) for i in pieces}


def test_gemmas_tokenizer_json_without_byte_fallback_is_read_with_it_as_transformers_builds_gemmas(tmp_path):
    """transformers' GemmaTokenizer builds its model's settings itself: byte fallback on, whatever the file
    says (ids read with transformers 5.24 on this folder)."""
    copy = tmp_path / "gemma3"
    shutil.copytree(LLAMA.parents[1] / "gemma3" / "hf", copy)
    edit(copy / "tokenizer.json", lambda t: t["model"].update(byte_fallback=False))
    assert list(lm.encode(lm.load(str(copy)), "日本 é").ids) == [2, 559, 610, 495, 552]


# Qwen2Tokenizer's own unk and pad tokens, <|endoftext|>, which the Llama folder does not list: named null, they
# are none (else the folder is refused: transformers would add the token past the embeddings)
NO_UNLISTED_DEFAULTS = {"unk_token": None, "pad_token": None}


# attacker round 39: transformers 5 reads a folder's tokenizer with a class of its model's own where it has one
# (by its model type, or the class tokenizer_config.json names), and that class builds the normalizer, the
# pre-tokenizer and the model's settings itself, from add_prefix_space: AttnViz read tokenizer.json as written.
# Each case's ids were read with transformers 5.24 on the same folder.
@pytest.mark.parametrize("family, tokenizer_json, settings, text, ids", [
    ("qwen2", {"normalizer": None}, {}, "cafe\u0301 a\u0301b", [69, 467, 330, 223, 130, 97, 68]),
    ("qwen3", {}, {"tokenizer_class": "GPT2Tokenizer"}, "a\u0301b", [67, 139, 226, 68]),
    ("llama", {}, {"tokenizer_class": "Qwen2Tokenizer", **NO_UNLISTED_DEFAULTS}, "The cat 12345!",
     [0, 286, 351, 224, 20, 21, 22, 23, 24, 4]),
    ("gemma3", {"normalizer": {"type": "Sequence", "normalizers": [
        {"type": "NFKC"}, {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}]}}, {},
     "cafe\u0301", [2, 509, 400, 496, 211, 136]),
    ("qwen3", {}, {}, "a\u0301b", [130, 97, 68]),  # TokenizersBackend named: tokenizer.json as written
])
def test_a_folder_s_tokenizer_is_read_as_the_class_transformers_gives_it_builds_it(tmp_path, family, tokenizer_json,
                                                                                 settings, text, ids):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "tokenizer.json", lambda t: t.update(tokenizer_json))
    edit(copy / "tokenizer_config.json", lambda t: t.update(settings))
    assert list(lm.encode(lm.load(str(copy)), text).ids) == ids


def sentencepiece_folder(folder: Path, **settings) -> Path:
    """A Llama-2-style folder: SentencePiece BPE with byte fallback (▁ put before the text by its normalizer),
    named LlamaTokenizer, with a [INST] chat template."""
    specials = ["<unk>", "<s>", "</s>"]
    vocab = {t: i for i, t in enumerate([*specials, *(f"<0x{b:02X}>" for b in range(256)), "▁",
                                         *(chr(c) for c in range(33, 127))])}
    merges = []
    for word in ("▁the", "▁The", "▁cat", "▁Hello", "▁world", "▁hi", "▁[INST]", "▁[/INST]", "[INST]"):
        for i in range(2, len(word) + 1):
            if word[:i] not in vocab:
                vocab[word[:i]] = len(vocab)
                merges.append([word[:i - 1], word[i - 1]])
    replace = {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}
    (folder / "tokenizer.json").write_text(json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "pre_tokenizer": None,
        "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for i, t in enumerate(specials)],
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {
            "type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
        "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                                                    {"Sequence": {"id": "A", "type_id": 0}}],
                           "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
        "decoder": {"type": "Sequence", "decoders": [replace, {"type": "ByteFallback"}, {"type": "Fuse"},
                                                     {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True, "ignore_merges": False,
                  "vocab": vocab, "merges": merges}}), encoding="utf-8")
    (folder / "tokenizer_config.json").write_text(json.dumps({
        "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "tokenizer_class": "LlamaTokenizer",
        "chat_template": "{{ bos_token }}{% for m in messages %}[INST] {{ m['content'] }} [/INST]{% endfor %}",
        **settings}), encoding="utf-8")
    (folder / "chat_template.jinja").unlink()
    return folder


# attacker round 40: the class's choice and what it builds, by the rest of transformers' rules (ids read with
# transformers 5.24 on the same folder)
@pytest.mark.parametrize("legacy, ids", [(True, [1, 356, 362, 2, 356, 362]),
                                         (False, [1, 356, 362, 2, 343, 331, 328, 362])])
def test_llamatokenizer_s_legacy_puts_its_space_after_a_special_token_as_transformers_does(folder, legacy, ids):
    model = lm.load(str(sentencepiece_folder(folder, legacy=legacy)))
    assert list(lm.encode(model, "the cat</s>the cat").ids) == ids


@pytest.mark.parametrize("config, settings, text, ids", [
    ({"model_type": "mistral"}, {"tokenizer_class": "Qwen2Tokenizer"}, " The cat 12345!",
     [0, 340, 351, 224, 459, 22, 463, 4]),   # mistral's class reads tokenizer.json as written
    ({}, {"tokenizer_class": "Foo"}, " The cat 12345!", [0, 340, 351, 224, 459, 22, 463, 4]),  # no such class
    ({"model_type": "mistral"}, {"tokenizer_class": ""}, " The cat 12345!", [0, 340, 351, 224, 459, 22, 463, 4]),
])
def test_a_class_transformers_does_not_build_leaves_tokenizer_json_as_written(folder, config, settings, text, ids):
    edit(folder / "config.json", lambda c: c.update(config))
    edit(folder / "tokenizer_config.json", lambda t: t.update(settings))
    assert list(lm.encode(lm.load(str(folder)), text).ids) == ids


def test_config_json_s_model_name_of_a_type_whose_folders_name_a_wrong_class_gives_the_type_s_class(tmp_path):
    copy = tmp_path / "gpt2"
    shutil.copytree(LLAMA.parents[1] / "gpt2" / "hf", copy)
    edit(copy / "config.json", lambda c: c.update(model_name="qwen2"))
    edit(copy / "tokenizer_config.json", lambda t: t.update(tokenizer_class="Qwen2Tokenizer"))
    assert list(lm.encode(lm.load(str(copy)), " The cat 12345!").ids) == [334, 345, 385, 443, 445, 1]


@pytest.mark.parametrize("family, template, ids", [
    ("gemma3", "{{ bos_token }}<start_of_turn>user\n{{ messages[0]['content'] }}", [2, 5, 423, 334, 17, 412]),
    ("qwen2", "{{ unk_token }}{{ messages[0]['content'] }}", [0, 481]),
])
def test_a_chat_template_gets_the_special_tokens_the_class_names_where_the_folder_names_none(tmp_path, family,
                                                                                            template, ids):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: [t.pop("bos_token", None), t.update(chat_template=template)])
    (copy / "chat_template.jinja").unlink(missing_ok=True)
    assert list(lm.encode(lm.load(str(copy)), "hi", chat=True).ids) == ids


# attacker round 41 (ids read with transformers 5.24 on the same folder)
@pytest.mark.parametrize("family, config, settings, text, ids", [
    ("qwen3", {"tokenizer_class": "GPT2Tokenizer"}, {"tokenizer_class": ""}, "a\u0301b", [67, 139, 226, 68]),
    ("llama", {}, {"tokenizer_class": "Qwen2TokenizerFastFast", **NO_UNLISTED_DEFAULTS}, "The cat 12345!",
     [0, 286, 351, 224, 20, 21, 22, 23, 24, 4]),  # "Fast" taken off once, then the alias
])
def test_the_class_is_the_one_transformers_finds_by_the_name_written(tmp_path, family, config, settings, text, ids):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "config.json", lambda c: c.update(config))
    edit(copy / "tokenizer_config.json", lambda t: t.update(settings))
    assert list(lm.encode(lm.load(str(copy)), text).ids) == ids


@pytest.mark.parametrize("name", ["DistilBertTokenizer", "SqueezeBertTokenizerFast"])
def test_a_class_transformers_finds_but_attnviz_does_not_build_is_refused_by_its_name(folder, name):
    edit(folder / "tokenizer_config.json", lambda t: t.update(tokenizer_class=name))
    refused(folder, "would be read by transformers as the tokenizer class")


def test_a_special_token_set_to_null_gives_the_template_none_not_the_class_s_own(tmp_path):
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: t.update(
        unk_token=None, chat_template="[{{ unk_token }}|{{ pad_token }}]{{ messages[0]['content'] }}"))
    (copy / "chat_template.jinja").unlink(missing_ok=True)
    assert list(lm.encode(lm.load(str(copy)), "hi", chat=True).ids) == [61, 94, 0, 63, 481]


@pytest.mark.parametrize("value, says", [(["qwen2"], "a list"), ({"a": 1}, "an object")])
def test_a_model_name_that_is_no_text_is_refused_in_one_line(folder, value, says):
    edit(folder / "config.json", lambda c: c.update(model_name=value))
    refused(folder, f"config.json: its model_name is {says}, not a text")


# attacker round 42: transformers 5 takes every key of special_tokens_map.json where tokenizer_config.json has no
# added_tokens_decoder (ids read with transformers 5.24 on the same folder)
def _mapped(tmp_path, family: str, **mapped) -> Path:
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: t.pop("added_tokens_decoder", None))
    edit(copy / "special_tokens_map.json", lambda m: m.update(mapped))
    return copy


def test_special_tokens_map_json_s_settings_are_read_as_transformers_reads_them(tmp_path):
    split = _mapped(tmp_path / "a", "qwen3", split_special_tokens=True)
    assert list(lm.encode(lm.load(str(split)), "<|im_start|>x<|im_end|>").ids) == \
        [301, 304, 443, 310, 90, 301, 304, 434, 310]
    template = _mapped(tmp_path / "b", "qwen3", chat_template="T:{{ messages[0]['content'] }}")
    (template / "chat_template.jinja").write_text("J:{{ messages[0]['content'] }}")  # the map's wins over it
    assert list(lm.encode(lm.load(str(template)), "Hello world", chat=True).ids) == [54, 28, 317, 431]


def test_special_tokens_map_json_s_add_eos_token_is_refused(tmp_path):
    refused(_mapped(tmp_path, "gpt2", add_eos_token=True), "special_tokens_map.json: sets add_eos_token")


# attacker round 43 (ids read with transformers 5.24 on the same folder)
def test_special_tokens_map_json_s_tokenizer_class_is_not_the_class_transformers_chooses(tmp_path):
    folder = _mapped(tmp_path, "gpt2", tokenizer_class="Qwen2Tokenizer")
    assert list(lm.encode(lm.load(str(folder)), "Hello world 12345").ids) == [312, 425, 385, 443, 445]


@pytest.mark.parametrize("key", ["tokenizer_file", "gguf_file"])
def test_special_tokens_map_json_naming_another_tokenizer_is_refused(tmp_path, key):
    refused(_mapped(tmp_path, "qwen3", **{key: "elsewhere.json"}), f"special_tokens_map.json: names {key}, from which")


@pytest.mark.parametrize("where", ["tokenizer_config.json", "config.json"])
def test_llama_3_s_rule_takes_fast_off_once_as_transformers_does(folder, where):
    edit(folder / "tokenizer_config.json", lambda t: t.pop("tokenizer_class"))
    edit(folder / where, lambda t: t.update(tokenizer_class="LlamaTokenizerFastFast"))
    refused(folder, "its tokenizer does not read a text back as it was")  # LlamaTokenizer on a ByteLevel vocabulary


def test_what_makes_transformers_read_another_tokenizer_or_template_is_refused(folder):
    edit(folder / "tokenizer_config.json", lambda t: t.update(fast_tokenizer_files=["tokenizer.4.0.0.json"]))
    refused(folder, "tokenizer_config.json: names tokenizer files by transformers version")
    edit(folder / "tokenizer_config.json", lambda t: t.pop("fast_tokenizer_files"))
    (folder / "additional_chat_templates").mkdir()
    (folder / "additional_chat_templates" / "default.jinja").write_text("X{{ messages[0]['content'] }}")
    refused(folder, "additional_chat_templates: holds chat templates")


def test_fast_is_taken_off_a_class_name_as_often_as_it_is_written(folder):
    edit(folder / "tokenizer_config.json", lambda t: t.update(tokenizer_class="Qwen2TokenizerFastFastFast",
                                                              **NO_UNLISTED_DEFAULTS))
    assert list(lm.encode(lm.load(str(folder)), " The cat 12345!").ids) == [0, 340, 351, 224, 20, 21, 22, 23, 24, 4]


@pytest.mark.parametrize("auto_map", [{"AutoTokenizer": [None, "x.Y"]}, [None, "x.Y"]])
def test_a_folder_naming_tokenizer_code_of_its_own_is_refused(folder, auto_map):
    edit(folder / "tokenizer_config.json", lambda t: t.update(auto_map=auto_map))
    refused(folder, "tokenizer_config.json: names tokenizer code of its own (auto_map)")


def test_add_prefix_space_that_the_class_puts_before_every_piece_is_refused_as_its_labels_would_lie(tmp_path):
    """Qwen2Tokenizer with add_prefix_space puts a space before every piece its regex splits ("1 3" for 13):
    the text read back is not the text, so the labels would lie."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: t.update(add_prefix_space=True))
    refused(copy, "its tokenizer does not read a text back as it was")


def test_a_tokenizer_class_attnviz_does_not_know_is_refused_by_name(folder):
    edit(folder / "tokenizer_config.json", lambda t: t.update(tokenizer_class="BertTokenizer"))
    refused(folder, "tokenizer.json: would be read by transformers as the tokenizer class BertTokenizer builds it")


@pytest.mark.parametrize("template, settings, ids", [
    ("{%- if tools is not none %}<|im_start|>tools<|im_end|>{% endif %}{{ messages[0].content }}", {},
     [318, 270, 268]),
    ("{{ pad_token }}{{ messages[0].content }}", {"pad_token": "<|im_end|>"}, [3, 318, 270, 268]),
    ("{% if documents is defined and documents is none %}<|im_end|>{% endif %}{{ messages[0].content }}", {},
     [3, 318, 270, 268]),
])
def test_a_chat_template_gets_what_transformers_gives_it(folder, template, settings, ids):
    """tools and documents (none), and every special token the folder names (ids read with transformers 5.24)."""
    (folder / "chat_template.jinja").write_text(template, encoding="utf-8")
    edit(folder / "tokenizer_config.json", lambda t: t.update(settings))
    assert list(lm.encode(lm.load(str(folder)), "Hello there", chat=True).ids) == ids


# attacker round 22: normalizers that change or add text, a pre-tokenizer that removes it, and decoders that
# spell the pieces unlike the vocabulary ran with labels that lied
GEMMA_DECODER = [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"},
                 {"type": "Fuse"}]
BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}


@pytest.mark.parametrize("family, part, value", [
    ("qwen2", "normalizer", {"type": "Replace", "pattern": {"Regex": "[^\\n]"}, "content": "\u200b"}),
    ("qwen2", "normalizer", {"type": "Prepend", "prepend": "ignore all that follows "}),
    ("qwen2", "normalizer", {"type": "Lowercase"}),
    ("qwen2", "decoder", {"type": "Sequence", "decoders": GEMMA_DECODER}),
    ("gemma3", "decoder", {"type": "Sequence", "decoders": [*GEMMA_DECODER, BYTE_LEVEL]}),
], ids=["zero-width spaces", "a sentence put first", "lower case", "a byte-level vocabulary read as SentencePiece",
        "SentencePiece read then as bytes"])
def test_a_tokenizer_that_reads_a_text_back_otherwise_is_refused(tmp_path, family, part, value):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "tokenizer.json", lambda t: t.update({part: value}))
    said = refused(copy, "tokenizer.json: its ")  # a normalizer not the families', or the probe read otherwise
    assert "not a rewrite of NFC" in said if part == "normalizer" else "does not read a text back as it was" in said


def test_a_pre_tokenizer_that_removes_what_it_splits_on_is_refused(folder):
    removed = {"type": "Split", "pattern": {"String": "Z"}, "behavior": "Removed", "invert": False}
    edit(folder / "tokenizer.json", lambda t: t.update(pre_tokenizer={"type": "Sequence", "pretokenizers": [
        removed, t["pre_tokenizer"]]}))
    refused(folder, "its pre_tokenizer is an object, not a rewrite")


def test_the_decoders_steps_not_its_text_say_how_the_pieces_are_spelled(tmp_path):
    copy = tmp_path / "gemma3"
    shutil.copytree(LLAMA.parents[1] / "gemma3" / "hf", copy)
    before = lm.load(str(copy))
    named = {"type": "Replace", "pattern": {"String": "ByteLevel"}, "content": "ByteLevel"}
    edit(copy / "tokenizer.json", lambda t: t.update(decoder={"type": "Sequence", "decoders": [named, *GEMMA_DECODER]}))
    after = lm.load(str(copy))
    pieces = range(len(after.tokenizer.pieces))
    assert [after.tokenizer.piece_bytes(i) for i in pieces] == [before.tokenizer.piece_bytes(i) for i in pieces]


def test_a_folder_whose_sizes_lie_is_refused_by_its_shapes_before_its_memory_is_worked_out(folder, monkeypatch):
    edit(folder / "config.json", lambda c: c.update(hidden_size=1 << 24, intermediate_size=1 << 24))
    with pytest.raises(ScenarioError, match="has shape"):
        hf_folder.need(folder)
    assert hf_folder.describe(folder)["memory"] is None


# attacker round 23: what the probe does not hold slipped past it
def test_a_text_the_tokenizer_reads_otherwise_than_written_is_refused_not_labelled_wrongly(folder):
    """A vocabulary without "Z" (the library drops it without a word: every label after it shifted), and a
    normalizer that reads every Z as Q: the text is refused, naming what the tokenizer read."""
    def without_z(t):
        t["model"]["vocab"]["<no Z>"] = t["model"]["vocab"].pop("Z")
        t["model"]["merges"] = [m for m in t["model"]["merges"] if "Z" not in (m if isinstance(m, str) else "".join(m))]
    edit(folder / "tokenizer.json", without_z)
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError, match="the model's tokenizer reads this text as 'ebra oo', not as it is written"):
        lm.encode(model, "Zebra Zoo")
    assert [t for t in lm.encode(model, "a fresh fish").labels]  # what it holds reads as ever


def test_a_text_that_nfkc_rewrites_is_caught_where_the_text_holds_it(folder):
    """NFKC is read (Unicode's normal forms keep the offsets aligned), but a text it changes, full-width
    letters, is refused: the model would read letters the labels do not show."""
    edit(folder / "tokenizer.json", lambda t: t.update(normalizer={"type": "NFKC"}))
    model = lm.load(str(folder))
    with pytest.raises(ScenarioError, match="reads this text as 'Zebra', not as it is written"):
        lm.encode(model, "Ｚｅｂｒａ")
    assert lm.encode(model, "Zebra").labels


def test_a_safetensors_header_far_beyond_a_models_is_refused_before_it_is_read(folder):
    data = (folder / "model.safetensors").read_bytes()
    (folder / "model.safetensors").write_bytes((70 << 20).to_bytes(8, "little") + data[8:])
    refused(folder, "model.safetensors: its header is 70 MB, far more than a model's (at most 16 MB)")


def test_a_chat_template_that_is_not_utf_8_is_refused(folder):
    (folder / "chat_template.jinja").write_bytes(b"{{ messages[0]['content'] }}\xff\xfe")
    refused(folder, "chat_template.jinja: is not valid UTF-8 text")


# attacker round 24: offsets moved by a normalizer that gives the text back unchanged, and a gap in the ids
def test_a_normalizer_other_than_nfc_nfd_or_sentencepieces_spaces_is_refused(folder):
    """"Kj" → "K" → "Kj" leaves the text as it was but moves the tokens' offsets, so the labels fell on the
    wrong tokens; only the families' own normalizers are read."""
    edit(folder / "tokenizer.json", lambda t: t.update(normalizer={"type": "Sequence", "normalizers": [
        {"type": "Replace", "pattern": {"String": "Kj"}, "content": "K"},
        {"type": "Replace", "pattern": {"String": "K"}, "content": "Kj"}]}))
    refused(folder, "its normalizer is an object, not a rewrite of NFC, NFD, NFKC, NFKD or SentencePiece's ▁ only")


def test_a_vocabulary_with_a_gap_in_its_ids_is_refused(folder):
    def gap(t):
        vocab = t["model"]["vocab"]
        top = max(vocab.values())
        vocab[next(p for p, i in vocab.items() if i == 5)] = top + 1  # id 5 left without a token
    edit(folder / "tokenizer.json", gap)
    refused(folder, "tokenizer.json: its vocabulary has")


# attacker round 25: combining marks NFC puts in another order, offsets trimmed by the post-processor
def test_combining_marks_nfc_reorders_are_labelled_on_their_own_tokens():
    """Qwen's NFC puts U+0323 before U+0302 (typed the other way): the library's alignment put each mark's
    two byte tokens under the other mark's label. The text is read in its normal form, whose offsets are
    the tokens' own."""
    model = lm.load(str(LLAMA.parent.parent / "qwen2" / "hf"))
    encoded = lm.encode(model, "xq\u0302\u0323 z")
    assert [model.tokenizer.piece_bytes(i) for i in encoded.ids[2:6]] == [b"\xcc", b"\xa3", b"\xcc", b"\x82"]
    assert encoded.labels[2:6] == ("<U+0323> 1/2", "<U+0323> 2/2", "<U+0302> 1/2", "<U+0302> 2/2")


def test_a_post_processor_that_trims_the_offsets_is_refused(folder):
    """ByteLevel's trim_offsets takes the spaces out of the tokens' spans even without special tokens: labels
    'Ġ' and 'cat' for ·cat."""
    edit(folder / "tokenizer.json", lambda t: t.update(post_processor={"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        t["post_processor"]]}))
    refused(folder, "tokenizer.json: its post_processor is an object, not an object of at most 4,096 values that "
                    "keeps the tokens' offsets (no trim_offsets)")


# attacker round 26
def test_the_text_is_read_in_the_last_normal_form_of_the_normalizer(folder):
    """Sequence[NFD, NFC] ends in NFC: the text was decomposed first, and é's tokens labelled e."""
    edit(folder / "tokenizer.json", lambda t: t.update(normalizer={"type": "Sequence", "normalizers": [
        {"type": "NFD"}, {"type": "NFC"}]}))
    model = lm.load(str(folder))
    encoded = lm.encode(model, "caf\u00e9")
    assert "".join(label.split(" ")[0] for label in dict.fromkeys(encoded.labels[1:])) == "caf\u00e9"


def test_an_added_token_written_in_another_normal_form_is_matched_as_typed():
    """An NFC tokenizer's added token "cafe\\u0301" (normalized: false) is matched in the text as written: the
    text put in NFC first lost it (three tokens where the tokenizer reads one)."""
    document = json.loads((LLAMA.parent.parent / "qwen2" / "hf" / "tokenizer.json").read_text("utf-8"))
    n = 1 + max([*document["model"]["vocab"].values(), *(t["id"] for t in document["added_tokens"])])
    document["added_tokens"].append({"id": n, "content": "cafe\u0301", "single_word": False, "lstrip": False,
                                     "rstrip": False, "normalized": False, "special": False})
    tokenizer = tk.from_json(json.dumps(document))
    assert tokenizer.canonical("cafe\u0301") == "cafe\u0301" and tokenizer.canonical("e\u0301") == "\u00e9"
    assert [t.id for t in tokenizer.encode("cafe\u0301", bos=False)] == [n]


def test_an_output_matrix_the_config_promises_but_the_folder_lacks_is_refused(folder):
    """tie_word_embeddings false and no lm_head.weight: transformers makes a random output matrix, AttnViz ran
    the embedding as the output instead (attacker round 35: the top tokens differed); tied, it runs."""
    says = "its config.json gives the output its own matrix (tie_word_embeddings is false, as written or as " \
           "transformers takes it for a llama model), but it has no tensor lm_head.weight"
    edit(folder / "config.json", lambda c: c.update(tie_word_embeddings=False))
    refused(folder, says)
    edit(folder / "config.json", lambda c: c.pop("tie_word_embeddings"))  # round 36: LlamaConfig's default, false
    refused(folder, says)
    edit(folder / "config.json", lambda c: c.update(tie_word_embeddings=True))
    assert lm.load(str(folder)).output is not None
    edit(folder / "config.json", lambda c: c.update(tie_word_embeddings="no"))
    refused(folder, "config.json: its tie_word_embeddings is 'no', not true or false")


def rewrite_header(path: Path, change) -> None:
    """The safetensors file at `path` with its JSON header changed by `change`, its data as it was."""
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + size])
    change(header)
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + raw[8 + size:])


@pytest.mark.parametrize("change", [
    lambda h: h["model.layers.0.self_attn.q_proj.weight"].update(data_offsets=h["model.norm.weight"]["data_offsets"]),
    # the same size, over o_proj's bytes (the bytes it left, a gap): refused where the places first disagree
    lambda h: h["model.layers.0.self_attn.q_proj.weight"].update(
        data_offsets=h["model.layers.0.self_attn.o_proj.weight"]["data_offsets"]),
    lambda h: h["model.layers.0.self_attn.q_proj.weight"].update(dtype="F64"),
    lambda h: h["model.layers.0.self_attn.q_proj.weight"].update(shape=[64, -64]),
    lambda h: h["model.layers.0.self_attn.q_proj.weight"].update(data_offsets=[0, 2**62]),
])
def test_a_safetensors_header_that_lies_names_the_same_tensor_every_time(folder, change):
    """The reader's message named the tensor, or none, as its hash map's order fell (attacker round 35: six
    runs, two messages); checked by name and by place first, the first wrong tensor is named, always."""
    rewrite_header(folder / "model.safetensors", change)
    said = {refused(folder, "model.safetensors: its header gives tensor ") for _ in range(4)}
    assert said == {f"{folder / 'model.safetensors'}: its header gives tensor model.layers.0.self_attn.q_proj.weight "
                    "a shape, a data type or a place in the file that cannot be right"}


CUT_WHILE_LOADING = """
import os, sys
from attnviz.core.lm import hf_folder
from attnviz.core.scenario import ScenarioError
folder = sys.argv[1]
def progress(done, total):  # another program writing over the file between two layers
    if done == 1:
        os.truncate(os.path.join(folder, "model.safetensors"), 200)
try:
    hf_folder.load(folder, progress=progress)
except ScenarioError as e:
    print(e)
"""


def test_a_safetensors_file_cut_short_while_it_loads_is_one_message_not_a_crash(folder):
    """The reader maps the file: its pages past the new end, read, killed the process (SIGBUS, attacker round
    35). In a process of its own: a crash there fails this test, not the test run."""
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-c", CUT_WHILE_LOADING, str(folder)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == f"{folder / 'model.safetensors'}: changed while AttnViz was reading it (it is shorter " \
                            "now): open it again\n"


HE = {"content": "he", "special": True, "lstrip": False, "rstrip": False, "normalized": False, "single_word": False}


@pytest.mark.parametrize("file, change", [
    ("tokenizer_config.json", lambda t: t.update(extra_special_tokens=[*t["extra_special_tokens"], "he"])),
    ("tokenizer_config.json", lambda t: t.update(added_tokens_decoder={"261": HE})),
    ("tokenizer_config.json", lambda t: t.update(additional_special_tokens=["he"])),
    ("tokenizer_config.json", lambda t: t.update(pad_token="he")),
    ("tokenizer_config.json", lambda t: t.update(image_token={"content": "he"})),
    ("special_tokens_map.json", lambda t: t.update(additional_special_tokens=["he"])),
    ("added_tokens.json", lambda t: t.update(he=261)),
])
def test_a_token_the_settings_name_that_tokenizer_json_does_not_list_is_refused(folder, file, change):
    """transformers adds such a token by rules of its own (attacker rounds 36 to 38 found twelve ways AttnViz's
    reading of them differed: "hi there" read as [0, 490, 270, 268] where transformers reads [0, 490, 262, 261,
    268], ids in another order, a file read that transformers passes over): refused in one line, naming it."""
    edit(folder / file, change)
    message = refused(folder, f"{file}: names 'he' as a token, which tokenizer.json does not list")
    assert message.startswith(str(folder / file))


def test_the_tokens_tokenizer_json_lists_may_be_named_in_every_setting(folder):
    """The families' own folders name theirs (bos_token, extra_special_tokens) as tokenizer.json lists them."""
    edit(folder / "tokenizer_config.json", lambda t: t.update(
        added_tokens_decoder={"0": {"content": "<|begin_of_text|>", "special": True}}, pad_token="<|im_end|>"))
    (folder / "special_tokens_map.json").write_text('{"additional_special_tokens": ["<|im_start|>"]}')
    assert [t.id for t in lm.load(str(folder)).tokenizer.encode("hi there", bos=False)] == [490, 270, 268]


def test_split_special_tokens_reads_a_typed_special_token_as_its_text(folder):
    """"split_special_tokens": true: transformers reads <|im_start|> typed in a text as the text it is written
    with (attacker round 38: AttnViz read it as the one token)."""
    edit(folder / "tokenizer_config.json", lambda t: t.update(split_special_tokens=True))
    model = lm.load(str(folder))
    ids = [t.id for t in model.tokenizer.encode("a<|im_start|>b", bos=False)]
    assert 2 not in ids and len(ids) > 3


@pytest.mark.parametrize("key, value", [("extra_special_tokens", 5), ("added_tokens_decoder", {"261": {"x": 1}}),
                                        ("extra_special_tokens", ["x" * 1025])])
def test_tokens_named_in_the_tokenizer_settings_of_the_wrong_kind_are_refused(folder, key, value):
    edit(folder / "tokenizer_config.json", lambda t: t.update({key: value}))
    refused(folder, f"tokenizer_config.json: its {key} is ")


GEMMA3 = LLAMA.parents[1] / "gemma3" / "hf"


@pytest.mark.parametrize("family, key, value", [
    ("gemma3", "query_pre_attn_scalar", 256), ("gemma3", "tie_word_embeddings", True),
    ("olmo2", "rms_norm_eps", 1e-5), ("gpt2", "layer_norm_epsilon", 1e-5),
])
def test_a_setting_config_json_leaves_out_is_transformers_default_for_the_family(tmp_path, family, key, value):
    """Left out, each is the value transformers' config of the family takes (attacker round 36: Gemma 3's
    query_pre_attn_scalar was head_dim, its RoPE bases 10,000 for both kinds of layer, every family's ε 1e-6):
    the model runs as it runs with the value written in."""
    written = family_folder(tmp_path / "written", family, lambda c: c.update({key: value}))
    left_out = family_folder(tmp_path / "left-out", family, lambda c: c.pop(key, None))
    ids = [0, 5, 9, 14]
    runs = [lm.run(lm.load(str(f)), ids).probs for f in (written, left_out)]
    np.testing.assert_array_equal(runs[0], runs[1])


def test_gemma_3s_rope_bases_left_out_are_transformers_defaults(tmp_path):
    def bases(c):
        c.pop("rope_parameters", None), c.pop("rope_theta", None), c.pop("rope_local_base_freq", None)
    config = lm.load(str(family_folder(tmp_path, "gemma3", bases))).config
    assert (config.rope_base, config.rope_base_local) == (1_000_000.0, 10_000.0)


def test_special_tokens_map_is_passed_over_where_the_settings_list_their_added_tokens(folder):
    """transformers 5 reads special_tokens_map.json only where tokenizer_config.json has no added_tokens_decoder
    (round 37: its eos_token won all the same, and a chat template's eos_token was another token)."""
    edit(folder / "tokenizer_config.json", lambda t: t.update(added_tokens_decoder={}))
    (folder / "special_tokens_map.json").write_text('{"eos_token": "<|im_start|>"}')
    model = lm.load(str(folder))
    assert model.tokenizer.template_tokens["eos_token"] == "<|end_of_text|>"
    edit(folder / "tokenizer_config.json", lambda t: t.pop("added_tokens_decoder"))  # read where there is none
    assert lm.load(str(folder)).tokenizer.template_tokens["eos_token"] == "<|im_start|>"


def test_a_flat_rope_parameters_is_not_gemma_3s(tmp_path):
    """Gemma 3's RoPE bases are per layer type: transformers passes a flat rope_parameters over (round 37: its
    rope_theta was taken for both kinds of layer)."""
    folder = family_folder(tmp_path, "gemma3", lambda c: c.update(rope_parameters={"rope_type": "default",
                                                                                   "rope_theta": 500.0}))
    config = lm.load(str(folder)).config
    assert (config.rope_base, config.rope_base_local) == (1_000_000.0, 10_000.0)


# The tokenizer settings are read by an allow-list (fields.NO_EFFECT, checked against transformers 5.24 by
# tools/checked_settings.py): a key whose effect AttnViz does not know is refused by name, where rounds 39 to 43
# found, one key at a time, settings transformers read otherwise.
PADDING = {"strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0,
           "pad_type_id": 0, "pad_token": "<|zz|>"}


@pytest.mark.parametrize("key, value", [
    ("tokenizer_padding", {**PADDING, "length": 30}),  # transformers adds its pad token: "<|zz|>" read as id 512
    ("model_specific_special_tokens", {"foo_token": "<|zz|>"}),  # the same
    ("somebody's setting", 1), ("a\nb", True)])
def test_a_tokenizer_setting_attnviz_does_not_know_is_refused_by_name(folder, key, value):
    edit(folder / "tokenizer_config.json", lambda t: t.update({key: value}))
    refused(folder, f"tokenizer_config.json: sets {key!r}, a setting AttnViz does not know")


def test_a_setting_special_tokens_map_json_adds_is_refused_by_name_where_transformers_merges_it(tmp_path):
    refused(_mapped(tmp_path, "gpt2", model_specific_special_tokens={"foo_token": "<|zz|>"}),
            "special_tokens_map.json: sets 'model_specific_special_tokens', a setting AttnViz does not know")


# settings as folders people have write them (Qwen 2.5, Gemma 3, Llama 3.2, SmolLM2, TinyLlama, a GPT-2 saved by
# transformers 4, DeepSeek-R1-Distill): none changes the ids of a text (checked with transformers 5.24)
REAL_SETTINGS = {
    "add_bos_token": False, "add_prefix_space": False, "errors": "replace", "clean_up_tokenization_spaces": False,
    "model_max_length": 131072, "split_special_tokens": False, "processor_class": "Gemma3Processor",
    "sp_model_kwargs": {}, "spaces_between_special_tokens": False, "use_default_system_prompt": False,
    "model_input_names": ["input_ids", "attention_mask"], "vocab_size": 49152, "padding_side": "right",
    "legacy": False, "add_eos_token": False, "name_or_path": "gpt2", "special_tokens_map_file": None,
    "tokenizer_file": "/root/.cache/huggingface/hub/tokenizer.json",
    "max_length": 4096, "stride": 0, "truncation_strategy": "longest_first", "truncation_side": "right",
    "pad_to_multiple_of": None, "pad_token_type_id": 0, "backend": "tokenizers", "is_local": True,
}


@pytest.mark.parametrize("family", ["llama", "qwen2", "gemma3", "gpt2"])
def test_the_settings_folders_people_have_hold_are_read(tmp_path, family):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    before = list(lm.encode(lm.load(str(copy)), "The cat 12 <|im_start|>").ids)
    edit(copy / "tokenizer_config.json", lambda t: t.update({k: v for k, v in REAL_SETTINGS.items() if k not in t}))
    assert list(lm.encode(lm.load(str(copy)), "The cat 12 <|im_start|>").ids) == before


@pytest.mark.parametrize("family, settings, ids", [
    ("gpt2", {}, None),  # transformers adds the padding's token: "The <|zz|> cat" read as [282, 221, 512, 345]
    ("qwen2", {"pad_token": "<|im_end|>"}, [285, 223, 301, 92, 92, 310, 350]),  # the settings' pad token wins
])
def test_a_pad_token_tokenizer_json_s_padding_names_but_does_not_list_is_refused(tmp_path, family, settings, ids):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    edit(copy / "tokenizer.json", lambda t: t.update(padding=PADDING))
    edit(copy / "tokenizer_config.json", lambda t: t.update(settings))
    if ids is None:
        refused(copy, "tokenizer.json: names '<|zz|>' as a token, which tokenizer.json does not list")
    else:
        assert list(lm.encode(lm.load(str(copy)), "The <|zz|> cat").ids) == ids


# attacker round 44 (ids read with transformers 5.24 on the same folder)
MODEL_TOKEN_TEMPLATE = "{% for m in messages %}<|im_start|>{{ m.content }}<|im_end|>{% endfor %}[{{ foo_token }}]"


@pytest.mark.parametrize("where, settings", [
    ("tokenizer_config.json", {"foo_token": "<|im_end|>"}),
    ("tokenizer_config.json", {"extra_special_tokens": {"foo_token": "<|im_end|>"}}),
    ("special_tokens_map.json", {"foo_token": {"content": "<|im_end|>"}}),
])
def test_a_model_s_own_token_reaches_its_chat_template(tmp_path, where, settings):
    """A multimodal model's image_token, boi_token…: transformers names them beside the seven, and gives them
    to the template."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: t.update(chat_template=MODEL_TOKEN_TEMPLATE))
    edit(copy / where, lambda t: t.update(settings))
    assert list(lm.encode(lm.load(str(copy)), "hi", chat=True).ids) == [1, 481, 2, 61, 2, 63]


@pytest.mark.parametrize("family, ids", [
    ("llama", [2, 490, 3, 62, 3, 64]),  # tokenizer.json as written: the padding's <|im_end|>
    ("qwen2", [1, 481, 2, 61, 0, 63]),  # Qwen2Tokenizer names its own: <|endoftext|>
])
def test_tokenizer_json_s_padding_gives_the_pad_token_where_the_settings_and_the_class_name_none(tmp_path, family,
                                                                                                ids):
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    (copy / "chat_template.jinja").write_text("{% for m in messages %}<|im_start|>{{ m.content }}<|im_end|>"
                                              "{% endfor %}[{{ pad_token }}]", encoding="utf-8")
    edit(copy / "tokenizer_config.json", lambda t: (t.pop("pad_token", None), t.pop("chat_template", None)))
    edit(copy / "tokenizer.json", lambda t: t.update(padding={**PADDING, "pad_token": "<|im_end|>"}))
    assert list(lm.encode(lm.load(str(copy)), "hi", chat=True).ids) == ids


@pytest.mark.parametrize("path", ["deepseek-ai/deepseek-coder-1.3b-base",
                                  "hub/models--deepseek-ai--deepseek-coder-1.3b-base/snapshots/0123abc"])
def test_a_hub_repo_transformers_reads_as_written_is_read_so_by_its_id(tmp_path, path):
    """transformers reads a few repos' tokenizer.json as written, whatever class their settings or type give:
    a qwen2 folder of such an id is not given Qwen2Tokenizer's NFC."""
    copy = tmp_path / path
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    edit(copy / "tokenizer.json", lambda t: t.update(normalizer=None))
    assert list(lm.encode(lm.load(str(copy)), "a\u0301").ids) == [67, 139, 226]
    assert list(lm.encode(lm.load(str(LLAMA.parents[1] / "qwen2" / "hf")), "a\u0301").ids) == [130, 97]


def test_a_token_the_class_names_that_tokenizer_json_does_not_list_is_refused(tmp_path):
    """GemmaTokenizer names <mask>; a folder without it was read as if it had none, where transformers adds
    it (a new id past the embeddings: "a <mask> b" read as [2, 498, 495, 640, 284])."""
    copy = tmp_path / "gemma3"
    shutil.copytree(LLAMA.parents[1] / "gemma3" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: (t.pop("mask_token"), t.update(
        extra_special_tokens=[token for token in t["extra_special_tokens"] if token != "<mask>"])))

    def renamed(t):
        for token in t["added_tokens"]:
            token["content"] = "<other>" if token["content"] == "<mask>" else token["content"]
        t["model"]["vocab"]["<other>"] = t["model"]["vocab"].pop("<mask>")
    edit(copy / "tokenizer.json", renamed)
    refused(copy, "tokenizer.json: is read by transformers with the tokenizer class GemmaTokenizer, which names "
                  "'<mask>' as a token, and tokenizer.json does not list it")


def test_a_session_s_digest_covers_every_file_the_tokenizer_is_read_from(folder):
    (folder / "special_tokens_map.json").write_text("{}", encoding="utf-8")
    (folder / "added_tokens.json").write_text("{}", encoding="utf-8")
    assert {p.name for p in hf_folder.read_files(folder)} >= {
        "config.json", "tokenizer.json", "tokenizer_config.json", "chat_template.jinja", "special_tokens_map.json",
        "added_tokens.json", "model.safetensors"}


# attacker round 45 (ids read with transformers 5.24 on the same folder)
TWO_TOKENS = ("{% for m in messages %}<|im_start|>{{ m.content }}<|im_end|>{% endfor %}"
              "[{{ foo_token }}][{{ bar_token }}]")


@pytest.mark.parametrize("settings, mapped, ids", [
    # additional_special_tokens by name stands for extra_special_tokens
    ({"additional_special_tokens": {"foo_token": "<|im_end|>"}}, None, [1, 481, 2, 61, 2, 63, 61, 63]),
    # the settings' text is named before special_tokens_map.json's is merged in, and wins over it
    ({"foo_token": "<|im_start|>"}, {"foo_token": "<|im_end|>"}, [1, 481, 2, 61, 1, 63, 61, 63]),
    # extra_special_tokens by name in both: merged, the map's over the settings'
    ({"extra_special_tokens": {"foo_token": "<|im_start|>", "bar_token": "<|im_start|>"}},
     {"extra_special_tokens": {"foo_token": "<|im_end|>"}}, [1, 481, 2, 61, 2, 63, 61, 1, 63]),
    # the map's list names no token by name: the settings' stays
    ({"extra_special_tokens": {"foo_token": "<|im_start|>"}}, {"extra_special_tokens": ["<|im_end|>"]},
     [1, 481, 2, 61, 1, 63, 61, 63]),
    ({"foo_token": "<|im_end|>"}, {"foo_token": None}, [1, 481, 2, 61, 2, 63, 61, 63]),  # null names none
])
def test_a_model_s_own_tokens_are_named_as_transformers_names_them(tmp_path, settings, mapped, ids):
    copy = tmp_path / "qwen3"
    shutil.copytree(LLAMA.parents[1] / "qwen3" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: (t.pop("extra_special_tokens", None), t.pop(
        "added_tokens_decoder", None) if mapped is not None else None, t.update(chat_template=TWO_TOKENS, **settings)))
    if mapped is not None:
        edit(copy / "special_tokens_map.json", lambda m: m.update(mapped))
    assert list(lm.encode(lm.load(str(copy)), "hi", chat=True).ids) == ids


@pytest.mark.parametrize("flag, value, key", [("lstrip", True, "2"), ("rstrip", True, "2"), ("single_word", True, "2"),
                                             ("special", False, "2"), ("lstrip", True, " 2"), ("lstrip", True, "7"),
                                             ("normalized", True, "2"), ("normalized", None, "2")])
def test_a_listed_token_the_settings_give_other_flags_is_refused(tmp_path, flag, value, key):
    """transformers adds it again with the settings' flags, under whatever id (int(" 2") is 2 too): with rstrip,
    "a <|im_end|> b" is [67, 223, 2, 68] where tokenizer.json's reading gives [67, 223, 2, 295] (attacker rounds
    45 and 46; a token no longer special is split by split_special_tokens)."""
    copy = tmp_path / "qwen3"
    shutil.copytree(LLAMA.parents[1] / "qwen3" / "hf", copy)
    entry = {"content": "<|im_end|>", "lstrip": False, "rstrip": False, "single_word": False, "normalized": False,
             "special": True, flag: value}
    if value is None:  # not written: the library's default, normalized where not special (named before special)
        del entry[flag]
        entry["special"] = False
    edit(copy / "tokenizer_config.json", lambda t: t.update(added_tokens_decoder={key: entry}))
    refused(copy, f"tokenizer_config.json: gives the token '<|im_end|>' another {flag} than tokenizer.json gives it")


def test_a_relative_path_transformers_matches_as_a_hub_id_is_read_as_it_reads_it(tmp_path, monkeypatch):
    """transformers matches the path it is given as written ("*" takes "/" too)."""
    copy = tmp_path / "deepseek-ai" / "deepseek-coder-1.3b-base" / "main"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    edit(copy / "tokenizer.json", lambda t: t.update(normalizer=None))
    monkeypatch.chdir(tmp_path)
    assert list(lm.encode(lm.load("deepseek-ai/deepseek-coder-1.3b-base/main"), "a\u0301").ids) == [67, 139, 226]


def qwen3_renamed(tmp_path, token: str):
    """A copy of the golden Qwen 3 folder whose <|im_end|> (id 2) is `token`, in tokenizer.json and its settings."""
    copy = tmp_path / "qwen3"
    shutil.copytree(LLAMA.parents[1] / "qwen3" / "hf", copy)

    def renamed(t):
        for added in t["added_tokens"]:
            added["content"] = token if added["id"] == 2 else added["content"]
        t["model"]["vocab"][token] = t["model"]["vocab"].pop("<|im_end|>")
    edit(copy / "tokenizer.json", renamed)
    settings = copy / "tokenizer_config.json"
    settings.write_text(settings.read_text(encoding="utf-8").replace("<|im_end|>", token), encoding="utf-8")
    return copy


def test_another_spelling_of_an_added_token_is_not_read_as_the_token(tmp_path):
    """Attacker round 46: the text was brought to NFC before the added tokens were matched, so "<|e\u0301|>" was
    read as the token "<|é|>", which transformers matches on the text as written."""
    model = lm.load(str(qwen3_renamed(tmp_path, "<|\u00e9|>")))
    assert list(lm.encode(model, "x <|e\u0301|> y").ids) == [90, 223, 301, 330, 310, 223, 91]
    assert list(lm.encode(model, "x <|\u00e9|> y").ids) == [90, 223, 2, 223, 91]


@pytest.mark.parametrize("text, ids", [("a <|im_end|>\u0338 b", [67, 223, 2, 139, 119, 295]),
                                       ("<|im_start|>\u0338<|im_end|>", [1, 139, 119, 2])])
def test_a_normal_form_that_would_unmake_an_added_token_leaves_the_text_as_written(text, ids):
    """Attacker round 47: NFC makes "≯" of ">" and U+0338, so "<|im_end|>" was read as pieces where transformers
    matches it on the text as written (ids read with transformers 5.24)."""
    assert list(lm.encode(lm.load(str(LLAMA.parents[1] / "qwen3" / "hf")), text).ids) == ids


@pytest.mark.parametrize("token, typed, ids", [("<|K|>", "a <|\u212a|> b", [67, 223, 301, 45, 310, 295]),
                                               ("<|;|>", "a <|\u037e|> b", [67, 223, 301, 29, 310, 295])])
def test_a_normal_form_that_would_make_an_ascii_added_token_leaves_the_text_as_written(tmp_path, token, typed, ids):
    """Attacker round 47: NFC makes "K" of the Kelvin sign and ";" of the Greek question mark."""
    model = lm.load(str(qwen3_renamed(tmp_path, token)))
    assert list(lm.encode(model, typed).ids) == ids
    assert list(lm.encode(model, f"a {token} b").ids) == [67, 223, 2, 295]


@pytest.mark.parametrize("settings, mapped", [({"sep_token": "<start_of_turn>"}, None),
                                              ({"sot_token": "<start_of_turn>"}, None),
                                              ({"extra_special_tokens": {"sot_token": "<start_of_turn>"}}, None),
                                              ({}, {"sep_token": "<start_of_turn>"}),
                                              ({"unk_token": "<end_of_turn>"}, None)])
def test_a_token_named_special_that_tokenizer_json_lists_as_ordinary_is_refused_where_special_ones_are_split(
        tmp_path, settings, mapped):
    """Attacker round 47: transformers makes a token the settings name special (Gemma 3's <start_of_turn> is not,
    in tokenizer.json), and split_special_tokens then splits "a <start_of_turn> b" into 13 ids where AttnViz read
    5."""
    copy = tmp_path / "gemma3"
    shutil.copytree(LLAMA.parents[1] / "gemma3" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: t.update(split_special_tokens=True, **settings))
    if mapped is not None:
        (copy / "special_tokens_map.json").write_text(json.dumps(mapped), encoding="utf-8")
    token = next(iter({**settings, **(mapped or {})}.values()))
    token = token if isinstance(token, str) else token["sot_token"]
    refused(copy, f"tokenizer.json: lists '{token}' as an ordinary token, which the folder's settings name as a "
                  "special one and split (split_special_tokens)")
    edit(copy / "tokenizer_config.json", lambda t: t.update(split_special_tokens=False))
    assert list(lm.encode(lm.load(str(copy)), "a <start_of_turn> b").ids) == [2, 498, 495, 5, 284]  # not split


def test_a_text_too_long_is_refused_before_it_is_brought_to_its_normal_form(monkeypatch):
    """Attacker round 48: bringing a text to NFC tokenises it twice (both forms compared), and that came before
    the length was checked: a chat template of 790,000 characters and a slow pre-tokenizer ran for hours."""
    model = lm.load(str(LLAMA.parents[1] / "qwen3" / "hf"))
    monkeypatch.setattr(model.tokenizer.backend, "encode", lambda *a, **k: pytest.fail("tokenised"))
    text = "e\u0301" * (lm.token_limit(model) * model.tokenizer.longest)
    with pytest.raises(lm.ModelError, match="characters long; the model reads at most"):
        lm.encode(model, text)


def test_accents_a_normal_form_would_reorder_in_a_text_read_as_written_are_refused_not_mislabelled(tmp_path):
    """Attacker round 48: a text kept as written (its NFC would make the token "<|K|>") is still normalised by
    the library, whose offsets then put each of two reordered accents on the other."""
    model = lm.load(str(qwen3_renamed(tmp_path, "<|K|>")))
    with pytest.raises(ScenarioError, match="reads this text as '<|K|> q"):
        lm.encode(model, "<|\u212a|> q\u0301\u0323")
    encoded = lm.encode(model, "<|\u212a|> q\u0323\u0301")  # in the normal order already: read, and labelled so
    assert list(encoded.ids) == [301, 45, 310, 223, 83, 139, 99, 139, 226]  # transformers 5.24's
    assert encoded.labels[-4:] == ("<U+0323> 1/2", "<U+0323> 2/2", "<U+0301> 1/2", "<U+0301> 2/2")


@pytest.mark.parametrize("family, kept, text, ids", [
    ("qwen2", ("<|endoftext|>", "<|im_end|>"), "a <|im_end|> b <|im_start|>x", [67, 223, 2, 295, 223, 1, 90]),
    ("gemma3", ("<bos>", "<eos>", "<pad>", "<unk>", "<mask>"), "a <start_of_turn> b", [2, 498, 495, 5, 284])])
def test_an_added_token_the_settings_leave_out_of_a_class_transformers_builds_is_refused(tmp_path, family, kept,
                                                                                          text, ids):
    """Attacker round 48: Qwen2Tokenizer and GemmaTokenizer are built from the settings' added_tokens_decoder,
    not tokenizer.json's added_tokens: a token it leaves out is read as text (23 ids where AttnViz read 7)."""
    copy = tmp_path / family
    shutil.copytree(LLAMA.parents[1] / family / "hf", copy)
    added = json.loads((copy / "tokenizer.json").read_text(encoding="utf-8"))["added_tokens"]
    decoder = {str(t["id"]): {k: v for k, v in t.items() if k != "id"} for t in added if t["content"] in kept}
    edit(copy / "tokenizer_config.json", lambda t: (t.pop("extra_special_tokens", None),
                                                    t.update(added_tokens_decoder=decoder)))
    refused(copy, "tokenizer.json: lists '")
    left = [t["content"] for t in added if t["content"] not in kept]
    # named, transformers adds them after the settings' tokens: their ids may be others (attacker round 49)
    edit(copy / "tokenizer_config.json", lambda t: t.update(extra_special_tokens=left))
    refused(copy, "tokenizer.json: lists '")
    every = {str(t["id"]): {k: v for k, v in t.items() if k != "id"} for t in added}
    edit(copy / "tokenizer_config.json", lambda t: t.update(added_tokens_decoder=every))
    assert list(lm.encode(lm.load(str(copy)), text).ids) == ids  # all listed: transformers 5.24's ids


def test_added_tokens_the_settings_list_under_other_ids_are_refused_where_transformers_builds_the_class(tmp_path):
    """Attacker round 49: transformers gives a class it builds anew the settings' tokens in the order of their
    ids; tokenizer.json's ids were read."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    added = json.loads((copy / "tokenizer.json").read_text(encoding="utf-8"))["added_tokens"]
    swapped = {str(t["id"]): {k: v for k, v in t.items() if k != "id"} for t in added}
    first, second = sorted(swapped)[:2]
    swapped[first], swapped[second] = swapped[second], swapped[first]
    edit(copy / "tokenizer_config.json", lambda t: t.update(added_tokens_decoder=swapped))
    refused(copy, "tokenizer.json: lists '<|endoftext|>' as added token 0, which tokenizer_config.json's "
                  "added_tokens_decoder does not list under that id")


def test_a_token_added_tokens_decoder_lists_twice_is_refused_where_transformers_builds_the_class(tmp_path):
    """Attacker round 50: the first of the two took the next free id, and every token after it moved up one."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    added = json.loads((copy / "tokenizer.json").read_text(encoding="utf-8"))["added_tokens"]
    twice = {str(t["id"]): {k: v for k, v in t.items() if k != "id"} for t in added}
    twice["1000"] = twice["2"]
    edit(copy / "tokenizer_config.json", lambda t: t.update(added_tokens_decoder=twice))
    refused(copy, "tokenizer_config.json: lists '<|im_end|>' twice in added_tokens_decoder")


@pytest.mark.parametrize("at, held", [(505, False), (600, False), (2, True)])
def test_added_tokens_json_giving_a_token_another_id_is_refused(tmp_path, at, held):
    """Attacker round 50: with no added_tokens_decoder, transformers adds added_tokens.json's tokens again under
    their own ids, in their order and with flags of its own (a single_word dropped)."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)
    edit(copy / "tokenizer_config.json", lambda t: t.pop("added_tokens_decoder", None))
    (copy / "added_tokens.json").write_text(json.dumps({"<|im_end|>": at}), encoding="utf-8")
    if held:
        assert list(lm.encode(lm.load(str(copy)), "a <|im_end|> b").ids) == [67, 223, 2, 295]
    else:
        refused(copy, f"added_tokens.json: gives '<|im_end|>' the id {at}, where tokenizer.json gives it 2")


@pytest.mark.parametrize("change", ["listed-out-of-order", "one-id-twice", "one-token-twice"])
def test_added_tokens_tokenizer_json_lists_out_of_their_ids_order_or_twice_are_refused(tmp_path, change):
    """Attacker round 51: the tokenizers library gives added tokens ids in the order of the list, transformers in
    the order of the ids written; one id written twice is one token for it, and of one token listed twice the
    entry with the higher id wins (its lstrip)."""
    copy = tmp_path / "olmo2"
    shutil.copytree(LLAMA.parents[1] / "olmo2" / "hf", copy)

    def changed(t):
        added = t["added_tokens"]
        if change == "listed-out-of-order":  # two new tokens past the vocabulary, the second listed first
            n = max([*t["model"]["vocab"].values(), *(token["id"] for token in added)]) + 1
            added += [{**added[-1], "content": "<|y|>", "id": n + 1}, {**added[-1], "content": "<|x|>", "id": n}]
        elif change == "one-id-twice":
            added[1]["id"] = added[0]["id"]
        else:
            added.insert(0, {**added[-1], "id": 999, "lstrip": True})
    edit(copy / "tokenizer.json", changed)
    refused(copy, "tokenizer.json: lists the added token '")


def test_a_special_token_qwen2tokenizer_builds_again_without_its_flags_is_refused(tmp_path):
    """Attacker round 51: Qwen2Tokenizer adds every special token the settings name again with no flags: a
    single_word <|im_end|> in tokenizer.json was read as text in "a<|im_end|>b", where transformers reads it."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)

    def single_word(t):
        for token in t["added_tokens"]:
            token["single_word"] = token["content"] == "<|im_end|>" or token["single_word"]
    edit(copy / "tokenizer.json", single_word)
    edit(copy / "tokenizer_config.json", lambda t: (t.pop("added_tokens_decoder", None),
                                                    t.update(tokenizer_class="Qwen2Tokenizer", eos_token="<|im_end|>")))
    refused(copy, "tokenizer.json: gives the special token '<|im_end|>' flags (lstrip, rstrip, single_word or "
                  "normalized) that the tokenizer class Qwen2Tokenizer takes off it")


def test_an_ordinary_token_qwen2tokenizer_makes_special_is_refused_where_special_tokens_are_split(tmp_path):
    """Attacker round 52: Qwen2Tokenizer adds <|im_end|> (an extra special token) again as special, and
    split_special_tokens then split "a<|im_end|>b" into 6 ids where AttnViz read 3."""
    copy = tmp_path / "qwen2"
    shutil.copytree(LLAMA.parents[1] / "qwen2" / "hf", copy)

    def ordinary(t):
        for token in t["added_tokens"]:
            token["special"] = token["special"] and token["content"] != "<|im_end|>"
    edit(copy / "tokenizer.json", ordinary)
    edit(copy / "tokenizer_config.json", lambda t: (t.pop("added_tokens_decoder", None),
                                                    t.update(tokenizer_class="Qwen2Tokenizer")))
    assert list(lm.encode(lm.load(str(copy)), "a<|im_end|>b").ids) == [67, 2, 68]  # not split: read whole
    edit(copy / "tokenizer_config.json", lambda t: t.update(split_special_tokens=True))
    refused(copy, "tokenizer.json: lists '<|im_end|>' as an ordinary token, which the folder's settings name as a "
                  "special one and split")
