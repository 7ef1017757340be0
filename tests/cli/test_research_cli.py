"""`attnviz patch`, `lens`, `attribute`, `sweep` and `heads`: their JSON (and CSV) as the issue
writes it, the same numbers as the API, and one line with status 2 for every bad input."""
import csv
import io
import json

import numpy as np
import pytest

from attnviz import api
from attnviz.cli import main

pytestmark = pytest.mark.real_model("smollm2")
CLEAN, CORRUPTED = "The Eiffel Tower is in the city of", "The Colosseum is in the city of"
TEXT = "When Mary and John went to the store, John gave a drink to"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def m():
    return api.load()


def test_patch_prints_the_share_restored_per_layer_and_head(capsys, m):
    code, out, _ = run(capsys, "patch", CLEAN, CORRUPTED, "--answer", " Paris", "--against", " Rome",
                       "--format", "json")
    doc = json.loads(out)
    assert code == 0 and {"tokens", "metric", "by", "restored"} <= set(doc)
    assert doc["metric"] == "logit-diff-restored" and doc["by"] == "head" and doc["tokens"][1:3] == ["·E", "iffel"]
    restored = np.array(doc["restored"])
    assert restored.shape == (30, 9)
    assert np.abs(restored - api.patch(m, CLEAN, CORRUPTED, " Paris", " Rome").restored).max() < 1e-6


def test_patch_by_position_gives_layers_by_positions(capsys):
    code, out, _ = run(capsys, "patch", CLEAN, CORRUPTED, "--answer", "#7042", "--against", " Rome", "--by", "position")
    doc = json.loads(out)
    assert code == 0 and doc["by"] == "position" and np.array(doc["restored"]).shape == (30, 9)
    assert doc["restored"][0][2] > 0.7  # "iffel" itself


def test_lens_prints_the_top_tokens_per_layer_and_position(capsys):
    code, out, _ = run(capsys, "lens", "The capital of France is", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["layers"] == 30 and len(doc["top"]) == 30 and len(doc["top"][0]) == len(doc["tokens"])
    last = doc["top"][-1][-1]
    assert set(last[0]) == {"token", "id", "p"} and len(last) == 5 and last[0]["token"] == " Paris"
    assert all(a["p"] >= b["p"] for a, b in zip(last, last[1:]))


def test_attribute_prints_each_heads_and_mlps_share(capsys, m):
    code, out, _ = run(capsys, "attribute", TEXT, "--token", " Mary", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["token"] == " Mary" and np.array(doc["heads"]).shape == (30, 9) and len(doc["mlps"]) == 30
    total = np.sum(doc["heads"]) + np.sum(doc["mlps"]) + doc["embedding"] + doc["biases"]
    assert abs(total - doc["logit"]) < 1e-3 and "frozen" in doc["note"]


def test_sweep_prints_the_change_in_log_p_per_head(capsys, m):
    code, out, _ = run(capsys, "sweep", TEXT, "--token", " Mary", "--mean", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["token"] == " Mary" and doc["ablation"] == "mean"
    delta = np.array(doc["delta_logp"])
    assert delta.shape == (30, 9)
    assert np.abs(delta - api.sweep(m, TEXT, " Mary", mean=True).delta_logp).max() < 1e-6


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_heads_prints_one_record_per_layer_and_head(capsys, fmt):
    code, out, _ = run(capsys, "heads", "--format", fmt)
    records = json.loads(out) if fmt == "json" else list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(records) == 270
    assert set(records[0]) == {"layer", "head", "previous", "induction", "duplicate", "sink", "local"}
    best = max(records, key=lambda r: float(r["induction"]))
    assert (int(best["layer"]), int(best["head"])) == (18, 6)


def test_the_input_can_be_token_ids(capsys):
    code, out, _ = run(capsys, "sweep", "--ids", "504,2365,3290", "--token", "#30")
    assert code == 0 and json.loads(out)["tokens"] == ["The", "·quick", "·fost"]


@pytest.mark.parametrize("argv, says", [
    (["patch", CLEAN, "The Colosseum is in the city", "--answer", " Paris", "--against", " Rome"],
     "CLEAN is 9 tokens and CORRUPTED 8"),
    (["patch", CLEAN, CORRUPTED, "--answer", "Paris is", "--against", " Rome"], "'Paris is' is 2 tokens"),
    (["patch", CLEAN, CORRUPTED, "--answer", " Paris"], "--answer and --against, or --pairs FILE"),
    (["patch", CLEAN, CLEAN, "--answer", " Paris", "--against", " Rome"], "same logit difference"),
    (["patch", CLEAN, CORRUPTED, "--answer", " Paris", "--against", " Paris"], "are the same token (#7042)"),
    (["patch", CLEAN, CORRUPTED, "--answer", " Paris", "--against", " Rome", "--by", "neuron"], "invalid choice"),
    (["lens"], "give TEXT or --ids"),
    (["lens", "x", "--ids", "1"], "give TEXT or --ids"),
    (["lens", "--ids", "1,x"], "is not token ids"),
    (["lens", "--ids", "99999999"], "token id 99999999: the model's ids go from 0 to 49,151"),
    # attacker round 27: as the API says it (m.run(ids=...), api.head_types(seed=...))
    (["lens", "--ids", "1,9999999999"], "token id 9999999999: the model's ids go from 0 to 49,151"),
    (["lens", "--ids", "1,-1"], "token id -1: the model's ids go from 0 to 49,151"),
    (["lens", "--ids", "1," + "9" * 5000], "is not token ids"),
    (["heads", "--seed", "-1"], "'-1' is not a number from 0 to 4294967295"),
    (["lens", "x" * 900_000], "characters long"),
    (["attribute", "x"], "required: --token"),
    (["attribute", "x", "--token", "#" + "9" * 5000], "#" + "9" * 38 + "…: the model's token ids"),
    (["attribute", "x", "--token", "#49152"], "#49152: the model's token ids go from 0 to 49,151"),
    (["sweep", "x", "--token", ""], "give a token"),
    (["heads", "--length", "1"], "'1' is not a number from 2 to 500"),  # 2 tokens twice: the local score
    (["heads", "--model", "/nowhere.gguf"], "/nowhere.gguf"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err


def test_the_lens_refuses_a_text_too_long_before_the_model_runs(capsys, monkeypatch):
    monkeypatch.setattr(api.Model, "run", lambda *a, **k: pytest.fail("the model ran"))
    code, out, err = run(capsys, "lens", "--ids", ",".join(["30"] * 513))
    assert code == 2 and "the logit lens reads at most 512 tokens" in err and err.count("\n") == 1
