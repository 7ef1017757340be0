"""Hostile GGUF files at `attnviz model --model F.gguf` and `attnviz --model`: each refused in one
line on stderr, exit status 2, no traceback, within a 2 GiB address space and under 512 MB of
memory, and never a NaN printed as JSON."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gguf_writer
import hostile
from attnviz.cli import main
from attnviz.core import lm
from attnviz.core.gguf import GGUF

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS caps memory the same way on Linux only")

CAPPED = hostile.CAPPED_CLI
FAMILIES = Path(__file__).resolve().parents[1] / "golden" / "families"
PEAK_KIB = 512 * 1024


def attnviz_model(path, *more):
    """`attnviz model ... --model path` in a fresh process: (exit status, stdout lines, stderr, peak KiB)."""
    result = subprocess.run([sys.executable, "-c", CAPPED, "model", "ab a", "--model", str(path), *more],
                            capture_output=True, text=True, timeout=120)
    *out, peak = result.stdout.splitlines()
    return result.returncode, out, result.stderr, int(peak)


def refused_in_one_line(path, message, *more):
    code, out, err, peak = attnviz_model(path, *more)
    assert code == 2 and out == [], err[-2000:]
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err[-2000:]
    assert err.startswith("attnviz: error: ") and message in err, err
    assert err.count(str(path)) == 1, err  # the file named once
    return peak


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile-gguf")
    for i, (make, _) in enumerate(gguf_writer.HOSTILE.values()):
        make(folder / f"{i}.gguf")
    yield folder
    shutil.rmtree(folder)


@pytest.mark.parametrize("i, name", list(enumerate(gguf_writer.HOSTILE)))
def test_each_hostile_gguf_exits_2_with_one_line_within_512_mb(hostile, i, name):
    """Including an 800 MB model and files of 300 million list items: refusing never holds them."""
    peak = refused_in_one_line(hostile / f"{i}.gguf", gguf_writer.HOSTILE[name][1])
    assert peak < PEAK_KIB


def test_walking_a_vocabulary_of_650_mb_holds_little_of_it(tmp_path):
    """160,000 tokens of 4 KB: their lengths are read from every page of the file, and the
    pages read are let go as the walk goes on."""
    gguf_writer.tiny_llama(tmp_path / "v.gguf", metadata={"tokenizer.ggml.tokens": gguf_writer.Texts(160_000, 4096)})
    try:
        assert refused_in_one_line(tmp_path / "v.gguf", "its vocabulary has 160,000 tokens but token_embd.weight "
                                                        "has 258 rows") < PEAK_KIB
    finally:
        (tmp_path / "v.gguf").unlink()  # 650 MB of disk


@pytest.mark.parametrize("make, message", [
    (lambda folder: folder, "is a folder but not a model folder: it has no config.json"),
    (lambda folder: folder / "missing.gguf", "missing.gguf: no such file"),
    (lambda folder: (folder / "notes.gguf").write_text("hello") and folder / "notes.gguf",
     "is not a GGUF model file (it does not start with GGUF)"),
    (lambda folder: (folder / "empty.gguf").write_bytes(b"") is not None and folder / "empty.gguf",
     "is not a GGUF model file"),
])
def test_a_folder_a_missing_path_or_another_file_is_named_in_one_line(tmp_path, make, message):
    refused_in_one_line(make(tmp_path), message)


def test_the_window_is_not_started_on_a_model_path_that_is_not_a_gguf_file(capsys, tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr("attnviz.cli.window.display_problem", lambda: None)
    monkeypatch.setattr("attnviz.gui.window.start.run", lambda *a, **k: opened.append(a) or 0)
    for path, message in ((tmp_path, "is a folder but not a model folder: it has no config.json"),
                          (tmp_path / "x.gguf", "no such file")):
        assert main(["--model", str(path), "--model-text", "ab"]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and message in err and "scenario" not in err
    assert opened == []


def test_a_model_whose_output_overflows_exits_2_and_never_prints_nan(tmp_path):
    """Finite weights so large that the logits overflow: the probabilities would be NaN."""
    gguf_writer.tiny_llama(tmp_path / "big.gguf", tensors={"output_norm.weight": (np.full(64, 3e38, np.float32), 0)})
    for more in ((), ("--format", "json"), ("-o", str(tmp_path / "run.npz"))):
        refused_in_one_line(tmp_path / "big.gguf", "the model's next-token probabilities are not numbers", *more)
    assert not (tmp_path / "run.npz").exists()


@pytest.mark.parametrize("command", [["heads", "--length", "8", "--format", "csv"],
                                     ["heads", "--length", "8", "--format", "json"],
                                     ["lens", "ab a", "--format", "csv"], ["attribute", "ab a", "--token", "#5"],
                                     ["sweep", "ab a", "--token", "#5", "--format", "csv"]], ids=" ".join)
def test_every_research_command_refuses_a_model_whose_output_overflows_naming_the_file(tmp_path, capsys, command):
    """Attacker round 20: `heads --format csv` printed a row of NaN per head, exit 0 (JSON refused it, naming
    no file): a run whose probabilities are not numbers is refused where it is made, for every command."""
    gguf_writer.tiny_llama(tmp_path / "big.gguf", tensors={"output_norm.weight": (np.full(64, 3e38, np.float32), 0)})
    assert main([*command, "--model", str(tmp_path / "big.gguf")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    assert f"{tmp_path / 'big.gguf'}: the model's next-token probabilities are not numbers" in err


def test_a_tiny_model_prints_json_with_numbers_only(tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf")
    code, out, err, _ = attnviz_model(tmp_path / "t.gguf", "--format", "json")
    assert code == 0 and err == ""
    doc = json.loads(out[0], parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))
    p = [n["p"] for n in doc["next"]]
    assert doc["token_ids"] == [256, 257] and len(p) == 10 and all(1 >= a >= b > 0 for a, b in zip(p, p[1:]))


@pytest.mark.real_model("smollm2")
def test_the_real_model_with_4_kb_overwritten_is_refused_as_damaged(tmp_path):
    damaged = tmp_path / "SmolLM2-damaged.gguf"
    shutil.copyfile(lm.bundled_model(), damaged)
    g = GGUF(damaged)
    t = g.tensors["blk.14.ffn_up.weight"]
    at = g._data + t.offset + t.nbytes // 2
    g.close()
    with open(damaged, "r+b") as f:
        f.seek(at)
        f.write(b"\xff" * 4096)
    peak = refused_in_one_line(damaged, "tensor blk.14.ffn_up.weight holds values that are not numbers (NaN or "
                                        "infinity): the file is damaged or not a model")
    assert peak < PEAK_KIB


NESTED_LOOPS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
WRITING_LOOPS = "{% for i in range(100000) %}{% for j in range(100000) %}{{ 'x' * 1000 }}{% endfor %}{% endfor %}"


@pytest.mark.parametrize("template, message", [(NESTED_LOOPS, "ran more than 1,000,000 steps"),
                                               (WRITING_LOOPS, "more than 4,000,000 characters")])
def test_a_ggufs_chat_template_that_would_run_for_ever_is_refused_in_one_line(tmp_path, template, message):
    """Issue 45: it ran for ever, or wrote 2.1 GB for 30 s; now a budget of steps and characters stops it."""
    path = tmp_path / "t.gguf"
    gguf_writer.tiny_llama(path, metadata={"tokenizer.chat_template": template})
    assert refused_in_one_line(path, f"{path}: the model's chat template cannot be used: ",
                               "--chat") < PEAK_KIB
    assert message in attnviz_model(path, "--chat")[2]


@pytest.mark.parametrize("where", ["chat_template.jinja", "tokenizer_config.json"])
def test_a_hugging_face_folders_chat_template_that_would_run_for_ever_is_refused_in_one_line(tmp_path, where):
    folder = tmp_path / "hf"
    shutil.copytree(FAMILIES / "llama" / "hf", folder)
    (folder / "chat_template.jinja").unlink(missing_ok=True)
    if where == "chat_template.jinja":
        (folder / where).write_text(NESTED_LOOPS, encoding="utf-8")
    else:
        settings = json.loads((folder / where).read_text(encoding="utf-8"))
        (folder / where).write_text(json.dumps({**settings, "chat_template": NESTED_LOOPS}), encoding="utf-8")
    refused_in_one_line(folder, f"{folder}: the model's chat template cannot be used: it ran more than", "--chat")


@pytest.mark.parametrize("base", [1e-45, 0.5])
def test_a_gguf_rope_base_under_1_is_refused_as_config_jsons_is(capsys, tmp_path, base):
    """Attacker round 19: a base no model has ran (the folder's rope_theta was refused, the file's was not)."""
    path = tmp_path / "b.gguf"
    gguf_writer.tiny_llama(path, metadata={"llama.rope.freq_base": base})
    assert main(["model", "hello", "--model", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0], err
    assert "llama.rope.freq_base" in err[0] and "not a number from 1" in err[0], err
