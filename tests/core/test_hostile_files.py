"""What AttnViz saves it reopens; no file hangs it, eats memory or raises anything but a FileProblem."""
import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import attnviz.core.formats.model_arrays
import hostile
from attnviz.core import compute, files, load_preset, load_scenario, make_head, make_scenario, save_scenario
from attnviz.core.files import STALE_SECONDS, FileProblem, atomic_write
from attnviz.core.formats.document import scenario_to_dict
from attnviz.core.formats.scenario_json import JSON_MAX_VALUES, MAX_FILE_BYTES, too_large_for_json
from attnviz.core.formats.table_csv import data_csv, weights_csv
from attnviz.core.io import save_data
from attnviz.core.scenario import MAX_CELLS, MAX_HEADS, MAX_VALUES, ScenarioError, same_scenario, with_token_renamed

TOKENS = np.array(["The", "cat", "sat", "down"])


def causal_weights(layers, heads, n, seed=0):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(layers, heads, n, n)) + np.triu(np.full((n, n), -np.inf), 1)
    w = np.exp(scores - scores.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)).astype(np.float32)


def refused_within(seconds, load, *args):
    """Run `load` in a thread: it must raise a FileProblem within `seconds` (a hang fails the
    test instead of hanging the suite)."""
    outcome = []

    def run():
        try:
            load(*args)
            outcome.append(None)
        except Exception as e:  # noqa: BLE001
            outcome.append(e)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"still reading after {seconds} s"
    assert isinstance(outcome[0], FileProblem), repr(outcome[0])
    return str(outcome[0])


# ---------------------------------------------------------------- what is saved can be reopened

def big_model(heads=64, n=512, d=64):
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, heads, n, d)).astype(np.float32)
    return make_scenario([f"t{i}" for i in range(n)], [make_head(f"h{i}", q[i], k[i], v[i]) for i in range(heads)])


def test_a_64_head_512_token_model_is_saved_compactly_and_reopens_exactly(tmp_path):
    s = with_token_renamed(big_model(), 0, "猫")
    assert too_large_for_json(s)
    with pytest.raises(ScenarioError, match="too many for a .json file: save it as .npz"):
        save_scenario(s, tmp_path / "big.json")
    assert not (tmp_path / "big.json").exists()
    save_scenario(s, tmp_path / "big.npz")
    assert (tmp_path / "big.npz").stat().st_size < 30 * 2**20  # float32 kept: no larger than the model
    assert same_scenario(load_scenario(tmp_path / "big.npz"), s)


def test_the_largest_scenario_attnviz_accepts_round_trips(tmp_path):
    """The limits on opening are at least as large as what AttnViz writes: a weights-only
    scenario at MAX_CELLS (64 heads × 512²), whose .json would be 364 MB."""
    w = causal_weights(1, MAX_HEADS, 512)[0]
    s = make_scenario([f"t{i}" for i in range(512)], [make_head(f"h{i}", np.zeros((512, 0)), np.zeros((512, 0)),
                                                                np.zeros((512, 0))) for i in range(MAX_HEADS)],
                      given=w)
    assert s.given.size == MAX_CELLS
    save_scenario(s, tmp_path / "w.npz")
    back = load_scenario(tmp_path / "w.npz")
    assert same_scenario(back, s)
    np.testing.assert_array_equal(compute(back).heads[63].weights, compute(s).heads[63].weights)


def test_json_is_written_only_as_large_as_json_is_read():
    # every value takes at most 26 characters ("-1.2345678901234567e-300, ")
    assert JSON_MAX_VALUES * 26 < MAX_FILE_BYTES and MAX_VALUES > JSON_MAX_VALUES


def test_a_scenario_file_npz_keeps_everything_json_keeps(tmp_path):
    for preset in ("seed-demo", "projection-demo", "gqa-demo"):
        s = load_preset(preset)
        save_scenario(s, tmp_path / f"{preset}.npz")
        assert same_scenario(load_scenario(tmp_path / f"{preset}.npz"), s), preset


def test_exported_data_of_a_weights_only_model_reopens(tmp_path):
    np.savez(tmp_path / "m.npz", tokens=TOKENS, weights=causal_weights(1, 3, 4)[0])
    s = load_scenario(tmp_path / "m.npz")
    save_data(s, compute(s).weights(), tmp_path / "data.npz")  # File → Export data
    back = load_scenario(tmp_path / "data.npz")
    assert back.weights_only and same_scenario(back, s)


@pytest.mark.parametrize("shape", [(0, 4, 4), (0, 3, 4, 4)])
def test_weights_with_no_heads_or_layers_are_said_to_have_none(tmp_path, shape):
    """Attacker round 14: an .npz of 0 heads was refused as holding 'more heads' than AttnViz shows."""
    np.savez(tmp_path / "none.npz", tokens=TOKENS, weights=np.zeros(shape, np.float32))
    with pytest.raises(ScenarioError, match=r"has shape \(0, .*a side of 0 holds no heads, layers or dimensions"):
        load_scenario(tmp_path / "none.npz")


# ---------------------------------------------------------------- limits before work

def test_a_float32_bomb_is_read_one_layer_at_a_time(tmp_path):
    hostile.float32_bomb(tmp_path / "bomb.npz")
    assert (tmp_path / "bomb.npz").stat().st_size < 2 * 2**20
    assert "add up to 0.0000, not 1" in refused_within(60, load_scenario, tmp_path / "bomb.npz")


def test_an_int8_bomb_is_refused_by_its_token_count_before_anything_is_read(tmp_path):
    hostile.int8_bomb(tmp_path / "bomb.npz")
    assert "30,000 tokens is more than the 4,096" in refused_within(30, load_scenario, tmp_path / "bomb.npz")


def test_an_archive_declaring_thousands_of_members_is_refused_before_they_are_listed(tmp_path):
    hostile.many_members(tmp_path / "many.npz", 5000)
    assert "lists 5,000 files" in refused_within(30, load_scenario, tmp_path / "many.npz")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["pipe.json", "pipe.npz", "pipe.npy"])
def test_a_fifo_is_refused_without_blocking(tmp_path, name):
    os.mkfifo(tmp_path / name)
    assert "not a regular file" in refused_within(10, load_scenario, tmp_path / name)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_link_to_an_endless_device_is_refused_without_reading_it(tmp_path, device):
    (tmp_path / "endless.json").symlink_to(device)
    assert "not a regular file" in refused_within(10, load_scenario, tmp_path / "endless.json")


def write_doc(tmp_path, change, name="s.json"):
    doc = scenario_to_dict(load_preset("toy-3token"))
    change(doc)
    (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    return tmp_path / name


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(layer=[0, 10 ** 9]), "at most 256 layers"),
    (lambda d: d["settings"].update(mask={"kind": "window", "window": 2 ** 31}), "from 0 to 4096"),
    (lambda d: d["settings"].update(mask={"kind": "padding", "padding": list(range(10_000))}), "token positions"),
    (lambda d: d.update(tokens=["t"] * 5000), "5,000 tokens is more than"),
    (lambda d: d.update(heads=[d["heads"][0]] * 100), "100 heads is more than"),
])
def test_numbers_in_a_json_file_are_bounded_where_they_are_read(tmp_path, change, message):
    with pytest.raises(FileProblem, match=message):
        load_scenario(write_doc(tmp_path, change))


def test_an_integer_of_thousands_of_digits_is_a_file_problem_not_a_value_error(tmp_path):
    path = tmp_path / "digits.json"
    path.write_text(json.dumps(scenario_to_dict(load_preset("toy-3token"))).replace("2.0", "1" * 5000, 1))
    with pytest.raises(FileProblem, match="an integer of 5,000 digits"):
        load_scenario(path)


def test_ragged_weights_rows_are_a_file_problem(tmp_path):
    np.savez(tmp_path / "m.npz", tokens=TOKENS, weights=causal_weights(1, 2, 4)[0])
    s = load_scenario(tmp_path / "m.npz")
    doc = scenario_to_dict(s)
    doc["weights"][1] = doc["weights"][1][:3]
    (tmp_path / "ragged.json").write_text(json.dumps(doc))
    with pytest.raises(FileProblem, match="different shapes"):
        load_scenario(tmp_path / "ragged.json")
    doc["weights"][1] = [[1.0]] + doc["weights"][0][1:]
    (tmp_path / "ragged.json").write_text(json.dumps(doc))
    with pytest.raises(FileProblem, match="rows have different lengths"):
        load_scenario(tmp_path / "ragged.json")


def test_a_nul_in_a_path_is_a_file_problem():
    with pytest.raises(FileProblem, match="not a usable file name"):
        load_scenario("/tmp/a\0b.json")


# ---------------------------------------------------------------- a model's files, named as they are

def test_a_layer_file_of_a_folder_opens_itself_not_the_folders_weights(tmp_path):
    w = causal_weights(2, 3, 4)
    np.save(tmp_path / "tokens.npy", TOKENS)
    np.save(tmp_path / "weights.npy", w)
    np.save(tmp_path / "layer7_weights.npy", w[1:])  # one layer saved on its own
    s = load_scenario(tmp_path / "layer7_weights.npy")
    assert s.layer is None
    np.testing.assert_array_equal(s.given, w[1].astype(float))
    with pytest.raises(FileProblem, match="is not one of the arrays AttnViz reads"):
        np.save(tmp_path / "notes.npy", np.zeros(3))
        load_scenario(tmp_path / "notes.npy")


def test_a_stray_q_beside_the_weights_does_not_stop_them_opening(tmp_path):
    np.save(tmp_path / "tokens.npy", TOKENS)
    np.save(tmp_path / "weights.npy", causal_weights(1, 3, 4)[0])
    np.save(tmp_path / "q.npy", np.zeros((3, 4, 8)))
    assert load_scenario(tmp_path / "weights.npy").weights_only
    assert load_scenario(tmp_path / "tokens.npy").weights_only  # q alone is no q, k, v


def test_a_models_causal_flag_is_honoured(tmp_path):
    rng = np.random.default_rng(0)
    q = rng.normal(size=(2, 4, 8))
    np.savez(tmp_path / "encoder.npz", tokens=TOKENS, q=q, k=q, v=q, causal=np.array(False))
    assert load_scenario(tmp_path / "encoder.npz").settings.causal is False


# ---------------------------------------------------------------- outputs a token cannot corrupt

@pytest.mark.parametrize("name", ["a\rb", "=2+3\r", "x\x00", "\x1b[31mred", "bell\x07", "\u202eevil", "line\nbreak"])
def test_control_characters_in_a_typed_or_saved_token_are_refused(tmp_path, name):
    with pytest.raises(ScenarioError, match="control character"):
        with_token_renamed(load_preset("toy-3token"), 0, name)
    path = write_doc(tmp_path, lambda d: d["tokens"].__setitem__(0, name))
    with pytest.raises(FileProblem, match="control character"):
        load_scenario(path)


@pytest.mark.parametrize("name", ["\u200b", "\u2800", "\u3164", " \u200d ", "\ufe0f"])
def test_invisible_only_names_count_as_empty(name):
    with pytest.raises(ScenarioError, match="is empty"):
        with_token_renamed(load_preset("toy-3token"), 0, name)


def test_emoji_sequences_with_zero_width_joiners_are_still_fine():
    assert with_token_renamed(load_preset("toy-3token"), 0, "👨\u200d👩\u200d👧").tokens[0] == "👨\u200d👩\u200d👧"


def test_a_models_control_character_tokens_open_visibly(tmp_path):
    np.savez(tmp_path / "m.npz", tokens=np.array(["\n", "\x1b[2J", " ", "\u200b", "a" * 60]),
             weights=causal_weights(1, 1, 5)[0])
    assert load_scenario(tmp_path / "m.npz").tokens == ("↵", "^[[2J", "␣", "<U+200B>", "a" * 39 + "…")


@pytest.mark.parametrize("token", ["=2+3", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_csv_cells_that_a_spreadsheet_would_run_or_split_are_quoted(token):
    from attnviz.core.text import csv_cell
    cell = csv_cell(token)
    assert cell.startswith("'") and "\r" not in cell and "\t" not in cell[:2]


def test_csv_never_splits_a_row_whatever_the_names(tmp_path):
    np.savez(tmp_path / "m.npz", tokens=np.array(["a\r=2+3", "b\nc", "\t=1"]), weights=causal_weights(1, 1, 3)[0],
             head_names=np.array(["x\r\ny"]))
    s = load_scenario(tmp_path / "m.npz")
    text = weights_csv(s, compute(s).weights(), [0]) + data_csv(s, compute(s).weights())
    assert "\r" not in text and all(line.count(",") >= 2 for line in text.splitlines())


# ---------------------------------------------------------------- saving

def test_a_read_only_file_is_not_replaced(tmp_path):
    target = tmp_path / "lesson.json"
    save_scenario(load_preset("toy-3token"), target)
    before = target.read_bytes()
    target.chmod(0o444)
    with pytest.raises(FileProblem, match="is read-only"):
        save_scenario(load_preset("seed-demo"), target)
    assert target.read_bytes() == before


def test_a_file_name_of_255_bytes_can_be_saved(tmp_path):
    name = "あ" * 83 + ".json"  # 83 × 3 + 5 = 254 bytes
    save_scenario(load_preset("toy-3token"), tmp_path / name)
    assert load_scenario(tmp_path / name).n == 3


# A save in another process, stopped half-way: it writes part of a scenario .npz into its
# temporary file, says so, then waits for a line on its standard input before it goes on.
HALF_A_SAVE = """
import sys
from attnviz.core.files import atomic_write

def writer(f):
    f.write(b"x" * 1_000_000)
    f.flush()
    print("writing", flush=True)
    sys.stdin.readline()
    f.write(b"the end")

atomic_write(sys.argv[1], writer)
"""


def start_half_a_save(target):
    child = subprocess.Popen([sys.executable, "-c", HALF_A_SAVE, str(target)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "writing\n"
    return child


def temporaries(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".attnviz-"))


def test_the_temporaries_of_saves_killed_with_sigkill_are_removed_by_the_next_save(tmp_path):
    for _ in range(3):
        child = start_half_a_save(tmp_path / "big.npz")
        child.kill()  # SIGKILL: no handler, no cleanup of its own
        child.wait()
    assert len(temporaries(tmp_path)) == 1  # each save removed the one killed before it, fresh as it was
    save_scenario(load_preset("toy-3token"), tmp_path / "s.npz")
    assert temporaries(tmp_path) == [] and not (tmp_path / "big.npz").exists()


def test_the_temporary_of_a_live_save_in_another_process_is_left_to_it(tmp_path):
    child = start_half_a_save(tmp_path / "big.npz")
    try:
        held = temporaries(tmp_path)
        save_scenario(load_preset("toy-3token"), tmp_path / "s.npz")
        assert temporaries(tmp_path) == held and len(held) == 1
    finally:
        child.communicate("go on\n")
    assert child.returncode == 0
    assert (tmp_path / "big.npz").read_bytes() == b"x" * 1_000_000 + b"the end"
    assert temporaries(tmp_path) == []


def test_a_save_made_while_another_save_of_this_process_writes_leaves_that_one_whole(tmp_path):
    """The autosave thread may save while File -> Save writes into the same folder."""
    def writer(f):
        f.write(b"first half, ")
        save_scenario(load_preset("toy-3token"), tmp_path / "copy.json")  # cleans the folder meanwhile
        f.write(b"second half")

    atomic_write(tmp_path / "s.npz", writer)
    assert (tmp_path / "s.npz").read_bytes() == b"first half, second half"
    assert temporaries(tmp_path) == []


def test_a_temporary_is_still_held_when_it_is_put_in_place(tmp_path):
    def replace(tmp, target):
        atomic_write(tmp_path / "other.json", b"{}")  # another save's cleaning, at the last moment
        os.replace(tmp, target)

    atomic_write(tmp_path / "s.json", b"[1]", replace=replace)
    assert (tmp_path / "s.json").read_bytes() == b"[1]"


def test_a_temporary_taken_for_abandoned_before_it_was_locked_is_made_anew(tmp_path, monkeypatch):
    made = []

    def mkstemp(**kwargs):
        fd, name = real_mkstemp(**kwargs)
        made.append(name)
        if len(made) == 1:
            files.clean_stale_temporaries(tmp_path)  # another save cleans before this one locks
        return fd, name
    real_mkstemp = files.tempfile.mkstemp
    monkeypatch.setattr(files.tempfile, "mkstemp", mkstemp)
    atomic_write(tmp_path / "s.json", b"[1]")
    assert len(made) == 2 and (tmp_path / "s.json").read_bytes() == b"[1]" and temporaries(tmp_path) == []


def test_where_files_cannot_be_locked_only_old_temporaries_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_lock", lambda fd: None)  # a file system without locks
    stale, fresh, other = (tmp_path / ".attnviz-dead1234.tmp", tmp_path / ".attnviz-live5678.tmp",
                           tmp_path / ".someone-elses.tmp")
    for path in (stale, fresh, other):
        path.write_bytes(b"half a file")
    old = time.time() - STALE_SECONDS - 60
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    save_scenario(load_preset("toy-3token"), tmp_path / "s.json")
    assert not stale.exists() and fresh.exists() and other.exists()


def test_private_files_are_readable_by_their_owner_only(tmp_path):
    atomic_write(tmp_path / "copy.json", b"{}", private=True)
    assert (tmp_path / "copy.json").stat().st_mode & 0o777 == 0o600


def test_writing_onto_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(FileProblem, match="not a regular file"):
        save_scenario(load_preset("toy-3token"), tmp_path / "pipe.json")


# ---------------------------------------------------------------- found by an attack on the first version

def scenario_npz(tmp_path, preset="seed-demo"):
    save_scenario(load_preset(preset), tmp_path / "s.npz")
    with np.load(tmp_path / "s.npz", allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def test_an_encrypted_member_is_a_file_problem(tmp_path):
    hostile.write_zip(tmp_path / "locked.npz", {"tokens.npy": hostile.tokens(2)}, flags=1)
    assert "encrypted" in refused_within(10, load_scenario, tmp_path / "locked.npz")


@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(q=a["q"][:1], k=a["k"][:1], v=a["v"][:1]), "hold 1 heads; the scenario has 12"),
    (lambda a: a.update(q=np.array(1.0)), "not numbers of 3 axes"),
    (lambda a: a.update(q=np.array(["x" * 10_000] * 12)), "not numbers of 3 axes"),
])
def test_a_scenario_npz_whose_arrays_disagree_with_its_header_is_refused_before_reading_them(
        tmp_path, change, message):
    arrays = scenario_npz(tmp_path, "gpt2-small-shape")
    change(arrays)
    np.savez(tmp_path / "bad.npz", **arrays)
    assert message in refused_within(10, load_scenario, tmp_path / "bad.npz")


def test_an_npy_header_claiming_4_gb_is_refused_before_it_is_read(tmp_path):
    hostile.header_bomb(tmp_path / "bomb.npz")
    message = refused_within(10, load_scenario, tmp_path / "bomb.npz")
    assert "damaged header (4,294,967,283 bytes long)" in message and "\n" not in message


def test_a_list_of_files_longer_than_declared_is_refused_before_it_is_parsed(tmp_path):
    hostile.listed_but_not_declared(tmp_path / "forged.npz", 20_000)
    assert "lists 20,000 files" in refused_within(10, load_scenario, tmp_path / "forged.npz")


def test_a_file_unpacking_beyond_the_limit_is_refused_before_a_late_layer_is_inflated(tmp_path, monkeypatch):
    # The real limit, 4 GB, needs a zip64 file.
    monkeypatch.setattr(attnviz.core.formats.model_arrays, "MAX_MODEL_BYTES", 2 ** 30)
    hostile.write_zip(tmp_path / "layers.npz", {
        "tokens.npy": hostile.tokens(512),
        "weights.npy": hostile._deflated(hostile.npy_header((80, 16, 512, 512), "<f4"), 80 * 16 * 2 ** 20)})
    assert "unpacks to 1,280 MB" in refused_within(10, load_scenario, tmp_path / "layers.npz", 79)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(description="x" * 60_000), "60,000 characters long; the most is 10,000"),
    (lambda d: d["heads"][0].update(labels=["x" * 200, "y"]), "label of 200 characters; the most is 40"),
    (lambda d: d.update(title={f"l{i}": "t" for i in range(20)}), "20 languages"),
])
def test_texts_that_could_not_be_saved_again_are_refused_when_read(tmp_path, change, message):
    with pytest.raises(FileProblem, match=message):
        load_scenario(write_doc(tmp_path, change))


def test_the_largest_names_labels_and_texts_still_save_and_reopen(tmp_path):
    from attnviz.core.scenario import MAX_LABEL_LENGTH, MAX_NAME_LENGTH, MAX_TEXT_LENGTH
    doc = scenario_to_dict(big_model(heads=64, n=8, d=1024))
    for head in doc["heads"]:
        head.update(name="名" * MAX_NAME_LENGTH, labels=["ラ" * MAX_LABEL_LENGTH] * 1024,
                    v_labels=["ベ" * MAX_LABEL_LENGTH] * 1024)
    doc.update(description={lang: "説" * MAX_TEXT_LENGTH for lang in "abcdefgh"})
    (tmp_path / "big.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    s = load_scenario(tmp_path / "big.json")
    for name in ("again.npz", "again.json"):
        save_scenario(s, tmp_path / name)
        assert same_scenario(load_scenario(tmp_path / name), s)


def test_a_json_of_millions_of_tiny_lists_is_refused_before_python_builds_them(tmp_path):
    doc = json.dumps(scenario_to_dict(load_preset("toy-3token")))
    (tmp_path / "lists.json").write_text(doc.replace('"q": [', '"q": [' + "[0]," * 7_000_000, 1))
    assert "far more than a scenario" in refused_within(10, load_scenario, tmp_path / "lists.json")


@pytest.mark.parametrize("name", ["a\uffff", "\ufffe", "x\ufdd0"])
def test_noncharacters_that_xml_cannot_hold_are_refused(name):
    with pytest.raises(ScenarioError, match="control character"):
        with_token_renamed(load_preset("toy-3token"), 0, name)


def test_a_file_names_bytes_that_are_not_utf8_print_as_bytes_not_an_encoding_error(tmp_path, capsys, monkeypatch):
    """A model opened from bad\xff.gguf is listed by `attnviz models` ever after: printing its path (a lone
    surrogate in Python) stopped every listing with a UnicodeEncodeError."""
    import shutil
    from pathlib import Path

    from attnviz.cli import main
    from attnviz.core.text import terminal_safe
    assert terminal_safe("bad\udcff.gguf\tx") == "bad<FF>.gguf⇥x" and terminal_safe("猫") == "猫"
    name = os.fsdecode(os.fsencode(tmp_path) + b"/bad\xff.gguf")
    shutil.copy(Path(__file__).parents[1] / "golden" / "families" / "llama" / "llama-f32.gguf", name)
    monkeypatch.setenv("ATTNVIZ_DATA_DIR", str(tmp_path / "data"))
    assert main(["model", "--model", name, "hi"]) == 0
    capsys.readouterr()
    assert main(["models"]) == 0
    assert "bad<FF>.gguf" in capsys.readouterr().out
