"""`attnviz model`: the real model on the command line, its files, and one line for every bad input."""
import json

import numpy as np
import pytest

import gguf_writer
from attnviz.cli import main
from attnviz.core import load_scenario

pytestmark = pytest.mark.real_model("smollm2")
TEXT = "The cat ate the fish. It was fresh."


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_model_prints_tokens_ids_and_the_top_k_next_tokens_as_json(capsys):
    code, out, _ = run(capsys, "model", TEXT, "--top-k", "5", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and set(doc) == {"tokens", "token_ids", "next"}
    assert doc["tokens"][:2] == ["The", "·cat"] and doc["token_ids"][:2] == [504, 2644]
    assert [n["token"] for n in doc["next"]] == [" The", " It", "\n", " I", " But"]
    assert [n["id"] for n in doc["next"]] == [378, 657, 198, 339, 1249]
    assert doc["next"][0]["p"] == pytest.approx(0.1308, abs=1e-4)
    assert all(a["p"] >= b["p"] for a, b in zip(doc["next"], doc["next"][1:]))


def test_ablate_switches_heads_off_before_w_o(capsys):
    _, out, _ = run(capsys, "model", TEXT, "--top-k", "2", "--ablate", "3.2", "--format", "json")
    assert [n["token"] for n in json.loads(out)["next"]] == [" It", " The"]  # the reference's ablation
    _, out, _ = run(capsys, "model", TEXT, "--top-k", "2", "--ablate", "3.2", "--ablate", "22.8")
    assert json.loads(out)["next"][0]["p"] != pytest.approx(0.1307, abs=1e-4)


def test_model_writes_every_layer_and_weights_reads_one(capsys, tmp_path):
    code, out, _ = run(capsys, "model", TEXT, "-o", str(tmp_path / "cat.npz"))
    assert code == 0 and out == ""
    with np.load(tmp_path / "cat.npz") as data:
        assert data["q"].shape == (30, 9, 10, 64) and data["token_ids"].tolist()[:2] == [504, 2644]
        assert bool(data["causal"]) and abs(float(data["next_probs"].sum()) - 1) < 1e-4
    s = load_scenario(tmp_path / "cat.npz", layer=22)
    assert s.layer == (22, 30) and s.tokens[6] == "·It" and s.settings.causal
    code, out, _ = run(capsys, "weights", str(tmp_path / "cat.npz"), "--layer", "22", "--head", "8", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["layer"] == 22 and doc["heads"][0]["weights"][6][4] == pytest.approx(0.392, abs=1e-3)
    _, out, _ = run(capsys, "weights", str(tmp_path / "cat.npz"))
    assert json.loads(out)["layer"] == 0


def test_export_and_screenshot_take_a_layer_and_captions_name_it(capsys, tmp_path):
    run(capsys, "model", TEXT, "-o", str(tmp_path / "cat.npz"))
    code, _, err = run(capsys, "export", str(tmp_path / "cat.npz"), "--layer", "9", "-o", str(tmp_path / "l9.svg"))
    assert code == 0, err
    assert "Layer 9" in (tmp_path / "l9.svg").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["model", ""], "the text is empty"),
    (["model", "a" * 130_000], "is 32,500 tokens long"),
    (["model", TEXT, "--model", "missing.gguf"], "no such file"),
    (["model", TEXT, "--ablate", "30.0"], "layers 0 to 29 and heads 0 to 8"),
    (["model", TEXT, "--ablate", "3.9"], "layers 0 to 29 and heads 0 to 8"),
    (["model", TEXT, "--ablate", "three"], "give LAYER.HEAD"),
    (["model", "word " * 5000], "tokens long"),
    (["model", TEXT, "--top-k", "0"], "not a number from 1 to 1000"),
    (["model", TEXT, "-o", "x.json"], "written as an .npz file"),
    (["weights", "toy-3token", "--layer", "1"], "has no layers"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def test_a_file_that_is_not_gguf_or_another_architecture_exits_2(capsys, tmp_path):
    (tmp_path / "notes.gguf").write_text("hello")
    code, _, err = run(capsys, "model", TEXT, "--model", str(tmp_path / "notes.gguf"))
    assert code == 2 and "not a GGUF model file" in err
    gguf_writer.tiny_llama(tmp_path / "phi.gguf", arch="phi3")
    code, _, err = run(capsys, "model", TEXT, "--model", str(tmp_path / "phi.gguf"))
    assert code == 2 and "is a 'phi3' model" in err


def test_the_window_opens_on_the_model_with_model_text(capsys, monkeypatch, tmp_path):
    opened = []
    monkeypatch.setattr("attnviz.cli.window.display_problem", lambda: None)
    monkeypatch.setattr("attnviz.gui.window.start.run", lambda scenario, lang=None, **model: opened.append(model) or 0)
    assert main(["--model-text", TEXT]) == 0
    assert opened == [{"model_text": TEXT, "model_source": None, "session": None, "model_chat": False}]
    assert main(["--model-text", TEXT, "--chat"]) == 0 and opened[-1]["model_chat"]
    gguf_writer.tiny_llama(tmp_path / "t.gguf")
    code, out, err = run(capsys, "--model-text", TEXT, "--chat", "--model", str(tmp_path / "t.gguf"))
    assert code == 2 and err.strip() == f"attnviz: error: --chat: {tmp_path / 't.gguf'} has no chat template"
    code, out, err = run(capsys, "--model-text", "")
    assert code == 2 and "--model-text: the text is empty" in err
    assert main(["--model-text", "def f(x):\n  return x"]) == 0 and main(["--model-text", " "]) == 0
    assert [o["model_text"] for o in opened[2:]] == ["def f(x):\n  return x", " "]


@pytest.mark.parametrize("text, tokens", [(" ", ["␣"]), ("\n", ["↵"]), ("def f(x):\n  return x", ["def", "·f"])])
def test_spaces_alone_and_line_breaks_run(capsys, text, tokens):
    code, out, _ = run(capsys, "model", text, "--top-k", "1")
    assert code == 0 and json.loads(out)["tokens"][:len(tokens)] == tokens


def test_chat_reads_the_text_in_the_models_chat_template(capsys):
    _, plain, _ = run(capsys, "model", "What is 2+2?", "--top-k", "1")
    code, chat, _ = run(capsys, "model", "What is 2+2?", "--chat", "--top-k", "1")
    tokens = json.loads(chat)["tokens"]
    assert code == 0 and tokens[:2] == ["<|im_start|>", "system"]
    assert tokens[-4:] == ["<|im_start|>", "ass", "istant", "↵"]
    assert json.loads(plain)["tokens"] == ["What", "·is", "␣", "2", "+", "2", "?"]


def test_chat_with_a_model_that_has_no_template_is_one_line(capsys, tmp_path):
    gguf_writer.tiny_llama(tmp_path / "t.gguf")
    code, _, err = run(capsys, "model", "hi", "--chat", "--model", str(tmp_path / "t.gguf"))
    assert code == 2 and err.strip() == f"attnviz: error: {tmp_path / 't.gguf'}: this model has no chat template"
