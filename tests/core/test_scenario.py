"""Scenario validation and the pure edits the window builds on."""
import numpy as np
import pytest

from attnviz.core import ScenarioError, load_preset, make_head, make_scenario
from attnviz.core.numbers import NumberError, parse_number
from attnviz.core.scenario import (
    with_row,
    with_settings,
    with_token_inserted,
    with_token_removed,
    with_token_renamed,
    with_value,
)


def tiny(**changes):
    args = dict(tokens=["猫", "魚"], heads=[make_head("h", [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1], [2]])])
    args.update(changes)
    return make_scenario(**args)


def test_no_tokens_is_refused_with_a_message_that_says_so():
    with pytest.raises(ScenarioError, match="no tokens"):
        tiny(tokens=[], heads=[make_head("h", np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)))])


def test_a_shape_mismatch_names_the_head_the_matrix_and_the_rows_needed():
    bad = make_head("意味", [[1, 0], [0, 1]], [[1, 0]], [[1], [2]])
    with pytest.raises(ScenarioError, match=r"head 0 \(意味\): k has shape \(1 × 2\).*needs 2 rows"):
        tiny(heads=[bad])


def test_q_and_k_of_different_widths_are_refused():
    bad = make_head("h", [[1, 0], [0, 1]], [[1], [0]], [[1], [2]])
    with pytest.raises(ScenarioError, match="same d_k"):
        tiny(heads=[bad])


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 2e6])
def test_a_non_finite_or_huge_number_names_head_matrix_row_token_and_column(value):
    bad = make_head("h", [[1, 0], [0, value]], [[1, 0], [0, 1]], [[1], [2]])
    with pytest.raises(ScenarioError, match=r"head 0 \(h\): q, row 2 \(魚\), column 2"):
        tiny(heads=[bad])


def test_empty_token_names_are_refused():
    with pytest.raises(ScenarioError, match="token 2 is empty"):
        tiny(tokens=["猫", "  "])


def test_a_cell_edit_returns_a_new_scenario_and_leaves_the_old_one_alone():
    s = tiny()
    t = with_value(s, 0, "q", 1, 0, 2.5)
    assert t.heads[0].q[1, 0] == 2.5 and s.heads[0].q[1, 0] == 0.0
    with pytest.raises(ValueError):
        t.heads[0].q[0, 0] = 9  # arrays are read-only: nobody can change a scenario in place


def test_a_cell_edit_to_nan_is_refused():
    with pytest.raises(ScenarioError):
        with_value(tiny(), 0, "k", 0, 0, float("nan"))


def test_a_row_edit_sets_one_tokens_vector():
    s = with_row(tiny(), 0, "q", 0, [3, 4])
    assert s.heads[0].q.tolist() == [[3, 4], [0, 1]]


def test_inserting_and_removing_tokens_changes_every_head():
    s = load_preset("seed-demo")
    grown = with_token_inserted(s, 2, "とても")
    assert grown.tokens[2] == "とても" and grown.n == 11
    for head in grown.heads:
        assert head.q.shape[0] == head.k.shape[0] == head.v.shape[0] == 11
        assert head.q[2].tolist() == [0.0] * head.d_k
    shrunk = with_token_removed(grown, 2)
    assert shrunk.tokens == s.tokens
    for a, b in zip(shrunk.heads, s.heads):
        np.testing.assert_array_equal(a.q, b.q)


def test_the_last_token_cannot_be_removed():
    s = with_token_removed(tiny(), 0)
    with pytest.raises(ScenarioError, match="last token"):
        with_token_removed(s, 0)


def test_renaming_a_token_keeps_its_vectors():
    s = with_token_renamed(tiny(), 1, "鮭")
    assert s.tokens == ("猫", "鮭") and s.heads[0].q[1].tolist() == [0, 1]


def test_temperature_outside_the_range_is_refused():
    with pytest.raises(ScenarioError, match="temperature"):
        with_settings(tiny(), temperature=0.0)


def test_v_uses_the_q_k_labels_when_it_has_the_same_width():
    head = load_preset("seed-demo").heads[0]
    assert head.dim_labels("q") == ("動物", "食べ物", "動作", "文法")
    assert head.dim_labels("v") == head.dim_labels("q")


def test_projection_scenarios_refuse_direct_q_edits_but_follow_token_edits():
    s = load_preset("projection-demo")
    with pytest.raises(ScenarioError, match="derived"):
        with_value(s, 0, "q", 0, 0, 1.0)
    grown = with_token_inserted(s, 0, "黒い")
    assert grown.projection.x.shape == (6, 4)
    assert all(h.q.shape == (6, 2) for h in grown.heads)


@pytest.mark.parametrize("text, value", [
    ("2.5", 2.5), (" -1 ", -1.0), ("２.５", 2.5), ("－１", -1.0), ("−3", -3.0), ("1e-3", 0.001),
    ("+4", 4.0), ("1e6", 1e6),
])
def test_numbers_people_type_are_accepted(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text, reason", [
    ("abc", "not a number"), ("", "empty"), ("-", "not a number"), ("nan", "not a finite"),
    ("inf", "not a finite"), ("1e400", "too large"), ("1000001", "too large"), ("1,5", "not a number"),
])
def test_text_that_is_not_a_usable_number_is_refused_with_a_reason(text, reason):
    with pytest.raises(NumberError, match=reason):
        parse_number(text)


def test_dimension_labels_must_match_the_dimensions():
    bad = make_head("h", [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1], [2]], labels=["animal"])
    with pytest.raises(ScenarioError, match="1 labels for 2 dimensions"):
        tiny(heads=[bad])


def test_same_scenario_compares_every_option_of_a_layer_not_only_its_matrices():
    import dataclasses

    from attnviz.core.scenario import same_scenario
    s = load_preset("projection-demo")
    # The same X, W and derived heads: only the flags differ, and a file would store them.
    for change in ({"layer_norm": True}, {"positions": "rope"}, {"residual": False}):
        other = dataclasses.replace(s, projection=dataclasses.replace(s.projection, **change))
        assert not same_scenario(s, other), change
    assert same_scenario(s, dataclasses.replace(s, projection=dataclasses.replace(s.projection)))
