"""Can a window open here? Checked before Qt starts, so the user gets a fix, not a crash."""
from __future__ import annotations

import ctypes
import ctypes.util
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
    missing = [pkg for lib, pkg in XCB_LIBRARIES.items() if ctypes.util.find_library(lib) is None]
    if missing:
        return ("Qt needs system libraries that are not installed: "
                f"sudo apt install {' '.join(missing)}")
    return x_server_problem(os.environ.get("DISPLAY", ""))


def x_server_problem(display: str) -> str | None:
    """Connect to the X server as Qt will: with a stale DISPLAY (the server gone, a closed SSH
    session) Qt aborts the process, so AttnViz says so first. None when it answers, or when
    there is no libxcb to ask (then Qt's own message names what is missing)."""
    name = ctypes.util.find_library("xcb")
    if name is None:
        return None
    try:
        xcb = ctypes.CDLL(name)
    except OSError:
        return None
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(errors="replace"), None)
    failed = xcb.xcb_connection_has_error(connection)
    xcb.xcb_disconnect(connection)
    if failed:
        return (f"cannot connect to the display {display!r} (DISPLAY): no X server answers there; "
                "start AttnViz from the desktop session, or use 'attnviz screenshot', which needs none")
    return None
