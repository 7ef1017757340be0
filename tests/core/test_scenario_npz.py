"""Scenarios as a compact .npz: what is exported opens again, and it is written in small pieces."""
import io

import numpy as np

from attnviz.core import compute, load_preset, load_scenario
from attnviz.core.formats.npz import WRITE_CHUNK, writer
from attnviz.core.io import save_data


def test_exported_npz_data_opens_again_with_the_same_vectors(tmp_path):
    s = load_preset("seed-demo")  # heads of different widths: stored per head
    save_data(s, compute(s).weights(), tmp_path / "data.npz")
    back = load_scenario(tmp_path / "data.npz")
    assert back.tokens == s.tokens and [h.name for h in back.heads] == [h.name for h in s.heads]
    for a, b in zip(back.heads, s.heads):
        np.testing.assert_array_equal(a.q, b.q)
        np.testing.assert_array_equal(a.v, b.v)


def test_a_compact_file_is_written_in_small_pieces_that_numpy_reads_back(tmp_path):
    """Autosave writes .npz on a worker thread: no piece may hold Python's lock for long (np.savez
    copies 16 MB at once), and the file is what np.savez would write."""

    class Recording(io.BytesIO):
        sizes: list = []

        def write(self, data):
            self.sizes.append(len(data))
            return super().write(data)

    big = np.random.default_rng(0).normal(size=(4, 300_000))  # 9.6 MB
    arrays = {"q": big, "tokens": np.array(["猫", "が"]), "empty": np.zeros((0, 3)), "temperature": np.array(0.5),
              "turned": np.asfortranarray(big[:, :10])}
    out = Recording()
    writer(arrays)(out)
    assert max(out.sizes) <= WRITE_CHUNK + 1024
    back = np.load(io.BytesIO(out.getvalue()))
    for name, array in arrays.items():
        np.testing.assert_array_equal(back[name], array)
        assert back[name].shape == array.shape  # a single value stays a single value, as np.savez writes it
