"""`attnviz screenshot A --compare B`: the compare window rendered offscreen into a PNG file, on the
desk or (--presentation) full screen as in front of the class."""
from __future__ import annotations

import time

from ...core.files import atomic_write
from ...core.messages import QT_TR_NOOP
from ...core.scenario import ScenarioError
from ..common.i18n import install_language, system_language
from ..state.view import ViewState

BUILD_SECONDS = 120  # the comparison is built off the GUI thread; a 4,096-token model takes seconds


def screenshot_comparison(a, b, path: str, width: int, height: int, lang: str | None = None,
                          presentation: bool = False) -> None:
    """A beside B (and B − A when their words line up), as the compare window shows them."""
    if not str(path).lower().endswith(".png"):
        raise ScenarioError(QT_TR_NOOP("{0}: a screenshot is a PNG file: give a name ending in .png"), path)
    from ..export.files import png_bytes
    from ..window.app import create_app, isolate_settings, use_offscreen
    from .dialog import CompareDialog

    use_offscreen(width, height)  # presenting, full screen is this virtual screen
    app = create_app()
    isolate_settings()  # a screenshot shows the defaults and leaves the user's settings alone
    install_language(lang or system_language())
    failures = []
    dialog = CompareDialog(a, b, ViewState(presenting=presentation))
    dialog.failed.connect(failures.append)
    dialog.show()
    dialog.resize(width, height)
    if presentation:
        dialog.set_presentation(True)
    deadline = time.monotonic() + BUILD_SECONDS
    while dialog.figure is None and not failures and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    if failures or dialog.figure is None:
        raise ScenarioError(QT_TR_NOOP("the comparison could not be made: {0}"),
                            failures[0] if failures else "time out")
    for _ in range(3):
        app.processEvents()
    image = dialog.grab().toImage()
    dialog.close()
    atomic_write(path, png_bytes(image))
