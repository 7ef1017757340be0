"""The guided steps in one Qt-free place that the step table, formula, heatmap and banner all read."""
import subprocess
import sys

from attnviz.gui.steps.stages import COLUMNS, NUMBERS, STAGES, following, preceding, shown


def test_the_stages_need_no_qt():
    code = "import sys, attnviz.gui.steps.stages; print(any(m.startswith('PySide6') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_next_walks_off_one_two_to_the_last_then_off_and_previous_stops_at_the_first():
    walk, stage = [], None
    for _ in range(len(STAGES) + 1):
        stage = following(stage)
        walk.append(stage)
    assert walk == [*NUMBERS, None]
    assert [preceding(n) for n in (None, *NUMBERS)] == [NUMBERS[-1], NUMBERS[0], *NUMBERS[:-1]]


def test_each_stage_shows_what_the_ones_before_computed_and_outside_them_everything_shows():
    for before, after in zip(NUMBERS, NUMBERS[1:]):
        assert shown(before) < shown(after)
    assert shown(None) == shown(NUMBERS[-1]) >= set(COLUMNS)
    assert "weight" not in shown(NUMBERS[0]) and "sum" not in shown(NUMBERS[0])
