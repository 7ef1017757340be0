"""AttnViz benchmarks: edit-to-screen latency, slider drags, start-up, memory, the notebook way.

    make bench                  # everything (a few minutes)
    make bench ARGS=--quick     # fewer repetitions

Prints a table, then one JSON line per figure. Every figure is a median over many
repetitions with its spread (the interquartile range); comparisons are ratios of
figures measured side by side in this one run, because this machine is shared and
its absolute speed varies from run to run.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ATTNVIZ_DATA_DIR", str(Path("/tmp") / "attnviz-bench-data"))

import numpy as np  # noqa: E402

TARGETS_MS = {"seed-demo": 15, "gpt2-small-shape": 40, "128x12": 150, "512x12": 500}


def summary(samples) -> dict:
    q1, median, q3 = np.percentile(samples, [25, 50, 75])
    return {"median": float(median), "q1": float(q1), "q3": float(q3), "n": len(samples)}


def synthetic(n: int, heads: int = 12, d_k: int = 64):
    """n tokens × `heads` heads of 64, random (fixed seed): the long sequences of real models."""
    from attnviz.core import make_head, make_scenario
    rng = np.random.default_rng(n)
    tokens = [f"t{i}" for i in range(n)]
    return make_scenario(tokens, [make_head(f"head {h}", *rng.normal(0, 1, (3, n, d_k))) for h in range(heads)])


def scenarios():
    from attnviz.core import load_preset
    return {"seed-demo": load_preset("seed-demo"), "gpt2-small-shape": load_preset("gpt2-small-shape"),
            "128x12": synthetic(128), "512x12": synthetic(512)}


# ---------------------------------------------------------------- through the real window

class PaintWatch:
    """Counts paint events of the widgets that must show an edit: every panel, the step table."""

    def __init__(self, widgets):
        from PySide6.QtCore import QEvent, QObject

        class Filter(QObject):
            def eventFilter(inner, obj, event):
                if event.type() == QEvent.Paint:
                    self.painted.add(obj)
                return False
        self.widgets = list(widgets)
        self.painted = set()
        self.filter = Filter()
        for w in self.widgets:
            w.installEventFilter(self.filter)

    def wait(self, app, required=None, limit: float = 10.0) -> None:
        """Process events until the `required` widgets (default: all) have painted, then
        until nothing else is pending: the screen shows the edit everywhere it shows."""
        required = set(self.widgets if required is None else required)
        self.painted.clear()
        start = time.perf_counter()
        while not required <= self.painted:
            app.processEvents()
            if time.perf_counter() - start > limit:
                raise RuntimeError("not every widget painted")
        app.processEvents()


def open_window(app, scenario):
    from attnviz.gui import MainWindow
    window = MainWindow(scenario)
    window.resize(1600, 1000)
    window.show()
    for _ in range(5):
        app.processEvents()
    targets = [p for p in window.heads.panels] + [window.steps.table.viewport()]
    return window, PaintWatch(targets)


def edit_to_screen(app, scenario, repeats: int) -> list[float]:
    """Set one q cell through the table's model, until every panel and the step table painted."""
    from PySide6.QtWidgets import QTableView
    window, watch = open_window(app, scenario)
    model = window.findChild(QTableView, "qTable").model()
    index = model.index(scenario.n - 1, 0)
    # q of head 0 changes head 0's weights and the step table; the other heads are
    # unchanged and (rightly) not repainted.
    required = [window.heads.panels[0], window.steps.table.viewport()]
    samples = []
    for r in range(repeats):
        start = time.perf_counter()
        model.setData(index, f"{0.5 + (r % 7) * 0.25}")
        watch.wait(app, required)
        samples.append((time.perf_counter() - start) * 1000)
    window.document.undo_stack.setClean()
    window.close()
    return samples


def slider_drag(app, scenario, steps: int = 200) -> float:
    """Updates per second while dragging the temperature slider, each one painted."""
    window, watch = open_window(app, scenario)
    slider = window.settings_bar.temperature
    slider.setSliderDown(True)
    start = time.perf_counter()
    for i in range(steps):
        slider.setValue(-100 + (i * 7) % 200)
        watch.wait(app)
    elapsed = time.perf_counter() - start
    slider.setSliderDown(False)
    window.document.undo_stack.setClean()
    window.close()
    return steps / elapsed


def core_alone(scenario, repeats: int) -> list[float]:
    from attnviz.core import compute
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        compute(scenario)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


# ---------------------------------------------------------------- the notebook way

def notebook_way(scenario, repeats: int) -> list[float]:
    """What people do in a notebook: on each widget change, redraw every head with
    matplotlib imshow and the value written in each cell."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from attnviz.core import compute
    samples = []
    for r in range(repeats):
        start = time.perf_counter()
        weights = compute(scenario).weights()
        heads = len(weights)
        columns = int(np.ceil(np.sqrt(heads)))
        rows = int(np.ceil(heads / columns))
        fig, axes = plt.subplots(rows, columns, figsize=(4 * columns, 4 * rows), squeeze=False)
        for h, ax in enumerate(axes.flat):
            if h >= heads:
                ax.axis("off")
                continue
            image = ax.imshow(weights[h], cmap="viridis", vmin=0, vmax=1)
            for (i, j), w in np.ndenumerate(weights[h]):
                ax.text(j, i, f"{w:.2f}", ha="center", va="center", fontsize=6)
            ax.set_xticks(range(scenario.n))
            ax.set_yticks(range(scenario.n))
        fig.colorbar(image, ax=axes.ravel().tolist())
        fig.canvas.draw()
        plt.close(fig)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


# ---------------------------------------------------------------- separate processes

STARTUP_APP = """
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QEvent, QObject
from attnviz.gui.app import create_app, isolate_settings
app = create_app()
isolate_settings()
from attnviz.gui.i18n import install_language
install_language("en")
from attnviz.gui import MainWindow
w = MainWindow("seed-demo")
w.enable_recovery()          # as attnviz.gui.app.run() does
painted = []
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Paint: painted.append(o)
        return False
f = F(); w.heads.panels[0].installEventFilter(f)
w.show()
w.offer_restore()
while not painted: app.processEvents()
print("painted", flush=True)
"""

STARTUP_FLOOR = """
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject
app = pg.mkQApp()
plot = pg.PlotWidget()
plot.addItem(pg.ImageItem(np.random.default_rng(0).random((10, 10)), axisOrder="row-major"))
painted = []
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Paint: painted.append(o)
        return False
f = F(); plot.viewport().installEventFilter(f)
plot.show()
while not painted: app.processEvents()
print("painted", flush=True)
"""

MEMORY = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
sys.path.insert(0, {root!r})
sys.argv = ["bench"]
from bench.run import scenarios, open_window
from attnviz.gui.app import create_app, isolate_settings
app = create_app()
isolate_settings()
scenario = scenarios()[{name!r}]
window, watch = open_window(app, scenario)
from PySide6.QtWidgets import QTableView
model = window.findChild(QTableView, "qTable").model()
for r in range(5):
    model.setData(model.index(0, 0), str(r))
    watch.wait(app, [window.heads.panels[0]])
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the (large) parent across exec.
with open("/proc/self/status") as status:
    print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024)
"""


MODEL = """
import json, sys, time
sys.path.insert(0, {root!r})
import numpy as np
from attnviz.core import llama
start = time.perf_counter()
model = llama.load()
load_s = time.perf_counter() - start
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
text = "The cat ate the fish. It was fresh. " * 4
ids = llama.encode(model, text).ids[:32]
assert len(ids) == 32
def time_it(work, repeats):
    samples = []
    for _ in range(repeats):
        t = time.perf_counter(); work(); samples.append((time.perf_counter() - t) * 1000)
    return samples
base = llama.run(model, ids)
forward = time_it(lambda: llama.run(model, ids), {reps})
change = lambda layer: ((layer, 0, llama.Change(off=True)),)
rerun = {{layer: time_it(lambda: llama.run(model, ids, change(layer), after=base), {reps})
          for layer in (0, 15, 29)}}
print(json.dumps({{"load_s": load_s, "peak_mb": peak, "forward": forward, "rerun": rerun}}))
"""


def model_figures(reps: int):
    """Loading the built-in model, a forward pass of 32 tokens, reruns after a change in a layer."""
    out = subprocess.run([sys.executable, "-c", MODEL.format(root=str(ROOT), reps=reps)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def startup(script: str, repeats: int) -> list[float]:
    samples = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(repeats):
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
        line = process.stdout.readline()
        elapsed = (time.perf_counter() - start) * 1000
        process.wait()
        if line.strip() != "painted":
            raise RuntimeError("the start-up script did not paint")
        samples.append(elapsed)
    return samples


def peak_memory_mb(name: str) -> float:
    out = subprocess.run([sys.executable, "-c", MEMORY.format(root=str(ROOT), name=name)],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return float(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- report

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a rough look)")
    args = parser.parse_args()
    reps = 8 if args.quick else 40
    from attnviz.gui.app import create_app, isolate_settings
    app = create_app()
    isolate_settings()
    results = []

    def record(name, unit, value, target=None, better="lower", **extra):
        entry = {"benchmark": name, "unit": unit, **(value if isinstance(value, dict) else {"value": value}),
                 **extra}
        if target is not None:
            figure = entry.get("median", entry.get("value"))
            entry["target"] = target
            entry["met"] = bool(figure <= target) if better == "lower" else bool(figure >= target)
        results.append(entry)

    sets = scenarios()
    for name, scenario in sets.items():
        big = scenario.n >= 512
        latency = summary(edit_to_screen(app, scenario, max(5, reps // 4) if big else reps))
        core = summary(core_alone(scenario, reps))
        record(f"edit-to-screen {name}", "ms", latency, TARGETS_MS[name])
        record(f"core alone {name} (all heads)", "ms", core,
               share_of_edit=round(core["median"] / latency["median"], 3))
    drag = slider_drag(app, sets["gpt2-small-shape"])
    record("slider drag gpt2-small-shape", "updates/s", drag, 30, better="higher")
    for name in ("seed-demo", "gpt2-small-shape"):
        notebook = summary(notebook_way(sets[name], max(3, reps // 8)))
        ours = next(r for r in results if r["benchmark"] == f"edit-to-screen {name}")
        record(f"notebook way {name}", "ms", notebook)
        record(f"speed-up over the notebook way {name}", "×", notebook["median"] / ours["median"],
               20 if name == "gpt2-small-shape" else None, better="higher")
    app_start = summary(startup(STARTUP_APP, max(5, reps // 4)))
    floor = summary(startup(STARTUP_FLOOR, max(5, reps // 4)))
    record("start-up to first paint", "ms", app_start)
    record("start-up floor (one pyqtgraph ImageItem)", "ms", floor)
    record("start-up ratio to the floor", "×", app_start["median"] / floor["median"], 1.5)
    record("peak memory gpt2-small-shape", "MB", peak_memory_mb("gpt2-small-shape"), 250)
    record("peak memory 512x12", "MB", peak_memory_mb("512x12"))
    from attnviz.core import llama
    if llama.bundled_model() is not None:
        m = model_figures(max(3, reps // 4))
        record("real model: load (file → ready)", "s", m["load_s"], 5)
        record("real model: peak memory after loading", "MB", m["peak_mb"], 1024)
        forward = summary(m["forward"])
        record("real model: forward pass, 32 tokens", "ms", forward, 1000)
        for layer, samples in m["rerun"].items():
            rerun = summary(samples)
            record(f"real model: rerun after a change in layer {layer}", "ms", rerun,
                   share_of_forward=round(rerun["median"] / forward["median"], 3))
    print_table(results)
    for entry in results:
        print(json.dumps({**entry, "machine": machine()}, ensure_ascii=False))
    return 0


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def _num(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def print_table(results) -> None:
    print(f"AttnViz benchmarks on {machine()}, {time.strftime('%Y-%m-%d')}")
    print(f"| {'benchmark':<50} | {'median':>14} | {'q1–q3':>13} | {'target':>8} | met |")
    print(f"|{'-' * 52}|{'-' * 15}:|{'-' * 14}:|{'-' * 9}:|:---:|")
    for r in results:
        value = f"{_num(r.get('median', r.get('value')))} {r['unit']}"
        spread = f"{_num(r['q1'])}–{_num(r['q3'])}" if "q1" in r else ""
        higher_is_better = r["unit"] in ("updates/s",) or r["benchmark"].startswith("speed-up")
        target = f"{'≥' if higher_is_better else '≤'} {r['target']}" if "target" in r else ""
        met = {True: "yes", False: "**no**"}.get(r.get("met"), "")
        print(f"| {r['benchmark']:<50} | {value:>14} | {spread:>13} | {target:>8} | {met:^3} |")


if __name__ == "__main__":
    sys.exit(main())
