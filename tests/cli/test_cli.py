"""The command line: presets, weights, and one clear line for every bad input."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from attnviz.cli import main
from attnviz.core import compute, load_preset
from attnviz.core.scenario import with_settings


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_presets_lists_one_line_per_preset_with_id_tab_and_title(capsys):
    code, out, _ = run(capsys, "presets")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 10
    assert lines[0].split("\t") == ["seed-demo", "tutorial", "The cat ate the fish. It was fresh."]
    code, out, _ = run(capsys, "presets", "--lang", "ja")
    assert out.splitlines()[0].split("\t")[2] == "猫が魚を食べた。それは新鮮だった"


def test_weights_json_prints_the_worked_examples_weights(capsys):
    code, out, _ = run(capsys, "weights", "toy-3token", "--format", "json", "--lang", "ja")
    doc = json.loads(out)
    assert code == 0 and doc["tokens"] == ["猫", "魚", "それ"]
    assert doc["heads"][0]["name"] == "意味ヘッド"
    code, out, _ = run(capsys, "weights", "toy-3token", "--lang", "en")
    assert json.loads(out)["heads"][0]["name"] == "semantic head"  # the heads' names in the session's language
    assert doc["heads"][0]["weights"][2] == pytest.approx([0.045, 0.769, 0.186], abs=0.002)


def test_weights_options_change_the_numbers_as_the_core_computes(capsys):
    code, out, _ = run(capsys, "weights", "seed-demo", "--head", "1", "--no-causal", "--no-scale",
                       "--temperature", "2", "--lang", "ja")
    doc = json.loads(out)
    expected = compute(with_settings(load_preset("seed-demo"), causal=False, scale=False,
                                     temperature=2.0)).heads[1].weights
    assert [h["name"] for h in doc["heads"]] == ["直前を見るヘッド"]
    np.testing.assert_array_equal(np.array(doc["heads"][0]["weights"]), expected)


def test_weights_csv_has_a_header_of_keys_and_a_row_per_head_and_query(capsys):
    code, out, _ = run(capsys, "weights", "seed-demo", "--format", "csv", "--lang", "ja")
    lines = out.splitlines()
    assert lines[0] == "head,query,猫,が,魚,を,食べた,。,それ,は,新鮮,だった"
    assert len(lines) == 1 + 2 * 10
    sore = lines[1 + 6].split(",")
    assert sore[:2] == ["意味ヘッド", "それ"] and sum(map(float, sore[2:])) == pytest.approx(1)


def test_a_scenario_file_works_like_a_preset(capsys, tmp_path):
    from attnviz.core import save_scenario
    save_scenario(load_preset("toy-3token"), tmp_path / "mine.json")
    code, out, _ = run(capsys, "weights", str(tmp_path / "mine.json"))
    assert code == 0 and json.loads(out)["tokens"] == ["猫", "魚", "それ"]


@pytest.mark.parametrize("argv, message", [
    (["weights", "no-such-preset"], "neither a preset"),
    (["weights", "missing.json"], "no such file"),
    (["weights", "toy-3token", "--head", "5"], "only head 0"),
    (["weights", "toy-3token", "--head", "-1"], "not a head number"),
    (["weights", "toy-3token", "--temperature", "abc"], "not a temperature: give a number from 0.01 to 100"),
    (["weights", "toy-3token", "--temperature", "0"], "not a temperature"),
    (["weights", "toy-3token", "--format", "xml"], "invalid choice"),
    (["weights"], "required"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_input_exits_2_with_one_line_on_stderr(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err and err.startswith("attnviz: error:")


def test_a_broken_file_gives_one_line_and_no_traceback_in_a_real_process(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "attnviz-scenario", "version": 1, "tokens": [')
    main_py = str(Path(__file__).resolve().parents[2] / "main.py")
    for argv in (["-m", "attnviz", "weights", str(broken)], [main_py, "presets"]):
        result = subprocess.run([sys.executable, *argv], capture_output=True, text=True, encoding="utf-8")
        if argv[0] == main_py:
            assert result.returncode == 0 and result.stdout.startswith("seed-demo\t")
        else:
            assert result.returncode == 2 and "Traceback" not in result.stderr
            assert result.stderr.strip().splitlines() == [
                f"attnviz: error: {broken}: broken JSON at line 1, column 57: Expecting value"]


def test_export_writes_the_numbers_as_csv_or_npz_without_a_window(capsys, tmp_path):
    import numpy as np
    code, _, err = run(capsys, "export", "toy-3token", "-o", str(tmp_path / "d.csv"))
    assert code == 0, err
    lines = (tmp_path / "d.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "head,quantity,token,column,value"
    assert "意味ヘッド,weight,それ,魚,0.7679179361387025" in lines
    code, _, _ = run(capsys, "export", "toy-3token", "-o", str(tmp_path / "d.npz"))
    with np.load(tmp_path / "d.npz", allow_pickle=False) as data:
        assert data["weights"][0][2] == pytest.approx([0.0454, 0.7679, 0.1867], abs=1e-4)


def test_exporting_onto_a_folder_says_it_is_a_folder(capsys, tmp_path):
    code, _, err = run(capsys, "export", "toy-3token", "-o", str(tmp_path))
    assert code == 2 and "is a folder" in err


@pytest.mark.parametrize("platform", ["offscreen", None])
def test_a_presentation_screenshot_has_the_size_asked_for_with_or_without_qt_qpa_platform(tmp_path, platform):
    import os

    from PySide6.QtGui import QImage
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    if platform:
        env["QT_QPA_PLATFORM"] = platform  # as the README's own command may be run
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env["TMPDIR"] = str(temporary)
    out = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "attnviz", "screenshot", "seed-demo", "--presentation",
                             "--step", "4", "--width", "1280", "--height", "800", "-o", str(out)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    assert list(temporary.iterdir()) == []  # its settings and screen files go with it


@pytest.mark.parametrize("option", [["--temperature", "2"], ["--no-causal"], ["--no-scale"]])
def test_settings_that_cannot_change_a_models_weights_are_refused_not_ignored(capsys, tmp_path, option):
    w = np.array([[[1.0, 0.0], [0.25, 0.75]]], dtype=np.float32)
    np.savez(tmp_path / "m.npz", tokens=np.array(["a", "b"]), weights=w)
    code, out, err = run(capsys, "weights", str(tmp_path / "m.npz"), *option)
    assert code == 2 and out == "" and "weights as they are" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "weights", str(tmp_path / "m.npz"))
    assert code == 0 and json.loads(out)["heads"][0]["weights"] == [[1.0, 0.0], [0.25, 0.75]]


def test_a_models_weights_export_a_step_figure_of_what_exists(tmp_path):
    """No k, no q·k, no ÷√0, no 'output = …×[]': the key, the mask and the weight."""
    w = np.array([[[1.0, 0.0], [0.25, 0.75]]], dtype=np.float32)
    np.savez(tmp_path / "m.npz", tokens=np.array(["a", "b"]), weights=w)
    assert main(["export", str(tmp_path / "m.npz"), "--step", "-o", str(tmp_path / "s.svg")]) == 0
    text = "".join(t.text or "" for t in ET.parse(tmp_path / "s.svg").getroot().iter("{http://www.w3.org/2000/svg}text"))
    assert "0.750" in text and "√" not in text and "[]" not in text and "q·k" not in text


# ---------------------------------------------------------------- one list of commands, from the parsers

def parsers():
    """{command: its parser}, "" for the window's, as build_parsers makes them."""
    import argparse

    from attnviz.cli import build_parsers
    commands, window, _ = build_parsers()
    sub = next(a for a in commands._actions if isinstance(a, argparse._SubParsersAction))
    return {"": window, **sub.choices}


def options_of(parser):
    return {min(a.option_strings, key=len) if "-o" in a.option_strings else max(a.option_strings, key=len)
            for a in parser._actions if a.option_strings and "--help" not in a.option_strings}


def readme_commands():
    """{command: the researchers' guide's "The command line" lines for it}, "" for the window's."""
    guide = (Path(__file__).resolve().parents[2] / "docs" / "researcher.md").read_text(encoding="utf-8")
    block = guide.split("## The command line", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    entries = {}
    for line in block.strip().splitlines():
        if line.startswith("attnviz"):
            word = line.split()[1].rstrip(",")
            command = word if word in parsers() else ""
            entries.setdefault(command, []).append(line)
        else:
            entries[command][-1] += line
    return entries


def test_attnviz_help_lists_every_command_with_what_it_does(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    import attnviz.cli
    commands = [name for name in parsers() if name]
    assert "model" in commands and "stats" in commands  # the two the hand-written lists lacked
    for name in commands:
        assert f"attnviz {name} " in out, name
        assert f"attnviz {name} " in attnviz.cli.__doc__, name  # the module's docstring: the same list


def test_the_guides_command_block_names_every_command_and_option_and_no_other():
    import re
    written = readme_commands()
    assert set(written) == set(parsers())
    for name, parser in parsers().items():
        mentioned = set(re.findall(r"(?<![\w-])--?[a-z][a-z-]*", " ".join(written[name]))) - {"--help"}
        assert mentioned == options_of(parser), name
