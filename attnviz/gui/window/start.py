"""Opening the window: on a scenario, a model's text, a session or a lesson, or on what the user
last had open, until it closes."""
from __future__ import annotations

import json
import sys

from PySide6.QtCore import QTimer

from ...core.presets import DEFAULT_PRESET, open_named
from ...core.text import terminal_safe
from ..common.i18n import current_language, install_language, system_language
from ..lessons.class_screens import LOOPBACK, addresses
from ..state import settings
from .app import create_app, in_interface_language
from .main_window import MainWindow


def run(scenario=None, lang: str | None = None, model_text: str | None = None, model_source=None,
        session: str | None = None, lesson=None, model_chat: bool = False, class_screens=None) -> int:
    """Open the window (on a preset id, a file, or an opened (scenario, source)) until it closes.

    With no scenario: the last one when the user asked for that (File menu), else seed-demo."""
    app = create_app()
    install_language(lang or settings.language(system_language()))
    notices = []
    window = MainWindow(in_interface_language(scenario) if scenario is not None else _start_scenario(notices))
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
    if class_screens is not None:  # (address or None, port or None, Ctrl+C noted): the class's screens, until Ctrl+C
        return _serve_class(app, window, *class_screens)
    return app.exec()


def _serve_class(app, window, host: str | None, port: int | None, stopped: list) -> int:
    """`attnviz lesson … --class`: the room opened, its address printed as one line of JSON, then the window
    until it closes or Ctrl+C (exit 0 either way; the room closed first)."""
    screens = window.lessons.class_screens
    if not window.lessons.active:
        return 2
    url = screens.open(host or (addresses() or [LOOPBACK])[0], port, given=host is not None)  # else: asked again
    if url is None:
        print(f"attnviz: error: {screens.why}", file=sys.stderr)
        return 2
    # Ctrl+C (`stopped`, from the start) is only noted by its handler: Python runs it between any two bytecodes, in
    # the middle of a paint too; the loop's own tick then closes the room and quits, between two events.
    print(json.dumps({"url": url, "room": screens.room.code, "port": screens.server.port}), flush=True)
    screens.card.toggle()  # how to join, first: J hides it

    def tick() -> None:
        if stopped:
            screens.close()
            app.quit()
    ticks = QTimer(interval=200)
    ticks.timeout.connect(tick)
    ticks.start()
    try:
        return app.exec()
    finally:
        ticks.stop()
        screens.stop_server()  # the window closed by hand: its loop is over, no widget is touched


def _start_scenario(notices: list | None = None):
    """The last scenario when the user asked for that, else seed-demo: whatever was remembered,
    AttnViz starts (a file that cannot be opened again is said in one line)."""
    last = settings.last_scenario() if settings.reopen_last() else None
    lang = current_language()  # a preset opens in the interface's language
    if last:
        try:
            return open_named(last[len("preset:"):] if last.startswith("preset:") else last, lang=lang)
        except Exception as e:  # noqa: BLE001 (nothing remembered may stop the start)
            (notices if notices is not None else []).append(f"the last scenario cannot be opened again: {e}")
    return open_named(DEFAULT_PRESET, lang=lang)
