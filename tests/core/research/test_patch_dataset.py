"""Patching over a dataset of prompt pairs with a metric of one's own, and runs in a batch (issue 47, point 3):
a dataset's map is its pairs' maps averaged; a metric's value is what it says of each patched run's logits;
a batch is each text's own run."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from attnviz import api
from attnviz.core.lm.shown import ModelError
from attnviz.core.research import given

LLAMA = Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "hf"
PAIRS = [("hi thera", "hi therd", "#3", "#5"), ("hi therd", "hi thera", "#7", "#9"),
         {"clean": "hi there", "corrupted": "hi thede", "answer": "#11", "against": "#5"}]


@pytest.fixture(scope="module")
def m():
    return api.load(str(LLAMA))


@pytest.mark.parametrize("by", ["head", "position"])
def test_a_datasets_map_is_its_pairs_maps_averaged(m, by):
    pairs = PAIRS[:2]
    each = [api.patch(m, *pair, by=by) for pair in pairs]
    found = api.patch(m, pairs, by=by)
    assert found.pairs == 2 and found.answer == found.against == -1 and found.by == by
    # the pairs rerun together go through one product per weight: float32 sums in another order
    np.testing.assert_allclose(found.restored, np.mean([f.restored for f in each], axis=0), rtol=1e-5, atol=1e-6)


def test_a_pair_may_be_a_dict_and_progress_runs_over_every_pair(m):
    told = []
    found = api.patch(m, PAIRS, progress=lambda done, total: told.append((done, total)))
    done, total = zip(*told)
    assert found.pairs == 3 and set(total) == {total[0]} and list(done) == list(range(1, total[0] + 1))
    assert total[0] % m.layers == 0  # a step a layer, for each group of pairs patched together


def test_a_metric_of_ones_own_is_what_it_says_of_each_patched_runs_logits(m):
    clean, corrupted, answer, against = PAIRS[0]
    a, b = m.token(answer), m.token(against)
    seen = []

    def logit_diff(patched, clean_logits, corrupted_logits, pair):
        seen.append(pair)
        assert clean_logits.shape == corrupted_logits.shape == patched.shape == (len(m.lm.output),)
        return float(patched[a] - patched[b])
    own = api.patch(m, clean, corrupted, answer, against, metric=logit_diff)
    usual = api.patch(m, clean, corrupted, answer, against)
    assert own.metric == "own" and usual.metric == "logit-diff-restored" and set(seen) == {None}
    np.testing.assert_allclose(own.restored, usual.corrupted + usual.restored * (usual.clean - usual.corrupted),
                               atol=1e-9)
    seen.clear()
    api.patch(m, PAIRS[:2], metric=logit_diff)
    assert set(seen) == {PAIRS[0], PAIRS[1]}


@pytest.mark.parametrize("metric, says", [
    (lambda z, c, k, p: float("nan"), "metric: it gave nan; give a function returning a finite number"),
    (lambda z, c, k, p: "high", "metric: it gave 'high'; give a function returning a finite number"),
    (lambda z, c, k, p: None, "metric: it gave None; give a function returning a finite number"),
    (lambda z, c, k, p: 10**400, "metric: it gave 100000000000000000000000000000000000000…; give a function"),
    (lambda z, c, k, p: np.timedelta64(3), "metric: it gave np.timedelta64(3); give a function"),
    (lambda z, c, k, p: np.complex128(1), "metric: it gave np.complex128(1+0j); give a function"),
    (5, "metric: give a function to call, or None"),
])
def test_a_metric_that_gives_no_number_is_refused_naming_it(m, metric, says):
    with pytest.raises(ModelError) as refused:
        api.patch(m, *PAIRS[0], metric=metric)
    assert says in str(refused.value) and "\n" not in str(refused.value)



def test_a_metric_whose_values_add_up_past_the_floats_largest_is_refused_not_averaged_to_infinity(m):
    """Attacker round 15: two pairs' 1e308 each made a map of inf, written to CSV and drawn."""
    with pytest.raises(ModelError, match="metric: its values over the 2 pairs add up past the largest number"):
        api.patch(m, PAIRS[:2], metric=lambda z, c, k, p: 1e308)
    assert np.all(api.patch(m, PAIRS[:2], metric=lambda z, c, k, p: 1e307).restored == 1e307)


SELF: list = []
SELF.append((SELF, None, None, None))  # a dataset holding itself: refused, not recursed into


@pytest.mark.parametrize("pairs, says", [
    ([], "pairs: give from 1 to 10,000 (clean, corrupted, answer, against) pairs"),
    (itertools.repeat(PAIRS[0]), "pairs: give from 1 to 10,000"),  # endless: read no further
    ([("hi", "ho")], "pairs: pair 0 is not (clean, corrupted, answer, against)"),
    ([PAIRS[0], {"clean": "hi"}], "pairs: pair 1 is not (clean, corrupted, answer, against)"),
    ([([PAIRS[0]], None, None, None)], "pairs: pair 0 is not (clean, corrupted, answer, against)"),  # no nesting
    (SELF, "pairs: pair 0 is not (clean, corrupted, answer, against)"),
])
def test_a_dataset_that_is_no_list_of_pairs_is_refused_saying_what_a_pair_is(m, pairs, says):
    with pytest.raises(ModelError, match=says.replace("(", r"\(").replace(")", r"\)")):
        api.patch(m, pairs)


def test_pairs_of_other_lengths_are_refused_by_position_and_averaged_by_head(m):
    pairs = [PAIRS[0], ("hi there, you", "hi there, yes", "#3", "#5")]
    with pytest.raises(ModelError, match="pairs: pair 1 is .* tokens and pair 0 .*: patching by position averages"):
        api.patch(m, pairs, by="position")
    found = api.patch(m, [pairs[1], *pairs, pairs[0]])  # two lengths, interleaved: patched by length
    each = [api.patch(m, *pair).restored for pair in [pairs[1], *pairs, pairs[0]]]
    np.testing.assert_allclose(found.restored, np.mean(each, axis=0), rtol=1e-5, atol=1e-6)
    assert found.tokens == m.run(pairs[1][0]).tokens  # pair 0's, as ever


def test_pairs_patched_a_few_at_a_time_give_the_same_map(m, monkeypatch):
    together = api.patch(m, PAIRS)
    monkeypatch.setattr(api, "PAIRS_AT_ONCE", 2)
    np.testing.assert_allclose(api.patch(m, PAIRS).restored, together.restored, rtol=1e-5, atol=1e-6)


def test_a_pair_with_nothing_to_restore_is_refused_before_any_pair_is_patched(m, monkeypatch):
    """Attacker round 14: the 50th pair's equal logit difference ended the run after 49 pairs' patching."""
    monkeypatch.setattr(api._patch, "patch_many", lambda *a, **k: pytest.fail("patched before the check"))
    with pytest.raises(ModelError, match="pairs: pair 2: the two prompts give the same logit difference"):
        api.patch(m, [PAIRS[0], PAIRS[1], ("hi thera", "hi thera", "#3", "#5")])


def test_a_batch_is_each_texts_own_run(m):
    texts = ["hi there", "hi there, you", "ho"]
    batch = m.run_batch(texts, off=[(1, 2)], keep=["blocks.0.attn.pattern"])
    for run, text in zip(batch, texts):
        alone = m.run(text, off=[(1, 2)], keep=["blocks.0.attn.pattern"])
        assert run.tokens == alone.tokens and np.array_equal(run.logits, alone.logits)
        assert np.array_equal(run.cache["blocks.0.attn.pattern"], alone.cache["blocks.0.attn.pattern"])
    with pytest.raises(ModelError, match="texts: give a list of texts, not str"):
        m.run_batch("hi there")


@pytest.mark.parametrize("texts, says", [
    (itertools.repeat("hi"), "texts: give at most 10,000 texts"),  # endless: read no further
    (["hi there"] * 4000, r"texts: the first [\d,]+ runs, over [\d,]+ tokens, would already keep [\d,.]+ MB; "
                          r"at most 1.0 MB"),
    (["hi", 5], "the text must be one string, not int"),
])
def test_a_batch_too_big_to_keep_is_refused_before_its_first_run(m, monkeypatch, texts, says):
    monkeypatch.setattr(given, "MOST_KEPT", 2**20)
    ran = []
    monkeypatch.setattr(api.lm, "run", lambda *a, **k: ran.append(a))
    with pytest.raises(ModelError, match=says):
        m.run_batch(texts)
    assert ran == []


def test_a_batch_too_big_is_refused_at_the_first_text_that_goes_over(m, monkeypatch):
    """Attacker round 14: 10,000 long texts were all tokenised (11.6 s) before the memory refusal."""
    monkeypatch.setattr(given, "MOST_KEPT", 2**20)
    encode, read = api.lm.encode, []
    monkeypatch.setattr(api.lm, "encode", lambda *a, **k: read.append(a) or encode(*a, **k))
    with pytest.raises(ModelError, match="texts: the first ") as refused:
        m.run_batch(["hi there"] * 4000)
    first = int(str(refused.value).split("the first ")[1].split(" runs")[0].replace(",", ""))
    assert 1 < first < 4000 and len(read) == first


def test_a_sweep_over_a_dataset_is_its_texts_sweeps_averaged(m):
    texts = [("hi there", "#3"), ("hi there, you", "#5"), ("ho hum", "#3")]
    found = api.sweep(m, texts)
    each = [api.sweep(m, text, token) for text, token in texts]
    np.testing.assert_allclose(found.delta_logp, np.mean([f.delta_logp for f in each], axis=0), rtol=0, atol=1e-12)
    assert found.texts == 3 and found.token == -1 and abs(found.logp - np.mean([f.logp for f in each])) < 1e-12
    shared = api.sweep(m, (t for t, _ in texts), "#3", mean=True)  # a generator of texts sharing one token
    assert shared.token == 3 and shared.mean and shared.texts == 3


@pytest.mark.parametrize("texts, token, says", [
    ([], None, "texts: give from 1 to 10,000 texts, or (text, token) pairs"),
    (["hi there"], None, "texts: item 0 is neither a text (with token= given) nor a (text, token) pair"),
    ([("hi", "#3", "x")], None, "texts: item 0 is neither"),
    (itertools.repeat("hi"), "#3", "texts: give from 1 to 10,000"),  # endless: read no further
])
def test_a_sweep_dataset_that_is_none_is_refused_saying_what_an_item_is(m, texts, token, says):
    with pytest.raises(ModelError, match=says.replace("(", r"\(").replace(")", r"\)")):
        api.sweep(m, texts, token)


def test_a_dataset_with_answer_given_is_refused_each_pair_gives_its_own(m):
    with pytest.raises(ModelError, match="pairs: each pair gives its answer and against: leave out answer="):
        api.patch(m, PAIRS[:1], answer="#3")


def test_a_run_made_with_hooks_is_refused_where_its_layers_would_be_rerun_without_them(m):
    hooked = m.run("hi there", hooks={"blocks.1.resid_pre": api.add(np.ones(64), 4.0)})
    for call in (lambda: api.sweep(m, hooked, "#3"), lambda: api.head_attribution(hooked, "#3"),
                 lambda: api.patch(m, hooked, m.run("ho there"), answer="#3", against="#5")):
        with pytest.raises(ModelError, match="this run was made with hooks=, which patching, attribution and sweeps"):
            call()
    assert api.logit_lens(hooked).ids.shape[0] == m.layers  # the lens reads the streams as they were written


@pytest.mark.parametrize("call, says", [
    (lambda m: api.sweep(m, [("hi there", "#3"), ("ho", "not one token at all")]),
     "texts: item 1: 'not one token at all' is"),
    (lambda m: api.patch(m, [PAIRS[0], ("hi there", "ho there", "#3", "not one token at all")]),
     "pairs: pair 1: 'not one token at all' is"),
    (lambda m: api.patch(m, [PAIRS[0], ("hi there", "hi there, you", "#3", "#5")]),
     "pairs: pair 1: the clean prompt is"),
])
def test_every_item_of_a_dataset_is_checked_before_the_first_is_run(m, monkeypatch, call, says):
    ran = []
    monkeypatch.setattr(api._sweep, "sweep", lambda *a, **k: ran.append(a))
    monkeypatch.setattr(api._patch, "patch", lambda *a, **k: ran.append(a))
    with pytest.raises(ModelError, match=says):
        call(m)
    assert ran == []


@pytest.mark.parametrize("by", ["position", "attention"])
def test_a_layers_patches_are_made_a_share_at_a_time_not_all_before_the_rerun(m, by, monkeypatch):
    """Attacker round 15: patching 1,000 tokens by position made 1,000 copies of the stream first (3.4 GB)."""
    from attnviz.core.research import batch, patch
    text = "hi there you"
    n = len(m.run(text).ids)
    monkeypatch.setattr(batch, "MAX_ROWS", 2 * n)  # 2 variants a share
    made, most = [], []
    row_from, rerun = patch._row_from, batch._rerun
    monkeypatch.setattr(patch, "_row_from", lambda *a: made.append(1) or row_from(*a))
    monkeypatch.setattr(batch, "_rerun", lambda *a: most.append(len(made)) or made.clear() or rerun(*a))
    found = api.patch(m, text, "hi thede you", "#3", "#5", by=by)
    share = 1 if by == "position" else m.heads  # attention: every head's output at the position
    assert n > 2 and max(most) == 2 * share and np.isfinite(found.restored).all()


def test_a_metric_cannot_change_the_runs_logits_it_is_handed(m):
    """Attacker round 16: c.fill(0) in a metric zeroed the user's own clean run's logits, and the map's 'clean'."""
    clean, corrupted = m.run(PAIRS[0][0]), m.run(PAIRS[0][1])
    before = clean.logits.copy()
    tried = []

    def scribble(z, c, k, pair):
        for array in (z, c, k):
            try:
                array[...] = 0
            except ValueError as e:
                tried.append(str(e))
        return 1.0
    found = api.patch(m, clean, corrupted, *PAIRS[0][2:], metric=scribble)
    assert len(tried) >= 3 and all("read-only" in t for t in tried)
    assert np.array_equal(clean.logits, before) and found.clean == api.patch(m, clean, corrupted, *PAIRS[0][2:]).clean


def test_a_metric_giving_a_0_d_array_gives_its_number(m):
    found = api.patch(m, *PAIRS[0], metric=lambda z, c, k, p: np.array(1.5))
    assert np.all(found.restored == 1.5)


@pytest.mark.parametrize("texts, says", [
    (["hi", "ho", None], "texts: text 2: give a text, not None"),
    (["hi", ""], "texts: text 1: the text is empty"),
    (["hi", "\ud800"], "texts: text 1: the text is not valid UTF-8"),
])
def test_a_batchs_bad_text_is_named_by_its_place(m, texts, says):
    """Attacker round 16: one of 10,000 texts was refused without saying which."""
    with pytest.raises(ModelError, match=re.escape(says)):
        m.run_batch(texts)
