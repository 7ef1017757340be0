"""Can a window open here? Checked before Qt starts, so the user gets a fix, not a crash."""
from __future__ import annotations

import os
import sys

# What Qt's X11 plugin needs that a minimal Linux install may lack (Debian/Ubuntu names).
XCB_LIBRARIES = {"xcb-cursor": "libxcb-cursor0", "xcb-icccm": "libxcb-icccm4",
                 "xcb-keysyms": "libxcb-keysyms1"}


def display_problem() -> str | None:
    """Why a window cannot open here, in one line with the fix; None when it can."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if not sys.platform.startswith("linux") or platform not in ("", "xcb"):
        return None
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return ("no display to open a window on; run AttnViz on a desktop session, or use "
                "'attnviz screenshot' which needs none")
    if os.environ.get("WAYLAND_DISPLAY") and platform == "":
        return None
    import ctypes.util
    missing = [pkg for lib, pkg in XCB_LIBRARIES.items() if ctypes.util.find_library(lib) is None]
    if missing:
        return ("Qt needs system libraries that are not installed: "
                f"sudo apt install {' '.join(missing)}")
    return None
