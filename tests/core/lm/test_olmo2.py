"""OLMo 2 beyond its golden numbers (test_families.py): what its block has not (a norm before attention)
and the OLMo 3 files that llama.cpp writes under its name."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFReader, GGUFValueType, GGUFWriter

from attnviz.core import lm
from attnviz.core.files import FileProblem

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "families" / "olmo2"


def test_olmo_2s_ln1_is_the_stream_itself_and_a_written_one_is_what_q_k_v_are_projected_from():
    model = lm.load(str(GOLDEN / "hf"))
    ids = lm.encode(model, "The cat ate the fish. It was fresh.").ids
    kept = lm.run(model, ids, keep=frozenset({"blocks.1.resid_pre", "blocks.1.ln1"}))
    assert np.array_equal(kept.cache["blocks.1.ln1"], kept.cache["blocks.1.resid_pre"])
    plain = lm.run(model, ids)
    # (2 x would change nothing: q and k are normed, and so is what v gives attention's output)
    shifted = lm.run(model, ids, writes={"blocks.1.ln1": lambda x, cache: x + 1})
    assert not np.allclose(shifted.probs, plain.probs, atol=1e-4)  # written, then read by the projection


def test_an_olmo2_gguf_with_sliding_windows_olmo_3_is_refused_naming_the_file(tmp_path):
    """llama.cpp writes OLMo 3 as general.architecture olmo2 with attention.sliding_window: run without the
    windows, its numbers would be another model's."""
    source, path = GGUFReader(GOLDEN / "olmo2-f32.gguf"), tmp_path / "olmo3.gguf"
    writer = GGUFWriter(path, "olmo2")
    for name, field in source.fields.items():
        if name.startswith("GGUF.") or name == "general.architecture":
            continue
        kind = field.types[0]
        writer.add_key_value(name, field.contents(), kind,
                             sub_type=field.types[-1] if kind == GGUFValueType.ARRAY else None)
    writer.add_uint32("olmo2.attention.sliding_window", 4096)
    for t in source.tensors:
        writer.add_tensor(t.name, np.array(t.data))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(FileProblem, match=r"olmo3\.gguf: has sliding-window layers \(OLMo 3\)"):
        lm.load(str(path))
    assert lm.load(str(GOLDEN / "olmo2-f32.gguf")).config.family == "olmo2"
