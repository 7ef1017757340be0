"""Writes tests/golden/hooks/<family>.npz: every hook point's array (attnviz/core/lm/hooks.py) as PyTorch
forward hooks on transformers' own model read it, for the tiny random Llama and Gemma 3 of
tests/golden/families/<family>/hf (Gemma 3: QK-norm, a norm after attention and after the feed-forward,
sliding windows of 4 tokens in five of its six layers).

Each array is named as AttnViz names the point ("blocks.1.attn.pattern") and shaped as hooks.py says,
kept in float32 from a model run in float64; "ids" holds the token ids read. How each is read:

    embed            model.embed_tokens's output (Gemma 3's scales by √d inside it)
    resid_pre        the decoder layer's input hidden_states
    ln1              input_layernorm's output
    attn.q, attn.k   q_proj / k_proj's output per head, through q_norm / k_norm (Gemma 3) and
                     transformers' apply_rotary_pos_emb with the layer's cos and sin; q times
                     scaling · √head_dim (1 here: Gemma 3's query_pre_attn_scalar is its head_dim)
    attn.v           v_proj's output per head; K/V heads repeated for the query heads reading them
    attn.scores      q kᵀ / √head_dim of those, before the mask
    attn.pattern     the eager attention's weights (output_attentions)
    attn.z           o_proj's input per head
    attn.out         o_proj's output (Llama); post_attention_layernorm's output (Gemma 3)
    resid_mid        the input of the norm before the feed-forward (post_attention_layernorm in Llama,
                     pre_feedforward_layernorm in Gemma 3)
    mlp.out          mlp's output (Llama); post_feedforward_layernorm's output (Gemma 3)
    resid_post       the decoder layer's output
    ln_final         model.norm's output
    logits           the model's logits

and a steering vector's effect: steer_logits, the logits with steer_alpha · steer_direction added to the
hidden states entering layer steer_layer (a forward pre-hook on that decoder layer), as
hooks={"blocks.L.resid_pre": api.add(direction, alpha)} adds it.

Run offline in the throwaway environment of tools/family_reference.py (torch 2.13.0+cpu, transformers):

    HF_HUB_OFFLINE=1 /tmp/ref/A/bin/python tools/hooks_reference.py
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "golden" / "hooks"
IDS = [1, 17, 250, 33, 70, 101, 7, 300, 45, 12, 250, 33]  # 12 tokens: past Gemma 3's window of 4
FAMILIES = ("llama", "gemma3")
STEER_LAYER, STEER_ALPHA = 1, 3.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import numpy as np

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for family in FAMILIES:
        hooked = Hooked(ROOT / "tests" / "golden" / "families" / family / "hf", family == "gemma3")
        arrays = hooked.read(IDS)
        direction = np.random.default_rng(0).normal(size=hooked.model.config.hidden_size)
        arrays["steer_logits"] = hooked.steered(IDS, STEER_LAYER, direction, STEER_ALPHA)
        np.savez_compressed(out / f"{family}.npz", ids=np.array(IDS), steer_layer=STEER_LAYER, steer_alpha=STEER_ALPHA,
                            steer_direction=direction.astype(np.float32),
                            **{name: a.astype(np.float32) for name, a in arrays.items()})
        print(family, len(arrays), "arrays")


class Hooked:
    """transformers' model of a folder in float64, eager attention, read through forward hooks. torch and
    transformers are imported here: transformers reads HF_HUB_OFFLINE when imported, and main() sets it."""

    def __init__(self, folder: Path, gemma: bool):
        import torch
        from transformers import AutoModelForCausalLM

        self.torch, self.gemma = torch, gemma
        torch.set_grad_enabled(False)
        self.model = AutoModelForCausalLM.from_pretrained(str(folder), attn_implementation="eager",
                                                          dtype=torch.float64).eval()
        self.kept: dict = {}

    def read(self, ids: list[int]) -> dict:
        handles = self._hooks()
        try:
            out = self.model(self.torch.tensor([ids]), use_cache=False, output_attentions=True)
        finally:
            for h in handles:
                h.remove()
        qk = self._qk()  # takes the projections and RoPE's cos and sin out of what was kept
        arrays = {name: value.numpy() for name, value in self.kept.items()}
        for layer, pattern in enumerate(out.attentions):
            arrays[f"blocks.{layer}.attn.pattern"] = pattern[0].numpy()
        arrays["logits"] = out.logits[0].numpy()
        return {**arrays, **qk}

    def steered(self, ids: list[int], layer: int, direction, alpha: float):
        """The logits with alpha · direction added to the hidden states entering `layer`."""
        add = self.torch.tensor(direction) * alpha

        def hook(m, args, kwargs):
            if args:
                return (args[0] + add,) + tuple(args[1:]), kwargs
            return args, {**kwargs, "hidden_states": kwargs["hidden_states"] + add}
        handle = self.model.model.layers[layer].register_forward_pre_hook(hook, with_kwargs=True)
        try:
            return self.model(self.torch.tensor([ids]), use_cache=False).logits[0].numpy()
        finally:
            handle.remove()

    def _keep(self, name, value) -> None:
        self.kept[name] = value[0].detach().clone()

    def _hooks(self) -> list:
        inner = self.model.model
        hooks = [inner.embed_tokens.register_forward_hook(lambda m, a, o: self._keep("embed", o)),
                 inner.norm.register_forward_hook(lambda m, a, o: self._keep("ln_final", o))]
        for i, layer in enumerate(inner.layers):
            hooks += self._layer_hooks(i, layer)
        return hooks

    def _layer_hooks(self, i: int, layer) -> list:
        p, attn = f"blocks.{i}.", layer.self_attn
        heads = self.model.config.num_attention_heads

        def z(m, a):
            self.kept[p + "attn.z"] = a[0][0].reshape(a[0].shape[1], heads, -1).transpose(0, 1).clone()

        def attention(m, args, kwargs):
            self.kept[p + "cos_sin"] = kwargs["position_embeddings"]
        out_norm = layer.post_attention_layernorm
        ffn_norm = layer.pre_feedforward_layernorm if self.gemma else layer.post_attention_layernorm
        hooks = [
            layer.register_forward_pre_hook(lambda m, a, k: self._keep(p + "resid_pre", k.get("hidden_states",
                                                                                         a[0] if a else None)),
                                            with_kwargs=True),
            layer.register_forward_hook(lambda m, a, o: self._keep(p + "resid_post", o[0] if isinstance(o, tuple)
                                                                   else o)),
            layer.input_layernorm.register_forward_hook(lambda m, a, o: self._keep(p + "ln1", o)),
            attn.register_forward_pre_hook(attention, with_kwargs=True),
            attn.o_proj.register_forward_pre_hook(z),
            ffn_norm.register_forward_pre_hook(lambda m, a: self._keep(p + "resid_mid", a[0])),
            (out_norm if self.gemma else attn.o_proj).register_forward_hook(
                lambda m, a, o: self._keep(p + "attn.out", o)),
            (layer.post_feedforward_layernorm if self.gemma else layer.mlp).register_forward_hook(
                lambda m, a, o: self._keep(p + "mlp.out", o)),
        ]
        for name in ("q", "k", "v"):
            hooks.append(getattr(attn, f"{name}_proj").register_forward_hook(
                lambda m, a, o, name=name: self._keep(p + f"{name}_proj", o)))
        return hooks

    def _qk(self) -> dict:
        """q and k after their norms and RoPE, v, once per query head, and the scores: worked out from the
        projections kept, by transformers' own functions."""
        import importlib
        torch, config = self.torch, self.model.config
        rotary = importlib.import_module(type(self.model).__module__).apply_rotary_pos_emb
        heads, kv, d = config.num_attention_heads, config.num_key_value_heads, config.head_dim
        out = {}
        for i, layer in enumerate(self.model.model.layers):
            p, attn = f"blocks.{i}.", layer.self_attn
            q, k, v = (self.kept.pop(p + f"{m}_proj").reshape(len(IDS), n, d).transpose(0, 1)
                       for m, n in (("q", heads), ("k", kv), ("v", kv)))
            if self.gemma:
                q, k = attn.q_norm(q), attn.k_norm(k)
            cos, sin = self.kept.pop(p + "cos_sin")
            q, k = rotary(q[None], k[None], cos, sin)
            q, (k, v) = q[0] * attn.scaling * d ** 0.5, (torch.repeat_interleave(m[0] if m.dim() == 4 else m,
                                                                                  heads // kv, dim=0) for m in (k, v))
            out |= {p + "attn.q": q.numpy(), p + "attn.k": k.numpy(), p + "attn.v": v.numpy(),
                    p + "attn.scores": (q @ k.transpose(-1, -2) / d ** 0.5).numpy()}
        return out


if __name__ == "__main__":
    main()
