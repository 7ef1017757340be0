"""The lessons' core (Qt-free) keeps its own lists of what the window offers: the presented views'
ids, the guided steps and the colour scales They must be the window's."""
from attnviz.core.lessons import scene
from attnviz.gui.classroom import views
from attnviz.gui.steps import stages


def test_a_scenes_views_are_the_presented_views_plus_one_big_head_and_compare():
    assert scene.PRESENTED_VIEWS == views.IDS
    assert set(scene.VIEWS) == {*views.IDS, "head", "compare"}


def test_a_scenes_steps_are_the_guided_steps():
    assert scene.STEPS == stages.ALL_NUMBERS


def test_a_scenes_colour_scales_are_the_windows():
    from attnviz.gui.look.colormaps import SCALES
    assert scene.COLOUR_SCALES == tuple(SCALES)
