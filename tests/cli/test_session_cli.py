"""`attnviz model --save-session FILE` and `attnviz model --session FILE`: a run kept as a document."""
import json

import pytest

from attnviz.cli import main
from attnviz.core import lm

pytestmark = pytest.mark.real_model("smollm2")
TEXT = "The cat ate the fish. It was fresh."


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_saved_session_prints_the_same_json_as_the_direct_run_with_its_changes(capsys, tmp_path):
    path = str(tmp_path / "cat.attnviz-model.json")
    code, out, _ = run(capsys, "model", TEXT, "--ablate", "22.8", "--ablate", "3.2", "--save-session", path)
    assert code == 0 and out == ""  # a file was asked for: nothing printed without --format json
    _, direct, _ = run(capsys, "model", TEXT, "--ablate", "22.8", "--ablate", "3.2", "--format", "json")
    _, replayed, _ = run(capsys, "model", "--session", path, "--format", "json")
    assert replayed == direct
    _, plain, _ = run(capsys, "model", TEXT)
    assert json.loads(plain) != json.loads(direct)  # the changes are really in the session


def test_a_saved_session_records_the_text_model_and_switched_off_heads(capsys, tmp_path):
    path = tmp_path / "s.attnviz-model.json"
    assert run(capsys, "model", TEXT, "--ablate", "22.8", "--save-session", str(path))[0] == 0
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "attnviz-model-session" and document["text"] == TEXT
    assert document["model"]["builtin"] and len(document["model"]["sha256"]) == 64
    assert [(c["layer"], c["head"], c["off"]) for c in document["changes"]] == [(22, 8, True)]
    assert document["view"] == {"layer": 0, "head": 0, "query": len(document["ids"]) - 1}


@pytest.mark.parametrize("argv, says", [
    (["model", "--session", "{s}", TEXT], "leave out TEXT"),
    (["model", "--session", "{s}", "--ablate", "1.1"], "--ablate"),
    (["model"], "give the TEXT"),
    (["model", "--session", "{missing}"], "missing"),
    (["model", "--session", "{broken}"], "broken JSON"),
    (["model", "--session", "{other}"], "SHA-256 differs"),
    (["weights", "{s}"], "real model's session"),
    (["model", "--session", "{head}"], "head.attnviz-model.json: a change to layer 1 head 63: the model has 30 layers"),
])
def test_bad_session_input_is_one_line_and_exit_2(capsys, tmp_path, argv, says):
    session = tmp_path / "s.attnviz-model.json"
    run(capsys, "model", "Hello", "--save-session", str(session))
    (tmp_path / "broken.attnviz-model.json").write_text("{", encoding="utf-8")
    other = json.loads(session.read_text(encoding="utf-8"))
    other["model"]["sha256"] = "f" * 64
    (tmp_path / "other.attnviz-model.json").write_text(json.dumps(other), encoding="utf-8")
    head = json.loads(session.read_text(encoding="utf-8"))
    head["changes"] = [{"layer": 1, "head": 63, "off": True}]  # what the model lacks: said naming the session
    (tmp_path / "head.attnviz-model.json").write_text(json.dumps(head), encoding="utf-8")
    names = {"s": session, "missing": tmp_path / "missing.attnviz-model.json",
             "head": tmp_path / "head.attnviz-model.json", "broken": tmp_path / "broken.attnviz-model.json",
             "other": tmp_path / "other.attnviz-model.json"}
    code, out, err = run(capsys, *[a.format(**names) for a in argv])
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1


def test_attnviz_file_opens_a_session_in_the_window(capsys, tmp_path, monkeypatch):
    import attnviz.gui.window.start as start
    path = tmp_path / "s.attnviz-model.json"
    run(capsys, "model", "Hello", "--save-session", str(path))
    opened = []
    monkeypatch.setattr(start, "run", lambda *a, **k: opened.append((a, k)) or 0)
    monkeypatch.setattr("attnviz.cli.window.display_problem", lambda: None)
    assert main([str(path)]) == 0
    assert opened[0][1]["session"] == str(path) and opened[0][0][0] is None
    (tmp_path / "bad.attnviz-model.json").write_text('{"format": "attnviz-model-session", "version": 1}')
    code, _, err = run(capsys, str(tmp_path / "bad.attnviz-model.json"))
    assert code == 2 and "text" in err and len(opened) == 1  # refused before any window


def test_a_file_that_is_not_a_session_is_not_overwritten_by_save_session(capsys, tmp_path):
    """Issue 45: `--save-session mynotes.json` replaced the user's notes. A session (by its first bytes,
    whatever its name) is replaced; anything else is refused before the model runs."""
    notes = tmp_path / "mynotes.json"
    notes.write_text('{"my": "notes"}', encoding="utf-8")
    code, _, err = run(capsys, "model", TEXT, "--save-session", str(notes))
    assert code == 2 and "is not an AttnViz session; it is not overwritten" in err and err.count("\n") == 1
    assert notes.read_text(encoding="utf-8") == '{"my": "notes"}'
    named = tmp_path / "notes.attnviz-model.json"  # a session's name, not its contents: not replaced either
    named.write_text("my notes", encoding="utf-8")
    assert run(capsys, "model", TEXT, "--save-session", str(named))[0] == 2
    assert named.read_text(encoding="utf-8") == "my notes"
    kept = tmp_path / "run.json"
    assert run(capsys, "model", TEXT, "--save-session", str(kept))[0] == 0
    assert run(capsys, "model", "Hello", "--save-session", str(kept))[0] == 0  # its own session: replaced
    assert json.loads(kept.read_text(encoding="utf-8"))["text"] == "Hello"


@pytest.mark.parametrize("option, target, says", [
    ("-o", "nowhere/x.npz", "the folder nowhere does not exist"),
    ("--save-session", "nowhere/s.attnviz-model.json", "the folder nowhere does not exist"),
    ("--save-session", ".", "is a folder; give a file name")])
def test_an_output_that_cannot_be_written_is_refused_before_the_model_loads(capsys, monkeypatch, tmp_path,
                                                                           option, target, says):
    """Attacker round 14: a missing folder was found only after the run, a folder was called "that file"."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(lm, "load", lambda *a, **k: pytest.fail("the model was loaded"))
    code, _, err = run(capsys, "model", TEXT, option, target)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
