"""A real model's session file: written and read back exactly; every hostile entry refused by name."""
import base64
import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import lm
from attnviz.core import session as session_module
from attnviz.core.formats.document import scenario_to_dict
from attnviz.core.scenario import Change, ScenarioError, StreamPatch
from attnviz.core.session import (
    FORMAT_VERSION,
    ModelFile,
    ModelMismatch,
    Session,
    View,
    check_model,
    checked_changes,
    checked_patch,
    from_document,
    looks_like_session,
    model_file,
    read_session,
    restore,
    save_session,
    session_path,
    shown_scenario,
    to_document,
)

MODEL = ModelFile("/models/m.gguf", "ab" * 32, 123, False)


def a_session(changes=None, text="a\nb\tc"):
    q = np.arange(6, dtype=float).reshape(3, 2) / 7
    changes = changes if changes is not None else ((1, 0, Change(q=q)), (2, 1, Change(off=True)))
    return Session(MODEL, text, (1, 2, 3), View(1, 0, 2), changes, None)


def test_a_session_round_trips_exactly_through_its_file(tmp_path):
    session = a_session()
    path = tmp_path / "x.attnviz-model.json"
    save_session(session, path, meta={"source": None, "time": 1.0})
    back, meta = read_session(path)
    assert (back.text, back.ids, back.view, back.model) == (session.text, session.ids, session.view, session.model)
    assert [(layer, head, c.off) for layer, head, c in back.changes] == [(1, 0, False), (2, 1, True)]
    assert back.changes[0][2].q.tobytes() == session.changes[0][2].q.tobytes()  # bit for bit
    assert back.changes[0][2].k is None and meta == {"source": None, "time": 1.0}
    assert looks_like_session(path) and looks_like_session(tmp_path / "y.attnviz-model.json")


def test_a_relative_model_path_is_read_from_the_sessions_folder_not_the_working_one(tmp_path, monkeypatch):
    (tmp_path / "class").mkdir()
    path = tmp_path / "class" / "x.attnviz-model.json"
    save_session(dataclasses.replace(a_session(), model=dataclasses.replace(MODEL, path="models/m.gguf")), path)
    monkeypatch.chdir(tmp_path)
    back, _ = read_session(Path("class") / "x.attnviz-model.json")
    assert back.model.path == str(tmp_path / "class" / "models" / "m.gguf")


def test_a_patched_heads_output_is_kept_in_the_session_and_checked_against_the_models_sizes(tmp_path):
    """A patch from the research workbench (a head given another run's output) is a change too."""
    out = np.arange(6, dtype=float).reshape(3, 2) / 3
    path = tmp_path / "p.attnviz-model.json"
    save_session(a_session(((4, 1, Change(out=out)),)), path)
    back, _ = read_session(path)
    assert back.changes[0][2].out.tobytes() == out.tobytes() and not back.changes[0][2].off
    assert checked_changes(back, 5, 2, 3, 2) == back.changes
    with pytest.raises(ScenarioError, match="out has shape"):
        checked_changes(back, 5, 2, 3, 4)


def test_a_patched_residual_stream_is_kept_in_the_session_and_checked_against_the_models_sizes(tmp_path):
    """A patch of the residual stream at one position (the workbench's map by position) is saved
    too; only such a session is written as version 2, which older AttnViz refuses rather than
    opening it without its patch."""
    x = np.arange(4, dtype=np.float32) / 3
    path = tmp_path / "s.attnviz-model.json"
    save_session(Session(MODEL, "t", (1, 2, 3), View(2, 0, 1), (), None, patch=StreamPatch(2, 1, x)), path)
    back, _ = read_session(path)
    assert (back.patch.layer, back.patch.position) == (2, 1) and back.patch.x.tobytes() == x.tobytes()
    assert json.loads(path.read_text())["version"] == 2 and to_document(a_session())["version"] == 1
    assert checked_patch(back, n_layers=3, n=3, d=4) is back.patch
    with pytest.raises(ScenarioError, match="has 2 layers"):
        checked_patch(back, n_layers=2, n=3, d=4)
    with pytest.raises(ScenarioError, match="text 1 tokens"):
        checked_patch(back, n_layers=3, n=1, d=4)
    with pytest.raises(ScenarioError, match=r"shape \(4,\), not \(8,\)"):
        checked_patch(back, n_layers=3, n=3, d=8)


def test_a_crash_copy_with_a_plain_name_is_known_by_its_first_bytes(tmp_path):
    path = tmp_path / "session-abc.json"
    save_session(a_session(), path)
    assert looks_like_session(path)
    (tmp_path / "plain.json").write_text('{"format": "attnviz-scenario"}')
    assert not looks_like_session(tmp_path / "plain.json")


def test_the_session_suffix_is_added_where_it_is_missing():
    assert session_path("/a/lesson.json") == "/a/lesson.attnviz-model.json"
    assert session_path("/a/lesson") == "/a/lesson.attnviz-model.json"
    assert session_path("/a/L.attnviz-model.json") == "/a/L.attnviz-model.json"


def b64(values):
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode()


def good_document():
    return to_document(a_session())


@pytest.mark.parametrize("change, says", [
    (lambda d: d.update(format="attnviz-scenario"), "not a real model's session"),
    (lambda d: d.update(version=FORMAT_VERSION + 1), "newer AttnViz"),
    (lambda d: d.update(version=True), "version"),
    (lambda d: d.update(text=""), "text"),
    (lambda d: d.update(text=7), "text"),
    (lambda d: d.update(ids=[1, -2]), "ids"),
    (lambda d: d.update(ids=[1.5]), "ids"),
    (lambda d: d["model"].update(sha256="x"), "SHA-256"),
    (lambda d: d["model"].update(path=""), "model"),
    (lambda d: d.update(view={"layer": 0, "head": -1, "query": 0}), "view"),
    (lambda d: d["changes"][0].update(layer=10_000), "layer"),
    (lambda d: d["changes"][0].update(off="yes"), "off"),
    (lambda d: d["changes"][0].update(q=[[1, 2], [3, 4], [5, 6]]), "base64"),
    (lambda d: d["changes"][0]["q"].update(shape=[3, 3]), "base64"),
    (lambda d: d["changes"][0]["q"].update(shape=[10 ** 9, 10 ** 9]), "base64"),
    (lambda d: d["changes"][0]["q"].update(float64="!" * 64), "base64"),
    (lambda d: d["changes"][0]["q"].update(float64=b64(np.array([1, 2, 3, 4, 5, np.nan]))), "not a number"),
    (lambda d: d["changes"][0]["q"].update(float64=b64(np.array([1, 2, 3, 4, 5, 1e7]))), "too large"),
    (lambda d: d.update(shown={"scenario": {}}), "shown"),
    (lambda d: d.update(changes={"a": 1}), "changes"),
    (lambda d: d.update(version=2, patch={"layer": 1, "position": -1, "x": {"shape": [1], "float64": b64([1])}}),
     "patch"),
    (lambda d: d.update(version=2, patch={"layer": 1, "position": 0, "x": [1.0, 2.0]}), "patch: x"),
    (lambda d: d.update(version=2, patch={"layer": 1, "position": 0, "x": {"shape": [2], "float64": b64([1, np.inf])}}),
     "not a number"),
    (lambda d: d.update(version=2, patch=[1, 0]), "patch"),
    (lambda d: d.update(patch={"layer": 1, "position": 0, "x": {"shape": [1], "float64": b64([1])}}),
     "a version 1 session has no \"patch\""),
    (lambda d: d["changes"].append(dict(d["changes"][0])), "\"changes\" names layer 1 head 0 twice"),
])
def test_a_hostile_session_is_refused_saying_what_is_wrong(change, says):
    document = good_document()
    change(document)
    with pytest.raises(ScenarioError, match=says):
        from_document(document)


def test_the_layer_shown_is_kept_exactly_and_opens_as_a_plain_scenario(tmp_path):
    from attnviz.core.presets import load_preset
    s = load_preset("toy-3token")
    shown = {"scenario": scenario_to_dict(s, with_arrays=False),
             **{m: np.stack([h.matrix(m) for h in s.heads]) for m in "qkv"}}
    session = Session(MODEL, "t", (1,), View(0, 0, 0), (), shown)
    path = tmp_path / "s.attnviz-model.json"
    save_session(session, path)
    plain = shown_scenario(read_session(path)[0])
    assert plain.tokens == s.tokens and plain.live is None
    assert all(np.array_equal(h.q, g.q) and np.array_equal(h.v, g.v) for h, g in zip(plain.heads, s.heads))


def test_changes_are_checked_against_the_models_sizes():
    session = a_session()
    assert checked_changes(session, n_layers=3, n_heads=2, n=3, d_head=2) == session.changes
    with pytest.raises(ScenarioError, match="has 2 layers"):
        checked_changes(session, n_layers=2, n_heads=2, n=3, d_head=2)
    with pytest.raises(ScenarioError, match=r"shape \(3, 2\), not \(3, 4\)"):
        checked_changes(session, n_layers=3, n_heads=2, n=3, d_head=4)


def test_the_model_file_must_be_the_one_the_session_was_made_with(tmp_path):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF one")
    session = Session(model_file(model, False), "t", (1,), View(0, 0, 0), (), None)
    assert check_model(session, model).sha256 == session.model.sha256
    model.write_bytes(b"GGUF two")
    with pytest.raises(ModelMismatch, match="SHA-256 differs"):
        check_model(session, model)
    with pytest.raises(ModelMismatch, match="is not there"):
        check_model(session, tmp_path / "gone.gguf")


def test_a_model_file_of_another_size_is_told_apart_before_it_is_hashed(tmp_path, monkeypatch):
    """Attacker round 14: a session naming a 100 GB file hashed it all to find it was not the model."""
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF one")
    session = Session(model_file(model, False), "t", (1,), View(0, 0, 0), (), None)
    with open(model, "r+b") as f:
        f.truncate(100 << 30)  # sparse: no disk is used
    monkeypatch.setattr(session_module, "_file_digest", lambda path: pytest.fail("hashed"))
    with pytest.raises(ModelMismatch, match="its size differs"):
        check_model(session, model)


def test_a_session_naming_a_pipe_or_a_device_is_refused_before_a_byte_is_read(tmp_path):
    """A FIFO would block the hash for ever and /dev/zero never end: both refused at once (a crash copy
    is a session, and one naming them must not freeze the start-up)."""
    import os
    import threading
    fifo = tmp_path / "model.gguf"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero"):
        session = Session(ModelFile(str(path), "ab" * 32, 1, False), "t", (1,), View(0, 0, 0), (), None)
        said = []
        worker = threading.Thread(target=lambda s=session, p=path, out=said: out.append(refusal(
            lambda: check_model(s, p))))
        worker.start()
        worker.join(20)
        if worker.is_alive():  # blocked on the FIFO: let it go, then fail
            with open(fifo, "wb"):
                pass
            worker.join()
        assert said and "is not a regular file" in said[0], (path, said)


def test_a_session_naming_a_proc_file_that_claims_no_size_and_never_ends_is_refused(tmp_path):
    """/proc/self/pagemap is "regular", of size 0, and reads for hundreds of GB: no more than the size a
    file claims is read (the session claims 0 bytes too, so that its size alone does not tell it apart)."""
    import os
    if not os.path.exists("/proc/self/pagemap"):
        pytest.skip("no /proc here")
    session = Session(ModelFile("/proc/self/pagemap", "ab" * 32, 0, False), "t", (1,), View(0, 0, 0), (), None)
    assert "is not a regular file" in refusal(lambda: check_model(session, "/proc/self/pagemap"))


def refusal(act) -> str:
    try:
        act()
    except ScenarioError as e:
        return str(e)
    return "accepted"


@pytest.mark.real_model("smollm2")
def test_restoring_runs_the_model_with_every_change_as_a_direct_run_does():
    from attnviz.core.session import identity
    model = lm.load()
    encoded = lm.encode(model, "The cat ate the fish.")
    direct = lm.run(model, encoded.ids)
    q = direct.q[5][0].copy()
    q[3, 7] = 9.0
    changes = ((5, 0, Change(q=q)), (22, 8, Change(off=True)))
    expected = lm.run(model, encoded.ids, changes)
    session = Session(identity(model), encoded.text, encoded.ids, View(5, 0, 3), changes, None)
    back = from_document(json.loads(json.dumps(to_document(session))))
    _, _, baseline, result = restore(back, lambda path: model)
    np.testing.assert_array_equal(baseline.probs, direct.probs)
    np.testing.assert_array_equal(result.probs, expected.probs)
    assert result.matrix(5, "q", 0)[3, 7] == 9.0


@pytest.mark.real_model("smollm2")
def test_restoring_a_patched_stream_runs_the_model_with_it_as_a_direct_run_does():
    from attnviz.core.session import identity
    model = lm.load()
    encoded = lm.encode(model, "The cat ate the fish.")
    other = lm.run(model, lm.encode(model, "The dog ate the bone.").ids)
    patch = StreamPatch(7, 2, other.streams[7][2])
    changes = ((9, 1, Change(off=True)),)
    expected = lm.run(model, encoded.ids, changes, patch=patch)
    session = Session(identity(model), encoded.text, encoded.ids, View(7, 0, 2), changes, None, patch=patch)
    back = from_document(json.loads(json.dumps(to_document(session))))
    _, _, baseline, result = restore(back, lambda path: model)
    np.testing.assert_array_equal(result.probs, expected.probs)
    assert result.patch is back.patch and np.abs(result.probs - baseline.probs).max() > 1e-4


FAMILIES = __import__("pathlib").Path(__file__).resolve().parents[1] / "golden" / "families"


def test_a_hugging_face_folders_session_names_the_folder_by_its_files_and_runs_again(tmp_path):
    import shutil

    from attnviz.core.session import identity, session_of
    folder = tmp_path / "qwen2"
    shutil.copytree(FAMILIES / "qwen2" / "hf", folder)
    model = lm.load(str(folder))
    encoded = lm.encode(model, "猫が魚を食べた。")
    result = lm.run(model, encoded.ids, ((1, 2, Change(off=True)),))
    path = tmp_path / "s.attnviz-model.json"
    save_session(session_of(lm.scenario(model, encoded, result, 1), 2, 3, identity(model)), path)
    session, _ = read_session(path)
    assert session.model.path == str(folder) and session.model.bytes > 0
    _, _, _, again = restore(session, lambda p: lm.load(p))
    np.testing.assert_array_equal(again.probs, result.probs)
    config = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    (folder / "tokenizer.json").write_text(json.dumps(config, indent=2), encoding="utf-8")  # one of its files
    with pytest.raises(ModelMismatch, match="its size differs"):
        restore(session, lambda p: lm.load(p))


@pytest.mark.real_model("smollm2")
def test_a_chat_session_is_read_again_in_the_chat_template(tmp_path):
    from attnviz.core.session import identity, session_of
    model = lm.load()
    encoded = lm.encode(model, "Hi", chat=True)
    result = lm.run(model, encoded.ids)
    path = tmp_path / "chat.attnviz-model.json"
    save_session(session_of(lm.scenario(model, encoded, result, 0), 0, 0, identity(model)), path)
    assert json.loads(path.read_text(encoding="utf-8"))["chat"] is True
    session, _ = read_session(path)
    _, again, _, _ = restore(session, lambda p: model)
    assert again.ids == encoded.ids and again.chat
    document = json.loads(path.read_text(encoding="utf-8"))
    document["chat"] = "yes"
    with pytest.raises(ScenarioError, match="chat"):
        from_document(document)


def test_a_models_identity_is_the_file_it_was_loaded_from_whatever_happens_to_the_file_after(tmp_path):
    """Attacker round 27: the identity was worked out again at each save from the file on disk, so a file deleted
    after loading made the work unsaveable, and one replaced in place named another model's weights; and a save
    while the window's worker was still hashing hashed the file again, on the window's thread."""
    import shutil

    from attnviz.core import lm
    from attnviz.core.session import ModelMismatch, identity
    from tests.gguf_writer import tiny_llama
    first, second = tmp_path / "m.gguf", tmp_path / "other.gguf"
    tiny_llama(first, seed=1)
    tiny_llama(second, seed=2)
    model = lm.load(str(first))
    known = identity(model)
    first.unlink()
    assert identity(model) == known  # deleted: the identity taken once serves every save
    shutil.copy(second, first)
    assert identity(model) == known  # replaced in place: still the file the model was loaded from
    fresh = lm.load(str(first))
    tiny_llama(first, seed=3)  # replaced before its identity was ever asked for
    with pytest.raises(ModelMismatch, match="the model file has changed since it was loaded"):
        identity(fresh)
    assert identity(lm.load(str(first))).sha256 != known.sha256
