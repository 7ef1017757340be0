"""The window on the real model against the model alone, side by side in one process: opening a
text (from Run to its heads, steps and next tokens drawn) against the forward pass over the same
ids, and rerunning after an edit (from the edit to the next-token panel drawn) against the rerun
from the edited layer. The two alternate, so the machine's noise falls on both alike.

    python bench/model_window.py [--tokens 1000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ATTNVIZ_DATA_DIR", str(Path("/tmp") / "attnviz-bench-data"))


def text_of(model, n: int) -> str:
    """A text the model reads as exactly n tokens (words of the tutorial's sentences, cut to n)."""
    from attnviz.core import lm
    words = ("The cat ate the fish. It was fresh. " * (n // 4 + 8)).split(" ")
    lo, hi = 1, len(words)
    while lo < hi:  # the fewest words that make at least n tokens
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if len(model.tokenizer.encode(" ".join(words[:mid]))) < n else (lo, mid)
    text = " ".join(words[:lo])
    ids = lm.encode(model, text).ids
    return text if len(ids) == n else model.tokenizer.backend.decode(list(ids[:n]))


def settle(app, window, limit: float = 600.0) -> None:
    """Until the model is idle with the run of what is shown and the next-token panel has drawn
    it (the last thing to change on screen). The window's own event loop waits, as when a person
    uses it, asked every 2 ms whether it is done."""
    from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
    runner = window.model.runner
    panel = window.findChild(QObject, "nextTokenView")
    loop, timer, start, painted = QEventLoop(), QTimer(interval=2), time.perf_counter(), []

    class Watch(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and not runner.busy and runner.current() is not None:
                painted.append(obj)
            return False
    watch = Watch()
    for widget in (panel, *panel.findChildren(QObject)):
        if hasattr(widget, "installEventFilter"):
            widget.installEventFilter(watch)

    def done():
        if painted or (not runner.busy and runner.current() is not None and not panel.isVisible()):
            loop.quit()
        elif time.perf_counter() - start > limit:
            raise RuntimeError("the model did not finish")
    timer.timeout.connect(done)
    timer.start()
    loop.exec()
    timer.stop()


def figures(n: int = 1000, rounds: int = 3, warm: int = 2) -> list[dict]:
    """The window against the model alone, `rounds` times, after `warm` opens of the same text
    (each with the model's own pass beside it, as in a round), the first of them reported on its
    own: a process's first texts meet memory it has never used (lm/allocator.py: on this project's
    virtual machine the kernel takes 5 ms for each fresh 2 MB), and from the third on the window
    reuses what the last ones freed."""
    import numpy as np
    from PySide6.QtWidgets import QTableView

    from attnviz.core import lm
    from attnviz.core.blas import use_one_thread
    from attnviz.core.lm.allocator import one_heap
    from attnviz.core.presets import open_named
    from attnviz.gui import MainWindow
    from attnviz.gui.window.app import create_app, isolate_settings
    if lm.bundled_model() is None:
        return []
    one_heap()  # as `attnviz` starts
    use_one_thread()
    app = create_app()
    isolate_settings()
    window = MainWindow(open_named("seed-demo", lang="en"))
    window.resize(1600, 1000)
    window.show()
    model = window.model.runner._load(None, _Never())
    text = text_of(model, n)
    ids = lm.encode(model, text).ids
    opened, forward, edited, rerun, first = [], [], {}, {}, []
    for _ in range(warm):  # as a round starts: the window's run and the model's own both alive
        first.append(_opened(app, window, text))
        base = lm.run(model, ids)
    for _ in range(rounds):
        opened.append(_opened(app, window, text))
        start = time.perf_counter()
        base = lm.run(model, ids)
        forward.append(time.perf_counter() - start)
        for layer in (0, model.config.n_layers - 1):
            if window.document.scenario.live.layer != layer:
                window.open_layer(layer)
                settle(app, window)
            table = window.findChild(QTableView, "qTable").model()
            start = time.perf_counter()
            table.setData(table.index(n - 1, 0), f"{2.5 + len(edited.get(layer, []))}")
            settle(app, window)
            edited.setdefault(layer, []).append(time.perf_counter() - start)
            change = window.document.scenario.live.changes
            start = time.perf_counter()
            lm.run(model, ids, change, after=base)
            rerun.setdefault(layer, []).append(time.perf_counter() - start)
            window.document.undo_stack.undo()
            settle(app, window)
            window.open_layer(0)
            settle(app, window)
    window.document.undo_stack.setClean()
    window.close()
    out = [{"what": f"open a {n}-token text", "window_s": float(np.median(opened)),
            "model_s": float(np.median(forward)), "peak_mb": _peak_mb()}]
    if first:
        out.append({"what": f"open a {n}-token text, the process's first", "window_s": first[0],
                    "model_s": float(np.median(forward)), "information": True})
    for layer in edited:
        out.append({"what": f"rerun after an edit in layer {layer}", "window_s": float(np.median(edited[layer])),
                    "model_s": float(np.median(rerun[layer]))})
    for entry in out:
        entry["added_s"] = entry["window_s"] - entry["model_s"]
        entry["ratio"] = entry["window_s"] / entry["model_s"]
    return out


def _opened(app, window, text: str) -> float:
    """Seconds from Run to the window settled on `text` (the last one's edits set aside unasked)."""
    window.document.undo_stack.setClean()
    start = time.perf_counter()
    window.model.run(text)
    settle(app, window)
    return time.perf_counter() - start


def _peak_mb() -> float:
    from bench.run import status_mb
    return status_mb("VmHWM")


class _Never:
    def is_set(self) -> bool:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for entry in figures(args.tokens, args.rounds):
        print(json.dumps(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
