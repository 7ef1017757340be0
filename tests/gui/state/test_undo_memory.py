"""Undo keeps what an edit changed, not copies of matrices, and no more than UNDO_LIMIT steps."""
import numpy as np
import pytest

from attnviz.core import load_preset, make_head, make_scenario
from attnviz.gui.state.commands import SetCell, SetRow, SetSettings, new_drag_id
from attnviz.gui.state.document import UNDO_LIMIT, ScenarioDocument


def synthetic(n: int, heads: int = 12, d_k: int = 16):
    rng = np.random.default_rng(n)
    return make_scenario([f"t{i}" for i in range(n)],
                         [make_head(f"head {h}", *rng.normal(0, 1, (3, n, d_k))) for h in range(heads)])


def stored_bytes(command) -> int:
    """The bytes of every array the command holds, directly or through scenarios it keeps."""
    total = 0
    for value in vars(command).values():
        if isinstance(value, np.ndarray):
            total += value.nbytes
        elif hasattr(value, "heads"):  # a whole scenario kept
            total += sum(h.q.nbytes + h.k.nbytes + h.v.nbytes for h in value.heads)
    return total


@pytest.mark.parametrize("make", [lambda d: SetCell(d, 3, "k", 2, 1, 0.25),
                                  lambda d: SetRow(d, 3, "q", 2, np.arange(16.0)),
                                  lambda d: SetSettings(d, "T", temperature=2.0)])
def test_an_edit_command_holds_the_same_bytes_at_10_and_at_512_tokens(qapp, make):
    sizes = []
    for n in (10, 512):
        d = ScenarioDocument(synthetic(n))
        d.push(make(d))
        command = d.undo_stack.command(0)
        sizes.append(stored_bytes(command))
    assert sizes[0] == sizes[1] <= 2 * 16 * 8  # the old and new values of a row at most


def test_the_stack_keeps_the_last_thousand_steps(qapp):
    d = ScenarioDocument(load_preset("toy-3token"))
    for i in range(UNDO_LIMIT + 25):
        d.push(SetCell(d, 0, "q", i % 3, i % 2, float(i)))
    assert d.undo_stack.count() == UNDO_LIMIT == 1000
    for _ in range(UNDO_LIMIT):
        d.undo_stack.undo()
    # the oldest 25 are gone: undoing everything kept goes back to just after them
    assert d.scenario.heads[0].q[(24 % 3), (24 % 2)] == 24.0


def test_undo_and_redo_of_many_edits_restore_the_exact_arrays(qapp):
    rng = np.random.default_rng(0)
    d = ScenarioDocument(synthetic(40, heads=3))
    states = [d.scenario]
    for _ in range(200):
        head, matrix = int(rng.integers(3)), "qkv"[int(rng.integers(3))]
        if rng.random() < 0.5:
            d.push(SetCell(d, head, matrix, int(rng.integers(40)), int(rng.integers(16)), float(rng.normal())))
        else:
            d.push(SetRow(d, head, matrix, int(rng.integers(40)), rng.normal(size=16)))
        states.append(d.scenario)
    for expected in reversed(states[:-1]):
        d.undo_stack.undo()
        for mine, theirs in zip(d.scenario.heads, expected.heads):
            for m in "qkv":
                np.testing.assert_array_equal(mine.matrix(m), theirs.matrix(m))
    for expected in states[1:]:
        d.undo_stack.redo()
        for mine, theirs in zip(d.scenario.heads, expected.heads):
            for m in "qkv":
                np.testing.assert_array_equal(mine.matrix(m), theirs.matrix(m))


def test_a_slider_drag_is_one_step_back_to_where_it_started(qapp):
    d = ScenarioDocument(load_preset("seed-demo"))
    start = d.scenario.heads[0].q[6].copy()
    drag = new_drag_id()
    for x in (0.5, 1.0, 1.5):
        d.push(SetRow(d, 0, "q", 6, start + x, drag_id=drag))
    assert d.undo_stack.count() == 1
    np.testing.assert_array_equal(d.scenario.heads[0].q[6], start + 1.5)
    d.undo_stack.undo()
    np.testing.assert_array_equal(d.scenario.heads[0].q[6], start)
    drag = new_drag_id()
    for x in (0.5, 0.0):  # back where it started: no step at all
        d.push(SetRow(d, 0, "q", 6, start + x, drag_id=drag))
    assert d.undo_stack.count() == 0 and not d.undo_stack.canUndo()  # (the undone drag was dropped too)
    np.testing.assert_array_equal(d.scenario.heads[0].q[6], start)


def test_undoing_settings_after_later_edits_keeps_the_edits_and_restores_the_settings(qapp):
    """A temperature change keeps settings, not the q, k, v of its moment (a scenario kept in the
    history would pin every array as it was then: hundreds of MB after a long session)."""
    d = ScenarioDocument(load_preset("seed-demo"))
    d.push(SetSettings(d, "T", temperature=2.0))
    d.push(SetCell(d, 0, "q", 6, 0, 5.0))
    d.undo_stack.undo()
    d.undo_stack.undo()
    assert d.scenario.settings.temperature == 1.0 and d.scenario.heads[0].q[6, 0] != 5.0
    d.undo_stack.redo()
    d.undo_stack.redo()
    assert d.scenario.settings.temperature == 2.0 and d.scenario.heads[0].q[6, 0] == 5.0
    command = d.undo_stack.command(0)
    assert not any(hasattr(v, "heads") for v in vars(command).values())  # no scenario kept
