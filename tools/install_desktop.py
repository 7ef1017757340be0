"""Put AttnViz in the desktop's menu for this user (Linux, freedesktop.org): a .desktop entry, the
icon at every size, and a file type for scenario files named *.attnviz.json.

    make install-desktop                    # the checkout's attnviz (in .venv)
    python tools/install_desktop.py --exec dist/AttnViz/AttnViz   # the standalone bundle
    python tools/install_desktop.py --uninstall

Everything goes under $XDG_DATA_HOME (~/.local/share): no administrator rights, nothing
outside the user's own folders, and --uninstall takes it all away again.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256)
MIME = "application/x-attnviz-scenario"

DESKTOP = """[Desktop Entry]
Type=Application
Version=1.5
Name=AttnViz
GenericName=Attention visualiser
GenericName[ja]=Attention の可視化
Comment=See and edit attention in a Transformer, offline
Comment[ja]=Transformer の Attention を、オフラインで見て・書き換えて試す
Exec={exec} %f
TryExec={exec}
Icon=attnviz
Terminal=false
Categories=Education;Science;ArtificialIntelligence;
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
    <icon name="attnviz"/>
  </mime-type>
</mime-info>
"""


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def targets(home: Path) -> dict[Path, Path | None]:
    """Each file this installs, and the icon it copies (None for the generated ones)."""
    files = {home / "applications" / "attnviz.desktop": None,
             home / "mime" / "packages" / "attnviz.xml": None,
             home / "icons" / "hicolor" / "scalable" / "apps" / "attnviz.svg": ICONS / "attnviz.svg"}
    for size in SIZES:
        files[home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "attnviz.png"] = ICONS / f"attnviz-{size}.png"
    return files


def install(executable: Path, home: Path) -> list[Path]:
    if not os.access(executable, os.X_OK):
        sys.exit(f"install_desktop: {executable} is not an executable: run 'make run' once, or give --exec")
    written = []
    for target, source in targets(home).items():
        target.parent.mkdir(parents=True, exist_ok=True)
        if source is not None:
            shutil.copyfile(source, target)
        elif target.suffix == ".desktop":
            target.write_text(DESKTOP.format(exec=_quoted(executable), mime=MIME), encoding="utf-8")
        else:
            target.write_text(MIME_XML.format(mime=MIME), encoding="utf-8")
        written.append(target)
    _refresh(home)
    return written


def uninstall(home: Path) -> list[Path]:
    removed = [t for t in targets(home) if t.exists()]
    for target in removed:
        target.unlink()
    _refresh(home)
    return removed


def _quoted(path: Path) -> str:
    """Exec= quoting (the desktop entry specification): a path with spaces in double quotes."""
    text = str(path.resolve())
    return f'"{text}"' if any(c in text for c in ' \t"\\`$') else text


def _refresh(home: Path) -> None:
    """Tell the desktop, when its tools are installed; the files work without them at next login."""
    for tool, folder in (("update-mime-database", home / "mime"), ("update-desktop-database", home / "applications"),
                         ("gtk-update-icon-cache", home / "icons" / "hicolor")):
        if shutil.which(tool) and folder.is_dir():
            subprocess.run([tool, *(["-f", "-t"] if tool.startswith("gtk") else []), str(folder)],
                           capture_output=True, check=False)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exec", type=Path, default=ROOT / ".venv" / "bin" / "attnviz",
                        help="the program the menu entry starts (default: the checkout's .venv/bin/attnviz)")
    parser.add_argument("--uninstall", action="store_true", help="remove what an earlier run installed")
    args = parser.parse_args(argv)
    home = data_home()
    done = uninstall(home) if args.uninstall else install(args.exec, home)
    for path in done:
        print(("removed " if args.uninstall else "") + str(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
