"""GGUF files of the models people have on their disks, in their real shapes, with random weights
(issue 48): the tests and `make bench` open 1–4B models without downloading one.

Each file takes its family's settings and tokenizer from the tiny golden file of that family
(tests/golden/families), its sizes from SHAPES, and its vocabulary padded to the real size with
reserved tokens. The weights are written by `gguf`'s own GGUFWriter as random blocks of the chosen
type whose scales are set so that the values are N(0, ~0.02)-sized, as a trained model's are; the
blocks are made as they are written, a few MB at a time, so writing a 4B file holds little memory.

    .venv/bin/python bench/shapes.py llama-1b Q4_K /tmp/llama-1b.gguf
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GOLDEN = ROOT / "tests" / "golden" / "families"

# config sizes as the models' own config.json files give them
SHAPES = {
    "llama-1b": ("llama", {"block_count": 16, "embedding_length": 2048, "feed_forward_length": 8192,
                           "attention.head_count": 32, "attention.head_count_kv": 8, "vocab": 128_256}),
    "qwen2-1.5b": ("qwen2", {"block_count": 28, "embedding_length": 1536, "feed_forward_length": 8960,
                             "attention.head_count": 12, "attention.head_count_kv": 2, "vocab": 151_936}),
    "gemma3-1b": ("gemma3", {"block_count": 26, "embedding_length": 1152, "feed_forward_length": 6912,
                             "attention.head_count": 4, "attention.head_count_kv": 1, "attention.key_length": 256,
                             "vocab": 262_144}),
    "llama-3b": ("llama", {"block_count": 28, "embedding_length": 3072, "feed_forward_length": 8192,
                           "attention.head_count": 24, "attention.head_count_kv": 8, "vocab": 128_256}),
    "gemma3-4b": ("gemma3", {"block_count": 34, "embedding_length": 2560, "feed_forward_length": 10240,
                             "attention.head_count": 8, "attention.head_count_kv": 4, "attention.key_length": 256,
                             "vocab": 262_144}),
}
SPREAD = 0.02      # the weights' standard deviation, about


def write(name: str, kind: str, path: Path, seed: int = 0) -> Path:
    """The file of SHAPES[name] with weights of type `kind` (Q8_0, Q4_K or F16; norms F32) at `path`."""
    return write_sized(*SHAPES[name], kind, path, seed)


def write_sized(family: str, sizes: dict, kind: str, path: Path, seed: int = 0) -> Path:
    """A file of `family` with `sizes` (as SHAPES gives them) and weights of type `kind` at `path`."""
    import gguf

    from attnviz.core.gguf import GGUF
    golden = GGUF(GOLDEN / family / f"{family}-f32.gguf")
    try:
        writer = gguf.GGUFWriter(str(path), family)
        _metadata(writer, golden, family, sizes)
        _tensors(writer, family, golden, sizes, kind, np.random.default_rng(seed))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
    finally:
        golden.close()
    return path


def _metadata(writer, golden, family: str, sizes: dict) -> None:
    """The golden file's metadata with the real sizes, its vocabulary lists padded to sizes["vocab"]."""
    from gguf import GGUFValueType as V
    real = {**{k: v for k, v in sizes.items() if k != "vocab"}, "attention.key_length": _d_head(sizes),
            "attention.value_length": _d_head(sizes), "rope.dimension_count": _d_head(sizes),
            "context_length": 8192, "vocab_size": sizes["vocab"]}
    types = {0: V.UINT8, 1: V.INT8, 2: V.UINT16, 3: V.INT16, 4: V.UINT32, 5: V.INT32, 6: V.FLOAT32, 7: V.BOOL,
             8: V.STRING, 10: V.UINT64, 11: V.INT64, 12: V.FLOAT64}
    for key, f in golden.fields.items():
        if key in ("general.architecture", "general.alignment"):
            continue
        short = key.removeprefix(f"{family}.")
        value = real[short] if short != key and short in real else golden.value(key)
        if f.is_list:
            writer.add_key_value(key, _padded(key, value, sizes["vocab"]), V.ARRAY, sub_type=types[f.item])
        else:
            writer.add_key_value(key, value, types[f.kind])


def _d_head(sizes: dict) -> int:
    return sizes.get("attention.key_length", sizes["embedding_length"] // sizes["attention.head_count"])


def _padded(key: str, value: list, vocab: int) -> list:
    """A per-token list grown to `vocab` entries (reserved control tokens); merges left as they are."""
    extra = vocab - len(value)
    if key == "tokenizer.ggml.tokens":
        return value + [f"<|reserved_{i}|>" for i in range(extra)]
    if key == "tokenizer.ggml.token_type":
        return value + [3] * extra   # control: never made from text
    if key == "tokenizer.ggml.scores":
        return value + [0.0] * extra
    return value


def _tensors(writer, family: str, golden, sizes: dict, kind: str, rng) -> None:
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType

    from attnviz.core.lm import gguf_file
    config = replace(gguf_file._config(golden), n_layers=sizes["block_count"], d=sizes["embedding_length"],
                     d_ff=sizes["feed_forward_length"], n_heads=sizes["attention.head_count"],
                     n_kv_heads=sizes["attention.head_count_kv"], d_head=_d_head(sizes), sliding=())
    for name, shape in gguf_file.expected_shapes(config, sizes["vocab"], {}).items():
        if len(shape) == 1:  # norms and biases: F32, norms near 1 (Gemma's stored as 1 + w already)
            base = 0.0 if name.endswith("bias") else 1.0
            writer.add_tensor(name, (base + 0.05 * rng.standard_normal(shape)).astype(np.float32))
            continue
        rows, cols = shape
        chosen = kind if cols % GGML_QUANT_SIZES[GGMLQuantizationType[kind]][0] == 0 else "Q8_0"  # as llama.cpp
        quant = GGMLQuantizationType[chosen]  # falls back where a row is not whole blocks (Gemma 3 1B's 1,152)
        per_block, block_bytes = GGML_QUANT_SIZES[quant]
        writer.add_tensor(name, _Blocks(chosen, rows, cols // per_block * block_bytes, rng), raw_dtype=quant)


class _Blocks:
    """A quantised matrix's bytes, made as they are written (what GGUFWriter asks of an array: its dtype,
    shape, size, and tofile)."""

    dtype = np.dtype(np.uint8)

    def __init__(self, kind: str, rows: int, row_bytes: int, rng):
        self.kind, self.shape, self.rng = kind, (rows, row_bytes), rng
        self.nbytes = rows * row_bytes

    def tofile(self, f) -> None:
        rows, row_bytes = self.shape
        step = max(1, (8 << 20) // row_bytes)
        for lo in range(0, rows, step):
            f.write(random_blocks(self.kind, min(step, rows - lo) * row_bytes, self.rng).tobytes())


def random_blocks(kind: str, nbytes: int, rng) -> np.ndarray:
    """`nbytes` of blocks of type `kind` (Q8_0, Q4_K, F16) whose values spread about ±SPREAD."""
    if kind == "F16":
        return (SPREAD * rng.standard_normal(nbytes // 2, dtype=np.float32)).astype(np.float16).view(np.uint8)
    blocks = rng.integers(0, 256, nbytes, dtype=np.uint8)
    if kind == "Q8_0":    # d · q, q uniform in −128..127 (σ ≈ 74)
        blocks = blocks.reshape(-1, 34)
        blocks[:, :2] = np.full((len(blocks), 1), SPREAD / 74, np.float16).view(np.uint8)
    elif kind == "Q4_K":  # d · scale · q − dmin · min, scales and q uniform (σ ≈ 143 d): dmin centres them
        blocks = blocks.reshape(-1, 144)
        d = SPREAD / 143
        blocks[:, :4] = np.tile(np.array([d, 7.5 * d], np.float16), (len(blocks), 1)).view(np.uint8)
    else:
        raise ValueError(f"{kind}: write Q8_0, Q4_K or F16")
    return blocks.reshape(-1)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in SHAPES:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(SHAPES)}}} {{Q8_0,Q4_K,F16}} FILE.gguf")
    print(write(sys.argv[1], sys.argv[2], Path(sys.argv[3])))
