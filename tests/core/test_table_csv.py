"""Tables of weights and vectors: nothing a spreadsheet would run."""
from attnviz.core import compute, load_preset
from attnviz.core.formats.table_csv import data_csv, weights_csv
from attnviz.core.scenario import with_token_renamed


def test_tokens_that_look_like_formulas_are_quoted_in_csv():
    s = with_token_renamed(load_preset("toy-3token"), 0, "=HYPERLINK(1)")
    weights = compute(s).weights()
    assert "'=HYPERLINK(1)" in weights_csv(s, weights, [0]) and ",=HYPERLINK" not in weights_csv(s, weights, [0])
    assert ",=HYPERLINK" not in data_csv(s, weights)
