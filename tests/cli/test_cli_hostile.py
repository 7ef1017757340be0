"""Hostile input on the command line: one line on stderr, exit 2, bounded memory, a clean terminal."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import hostile
from attnviz.cli import main
from attnviz.core import load_preset
from attnviz.core.formats.document import scenario_to_dict


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_refusal(code, out, err, message):
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("attnviz: error:") and message in err, err


@pytest.mark.parametrize("argv, message", [
    (["weights", "toy-3token", "--head", "³"], "'³' is not a head number"),
    (["weights", "toy-3token", "--head", "٣"], "'٣' is not a head number"),
    (["weights", "toy-3token", "--temperature", "1_0"], "'1_0' is not a temperature"),
    (["export", "toy-3token", "-o", "x.png", "--width", "１０００"], "not a width in pixels"),
    (["export", "toy-3token", "-o", "x.png", "--query", "99999999999999999999"], "not a query number"),
])
def test_numbers_on_the_command_line_are_plain_decimal_digits(capsys, argv, message):
    one_line_refusal(*run(capsys, *argv), message)


def test_the_temperature_written_plainly_is_read(capsys):
    code, out, _ = run(capsys, "weights", "toy-3token", "--temperature", "10")
    assert code == 0 and json.loads(out)["heads"][0]["weights"][2][1] < 0.5  # flatter than 0.768


@pytest.mark.parametrize("content, message", [
    ('{"format": "attnviz-scenario", "version": ' + "1" * 5000 + "}", "integer of 5,000 digits"),
    (None, "different shapes"),
])
def test_files_that_used_to_raise_value_errors_give_one_line(capsys, tmp_path, content, message):
    if content is None:  # ragged weights of a weights-only scenario
        np.savez(tmp_path / "m.npz", tokens=np.array(["a", "b"]), weights=np.array([[[1, 0], [0.5, 0.5]]] * 2))
        from attnviz.core import load_scenario
        doc = scenario_to_dict(load_scenario(tmp_path / "m.npz"))
        doc["weights"][1] = [[1.0]]
        content = json.dumps(doc)
    (tmp_path / "bad.json").write_text(content)
    one_line_refusal(*run(capsys, "weights", str(tmp_path / "bad.json")), message)


def test_escape_sequences_in_a_file_never_reach_the_terminal(capsys, tmp_path):
    np.savez(tmp_path / "m.npz", tokens=np.array(["\x1b]0;pwned\x07", "\x9b2J"]),
             weights=np.array([[[1.0, 0.0], [0.5, 0.5]]]), head_names=np.array(["\x1b[31mred"]))
    for fmt in ("json", "csv"):
        code, out, _ = run(capsys, "weights", str(tmp_path / "m.npz"), "--format", fmt)
        assert code == 0 and "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    bad = tmp_path / "\x1b[2Jevil.json"
    bad.write_text("{")
    code, out, err = run(capsys, "weights", str(bad))
    assert code == 2 and "\x1b" not in err and "^[[2Jevil.json" in err


# ---------------------------------------------------------------- memory: each bomb under a 2 GiB cap

CAPPED = hostile.CAPPED_CLI
PEAK_KIB = 600 * 1024  # one layer read and widened (≈ 150 MB) and Python: never the whole file


@pytest.fixture(scope="module")
def bombs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bombs")
    hostile.float32_bomb(folder / "float32.npz")
    hostile.int8_bomb(folder / "int8.npz")
    hostile.many_members(folder / "members.npz", 5000)
    (folder / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    doc = scenario_to_dict(load_preset("toy-3token"))
    doc["layer"] = [0, 10 ** 9]
    (folder / "layers.json").write_text(json.dumps(doc))
    return folder


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS caps memory the same way on Linux only")
@pytest.mark.parametrize("bomb, message", [("float32.npz", "add up to 0.0000"), ("int8.npz", "30,000 tokens"),
                                           ("members.npz", "5,000 files"), ("deep.json", "nested far too deeply"),
                                           ("layers.json", "at most 256 layers")])
def test_each_bomb_is_refused_within_2_gib_with_one_line(bombs, bomb, message):
    result = subprocess.run([sys.executable, "-c", CAPPED, "weights", str(bombs / bomb)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr[-500:]
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert int(result.stdout) < PEAK_KIB


# ---------------------------------------------------------------- a display that is not there

def test_a_stale_display_is_reported_not_a_qt_abort(monkeypatch, capsys):
    from attnviz import display
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("DISPLAY", ":97")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr("ctypes.util.find_library", lambda name: name)  # every X11 library present
    monkeypatch.setattr(display, "x_server_problem", lambda d: f"cannot connect to the display {d!r} (DISPLAY)")
    code, out, err = run(capsys, "toy-3token")
    one_line_refusal(code, out, err, "cannot connect to the display ':97'")


def test_the_x_server_check_connects_for_real():
    import ctypes.util

    from attnviz.display import x_server_problem
    if ctypes.util.find_library("xcb") is None:
        pytest.skip("no libxcb on this machine")
    assert "no X server answers" in x_server_problem(":97")  # nothing listens on display 97


def test_a_file_name_with_a_newline_gives_one_line(capsys, tmp_path):
    bad = tmp_path / "evil\nattnviz: all good.json"
    bad.write_text("{")
    code, out, err = run(capsys, "weights", str(bad))
    one_line_refusal(code, out, err, "evil↵attnviz: all good.json")


@pytest.mark.parametrize("suffix", ["svg", "png", "pdf"])
def test_an_export_name_too_long_for_the_file_system_gives_one_line(capsys, tmp_path, suffix):
    code, out, err = run(capsys, "export", "toy-3token", "-o", str(tmp_path / f"{'a' * 252}.{suffix}"))
    one_line_refusal(code, out, err, "too long")


@pytest.mark.parametrize("argv, message", [
    ([b"model", b"\xff\xfe"], "the text is not valid UTF-8: it holds <FF> at character 1"),
    ([b"model", b"caf\xe9 au lait"], "it holds <E9> at character 4"),
    ([b"--model-text", b"The cat\xff"], "--model-text: the text is not valid UTF-8: it holds <FF> at character 8"),
])
def test_text_for_the_model_in_bytes_that_are_not_utf_8_exits_2_with_one_line(argv, message):
    """As a shell passes them (Python decodes argv with surrogateescape): before the model loads,
    before Qt starts, whether the model is installed or not."""
    result = subprocess.run([sys.executable, "-m", "attnviz", *argv], capture_output=True, timeout=60,
                            env={**os.environ, "LC_ALL": "C.UTF-8"})
    err = result.stderr.decode("utf-8")
    assert result.returncode == 2 and result.stdout == b"" and len(err.strip().splitlines()) == 1, err
    assert err.startswith("attnviz: error:") and message in err, err


# ---------------------------------------------------------------- messages that name the limit broken

def test_five_heads_of_4096_tokens_name_the_heads_times_tokens_squared_limit(capsys, tmp_path):
    path = tmp_path / "wide.npz"
    hostile.write_zip(path, {"tokens.npy": hostile.tokens(4096),
                             "weights.npy": hostile._deflated(hostile.npy_header((5, 4096, 4096), "<f4"),
                                                              5 * 4096 * 4096 * 4)})
    one_line_refusal(*run(capsys, "weights", str(path)),
                     "5 heads of 4,096 tokens is too large to show (heads × tokens² must be at most 67,108,864)")


def test_rows_that_do_not_add_up_to_1_name_their_layer(capsys, tmp_path):
    w = np.tile(np.eye(3, dtype=np.float32), (4, 2, 1, 1))
    w[2, 1, 2, 0] = 0.4
    np.savez(tmp_path / "m.npz", tokens=np.array(["a", "b", "c"]), weights=w)
    for argv in (["weights", "--layer", "2"], ["stats"]):
        one_line_refusal(*run(capsys, argv[0], str(tmp_path / "m.npz"), *argv[1:]),
                         "layer 2, head 1, row 3 (c): the weights add up to 1.4000, not 1")


def test_an_output_that_is_the_file_read_or_a_link_to_another_kind_is_refused_and_left_as_it_was(capsys, tmp_path):
    """Attacker round 28: `export RUN.npz -o RUN.npz` replaced a model's run of every layer by one layer of it, and
    `model -o run.npz` wrote through a link named run.npz over the GGUF it pointed at."""
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(scenario_to_dict(load_preset("toy-3token"))), encoding="utf-8")
    before = scenario.read_bytes()
    one_line_refusal(*run(capsys, "export", str(scenario), "-o", str(scenario)), "is the file being read")
    other = tmp_path / "other.gguf"
    other.write_bytes(b"GGUF keep me")
    link = tmp_path / "run.png"
    link.symlink_to(other)
    one_line_refusal(*run(capsys, "export", str(scenario), "-o", str(link)), "a file of another kind")
    assert scenario.read_bytes() == before and other.read_bytes() == b"GGUF keep me"


@pytest.mark.parametrize("argv", [["presets"], ["weights", "seed-demo", "--format", "json"], ["lessons"]])
@pytest.mark.parametrize("stdout, says", [
    ("full", "standard output: could not be written (No space left on device)"),
    ("closed", "standard output: it is closed, nothing can be written to it"),
])
def test_a_standard_output_that_cannot_be_written_is_one_line(argv, stdout, says):
    """> /dev/full (a full disk) or >&- (closed): one line and exit 2, where a traceback and exit 1 were
    (attacker round 35); a pipe closed by its reader (| head) stays a quiet exit 0."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    target = open("/dev/full", "w") if stdout == "full" else None  # noqa: SIM115 (closed below)
    try:
        result = subprocess.run([sys.executable, "-m", "attnviz", *argv], stdout=target, stderr=subprocess.PIPE,
                                timeout=120, close_fds=True, text=True,
                                preexec_fn=None if target else lambda: os.close(1))
    finally:
        if target:
            target.close()
    assert (result.returncode, result.stderr) == (2, f"attnviz: error: {says}\n")


def test_a_pipe_its_reader_closed_is_a_quiet_exit():
    reader = subprocess.Popen([sys.executable, "-m", "attnviz", "presets"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    reader.stdout.close()  # as `| head -0` does: nothing read
    assert reader.wait(120) == 0 and reader.stderr.read() == b""
    reader.stderr.close()
