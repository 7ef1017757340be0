"""AttnViz in the desktop's menu for this user (Linux, freedesktop.org): a .desktop entry, the icon
at every size, and a file type for scenario files (*.attnviz.json) and real-model sessions (*.attnviz-model.json).

    attnviz --install-desktop        the program that runs this: the venv's attnviz, or the
    AttnViz/AttnViz --install-desktop    standalone folder's AttnViz (no Python needed)
    attnviz --uninstall-desktop      takes it all away again

Everything goes under $XDG_DATA_HOME (~/.local/share): no administrator rights, nothing outside
the user's own folders. The entry must start AttnViz from any folder name (a USB stick called
"USB STICK", a folder named 100% or $HOME): Exec and TryExec are written as the Desktop Entry
specification says, and tests/packaging/test_desktop.py reads them back as GLib does.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .core.files import FileProblem, atomic_write
from .core.paths import resource
from .core.text import visible

SIZES = (16, 24, 32, 48, 64, 128, 256)
MIME = "application/x-attnviz-scenario"
ENTRY = "attnviz.desktop"

DESKTOP = """[Desktop Entry]
Type=Application
Version=1.4
Name=AttnViz
GenericName=Attention visualiser
GenericName[ja]=Attention の可視化
Comment=See and edit attention in a Transformer, offline
Comment[ja]=Transformer の Attention を、オフラインで見て・書き換えて試す
Exec={exec} %f
TryExec={try_exec}
Icon=attnviz
Terminal=false
Categories=Education;ArtificialIntelligence;
Keywords=attention;transformer;softmax;heatmap;query;key;value;
MimeType={mime};
StartupWMClass=attnviz
"""

MIME_XML = """<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="{mime}">
    <comment>AttnViz scenario</comment>
    <comment xml:lang="ja">AttnViz のシナリオ</comment>
    <sub-class-of type="application/json"/>
    <glob pattern="*.attnviz.json"/>
    <glob pattern="*.attnviz-model.json"/>
    <icon name="attnviz"/>
  </mime-type>
</mime-info>
"""


class DesktopError(Exception):
    """The menu entry cannot be installed or removed; the message says why, in one line."""


# ---------------------------------------------------------------- the specification's escaping

def string_value(text: str) -> str:
    """A value of type string: the escapes \\\\, \\n, \\t, \\r (undone by every reader first)."""
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def exec_argument(argument: str) -> str:
    """One argument of Exec, before the string escapes: always in double quotes, with ", `, $ and \\
    escaped by a backslash inside them, and every % doubled (a lone % starts a field code)."""
    quoted = "".join("\\" + c if c in '"`$\\' else c for c in argument)
    return '"' + quoted.replace("%", "%%") + '"'


def exec_value(argv: list[str]) -> str:
    """The Exec line for a program and its arguments, ready to write after "Exec="."""
    return string_value(" ".join(exec_argument(a) for a in argv))


def entry_text(argv: list[str]) -> str:
    """The whole .desktop file for a menu entry that runs argv (plus the file opened, %f)."""
    return DESKTOP.format(exec=exec_value(_launchable(argv)), try_exec=string_value(argv[0]), mime=MIME)


def _launchable(argv: list[str]) -> list[str]:
    """argv, or argv started through /bin/sh when the program's path holds a %: GLib looks for the
    program named in Exec before it undoes %%, finds no folder "100%%", and shows no entry."""
    if "%" not in argv[0]:
        return argv
    return ["/bin/sh", "-c", 'exec "$0" "$@"', *argv]


# ---------------------------------------------------------------- which program, where

def this_program() -> list[str]:
    """The command that starts the AttnViz running now: the standalone folder's own executable,
    else the attnviz script beside this Python (a venv's), else this Python with -m attnviz."""
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable)]
    python = Path(os.path.abspath(sys.executable))  # not resolved: a venv's python is a link
    script = python.with_name("attnviz")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [str(python), "-m", "attnviz"]


def data_home() -> Path:
    """$XDG_DATA_HOME, or ~/.local/share when it is unset or not absolute (the base directory spec)."""
    given = os.environ.get("XDG_DATA_HOME", "")
    return Path(given) if os.path.isabs(given) else Path.home() / ".local" / "share"


def targets(home: Path) -> dict[Path, Path | None]:
    """Each file this installs, and the icon it copies (None for the generated ones)."""
    icons = resource("icons")
    files = {home / "applications" / ENTRY: None,
             home / "mime" / "packages" / "attnviz.xml": None,
             home / "icons" / "hicolor" / "scalable" / "apps" / "attnviz.svg": icons / "attnviz.svg"}
    for size in SIZES:
        files[home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "attnviz.png"] = icons / f"attnviz-{size}.png"
    return files


# ---------------------------------------------------------------- installing

def run(out, remove: bool = False) -> int:
    """`attnviz --install-desktop` (remove: --uninstall-desktop): do it, print each file's path."""
    done = uninstall() if remove else install(this_program())
    for path in done:  # a folder's name in any bytes prints as text
        out.write(("removed " if remove else "") + visible(os.fsencode(path).decode("utf-8", "replace")) + "\n")
    return 0


def install(argv: list[str], home: Path | None = None) -> list[Path]:
    """Write the entry, the file type and the icons; refuse, before writing anything, a program
    that is not there or a folder name no desktop entry can hold."""
    home = home or data_home()
    argv = [os.path.abspath(argv[0]), *argv[1:]]  # TryExec and Exec name the program by its full path
    _check_platform()
    _check_program(argv[0])
    text = entry_text(argv)
    written = []
    try:
        for target, source in targets(home).items():
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink():  # AttnViz's own file replaces a link: writing through it could reach any file
                target.unlink()
            data = source.read_bytes() if source is not None else \
                (text if target.suffix == ".desktop" else MIME_XML.format(mime=MIME)).encode("utf-8")
            atomic_write(target, data)  # a pipe or a device there is refused, never opened
            written.append(target)
    except OSError as e:
        raise DesktopError(f"cannot write {e.filename or home}: {e.strerror or e}") from None
    except FileProblem as e:
        raise DesktopError(str(e)) from None
    _refresh(home)
    return written


def uninstall(home: Path | None = None) -> list[Path]:
    home = home or data_home()
    removed = [t for t in targets(home) if t.is_file()]
    try:
        for target in removed:
            target.unlink()
    except OSError as e:
        raise DesktopError(f"cannot remove {e.filename}: {e.strerror or e}") from None
    _refresh(home)
    return removed


def _check_platform() -> None:
    if sys.platform in ("win32", "darwin"):
        raise DesktopError("--install-desktop makes a Linux (freedesktop.org) menu entry; on Windows and "
                           "macOS start AttnViz from its folder, or pin it to the taskbar or Dock")


def _check_program(program: str) -> None:
    try:
        program.encode("utf-8")  # a desktop entry is UTF-8: a name in another encoding cannot be written
    except UnicodeEncodeError:
        raise DesktopError(f"{program.encode('utf-8', 'surrogateescape')!r}: the folder's name is not UTF-8, "
                           "which a desktop entry cannot hold; move AttnViz to a folder with another name") from None
    if not (os.path.isfile(program) and os.access(program, os.X_OK)):
        raise DesktopError(f"{program} is not an executable program: run 'make run' once, or give another")


REFRESH_SECONDS = 10  # each desktop tool's time: one that waits (a pipe among its files) is left, not waited for


def _refresh(home: Path) -> None:
    """Tell the desktop, when its tools are installed; the files work without them at next login."""
    for tool, folder in (("update-mime-database", home / "mime"), ("update-desktop-database", home / "applications"),
                         ("gtk-update-icon-cache", home / "icons" / "hicolor")):
        if shutil.which(tool) and folder.is_dir():
            try:
                subprocess.run([tool, *(["-f", "-t"] if tool.startswith("gtk") else []), str(folder)],
                               capture_output=True, check=False, timeout=REFRESH_SECONDS, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:  # the entry is written: the desktop reads it at next login
                pass
