"""Dump a Hugging Face model's attention for AttnViz.

Run it in your own environment, where the model lives (AttnViz itself never needs torch
or transformers):

    pip install torch transformers numpy
    python dump_attention.py --model gpt2 --text "The cat sat on the mat." --out cat.npz
    attnviz cat.npz                  # then pick the layer in the toolbar

It writes `tokens` (strings), `weights` (layers × heads × tokens × tokens) and `causal` (whether
each token sees only the tokens before it: true for GPT-style decoders, false for BERT-style
encoders; AttnViz draws the mask accordingly), the format AttnViz opens (see docs/user.md, "Your
own model"). Only numbers and strings: no pickles.
"""
import argparse
import os
import sys

MAX_TOKEN_LENGTH = 40  # AttnViz's limit for one token's text
NAME = "dump_attention.py"


def readable(tokenizer, ids):
    """Each token as text a person can read: 'Ġcat' -> 'cat', a bare space -> '␣'."""
    texts = []
    for i in ids:
        text = tokenizer.decode([i]).strip() or "␣"
        texts.append(text[:MAX_TOKEN_LENGTH])
    return texts


def is_causal(model) -> bool:
    """Decoders (GPT-2, Llama, ...) hide the future; encoders (BERT, MiniLM, ...) do not."""
    config = model.config
    if getattr(config, "is_decoder", False):
        return True
    return config.model_type not in ENCODERS and not getattr(config, "is_encoder_decoder", False)


ENCODERS = {"bert", "roberta", "distilbert", "albert", "electra", "deberta", "deberta-v2", "xlm-roberta", "mpnet"}


def fail(message: str) -> int:
    """One line on stderr, exit status 2: no traceback."""
    print(f"{NAME}: error: {message}", file=sys.stderr)
    return 2


def first_line(error: BaseException) -> str:
    text = " ".join(str(error).split("\n", 1)[0].split()) or type(error).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=NAME, description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a model name on the Hub or a local folder")
    parser.add_argument("--text", required=True, help="the sentence to look at")
    parser.add_argument("--out", required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):  # before the model is fetched and run, not after
        return fail(f"cannot write {args.out}: the folder {folder} does not exist")
    try:
        import numpy as np
        import torch
        from transformers import AutoModel, AutoTokenizer
    except ImportError as e:
        return fail(f"{e.name or first_line(e)} is not installed here: pip install torch transformers numpy")
    try:
        tokenizer = AutoTokenizer.from_pretrained(args.model)
        # "eager" attention returns the weights (the fused kernels do not).
        model = AutoModel.from_pretrained(args.model, attn_implementation="eager").eval()
    except Exception as e:  # noqa: BLE001 (no network, no such model, not a model's folder: each says why)
        return fail(f"cannot load the model '{args.model}': {first_line(e)} (check its name and the network, "
                    "or give the folder of a downloaded model; with HF_HUB_OFFLINE=1 only the Hub's cache is used)")
    inputs = tokenizer(args.text, return_tensors="pt")
    with torch.no_grad():
        outputs = model(**inputs, output_attentions=True)
    weights = torch.stack(outputs.attentions)[:, 0].double().numpy()  # [layers, heads, n, n]
    weights /= weights.sum(axis=-1, keepdims=True)  # rows of exactly 1 after the model's rounding
    weights = weights.astype(np.float32)  # half the file, and plenty for a picture
    tokens = readable(tokenizer, inputs["input_ids"][0].tolist())
    try:
        np.savez_compressed(args.out, tokens=np.array(tokens), weights=weights, causal=np.array(is_causal(model)),
                            head_names=np.array([f"head {h}" for h in range(weights.shape[1])]))
    except OSError as e:
        return fail(f"cannot write {args.out}: {e.strerror or first_line(e)}")
    print(f"{args.out}: {weights.shape[0]} layers × {weights.shape[1]} heads × {len(tokens)} tokens")
    return 0


if __name__ == "__main__":
    sys.exit(main())
