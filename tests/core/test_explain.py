"""The step table's text: the tutorial's arithmetic written out."""
import re

import numpy as np

from attnviz.core import compute, load_preset
from attnviz.core.explain import (
    StepNumbers,
    decimals_for,
    divisor_text,
    dot_text,
    fmt,
    fmt_exp,
    fmt_temperature,
    fmt_vector,
    output_text,
    step_rows,
    sum_row,
    times_ten,
)


def test_numbers_are_written_as_a_person_would():
    assert [fmt(2.0), fmt(0.76792), fmt(-0.5), fmt(0.0), fmt(-0.0)] == ["2", "0.768", "\u22120.5", "0", "0"]
    assert fmt(-np.inf) == "\u2212\u221e"
    assert fmt(1234567.0) == "1.235×10⁶" and fmt(-336_800.0, 2) == "−3.37×10⁵"  # as school writes them


def test_powers_of_ten_are_written_as_school_writes_them_never_in_e_notation():
    assert times_ten(336_800) == "3.37×10⁵" and times_ten(2.57e-27) == "2.57×10⁻²⁷"
    assert times_ten(-1.5e12, 2) == "−1.5×10¹²"
    for x in (1e5, 3.7e12, 2.2e-9, -4e7):
        assert "e" not in fmt_exp(abs(x)) + fmt(x) + times_ten(x)


def test_no_minus_zero_anywhere():
    for x in (-1e-9, -0.0, -0.0004, -0.004, -0.04, -0.4):
        for decimals in (0, 1, 2, 3):
            for fixed in (True, False):
                text = fmt(x, decimals, fixed)
                assert not re.fullmatch("\u22120(\\.0*)?", text), (x, decimals, fixed, text)
    assert fmt(-0.004, 2, fixed=True) == "0.00" and fmt(-0.006, 2, fixed=True) == "\u22120.01"
    assert fmt_vector([-1e-7, 2.0], 2, fixed=True) == "[0.00, 2.00]"


def test_exponentials_have_the_digits_a_class_checks_by_hand():
    # e to the 2.828 and 1.414 (÷√2 unrounded): the tutorial's 16.95 and 4.10 are read to the same digits
    assert [fmt_exp(x) for x in (1.0, np.exp(2 * np.sqrt(2)), np.exp(np.sqrt(2)))] == ["1.00", "16.92", "4.11"]
    assert [fmt_exp(np.exp(2.83)), fmt_exp(np.exp(1.41))] == ["16.95", "4.10"]  # the tutorial's, rounded first
    assert [fmt_exp(x) for x in (0.0, np.exp(-1), np.exp(-3), 336_800.0)] == ["0", "0.368", "0.0498", "3.37×10⁵"]


def test_the_temperature_is_written_as_it_is_used():
    assert [fmt_temperature(t) for t in (0.05, 0.049, 1.0, 10.0, 0.0125)] == ["0.05", "0.049", "1", "10", "0.0125"]
    assert divisor_text(4, True, 0.049) == "÷√4 ÷ 0.049"  # never 0.05 for what is 0.049


def test_the_dot_product_is_written_out_like_the_tutorial():
    assert dot_text([0, 2], [2, 0]) == "0×2 + 2×0 = 0"
    assert dot_text([0, 2], [1, -1]) == "0×1 + 2×(\u22121) = \u22122"
    # A projector's narrow column: each number with only the decimals it needs (はし's q of 1.5)
    assert dot_text([1.5, 1.5, 0, 0], [0, 0, 2, 0]) == "1.5×0.0 + 1.5×0.0 + 0.0×2.0 + 0.0×0.0 = 0.00"
    assert dot_text([1.5, 1.5, 0, 0], [0, 1, 2, 0], shortest=True) == "1.5×0 + 1.5×1 + 0×2 + 0×0 = 1.5"


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
    assert fmt(-1e-9, 2, fixed=True) == "0.00" and fmt(-0.0, 2, fixed=True) == "0.00"
    assert dot_text([0.5, 2], [2, 0]) == "0.5×2.0 + 2.0×0.0 = 1.00"  # products of 1 decimal need 2


def test_the_worked_examples_exponentials_and_sum_as_the_table_writes_them():
    s = load_preset("toy-3token")
    head, trace = s.heads[0], compute(s).heads[0]
    rows = step_rows(s.tokens, head.q[2], head.k, trace, 2)
    assert [r.exp for r in rows] == ["1.00", "16.92", "4.11"] and sum_row(trace, 2).exp == "22.03"
    exps = np.array([float(r.exp) for r in rows])  # each weight, by hand: its eˣ over Σ
    np.testing.assert_allclose(exps / 22.03, [float(r.weight) for r in rows], atol=6e-4)


def test_the_output_follows_the_sentence_not_the_weights():
    s = load_preset("seed-demo")
    head, trace = s.heads[0], compute(s).heads[0]
    i = s.tokens.index("それ")
    text = output_text(trace.weights[i], head.v, trace.output[i])
    assert text.startswith("0.034×[3, 0, 0, 0] + 0.034×[0, 0, 0, 1] + 0.680×[0, 3, 0, 0] + …")


def test_a_short_output_keeps_the_largest_weights_terms_in_the_sentences_order():
    s = load_preset("seed-demo")
    head, trace = s.heads[0], compute(s).heads[0]
    i = s.tokens.index("それ")
    weights = trace.weights[i]
    two = sorted(np.argsort(-weights)[:2])  # 魚 (0.680) and 食べた, in the sentence's order
    text = output_text(weights, head.v, trace.output[i], most=2, max_items=3)
    assert text == (f"{weights[two[0]]:.3f}×[{', '.join(fmt(x, 0, True) for x in head.v[two[0]][:3])}, …] + "
                    f"{weights[two[1]]:.3f}×[{', '.join(fmt(x, 0, True) for x in head.v[two[1]][:3])}, …] + … = "
                    f"[{', '.join(fmt(x, 3, True) for x in trace.output[i][:3])}, …]")
    assert "0.680×[0, 3, 0, …]" in text


def test_scores_too_large_for_e_to_the_x_are_shifted_and_say_by_what():
    from attnviz.core.scenario import with_settings
    s = load_preset("seed-demo")
    i, fish = s.tokens.index("それ"), s.tokens.index("魚")

    def numbers(t):
        hot = with_settings(s, temperature=t)
        head, trace = hot.heads[0], compute(hot).heads[0]
        return StepNumbers(hot.tokens, head.q[i], head.k, trace, i)
    sharp = numbers(0.05)  # 6 ÷ √4 ÷ 0.05 = 60: eˣ is still written out
    assert not sharp.shifted and sharp.row(fish).exp == "1.14×10²⁶"
    sharper = numbers(0.02)  # 6 ÷ √4 ÷ 0.02 = 150: e to the 150 would be 1.4×10⁶⁵
    assert sharper.shifted and sharper.peak == 150.0
    assert sharper.row(fish).exp == "1.00" and sharper.row(0).exp == "7.18×10⁻⁶⁶"  # e to the (0 − 150)


def test_the_sum_of_the_ex_shown_is_named_only_when_it_is_not_the_sum_shown():
    from attnviz.core.explain import StepNumbers
    for preset, query, added in (("seed-demo", 6, "29.53"), ("toy-3token", 2, None)):
        s = load_preset(preset)
        trace = compute(s).heads[0]
        numbers = StepNumbers(s.tokens, s.heads[0].q[query], s.heads[0].k, trace, query)
        assert numbers.shown_sum() == added
