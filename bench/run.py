"""AttnViz benchmarks: AttnViz against a floor program, slider drags, autosave, undo memory,
big files and exports, BLAS threads, start-up, memory, the notebook way, the real model, the research workbench,
IOI patching against TransformerLens, the K-quant decoders against gguf's, 1–4B models compact and fast against
transformers.

    make bench                  # everything (about fifteen minutes)
    make bench ARGS=--quick     # fewer repetitions

Prints a table, then one JSON line per figure. Every figure is a median over many
repetitions with its spread (the interquartile range). The main figures are ratios to
bench/floor.py (the least program that shows the same content), measured side by side in
this one process in alternating blocks of edits, because this machine is shared and its
absolute speed varies from run to run and within a run.
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
FLOOR_RATIO = 2.0        # AttnViz's edit-to-screen ÷ the floor's, at every size
DRAG_SHARE = 0.6         # AttnViz's slider updates/s ÷ the floor's, at least
STALL_MS = 16            # the longest the window may stop because of autosave (one frame)
UNDO_GROWTH_MB = 100     # 10,000 edits at 512×12
LAYER_SWITCH_MS = 150    # 12 layers × 12 heads × 512 tokens
EXPORT_S, EXPORT_MB = 2.0, 10.0  # SVG or PDF of 512×12, all heads


def summary(samples) -> dict:
    q1, median, q3 = np.percentile(samples, [25, 50, 75])
    return {"median": float(median), "q1": float(q1), "q3": float(q3), "n": len(samples)}


def synthetic(n: int, heads: int = 12, d_k: int = 64):
    """n tokens × `heads` heads of 64, random (fixed seed): the long sequences of real models."""
    from attnviz.core import make_head, make_scenario
    rng = np.random.default_rng(n)
    tokens = [f"t{i}" for i in range(n)]
    return make_scenario(tokens, [make_head(f"head {h}", *rng.normal(0, 1, (3, n, d_k))) for h in range(heads)])


def scenarios(large: bool = True):
    """10×2, 10×12, 128×12, 512×12 and 1024×12 (the last left out of quick runs' extras)."""
    from attnviz.core import load_preset
    sets = {"seed-demo": load_preset("seed-demo"), "gpt2-small-shape": load_preset("gpt2-small-shape"),
            "128x12": synthetic(128), "512x12": synthetic(512)}
    if large:
        sets["1024x12"] = synthetic(1024)
    return sets


def shape(scenario) -> str:
    return f"{scenario.n}×{len(scenario.heads)}"


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
    targets = [p for p in window.parts.heads.panels] + [window.parts.steps.table.viewport()]
    return window, PaintWatch(targets)


def edit_to_screen(app, scenario, repeats: int) -> list[float]:
    """Set one q cell through the table's model, until every panel and the step table painted."""
    from PySide6.QtWidgets import QTableView
    window, watch = open_window(app, scenario)
    model = window.findChild(QTableView, "qTable").model()
    index = model.index(scenario.n - 1, 0)
    # q of head 0 changes head 0's weights and the step table; the other heads are
    # unchanged and (rightly) not repainted.
    required = [window.parts.heads.panels[0], window.parts.steps.table.viewport()]
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
    slider = window.parts.settings_bar.temperature
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


# ---------------------------------------------------------------- against the floor

def open_floor(app, scenario):
    from bench.floor import Floor
    floor = Floor(scenario)
    floor.resize(1600, 1000)
    floor.show()
    for _ in range(5):
        app.processEvents()
    return floor, PaintWatch([*floor.panels, floor.steps.viewport()])


def match_sizes(app, floor, window) -> None:
    """The floor's step table as tall and its panels as large as AttnViz's: the same rows and
    cells on screen, so that both paint the same amount."""
    from PySide6.QtWidgets import QTableView
    floor.steps.setFixedHeight(window.parts.steps.table.height())
    floor.table.setFixedWidth(window.findChild(QTableView, "qTable").width())
    panel = window.parts.heads.panels[0]
    for p in floor.panels:
        p.setFixedSize(panel.size())
    for _ in range(5):
        app.processEvents()


def versus_floor(app, scenario, blocks: int, per_block: int) -> tuple[list[float], list[float]]:
    """Edit-to-screen of AttnViz and of the floor, in alternating blocks of `per_block` edits of
    one q cell (the explained query's, head 0: its panel and the step table change), so that a busy
    moment of the machine falls on both. Returns the two lists of milliseconds."""
    from PySide6.QtWidgets import QTableView
    window, watch = open_window(app, scenario)
    model = window.findChild(QTableView, "qTable").model()
    ours_required = [window.parts.heads.panels[0], window.parts.steps.table.viewport()]
    floor, floor_watch = open_floor(app, scenario)
    floor_required = [floor.panels[0], floor.steps.viewport()]
    row = window.document.query  # the query the step table explains, in both
    floor.set_query(row)
    match_sizes(app, floor, window)
    ours, theirs = [], []
    for b in range(blocks):
        for r in range(per_block):
            value = 0.5 + ((b * per_block + r) % 7) * 0.25
            start = time.perf_counter()
            model.setData(model.index(row, 0), f"{value}")
            watch.wait(app, ours_required)
            ours.append((time.perf_counter() - start) * 1000)
        for r in range(per_block):
            value = 0.5 + ((b * per_block + r) % 7) * 0.25
            start = time.perf_counter()
            floor.q_model.setData(floor.q_model.index(row, 0), f"{value}")
            floor_watch.wait(app, floor_required)
            theirs.append((time.perf_counter() - start) * 1000)
    window.document.undo_stack.setClean()
    window.close()
    floor.close()
    return ours, theirs


def drag_versus_floor(app, scenario, blocks: int = 4, steps: int = 50) -> tuple[float, float]:
    """Updates per second while dragging the temperature slider, each update painted in every
    panel and the step table: AttnViz's slider and the floor's set_temperature, alternating."""
    window, watch = open_window(app, scenario)
    floor, floor_watch = open_floor(app, scenario)
    floor.set_query(window.document.query)
    match_sizes(app, floor, window)
    slider = window.parts.settings_bar.temperature
    ours = theirs = 0.0
    for b in range(blocks):
        slider.setSliderDown(True)
        start = time.perf_counter()
        for i in range(steps):
            slider.setValue(-100 + ((b * steps + i) * 7) % 200)
            watch.wait(app)
        ours += time.perf_counter() - start
        slider.setSliderDown(False)
        start = time.perf_counter()
        for i in range(steps):
            floor.set_temperature(10 ** ((-100 + ((b * steps + i) * 7) % 200) / 100))
            floor_watch.wait(app)
        theirs += time.perf_counter() - start
    window.document.undo_stack.setClean()
    window.close()
    floor.close()
    return blocks * steps / ours, blocks * steps / theirs


# ---------------------------------------------------------------- autosave

def idle_stalls(app, seconds: float, during=lambda: True) -> tuple[float, float]:
    """Run the event loop idle for `seconds` with a 2 ms probe timer: the longest gap between its
    ticks (ms), the longest time the window could not answer, over the whole time and over the
    gaps that end while `during()` holds (a copy being written: a stall of the shared machine at
    another moment is not autosave's)."""
    from PySide6.QtCore import QEventLoop, QTimer
    loop = QEventLoop()
    probe = QTimer(interval=2)
    last, gaps, chosen = [time.perf_counter()], [0.0], [0.0]

    def tick():
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        if during():
            chosen.append(gaps[-1])
        last[0] = now
    probe.timeout.connect(tick)
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    probe.start()
    loop.exec()
    probe.stop()
    return max(gaps), max(chosen)


def longest_stall(app, seconds: float, during=lambda: True) -> float:
    """The longest stall of idle_stalls() that ended while `during()` held."""
    return idle_stalls(app, seconds, during)[1]


def autosave_stalls(app, scenario, rounds: int) -> tuple[list[float], list[float], int]:
    """After an edit, the window idles through the autosave (2 s later, written on a worker
    thread): per round, its longest stall while the copy was being written and, for the
    machine's own noise, over the same idle time with autosave off.
    Returns (stalls while writing, stalls with autosave off, copies written)."""
    import tempfile

    from PySide6.QtWidgets import QTableView

    from attnviz.gui.state import autosave
    idle = autosave.DELAY_MS / 1000 + 1.5
    for on in (True, False):
        window, watch = open_window(app, scenario)
        folder = Path(tempfile.mkdtemp(prefix="attnviz-bench-autosave-"))
        if on:
            window.recovery.enable(folder)
        model = window.findChild(QTableView, "qTable").model()
        stalls, writing = [], []
        for r in range(rounds):
            model.setData(model.index(r % scenario.n, 0), f"{0.25 * (r + 1)}")
            watch.wait(app, [window.parts.heads.panels[0]])
            if on:
                writing.append(longest_stall(app, idle, lambda window=window: window.recovery.autosave.busy))
            else:
                stalls.append(longest_stall(app, idle))
        if on:
            copies, while_writing = window.recovery.autosave.writes, writing
        else:
            off = stalls
        window.document.undo_stack.setClean()
        window.close()
    return while_writing, off, copies


# ---------------------------------------------------------------- separate processes: undo, layers

def status_mb(field: str) -> float:
    """A line of /proc/self/status in MB: VmRSS (resident now) or VmHWM (the peak since exec;
    ru_maxrss would carry the parent's over)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field)) / 1024


# The start of every child process that opens a window, as `attnviz` starts.
WINDOW_CHILD = """
import gc, json, os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
sys.path.insert(0, {root!r})
sys.argv = ["bench"]
import numpy as np
from PySide6.QtWidgets import QTableView
from attnviz.core.blas import use_one_thread
from attnviz.gui.window.app import create_app, isolate_settings
from bench.run import PaintWatch, open_window, scenarios, status_mb, synthetic
use_one_thread()
app = create_app()
isolate_settings()
"""

UNDO_MEMORY = WINDOW_CHILD + """
scenario = synthetic(512)
window, watch = open_window(app, scenario)
models = [window.findChild(QTableView, m + "Table").model() for m in "qkv"]
rng = np.random.default_rng(0)
def rss():
    gc.collect()
    return status_mb("VmRSS")
def edits(count):
    for i in range(count):
        if i % 50 == 0:
            window.document.select(head=int(rng.integers(12)))
        model = models[int(rng.integers(3))]
        model.setData(model.index(int(rng.integers(512)), int(rng.integers(64))), f"{{rng.normal():.3f}}")
        if i % 10 == 0:
            app.processEvents()
    app.processEvents()
edits(200)  # warm: every cache and the first 200 steps
before = rss()
edits({count})
after = rss()
print(after - before, window.document.undo_stack.count())
"""

LAYERS = WINDOW_CHILD + """
from attnviz.gui import MainWindow
window = MainWindow({path!r})
window.resize(1600, 1000)
window.show()
for _ in range(5):
    app.processEvents()
switches = []
for layer in {order!r}:
    watch = PaintWatch([*window.parts.heads.panels, window.parts.steps.table.viewport()])
    start = time.perf_counter()
    assert window.open_layer(layer)
    watch.wait(app)  # every panel and the step table show the new layer
    switches.append((time.perf_counter() - start) * 1000)
    window.document.undo_stack.setClean()
print(json.dumps({{"switches": switches, "peak_mb": status_mb("VmHWM"), "layer": window.document.scenario.layer}}))
"""


def child(script: str) -> str:
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return out.stdout.strip().splitlines()[-1]


def undo_growth(count: int) -> tuple[float, int]:
    grown, steps = child(UNDO_MEMORY.format(root=str(ROOT), count=count)).split()
    return float(grown), int(steps)


def layered_file(folder: Path, layers: int, compressed: bool, n: int = 512, heads: int = 12) -> Path:
    """`heads` × n tokens of causal weights per layer, float32, as a model would dump them."""
    rng = np.random.default_rng(layers)
    scores = rng.standard_normal((layers, heads, n, n), dtype=np.float32)
    scores *= 2
    scores[..., np.triu(np.ones((n, n), bool), 1)] = -np.inf
    scores -= scores.max(-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(-1, keepdims=True)
    path = folder / f"{layers}-layers-{heads}-heads-{n}-{'compressed' if compressed else 'stored'}.npz"
    (np.savez_compressed if compressed else np.savez)(path, tokens=np.array([f"t{i}" for i in range(n)]),
                                                       weights=scores)
    return path


def layer_switches(path: Path, order) -> dict:
    return json.loads(child(LAYERS.format(root=str(ROOT), path=str(path), order=list(order))))


# ---------------------------------------------------------------- exports, BLAS

def export_figures(scenario, repeats: int) -> dict:
    """SVG and PDF of every head: seconds and megabytes."""
    import tempfile

    from attnviz.core import compute
    from attnviz.gui.export.figure import Figure, FigureOptions
    from attnviz.gui.export.files import export_figure
    folder = Path(tempfile.mkdtemp(prefix="attnviz-bench-export-"))
    figures = {}
    for suffix in ("svg", "pdf"):
        samples = []
        for _ in range(repeats):
            start = time.perf_counter()
            export_figure(Figure(scenario, compute(scenario), FigureOptions(kind="all")), folder / f"all.{suffix}")
            samples.append(time.perf_counter() - start)
        figures[suffix] = (samples, (folder / f"all.{suffix}").stat().st_size / 2 ** 20)
    return figures


def blas_threads(scenario, repeats: int, busy: bool = False) -> dict:
    """One head's attention at 1 and 2 BLAS threads, alternating: what one edit computes. With
    `busy`, another process keeps one core busy meanwhile (a school PC is rarely idle)."""
    from threadpoolctl import threadpool_limits

    from attnviz.core.attention import attention
    h = scenario.heads[0]
    samples = {1: [], 2: []}
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
    try:
        time.sleep(0.2 if busy else 0)
        for _ in range(repeats):
            for threads in (1, 2):
                with threadpool_limits(limits=threads, user_api="blas"):
                    start = time.perf_counter()
                    attention(h.q, h.k, h.v, causal=True)
                    samples[threads].append((time.perf_counter() - start) * 1000)
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
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
    for _r in range(repeats):
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
from attnviz.gui.window.app import create_app, isolate_settings
app = create_app()
isolate_settings()
from attnviz.gui.common.i18n import install_language
install_language("en")
from attnviz.gui import MainWindow
w = MainWindow("seed-demo")
w.recovery.enable()          # as attnviz.gui.window.start.run() does
painted = []
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Paint: painted.append(o)
        return False
f = F(); w.parts.heads.panels[0].installEventFilter(f)
w.show()
w.recovery.offer_restore()
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

MEMORY = WINDOW_CHILD + """
scenario = scenarios()[{name!r}]
window, watch = open_window(app, scenario)
model = window.findChild(QTableView, "qTable").model()
for r in range(5):
    model.setData(model.index(0, 0), str(r))
    watch.wait(app, [window.parts.heads.panels[0]])
print(status_mb("VmHWM"))
"""


MODEL = """
import json, sys, time, tracemalloc
sys.path.insert(0, {root!r})
import numpy as np
from attnviz.core import lm
from attnviz.core.scenario import Change
from bench.run import status_mb
start = time.perf_counter()
model = lm.load({source!r})
load_s = time.perf_counter() - start
peak = status_mb("VmHWM")
del model
tracemalloc.start()  # a second load, traced (tracing slows the first one down)
model = lm.load({source!r})
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
text = "The cat ate the fish. It was fresh. " * 4
ids = lm.encode(model, text).ids[:32]
assert len(ids) == 32
def time_it(work, repeats):
    samples = []
    for _ in range(repeats):
        t = time.perf_counter(); work(); samples.append((time.perf_counter() - t) * 1000)
    return samples
base = lm.run(model, ids)
forward = time_it(lambda: lm.run(model, ids), {reps})
change = lambda layer: ((layer, 0, Change(off=True)),)
last = model.config.n_layers - 1
rerun = {{layer: time_it(lambda: lm.run(model, ids, change(layer), after=base), {reps})
          for layer in (0, last // 2, last)}}
print(json.dumps({{"load_s": load_s, "peak_mb": peak, "kept_mb": model.weight_bytes() / 2**20,
                  "traced_mb": traced / 2**20, "family": model.config.family, "forward": forward, "rerun": rerun}}))
"""

def model_figures(reps: int, source=None):
    """Loading a real model, a forward pass of 32 tokens, reruns after a change in a layer."""
    return json.loads(child(MODEL.format(root=str(ROOT), reps=reps, source=source)))


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
    return float(child(MEMORY.format(root=str(ROOT), name=name)))


# ---------------------------------------------------------------- report

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a rough look)")
    args = parser.parse_args()
    reps = 8 if args.quick else 40
    from attnviz.core.blas import use_one_thread
    from attnviz.gui.window.app import create_app, isolate_settings
    one_thread = use_one_thread()  # as `attnviz` does at start; the floor shares the process
    app = create_app()
    isolate_settings()
    record = Report()
    sets = scenarios()
    edit_figures(app, sets, reps, record)
    drag_figures(app, sets, record)
    autosave_figures(app, sets["1024x12"], 4 if args.quick else 10, record)
    undo_figures(2000 if args.quick else 10_000, record)
    layer_figures(record)
    overview_figures(reps, record)
    export_figures_recorded(sets["512x12"], 2 if args.quick else 4, record)
    blas_figures(sets, reps, one_thread, record)
    notebook_figures(sets, reps, record)
    startup_figures(reps, record)
    bundle_figures(max(4, reps // 8), record)
    record("peak memory gpt2-small-shape", "MB", peak_memory_mb("gpt2-small-shape"), 250)
    record("peak memory 512x12", "MB", peak_memory_mb("512x12"))
    model_figures_recorded(reps, record)
    quant_figures(args.quick, record)
    compact_figures(args.quick, record)
    speed_figures(args.quick, record)
    research_figures(args.quick, record)
    ioi_figures(args.quick, record)
    print_table(record.results)
    for entry in record.results:
        print(json.dumps({**entry, "machine": machine()}, ensure_ascii=False))
    return 0


class Report:
    """The figures so far; calling it records one (with its target and whether it is met)."""

    def __init__(self):
        self.results: list[dict] = []

    def __call__(self, name, unit, value, target=None, better="lower", **extra) -> None:
        entry = {"benchmark": name, "unit": unit, **(value if isinstance(value, dict) else {"value": value}),
                 **extra}
        if target is not None:
            figure = entry.get("median", entry.get("value"))
            entry["target"], entry["better"] = target, better
            entry["met"] = bool(figure <= target) if better == "lower" else bool(figure >= target)
        self.results.append(entry)

    def find(self, prefix: str) -> dict:
        return next(r for r in self.results if r["benchmark"].startswith(prefix))


def edit_figures(app, sets, reps, record) -> None:
    """Edit-to-screen, AttnViz ÷ floor at each size, and the core's share of AttnViz's time."""
    for name, scenario in sets.items():
        per_block = max(2, reps // 8) if scenario.n >= 512 else max(4, reps // 4)
        ours, floor = versus_floor(app, scenario, 4 if scenario.n >= 512 else 6, per_block)
        ours_s, floor_s = summary(ours), summary(floor)
        record(f"edit-to-screen {name} ({shape(scenario)})", "ms", ours_s, TARGETS_MS.get(name))
        record(f"  floor program, same edits {shape(scenario)}", "ms", floor_s)
        record(f"  AttnViz ÷ floor {shape(scenario)}", "×", ours_s["median"] / floor_s["median"], FLOOR_RATIO)
        core = summary(core_alone(scenario, max(5, reps // 4)))
        record(f"  core alone, all heads {shape(scenario)}", "ms", core)


def drag_figures(app, sets, record) -> None:
    for name in ("gpt2-small-shape", "128x12"):
        ours, floor = drag_versus_floor(app, sets[name])
        shape_ = shape(sets[name])
        record(f"slider drag {name} ({shape_})", "updates/s", ours, 30 if name == "gpt2-small-shape" else None,
               better="higher")
        record(f"  floor program, same drag {shape_}", "updates/s", floor)
        record(f"  AttnViz ÷ floor, drag {shape_}", "×", ours / floor, DRAG_SHARE, better="higher")


def autosave_figures(app, scenario, rounds, record) -> None:
    writing, off, copies = autosave_stalls(app, scenario, rounds)
    if copies < 1:
        raise RuntimeError("the autosave benchmark saw no copy written")
    record(f"longest GUI stall while autosave writes, {shape(scenario)}", "ms", max(writing), STALL_MS,
           rounds=rounds, copies=copies, per_round=[round(x, 1) for x in writing])
    record(f"  longest stall in the same idle time, autosave off {shape(scenario)}", "ms", max(off),
           per_round=[round(x, 1) for x in off])


def undo_figures(count, record) -> None:
    grown, steps = undo_growth(count)
    record(f"memory growth over {count:,} random edits, 512×12", "MB", grown, UNDO_GROWTH_MB,
           undo_steps_kept=steps)


def layer_figures(record) -> None:
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="attnviz-bench-layers-"))
    tiny = layer_switches(layered_file(folder, 1, compressed=False, n=8), [])
    alone = layer_switches(layered_file(folder, 1, compressed=False), [])
    one_layer_mb = alone["peak_mb"] - tiny["peak_mb"]  # what a layer of 512×12 costs the window
    order = [5, 11, 3, 8, 0, 9, 1, 6]
    stored = layer_switches(layered_file(folder, 12, compressed=False), order)
    record("layer switch, 12 layers × 12 heads × 512 (np.savez)", "ms", summary(stored["switches"]),
           LAYER_SWITCH_MS)
    packed = layer_switches(layered_file(folder, 12, compressed=True), order)
    first, again = packed["switches"][:2], packed["switches"][2:]  # 5 and 11 are first visits
    record("layer switch, same, np.savez_compressed, first visits", "ms", summary(first),
           note="a deflate stream has no index: the first visit to a late layer inflates those before it")
    record("layer switch, same, np.savez_compressed, layers seen before", "ms", summary(again), LAYER_SWITCH_MS)
    record("peak memory, window on one layer of 8×12", "MB", tiny["peak_mb"])
    record("peak memory, window on one layer of 512×12", "MB", alone["peak_mb"])
    record("  so one layer of 512×12 costs (weights, logs, pixels)", "MB", one_layer_mb)
    for label, run in (("np.savez", stored), ("np.savez_compressed", packed)):
        # the target: the window and two layers at most (the one shown and the one coming)
        record(f"  peak over that, 12-layer file ({label}), 8 switches", "MB", run["peak_mb"] - alone["peak_mb"],
               round(one_layer_mb, 1))
    longest = layer_switches(layered_file(folder, 2, compressed=False, n=2048), [1, 0] * 4)
    record("layer switch, 2 layers × 12 heads × 2,048 tokens (np.savez)", "ms", summary(longest["switches"]),
           LAYER_SWITCH_MS * 4, note="the 512-token target scaled by (2048/1024)²")
    record("  peak memory, window on it", "MB", longest["peak_mb"])
    path = layered_file(folder, 2, compressed=False, n=4096, heads=4)
    widest = layer_switches(path, [1, 0] * 3)
    path.unlink()  # half a gigabyte
    record("layer switch, 2 layers × 4 heads × 4,096 tokens (np.savez)", "ms", summary(widest["switches"]), 1000)
    record("  peak memory, window on it", "MB", widest["peak_mb"])


def overview_figures(reps, record) -> None:
    """The overview of a real model's shape (30 layers × 9 heads, 34 tokens) drawn once."""
    from PySide6.QtGui import QImage, QPainter

    from attnviz.core.summary import summarise
    from attnviz.gui.overview.dialog import OverviewFigure
    rng = np.random.default_rng(0)
    causal = np.tril(np.ones((34, 34)))
    layers = []
    for _ in range(30):
        w = rng.random((9, 34, 34)) ** 4 * causal
        layers.append(w / w.sum(-1, keepdims=True))
    started = time.perf_counter()
    figure = OverviewFigure(summarise([f"t{i}" for i in range(34)], layers), "30 × 9")
    made = (time.perf_counter() - started) * 1000
    size = figure.size().toSize()
    samples = []
    for _ in range(reps):
        image = QImage(size, QImage.Format_ARGB32)
        started = time.perf_counter()
        p = QPainter(image)
        figure.paint(p)
        p.end()
        samples.append((time.perf_counter() - started) * 1000)
    record("overview of 30 layers × 9 heads × 34 tokens: one paint", "ms", summary(samples), 100)
    record("  its statistics and thumbnails, gathered once", "ms", made)


def export_figures_recorded(scenario, repeats, record) -> None:
    for suffix, (samples, megabytes) in export_figures(scenario, repeats).items():
        record(f"export {suffix.upper()} of all heads, {shape(scenario)}", "s", summary(samples), EXPORT_S)
        record("  its size", "MB", megabytes, EXPORT_MB)


def blas_figures(sets, reps, one_thread, record) -> None:
    for busy in (False, True):
        for name in ("128x12", "512x12"):
            samples = blas_threads(sets[name], reps * 2, busy)
            for threads in (1, 2):
                p90 = float(np.percentile(samples[threads], 90))
                record(f"one head's attention, {threads} BLAS thread{'s' * (threads > 1)}, {shape(sets[name])}"
                       f"{', one core busy' if busy else ''} (p90 {_num(p90)} ms)", "ms", summary(samples[threads]),
                       p90=p90)
    record("BLAS limited to one thread at start (threadpoolctl)", "", "yes" if one_thread else "no (chosen by env)")


def notebook_figures(sets, reps, record) -> None:
    for name in ("seed-demo", "gpt2-small-shape"):
        notebook = summary(notebook_way(sets[name], max(3, reps // 8)))
        ours = record.find(f"edit-to-screen {name}")
        record(f"notebook way {name}", "ms", notebook)
        record(f"speed-up over the notebook way {name}", "×", notebook["median"] / ours["median"],
               20 if name == "gpt2-small-shape" else None, better="higher")


def startup_figures(reps, record) -> None:
    app_start = summary(startup(STARTUP_APP, max(5, reps // 4)))
    floor = summary(startup(STARTUP_FLOOR, max(5, reps // 4)))
    record("start-up to first paint", "ms", app_start)
    record("start-up floor (one pyqtgraph ImageItem)", "ms", floor)
    record("start-up ratio to the floor", "×", app_start["median"] / floor["median"], 1.5)


def model_figures_recorded(reps, record) -> None:
    """Every family: the real models installed (SmolLM2 for llama, Gemma 3 for gemma3) and random
    ones of real size for the others (bench/families.py); load time, peak memory, the most held
    while loading against what the model keeps, a forward pass and reruns."""
    import tempfile

    from attnviz.core import lm
    from attnviz.core.lm import catalog
    from bench import families
    with tempfile.TemporaryDirectory(prefix="attnviz-bench-families-") as folder:
        models = [(name, source) for name, source, there in (
            ("smollm2-135m", None, lm.bundled_model() is not None),
            ("gemma3-270m", lm.GEMMA_ID, catalog.gemma_chunks() is not None)) if there]
        models += [(f"random {f}", str(families.write(f, Path(folder) / f))) for f in families.SIZES]
        for name, source in models:
            _model_rows(name, model_figures(max(3, reps // 4), source), record)


def _model_rows(name, m, record) -> None:
    label = f"{name} ({m['family']})"
    record(f"{label}: load (file → ready)", "s", m["load_s"], 20)
    record(f"{label}: peak memory after loading", "MB", m["peak_mb"], 2048, weights_mb=round(m["kept_mb"], 1))
    record(f"{label}: most held while loading ÷ weights kept", "×", m["traced_mb"] / m["kept_mb"], 1.1)
    forward = summary(m["forward"])
    record(f"{label}: forward pass, 32 tokens", "ms", forward, 1000)
    for layer, samples in m["rerun"].items():
        rerun = summary(samples)
        record(f"{label}: rerun after a change in layer {layer}", "ms", rerun,
               share_of_forward=round(rerun["median"] / forward["median"], 3))


def quant_figures(quick: bool, record) -> None:
    """AttnViz's own dequantisers ÷ gguf's on 4 M values of each type (bench/quants.py; issue 48: ≥ 5×)."""
    from bench import quants
    for e in quants.measure(3 if quick else 7):
        record(f"dequantise {e['type']}: speed ÷ gguf's", "×", e["ratio"], 5, better="higher", own_ms=e["own_ms"])


def compact_figures(quick: bool, record) -> None:
    """Models of 1–4B parameters (bench/compact.py; issue 48): a Llama 3.2 1B-shaped Q4_K file compact and fast
    against transformers' GGUF loader, in turn; a Gemma 3 4B-shaped one compact."""
    from bench import compact
    runs = compact.measure(1 if quick else 2)
    for name, unit, value, target, better in compact.report(runs):
        record(name, unit, value, target, better=better)


def speed_figures(quick: bool, record) -> None:
    """The real model at the machine's speed (issue: a pass no slower than PyTorch, within 2× of
    the FLOP floor, the window adding nothing, 4,096 tokens): bench/model_speed.py and
    bench/model_window.py, each in a process of its own, and the memory a long run keeps."""
    from bench import model_speed
    tokens = [10, 100, 1000] if quick else [10, 100, 1000, 4096]
    for e in model_speed.measure(tokens, 3 if quick else 5):
        n = e["tokens"]
        record(f"real model: forward pass, {n} tokens", "s", e["attnviz_s"], gflops=round(e["gflops"]),
               gflop=round(e["gflop"], 1))
        if "pytorch_s" in e:
            record(f"real model: forward pass, {n} tokens ÷ PyTorch (SDPA, same file, same threads)", "×",
                   summary(e["pairs"]), 1.0, pytorch_s=round(e["pytorch_s"], 3))
        record(f"real model: forward pass, {n} tokens ÷ the FLOP floor ({e['floor_gflops']:.0f} GFLOP/s)", "×",
               e["vs_floor"], 2.0 if n >= 1000 else None)
    script = ("import json, sys; sys.path.insert(0, {root!r}); from bench import model_window; "
              "print(json.dumps([e for n, r in {sizes!r} for e in model_window.figures(n, r)]))")
    sizes = [(1000, 2)] if quick else [(1000, 3), (4096, 1)]
    for e in json.loads(child(script.format(root=str(ROOT), sizes=sizes))):
        added = None if e.get("information") else round(max(0.1 * e["model_s"], 0.2), 2)
        record(f"window: {e['what']}, added to the model's own", "s", e["added_s"], added,
               window_s=round(e["window_s"], 3), model_s=round(e["model_s"], 3))
        if "peak_mb" in e:
            record(f"window: {e['what']}, peak memory", "MB", e["peak_mb"])
    for n, kept, peak in json.loads(child(MEMORY_RUN.format(root=str(ROOT)))):
        record(f"real model: a {n}-token run, arrays kept", "MB", kept)
        record(f"real model: a {n}-token run, peak memory of the process", "MB", peak)


def research_figures(quick: bool, record) -> None:
    """The research workbench on the real model (bench/research.py, in a process of its own): each
    tab's work beside one forward pass of the same text, and the sweep against its reruns one at a time."""
    script = ("import json, sys; sys.path.insert(0, {root!r}); from bench import research; "
              "print(json.dumps(research.figures(rounds={rounds}, quick={quick})))")
    from attnviz.core import lm
    if lm.bundled_model() is None:
        return
    entries = json.loads(child(script.format(root=str(ROOT), rounds=1 if quick else 3, quick=quick)))
    forward = next(e["s"] for e in entries if e["what"] == "one forward pass")
    for e in entries:
        if "ratio" in e:
            record(f"research: {e['what']}, {e['tokens']} tokens", "×", e["ratio"], 1.0,
                   one_at_a_time_s=round(e["one_at_a_time_s"], 2))
            continue
        target = 10.0 if e["what"].startswith("sweep") else None  # "sweeps all 270 heads in seconds"
        record(f"research: {e['what']}, {e['tokens']} tokens", "s", e["s"], target,
               forward_passes=round(e["s"] / forward, 1))


def ioi_figures(quick: bool, record) -> None:
    """IOI patching of every head over 50 prompt pairs, AttnViz ÷ TransformerLens 4.3 on the same
    GGUF file, asked in turn (bench/ioi.py; the issue: no more time than TransformerLens)."""
    from attnviz.core import lm
    from bench import ioi
    if lm.bundled_model() is None:
        return
    found = ioi.figures(pairs=50, rounds=1 if quick else 3)
    if "skipped" in found:
        print(f"IOI against TransformerLens skipped: {found['skipped']}")
        return
    what = f"research: IOI patching, {found['pairs']} pairs × {found['heads']} heads"
    record(f"{what}, AttnViz", "s", summary(found["attnviz_s"]))
    record(f"{what}, TransformerLens 4.3", "s", summary(found["transformer_lens_s"]))
    record(f"{what}, AttnViz ÷ TransformerLens (same file, same threads)", "×", summary(found["ratios"]), 1.0,
           largest_difference=found["largest_difference"])


MEMORY_RUN = """
import json, sys
sys.path.insert(0, {root!r})
import numpy as np
from attnviz.core import lm
from bench.run import status_mb
model = lm.load()
out = []
for n in (1000, 4096):
    result = lm.run(model, np.random.default_rng(0).integers(0, 49152, n))
    kept = sum(a.nbytes for f in ("streams", "q", "k", "v") for a in getattr(result, f)) / 2**20
    out.append((n, kept, status_mb("VmHWM")))
    del result
print(json.dumps(out))
"""


def bundle_startup(reps: int) -> tuple[list[float], list[float]] | None:
    """Seconds from start to a written screenshot: the venv's attnviz and the standalone bundle,
    alternating (the same machine noise for both); None without dist/AttnViz (make bundle)."""
    import tempfile
    bundle = ROOT / "dist" / "AttnViz" / "AttnViz"
    if not bundle.is_file():
        return None
    venv = Path(sys.executable).with_name("attnviz")
    out = Path(tempfile.mkdtemp()) / "shot.png"
    times = {venv: [], bundle: []}
    for _ in range(reps):
        for program in (venv, bundle):
            started = time.perf_counter()
            subprocess.run([str(program), "screenshot", "seed-demo", "-o", str(out)], check=True, capture_output=True)
            times[program].append(time.perf_counter() - started)
    return times[venv], times[bundle]


def bundle_figures(reps, record) -> None:
    measured = bundle_startup(reps)
    if measured is None:
        record("standalone bundle start-up", "", "not measured: no dist/AttnViz (make bundle)")
        return
    venv, bundle = (summary([s * 1000 for s in samples]) for samples in measured)
    record("start-up to a written screenshot, venv attnviz", "ms", venv)
    record("start-up to a written screenshot, dist/AttnViz bundle", "ms", bundle)
    record("  bundle ÷ venv start-up", "×", bundle["median"] / venv["median"], 1.5)


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def _num(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def print_table(results) -> None:
    print(f"AttnViz benchmarks on {machine()}, {time.strftime('%Y-%m-%d')}")
    print(f"| {'benchmark':<74} | {'median':>14} | {'q1–q3':>13} | {'target':>8} | met |")
    print(f"|{'-' * 76}|{'-' * 15}:|{'-' * 14}:|{'-' * 9}:|:---:|")
    for r in results:
        figure = r.get("median", r.get("value"))
        value = f"{_num(figure)} {r['unit']}".strip() if isinstance(figure, (int, float)) else str(figure)
        spread = f"{_num(r['q1'])}–{_num(r['q3'])}" if "q1" in r else ""
        target = f"{'≥' if r.get('better') == 'higher' else '≤'} {r['target']}" if "target" in r else ""
        met = {True: "met", False: "**no**"}.get(r.get("met"), "")
        print(f"| {r['benchmark']:<74} | {value:>14} | {spread:>13} | {target:>8} | {met:^3} |")


if __name__ == "__main__":
    sys.exit(main())
