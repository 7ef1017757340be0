"""Dump a Hugging Face model's attention for AttnViz.

Run it in your own environment, where the model lives (AttnViz itself never needs torch
or transformers):

    pip install torch transformers numpy
    python dump_attention.py --model gpt2 --text "The cat sat on the mat." --out cat.npz
    attnviz cat.npz                  # then pick the layer in the toolbar

It writes `tokens` (strings), `weights` (layers × heads × tokens × tokens) and `causal` (whether
each token sees only the tokens before it: true for GPT-style decoders, false for BERT-style
encoders; AttnViz draws the mask accordingly), the format AttnViz opens (see the README, "Your
own model"). Only numbers and strings: no pickles.
"""
import argparse

import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer

MAX_TOKEN_LENGTH = 40  # AttnViz's limit for one token's text


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a model name on the Hub or a local folder")
    parser.add_argument("--text", required=True, help="the sentence to look at")
    parser.add_argument("--out", required=True, help="the .npz file to write")
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    # "eager" attention returns the weights (the fused kernels do not).
    model = AutoModel.from_pretrained(args.model, attn_implementation="eager").eval()
    inputs = tokenizer(args.text, return_tensors="pt")
    with torch.no_grad():
        outputs = model(**inputs, output_attentions=True)
    weights = torch.stack(outputs.attentions)[:, 0].double().numpy()  # [layers, heads, n, n]
    weights /= weights.sum(axis=-1, keepdims=True)  # rows of exactly 1 after the model's rounding
    weights = weights.astype(np.float32)  # half the file, and plenty for a picture
    tokens = readable(tokenizer, inputs["input_ids"][0].tolist())
    np.savez_compressed(args.out, tokens=np.array(tokens), weights=weights, causal=np.array(is_causal(model)),
                        head_names=np.array([f"head {h}" for h in range(weights.shape[1])]))
    print(f"{args.out}: {weights.shape[0]} layers × {weights.shape[1]} heads × {len(tokens)} tokens")


if __name__ == "__main__":
    main()
