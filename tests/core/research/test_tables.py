"""Every workbench result out as a table (core/research/tables.py): its long-form columns hold the result's own
numbers cell by cell, and CSV, .npz and a DataFrame give them back unchanged."""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np
import pytest

from attnviz import api
from attnviz.core import lm
from attnviz.core.files import FileProblem
from attnviz.core.lm.shown import ModelError

LLAMA = Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "llama-f32.gguf"


@pytest.fixture(scope="module")
def m():
    return api.load(str(LLAMA))


@pytest.fixture(scope="module")
def results(m):
    r = m.run("hi there, you")
    swapped = list(r.ids)
    swapped[2] = r.ids[3]
    corrupted = m.run(ids=swapped)
    return {"head types": api.head_types(m, length=4), "sweep": api.sweep(m, r, "#5", mean=True),
            "patch by head": api.patch(m, r, corrupted, "#3", "#5"),
            "patch by position": api.patch(m, r, corrupted, "#3", "#5", by="position"),
            "attribution": api.head_attribution(r, "#5"), "lens": api.logit_lens(r, k=3, token="#5"),
            "continuation": api.continuation(m, "hi", ", there")}


def cell(table: dict, **where) -> int:
    """The one row whose columns hold `where`."""
    rows = np.flatnonzero(np.logical_and.reduce([table[k] == v for k, v in where.items()]))
    assert len(rows) == 1, where
    return int(rows[0])


def test_each_cell_of_a_layers_by_heads_result_is_one_row(results):
    for name, values in (("head types", lambda r: r.scores["induction"]), ("sweep", lambda r: r.delta_logp),
                         ("patch by head", lambda r: r.restored)):
        result = results[name]
        table = result.columns()
        column = {"head types": "induction", "sweep": "delta_logp", "patch by head": "restored"}[name]
        assert len(table[column]) == values(result).size
        for layer, head in [(0, 0), (1, 3), (0, 2)]:
            assert table[column][cell(table, layer=layer, head=head)] == values(result)[layer, head]


def test_a_patch_by_position_names_each_positions_token(results):
    patched = results["patch by position"]
    table = patched.columns()
    assert list(table) == ["layer", "position", "token", "restored"]
    row = cell(table, layer=1, position=2)
    assert table["token"][row] == patched.tokens[2] and table["restored"][row] == patched.restored[1, 2]


def test_an_attributions_parts_sum_to_its_total(results):
    found = results["attribution"]
    table = found.columns()
    assert table["contribution"].sum() == pytest.approx(found.total, abs=1e-9)
    assert table["contribution"][cell(table, part="head", layer=1, head=2)] == found.heads[1, 2]
    assert table["contribution"][cell(table, part="mlp", layer=1)] == found.mlps[1]
    assert table["contribution"][cell(table, part="embedding")] == found.embedding


def test_a_lens_row_is_a_layer_position_and_rank_with_the_followed_tokens_rank_beside(results):
    lens = results["lens"]
    table = lens.columns()
    row = cell(table, layer=1, position=2, rank=1)  # rank 1: the likeliest, as Lens.rank counts
    assert table["id"][row] == lens.ids[1, 2, 0] and table["p"][row] == lens.p[1, 2, 0]
    assert table["token"][row] == lens.tokens[2]
    assert table["token_rank"][row] == lens.rank[1, 2] and table["token_p"][row] == lens.token_p[1, 2]


def test_a_continuation_row_is_a_target_token_where_it_stands(results):
    found = results["continuation"]
    table = found.columns()
    assert list(table["id"]) == list(found.target) and list(table["rank"]) == list(found.rank)
    assert [found.tokens[i] for i in table["position"]] == list(table["token"])


@pytest.mark.parametrize("name", ["head types", "sweep", "patch by position", "attribution", "lens", "continuation"])
def test_csv_and_npz_give_the_table_back_unchanged(results, name, tmp_path):
    table = results[name].columns()
    results[name].to_csv(tmp_path / "t.csv")
    with open(tmp_path / "t.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(next(iter(table.values())))
    for column, values in table.items():
        read = [row[column] for row in rows]
        kind = values.dtype.kind
        back = np.array(read, dtype=float) if kind == "f" else np.array(read, dtype=int) if kind == "i" else read
        assert np.array_equal(back, values) if kind in "fi" else back == list(values), column  # floats exactly
    results[name].to_npz(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz", allow_pickle=False) as saved:
        assert list(saved.files) == list(table)
        assert all(np.array_equal(saved[c], table[c]) for c in table)


def test_a_token_holding_a_comma_or_a_quote_stays_one_cell(m, tmp_path):
    found = api.continuation(m, "hi", ', "there"')
    found.to_csv(tmp_path / "t.csv")
    with open(tmp_path / "t.csv", encoding="utf-8", newline="") as f:
        tokens = [row["token"] for row in csv.DictReader(f)]
    assert tokens == list(found.columns()["token"]) and any("," in t or '"' in t for t in tokens)


def test_to_frame_has_the_tables_columns_and_types(results):
    pd = pytest.importorskip("pandas")  # the test extra installs it
    frame = results["lens"].to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(results["lens"].columns())
    assert frame["layer"].dtype == np.int64 and frame["p"].dtype == np.float64
    assert pd.api.types.is_string_dtype(frame["token"])


def test_to_frame_without_pandas_names_the_extra_to_install(results, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with pytest.raises(ModelError, match=r'pip install "attnviz\[tables\]"'):
        results["sweep"].to_frame()


def test_a_path_inside_a_file_is_one_line_and_leaves_the_file_whole(results, tmp_path):
    """A folder that cannot be written (a file stands where it should be; root writes anywhere else)."""
    (tmp_path / "notes").write_text("kept", encoding="utf-8")
    with pytest.raises(FileProblem) as refused:
        results["sweep"].to_csv(tmp_path / "notes" / "t.csv")
    assert "notes" in str(refused.value) and "\n" not in str(refused.value)
    assert (tmp_path / "notes").read_text(encoding="utf-8") == "kept"


@pytest.mark.parametrize("path, says", [(None, "give a file's path to write to, not NoneType"),
                                        ("", "give a file's path to write to, not an empty text"),
                                        (".", "is a folder: give a file's path to write to")])
def test_a_path_that_is_no_file_is_refused_saying_so(results, path, says):
    with pytest.raises(ModelError if path != "." else FileProblem, match=says):
        results["sweep"].to_csv(path)


def test_a_runs_table_is_its_next_tokens_distribution_likeliest_first(m, tmp_path):
    run = m.run("hi there, you")
    table = run.columns()
    assert list(table) == ["rank", "id", "token", "logit", "p"] and len(table["id"]) == len(run.probs)
    assert [(t, i, p) for t, i, p in zip(table["token"][:5], table["id"][:5], table["p"][:5])] == run.next_tokens(5)
    assert np.array_equal(table["logit"], run.logits[table["id"]]) and np.all(np.diff(table["p"]) <= 0)
    run.to_npz(tmp_path / "run.npz")
    with np.load(tmp_path / "run.npz", allow_pickle=False) as saved:
        assert list(saved["token"][:5]) == list(table["token"][:5])


def test_a_token_holding_a_cr_or_a_nul_stays_one_cell_in_the_csv_and_the_npz(m, tmp_path):
    """Attacker round 9: a byte-level vocabulary's "\\r" token split its row in two; a NUL vanished."""
    run = m.run("hi there, you")
    run.to_csv(tmp_path / "run.csv")
    with open(tmp_path / "run.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert len(rows) == 1 + len(run.probs) and all(len(row) == 5 for row in rows)
    tokens = {int(row[1]): row[2] for row in rows[1:]}
    carriage = [i for i in range(len(run.probs)) if lm_text(m, i) == "\r"]
    assert carriage and tokens[carriage[0]] == "\r"
    nul = [i for i in range(len(run.probs)) if lm_text(m, i) == "\x00"]
    assert nul and tokens[nul[0]] == "␀"


def lm_text(m, i: int) -> str:
    return lm.token_text(m.lm, i)


def test_a_path_too_long_or_holding_control_characters_is_named_short_and_visible(results, tmp_path):
    for path in (tmp_path / ("x" * 250) / "t.csv", tmp_path / "no\n\x1b[31mdir" / "t.csv"):
        with pytest.raises(FileProblem) as refused:
            results["sweep"].to_csv(path)
        message = str(refused.value)
        assert len(message) < 400 and "\n" not in message and "\x1b" not in message


def test_a_name_without_the_tables_suffix_is_refused_and_what_is_there_is_kept(results, tmp_path):
    """Attacker round 14: to_csv("model.gguf") replaced the model, to_npz a session."""
    for name, write in (("model.gguf", "to_csv"), ("talk.attnviz-model.json", "to_npz"), ("t.npz", "to_csv")):
        (tmp_path / name).write_bytes(b"kept")
        with pytest.raises(FileProblem, match=r"is not a .* file's name: give one ending in \.(csv|npz)"):
            getattr(results["sweep"], write)(tmp_path / name)
        assert (tmp_path / name).read_bytes() == b"kept"
    results["sweep"].to_csv(tmp_path / "T.CSV")  # the suffix in any case
    assert (tmp_path / "T.CSV").read_text(encoding="utf-8").startswith("layer,")


def test_a_path_no_file_name_can_hold_is_one_line_not_a_unicode_error(results, tmp_path):
    with pytest.raises(FileProblem, match="holds a character no file name can hold") as refused:
        results["sweep"].to_npz(str(tmp_path / "t\ud800.npz"))
    assert "\ud800" not in str(refused.value)
    assert not list(tmp_path.iterdir())
