"""The window as a picture, without a display: a scenario on the desk or presented, a lesson's
scene as the class sees it, the compare window. Each PNG is written atomically."""
from __future__ import annotations

import time

from ...core.files import atomic_write
from ...core.messages import QT_TR_NOOP
from ...core.scenario import ScenarioError
from ..classroom.views import BY_ID
from ..common.i18n import install_language, system_language
from ..compare.dialog import CompareDialog
from ..export.files import png_bytes
from ..state.view import ViewState
from .app import create_app, in_interface_language, isolate_settings, use_offscreen
from .main_window import MainWindow

COMPARISON_SECONDS = 120  # `screenshot --compare` waits this long for the comparison (a 4,096-token model: seconds)
WORKBENCH_SECONDS = 600   # `screenshot --view sweep` reruns every head: seconds on SmolLM2, minutes on a big model


def lesson_screenshot(lesson, index: int, path: str, width: int, height: int, lang: str | None = None) -> None:
    """Scene `index` (0-based) of `lesson` as the class sees it, rendered offscreen into a PNG file."""
    use_offscreen(width, height)
    app = create_app()
    isolate_settings()
    install_language(lang or system_language())
    window = MainWindow()
    window.show()
    scene = lesson.scenes[index]
    if scene.scenario.kind == "model":  # no window to keep answering: the model reads here, first
        window.lessons.runs.get(scene.scenario.value, scene.off)
    if not window.lessons.open(lesson, index):
        raise ScenarioError(QT_TR_NOOP("scene {0} cannot be shown"), index + 1)
    window.resize(width, height)
    window.lessons.moving.finish()  # a scene whose q moves: as it comes to rest
    for _ in range(4):  # the maths views (pyqtgraph) are built when first shown; wrapped texts a turn later
        app.processEvents()
    _wait_for_work(window, app)
    image = window.grab().toImage()
    window.lessons.end()
    window.close()
    atomic_write(path, png_bytes(image))


def screenshot(scenario, path: str, width: int = 1600, height: int = 1000, lang: str | None = None,
               presentation: bool = False, stage: int | None = None, view: str | None = None) -> None:
    """Render the whole window offscreen into a PNG file (written atomically). Presenting, `view`
    (a classroom/views.py id, or "maths") fills the screen ("heads": every head side by side);
    on the desk, it is the panel brought forward."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(QT_TR_NOOP("{0}: a screenshot is a PNG file: give a name ending in .png"), path)
    use_offscreen(width, height)
    app = create_app()
    isolate_settings()  # a screenshot shows the defaults and leaves the user's settings alone
    install_language(lang or system_language())
    window = MainWindow(in_interface_language(scenario))
    window.show()
    if presentation:
        window.classroom.set_presentation(True)
    window.document.set_stage(stage)
    window.resize(width, height)  # after full screen, which offscreen sizes to its own screen
    for _ in range(3):  # a wrapped text's height is laid out a turn after its width
        app.processEvents()
    if view is not None:
        _show_view(window, view, presentation)
        for _ in range(3):  # the maths views (pyqtgraph) are built when first shown
            app.processEvents()
        _wait_for_work(window, app)
    image = window.grab().toImage()
    window.document.undo_stack.setClean()  # nothing to save: close without asking
    window.close()
    atomic_write(path, png_bytes(image))


def workbench_screenshot(scenario, tab: str, path: str, width: int, height: int, lang: str | None = None) -> None:
    """A tab of the research workbench (research/dialog.py: patch, lens, attribute, sweep, heads, explain), run
    with its example inputs on the model of `scenario` (else the built-in one), offscreen into a PNG file."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(QT_TR_NOOP("{0}: a screenshot is a PNG file: give a name ending in .png"), path)
    use_offscreen(width, height)
    app = create_app()
    isolate_settings()
    install_language(lang or system_language())
    window = MainWindow(in_interface_language(scenario))
    window.research.open(tab)
    dialog, failures = window.research.dialog, []
    dialog.failed.connect(failures.append)
    dialog.resize(width, height)
    dialog.run(tab)
    deadline = time.monotonic() + WORKBENCH_SECONDS  # worked out off the GUI thread
    while dialog.working and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    if failures or dialog.working:
        dialog.stop_work()
        raise ScenarioError(QT_TR_NOOP("the workbench's {0} could not be made: {1}"), tab,
                            failures[0] if failures else f"more than {WORKBENCH_SECONDS} s")
    for _ in range(3):
        app.processEvents()
    image = dialog.grab().toImage()
    dialog.close()
    window.document.undo_stack.setClean()
    window.close()
    atomic_write(path, png_bytes(image))


def _show_view(window, view: str, presentation: bool) -> None:
    parts, classroom = window.parts, window.classroom
    if presentation:
        if view == "heads":
            classroom.side_by_side = True
        classroom.present_view("geometry" if view == "maths" else view)
        return
    record = BY_ID.get(view)
    if view == "maths" or (record is not None and record.maths_tab is not None):
        parts.bring_forward(parts.maths_dock)
        if record is not None:
            parts.maths.widget().setCurrentIndex(record.maths_tab)
    elif view == "layer" and window.document.scenario.projection is not None:
        parts.bring_forward(parts.pipeline_dock)


def _wait_for_work(window, app, seconds: float = 60) -> None:
    """The overview and the presented comparison make their numbers on a worker thread: the picture
    waits for them."""
    shown = window.parts.presented()
    dialog = shown if hasattr(shown, "working") else window.overview.dialog
    end = time.monotonic() + seconds
    while dialog is not None and dialog.working and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    app.processEvents()


def screenshot_comparison(a, b, path: str, width: int, height: int, lang: str | None = None,
                          presentation: bool = False) -> None:
    """The compare window (A beside B, and B − A when their words line up) offscreen into a PNG
    file: on the desk, or full screen as in front of the class. a, b: (scenario, source) as opened,
    a preset shown in the interface's language."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(QT_TR_NOOP("{0}: a screenshot is a PNG file: give a name ending in .png"), path)
    use_offscreen(width, height)  # presenting, full screen is this virtual screen
    app = create_app()
    isolate_settings()  # a screenshot shows the defaults and leaves the user's settings alone
    install_language(lang or system_language())
    failures = []
    (a, _), (b, _) = in_interface_language(a), in_interface_language(b)
    dialog = CompareDialog(a, b, ViewState(presenting=presentation))
    dialog.failed.connect(failures.append)
    dialog.show()
    dialog.resize(width, height)
    if presentation:
        dialog.set_presentation(True)
    deadline = time.monotonic() + COMPARISON_SECONDS  # built off the GUI thread
    while dialog.figure is None and not failures and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    if failures:
        raise ScenarioError(QT_TR_NOOP("the comparison could not be made: {0}"), failures[0])
    if dialog.figure is None:
        raise ScenarioError(QT_TR_NOOP("the comparison took more than {0} s"), COMPARISON_SECONDS)
    for _ in range(3):
        app.processEvents()
    image = dialog.grab().toImage()
    dialog.close()
    atomic_write(path, png_bytes(image))
