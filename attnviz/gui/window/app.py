"""Starting Qt: the application object, fonts, the window, and offscreen screenshots."""
from __future__ import annotations

import atexit
import json
import os
import sys
import tempfile
import time

from PySide6.QtCore import QSize, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from ... import __version__
from ...core.files import atomic_write
from ...core.messages import QT_TR_NOOP
from ...core.paths import resource
from ...core.scenario import ScenarioError
from ...core.text import terminal_safe
from ..common.i18n import current_language, install_language, system_language
from ..look import colormaps
from ..look.fonts import install_fonts
from ..state.files import in_language

_QUIET = ("propagateSizeHints", "does not support raise()")  # the offscreen platform's notices, harmless


def _qt_messages(kind, context, message):
    if kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) or any(q in message for q in _QUIET):
        return
    print(f"attnviz: Qt: {message}", file=sys.stderr)


ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
COMPARISON_SECONDS = 120  # `screenshot --compare` waits this long for the comparison (a 4,096-token model: seconds)

def create_app(argv=None) -> QApplication:
    """The one QApplication, with AttnViz's names (for QSettings) and its Japanese font."""
    app = QApplication.instance()
    if app is None:
        if sys.platform.startswith("linux") and not any(os.environ.get(v) for v in ("LC_ALL", "LC_CTYPE", "LANG")):
            os.environ["LC_CTYPE"] = "C.UTF-8"  # no locale at all (a bare environment): Qt would warn, then do this
        app = QApplication(list(argv) if argv is not None else [sys.argv[0]])
    qInstallMessageHandler(_qt_messages)
    app.setOrganizationName("AttnViz")
    app.setApplicationName("AttnViz")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("attnviz")  # Wayland and docks match the window to attnviz.desktop
    app.setWindowIcon(app_icon())
    from ..state import settings
    settings.check_files()
    if not install_fonts(app):
        print("attnviz: warning: no Japanese font found; Japanese text may show as boxes",
              file=sys.stderr)
    return app


def app_icon() -> QIcon:
    """The heatmap icon at every size it is drawn at (title bar, taskbar, Alt+Tab)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(resource("icons", f"attnviz-{size}.png")), QSize(size, size))
    return icon


def run(scenario=None, lang: str | None = None, model_text: str | None = None, model_source=None,
        session: str | None = None, lesson=None, model_chat: bool = False) -> int:
    """Open the window (on a preset id, a file, or an opened (scenario, source)) until it closes.

    With no scenario: the last one when the user asked for that (File menu), else seed-demo."""
    from ..state import settings
    from .main_window import MainWindow

    app = create_app()
    install_language(lang or settings.language(system_language()))
    notices = []
    window = MainWindow(_in_language(scenario) if scenario is not None else _start_scenario(notices))
    window.recovery.enable()
    # The first time, the whole screen: the lesson's tables, heads and steps all fit on 1920 × 1080.
    window.showMaximized() if window.classroom.first_start else window.show()
    notices += settings.notices()  # damaged settings met while the window restored its layout
    for line in notices:
        print(f"attnviz: {terminal_safe(line)}", file=sys.stderr)
    if notices:
        window.report(notices[-1])
    window.recovery.offer_restore()
    if model_text is not None:
        window.model.run(model_text, model_source, model_chat)
    if session is not None:
        window.model.open_session(session)
    if lesson is not None:  # (a lesson, the scene to start from): given full screen
        window.lessons.open(*lesson)
    return app.exec()


def lesson_screenshot(lesson, index: int, path: str, width: int, height: int, lang: str | None = None) -> None:
    """Scene `index` (0-based) of `lesson` as the class sees it, rendered offscreen into a PNG file."""
    from ..export.files import png_bytes
    from .main_window import MainWindow

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


def _start_scenario(notices: list | None = None):
    """The last scenario when the user asked for that, else seed-demo: whatever was remembered,
    AttnViz starts (a file that cannot be opened again is said in one line)."""
    from ...core.presets import DEFAULT_PRESET, open_named
    from ..state import settings
    last = settings.last_scenario() if settings.reopen_last() else None
    lang = current_language()  # a preset opens in the interface's language
    if last:
        try:
            return open_named(last[len("preset:"):] if last.startswith("preset:") else last, lang=lang)
        except Exception as e:  # noqa: BLE001 (nothing remembered may stop the start)
            (notices if notices is not None else []).append(f"the last scenario cannot be opened again: {e}")
    return open_named(DEFAULT_PRESET, lang=lang)


def _in_language(scenario):
    """A preset the command line opened before Qt started (to refuse bad input first): its version
    in the interface's language, now that it is installed."""
    return in_language(scenario) if isinstance(scenario, tuple) else scenario


def use_offscreen(width: int = 1920, height: int = 1080) -> None:
    """Render without a display (CI, scripts), on a virtual screen of the given size (what a
    full-screen window fills); must happen before the QApplication exists."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "")
    if QApplication.instance() is not None or chosen not in ("", "offscreen"):  # another platform, or sized already
        return
    screen = {"screens": [{"name": "attnviz", "x": 0, "y": 0, "width": width, "height": height,
                           "logicalDpi": 96, "dpr": 1}]}
    fd, path = tempfile.mkstemp(prefix="attnviz-screen-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(screen, f)
    atexit.register(os.unlink, path)
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={path}"


def isolate_settings() -> None:
    """Point QSettings at a fresh temporary folder (for scripted renders)."""
    from PySide6.QtCore import QSettings
    folder = tempfile.mkdtemp(prefix="attnviz-settings-")
    QSettings.setDefaultFormat(QSettings.IniFormat)
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, folder)


def screenshot(scenario, path: str, width: int = 1600, height: int = 1000, lang: str | None = None,
               presentation: bool = False, stage: int | None = None, view: str | None = None) -> None:
    """Render the whole window offscreen into a PNG file (written atomically). Presenting, `view`
    (a classroom/views.py id, or "maths") fills the screen ("heads": every head side by side);
    on the desk, it is the panel brought forward."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(QT_TR_NOOP("{0}: a screenshot is a PNG file: give a name ending in .png"), path)
    from ..export.files import png_bytes
    from .main_window import MainWindow

    use_offscreen(width, height)
    app = create_app()
    isolate_settings()  # a screenshot shows the defaults and leaves the user's settings alone
    install_language(lang or system_language())
    window = MainWindow(_in_language(scenario))
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


def _show_view(window, view: str, presentation: bool) -> None:
    from ..classroom.views import BY_ID
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
    import time
    shown = window.parts.presented()
    dialog = shown if hasattr(shown, "working") else window.overview.dialog
    end = time.monotonic() + seconds
    while dialog is not None and dialog.working and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    app.processEvents()


def export_comparison(a, b, path: str, width: int = 2400, caption: bool = True, lang: str | None = None,
                      scale: str = "linear") -> None:
    """Write A beside B and B − A without a window or a display."""
    from ..compare.dialog import CompareFigure
    from ..export.files import export_figure, image_format

    image_format(path)  # refuse a wrong suffix before starting Qt
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    export_figure(CompareFigure(a, b, caption=caption, colormap=colormaps.get(scale=scale)), path, width)


def screenshot_comparison(a, b, path: str, width: int, height: int, lang: str | None = None,
                          presentation: bool = False) -> None:
    """The compare window (A beside B, and B − A when their words line up) offscreen into a PNG
    file: on the desk, or full screen as in front of the class. a, b: (scenario, source) as opened,
    a preset shown in the interface's language."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(QT_TR_NOOP("{0}: a screenshot is a PNG file: give a name ending in .png"), path)
    from ..compare.dialog import CompareDialog
    from ..export.files import png_bytes
    from ..state.view import ViewState

    use_offscreen(width, height)  # presenting, full screen is this virtual screen
    app = create_app()
    isolate_settings()  # a screenshot shows the defaults and leaves the user's settings alone
    install_language(lang or system_language())
    failures = []
    (a, _), (b, _) = _in_language(a), _in_language(b)
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


def export_overview(name: str, path: str, width: int = 2400, caption: bool = True, lang: str | None = None,
                    scale: str = "linear") -> None:
    """Every layer × head of a model's file (or a scenario's one layer) as one grid."""
    from ...core.summary import check_work, kv_groups, layer_weights, named_layers, summarise
    from ..export.files import export_figure, image_format
    from ..overview.dialog import OverviewFigure

    image_format(path)  # refuse a wrong suffix before reading every layer
    first, count, scenario_of = named_layers(name)
    check_work(first, count)  # before a second layer is read
    summary = summarise(first.tokens, layer_weights(count, scenario_of), count, rollout=False)  # not drawn
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    title = os.path.basename(name) if os.path.exists(name) else name  # a file's name, or a preset's id
    export_figure(OverviewFigure(summary, title, kv_groups(first), caption=caption,
                                 colormap=colormaps.get(scale=scale)), path, width)


def export(scenario, path: str, kind: str = "head", head: int = 0, query: int | None = None,
           width: int = 2400, caption: bool = True, lang: str | None = None, scale: str = "linear") -> None:
    """Write one figure (a head, all heads, or a query's steps) without a window or a display."""
    from ...core import compute
    from ..export.figure import Figure, FigureOptions
    from ..export.files import export_figure, image_format

    image_format(path)  # refuse a wrong suffix before starting Qt
    use_offscreen()
    create_app()
    install_language(lang or system_language())
    figure = Figure(scenario, compute(scenario), FigureOptions(kind=kind, head=head, query=query,
                                                               caption=caption, scale=scale))
    export_figure(figure, path, width)
