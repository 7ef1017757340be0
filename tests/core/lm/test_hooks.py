"""Named hook points (core/lm/hooks.py): every one a run keeps is the array transformers' own model gives at
that point under PyTorch hooks (tests/golden/hooks, made by tools/hooks_reference.py), for a Llama and a
Gemma 3 (QK-norm, norms after attention and the feed-forward, sliding windows); keeping changes no number;
what is asked for, and only that, is kept; a wrong name or too much to keep is refused before the run.
Writing a point (hooks=): a steering vector does what the same PyTorch hook does; writing nothing new changes
nothing, bit for bit; zeroing a head's z is switching it off; what a hook gives back is checked."""
from __future__ import annotations

import itertools
import re
import warnings
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
    assert set(run.cache) == {f for f in reference.files if f != "ids" and not f.startswith("steer_")} == \
        set(m.hook_names())
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


# ------------------------------------------------------------- writing

def test_a_steering_vector_added_to_the_stream_does_what_the_same_pytorch_hook_does(family):
    _, m, reference = family
    steer = api.add(reference["steer_direction"], float(reference["steer_alpha"]))
    run = m.run(ids=list(reference["ids"]), hooks={f"blocks.{int(reference['steer_layer'])}.resid_pre": steer},
                keep=["logits"])
    expect = reference["steer_logits"]
    assert np.abs(expect - reference["logits"]).max() > 1  # the vector moves the logits ...
    assert np.abs(run.cache["logits"] - expect).max() <= 1e-4 * np.abs(expect).max()  # ... as transformers' do


@pytest.mark.parametrize("point", ["embed", "blocks.1.resid_pre", "blocks.0.ln1", "blocks.1.attn.q", "blocks.0.attn.v",
                                   "blocks.1.attn.scores", "blocks.0.attn.pattern", "blocks.1.attn.z",
                                   "blocks.0.attn.out", "blocks.1.resid_mid", "blocks.1.mlp.out", "ln_final", "logits"])
def test_writing_a_point_as_it_was_changes_no_number(family, point):
    _, m, reference = family
    ids = list(reference["ids"])
    kept = m.run(ids=ids, keep=[point, "logits"])
    same = m.run(ids=ids, hooks={point: api.replace(kept.cache[point])}, keep=["logits"])
    nothing = m.run(ids=ids, hooks={point: api.add(np.ones(kept.cache[point].shape[-1]), 0.0)}, keep=["logits"])
    for written in (same, nothing):
        if point.split(".")[-1] in ("q", "v", "scores", "pattern"):  # attention then worked out step by step
            np.testing.assert_allclose(written.cache["logits"], kept.cache["logits"], atol=1e-5)
        else:
            assert np.array_equal(written.cache["logits"], kept.cache["logits"])
    assert not np.array_equal(m.run(ids=ids, hooks={point: api.zero()}, keep=["logits"]).cache["logits"],
                              kept.cache["logits"])  # and writing something else changes them


def test_zeroing_a_heads_z_is_switching_it_off_and_composes_with_the_runs_own_changes(family):
    _, m, reference = family
    ids = list(reference["ids"])
    zeroed = m.run(ids=ids, hooks={"blocks.1.attn.z": api.zero(heads=2)}, keep=["logits"])
    off = m.run(ids=ids, off=[(1, 2)], keep=["blocks.1.attn.z", "logits"])
    assert np.array_equal(zeroed.cache["logits"], off.cache["logits"])
    both = m.run(ids=ids, off=[(1, 2)], hooks={"blocks.1.resid_pre": api.add(np.ones(m.lm.config.d), 2.0)},
                 keep=["blocks.1.attn.z"])
    assert not both.cache["blocks.1.attn.z"][2].any() and both.cache["blocks.1.attn.z"][1].any()
    # attacker round 15: numpy's 0-d arrays (what indexing gives) are integers too, not a TypeError
    as_array = m.run(ids=ids, hooks={"blocks.1.attn.z": api.zero(heads=np.array(2))}, keep=["logits"])
    assert np.array_equal(as_array.cache["logits"], off.cache["logits"])
    d = m.lm.config.d
    at = m.run(ids=ids, hooks={"embed": api.add(np.ones(d), positions=np.array(1))}, keep=["embed"])
    plain = m.run(ids=ids, hooks={"embed": api.add(np.ones(d), positions=1)}, keep=["embed"])
    assert np.array_equal(at.cache["embed"], plain.cache["embed"])


def test_a_written_pattern_weighs_the_values_as_written(family):
    _, m, reference = family
    ids = list(reference["ids"])
    n, heads = len(ids), m.heads
    uniform = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    run = m.run(ids=ids, hooks={"blocks.0.attn.pattern": api.replace(np.broadcast_to(uniform, (heads, n, n)))},
                keep=["blocks.0.attn.v", "blocks.0.attn.z"])
    np.testing.assert_allclose(run.cache["blocks.0.attn.z"], uniform @ run.cache["blocks.0.attn.v"], atol=1e-5)


def test_project_out_and_mean_write_what_they_say(family):
    _, m, reference = family
    ids, d = list(reference["ids"]), m.lm.config.d
    u = np.random.default_rng(1).normal(size=d)
    run = m.run(ids=ids, hooks={"blocks.1.resid_post": api.project_out(u)}, keep=["blocks.1.resid_post"])
    assert np.abs(run.cache["blocks.1.resid_post"] @ (u / np.linalg.norm(u))).max() < 1e-4
    other = m.run(ids=ids[::-1], keep=["blocks.0.attn.out"]).cache["blocks.0.attn.out"]
    meant = m.run(ids=ids, hooks={"blocks.0.attn.out": api.mean([other])}, keep=["blocks.0.attn.out"])
    np.testing.assert_allclose(meant.cache["blocks.0.attn.out"], np.broadcast_to(other.mean(axis=0), (len(ids), d)),
                               atol=1e-6)


@pytest.mark.parametrize("hooks_given, says", [
    ({"blocks.0.attn.out": lambda a, c: a[:2]}, "hooks: blocks.0.attn.out's function gave an array of shape (2, 64); "
                                               "give None or finite numbers of shape"),
    ({"blocks.0.attn.out": lambda a, c: a * np.nan}, "hooks: blocks.0.attn.out's function gave numbers that are not "
                                                     "finite"),
    ({"blocks.0.attn.out": lambda a, c: "x"}, "hooks: blocks.0.attn.out's function gave str"),
    ({"blocks.0.attn.out": 3}, "hooks: blocks.0.attn.out: give a function of (array, cache), not int"),
    ({"blocks.9.attn.out": api.zero()}, "hooks: 'blocks.9.attn.out' names no hook point"),
    ([("blocks.0.attn.out", api.zero())], "hooks: give {hook point: function}, not list"),
    ({"blocks.0.attn.out": api.add([1.0, 2.0])}, "add: the direction has 2 numbers, this point's vectors 64"),
    ({"blocks.0.attn.out": api.zero(heads=1)}, "zero(heads=…): heads are chosen at a per-head point"),
    ({"embed": lambda a, c: 10**400}, "hooks: embed's function gave int"),
    ({"embed": lambda a, c: a.astype(str)}, "hooks: embed's function gave an array of <U32 of shape (4, 64)"),
    ({"embed": lambda a, c: a.astype(complex)}, "hooks: embed's function gave an array of complex128 of shape (4, 64)"),
    ({"embed": lambda a, c: a * 1e39}, "hooks: embed's function gave numbers that are not finite"),  # past float32
    ({"embed": api.add(np.ones(64), heads=[0])}, "add(heads=…): heads are chosen at a per-head point (q, k, v, "
                                                 "scores, pattern, z), not at a point of the stream"),
    ({"blocks.0.attn.z": api.add(np.ones(16), heads=[7])}, "add(heads=…): heads are chosen at a per-head point (q, "
                                                           "k, v, scores, pattern, z) of this model's 4 heads"),
    ({"embed": api.add(np.ones(64), positions=[100])}, "positions: the text has positions 0 to 3"),
])
def test_a_hook_that_gives_back_something_else_is_refused_naming_it(hooks_given, says):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    with pytest.raises(ModelError) as refused:
        m.run("hi there", hooks=hooks_given)
    assert says in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("make, says", [
    (lambda: api.add([np.nan]), "give a direction as one list of finite numbers"),
    (lambda: api.add([1.0], alpha=np.inf), "alpha: give a finite number"),
    (lambda: api.project_out([0.0, 0.0]), "project_out: the direction is 0"),
    (lambda: api.mean([]), "mean: give arrays of one hook point"),
    (lambda: api.zero(heads=[-1]), "heads: give head numbers"),
    (lambda: api.zero(heads=[]), "heads: give head numbers"),
    (lambda: api.zero(heads=itertools.count()), "heads: give head numbers"),  # endless: read no further
    (lambda: api.add([1.0], heads=1.5), "heads: give head numbers"),
    (lambda: api.add([1.0], heads=[2**70]), "heads: give head numbers"),
    (lambda: api.add([1.0], alpha=10**400), "alpha: give a finite number"),
    (lambda: api.add([1.0], alpha=1e300), "alpha: give a finite number, less than 1e38 in size"),
    (lambda: api.add(np.full(64, 1e-300)), "direction: its numbers are too small for float32: they round to 0"),
    (lambda: api.add([10**400] * 4), "give a direction as one list of finite numbers"),
    (lambda: api.add([1j, 2]), "give a direction as one list of finite numbers"),
    (lambda: api.add([1.0], positions="abc"), "positions: give a position, a slice or a list of positions"),
    (lambda: api.replace(10**400), "replace: give an array of real numbers"),
    (lambda: api.replace([True, False]), "replace: give an array of real numbers"),
    (lambda: api.mean([[[1e300]]]), "mean: give finite numbers"),
    (lambda: api.mean([np.ones((0, 4))]), "mean: give an array of real numbers"),  # no positions: no mean
])
def test_a_ready_made_write_given_what_it_cannot_use_is_refused_when_made(make, says):
    with pytest.raises(ModelError, match=says.replace("(", r"\(")):
        make()


@pytest.mark.parametrize("keep, says", [
    (5, "keep: give hook point names (texts), not int"),
    (b"embed", "keep: give hook point names (texts), not bytes"),
    (itertools.repeat("embed"), "keep: give at most 10,000 names or globs"),  # endless: read no further
    (["embed\n\x1b[31mred"], "keep: 'embed↵^[[31mred' names no hook point"),
    (["[!" * 30_000], "keep: a name or glob of 60,000 characters; hook point names are at most 200"),
])
def test_what_keep_cannot_name_is_one_line_read_no_further_than_it_must(keep, says):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    with pytest.raises(ModelError) as refused:
        m.run("hi", keep=keep)
    assert says in str(refused.value) and "\n" not in str(refused.value) and "\x1b" not in str(refused.value)


def test_a_hook_glob_too_long_to_name_anything_is_refused_before_it_is_matched():
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    with pytest.raises(ModelError, match="hooks: a name or glob of 20,000 characters"):
        m.run("hi", hooks={"[" * 20_000: api.zero()})


def test_a_hook_reads_the_cache_but_cannot_write_into_it():
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))

    def scribble(array, cache):
        cache["blocks.0.resid_pre"] = "junk"
    with pytest.raises(TypeError, match="does not support item assignment"):
        m.run("hi", keep=["embed"], hooks={"blocks.1.resid_pre": scribble})


def test_a_hook_cannot_write_into_an_array_the_run_has_kept():
    """Attacker round 15: the mapping was read-only but its arrays were not: NaN written into the kept stream."""
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    tried = []

    def scribble(array, cache):
        try:
            cache["blocks.0.resid_pre"][...] = np.nan
        except ValueError as e:
            tried.append(str(e))
    run = m.run("hi", keep=["blocks.0.resid_pre"], hooks={"blocks.1.resid_pre": scribble})
    assert tried and "read-only" in tried[0] and np.isfinite(run.cache["blocks.0.resid_pre"]).all()

    def unlock(array, cache):  # attacker round 16: a read-only view could be made writable through its base
        kept = cache["blocks.0.resid_pre"]
        kept.setflags(write=True) if kept.base is None else kept.base.setflags(write=True)
        kept[...] = 1e5
    run = m.run("hi", keep=["blocks.0.resid_pre"], hooks={"blocks.1.resid_pre": unlock})
    assert np.abs(run.cache["blocks.0.resid_pre"]).max() < 1e5
    assert run.cache["blocks.0.resid_pre"].flags.writeable  # the researcher's own copy stays theirs


@pytest.mark.parametrize("hook, says", [
    (lambda a, c: np.full_like(a, 3e38), "hooks: blocks.0.resid_pre's function gave 3e+38; the numbers written must be "
                                         "between -1,000,000 and 1,000,000"),
    (api.add(np.ones(64), 1e37), "gave 1e+37; the numbers written must be between"),
    (api.mean(np.full((2, 64), 3e38, np.float32)), "gave 3e+38; the numbers written must be between"),
])
def test_numbers_written_past_what_an_edit_may_hold_are_refused_not_run_into_a_flat_prediction(hook, says):
    """Attacker round 15: near float32's largest, the norms overflowed and every token came out 1/512."""
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    with pytest.raises(ModelError, match=re.escape(says)):
        m.run("abcd", hooks={"blocks.0.resid_pre": hook})


@pytest.mark.parametrize("hook, says", [
    (lambda a, c: np.full_like(a, 1_000_001), "gave 1,000,001; the numbers written must be between"),
    (lambda a, c: np.ones(a.shape, bool), "gave an array of bool of shape (4, 64); give None or finite numbers"),
    (lambda a, c: np.full(a.shape, 1e39), "gave numbers that are not finite (NaN, infinity, or past float32's range)"),
])
def test_a_refused_hook_result_is_said_as_it_is(hook, says):
    """Attacker round 16: the right shape was called the wrong one, and 1,000,001 was shown as 1e+06."""
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    with pytest.raises(ModelError, match=re.escape(says)):
        m.run("abcd", hooks={"blocks.0.resid_pre": hook})


@pytest.mark.parametrize("where", [dict(positions=[np.array(1), np.array(2)]), dict(positions=slice(np.array(1), 3)),
                                   dict(heads=[np.array(0), np.int64(1)])])
def test_0_d_arrays_inside_a_list_or_a_slice_are_integers_too(where):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    point = "blocks.0.attn.z" if "heads" in where else "embed"
    plain = {k: ([int(x) for x in v] if isinstance(v, list) else slice(1, 3)) for k, v in where.items()}
    width = m.lm.config.d_head if "heads" in where else m.lm.config.d
    got = m.run("abcd", hooks={point: api.add(np.ones(width), 1.0, **where)}, keep=["logits"])
    expected = m.run("abcd", hooks={point: api.add(np.ones(width), 1.0, **plain)}, keep=["logits"])
    assert np.array_equal(got.cache["logits"], expected.cache["logits"])


@pytest.mark.parametrize("where", [dict(positions=np.array([1, 2], dtype="m8[D]")), dict(positions=np.timedelta64(1)),
                                   dict(heads=np.timedelta64(1)), dict(heads=[True])])
def test_a_timedelta_or_a_bool_is_no_position_or_head(where):
    with pytest.raises(ModelError, match="positions: give a position|heads: give head numbers"):
        api.add(np.ones(64), 1.0, **where)


def test_more_hooks_than_keep_takes_are_refused_before_any_is_matched(monkeypatch):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    matched = []
    monkeypatch.setattr(given.fnmatch, "filter", lambda *a: matched.append(a) or [])
    with pytest.raises(ModelError, match="hooks: give at most 10,000 names or globs"):
        m.run("hi", hooks={f"blocks.{i}.*": api.zero() for i in range(10_001)})
    assert matched == []


def test_project_out_of_a_direction_near_float32s_largest_still_takes_it_out():
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    u = np.zeros(64, np.float32)
    u[0] = 3e38
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow on the way: |u| is worked out scaled
        run = m.run("hi", hooks={"embed": api.project_out(u)}, keep=["embed"])
    assert np.abs(run.cache["embed"][:, 0]).max() == 0


def test_a_no_op_hook_on_a_big_point_is_reckoned_before_the_run_as_keep_is(monkeypatch):
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    monkeypatch.setattr(given, "MOST_KEPT", 4096)
    with pytest.raises(ModelError, match=r"hooks: writing these points over \d+ tokens works on [\d.]+ MB"):
        m.run("hi there, you", hooks={"blocks.*.attn.scores": lambda a, c: None})


def test_mean_over_more_numbers_than_a_run_keeps_is_refused_before_any_copy(monkeypatch):
    from attnviz.core.research import interventions
    monkeypatch.setattr(interventions, "MOST_MEAN_VALUES", 100)
    with pytest.raises(ModelError, match="mean: give at most 100 numbers in all"):
        api.mean([np.ones((4, 16), np.float32), np.ones((4, 16), np.float32)])
    np.testing.assert_allclose(api.mean([np.arange(8.0).reshape(4, 2)])(np.zeros((3, 2), np.float32), {}),
                               [[3.0, 4.0]] * 3)


def test_keep_none_keeps_nothing():
    m = api.load(str(GOLDEN / "families" / "llama" / "hf"))
    assert m.run("hi", keep=None).cache == {}
