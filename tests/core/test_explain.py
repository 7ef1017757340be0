"""The step table's text: the tutorial's arithmetic written out."""
import numpy as np

from attnviz.core import compute, load_preset
from attnviz.core.explain import decimals_for, divisor_text, dot_text, fmt, fmt_vector, output_text, step_rows


def test_numbers_are_written_as_a_person_would():
    assert [fmt(2.0), fmt(0.76792), fmt(-0.5), fmt(0.0), fmt(-0.0)] == ["2", "0.768", "\u22120.5", "0", "0"]
    assert fmt(-np.inf) == "\u2212\u221e"
    assert fmt(1234567.0) == "1.235e+06"


def test_the_dot_product_is_written_out_like_the_tutorial():
    assert dot_text([0, 2], [2, 0]) == "0×2 + 2×0 = 0"
    assert dot_text([0, 2], [1, -1]) == "0×1 + 2×(\u22121) = \u22122"


def test_long_vectors_and_sums_are_shortened_but_keep_their_result():
    q, k = np.arange(64.0) / 64, np.ones(64)
    text = dot_text(q, k)
    assert "…" in text and text.endswith("= 31.500")
    assert fmt_vector(np.arange(10.0)) == "[0, 1, 2, 3, 4, 5, …]"


def test_the_divisor_column_names_what_the_scores_were_divided_by():
    assert divisor_text(2, True, 1.0) == "÷√2"
    assert divisor_text(64, True, 0.5) == "÷√64 ÷ 0.5"
    assert divisor_text(64, False, 1.0) == "÷ 1"


def test_the_worked_example_row_and_output():
    s = load_preset("toy-3token")
    head, trace = s.heads[0], compute(s).heads[0]
    rows = step_rows(s.tokens, head.q[2], head.k, trace, 2)
    assert [(r.key, r.dot, r.scaled, r.weight) for r in rows] == [
        ("猫", "0×2 + 2×0 = 0", "0.000", "0.045"),  # one format per column: 0.000 above 2.828
        ("魚", "0×0 + 2×2 = 4", "2.828", "0.768"),
        ("それ", "0×1 + 2×1 = 2", "1.414", "0.187")]
    assert output_text(trace.weights[2], head.v, trace.output[2]) == \
        "0.045×[2, 0] + 0.768×[0, 2] + 0.187×[1, 1] = [0.277, 1.723]"


def test_masked_keys_show_minus_infinity_and_zero_weight():
    s = load_preset("toy-3token")
    head, trace = s.heads[0], compute(s).heads[0]
    rows = step_rows(s.tokens, head.q[0], head.k, trace, 0)
    assert [(r.mask, r.weight, r.masked) for r in rows[1:]] == [("\u2212\u221e", "0", True)] * 2


def test_one_view_writes_its_numbers_with_one_number_of_decimals():
    assert decimals_for([0, 2, -1]) == 0 and decimals_for([0.5, 2]) == 1 and decimals_for([0.19, 0.184]) == 3
    assert decimals_for([1 / 3, 1e9]) == 3 and decimals_for([]) == 0
    assert [fmt(x, decimals_for([0.19, 0.184]), fixed=True) for x in (0.19, 0.184)] == ["0.190", "0.184"]
    assert fmt(-1e-9, 2, fixed=True) == "−0.00" and fmt(-0.0, 2, fixed=True) == "0.00"
    assert dot_text([0.5, 2], [2, 0]) == "0.5×2.0 + 2.0×0.0 = 1.00"  # products of 1 decimal need 2
