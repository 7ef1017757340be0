"""A long session at 512 tokens × 12 heads with autosave on: does the window ever freeze, does
the process grow without bound?

    make soak                    # 30 minutes
    make soak ARGS="--minutes 5"

Cycles of a burst of random actions (cell edits of q, k, v in any head, undo, redo, the
temperature slider, another query) followed by 2.5 s of idle time, in which autosave
copies the work on its worker thread. Per cycle it records the longest gap of a 2 ms probe
timer in the idle time, overall and while a copy was being written (this machine is shared:
it stalls now and then on its own), and the process's resident memory; it prints one line per
minute and a summary with the targets.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ATTNVIZ_DATA_DIR", str(Path(tempfile.gettempdir()) / "attnviz-soak-data"))

import numpy as np  # noqa: E402

from bench.run import STALL_MS, idle_stalls, open_window, status_mb, synthetic  # noqa: E402

BURST = 20            # actions between idle times
IDLE_S = 2.5          # autosave writes 2 s after the first unsaved change
GROWTH_MB = 50        # from the second quarter of the session to the last: bounded, not creeping


def actions(window, rng):
    """The random actions a user takes, as functions of no arguments."""
    from PySide6.QtWidgets import QTableView
    models = [window.findChild(QTableView, f"{m}Table").model() for m in "qkv"]
    slider = window.parts.settings_bar.temperature
    d = window.document
    n = d.scenario.n

    def edit():
        if rng.random() < 0.1:
            d.select(head=int(rng.integers(len(d.scenario.heads))))
        model = models[int(rng.integers(3))]
        model.setData(model.index(int(rng.integers(n)), int(rng.integers(model.columnCount()))),
                      f"{rng.normal():.3f}")

    def drag():
        slider.setSliderDown(True)
        for _ in range(5):
            slider.setValue(int(rng.integers(-100, 100)))
        slider.setSliderDown(False)

    return [(0.7, edit), (0.1, d.undo_stack.undo), (0.05, d.undo_stack.redo), (0.1, drag),
            (0.05, lambda: d.select(query=int(rng.integers(n))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    args = parser.parse_args()
    from attnviz.core.blas import use_one_thread
    from attnviz.gui.window.app import create_app, isolate_settings
    use_one_thread()
    app = create_app()
    isolate_settings()
    window, _ = open_window(app, synthetic(512))
    window.recovery.enable(Path(tempfile.mkdtemp(prefix="attnviz-soak-")))
    rng = np.random.default_rng(0)
    weights, moves = zip(*actions(window, rng))
    weights = np.array(weights) / sum(weights)
    start, samples, last_print = time.perf_counter(), [], 0.0
    print(f"soak: 512×12, autosave on, {args.minutes:g} minutes; minute, actions, longest idle stall, memory")
    done = 0
    while time.perf_counter() - start < args.minutes * 60:
        slowest = 0.0
        for _ in range(BURST):
            t = time.perf_counter()
            moves[rng.choice(len(moves), p=weights)]()
            app.processEvents()
            slowest = max(slowest, (time.perf_counter() - t) * 1000)
            done += 1
        stall, writing = idle_stalls(app, IDLE_S, lambda: window.recovery.autosave.busy)
        gc.collect()
        elapsed = (time.perf_counter() - start) / 60
        samples.append((elapsed, stall, writing, slowest, status_mb("VmRSS")))
        if elapsed - last_print >= 1 or not last_print:
            last_print = elapsed
            print(f"{elapsed:6.1f} min  {done:6d} actions  stall {stall:6.1f} ms  slowest action {slowest:6.0f} ms  "
                  f"{samples[-1][4]:6.0f} MB  autosave copies {window.recovery.autosave.writes}", flush=True)
    report(samples, window.recovery.autosave.writes, window.document.undo_stack.count())
    window.document.undo_stack.setClean()
    window.close()
    return 0


def report(samples, copies: int, steps: int) -> None:
    elapsed, stalls, writing, slowest, memory = (np.array(column) for column in zip(*samples))
    # Growth is the trend, not the swing: a full recompute at 512×12 allocates ~100 MB for a
    # moment, so the resident size swings with each cycle. Compare the second and last quarters.
    quarter = elapsed[-1] / 4
    early = np.median(memory[(elapsed >= quarter) & (elapsed < 2 * quarter)])
    late = np.median(memory[elapsed >= 3 * quarter])
    growth = float(late - early)
    print(f"\n{len(samples)} cycles over {elapsed[-1]:.1f} min, {copies} autosave copies, {steps} undo steps kept")
    print(f"longest stall while autosave was writing: {writing.max():.1f} ms (target ≤ {STALL_MS}: "
          f"{'met' if writing.max() <= STALL_MS else 'NOT met'}); median {np.median(writing):.1f} ms")
    print(f"longest stall in any idle time: {stalls.max():.1f} ms, median {np.median(stalls):.1f} ms; "
          f"{int((stalls > STALL_MS).sum())} of {len(stalls)} idle times had one over {STALL_MS} ms, "
          f"{int((stalls > 100).sum())} over 100 ms")
    print(f"slowest single action (an edit or a 5-step drag, to screen): {slowest.max():.0f} ms, "
          f"median of the per-cycle slowest {np.median(slowest):.0f} ms")
    trend = (f"median of the last quarter minus that of the second: {growth:+.0f} MB (target ≤ {GROWTH_MB}: "
             f"{'met' if growth <= GROWTH_MB else 'NOT met'})") if np.isfinite(growth) else "too short for a trend"
    print(f"memory: {memory[0]:.0f} MB after the first cycle, {memory.min():.0f}–{memory.max():.0f} MB "
          f"over the session, {memory[-1]:.0f} MB at the end; {trend}")


if __name__ == "__main__":
    sys.exit(main())
