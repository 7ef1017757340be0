"""Masks beyond causal: each kind's pattern, refusals, files, and token edits."""
import numpy as np
import pytest

from attnviz.core import ScenarioError, compute, load_preset, load_scenario, save_scenario
from attnviz.core.masks import MaskSpec, causal_custom, toggled, toggled_padding, visible
from attnviz.core.scenario import same_scenario, with_settings, with_token_inserted, with_token_removed


def test_none_and_causal():
    assert visible(MaskSpec("none"), 3).all()
    assert visible(MaskSpec("causal"), 3).tolist() == [[1, 0, 0], [1, 1, 0], [1, 1, 1]]


def test_a_sliding_window_of_two_sees_itself_and_the_token_before():
    assert visible(MaskSpec("window", window=2), 4).astype(int).tolist() == [
        [1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]


def test_prefix_lm_lets_the_prefix_see_itself_both_ways_and_the_rest_causally():
    assert visible(MaskSpec("prefix", prefix=2), 4).astype(int).tolist() == [
        [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]


def test_padded_tokens_are_hidden_from_every_other_token():
    v = visible(MaskSpec("padding", padding=(1,)), 4).astype(int)
    assert v.tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 1, 1]]


def test_hand_painting_toggles_one_cell_starting_from_causal():
    spec = toggled(MaskSpec("custom", custom=causal_custom(3)), 3, 2, 0)
    assert visible(spec, 3).astype(int).tolist() == [[1, 0, 0], [1, 1, 0], [0, 1, 1]]
    assert toggled(spec, 3, 2, 0) == MaskSpec("custom", custom=causal_custom(3))


@pytest.mark.parametrize("spec", [MaskSpec("window", window=2), MaskSpec("prefix", prefix=3),
                                  MaskSpec("padding", padding=(2, 4)), MaskSpec("none")])
def test_the_weights_follow_the_mask_exactly(spec):
    s = with_settings(load_preset("seed-demo"), mask=spec)
    trace = compute(s).heads[0]
    hidden = ~visible(spec, s.n)
    assert np.all(trace.weights[hidden] == 0.0) and np.all(trace.weights[~hidden] > 0)
    np.testing.assert_allclose(trace.weights.sum(axis=1), 1.0)


def test_a_mask_that_leaves_a_row_with_no_key_is_refused_with_the_token_named():
    s = load_preset("toy-3token")
    painted = toggled(MaskSpec("custom", custom=causal_custom(3)), 3, 0, 0)  # 猫 hides itself
    with pytest.raises(ScenarioError, match="query 猫 would see no key"):
        with_settings(s, mask=painted)
    with pytest.raises(ScenarioError, match="width of at least 1"):
        with_settings(s, mask=MaskSpec("window", window=0))


def test_masks_are_saved_in_the_scenario_file(tmp_path):
    s = load_preset("seed-demo")
    for spec in (MaskSpec("window", window=3), MaskSpec("padding", padding=(1, 3)),
                 toggled(MaskSpec("custom", custom=causal_custom(10)), 10, 9, 0)):
        edited = with_settings(s, mask=spec)
        save_scenario(edited, tmp_path / "m.json")
        back = load_scenario(tmp_path / "m.json")
        assert back.settings.mask == spec and same_scenario(back, edited)


def test_inserting_and_removing_tokens_moves_padding_and_painted_cells_along():
    s = with_settings(load_preset("toy-3token"), mask=toggled_padding(MaskSpec(), 2))
    grown = with_token_inserted(s, 0, "黒い")
    assert grown.settings.mask.padding == (3,)
    assert with_token_removed(grown, 3).settings.mask.padding == ()
    painted = with_settings(load_preset("toy-3token"),
                            mask=toggled(MaskSpec("custom", custom=causal_custom(3)), 3, 2, 0))
    grown = with_token_inserted(painted, 1, "黒い")
    v = visible(grown.settings.mask, 4).astype(int)
    assert v.tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1]]  # new row/column causal


def test_a_file_with_a_broken_mask_is_refused(tmp_path):
    import json

    from attnviz.core.formats.document import scenario_to_dict
    doc = scenario_to_dict(load_preset("toy-3token"))
    doc["settings"]["mask"] = {"kind": "window", "window": "wide"}
    (tmp_path / "m.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ScenarioError, match='mask "window" must be a whole number'):
        load_scenario(tmp_path / "m.json")


def test_a_prefix_grows_and_shrinks_with_the_tokens_inside_it():
    s = with_settings(load_preset("toy-3token"), mask=MaskSpec("prefix", prefix=3))
    assert with_token_removed(s, 1).settings.mask.prefix == 2
    assert with_token_inserted(s, 0, "黒い").settings.mask.prefix == 4
    assert with_token_inserted(s, 3, "だ").settings.mask.prefix == 3  # after the prefix: unchanged


def test_a_ragged_painted_mask_in_a_file_is_refused(tmp_path):
    import json

    from attnviz.core.formats.document import scenario_to_dict
    doc = scenario_to_dict(load_preset("toy-3token"))
    doc["settings"]["mask"] = {"kind": "custom", "custom": [[1], [1, 1], [1, 1, 1]]}
    (tmp_path / "m.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ScenarioError, match="one row of 0 .hidden. and 1 .visible. per token"):
        load_scenario(tmp_path / "m.json")
    doc["settings"]["mask"] = {"kind": "window", "window": 2, "custom": [[1]]}  # stray: ignored
    (tmp_path / "m.json").write_text(json.dumps(doc), encoding="utf-8")
    s = load_scenario(tmp_path / "m.json")
    assert s.settings.mask.custom is None and with_token_inserted(s, 0, "a").n == 4
