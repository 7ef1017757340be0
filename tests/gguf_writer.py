"""Small GGUF files for the tests: metadata and tensors written as llama.cpp lays them out."""
from __future__ import annotations

import struct

import numpy as np

TYPES = {int: 5, float: 6, bool: 7, str: 8}  # int32, float32, bool, string


def _string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def _value(value) -> bytes:
    if isinstance(value, list):
        kind = TYPES[type(value[0])] if value else 8
        return struct.pack("<IQ", kind, len(value)) + b"".join(_scalar(v) for v in value)
    return _scalar(value)


def _scalar(value) -> bytes:
    if isinstance(value, bool):
        return struct.pack("<?", value)
    if isinstance(value, int):
        return struct.pack("<i", value)
    if isinstance(value, float):
        return struct.pack("<f", value)
    return _string(value)


def quantize(values: np.ndarray, kind: int) -> bytes:
    """Blocks of 32 as llama.cpp stores them (Q8_0, Q4_0, Q4_1), or plain F32/F16."""
    x = np.asarray(values, dtype=np.float32).reshape(-1)
    if kind == 0:
        return x.tobytes()
    if kind == 1:
        return x.astype(np.float16).tobytes()
    blocks = x.reshape(-1, 32)
    out = bytearray()
    for b in blocks:
        if kind == 8:
            d = np.float16(np.abs(b).max() / 127 or 1)
            out += d.tobytes() + np.round(b / np.float32(d)).astype(np.int8).tobytes()
        elif kind == 2:
            d = np.float16(np.abs(b).max() / 8 or 1)
            q = np.clip(np.round(b / np.float32(d)) + 8, 0, 15).astype(np.uint8)
            out += d.tobytes() + (q[:16] | (q[16:] << 4)).tobytes()
        elif kind == 3:
            lo, hi = b.min(), b.max()
            d, m = np.float16((hi - lo) / 15 or 1), np.float16(lo)
            q = np.clip(np.round((b - np.float32(m)) / np.float32(d)), 0, 15).astype(np.uint8)
            out += d.tobytes() + m.tobytes() + (q[:16] | (q[16:] << 4)).tobytes()
    return bytes(out)


def write(path, metadata: dict, tensors: dict[str, tuple[np.ndarray, int]], version: int = 3,
          alignment: int = 32) -> None:
    """`tensors`: name -> (array in numpy order, ggml type)."""
    header = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(metadata))
    for key, value in metadata.items():
        kind = 9 if isinstance(value, list) else TYPES[type(value)]
        header += _string(key) + struct.pack("<I", kind) + _value(value)
    data, infos = b"", b""
    for name, (array, kind) in tensors.items():
        blob = quantize(array, kind)
        offset = -(-len(data) // alignment) * alignment
        data = data.ljust(offset, b"\0") + blob
        dims = array.shape[::-1]
        infos += _string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims) + \
            struct.pack("<IQ", kind, offset)
    head = header + infos
    head = head.ljust(-(-len(head) // alignment) * alignment, b"\0")
    with open(path, "wb") as f:
        f.write(head + data)


def tiny_llama(path, layers=2, d=64, heads=4, kv_heads=2, ff=96, seed=0,
               kind=3, arch="llama") -> None:
    """A random llama of the smallest shapes, with a byte-level vocabulary (every byte plus a
    few merges), so that any text tokenises."""
    from attnviz.core.tokenizer import byte_characters
    rng = np.random.default_rng(seed)
    tokens = list(byte_characters()) + ["ab", "Ġa"]
    merges = ["a b", "Ġ a"]
    d_head = d // heads
    metadata = {"general.architecture": arch, "general.name": "tiny", "llama.block_count": layers,
                "llama.context_length": 64, "llama.embedding_length": d, "llama.feed_forward_length": ff,
                "llama.attention.head_count": heads, "llama.attention.head_count_kv": kv_heads,
                "llama.rope.freq_base": 10000.0, "llama.attention.layer_norm_rms_epsilon": 1e-5,
                "tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "smollm", "tokenizer.ggml.tokens": tokens,
                "tokenizer.ggml.merges": merges, "tokenizer.ggml.add_bos_token": False}
    w = lambda *shape: (rng.normal(0, 0.3, shape).astype(np.float32), kind)  # noqa: E731
    tensors = {"token_embd.weight": w(len(tokens), d), "output_norm.weight": (np.ones(d, np.float32), 0)}
    for i in range(layers):
        tensors.update({f"blk.{i}.attn_norm.weight": (np.ones(d, np.float32), 0),
                        f"blk.{i}.attn_q.weight": w(d, d), f"blk.{i}.attn_k.weight": w(kv_heads * d_head, d),
                        f"blk.{i}.attn_v.weight": w(kv_heads * d_head, d), f"blk.{i}.attn_output.weight": w(d, d),
                        f"blk.{i}.ffn_norm.weight": (np.ones(d, np.float32), 0), f"blk.{i}.ffn_gate.weight": w(ff, d),
                        f"blk.{i}.ffn_up.weight": w(ff, d), f"blk.{i}.ffn_down.weight": w(d, ff)})
    write(path, metadata, tensors)
