"""Steering (activation addition) as the window runs it: a Steer in the pass is add() at blocks.L.resid_pre,
reruns start where it writes, a direction from two prompts or a .npy file (refused in one line when it is
not d finite numbers, a pickle never read), and a session keeps it exactly."""
import base64
import io
import json
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from attnviz import api
from attnviz.core import lm
from attnviz.core.files import FileProblem
from attnviz.core.research import steer
from attnviz.core.scenario import ScenarioError, Steer
from attnviz.core.session import (
    ModelFile,
    Session,
    View,
    checked_steer,
    from_document,
    read_session,
    save_session,
    to_document,
)

LLAMA = Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "hf"
TEXT = "hello there, you"


@pytest.fixture(scope="module")
def m():
    return api.load(str(LLAMA))


def test_a_steer_is_add_at_the_stream_entering_its_layer_over_its_tokens(m):
    u = np.linspace(-1, 1, m.lm.config.d).astype(np.float32)
    ids = m.run(TEXT).ids
    steered = lm.run(m.lm, ids, steer=Steer(1, u, 3.0, 1, 3))
    hooked = m.run(TEXT, hooks={"blocks.1.resid_pre": api.add(u, 3.0, positions=slice(1, 3))})
    # a hooked layer is worked out whole, the fast path's last layer at the last token only: float32's order
    np.testing.assert_allclose(steered.logits, hooked.logits, rtol=0, atol=1e-5)
    assert not np.array_equal(steered.logits, m.run(TEXT).logits)
    np.testing.assert_array_equal(lm.run(m.lm, ids, steer=Steer(1, u, 0.0)).logits, m.run(TEXT).logits)


def test_a_rerun_starts_where_the_steer_writes_and_taking_it_away_gives_the_models_own_numbers(m):
    ids = m.run(TEXT).ids
    u = np.ones(m.lm.config.d, np.float32)
    own = lm.run(m.lm, ids)
    steered = lm.run(m.lm, ids, steer=Steer(1, u, 2.0), after=own)
    assert steered.computed == (1,)                  # layer 0 reused
    again = lm.run(m.lm, ids, steer=Steer(1, u, 2.0), after=steered)
    assert again is steered                          # the same steer: nothing to compute
    back = lm.run(m.lm, ids, after=steered)
    assert back.computed == (0, 1) and np.array_equal(back.logits, own.logits)
    assert lm.same_edits(steered, lm.run(m.lm, ids, steer=Steer(1, u.copy(), 2.0)))
    assert not lm.same_edits(steered, lm.run(m.lm, ids, steer=Steer(1, u, 2.5)))


@pytest.mark.parametrize("bad", [Steer(2, np.ones(64, np.float32), 1.0), Steer(0, np.ones(3, np.float32), 1.0),
                                 Steer(0, np.ones(64, np.float32), 1.0, 2, 2),
                                 Steer(0, np.ones(64, np.float32), 1.0, 0, 99)])
def test_a_steer_that_does_not_fit_the_model_or_the_text_is_refused_before_the_pass(m, bad):
    with pytest.raises(ValueError, match="a steer of the stream entering layer"):
        lm.run(m.lm, m.run(TEXT).ids, steer=bad)


def test_a_direction_from_two_prompts_is_their_mean_streams_difference(m):
    found = steer.direction(m.lm, "hello", "there you", 1)
    a = m.run("hello", keep=["blocks.1.resid_pre"]).cache["blocks.1.resid_pre"]
    b = m.run("there you", keep=["blocks.1.resid_pre"]).cache["blocks.1.resid_pre"]
    first = 1 if m.lm.tokenizer.bos is not None else 0
    np.testing.assert_allclose(found, a[first:].mean(axis=0) - b[first:].mean(axis=0), rtol=0, atol=1e-6)
    with pytest.raises(lm.ModelError, match="the two prompts give the same stream at layer 1"):
        steer.direction(m.lm, "hello", "hello", 1)
    with pytest.raises(lm.ModelError, match="layer 5: the model has layers 0 to 1"):
        steer.direction(m.lm, "hello", "there", 5)


def test_a_direction_file_is_d_finite_numbers_and_nothing_else(tmp_path):
    good = tmp_path / "u.npy"
    np.save(good, np.arange(1, 9, dtype=np.float64))
    np.testing.assert_array_equal(steer.load_direction(good, 8), np.arange(1, 9, dtype=np.float32))
    cases = {
        "short.npy": (lambda p: np.save(p, np.ones(3)), r"not \(3,\) of float64"),
        "pickle.npy": (lambda p: np.save(p, np.array([{"a": 1}] * 8, dtype=object), allow_pickle=True),
                       "not .* of object"),
        "nan.npy": (lambda p: np.save(p, np.full(8, np.nan)), "must be finite"),
        "zero.npy": (lambda p: np.save(p, np.zeros(8)), "not all 0"),
        "text.npy": (lambda p: p.write_text("not numpy at all"), "not a .npy file of numbers"),
        "huge.npy": (lambda p: p.write_bytes(b"\x93NUMPY\x01\x00" + b" " * 70_000), "is too large: 70,008 bytes"),
        # a header shorter than it says: numpy parses it as Python and raises SyntaxError, TokenError
        "short_header.npy": (lambda p: p.write_bytes(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f8',"),
                             "not a .npy file of numbers"),
        # format 2 claims a 4 GB header: refused before numpy reads (and allocates) that much
        "v2_header.npy": (lambda p: p.write_bytes(b"\x93NUMPY\x02\x00\xff\xff\xff\xff" + b" " * 64),
                          "its header claims 4,294,967,295 bytes, more than the file's 76"),
        "past_float32.npy": (lambda p: np.save(p, np.full(8, 1e39)), "must be finite"),
        # attacker round 14: a cut file used to be said to be of the wrong shape, (8,) the right one
        "cut.npy": (lambda p: p.write_bytes(_saved(np.ones(8))[:-20]), "the file ends after 5 of the direction's 8"),
    }
    for name, (make, says) in cases.items():
        path = tmp_path / name
        make(path)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # refused in its one line, with no numpy warning on the way
            with pytest.raises(FileProblem, match=says):
                steer.load_direction(path, 8)
    os.mkfifo(tmp_path / "fifo.npy")
    with pytest.raises(FileProblem, match="fifo.npy"):  # refused before it is opened: nothing waits on it
        steer.load_direction(tmp_path / "fifo.npy", 8)


def _saved(values: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.save(out, values)
    return out.getvalue()


MODEL = ModelFile("/models/m.gguf", "ab" * 32, 123, False)


def test_a_session_keeps_its_steer_exactly_and_refuses_a_bad_one(tmp_path):
    u = (np.arange(4, dtype=np.float32) - 1.5) / 7
    session = Session(MODEL, "t", (1, 2, 3), View(2, 0, 1), (), None, steer=Steer(2, u, -2.5, 1, None))
    path = tmp_path / "s.attnviz-model.json"
    save_session(session, path)
    back, _ = read_session(path)
    assert (back.steer.layer, back.steer.alpha, back.steer.start, back.steer.stop) == (2, -2.5, 1, None)
    assert back.steer.direction.tobytes() == u.tobytes() and json.loads(path.read_text())["version"] == 3
    assert checked_steer(back, n_layers=3, n=3, d=4) is back.steer
    with pytest.raises(ScenarioError, match="the text 1 tokens"):
        checked_steer(back, n_layers=3, n=1, d=4)
    with pytest.raises(ScenarioError, match=r"shape \(4,\), not \(8,\)"):
        checked_steer(back, n_layers=3, n=3, d=8)
    document = to_document(session)
    for entry, says in (({**document["steer"], "alpha": "big"}, "\"steer\" must give the layer"),
                        ({**document["steer"], "alpha": float("nan")}, "\"steer\" must give the layer"),
                        ({**document["steer"], "stop": 0}, "\"steer\" must give the layer"),
                        ({**document["steer"], "direction": {"shape": [4], "float64": "AA"}}, "steer: direction")):
        with pytest.raises(ScenarioError, match=says):
            from_document({**document, "steer": entry})
    with pytest.raises(ScenarioError, match="a version 2 session has no \"steer\""):
        from_document({**document, "version": 2})
    for values, alpha, says in ((np.zeros(4), 1.0, "the steer's direction is 0: there is nothing to add"),
                                (np.full(4, 1e-300), 4.0, "the steer's direction is 0"),  # round 17: 0 in float32
                                (np.full(4, 1e6), 1e6, "the steer adds α × the direction, up to 1e+12 to a number; "
                                                       "it must stay between -1,000,000 and 1,000,000")):
        entry = {**document["steer"], "alpha": alpha, "direction": _direction(values)}
        with pytest.raises(ScenarioError, match=re.escape(says)):
            from_document({**document, "steer": entry})
    with pytest.raises(ScenarioError, match="the steer's direction is 0"):  # and wherever a steer is made
        Steer(2, np.zeros(4, np.float32), 1.0)


def _direction(values: np.ndarray) -> dict:
    return {"shape": list(values.shape), "float64": base64.b64encode(values.astype("<f8").tobytes()).decode()}


def test_a_mean_stream_leaves_out_the_bos_and_the_eos_every_text_gets(tmp_path):
    from tests.gguf_writer import tiny_llama
    path = tmp_path / "eos.gguf"
    tiny_llama(path, metadata={"tokenizer.ggml.add_eos_token": True, "tokenizer.ggml.eos_token_id": 3,
                               "tokenizer.ggml.add_bos_token": True, "tokenizer.ggml.bos_token_id": 0})
    model = lm.load(str(path))
    ids = lm.encode(model, "ab a").ids
    assert ids[0] == 0 and ids[-1] == 3
    stream = lm.run(model, ids).streams[1]
    np.testing.assert_allclose(steer.mean_stream(model, "ab a", 1), stream[1:-1].mean(axis=0), rtol=0, atol=1e-6)
