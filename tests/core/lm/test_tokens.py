"""The model's tokenizer, built with Hugging Face's tokenizers: the reference ids, labels people
can read, special tokens, the BOS a model expects, chat templates."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from attnviz.core import lm
from attnviz.core.lm import tokens as tk
from attnviz.core.scenario import ScenarioError

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "smollm2" / "tokens.json"
GOLDEN_HF = Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "hf"


@pytest.fixture(scope="module")
def smollm2():
    return lm.load()


@pytest.mark.real_model("smollm2")
def test_ids_are_the_reference_tokenizers_on_every_golden_sentence(smollm2):
    """llama.cpp's and transformers' ids (they agree on these): English, Japanese, digits, emoji,
    whitespace, contractions, full-width letters."""
    for sentence in json.loads(GOLDEN.read_text(encoding="utf-8"))["sentences"]:
        ids = [t.id for t in smollm2.tokenizer.encode(sentence["text"])]
        assert ids == sentence["ids_llama_cpp"] == sentence["ids_transformers"], sentence["text"]


@pytest.mark.real_model("smollm2")
def test_a_character_split_into_byte_tokens_is_labelled_by_its_place(smollm2):
    labels = lm.encode(smollm2, "猫が魚").labels
    assert labels[:3] == ("猫 1/3", "猫 2/3", "猫 3/3")
    assert lm.encode(smollm2, "The cat").labels == ("The", "·cat")


@pytest.mark.real_model("smollm2")
def test_a_special_token_typed_in_the_text_is_one_token(smollm2):
    encoded = lm.encode(smollm2, "<|im_start|>user hi")
    assert encoded.ids[0] == smollm2.vocabulary.index("<|im_start|>") and encoded.labels[0] == "<|im_start|>"
    assert lm.token_text(smollm2, encoded.ids[0]) == "<|im_start|>"


@pytest.mark.real_model("smollm2")
def test_the_chat_template_wraps_the_text_as_the_users_message(smollm2):
    encoded = lm.encode(smollm2, "猫が魚を食べた。", chat=True)
    assert encoded.labels[0] == "<|im_start|>" and "<|im_start|>" in encoded.labels[1:]
    assert encoded.text == "猫が魚を食べた。" and len(encoded.ids) > len(lm.encode(smollm2, "猫が魚を食べた。").ids)


def tiny(types=None, **kw) -> tk.Tokenizer:
    table = tk.byte_characters()
    return tk.byte_level_bpe(list(table) + ["<s>"], [], "gpt2", types=types, **kw)


def test_the_bos_the_model_expects_comes_first_and_is_labelled_as_such():
    tokenizer = tiny(types=[1] * 256 + [tk.CONTROL], bos=256)
    tokens = tokenizer.encode("ab")
    assert [t.id for t in tokens] == [256, tokenizer.pieces.index("a"), tokenizer.pieces.index("b")]
    assert tk.labels("ab", tokens, tokenizer.pieces, tokenizer.bos) == ["⟨BOS⟩", "a", "b"]
    typed = tokenizer.encode("<s>a", bos=False)  # typed, it is the piece, not the label
    assert tk.labels("<s>a", typed, tokenizer.pieces, tokenizer.bos) == ["<s>", "a"]


def test_a_token_holding_a_zero_width_character_among_others_shows_it():
    table = tk.byte_characters()
    dot_zwsp = "." + "".join(table[b] for b in "\u200b".encode())
    merges = [f"{dot_zwsp[:k]} {dot_zwsp[k]}" for k in range(1, len(dot_zwsp))]
    tokenizer = tk.byte_level_bpe(list(table) + [dot_zwsp[:k] for k in range(2, len(dot_zwsp) + 1)], merges, "gpt2")
    text = "a.\u200b"
    tokens = tokenizer.encode(text)
    assert [t.id for t in tokens] == [table.index("a"), 256 + 2]
    assert tk.labels(text, tokens, tokenizer.pieces) == ["a", ".<U+200B>"]
    joined = "👨\u200d👩"
    assert tk.labels(joined, tiny().encode(joined), tiny().pieces)[4] == "<U+200D> 1/3"


@pytest.mark.parametrize("template", [
    "{{ raise_exception('no system role') }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{% for m in messages %}{{ m.content",
])
def test_a_chat_template_that_fails_or_reaches_outside_is_refused_in_one_message(template):
    with pytest.raises(ScenarioError, match="the model's chat template cannot be used"):
        tiny(chat_template=template).chat("hi")


def test_an_unknown_pre_tokenizer_is_refused_by_name():
    with pytest.raises(ScenarioError, match="pre-tokenizer 'starcoder' is not one AttnViz knows"):
        tk.byte_level_bpe(list(tk.byte_characters()), [], "starcoder")


def test_sentencepiece_merges_come_from_scores_best_first():
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    merges = tk.merges_from(vocab, [0, 0, 0, -1.0, -2.0, -0.5])
    assert merges == [("ab", "c"), ("a", "bc"), ("a", "b"), ("b", "c")]


# attacker round 25: SentencePiece's added space, byte tokens spelled in other digits, Llama 3's whole words,
# control tokens outside GPT-2's byte characters, two spellings of one token
def spm(extra: list[str], scores: list[float]) -> tk.Tokenizer:
    """A Llama 2-style SentencePiece vocabulary: <unk>, <s>, </s>, the 256 byte tokens, then `extra`."""
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + extra
    types = [2, tk.CONTROL, tk.CONTROL] + [tk.BYTE] * 256 + [1] * len(extra)
    return tk.sentencepiece_bpe(tokens, [0.0] * 259 + scores, types, bos=1)


def test_sentencepiece_puts_its_space_before_a_text_that_starts_with_one_as_llama_cpp_does():
    """llama.cpp and SentencePiece put ▁ before the text whatever it starts with: " H" is ▁ ▁H (llama.cpp's
    [29871, 15043] for " Hello" with Llama 2's vocabulary), "  H" ▁▁ ▁H; the library's Metaspace put none
    before a space, and the model read other ids than its own tokenizer's."""
    tokenizer = spm(["▁", "▁▁", "▁H", "H"], [-3.0, -2.0, -1.0, -4.0])
    piece = lambda text: [tokenizer.pieces[t.id] for t in tokenizer.encode(text, bos=False)]  # noqa: E731
    assert piece(" H") == ["▁", "▁H"] and piece("  H") == ["▁▁", "▁H"] and piece("H") == ["▁H"]


def test_the_space_sentencepiece_puts_before_the_text_is_labelled_as_a_space_not_as_the_next_character():
    """The library gives that ▁ the first character's span: 日 and ▁ were labelled 日 1/2, 日 2/2."""
    tokenizer = spm(["▁", "日", "本"], [-1.0, -2.0, -3.0])
    tokens = tokenizer.encode("日本")
    assert [tokenizer.pieces[t.id] for t in tokens] == ["<s>", "▁", "日", "本"]
    assert tk.labels("日本", tokens, tokenizer.pieces, tokenizer.bos) == [tk.BOS_LABEL, "␣", "日", "本"]


@pytest.mark.parametrize("piece", ["<0xZZ>", "<0x-1>", "<0x٣٣>"])
def test_an_entry_shaped_like_a_byte_token_is_the_text_it_is_written_as(piece):
    """Only <0x..> of two ASCII hex digits is a byte: <0xZZ> and <0x-1> raised a traceback when listed as a next
    token, and <0x٣٣> (Arabic-Indic digits) was spelled as the byte 0x33, "3"."""
    tokenizer = spm([piece], [-1.0])
    assert tokenizer.piece_bytes(tokenizer.pieces.index(piece)) == piece.encode()
    assert tokenizer.piece_bytes(tokenizer.pieces.index("<0x33>")) == b"3"


def test_llama_3s_tokenizer_looks_a_word_up_whole_before_merging_it():
    """llama.cpp's ignore_merges for llama-bpe (and Llama 3's tokenizer.json): a piece in the vocabulary is one
    token even where the merges cannot reach it ('Cửa Việt' was read as ·Vi ệ t, not ·Việt)."""
    table = list(tk.byte_characters())
    whole = tk.byte_level_bpe(table + ["ab"], [], "llama-bpe")
    merged = tk.byte_level_bpe(table + ["ab"], [], "gpt2")
    assert [whole.pieces[t.id] for t in whole.encode("ab")] == ["ab"]
    assert [merged.pieces[t.id] for t in merged.encode("ab")] == ["a", "b"]


def test_a_control_token_outside_gpt_2s_byte_characters_is_one_token_as_written():
    """DeepSeek-R1's <｜User｜> (full-width bars, ▁): it was spelled as bytes and never matched, so --chat read
    44 tokens of mangled characters where llama.cpp reads 3."""
    table = list(tk.byte_characters())
    user = "<｜User｜>"
    tokenizer = tk.byte_level_bpe(table + [user], [], "qwen2", types=[1] * 256 + [tk.CONTROL])
    ids = [t.id for t in tokenizer.encode(user + "hi", bos=False)]
    assert ids == [256, table.index("h"), table.index("i")] and tokenizer.pieces[256] == user


def test_two_spellings_of_one_byte_level_token_are_refused_naming_both_ids():
    """' the' (a raw space) and 'Ġthe' are one token once spelled as bytes: one id was silently lost."""
    table = list(tk.byte_characters())
    with pytest.raises(ScenarioError, match=r"holds the token .*the twice \(ids 256 and 257\)"):
        tk.byte_level_bpe(table + ["Ġthe", " the"], [], "gpt2")


# attacker round 26: the space SentencePiece puts after a special token, llama.cpp's defaults for Llama 3 and
# Tekken, tokens matched as written
def test_sentencepiece_puts_its_space_after_each_special_token_and_the_text_is_not_refused():
    """llama.cpp (and a Llama 2 tokenizer.json's Prepend) put ▁ before each stretch of text, after <s> too:
    a chat template's "<s>[INST] …" was refused as read otherwise, where llama.cpp reads ▁[ (518)."""
    tokenizer = spm(["▁", "▁[", "["], [-1.0, -2.0, -3.0])
    pieces = [tokenizer.pieces[t.id] for t in tokenizer.encode("<s>[", bos=False)]
    assert pieces == ["<s>", "▁["]


@pytest.mark.parametrize("pre", ["llama-bpe", "tekken"])
def test_llama_3_and_tekken_look_a_word_up_whole(pre):
    table = list(tk.byte_characters())
    whole = tk.byte_level_bpe(table + ["ab"], [], pre)
    assert [whole.pieces[t.id] for t in whole.encode("ab")] == ["ab"]


def test_a_user_defined_token_of_gpt_2s_byte_characters_is_matched_and_spelled_as_written():
    """"naïve" is made of characters GPT-2 uses for bytes (ï is 0xEF's): it was spelled as bytes (na<EF>ve)
    and typing it was refused; llama.cpp matches it as one token."""
    table = list(tk.byte_characters())
    tokenizer = tk.byte_level_bpe(table + ["naïve"], [], "qwen2", types=[1] * 256 + [tk.USER_DEFINED])
    assert [t.id for t in tokenizer.encode("naïve", bos=False)] == [256]
    assert tokenizer.piece_bytes(256) == "naïve".encode()


def test_unknown_and_control_looking_tokens_are_one_token_when_typed_as_llama_cpp_reads_them():
    """llama.cpp matches <unk> (type unknown) and overrides the type of a control-looking token a file stores as
    normal (Gemma's <end_of_turn>): a chat template's end of turn was read as nine pieces."""
    tokenizer = spm(["▁", "a", "▁a", "<end_of_turn>"], [-3.0, -2.0, -1.0, -4.0])
    pieces = [tokenizer.pieces[t.id] for t in tokenizer.encode("a<end_of_turn><unk>", bos=False)]
    assert pieces == ["▁a", "<end_of_turn>", "<unk>"]


def test_a_byte_level_file_that_names_no_pre_tokenizer_is_split_as_llama_cpp_splits_it():
    """llama.cpp's default: punctuation runs, GPT-2's pattern, numbers, digits in threes (GPT-2's pattern alone
    read "a . b" as a ·. ·b and "12345" whole)."""
    table = list(tk.byte_characters())
    tokenizer = tk.byte_level_bpe(table + ["Ġ.", "Ġb", "34", "12"], ["Ġ .", "Ġ b", "3 4", "1 2"], "default")
    pieces = lambda text: [tokenizer.pieces[t.id] for t in tokenizer.encode(text, bos=False)]  # noqa: E731
    assert pieces("a . b") == ["a", "Ġ", ".", "Ġb"]  # GPT-2's: a Ġ. Ġb
    assert pieces("12345") == ["12", "3", "4", "5"]  # GPT-2's: 12 34 5


# attacker round 27
def test_a_normal_token_llama_cpp_reads_as_an_end_of_generation_is_matched_whole():
    """Qwen 2's vocabulary holds </s> as a normal token; llama.cpp makes it a control token (its end-of-generation
    names), and reads "Hello</s>world" as three tokens, not </ s >."""
    table = list(tk.byte_characters())
    tokenizer = tk.byte_level_bpe(table + ["</s>"], [], "qwen2", types=[1] * 257)
    assert [t.id for t in tokenizer.encode("a</s>b", bos=False)] == [table.index("a"), 256, table.index("b")]


def test_sentencepiece_puts_its_space_after_a_user_defined_token_too():
    """Phi-3's </s> is user-defined: "a</s>b" is a </s> ▁b in llama.cpp, and was refused as read otherwise."""
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + ["▁", "a", "b", "▁a", "▁b"]
    types = [2, tk.CONTROL, tk.USER_DEFINED] + [tk.BYTE] * 256 + [1] * 5
    tokenizer = tk.sentencepiece_bpe(tokens, [0.0] * 259 + [-5.0, -4.0, -3.0, -1.0, -2.0], types)
    assert [tokenizer.pieces[t.id] for t in tokenizer.encode("a</s>b", bos=False)] == ["▁a", "</s>", "▁b"]


def test_a_metaspace_that_puts_its_space_only_at_the_start_reads_a_space_after_an_added_token_as_the_texts():
    """Attacker round 28: a Hugging Face Llama 2-style tokenizer.json (Metaspace, prepend_scheme "first") puts ▁
    before the text only; "Hi<eos> there" was refused once a space after an added token was always taken for
    SentencePiece's own."""
    from tokenizers import Tokenizer as Backend
    from tokenizers import decoders, pre_tokenizers
    from tokenizers.models import BPE
    vocab = {t: i for i, t in enumerate(["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)),
                                         "▁", "t", "h", "▁t", "▁th"])}
    backend = Backend(BPE(vocab, [("▁", "t"), ("▁t", "h")], unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    backend.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    backend.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                         decoders.Strip(" ", 1, 0)])
    backend.add_special_tokens(["</s>"])
    tokenizer = tk.from_json(backend.to_str())
    for text in ("th</s> th", "th</s>th", "th</s>  th"):
        pieces = [tokenizer.pieces[t.id] for t in tokenizer.encode(text, bos=False)]
        assert "".join(pieces).replace("▁", " ").removeprefix(" ") == text, pieces


# attacker round 29: what the file asks to be put around a text, and Gemma's space before it
def spm_backend(post_processor: dict | None) -> str:
    """A tokenizer.json of a small SentencePiece vocabulary whose post-processor is `post_processor`."""
    from tokenizers import Tokenizer as Backend
    from tokenizers import decoders, pre_tokenizers
    from tokenizers.models import BPE
    vocab = {t: i for i, t in enumerate(["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)),
                                         "▁", "a", "▁a"])}
    backend = Backend(BPE(vocab, [("▁", "a")], unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    backend.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    backend.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                         decoders.Strip(" ", 1, 0)])
    backend.add_special_tokens(["<s>", "</s>"])
    document = json.loads(backend.to_str())
    document["post_processor"] = post_processor
    return json.dumps(document)


def template(single: str) -> dict:
    return {"type": "TemplateProcessing", "single": [
        {"Sequence": {"id": "A", "type_id": 0}} if word == "$A" else {"SpecialToken": {"id": word, "type_id": 0}}
        for word in single.split()], "pair": [], "special_tokens": {
        t: {"id": t, "ids": [{"<s>": 1, "</s>": 2}[t]], "tokens": [t]} for t in ("<s>", "</s>")}}


@pytest.mark.parametrize("single, ids", [("<s> $A", [1, 261]), ("<s> $A </s>", [1, 261, 2]),
                                         ("<s> <s> $A", [1, 1, 261]), ("$A </s>", [261, 2])])
def test_the_tokens_a_tokenizer_json_puts_around_a_text_are_put_there_as_transformers_puts_them(single, ids):
    """'<s> $A </s>' and '<s> <s> $A' were taken for no BOS at all: the model ran without its first token."""
    tokenizer = tk.from_json(spm_backend(template(single)))
    tokens = tokenizer.encode("a")
    assert [t.id for t in tokens] == ids == tokenizer.backend.encode("a").ids
    assert [t.id for t in tokenizer.encode("a", bos=False)] == [261]
    labels = tk.labels("a", tokens, tokenizer.pieces, tokenizer.bos)
    assert labels == [{1: tk.BOS_LABEL, 261: "a", 2: "</s>"}[i] if k == 0 or i != 1 else "<s>"
                      for k, i in enumerate(ids)]


@pytest.mark.parametrize("single", ["$A </s> $A", "<s> $A </s> $A"])
def test_a_post_processor_that_repeats_the_text_is_refused(single):
    """The library marks only the last $A as the text's: the first would have been taken for special tokens put
    before it. No way to tell which tokens are the text's."""
    with pytest.raises(ScenarioError, match="post-processor does more than put tokens before and after a text"):
        tk.from_json(spm_backend(template(single)))


def test_a_gguf_that_asks_for_an_eos_after_the_text_gets_one_as_llama_cpp_puts_it(tmp_path):
    from tests.gguf_writer import tiny_llama
    path = tmp_path / "eos.gguf"
    tiny_llama(path, metadata={"tokenizer.ggml.add_eos_token": True, "tokenizer.ggml.eos_token_id": 3,
                               "tokenizer.ggml.add_bos_token": True, "tokenizer.ggml.bos_token_id": 0})
    model = lm.load(str(path))
    encoded = lm.encode(model, "ab")
    assert encoded.ids[0] == 0 and encoded.ids[-1] == 3 and len(encoded.ids) == 3
    assert lm.encode(model, "ab", bos=False).ids == encoded.ids[1:-1]


@pytest.mark.parametrize("space_prefix, pieces", [(True, ["▁", "日"]), (False, ["日"])])
def test_gemmas_sentencepiece_puts_its_space_before_the_text_when_the_file_asks(space_prefix, pieces):
    """llama.cpp reads add_space_prefix for Gemma too (true where the file does not say); Gemma's converter
    writes false."""
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + ["▁", "日"]
    types = [2, tk.CONTROL, tk.CONTROL] + [tk.BYTE] * 256 + [1, 1]
    tokenizer = tk.sentencepiece_bpe(tokens, [0.0] * 261, types, gemma=True, space_prefix=space_prefix)
    assert [tokenizer.pieces[t.id] for t in tokenizer.encode("日", bos=False)] == pieces


# attacker round 30: a chat template's bos_token is the vocabulary's BOS, put first by the model or not (OLMo 2)
@pytest.mark.parametrize("bos", ["<s>", {"content": "<s>", "special": True}])
def test_a_chat_template_writes_the_bos_of_tokenizer_config_although_the_model_adds_none(bos):
    tokenizer = tk.from_json(spm_backend(None), chat_template="{{ bos_token }}|{{ messages[0]['content'] }}",
                             bos=bos)
    assert tokenizer.before == () and tokenizer.chat("a") == "<s>|a"
    assert [t.id for t in tokenizer.encode(tokenizer.chat("a"))] == [1, 127, 260]  # <s>, the byte |, a


def test_a_gguf_chat_template_writes_the_vocabulary_s_bos_although_the_model_adds_none(tmp_path):
    from tests.gguf_writer import tiny_llama
    path = tmp_path / "olmo.gguf"
    tiny_llama(path, metadata={"tokenizer.ggml.add_bos_token": False, "tokenizer.ggml.bos_token_id": 256,
                               "tokenizer.chat_template": "{{ bos_token }}{{ messages[0]['content'] }}"})
    model = lm.load(str(path))
    assert model.tokenizer.before == () and lm.encode(model, "ab").ids == (256,)
    assert lm.encode(model, "a", chat=True).ids[0] == 256  # "ab" (256) written by the template, then a


# attacker round 31: a Hugging Face folder's bos_token and eos_token as transformers gives them to its template
SPECIALS = "{{ bos_token }}|{{ eos_token }}|{{ messages[0]['content'] }}"


def test_a_template_gets_no_bos_or_eos_where_the_folder_names_none():
    tokenizer = tk.from_json(spm_backend(template("<s> $A")), chat_template=SPECIALS)
    assert tokenizer.before == (1,) and tokenizer.chat("a") == "||a"  # not the BOS the post-processor puts


@pytest.mark.parametrize("bos", ["<foo>", "a", "▁a", {"content": 5}, 7, ["<s>"]])
def test_a_bos_token_that_is_no_special_token_of_the_vocabulary_stops_the_template(bos):
    tokenizer = tk.from_json(spm_backend(None), chat_template=SPECIALS, bos=bos, eos="</s>")
    assert [t.id for t in tokenizer.encode("a")] == [261]  # the rest of the tokenizer as it is
    with pytest.raises(ScenarioError, match="its bos_token .* is not one of its vocabulary's special tokens: its "
                                            "chat template cannot be used"):
        tokenizer.chat("a")


def test_special_tokens_map_names_the_special_tokens_over_tokenizer_config(tmp_path):
    import shutil
    folder = tmp_path / "hf"
    shutil.copytree(GOLDEN_HF, folder)
    (folder / "chat_template.jinja").write_text(SPECIALS)
    assert lm.load(str(folder)).tokenizer.chat("a") == "<|begin_of_text|>|<|end_of_text|>|a"
    (folder / "special_tokens_map.json").write_text(json.dumps({"bos_token": {"content": "<|im_start|>"},
                                                                "eos_token": "<|im_end|>"}))
    assert lm.load(str(folder)).tokenizer.chat("a") == "<|im_start|>|<|im_end|>|a"


def test_a_label_writes_a_byte_that_is_no_character_in_hex_and_a_backslash_as_itself():
    from attnviz.core.lm.shown import hex_bytes
    assert hex_bytes(b"\xe3\x81") == "<E3 81>" and hex_bytes("猫".encode() + b"\xff") == "猫<FF>"
    assert hex_bytes(b"\\xff") == "\\xff" and hex_bytes(b'print("\\x1b")') == 'print("\\x1b")'
