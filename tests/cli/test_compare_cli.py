"""`attnviz weights A --compare B --format json`: B − A per head after lining up the words."""
import json

import numpy as np

from attnviz.cli import main
from attnviz.core import compute, load_preset
from attnviz.core.scenario import with_settings


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_word_orders_print_a_zero_difference_in_as_order(capsys):
    code, out, err = run(capsys, "weights", "position-nekoga", "--compare", "position-suwatta", "--format", "json")
    assert code == 0 and err == ""
    document = json.loads(out)
    assert list(document) == ["tokens_a", "tokens_b", "aligned", "difference"]
    assert document["tokens_a"] == ["猫", "が", "座った"] and document["tokens_b"] == ["座った", "が", "猫"]
    assert document["aligned"] is True
    assert np.array(document["difference"]).shape == (2, 3, 3)
    assert all(x == 0 for x in np.ravel(document["difference"]))


def test_the_difference_is_b_minus_a_with_bs_rows_and_columns_in_as_order(capsys, tmp_path):
    """With the causal mask on (it carries order) the word orders differ: files saved with it on."""
    from attnviz.core.io import save_scenario
    a, b = (with_settings(load_preset(p), causal=True) for p in ("position-nekoga", "position-suwatta"))
    first, second = str(tmp_path / "a.attnviz.json"), str(tmp_path / "b.attnviz.json")
    save_scenario(a, first)
    save_scenario(b, second)
    code, out, _ = run(capsys, "weights", first, "--compare", second)
    assert code == 0
    got = np.array(json.loads(out)["difference"])
    expected = [wb[::-1, ::-1] - wa for wa, wb in zip(compute(a).weights(), compute(b).weights())]  # B: A reversed
    np.testing.assert_allclose(got, expected, atol=1e-15)
    assert got[0, 0, 2] > 0.3  # 猫 first in A sees only itself; last in B it sees 座った too


def test_different_words_print_null_and_not_aligned(capsys):
    code, out, _ = run(capsys, "weights", "hashi-chopsticks", "--compare", "hashi-bridge", "--format", "json")
    assert code == 0
    assert json.loads(out) == {"tokens_a": ["はし", "を", "使って", "ご飯", "を", "食べた"],
                               "tokens_b": ["川", "に", "かかる", "はし", "を", "渡った"],
                               "aligned": False, "difference": None}
    assert '"difference": null' in out


def test_bad_combinations_and_missing_files_are_one_line_and_status_2(capsys, tmp_path):
    for argv in (["--format", "csv"], ["--rollout"], ["--head", "0"]):
        code, out, err = run(capsys, "weights", "position-nekoga", "--compare", "position-suwatta", *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and "--compare" in err
    code, out, err = run(capsys, "weights", "position-nekoga", "--compare", str(tmp_path / "missing.json"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "missing.json" in err


def test_lang_en_compares_both_presets_english_versions(capsys):
    code, out, _ = run(capsys, "weights", "position-nekoga", "--compare", "position-suwatta", "--format", "json",
                       "--lang", "en")
    document = json.loads(out)
    assert code == 0 and document["tokens_a"] == ["dog", "bites", "man"]
    assert document["tokens_b"] == ["man", "bites", "dog"] and document["aligned"] is True
