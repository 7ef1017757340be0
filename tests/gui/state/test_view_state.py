"""The view state: one Qt-free object the views follow, field by field; no view is pushed by hand."""
import pytest

from attnviz.gui.look import colormaps
from attnviz.gui.state.view import FIELDS, ViewState


def test_a_subscriber_hears_only_its_fields_and_only_real_changes():
    view, heard = ViewState(), []
    view.subscribe(("colormap", "scale"), heard.append)
    assert view.set("colormap", "grey") and view.colormap == "grey"
    assert not view.set("colormap", "grey")  # unchanged: nobody told
    view.set("look", "dark")                 # not a field it listens to
    view.set("scale", "log")
    assert heard == ["grey", "log"]


def test_unsubscribing_stops_the_calls_and_unknown_fields_are_refused():
    view, heard = ViewState(), []
    unsubscribe = view.subscribe("presenting", heard.append)
    view.set("presenting", True)
    unsubscribe()
    view.set("presenting", False)
    assert heard == [True] and view.subscribers("presenting") == 0
    with pytest.raises(AttributeError):
        view.set("colour", "grey")
    with pytest.raises(TypeError):
        ViewState(colour="grey")


def test_each_mode_keeps_its_own_zoom():
    view = ViewState(desk_zoom=1.25)
    assert view.zoom == 1.25
    view.set("presenting", True)
    assert view.zoom == FIELDS["presentation_zoom"]


def test_the_state_module_needs_no_qt():
    import subprocess
    import sys
    code = "import sys, attnviz.gui.state.view; print(any(m.startswith('PySide6') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_a_colour_map_chosen_in_the_menu_reaches_every_view_through_the_view_state(window, qtbot):
    window.overview.open()
    qtbot.waitUntil(lambda: window.overview.dialog is not None and window.overview.dialog.figure is not None)
    compare = window.compare.compare_with(window.document.scenario)
    qtbot.waitUntil(lambda: compare.figure is not None)
    window.classroom.colormap_actions["magma"].trigger()
    window.classroom.scale_actions["log"].trigger()
    assert window.view.colormap == "magma" and window.view.scale == "log"
    drawn = [window.parts.heads.panels[0].painter.colormap, window.parts.heads.colorbar.colormap,
             window.parts.steps.model.colormap, window.overview.dialog.figure.colormap,
             compare.figure.painter(0, 0).colormap, window.exports.figure().heatmap.colormap]
    assert [(c.name, c.scale) for c in drawn] == [("magma", "log")] * len(drawn)


def test_the_maths_views_of_weights_follow_the_colour_map_and_scale(window, qtbot):
    parts = window.parts
    parts.bring_forward(parts.maths_dock)
    tabs = parts.maths.widget()
    sqrt_dk, kernel = parts.maths.views[1], parts.maths.views[3]
    for view in (sqrt_dk, kernel):
        tabs.setCurrentWidget(view)
        qtbot.waitUntil(lambda view=view: bool(view.maps.items))
        window.classroom.colormap_actions["grey"].trigger()
        window.classroom.scale_actions["row"].trigger()
        colours = [(p.colormap.name, p.colormap.scale) for _, p in view.maps.items if not p.signed]
        assert colours and set(colours) == {("grey", "row")}, type(view).__name__
        window.classroom.colormap_actions["viridis"].trigger()
        window.classroom.scale_actions["linear"].trigger()


def test_a_comparison_built_while_the_colours_change_shows_the_new_ones(window, qtbot):
    compare = window.compare.compare_with(window.document.scenario)
    window.classroom.colormap_actions["cividis"].trigger()  # before the figure exists
    qtbot.waitUntil(lambda: compare.figure is not None)
    assert compare.figure.painter(1, 0).colormap.name == "cividis"


def test_a_closed_dialog_stops_listening(window, qtbot):
    before = window.view.subscribers("colormap")
    compare = window.compare.compare_with(window.document.scenario)
    qtbot.waitUntil(lambda: compare.figure is not None)
    assert window.view.subscribers("colormap") == before + 1
    compare.close()
    compare.deleteLater()
    qtbot.waitUntil(lambda: window.view.subscribers("colormap") == before)
    assert colormaps.get("magma", "nonsense").scale == "linear"  # an unknown scale is never drawn with


def test_every_field_is_declared_with_its_type_default_and_meaning():
    from dataclasses import fields

    from attnviz.gui.state.view import DOCS
    declared = {f.name: f.type for f in fields(ViewState) if f.init}
    assert set(declared) == set(FIELDS) == set(DOCS)
    assert declared["presenting"] == "bool" and declared["desk_zoom"] == "float"
    assert all(len(doc) > 20 for doc in DOCS.values())


def test_a_field_set_as_an_attribute_is_heard_and_a_misspelt_one_is_refused():
    view, heard = ViewState(), []
    view.subscribe("look", heard.append)
    view.look = "dark"
    assert heard == ["dark"] and view.look == "dark"
    with pytest.raises(AttributeError, match="no such view field: colourmap"):
        view.colourmap = "grey"
    with pytest.raises(AttributeError):
        view.colourmap  # noqa: B018 (read: there is no fallback)
    with pytest.raises(AttributeError, match="no such view field: sacle"):
        view.subscribe(("colormap", "sacle"), heard.append)
