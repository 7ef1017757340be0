"""Named hook points (core/lm/hooks.py): every one a run keeps is the array transformers' own model gives at
that point under PyTorch hooks (tests/golden/hooks, made by tools/hooks_reference.py), for a Llama and a
Gemma 3 (QK-norm, norms after attention and the feed-forward, sliding windows); keeping changes no number;
what is asked for, and only that, is kept; a wrong name or too much to keep is refused before the run."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnviz import api
from attnviz.core.lm import hooks
from attnviz.core.lm.shown import ModelError
from attnviz.core.research import given

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


@pytest.fixture(scope="module", params=["llama", "gemma3"])
def family(request):
    return request.param, api.load(str(GOLDEN / "families" / request.param / "hf")), \
        np.load(GOLDEN / "hooks" / f"{request.param}.npz")


def test_every_hook_point_is_what_transformers_gives_there(family):
    _, m, reference = family
    run = m.run(ids=list(reference["ids"]), keep=["*"])
    assert set(run.cache) == set(reference.files) - {"ids"} == set(m.hook_names())
    for name, kept in run.cache.items():
        expect = reference[name]
        assert kept.shape == expect.shape, name
        # float32 against a float64 model: 1e-4 of the point's own scale (attention weights: absolute)
        assert np.abs(kept - expect).max() <= 1e-4 * max(1.0, np.abs(expect).max()), name


def test_the_names_are_the_passs_points_in_order_and_the_shapes_as_documented(family):
    _, m, reference = family
    names, c = m.hook_names(), m.lm.config
    assert names[0] == "embed" and names[-2:] == ["ln_final", "logits"]
    assert names[1:13] == [f"blocks.0.{p}" for p in hooks.LAYER_POINTS] and len(names) == 3 + 12 * c.n_layers
    run = m.run(ids=list(reference["ids"]), keep=["*"])
    n = len(reference["ids"])
    assert all(run.cache[name].shape == hooks.shape(c, name, n, len(m.lm.output)) for name in names)


def test_keeping_changes_no_number_and_keeps_only_what_is_asked(family):
    _, m, reference = family
    ids = list(reference["ids"])
    plain = m.run(ids=ids)
    run = m.run(ids=ids, keep=["blocks.*.attn.pattern", "blocks.1.resid_pre"])
    assert set(run.cache) == {f"blocks.{i}.attn.pattern" for i in range(m.layers)} | {"blocks.1.resid_pre"}
    np.testing.assert_allclose(run.logits, plain.logits, atol=1e-5)
    assert np.array_equal(run.cache["blocks.1.resid_pre"], plain.residual(1))
    for layer in range(m.layers):
        np.testing.assert_allclose(run.cache[f"blocks.{layer}.attn.pattern"], plain.weights(layer), atol=1e-6)
    assert plain.cache == {}


def test_what_is_kept_has_the_runs_edits_and_switched_off_heads_in_it(family):
    _, m, reference = family
    ids = list(reference["ids"])
    q = np.zeros((len(ids), m.lm.config.d_head))
    run = m.run(ids=ids, off=[(1, 2)], edits={(0, 1): {"q": q}}, keep=["blocks.*.attn.z", "blocks.0.attn.q",
                                                                         "blocks.0.attn.pattern"])
    assert not run.cache["blocks.1.attn.z"][2].any() and run.cache["blocks.1.attn.z"][1].any()
    assert not run.cache["blocks.0.attn.q"][1].any()
    seen = np.arange(len(ids)) > len(ids) - 1 - (m.lm.config.window if m.lm.config.is_sliding(0) else len(ids))
    # q = 0: every key the last token sees scores 0, so they share its weight alike
    np.testing.assert_allclose(run.cache["blocks.0.attn.pattern"][1, -1], seen / seen.sum(), atol=1e-6)


@pytest.mark.parametrize("keep, says", [
    (["blocks.99.attn.z"], "keep: 'blocks.99.attn.z' names no hook point"),
    (["attn.pattern"], "keep: 'attn.pattern' names no hook point"),
    ([3], "keep: give hook point names (texts), not int"),
])
def test_a_name_that_is_no_hook_point_is_refused_saying_what_they_are(keep, says):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    with pytest.raises(ModelError, match=says.replace("(", r"\(").replace(")", r"\)")):
        m.run("hi", keep=keep)


def test_too_much_to_keep_is_refused_before_the_model_runs(monkeypatch):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    monkeypatch.setattr(given, "MOST_KEPT", 2**20)
    ran = []
    monkeypatch.setattr(api.lm, "run", lambda *a, **k: ran.append(1))
    text = "hi there " * 25
    n = len(m.encode(text).ids)
    size = sum(4 * np.prod(hooks.shape(m.lm.config, name, n, len(m.lm.output))) for name in m.hook_names())
    with pytest.raises(ModelError, match=rf"keep: these hook points over {n} tokens take {size / 2**20:.1f} MB; "
                                         r"at most 1\.0 MB are kept"):
        m.run(text, keep=["*"])
    assert ran == []
