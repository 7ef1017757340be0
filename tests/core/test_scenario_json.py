"""Scenario files as JSON: exact round trips, and a clear message for every broken file."""
import dataclasses
import json
import os

import pytest

from attnviz.core import ScenarioError, list_presets, load_preset, load_scenario, save_scenario
from attnviz.core.formats.document import scenario_from_dict, scenario_to_dict
from attnviz.core.scenario import same_scenario, with_value


@pytest.mark.parametrize("preset", [p.id for p in list_presets()])
def test_every_preset_round_trips_through_a_file_exactly(tmp_path, preset):
    s = load_preset(preset)
    save_scenario(s, tmp_path / "s.json")
    assert same_scenario(load_scenario(tmp_path / "s.json"), s)


def test_awkward_floats_survive_a_round_trip_bit_for_bit(tmp_path):
    s = with_value(load_preset("toy-3token"), 0, "q", 0, 0, 0.1 + 0.2)
    save_scenario(s, tmp_path / "s.json")
    assert load_scenario(tmp_path / "s.json").heads[0].q[0, 0] == 0.1 + 0.2


def test_the_file_names_its_format_and_version(tmp_path):
    save_scenario(load_preset("toy-3token"), tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert doc["format"] == "attnviz-scenario" and doc["version"] == 1


def test_writing_into_a_missing_folder_says_so(tmp_path):
    with pytest.raises(ScenarioError, match="does not exist"):
        save_scenario(load_preset("toy-3token"), tmp_path / "nope" / "s.json")


def write(tmp_path, content, name="s.json"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def valid_document():
    return scenario_to_dict(load_preset("toy-3token"))


def broken(**changes):
    doc = valid_document()
    for key, value in changes.items():
        doc[key] = value
    return json.dumps(doc)


@pytest.mark.parametrize("content, message", [
    ('{"format": "attnviz-scenario", "version": 1, "tok', "broken JSON at line 1"),
    ("[1, 2]", "not an AttnViz scenario"),
    (broken(version=2), "newer AttnViz.*version 2"),
    (broken(tokens=[]), "no tokens"),
    (broken(tokens="猫魚"), '"tokens" must be a list'),
    (broken(heads=[]), "no heads"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "q": [[0, 2], [2, 0]]}]}),
     r"q has shape \(2 × 2\) but there are 3 tokens"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "k": [[2, 0], [0, "x"], [1, 1]]}]}),
     r"k, row 2, column 2: 'x' is not a number"),
    (json.dumps({**valid_document(), "heads": [{**valid_document()["heads"][0], "v": [[2, 0], [0], [1, 1]]}]}),
     "rows have different lengths"),
    (broken(settings={"temperature": "hot"}), "temperature"),
    (b"\xff\xfe\x00garbage", "not a text file"),
])
def test_broken_files_are_refused_with_a_message_naming_the_problem(tmp_path, content, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, content))


def test_nan_in_a_file_is_refused_with_its_place(tmp_path):
    text = json.dumps(valid_document()).replace("[0.0, 2.0]", "[NaN, 2.0]", 1)
    with pytest.raises(ScenarioError, match=r"q, row 1 \(猫\), column 1: nan"):
        load_scenario(write(tmp_path, text))


def test_a_missing_file_a_folder_and_an_unreadable_file_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "missing.json")
    with pytest.raises(ScenarioError, match="is a folder"):
        load_scenario(tmp_path)
    locked = write(tmp_path, json.dumps(valid_document()))

    real_open = os.open

    def denied(path, *args, **kwargs):  # chmod 000 does not stop root, which CI may run as
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(ScenarioError, match="permission denied"):
        load_scenario(locked)


def test_a_file_far_too_large_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(200 * 1024 * 1024)  # sparse: 200 MB on paper, nothing on disk
    with pytest.raises(ScenarioError, match="too large"):
        load_scenario(big)


def test_text_that_looks_like_numbers_survives_a_round_trip(tmp_path):
    s = load_preset("toy-3token")
    odd = dataclasses.replace(s, title={"en": "[1,  2] and [ 3 ]"}, tokens=("[1,  2]", "魚", "それ"))
    save_scenario(odd, tmp_path / "s.json")
    back = load_scenario(tmp_path / "s.json")
    assert back.title == {"en": "[1,  2] and [ 3 ]"} and back.tokens[0] == "[1,  2]"
    assert same_scenario(back, odd)


def test_minus_zero_and_zero_are_different_to_a_bit_for_bit_comparison():
    s = load_preset("toy-3token")
    assert not same_scenario(with_value(s, 0, "q", 0, 0, -0.0), s)


def test_a_file_saved_by_windows_notepad_with_a_bom_opens(tmp_path):
    text = json.dumps(valid_document(), ensure_ascii=False)
    assert load_scenario(write(tmp_path, "\ufeff".encode() + text.encode("utf-8"))).tokens[0] == "猫"


@pytest.mark.parametrize("content, message", [
    (broken(settings={"temperature": 10 ** 400}), "integer of 401 digits"),
    (json.dumps({**valid_document(),
                 "heads": [{**valid_document()["heads"][0], "q": [[10 ** 400, 0], [0, 0], [0, 0]]}]}),
     "integer of 401 digits"),
    ("[" * 100000 + "]" * 100000, "nested far too deeply"),
    (broken(tokens=["\ud800", "魚", "それ"]), "not valid text"),
    (broken(title="\udfff"), "not valid text"),
])
def test_hostile_json_is_refused_with_a_message_not_a_crash(tmp_path, content, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, content))


def test_projection_heads_keep_their_own_labels_through_a_file(tmp_path):
    doc = scenario_to_dict(load_preset("projection-demo"))
    doc["heads"][1]["labels"] = ["x", "y"]
    s = scenario_from_dict(doc)
    assert s.heads[0].labels == ("軸 1", "軸 2") and s.heads[1].labels == ("x", "y")
    save_scenario(s, tmp_path / "p.json")
    assert load_scenario(tmp_path / "p.json").heads[1].labels == ("x", "y")


def test_saving_through_a_symbolic_link_writes_the_linked_file(tmp_path):
    real = tmp_path / "real.json"
    save_scenario(load_preset("toy-3token"), real)
    (tmp_path / "link.json").symlink_to(real)
    save_scenario(load_preset("seed-demo"), tmp_path / "link.json")
    assert (tmp_path / "link.json").is_symlink()
    assert load_scenario(real).n == 10


def test_a_key_given_twice_is_refused_naming_it(tmp_path):
    """Attacker round 23 (a session's "text" twice ran the second): a scenario or session file is JSON a
    person may edit; which of two keys was meant no one can tell."""
    path = tmp_path / "twice.attnviz.json"
    save_scenario(load_preset("seed-demo"), path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"format":', '"title": "other", "format":', 1), encoding="utf-8")
    assert text.count('"title"') == 1
    with pytest.raises(ScenarioError, match='gives "title" twice in one object'):
        load_scenario(path)
