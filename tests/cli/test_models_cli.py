"""`attnviz models`: the models AttnViz finds, as the --model ids it takes."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from attnviz.cli import main
from attnviz.core import lm
from attnviz.core.lm.families import NAMES

LLAMA = Path(__file__).resolve().parents[1] / "golden" / "families" / "llama" / "hf"


def listed(capsys, *argv):
    assert main(["models", *argv]) == 0
    return capsys.readouterr().out


@pytest.fixture(autouse=True)
def own_data(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNVIZ_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))


@pytest.mark.real_model("smollm2")
def test_the_built_in_model_is_listed_first_with_its_facts(capsys):
    first = json.loads(listed(capsys, "--format", "json"))[0]
    assert first["id"] == "smollm2-135m" and first["family"] == "llama" and first["quantisation"] == "Q4_1"
    assert first["path"] == str(lm.bundled_model()) and first["bytes"] == lm.bundled_model().stat().st_size
    assert first["licence"] == "apache-2.0" and first["parameters"] == 134_515_008


@pytest.mark.real_model("gemma3")
def test_gemma_3_is_listed_when_its_package_is_installed(capsys):
    gemma = next(e for e in json.loads(listed(capsys, "--format", "json")) if e["id"] == "gemma3-270m")
    assert gemma["family"] == "gemma3" and gemma["quantisation"] == "Q4_K_M"
    assert gemma["licence"] == "Gemma Terms of Use" and gemma["parameters"] == 268_098_176


def test_a_model_opened_before_is_listed_by_its_name_and_opens_by_its_id(capsys, tmp_path):
    import gguf_writer
    path = tmp_path / "Tiny-Llama.Q8_0.gguf"
    gguf_writer.tiny_llama(path)
    lm.load(str(path))
    line = next(x for x in listed(capsys).splitlines() if x.startswith("tiny-llama\t"))
    assert line.split("\t")[1] == "llama" and line.endswith(str(path.resolve()))
    assert lm.resolve("tiny-llama") == path.resolve()


def test_a_folder_in_the_hugging_face_cache_of_an_unknown_family_is_not_listed(capsys, tmp_path):
    snapshot = tmp_path / "hub" / "models--org--mamba" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text('{"model_type": "mamba"}')
    assert "mamba" not in listed(capsys)


@pytest.mark.parametrize("kind", [["llama"], {"llama": 1}, 7])
def test_a_cached_folder_whose_model_type_is_no_text_is_passed_over_by_the_list_and_by_an_id(capsys, tmp_path, kind):
    snapshot = tmp_path / "hub" / "models--org--odd" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps({"model_type": kind}))
    assert "odd" not in listed(capsys)
    assert main(["model", "hi", "--model", "nosuchid"]) == 2  # an id is looked up in the list
    assert capsys.readouterr().err.strip().splitlines() == [
        "attnviz: error: nosuchid is neither a model file or folder nor the id of a model `attnviz models` lists"]


def test_a_cached_config_or_list_of_models_nested_past_pythons_depth_is_passed_over(capsys, tmp_path):
    """Attacker round 8: json's RecursionError ended every model command in a traceback."""
    snapshot = tmp_path / "hub" / "models--x--deep" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("[" * 100_000)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "models.json").write_text("[" * 60_000)
    assert "deep" not in listed(capsys)
    assert main(["model", "hi", "--model", "nosuchid"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_an_id_of_5000_letters_is_quoted_cut_not_whole(capsys):
    assert main(["model", "hi", "--model", "x" * 5000]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and len(err[0]) < 200 and "x" * 59 + "…" in err[0]


def test_an_empty_model_is_refused_not_read_as_the_current_folder(capsys):
    assert main(["model", "hi", "--model", ""]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "attnviz: error: give a model's id, a GGUF file or a model folder, not an empty text"]


def test_a_folder_of_a_family_attnviz_does_not_know_exits_2_with_one_line(capsys, tmp_path):
    folder = tmp_path / "mamba"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "mamba", "hidden_size": 8}')
    assert main(["model", "hi", "--model", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"attnviz: error: {folder}: is a 'mamba' model; AttnViz runs models of the families {NAMES}"]
    assert NAMES.startswith("llama, qwen2, qwen3, gemma3, gpt2")  # every family, as families.ALL lists them


@pytest.mark.real_model("gemma3")
def test_gemma_3_runs_from_the_command_line_only_once_its_terms_are_accepted(capsys):
    assert main(["model", "猫が魚", "--model", "gemma3-270m"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Gemma Terms of Use" in err[0] and "attnviz models --accept-terms gemma3-270m" in err[0]
    assert "Gemma Services" in listed(capsys, "--terms", "gemma3-270m")  # the terms' own words
    assert "accepted" in listed(capsys, "--accept-terms", "gemma3-270m")
    assert main(["model", "猫が魚を食べた。", "--model", "gemma3-270m", "--top-k", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["tokens"] == ["⟨BOS⟩", "猫", "が", "魚", "を食べ", "た", "。"]


def test_terms_of_a_model_without_any_are_refused_in_one_line(capsys):
    assert main(["models", "--accept-terms", "smollm2-135m"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_a_model_in_the_hugging_face_cache_opens_by_the_org_and_name_id_it_is_listed_under(capsys, tmp_path):
    snapshot = tmp_path / "hub" / "models--Org--Tiny-1.5B" / "snapshots" / "abc"
    shutil.copytree(LLAMA, snapshot)
    assert "org/tiny-1.5b\tllama" in listed(capsys)
    assert lm.resolve("org/tiny-1.5b") == snapshot  # a "/" and a "." in an id: still an id, not a path
    assert main(["model", "hi", "--model", "org/tiny-1.5b", "--top-k", "1"]) == 0, capsys.readouterr().err


def test_a_cached_index_whose_weight_map_is_null_is_passed_over_not_a_traceback(capsys, tmp_path):
    snapshot = tmp_path / "hub" / "models--org--nullmap" / "snapshots" / "abc"
    shutil.copytree(LLAMA, snapshot)
    (snapshot / "model.safetensors.index.json").write_text('{"weight_map": null}')
    assert "nullmap" not in listed(capsys)


def test_a_damaged_cached_model_left_out_of_the_list_is_still_named_by_its_id_and_said_what_is_wrong(capsys, tmp_path):
    """Attacker round 15: its id was then taken for a path: 'no such file'."""
    snapshot = tmp_path / "hub" / "models--org--piped" / "snapshots" / "abc"
    shutil.copytree(LLAMA, snapshot)
    (snapshot / "model.safetensors").unlink()
    os.mkfifo(snapshot / "model.safetensors")
    assert "org/piped" not in listed(capsys)
    assert main(["model", "hi", "--model", "org/piped"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"attnviz: error: {snapshot / 'model.safetensors'}: is not a regular file (a pipe, a device or a socket): "
        "AttnViz opens files only"]


def test_a_licence_or_folder_name_holding_a_newline_or_a_tab_stays_on_its_models_line(capsys, tmp_path):
    import gguf_writer
    folder = tmp_path / "two\nlines"
    folder.mkdir()
    gguf_writer.tiny_llama(folder / "odd.gguf", metadata={"general.name": "odd", "general.license": "mit\n\tor not"})
    lm.load(str(folder / "odd.gguf"))
    lines = [x for x in listed(capsys).splitlines() if "two" in x or "mit" in x]
    assert len(lines) == 1 and lines[0].count("\t") == 5, lines
    assert "mit↵⇥or not" in lines[0] and "two↵lines/odd.gguf" in lines[0]


def test_model_help_names_every_family_attnviz_runs(capsys):
    """Attacker round 16: the help still listed five families after olmo2 came."""
    with pytest.raises(SystemExit):
        main(["model", "--help"])
    assert " ".join(capsys.readouterr().out.split()).count(f"({NAMES})") == 1


@pytest.mark.parametrize("option", ["--terms", "--accept-terms"])
@pytest.mark.parametrize("given, says", [("", "∅: only gemma3-270m has terms"), ("a" * 100_000, "a" * 59 + "…: only")])
def test_terms_of_an_id_that_is_empty_or_huge_are_refused_in_a_short_line(capsys, option, given, says):
    """Attacker round 17: --terms '' listed the catalogue, and a huge id was echoed whole."""
    assert main(["models", option, given]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0] and len(err[0]) < 250, err
