"""The real `attnviz` process starts whatever damaged state it finds: settings, crash copies, the last file.

Each state gets its own settings and data folders; all processes start at once, and each
must reach its window (its autosave lock appears), stay up without a traceback, and, where
a crash copy was left, have dealt with it (asked about it or set it aside).
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import QSettings

from attnviz.core import load_preset
from attnviz.core.formats.document import scenario_to_dict


def scenario_file(folder, change, name="last.json"):
    doc = scenario_to_dict(load_preset("toy-3token"))
    change(doc)
    (folder / name).write_text(json.dumps(doc), encoding="utf-8")
    return str(folder / name)


def crash_copy(data, meta):
    (data / "autosave").mkdir(parents=True)
    doc = scenario_to_dict(load_preset("toy-3token"))
    doc["autosave"] = meta
    (data / "autosave" / "session-dead.json").write_text(json.dumps(doc), encoding="utf-8")


def reopen(path):
    return {"reopenLast": True, "lastScenario": path}


STATES = {
    "geometry": lambda root, data: {"window/geometry": "hello", "window/state": "@ByteArray(junk)"},
    "zoom-nan": lambda root, data: {"zoom": "nan", "presentation/zoom": "inf"},
    "copy-time-huge": lambda root, data: crash_copy(data, {"time": 1e20, "source": None}),
    "copy-time-text": lambda root, data: crash_copy(data, {"time": "yesterday"}),
    "copy-time-nan": lambda root, data: crash_copy(data, {"time": float("nan")}),
    "copy-source-42": lambda root, data: crash_copy(data, {"source": 42, "time": 1}),
    "last-mask-2**31": lambda root, data: reopen(scenario_file(
        root, lambda d: d["settings"].update(mask={"kind": "window", "window": 2 ** 31}))),
    "last-layers-1e9": lambda root, data: reopen(scenario_file(root, lambda d: d.update(layer=[0, 10 ** 9]))),
    "last-nul": lambda root, data: reopen(str(root / "a\0b.json")),
    "last-broken": lambda root, data: reopen(str(root / "missing" / "gone.json")),
    "recent-garbage": lambda root, data: {"recentFiles": ["x\0y", 3.5], "language": ["en", "ja"]},
    "pipe-in-autosave": lambda root, data: ((data / "autosave").mkdir(parents=True),
                                            os.mkfifo(data / "autosave" / "session-pipe.json")),
    "pipe-as-settings": lambda root, data: ((root / "config" / "AttnViz").mkdir(parents=True),
                                            os.mkfifo(root / "config" / "AttnViz" / "AttnViz.conf")),
    "pipe-as-settings-lock": lambda root, data: ((root / "config" / "AttnViz").mkdir(parents=True),
                                                 os.mkfifo(root / "config" / "AttnViz" / "AttnViz.conf.lock")),
    "folder-as-settings-lock": lambda root, data: (root / "config" / "AttnViz" / "AttnViz.conf.lock").mkdir(
        parents=True),
}


def start(name, root):
    data, config = root / "data", root / "config"
    values = STATES[name](root, data)
    if isinstance(values, dict):
        ini = QSettings(str(config / "AttnViz" / "AttnViz.conf"), QSettings.IniFormat)
        for key, value in values.items():
            ini.setValue(key, value)
        ini.sync()
    env = {**os.environ, "ATTNVIZ_DATA_DIR": str(data), "XDG_CONFIG_HOME": str(config), "QT_QPA_PLATFORM": "offscreen"}
    err = open(root / "stderr.txt", "w")
    return subprocess.Popen([sys.executable, "-m", "attnviz"], env=env, stdout=subprocess.DEVNULL, stderr=err)


def window_made(root) -> bool:
    folder = root / "data" / "autosave"
    return folder.is_dir() and any(p.suffix == ".lock" and p.is_file() for p in folder.iterdir())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only (pipes, signals)")
def test_attnviz_starts_with_every_damaged_state(tmp_path):
    roots = {name: tmp_path / name for name in STATES}
    for root in roots.values():
        root.mkdir()
    processes = {name: start(name, root) for name, root in roots.items()}
    try:
        deadline = time.monotonic() + 90
        pending = set(STATES)
        while pending and time.monotonic() < deadline:
            for name in list(pending):
                assert processes[name].poll() is None, f"{name}: exited: {(roots[name] / 'stderr.txt').read_text()}"
                if window_made(roots[name]):
                    pending.discard(name)
            time.sleep(0.2)
        assert not pending, f"no window after 90 s: {sorted(pending)}"
        time.sleep(3)  # the restore question, the notices and the first paint happen here
        for name, process in processes.items():
            errors = (roots[name] / "stderr.txt").read_text()
            assert process.poll() is None, f"{name}: exited after starting: {errors}"
            assert "Traceback" not in errors, f"{name}: {errors}"
        assert (roots["pipe-in-autosave"] / "data" / "autosave" / "unreadable" / "session-pipe.json").exists()
        assert "the last scenario cannot be opened again" in (roots["last-mask-2**31"] / "stderr.txt").read_text()
        assert "was damaged and has been reset" in (roots["zoom-nan"] / "stderr.txt").read_text()
        assert "was not a regular file: it was moved aside" in (roots["pipe-as-settings"] / "stderr.txt").read_text()
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
