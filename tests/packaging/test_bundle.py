"""The standalone bundle (dist/AttnViz/, `make bundle`) run as on a school PC: a copy of the folder,
a bare environment, no Python on PATH, no venv, no network. `make bundle-test` builds and runs this."""
import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from attnviz.core import compute, load_preset, save_scenario
from attnviz.core.lm import BUNDLED
from attnviz.core.scenario import with_token_renamed

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "dist" / "AttnViz"
# The folder a USB stick named like this gets: a space, a $ and a % (the menu entry must cope).
STICK = "USB STICK $5 100%"
_spec = importlib.util.spec_from_file_location("attnviz_build", ROOT / "packaging" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)
pytestmark = [pytest.mark.bundle,
              pytest.mark.skipif(not (BUNDLE / "AttnViz").is_file(), reason="no dist/AttnViz: run 'make bundle'")]


def offline_prefix() -> list[str]:
    """`unshare -n`: no network at all, where the machine allows it (root, or user namespaces)."""
    unshare = shutil.which("unshare")
    ok = unshare is not None and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0
    return [unshare, "-n"] if ok else []


@pytest.fixture(scope="module")
def school_pc(tmp_path_factory):
    """(run, folder): the bundle copied elsewhere, started with nothing of this machine's Python."""
    place = tmp_path_factory.mktemp("usb-stick") / STICK
    copy = shutil.copytree(BUNDLE, place / "AttnViz", symlinks=True)
    home, empty_path = tmp_path_factory.mktemp("home"), tmp_path_factory.mktemp("bin")
    env = {"HOME": str(home), "PATH": str(empty_path)}  # not even /usr/bin/python3 can be found
    prefix = offline_prefix()

    def run(*args, cwd=place, env=env):
        return subprocess.run([*prefix, str(copy / "AttnViz"), *args], env=env, cwd=cwd, capture_output=True,
                              text=True, timeout=120)
    return run, place


def test_it_starts_and_names_its_version(school_pc):
    run, _ = school_pc
    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == "attnviz 0.1.0", result.stderr


def test_its_presets_translations_and_help_are_inside(school_pc):
    run, _ = school_pc
    result = run("presets", "--lang", "ja")
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and len(lines) == 10 and lines[0].split("\t")[2] == "猫が魚を食べた。それは新鮮だった"
    bundled = BUNDLE / "_internal" / "attnviz" / "resources"
    for part in ("presets/seed-demo.json", "translations/attnviz_ja.qm", "help/guide_ja.html", "icons/attnviz-256.png"):
        assert (bundled / part).is_file(), part
    emoji = BUNDLE / "_internal" / "manimgx_fonts"
    assert sorted(f.name for f in emoji.glob("*.ttf")) == ["NotoEmoji[wght].ttf"]  # and none of its other fonts


def test_the_window_renders_in_japanese_with_its_own_font(school_pc, tmp_path):
    run, place = school_pc
    result = run("screenshot", "seed-demo", "-o", str(tmp_path / "shot.png"), "--lang", "ja")
    assert result.returncode == 0, result.stderr
    assert "no Japanese font" not in result.stderr and "Traceback" not in result.stderr
    from PySide6.QtGui import QImage
    image = QImage(str(tmp_path / "shot.png"))
    assert (image.width(), image.height()) == (1600, 1000)
    for view in ("maths", "lines"):  # pyqtgraph's views and the lines view load from the bundle too
        result = run("screenshot", "seed-demo", "-o", str(tmp_path / f"{view}.png"), "--view", view)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


def test_heatmaps_export_as_png_svg_and_pdf(school_pc, tmp_path):
    run, _ = school_pc
    for suffix in ("png", "svg", "pdf"):
        out = tmp_path / f"heads.{suffix}"
        result = run("export", "seed-demo", "--all-heads", "-o", str(out), "--lang", "ja", "--width", "1200")
        assert result.returncode == 0, result.stderr
    from PySide6.QtGui import QImage
    assert QImage(str(tmp_path / "heads.png")).width() == 1200
    svg = (tmp_path / "heads.svg").read_text(encoding="utf-8")
    assert "意味" in svg and "猫" in svg  # text stays text, in Japanese
    assert (tmp_path / "heads.pdf").read_bytes()[:5] == b"%PDF-" and (tmp_path / "heads.pdf").stat().st_size > 10_000


def test_it_opens_a_scenario_file_and_computes_what_the_core_computes(school_pc, tmp_path):
    run, _ = school_pc
    scenario = with_token_renamed(load_preset("toy-3token"), 0, "犬")
    save_scenario(scenario, tmp_path / "mine.json")
    result = run("weights", str(tmp_path / "mine.json"), "--format", "json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["tokens"] == ["犬", "魚", "それ"]
    np.testing.assert_allclose(document["heads"][0]["weights"], compute(scenario).heads[0].weights, atol=1e-12)
    bad = run("weights", str(tmp_path / "missing.json"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1  # a clear line, no traceback


def test_it_never_reaches_for_the_network(school_pc):
    assert offline_prefix() or pytest.skip("unshare -n is not allowed here: run as root to cut the network")
    run, _ = school_pc
    assert run("--version").returncode == 0  # it ran above with no network device at all


def test_only_what_attnviz_uses_went_in():
    names = {p.name for p in (BUNDLE / "_internal").rglob("*")}
    dangling = [p for p in (BUNDLE / "_internal").rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []
    # (libQt6Network is in: the class's screens list the machine's networks with it, when the teacher opens them)
    for unwanted in ("libQt6Qml.so.6", "libgtk-3.so.0", "libssl.so.3", "_ssl"):
        assert not any(n.startswith(unwanted) for n in names), unwanted
    # The X11 libraries a minimal Linux lacks (Qt's xcb platform needs them): the bundle brings them.
    for needed in ("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0"):
        assert needed in names, needed
    size = build.folder_mb(BUNDLE)  # 250 MB, and the model's file on top when it was put in
    assert size <= build.limit_mb(BUNDLE), f"{size:.0f} MB"


def test_the_class_s_screens_serve_from_the_bundle(school_pc, tmp_path):
    """aiohttp, segno, QtNetwork and the students' page are in the folder: a lesson served on the loopback (the
    network the other tests cut has no loopback either), asked for its scene, stopped by Ctrl+C."""
    import signal
    import socket
    import urllib.request
    _, place = school_pc
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    child = subprocess.Popen([str(place / "AttnViz" / "AttnViz"), "lesson", "attention", "--class", "--bind",
                              "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={"HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    try:
        url = json.loads(child.stdout.readline())["url"]
        with urllib.request.urlopen(url, timeout=30) as r:
            assert b"page.js" in r.read()
        with urllib.request.urlopen(url + "state?lang=ja", timeout=30) as r:
            assert json.loads(r.read())["scene"] == 1
        child.send_signal(signal.SIGINT)
        child.wait(60)
    finally:
        child.kill()
    assert child.returncode == 0, child.stderr.read()


def with_model() -> bool:
    return any(BUNDLE.rglob(BUNDLED))


def test_without_the_real_model_it_says_how_to_get_one(school_pc):
    if with_model():
        pytest.skip("built with ATTNVIZ_BUNDLE_MODEL=1: the model is inside")
    run, _ = school_pc
    result = run("model", "猫が魚を食べた")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "ATTNVIZ_BUNDLE_MODEL=1" in result.stderr and "--model" in result.stderr and "pip" not in result.stderr


def test_with_the_real_model_it_runs_it_offline(school_pc):
    if not with_model():
        pytest.skip("built without the model (ATTNVIZ_BUNDLE_MODEL=1 make bundle puts it in)")
    run, _ = school_pc
    result = run("model", "猫が魚を食べた", "--top-k", "3")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["tokens"] and len(document["next"]) == 3


def test_it_installs_its_own_menu_entry_which_glib_launches(school_pc, tmp_path):
    """AttnViz/AttnViz --install-desktop: no Python; the entry starts this very program with the file."""
    run, place = school_pc
    home = tmp_path / "home"
    program = place / "AttnViz" / "AttnViz"
    result = run("--install-desktop", env={"HOME": str(home), "PATH": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    entry = home / ".local" / "share" / "applications" / "attnviz.desktop"
    assert (home / ".local" / "share" / "icons" / "hicolor" / "256x256" / "apps" / "attnviz.png").is_file()
    assert f"TryExec={program}" in entry.read_text(encoding="utf-8").splitlines()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        assert check.returncode == 0 and check.stdout == "", check.stdout
    if shutil.which("gio"):  # a file that is not a scenario: AttnViz says so on stderr, which gio shares
        opened = place / "not a scenario (1).attnviz.json"
        opened.write_text("not JSON", encoding="utf-8")
        launched = subprocess.run([shutil.which("gio"), "launch", str(entry), str(opened)], capture_output=True,
                                  text=True, env={"HOME": str(home), "PATH": str(tmp_path)}, timeout=120)
        assert launched.returncode == 0 and launched.stderr.startswith("attnviz: error: "), launched.stderr
        assert "not a scenario (1).attnviz.json" in launched.stderr
    removed = run("--uninstall-desktop", env={"HOME": str(home), "PATH": str(tmp_path)})
    assert removed.returncode == 0 and not entry.exists()
