"""Scenario files: exact round trips, atomic writes, and a clear message for every broken file."""
import io
import json
import os

import numpy as np
import pytest

from attnviz.core import ScenarioError, list_presets, load_preset, load_scenario, save_scenario
from attnviz.core.files import atomic_write
from attnviz.core.io import save_data, scenario_to_dict
from attnviz.core.scenario import same_scenario, with_value


@pytest.mark.parametrize("preset", [p.id for p in list_presets()])
def test_every_preset_round_trips_through_a_file_exactly(tmp_path, preset):
    s = load_preset(preset)
    save_scenario(s, tmp_path / "s.json")
    assert same_scenario(load_scenario(tmp_path / "s.json"), s)


def test_awkward_floats_survive_a_round_trip_bit_for_bit(tmp_path):
    s = with_value(load_preset("toy-3token"), 0, "q", 0, 0, 0.1 + 0.2)
    save_scenario(s, tmp_path / "s.json")
    assert load_scenario(tmp_path / "s.json").heads[0].q[0, 0] == 0.1 + 0.2


def test_the_file_names_its_format_and_version(tmp_path):
    save_scenario(load_preset("toy-3token"), tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert doc["format"] == "attnviz-scenario" and doc["version"] == 1


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "s.json"
    target.write_text("old")

    def full_disk(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(ScenarioError, match="No space left"):
        atomic_write(target, b"new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["s.json"]


def test_a_saved_file_gets_the_usual_permissions_not_private_ones(tmp_path):
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "new.json", b"{}")
    finally:
        os.umask(umask)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o644


def test_writing_into_a_missing_folder_says_so(tmp_path):
    with pytest.raises(ScenarioError, match="does not exist"):
        save_scenario(load_preset("toy-3token"), tmp_path / "nope" / "s.json")


def write(tmp_path, content, name="s.json"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def valid_document():
    return scenario_to_dict(load_preset("toy-3token"))


def broken(**changes):
    doc = valid_document()
    for key, value in changes.items():
        doc[key] = value
    return json.dumps(doc)


@pytest.mark.parametrize("content, message", [
    ('{"format": "attnviz-scenario", "version": 1, "tok', "broken JSON at line 1"),
    ("[1, 2]", "not an AttnViz scenario"),
    (broken(version=2), "newer AttnViz.*version 2"),
    (broken(tokens=[]), "no tokens"),
    (broken(tokens="猫魚"), '"tokens" must be a list'),
    (broken(heads=[]), "no heads"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "q": [[0, 2], [2, 0]]}]}),
     r"q has shape \(2 × 2\) but there are 3 tokens"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "k": [[2, 0], [0, "x"], [1, 1]]}]}),
     r"k, row 2, column 2: 'x' is not a number"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "v": [[2, 0], [0], [1, 1]]}]}),
     "rows have different lengths"),
    (broken(settings={"temperature": "hot"}), "temperature"),
    (b"\xff\xfe\x00garbage", "not a text file"),
])
def test_broken_files_are_refused_with_a_message_naming_the_problem(tmp_path, content, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, content))


def test_nan_in_a_file_is_refused_with_its_place(tmp_path):
    text = json.dumps(valid_document()).replace("[0.0, 2.0]", "[NaN, 2.0]", 1)
    with pytest.raises(ScenarioError, match=r"q, row 1 \(猫\), column 1: nan"):
        load_scenario(write(tmp_path, text))


def test_a_missing_file_a_folder_and_an_unreadable_file_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "missing.json")
    with pytest.raises(ScenarioError, match="is a folder"):
        load_scenario(tmp_path)
    locked = write(tmp_path, json.dumps(valid_document()))

    real_open = os.open

    def denied(path, *args, **kwargs):  # chmod 000 does not stop root, which CI may run as
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(ScenarioError, match="permission denied"):
        load_scenario(locked)


def test_a_file_far_too_large_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(200 * 1024 * 1024)  # sparse: 200 MB on paper, nothing on disk
    with pytest.raises(ScenarioError, match="too large"):
        load_scenario(big)


def npz(tmp_path, **arrays):
    path = tmp_path / "model.npz"
    np.savez(path, **arrays)
    return path


def test_q_k_v_load_from_an_npz_of_heads(tmp_path):
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 2, 4, 5))
    s = load_scenario(npz(tmp_path, tokens=np.array(["a", "b", "c", "d"]), q=q, k=k, v=v))
    assert s.tokens == ("a", "b", "c", "d") and len(s.heads) == 2
    np.testing.assert_array_equal(s.heads[1].k, k[1])


@pytest.mark.parametrize("arrays, message", [
    (dict(q=np.zeros((2, 2)), k=np.zeros((2, 2)), v=np.zeros((2, 2))), "tokens"),
    (dict(tokens=np.array(["a", "b"]), q=np.zeros((2, 2)), k=np.zeros((2, 2))), "'v'"),
    (dict(tokens=np.array(["a", "b"]), q=np.zeros((2, 2)), k=np.zeros((3, 2)), v=np.zeros((2, 2))),
     "'k' has 3 rows per head but there are 2 tokens"),
    (dict(tokens=np.array(["a"]), q=np.array([["x"]]), k=np.zeros((1, 1)), v=np.zeros((1, 1))), "not numbers"),
])
def test_malformed_npz_files_are_refused_with_a_message(tmp_path, arrays, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(npz(tmp_path, **arrays))


def test_a_truncated_npz_is_refused(tmp_path):
    good = npz(tmp_path, tokens=np.array(["a"]), q=np.ones((1, 1)), k=np.ones((1, 1)), v=np.ones((1, 1)))
    data = good.read_bytes()
    with pytest.raises(ScenarioError, match="not a valid .npz"):
        load_scenario(write(tmp_path, data[: len(data) // 2], "cut.npz"))


def test_exported_npz_data_opens_again_with_the_same_vectors(tmp_path):
    from attnviz.core import compute
    s = load_preset("seed-demo")  # heads of different widths: stored per head
    save_data(s, compute(s).weights(), tmp_path / "data.npz")
    back = load_scenario(tmp_path / "data.npz")
    assert back.tokens == s.tokens and [h.name for h in back.heads] == [h.name for h in s.heads]
    for a, b in zip(back.heads, s.heads):
        np.testing.assert_array_equal(a.q, b.q)
        np.testing.assert_array_equal(a.v, b.v)


def test_text_that_looks_like_numbers_survives_a_round_trip(tmp_path):
    s = load_preset("toy-3token")
    import dataclasses
    odd = dataclasses.replace(s, title={"en": "[1,  2] and [ 3 ]"}, tokens=("[1,  2]", "魚", "それ"))
    save_scenario(odd, tmp_path / "s.json")
    back = load_scenario(tmp_path / "s.json")
    assert back.title == {"en": "[1,  2] and [ 3 ]"} and back.tokens[0] == "[1,  2]"
    assert same_scenario(back, odd)


def test_minus_zero_and_zero_are_different_to_a_bit_for_bit_comparison():
    s = load_preset("toy-3token")
    assert not same_scenario(with_value(s, 0, "q", 0, 0, -0.0), s)


def test_a_file_saved_by_windows_notepad_with_a_bom_opens(tmp_path):
    text = json.dumps(valid_document(), ensure_ascii=False)
    assert load_scenario(write(tmp_path, "\ufeff".encode() + text.encode("utf-8"))).tokens[0] == "猫"


@pytest.mark.parametrize("content, message", [
    (broken(settings={"temperature": 10 ** 400}), "integer of 401 digits"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "q": [[10 ** 400, 0], [0, 0], [0, 0]]}]}),
     "integer of 401 digits"),
    ("[" * 100000 + "]" * 100000, "nested far too deeply"),
    (broken(tokens=["\ud800", "魚", "それ"]), "not valid text"),
    (broken(title="\udfff"), "not valid text"),
])
def test_hostile_json_is_refused_with_a_message_not_a_crash(tmp_path, content, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, content))


def test_an_npz_whose_header_promises_more_data_than_it_holds_is_refused(tmp_path):
    import io as _io
    import zipfile
    buffer = _io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": "<f8", "fortran_order": False, "shape": (10 ** 11,)})
    path = tmp_path / "forged.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("tokens.npy", _npy_bytes(np.array(["a"])))
        z.writestr("q.npy", buffer.getvalue() + b"\0" * 64)
    with pytest.raises(ScenarioError, match="more data than the file holds"):
        load_scenario(path)


def _npy_bytes(a):
    import io as _io
    buffer = _io.BytesIO()
    np.save(buffer, a, allow_pickle=False)
    return buffer.getvalue()


def test_an_npz_with_stray_members_and_non_string_head_names_is_handled(tmp_path):
    import zipfile
    path = tmp_path / "odd.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", b"not an array")
        for name, a in dict(tokens=np.array(["a", "b"]), q=np.ones((2, 2)), k=np.ones((2, 2)),
                            v=np.ones((2, 2))).items():
            z.writestr(f"{name}.npy", _npy_bytes(a))
    assert load_scenario(path).tokens == ("a", "b")  # the stray member is ignored
    bad = npz(tmp_path, tokens=np.array(["a"]), q=np.ones((1, 1)), k=np.ones((1, 1)), v=np.ones((1, 1)),
              head_names=np.array([1.5]))
    with pytest.raises(ScenarioError, match="head_names"):
        load_scenario(bad)


def test_more_heads_and_tokens_than_memory_allows_are_refused(tmp_path):
    q = np.zeros((64, 1024, 1))
    path = npz(tmp_path, tokens=np.array([f"t{i}" for i in range(1024)]), q=q, k=q, v=q)
    with pytest.raises(ScenarioError, match="too large to show"):
        load_scenario(path)


def test_projection_heads_keep_their_own_labels_through_a_file(tmp_path):
    doc = scenario_to_dict(load_preset("projection-demo"))
    doc["heads"][1]["labels"] = ["x", "y"]
    from attnviz.core.io import scenario_from_dict
    s = scenario_from_dict(doc)
    assert s.heads[0].labels == ("軸 1", "軸 2") and s.heads[1].labels == ("x", "y")
    save_scenario(s, tmp_path / "p.json")
    assert load_scenario(tmp_path / "p.json").heads[1].labels == ("x", "y")


def test_saving_through_a_symbolic_link_writes_the_linked_file(tmp_path):
    real = tmp_path / "real.json"
    save_scenario(load_preset("toy-3token"), real)
    (tmp_path / "link.json").symlink_to(real)
    save_scenario(load_preset("seed-demo"), tmp_path / "link.json")
    assert (tmp_path / "link.json").is_symlink()
    assert load_scenario(real).n == 10


def test_tokens_that_look_like_formulas_are_quoted_in_csv():
    from attnviz.core import compute
    from attnviz.core.io import data_csv, weights_csv
    from attnviz.core.scenario import with_token_renamed
    s = with_token_renamed(load_preset("toy-3token"), 0, "=HYPERLINK(1)")
    weights = compute(s).weights()
    assert "'=HYPERLINK(1)" in weights_csv(s, weights, [0]) and ",=HYPERLINK" not in weights_csv(s, weights, [0])
    assert ",=HYPERLINK" not in data_csv(s, weights)


def test_a_compact_file_is_written_in_small_pieces_that_numpy_reads_back(tmp_path):
    """Autosave writes .npz on a worker thread: no piece may hold Python's lock for long (np.savez
    copies 16 MB at once), and the file is what np.savez would write."""
    from attnviz.core.io import WRITE_CHUNK, _npz_writer

    class Recording(io.BytesIO):
        sizes: list = []

        def write(self, data):
            self.sizes.append(len(data))
            return super().write(data)

    big = np.random.default_rng(0).normal(size=(4, 300_000))  # 9.6 MB
    arrays = {"q": big, "tokens": np.array(["猫", "が"]), "empty": np.zeros((0, 3)), "temperature": np.array(0.5),
              "turned": np.asfortranarray(big[:, :10])}
    out = Recording()
    _npz_writer(arrays)(out)
    assert max(out.sizes) <= WRITE_CHUNK + 1024
    back = np.load(io.BytesIO(out.getvalue()))
    for name, array in arrays.items():
        np.testing.assert_array_equal(back[name], array)
        assert back[name].shape == array.shape  # a single value stays a single value, as np.savez writes it
