"""`--format csv` of every research command: the result's long-form table, row for row the API's to_csv (the
lens with each predicted id's text beside it), on the tiny golden Llama; and `attnviz patch --pairs FILE`, a dataset
of pairs averaged as the API averages it, its file checked at the door."""
import csv
import io
import json
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


PAIRS = [("hi thera", "hi therd", "#3", "#5"), ("hi therd", "hi thera", "#7", "#9")]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_patch_pairs_from_a_file_is_the_apis_dataset_average(capsys, m, tmp_path, suffix):
    path = tmp_path / f"pairs{suffix}"
    keys = ("clean", "corrupted", "answer", "against")
    if suffix == ".csv":
        path.write_text("clean,corrupted,answer,against\n" + "".join(",".join(p) + "\n" for p in PAIRS),
                        encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(dict(zip(keys, p))) + "\n" for p in PAIRS), encoding="utf-8")
    assert main(["patch", "--pairs", str(path), "--model", LLAMA]) == 0
    document = json.loads(capsys.readouterr().out)
    expect = api.patch(m, PAIRS)
    assert document["pairs"] == 2 and document["metric"] == "logit-diff-restored"
    assert np.abs(np.array(document["restored"]) - expect.restored).max() < 1e-6
    same(printed(capsys, "patch", "--pairs", str(path)), expect.columns())


@pytest.mark.parametrize("content, name, says", [
    ('{"clean": "hi"}\n', "p.jsonl", "line 1 does not give clean, corrupted, answer and against as texts"),
    ("not json\n", "p.jsonl", "line 1 is not a JSON object of clean, corrupted, answer and against"),
    ("[" * 100_000 + "\n", "p.jsonl", "line 1 is not a JSON object"),
    ("a,b\n1,2\n", "p.csv", "its first row must name the columns clean, corrupted, answer and against"),
    ("clean,corrupted,answer,against\nhi,,#3,#5\n", "p.csv", "line 2 does not give clean, corrupted, answer and"),
    ("\n\n", "p.jsonl", "holds 0 pairs; give from 1 to 10,000"),
    (b"\xff\xfe", "p.jsonl", "is not UTF-8 text"),
    ("clean,corrupted,answer,against\n" + "a" * 200_000 + ",b,#3,#5\n", "p.csv",
     "line 2 is not CSV that AttnViz reads"),  # attacker round 15: the line before the one at fault was named
    ("clean,corrupted,answer,against\nx,y,#5,#6\n\"" + "a" * 200_000 + "\",b,#3,#5\n", "p.csv",
     "line 3 is not CSV that AttnViz reads"),
    # attacker round 16: the last of two columns or keys of one name was taken without a word
    ("clean,corrupted,answer,against,answer\nhi thera,hi therd,#3,#5,#7\n", "p.csv",
     'its first row names the column "answer" twice'),
    ('{"clean": "hi thera", "clean": "x", "corrupted": "hi therd", "answer": "#3", "against": "#5"}\n', "p.jsonl",
     'line 1 gives "clean" twice'),
    ('{"clean": "hi thera", "corrupted": "hi therd", "answer": "#3", "against": "#5"}\n'
     '{"clean": "hi \\udcff", "corrupted": "hi therd", "answer": "#3", "against": "#5"}\n', "p.jsonl",
     "pairs: pair 1: "),
    ('{"clean": "hi thera", "corrupted": "hi thera", "answer": "#3", "against": "#5"}\n', "p.jsonl",
     "pairs: pair 0: the two prompts give the same logit difference"),
    ('{"clean": "hi thera", "corrupted": "hi therd", "answer": "#3", "against": "#3"}\n', "p.jsonl",
     "pairs: pair 0: the answer and the token it is measured against are the same token (#3)"),
    ('{"clean": "hi thera", "corrupted": "hi therd", "answer": "#3", "against": "#99999999"}\n', "p.jsonl",
     "pairs: pair 0: "),
])
def test_a_pairs_file_that_is_no_dataset_is_one_line_naming_the_file_and_line(capsys, tmp_path, content, name, says):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    assert main(["patch", "--pairs", str(path), "--model", LLAMA]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and says in err[0] and len(err[0]) < 300, err


def test_a_csv_of_an_old_macs_line_ends_is_read(capsys, m, tmp_path):
    """Attacker round 16: lone CRs were refused with csv's own 'universal-newline mode' words."""
    path = tmp_path / "p.csv"
    path.write_bytes(b"clean,corrupted,answer,against\rhi thera,hi therd,#3,#5\r")
    assert main(["patch", "--pairs", str(path), "--model", LLAMA]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["pairs"] == 1


def test_only_a_newline_ends_a_json_line_a_u2028_or_a_u0085_inside_a_text_is_the_texts(capsys, m, tmp_path):
    """JSON allows both raw in a text; str.splitlines() would end the line there."""
    keys = ("clean", "corrupted", "answer", "against")
    pairs = [("hi\u2028a", "hi\u2028d", "#3", "#5"), ("hi\x85a", "hi\x85d", "#7", "#9")]
    path = tmp_path / "p.jsonl"
    path.write_bytes("".join(json.dumps(dict(zip(keys, p)), ensure_ascii=False) + "\r\n" for p in pairs).encode())
    assert main(["patch", "--pairs", str(path), "--model", LLAMA]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["pairs"] == 2
    assert np.abs(np.array(document["restored"]) - api.patch(m, pairs).restored).max() < 1e-6


@pytest.mark.parametrize("argv, says", [
    (["patch", "hi", "--pairs", "x.jsonl"], "--pairs FILE gives every pair: leave out CLEAN"),
    (["patch", "hi", "ho"], "give CLEAN, CORRUPTED, --answer and --against, or --pairs FILE"),
    (["patch", "--pairs", "/nowhere/p.jsonl"], "/nowhere/p.jsonl"),
])
def test_patch_is_given_one_pair_or_a_file_of_them(capsys, argv, says):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0], err
