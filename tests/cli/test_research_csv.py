"""`--format csv` of every research command: the result's long-form table, row for row the API's to_csv (the
lens with each predicted id's text beside it), on the tiny golden Llama."""
import csv
import io
from pathlib import Path

import numpy as np
import pytest

from attnviz import api
from attnviz.cli import main
from attnviz.core import lm
from attnviz.core.text import terminal_safe

LLAMA = str(Path(__file__).resolve().parents[1] / "golden" / "families" / "llama" / "llama-f32.gguf")
TEXT = "hi there, you"


@pytest.fixture(scope="module")
def m():
    return api.load(LLAMA)


def printed(capsys, *argv) -> list[dict]:
    assert main([*argv, "--model", LLAMA, "--format", "csv"]) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def same(rows: list[dict], table: dict) -> None:
    assert list(rows[0]) == list(table) and len(rows) == len(next(iter(table.values())))
    for column, values in table.items():
        read = [row[column] for row in rows]
        if values.dtype.kind in "fi":
            assert np.array_equal(np.array(read, dtype=values.dtype), values), column  # floats in full
        else:
            assert read == list(values), column


def test_a_sweeps_csv_is_the_apis_table(capsys, m):
    same(printed(capsys, "sweep", TEXT, "--token", "#5", "--mean"), api.sweep(m, TEXT, "#5", mean=True).columns())


def test_an_attributions_csv_is_the_apis_table(capsys, m):
    same(printed(capsys, "attribute", TEXT, "--token", "#5"), api.head_attribution(m.run(TEXT), "#5").columns())


def test_head_types_csv_is_the_apis_table(capsys, m):
    same(printed(capsys, "heads", "--length", "6"), api.head_types(m, length=6).columns())


def test_a_patch_by_position_csv_is_the_apis_table(capsys, m):
    clean, corrupted = "hi thera", "hi therd"
    assert len(m.encode(clean).ids) == len(m.encode(corrupted).ids)
    rows = printed(capsys, "patch", clean, corrupted, "--answer", "#3", "--against", "#5", "--by", "position")
    same(rows, api.patch(m, clean, corrupted, "#3", "#5", by="position").columns())


def test_a_lens_csv_names_each_predicted_token_beside_its_id(capsys, m):
    rows = printed(capsys, "lens", TEXT, "--token", "#5", "--top-k", "3")
    table = api.logit_lens(m.run(TEXT), k=3, token="#5").columns()
    # control characters shown as the JSON shows them (^L), never sent to the terminal
    assert [row["predicted"] for row in rows] == [terminal_safe(lm.token_text(m.lm, int(i))) for i in table["id"]]
    same([{k: v for k, v in row.items() if k != "predicted"} for row in rows], table)
    assert list(rows[0]).index("predicted") == list(rows[0]).index("id") + 1


def test_a_models_next_tokens_csv_is_the_runs_table_cut_to_top_k(capsys, m):
    rows = printed(capsys, "model", TEXT, "--top-k", "7")
    table = {k: v[:7] for k, v in m.run(TEXT).columns().items()}
    same(rows, {**table, "token": np.array([terminal_safe(t) for t in table["token"]])})
