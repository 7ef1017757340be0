"""attnviz stats and attnviz weights --rollout: a whole model's file summarised for scripts."""
import csv
import io
import json

import numpy as np
import pytest

from attnviz.cli import main
from attnviz.core import compute, load_preset

LAYERS, HEADS, N = 3, 2, 5
TOKENS = ["猫", "が", "魚", "を", "見た"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def model_file(tmp_path):
    """A model's dump: weights [layers, heads, n, n], causal rows summing to 1."""
    rng = np.random.default_rng(7)
    w = np.tril(rng.random((LAYERS, HEADS, N, N)) ** 2 + 1e-3)
    w /= w.sum(axis=-1, keepdims=True)
    path = tmp_path / "model.npz"
    np.savez(path, tokens=np.array(TOKENS), weights=w.astype(np.float32))
    return path, w.astype(np.float32).astype(np.float64)


def direct_stats(w):
    """The issue's definitions, written out row by row."""
    n = len(w)
    rows = range(n)
    return {"entropy": np.mean([-sum(x * np.log(x) for x in w[i] if x > 0) for i in rows]),
            "distance": np.mean([sum(w[i, j] * abs(i - j) for j in rows) for i in rows]),
            "sink": np.mean(w[:, 0]), "previous": np.mean([w[i, i - 1] for i in range(1, n)]),
            "self": np.mean([w[i, i] for i in rows])}


def test_stats_prints_one_record_per_layer_and_head_as_the_issue_defines_them(capsys, model_file):
    path, w = model_file
    code, out, err = run(capsys, "stats", str(path), "--format", "json")
    records = json.loads(out)
    assert code == 0 and err == "" and len(records) == LAYERS * HEADS
    assert [(r["layer"], r["head"]) for r in records] == [(layer, h) for layer in range(LAYERS) for h in range(HEADS)]
    for r in records:
        assert set(r) == {"layer", "head", "entropy", "distance", "sink", "previous", "self"}
        expected = direct_stats(w[r["layer"], r["head"]])
        assert [r[k] for k in expected] == pytest.approx(list(expected.values()), rel=1e-5)


def test_stats_as_csv_and_for_one_layer(capsys, model_file):
    path, w = model_file
    code, out, _ = run(capsys, "stats", str(path), "--layer", "2", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [(r["layer"], r["head"]) for r in rows] == [("2", "0"), ("2", "1")]
    assert float(rows[1]["previous"]) == pytest.approx(direct_stats(w[2, 1])["previous"], rel=1e-5)


def test_stats_of_a_preset_finds_seed_demos_previous_token_head(capsys):
    code, out, _ = run(capsys, "stats", "seed-demo")
    previous = {r["head"]: r["previous"] for r in json.loads(out)}
    assert code == 0 and previous[1] > 0.9 > 0.3 > previous[0]


def test_weights_rollout_is_the_product_over_every_layer(capsys, model_file):
    path, w = model_file
    code, out, err = run(capsys, "weights", str(path), "--rollout", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and set(doc) == {"tokens", "rollout"} and doc["tokens"] == TOKENS
    product = np.eye(N)
    for layer in w:
        a = 0.5 * layer.mean(axis=0) + 0.5 * np.eye(N)
        product = a / a.sum(axis=1, keepdims=True) @ product
    np.testing.assert_allclose(doc["rollout"], product, rtol=1e-6)


def test_rollout_of_a_scenario_with_qkv_uses_its_computed_weights(capsys):
    code, out, _ = run(capsys, "weights", "toy-3token", "--rollout")
    a = 0.5 * np.mean(compute(load_preset("toy-3token")).weights(), axis=0) + 0.5 * np.eye(3)
    np.testing.assert_allclose(json.loads(out)["rollout"], a / a.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("argv, says", [
    (["stats", "no-such-file.npz"], "no-such-file.npz"),
    (["stats", "seed-demo", "--layer", "1"], "--layer 1: seed-demo has no layers"),
    (["stats", "seed-demo", "--format", "xml"], "invalid choice"),
    (["weights", "seed-demo", "--rollout", "--format", "csv"], "--rollout"),
    (["weights", "seed-demo", "--rollout", "--head", "1"], "--rollout"),
])
def test_bad_input_exits_with_status_2_and_one_line(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and says in err


# ---------------------------------------------------------------- limits, checked before the work

def weight_layers_read(path):
    from attnviz.core.formats.model_arrays import MAX_MODEL_BYTES
    from attnviz.core.formats.npz import Arrays
    return [layer for name, layer in Arrays.of(path, MAX_MODEL_BYTES).reads if name == "weights"]


@pytest.mark.parametrize("argv, limit, work, says", [
    (["stats"], "MAX_MODEL_CELLS", LAYERS * HEADS * N ** 2, "(layers × heads × tokens²)"),
    (["weights", "--rollout"], "MAX_ROLLOUT", LAYERS * N ** 3, "(layers × tokens³)"),
    (["export", "--overview", "-o", "grid.png"], "MAX_MODEL_CELLS", LAYERS * HEADS * N ** 2,
     "(layers × heads × tokens²)"),
])
def test_every_layer_is_refused_beyond_its_limit_after_reading_layer_0_alone(capsys, monkeypatch, model_file,
                                                                            tmp_path, argv, limit, work, says):
    import attnviz.core.summary as summary
    path, _ = model_file
    monkeypatch.setattr(summary, limit, work - 1)  # one short of this file's work
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, argv[0], str(path), *argv[1:])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and says in err, err
    assert weight_layers_read(path) == [0] and not (tmp_path / "grid.png").exists()


def test_stats_and_rollout_read_every_layer_once(capsys, model_file):
    path, _ = model_file
    assert run(capsys, "stats", str(path))[0] == 0
    assert run(capsys, "weights", str(path), "--rollout")[0] == 0
    assert weight_layers_read(path) == list(range(LAYERS)) * 2


def test_a_bzip2_file_is_refused_in_one_line_before_it_is_unpacked(capsys, tmp_path):
    import zipfile
    path = tmp_path / "bz.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as archive:
        uniform = np.tril(np.ones((LAYERS, HEADS, N, N))) / np.arange(1, N + 1)[:, None]
        for key, array in (("tokens", np.array(TOKENS)), ("weights", uniform)):
            with archive.open(f"{key}.npy", "w") as out:
                np.lib.format.write_array(out, array)
    for command in ("stats", "weights"):
        code, out, err = run(capsys, command, str(path))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "compressed with bzip2" in err


def test_printing_more_numbers_than_fit_in_30_seconds_is_refused_and_one_head_is_printed(capsys, monkeypatch,
                                                                                        model_file, tmp_path):
    from attnviz.cli import export, weights
    path, w = model_file
    monkeypatch.setattr(weights, "MAX_PRINTED", N * N)  # one head's weights
    code, out, err = run(capsys, "weights", str(path))
    assert code == 2 and out == "" and "50 numbers is more than the 25 written as text at once" in err
    assert "--head" in err and "export -o FILE.npz" in err
    code, out, _ = run(capsys, "weights", str(path), "--head", "1")
    assert code == 0 and json.loads(out)["heads"][0]["weights"] == w[0, 1].astype(np.float32).tolist()
    monkeypatch.setattr(export, "MAX_CSV_ROWS", N * N)
    code, _, err = run(capsys, "export", str(path), "-o", str(tmp_path / "data.csv"))
    assert code == 2 and "write them as .npz" in err and not (tmp_path / "data.csv").exists()
    assert run(capsys, "export", str(path), "-o", str(tmp_path / "data.npz"))[0] == 0
