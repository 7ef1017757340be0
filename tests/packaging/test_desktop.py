"""make install-desktop: a menu entry, the icon and the scenario file type, for this user only."""
import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "install_desktop.py"


def run(home, *args):
    return subprocess.run([sys.executable, str(TOOL), *args], env={**os.environ, "XDG_DATA_HOME": str(home)},
                          capture_output=True, text=True)


def test_the_menu_entry_starts_attnviz_with_its_icon_and_opens_scenario_files(tmp_path):
    program = tmp_path / "my programs" / "attnviz"  # a path with a space, quoted in Exec
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    home = tmp_path / "share"
    result = run(home, "--exec", str(program))
    assert result.returncode == 0, result.stderr
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(home / "applications" / "attnviz.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Exec"] == f'"{program}" %f' and desktop["Icon"] == "attnviz" and desktop["Name"] == "AttnViz"
    assert desktop["MimeType"] == "application/x-attnviz-scenario;" and desktop["Comment[ja]"]
    assert '<glob pattern="*.attnviz.json"/>' in (home / "mime" / "packages" / "attnviz.xml").read_text()
    icons = home / "icons" / "hicolor"
    assert (icons / "256x256" / "apps" / "attnviz.png").is_file() and (icons / "scalable" / "apps" / "attnviz.svg").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(home / "applications" / "attnviz.desktop")],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
    assert run(home, "--uninstall").returncode == 0
    assert not list(home.rglob("attnviz*"))


def test_a_missing_program_is_refused_with_one_line(tmp_path):
    result = run(tmp_path / "share", "--exec", str(tmp_path / "nowhere"))
    assert result.returncode != 0 and "is not an executable" in result.stderr
    assert not (tmp_path / "share" / "applications").exists()
